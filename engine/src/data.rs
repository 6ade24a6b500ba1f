//! Training data on disk: a labelled position packed into 32 bytes, and the file that
//! holds such records behind a versioned header.
//!
//! Datagen writes it, the data tools merge, shuffle and split it, the tuner and the
//! network trainer read it. The layout is documented in `docs/data.md`; in short (little
//! endian throughout):
//!
//! ```text
//! header   magic "CUTOFFPK" | version u16 | record size u16 | generator, 20 bytes ASCII
//! record   0..8   occupancy u64, bit i = square i (a1 = 0 … h8 = 63)
//!          8..24  a 4-bit code per occupied square in ascending order, low nibble first:
//!                 colour << 3 | kind (pawn 0 … king 5; 6 = a rook with a castling right)
//!          24     side to move in bit 7 (1 = Black), en-passant square in bits 0..6 (64: none)
//!          25     halfmove clock      26..28 fullmove number (u16)
//!          28..30 score, i16 centipawns from White's view
//!          30     result from White's view: 0 Black won, 1 draw, 2 White won
//!          31     reserved, 0
//! ```
//!
//! Records are independent, so a file cut short loses only its partial last record, and
//! files concatenate (after the first header) without rewriting. Every read checks the
//! header and each record, and names the byte offset of the first thing that is wrong.

use std::io::{self, Read, Write};
use std::num::NonZeroU32;

use shakmaty::{
    Bitboard, CastlingMode, Chess, Color, EnPassantMode, Piece, Position, Role, Setup, Square,
};

use crate::board::{Board, position_from_setup};

/// Bytes of one record.
pub const RECORD_BYTES: usize = 32;
/// Bytes of the file header.
pub const HEADER_BYTES: usize = 32;
/// The first eight bytes of every data file.
pub const MAGIC: [u8; 8] = *b"CUTOFFPK";
/// The format this code reads and writes.
pub const FORMAT_VERSION: u16 = 1;
/// Bytes of the header's generator field (who wrote the file: engine version and commit).
pub const GENERATOR_BYTES: usize = 20;

/// The en-passant field's value when there is no en-passant square.
const NO_EP: u8 = 64;
/// The piece code's kind for a rook that still carries a castling right.
const CASTLING_ROOK: u8 = 6;
/// Side-to-move bit of byte 24.
const BLACK_TO_MOVE: u8 = 0x80;

/// A game's result, from White's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// White won (1-0).
    WhiteWins,
    /// A draw (1/2-1/2).
    Draw,
    /// Black won (0-1).
    BlackWins,
}

impl Outcome {
    /// The result as the text format writes it: `1.0`, `0.5` or `0.0`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1.0",
            Outcome::Draw => "0.5",
            Outcome::BlackWins => "0.0",
        }
    }

    /// White's points: 1, 0.5 or 0.
    pub fn white_points(self) -> f64 {
        match self {
            Outcome::WhiteWins => 1.0,
            Outcome::Draw => 0.5,
            Outcome::BlackWins => 0.0,
        }
    }

    /// A win for `side`.
    pub fn win_for(side: Color) -> Outcome {
        match side {
            Color::White => Outcome::WhiteWins,
            Color::Black => Outcome::BlackWins,
        }
    }

    /// Reads the text format's result (`1.0`, `1`, `0.5`, `0.0`, `0`; PGN's `1-0`,
    /// `1/2-1/2`, `0-1`).
    pub fn parse(text: &str) -> Option<Outcome> {
        match text {
            "1.0" | "1" | "1-0" => Some(Outcome::WhiteWins),
            "0.5" | "1/2-1/2" => Some(Outcome::Draw),
            "0.0" | "0" | "0-1" => Some(Outcome::BlackWins),
            _ => None,
        }
    }

    fn to_byte(self) -> u8 {
        match self {
            Outcome::BlackWins => 0,
            Outcome::Draw => 1,
            Outcome::WhiteWins => 2,
        }
    }

    fn from_byte(byte: u8) -> Option<Outcome> {
        match byte {
            0 => Some(Outcome::BlackWins),
            1 => Some(Outcome::Draw),
            2 => Some(Outcome::WhiteWins),
            _ => None,
        }
    }
}

/// Why data was refused: what is wrong and at which byte of the stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataError {
    /// Offset of the header or record at fault, from the start of the stream.
    pub offset: u64,
    /// What is wrong there.
    pub message: String,
}

impl std::fmt::Display for DataError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for DataError {}

pub(crate) fn error(offset: u64, message: impl Into<String>) -> DataError {
    DataError {
        offset,
        message: message.into(),
    }
}

/// The file header: the format version and the engine that wrote the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The engine and version that wrote the file.
    pub generator: String,
}

impl Header {
    /// A header naming `generator` (cut to [`GENERATOR_BYTES`]; non-ASCII replaced).
    pub fn new(generator: &str) -> Header {
        let generator: String = generator
            .chars()
            .map(|c| {
                if c.is_ascii_graphic() || c == ' ' {
                    c
                } else {
                    '?'
                }
            })
            .take(GENERATOR_BYTES)
            .collect();
        Header { generator }
    }

    /// The header's bytes.
    pub fn to_bytes(&self) -> [u8; HEADER_BYTES] {
        let mut bytes = [0; HEADER_BYTES];
        bytes[..8].copy_from_slice(&MAGIC);
        bytes[8..10].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        bytes[10..12].copy_from_slice(&(RECORD_BYTES as u16).to_le_bytes());
        self.write_generator(&mut bytes[12..]);
        bytes
    }

    /// Writes the generator, zero-padded, into its [`GENERATOR_BYTES`] field.
    pub(crate) fn write_generator(&self, field: &mut [u8]) {
        let name = self.generator.as_bytes();
        field[..name.len()].copy_from_slice(name);
    }

    /// Reads a generator field (at byte `offset` of the file): zero-padded ASCII.
    pub(crate) fn read_generator(field: &[u8], offset: u64) -> Result<Header, DataError> {
        let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
        if field[end..].iter().any(|&b| b != 0) || !field[..end].is_ascii() {
            return Err(error(offset, "generator field is not zero-padded ASCII"));
        }
        Ok(Header {
            generator: String::from_utf8_lossy(&field[..end]).into_owned(),
        })
    }

    /// Reads and checks a header.
    pub fn from_bytes(bytes: &[u8; HEADER_BYTES]) -> Result<Header, DataError> {
        if bytes[..8] != MAGIC {
            return Err(error(0, "not a Cutoff data file (no CUTOFFPK magic)"));
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version != FORMAT_VERSION {
            return Err(error(
                8,
                format!("format version {version}; this build reads version {FORMAT_VERSION}"),
            ));
        }
        let record = u16::from_le_bytes([bytes[10], bytes[11]]);
        if usize::from(record) != RECORD_BYTES {
            return Err(error(
                10,
                format!("record size {record}; version {FORMAT_VERSION} has {RECORD_BYTES}"),
            ));
        }
        Header::read_generator(&bytes[12..], 12)
    }
}

/// One labelled position in its packed form.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PackedPosition(pub [u8; RECORD_BYTES]);

impl std::fmt::Debug for PackedPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.unpack() {
            Ok(sample) => write!(
                f,
                "PackedPosition({} | {} | {})",
                sample.board.fen(),
                sample.white_score,
                sample.outcome.as_str()
            ),
            Err(e) => write!(f, "PackedPosition(invalid: {e})"),
        }
    }
}

/// A record unpacked: the position, its score and its game's result (White's view both).
#[derive(Clone, Debug)]
pub struct Sample {
    /// The position.
    pub board: Board,
    /// The search's score of the position, in centipawns from White's view.
    pub white_score: i16,
    /// The game's result.
    pub outcome: Outcome,
}

fn piece_code(piece: Piece, castling_rook: bool) -> u8 {
    let kind = if castling_rook {
        CASTLING_ROOK
    } else {
        piece.role as u8 - 1
    };
    (u8::from(piece.color == Color::Black) << 3) | kind
}

/// The piece a code stands for, and whether it is a rook with a castling right.
fn decode_piece(code: u8) -> Option<(Piece, bool)> {
    let color = if code & 8 == 0 {
        Color::White
    } else {
        Color::Black
    };
    let kind = code & 7;
    let (role, castling) = match kind {
        CASTLING_ROOK => (Role::Rook, true),
        0..=5 => (Role::ALL[usize::from(kind)], false),
        _ => return None,
    };
    Some((Piece { color, role }, castling))
}

impl PackedPosition {
    /// Packs a position with its search score and its game's result (White's view).
    pub fn pack(pos: &Chess, white_score: i16, outcome: Outcome) -> PackedPosition {
        let mut bytes = [0; RECORD_BYTES];
        let board = pos.board();
        let occupied = board.occupied();
        bytes[..8].copy_from_slice(&occupied.0.to_le_bytes());
        let castling = pos.castles().castling_rights();
        for (i, square) in occupied.into_iter().enumerate() {
            let piece = board
                .piece_at(square)
                .expect("an occupied square holds a piece");
            let code = piece_code(piece, castling.contains(square));
            bytes[8 + i / 2] |= code << (4 * (i % 2));
        }
        let ep = pos
            .ep_square(EnPassantMode::Legal)
            .map_or(NO_EP, |sq| sq as u8);
        bytes[24] = ep
            | if pos.turn() == Color::Black {
                BLACK_TO_MOVE
            } else {
                0
            };
        bytes[25] = u8::try_from(pos.halfmoves()).unwrap_or(u8::MAX);
        bytes[26..28].copy_from_slice(
            &u16::try_from(pos.fullmoves().get())
                .unwrap_or(u16::MAX)
                .to_le_bytes(),
        );
        bytes[28..30].copy_from_slice(&white_score.to_le_bytes());
        bytes[30] = outcome.to_byte();
        PackedPosition(bytes)
    }

    fn occupancy(&self) -> Bitboard {
        let mut word = [0; 8];
        word.copy_from_slice(&self.0[..8]);
        Bitboard(u64::from_le_bytes(word))
    }

    fn code(&self, i: usize) -> u8 {
        (self.0[8 + i / 2] >> (4 * (i % 2))) & 0xF
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        if self.0[24] & BLACK_TO_MOVE != 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The search score, centipawns from White's view.
    pub fn white_score(&self) -> i16 {
        i16::from_le_bytes([self.0[28], self.0[29]])
    }

    /// The game's result. Only for records that passed [`PackedPosition::check`]
    /// (the reader checks every record); a draw for an invalid byte.
    pub fn outcome(&self) -> Outcome {
        Outcome::from_byte(self.0[30]).unwrap_or(Outcome::Draw)
    }

    /// The pieces, fast and without a legality check (for a trainer's inner loop; only
    /// for records that passed [`PackedPosition::check`]).
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupancy()
            .into_iter()
            .enumerate()
            .filter_map(|(i, sq)| decode_piece(self.code(i)).map(|(piece, _)| (sq, piece)))
    }

    /// The structural checks a reader applies to every record: at most 32 pieces, every
    /// code a piece, one king a side, padding and reserved bits zero, a known result, a
    /// valid en-passant field. Legality needs [`PackedPosition::unpack`].
    pub fn check(&self) -> Result<(), String> {
        let occupancy = self.occupancy();
        let count = occupancy.count();
        if count > 32 {
            return Err(format!("{count} occupied squares (at most 32)"));
        }
        let mut kings = [0; 2];
        for i in 0..32 {
            let code = self.code(i);
            if i >= count {
                if code != 0 {
                    return Err("nonzero padding after the last piece".to_string());
                }
                continue;
            }
            let Some((piece, _)) = decode_piece(code) else {
                return Err(format!("piece code {code} is not a piece"));
            };
            if piece.role == Role::King {
                kings[piece.color as usize] += 1;
            }
        }
        if kings != [1, 1] {
            return Err(format!(
                "{} black and {} white king(s); one each expected",
                kings[0], kings[1]
            ));
        }
        if self.0[24] & !BLACK_TO_MOVE > NO_EP {
            return Err(format!("en-passant field {}", self.0[24] & !BLACK_TO_MOVE));
        }
        if Outcome::from_byte(self.0[30]).is_none() {
            return Err(format!("result byte {} (0, 1 or 2 expected)", self.0[30]));
        }
        if self.0[31] != 0 {
            return Err("reserved byte is not zero".to_string());
        }
        Ok(())
    }

    /// The record as a position, score and result, checked in full (structure and
    /// legality).
    pub fn unpack(&self) -> Result<Sample, String> {
        self.check()?;
        let mut board = shakmaty::Board::empty();
        let mut castling_rights = Bitboard::EMPTY;
        for (i, square) in self.occupancy().into_iter().enumerate() {
            let (piece, castling) =
                decode_piece(self.code(i)).ok_or("piece code is not a piece")?;
            board.set_piece_at(square, piece);
            if castling {
                castling_rights.add(square);
            }
        }
        let ep = self.0[24] & !BLACK_TO_MOVE;
        let fullmoves = u16::from_le_bytes([self.0[26], self.0[27]]);
        let setup = Setup {
            board,
            castling_rights,
            turn: self.turn(),
            ep_square: (ep != NO_EP).then(|| Square::new(u32::from(ep))),
            halfmoves: u32::from(self.0[25]),
            fullmoves: NonZeroU32::new(u32::from(fullmoves)).ok_or("fullmove number 0")?,
            ..Setup::empty()
        };
        let mode = CastlingMode::detect(&setup);
        let pos = position_from_setup(setup, mode).map_err(|e| e.to_string())?;
        Ok(Sample {
            board: Board::from_position(pos, Vec::new()),
            white_score: self.white_score(),
            outcome: self.outcome(),
        })
    }
}

/// Reads a data stream: the header first ([`Reader::new`]), then one checked record per
/// iteration. A stream that ends inside a record, or a record that fails its checks,
/// yields an error naming the record's offset, and the iteration ends there.
pub struct Reader<R: Read> {
    inner: R,
    header: Header,
    offset: u64,
    failed: bool,
}

impl<R: Read> Reader<R> {
    /// Reads and checks the header.
    pub fn new(mut inner: R) -> Result<Self, DataError> {
        let mut bytes = [0; HEADER_BYTES];
        let got = read_full(&mut inner, &mut bytes).map_err(|e| error(0, e.to_string()))?;
        if got < HEADER_BYTES {
            return Err(error(
                got as u64,
                format!("file ends inside the {HEADER_BYTES}-byte header"),
            ));
        }
        Ok(Reader {
            inner,
            header: Header::from_bytes(&bytes)?,
            offset: HEADER_BYTES as u64,
            failed: false,
        })
    }

    /// The file's header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Byte offset of the next record.
    pub fn offset(&self) -> u64 {
        self.offset
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<PackedPosition, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let mut bytes = [0; RECORD_BYTES];
        let result = match read_full(&mut self.inner, &mut bytes) {
            Ok(0) => return None,
            Ok(RECORD_BYTES) => {
                let record = PackedPosition(bytes);
                record
                    .check()
                    .map(|()| record)
                    .map_err(|e| error(self.offset, format!("bad record: {e}")))
            }
            Ok(got) => Err(error(
                self.offset,
                format!("file ends {got} bytes into a {RECORD_BYTES}-byte record (truncated)"),
            )),
            Err(e) => Err(error(self.offset, e.to_string())),
        };
        self.failed = result.is_err();
        self.offset += RECORD_BYTES as u64;
        Some(result)
    }
}

/// Fills `buf` as far as the stream goes; returns the bytes read.
pub(crate) fn read_full(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Writes a header then records.
pub fn write_header(w: &mut impl Write, header: &Header) -> io::Result<()> {
    w.write_all(&header.to_bytes())
}

/// Appends the records' bytes to `out` (one write a game keeps games whole).
pub fn extend_bytes(out: &mut Vec<u8>, records: &[PackedPosition]) {
    for record in records {
        out.extend_from_slice(&record.0);
    }
}

/// Separates the fields of a text line.
pub const FIELD_SEPARATOR: &str = " | ";

/// The text line of a sample (the tuner's format): `FEN | score | result`, the score in
/// centipawns and the result `1.0`, `0.5` or `0.0`, both from White's view.
pub fn to_text_line(sample: &Sample) -> String {
    format!(
        "{}{FIELD_SEPARATOR}{}{FIELD_SEPARATOR}{}",
        sample.board.fen(),
        sample.white_score,
        sample.outcome.as_str()
    )
}

/// Reads a text line (`FEN | score | result`); the score must fit the record's i16.
pub fn parse_text_line(line: &str) -> Result<Sample, String> {
    let fields: Vec<&str> = line.trim_end().split(FIELD_SEPARATOR).collect();
    let [fen, score, result] = fields[..] else {
        return Err(format!(
            "expected 'FEN | score | result', got {} field(s)",
            fields.len()
        ));
    };
    let board = Board::from_fen(fen, true).map_err(|e| e.to_string())?;
    let white_score = score
        .parse()
        .map_err(|_| format!("score '{score}' is not an integer from -32768 to 32767"))?;
    let outcome = Outcome::parse(result)
        .ok_or_else(|| format!("result '{result}' is not 1.0, 0.5 or 0.0"))?;
    Ok(Sample {
        board,
        white_score,
        outcome,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packed(fen: &str, score: i16, outcome: Outcome) -> PackedPosition {
        let board = Board::from_fen(fen, true).unwrap();
        PackedPosition::pack(board.pos(), score, outcome)
    }

    #[test]
    fn positions_round_trip_exactly() {
        for (fen, score, outcome) in [
            (crate::board::STARTPOS, 17, Outcome::Draw),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 3 17",
                -350,
                Outcome::BlackWins,
            ),
            // En passant that can be taken, Black to move, only one castling right.
            (
                "rnbqk2r/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b Kk e3 0 3",
                i16::MIN,
                Outcome::WhiteWins,
            ),
            // Chess960: rooks on b and g files with rights.
            (
                "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 99 200",
                32767,
                Outcome::Draw,
            ),
            ("8/8/4k3/8/8/8/3PK3/8 b - - 0 1", 0, Outcome::WhiteWins),
        ] {
            let record = packed(fen, score, outcome);
            record.check().unwrap();
            let sample = record.unpack().unwrap();
            let expected = Board::from_fen(fen, true).unwrap();
            assert_eq!(sample.board.fen(), expected.fen(), "{fen}");
            assert_eq!(sample.board.key(), expected.key(), "{fen}");
            assert_eq!(sample.white_score, score);
            assert_eq!(sample.outcome, outcome);
            assert_eq!(record.turn(), expected.turn());
            assert_eq!(
                record.pieces().count(),
                expected.pos().board().occupied().count()
            );
        }
    }

    #[test]
    fn headers_round_trip_and_bad_ones_are_refused() {
        let header = Header::new("cutoff 0.2.0 1026b50");
        let bytes = header.to_bytes();
        assert_eq!(Header::from_bytes(&bytes).unwrap(), header);
        let mut wrong = bytes;
        wrong[0] = b'X';
        assert_eq!(Header::from_bytes(&wrong).unwrap_err().offset, 0);
        let mut wrong = bytes;
        wrong[8] = 2;
        assert!(
            Header::from_bytes(&wrong)
                .unwrap_err()
                .message
                .contains("version 2")
        );
    }

    #[test]
    fn a_stream_reads_back_and_names_the_offset_of_a_fault() {
        let mut bytes = Header::new("test").to_bytes().to_vec();
        let records = [
            packed(crate::board::STARTPOS, 5, Outcome::Draw),
            packed("8/8/4k3/8/8/8/3PK3/8 b - - 0 1", -3, Outcome::BlackWins),
        ];
        extend_bytes(&mut bytes, &records);
        let read: Vec<_> = Reader::new(&bytes[..])
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(read, records);

        // Cut inside the second record.
        let cut = &bytes[..bytes.len() - 5];
        let results: Vec<_> = Reader::new(cut).unwrap().collect();
        assert_eq!(results.len(), 2);
        let e = results[1].clone().unwrap_err();
        assert_eq!(e.offset, (HEADER_BYTES + RECORD_BYTES) as u64);
        assert!(e.message.contains("truncated"), "{e}");

        // A bad result byte in the first record.
        let mut bad = bytes.clone();
        bad[HEADER_BYTES + 30] = 7;
        let e = Reader::new(&bad[..]).unwrap().next().unwrap().unwrap_err();
        assert_eq!(e.offset, HEADER_BYTES as u64);

        // Too short for a header.
        assert_eq!(Reader::new(&bytes[..10]).err().unwrap().offset, 10);
    }

    #[test]
    fn text_lines_round_trip() {
        let line = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 | -37 | 0.5";
        let sample = parse_text_line(line).unwrap();
        assert_eq!(sample.white_score, -37);
        assert_eq!(sample.outcome, Outcome::Draw);
        assert_eq!(to_text_line(&sample), line);
        let record = PackedPosition::pack(sample.board.pos(), -37, Outcome::Draw);
        assert_eq!(to_text_line(&record.unpack().unwrap()), line);
    }

    #[test]
    fn bad_text_lines_are_refused() {
        for line in [
            "",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 | 12",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 | 1.5 | 1.0",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 | 40000 | 1.0",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 | 12 | 2.0",
            "4k3/8/8/8/8/8/4P3/5K2 w - - 0 1 | 12 | 1.0 | x",
            "8/8/8/8/8/8/8/8 w - - 0 1 | 12 | 1.0",
        ] {
            assert!(parse_text_line(line).is_err(), "{line}");
        }
    }

    /// Random records and real ones with random bytes changed: checks and unpacking
    /// answer, never panic, and some damaged records are still caught only by legality.
    #[test]
    fn damaged_records_never_panic() {
        let mut rng = crate::rng::Rng::new(9);
        let real = packed(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 3 17",
            20,
            Outcome::Draw,
        );
        let (mut structural, mut illegal) = (0, 0);
        for i in 0..20_000 {
            let mut bytes = real.0;
            if i % 2 == 0 {
                for byte in bytes.iter_mut() {
                    *byte = rng.next_u64() as u8;
                }
            } else {
                for _ in 0..1 + rng.below(3) {
                    bytes[rng.below(RECORD_BYTES)] = rng.next_u64() as u8;
                }
            }
            let record = PackedPosition(bytes);
            match (record.check(), record.unpack()) {
                (Ok(()), Err(_)) => illegal += 1,
                (Err(_), _) => structural += 1,
                (Ok(()), Ok(_)) => {}
            }
            let _ = format!("{record:?}");
        }
        assert!(structural > 0 && illegal > 0, "{structural} {illegal}");
    }
}
