//! Training data kept as whole games: a game's start position, then every ply's move and
//! search score with a flag saying whether the position before it is a training sample,
//! and the result once. A kept position costs about 6 bytes instead of the 32 of a
//! record ([`crate::data`]), and the games keep what a record drops (every ply, the
//! order of play), so a later filter can choose other positions without replaying them.
//!
//! The body is cut into chunks, each with its length, counts and a checksum, so that a
//! damaged file loses only the chunks that are damaged: the reader names the byte offset
//! of each, skips it, and finds the next chunk by its magic. Little endian throughout:
//!
//! ```text
//! header  0..8   magic "CUTOFFGM"
//!         8..10  version u16 (1)
//!         10..12 zero
//!         12..32 generator, 20 bytes of ASCII, zero-padded (who wrote the file)
//! chunk   0..4   magic "GMCK"
//!         4..8   body length u32 (at most 16 MiB)
//!         8..12  games u32
//!         12..16 kept positions u32 (the plies flagged kept, over all its games)
//!         16..20 checksum u32: 32-bit FNV-1a of bytes 4..16 and the body
//!         20..   body: the games one after the other
//! game    0..28  start position: bytes 0..28 of its 32-byte record (`crate::data`:
//!                occupancy, piece codes, side to move and en passant, both clocks)
//!         28     result from White's view: 0 Black won, 1 draw, 2 White won
//!         29..31 plies u16
//!         31..   4 bytes a ply:
//!                move u16: from square bits 0..6, to square bits 6..12 (castling: the
//!                  rook's square), promotion role bits 12..15 (0 none, 2 knight …
//!                  5 queen), bit 15 set when the position before the move is kept
//!                score i16: the search's score of the position before the move, in
//!                  centipawns from the side to move's view; -32768: no score (a PGN
//!                  move without one, such as a book move)
//! ```
//!
//! A chunk is written with one write, so a run killed at any moment leaves whole chunks
//! and at most a partial last one, which a reader reports as truncated and an appending
//! writer cuts off ([`scan`]).

use std::io::Read;

use shakmaty::{Chess, Color, Move, Position};

use crate::board::Board;
use crate::data::{self, DataError, GENERATOR_BYTES, Outcome, PackedPosition, RECORD_BYTES};

/// The first eight bytes of a games file.
pub const MAGIC: [u8; 8] = *b"CUTOFFGM";
/// The format this code reads and writes.
pub const FORMAT_VERSION: u16 = 1;
/// Bytes of the file header.
pub const HEADER_BYTES: usize = 32;
/// The first four bytes of every chunk (also what the reader looks for after damage).
pub const CHUNK_MAGIC: [u8; 4] = *b"GMCK";
/// Bytes of a chunk's header.
pub const CHUNK_HEADER_BYTES: usize = 20;
/// The largest chunk body a reader accepts: a bound on what a damaged length can make it
/// allocate (one game of the most plies the format holds is 256 KiB).
pub const MAX_CHUNK_BYTES: usize = 1 << 24;
/// Writers close a chunk once its body reaches this size: about 150 games of 100 plies,
/// so that damage costs a few thousand positions while the chunk header costs 20 bytes in
/// 64 KiB.
pub const CHUNK_TARGET_BYTES: usize = 1 << 16;

/// Bytes of the start position: the record's fields up to the score.
const START_BYTES: usize = 28;
/// The result byte's place in a record (and the game's result byte here).
const RECORD_RESULT: usize = 30;
/// Bytes of a game before its plies: start, result, ply count.
const GAME_HEADER_BYTES: usize = START_BYTES + 3;
/// Bytes of a ply.
const PLY_BYTES: usize = 4;
/// The move word's flag: the position before the move is a training sample.
const KEPT: u16 = 1 << 15;
/// The score of a ply that has none.
const NO_SCORE: i16 = i16::MIN;
/// Bytes read from the stream at a time.
const READ_BYTES: usize = 1 << 20;

/// Which of the two data formats a file holds, told by its first eight bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// 32-byte records ([`crate::data`]).
    Records,
    /// Games in chunks (this module).
    Games,
}

impl Format {
    /// The format whose magic `start` begins with, if any.
    pub fn detect(start: &[u8]) -> Option<Format> {
        if start.starts_with(&data::MAGIC) {
            Some(Format::Records)
        } else if start.starts_with(&MAGIC) {
            Some(Format::Games)
        } else {
            None
        }
    }

    /// The format's name on the command line and in manifests.
    pub fn name(self) -> &'static str {
        match self {
            Format::Records => "records",
            Format::Games => "games",
        }
    }
}

/// One ply of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The move played.
    pub mv: Move,
    /// The search's score of the position before the move, from its side to move; None
    /// for a move that was not searched.
    pub score: Option<i16>,
    /// Whether the position before the move is a training sample.
    pub kept: bool,
}

/// A score as a ply stores it: clamped to ±32767, since -32768 means "no score".
pub fn ply_score(score: i32) -> i16 {
    score.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16
}

/// A game: where it started, every ply, and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The position before the first ply.
    pub start: Chess,
    /// The game's result.
    pub outcome: Outcome,
    /// The plies, in the order played.
    pub plies: Vec<Ply>,
}

impl GameRecord {
    /// The kept positions as records: the position, its score turned to White's view,
    /// and the game's result (exactly what `cutoff datagen` writes as records).
    pub fn samples(&self) -> Vec<PackedPosition> {
        let mut pos = self.start.clone();
        let mut samples = Vec::new();
        for ply in &self.plies {
            if ply.kept
                && let Some(score) = ply.score
            {
                let score = i32::from(score);
                let white = if pos.turn() == Color::White {
                    score
                } else {
                    -score
                };
                samples.push(PackedPosition::pack(&pos, ply_score(white), self.outcome));
            }
            pos.play_unchecked(ply.mv);
        }
        samples
    }

    /// Plies flagged kept.
    pub fn kept(&self) -> usize {
        self.plies.iter().filter(|p| p.kept).count()
    }

    /// Appends the game's bytes to `out`. Fails for what the format cannot hold: more
    /// than 65,535 plies, or a kept ply without a score.
    fn encode(&self, out: &mut Vec<u8>) -> Result<(), String> {
        let plies = u16::try_from(self.plies.len())
            .map_err(|_| format!("{} plies (at most 65535)", self.plies.len()))?;
        let record = PackedPosition::pack(&self.start, 0, self.outcome);
        out.extend_from_slice(&record.0[..START_BYTES]);
        out.push(record.0[RECORD_RESULT]);
        out.extend_from_slice(&plies.to_le_bytes());
        for (i, ply) in self.plies.iter().enumerate() {
            if ply.kept && ply.score.is_none() {
                return Err(format!("ply {} is kept but has no score", i + 1));
            }
            let word = Board::pack(ply.mv) | if ply.kept { KEPT } else { 0 };
            out.extend_from_slice(&word.to_le_bytes());
            let score = ply.score.map_or(NO_SCORE, |s| s.max(-i16::MAX));
            out.extend_from_slice(&score.to_le_bytes());
        }
        Ok(())
    }

    /// Reads a game from the front of `bytes`; returns it and the bytes it took. Every
    /// move is checked to be legal where it is played.
    fn decode(bytes: &[u8]) -> Result<(GameRecord, usize), String> {
        let head = bytes
            .get(..GAME_HEADER_BYTES)
            .ok_or("the chunk ends inside a game's start")?;
        let mut record = [0; RECORD_BYTES];
        record[..START_BYTES].copy_from_slice(&head[..START_BYTES]);
        record[RECORD_RESULT] = head[START_BYTES];
        let start = PackedPosition(record)
            .unpack()
            .map_err(|e| format!("start position: {e}"))?;
        let count = usize::from(u16::from_le_bytes([head[29], head[30]]));
        let len = GAME_HEADER_BYTES + count * PLY_BYTES;
        let body = bytes
            .get(GAME_HEADER_BYTES..len)
            .ok_or("the chunk ends inside a game's plies")?;
        let mut board = start.board;
        let start_pos = board.pos().clone();
        let mut plies = Vec::with_capacity(count);
        for (i, ply) in body.chunks_exact(PLY_BYTES).enumerate() {
            let word = u16::from_le_bytes([ply[0], ply[1]]);
            let mv = board
                .unpack(word & !KEPT)
                .ok_or_else(|| format!("ply {}: move {word:#06x} is not legal", i + 1))?;
            let score = i16::from_le_bytes([ply[2], ply[3]]);
            let score = (score != NO_SCORE).then_some(score);
            let kept = word & KEPT != 0;
            if kept && score.is_none() {
                return Err(format!("ply {}: kept without a score", i + 1));
            }
            plies.push(Ply { mv, score, kept });
            board.make(mv);
            board.commit();
        }
        Ok((
            GameRecord {
                start: start_pos,
                outcome: start.outcome,
                plies,
            },
            len,
        ))
    }
}

/// 32-bit FNV-1a over the chunk's counts and body: a check against damage (a flipped
/// bit, a cut), not against tampering.
fn checksum(counts: &[u8], body: &[u8]) -> u32 {
    const OFFSET_BASIS: u32 = 0x811c_9dc5;
    const PRIME: u32 = 0x0100_0193;
    counts.iter().chain(body).fold(OFFSET_BASIS, |hash, &byte| {
        (hash ^ u32::from(byte)).wrapping_mul(PRIME)
    })
}

/// The file header's bytes for `generator` (cut to [`GENERATOR_BYTES`]).
pub fn header_bytes(generator: &str) -> [u8; HEADER_BYTES] {
    let mut bytes = [0; HEADER_BYTES];
    bytes[..8].copy_from_slice(&MAGIC);
    bytes[8..10].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    data::Header::new(generator).write_generator(&mut bytes[12..12 + GENERATOR_BYTES]);
    bytes
}

/// Checks a games file's header; returns the generator it names.
pub fn parse_header(bytes: &[u8; HEADER_BYTES]) -> Result<data::Header, DataError> {
    if bytes[..8] != MAGIC {
        return Err(data::error(
            0,
            "not a Cutoff games file (no CUTOFFGM magic)",
        ));
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != FORMAT_VERSION {
        return Err(data::error(
            8,
            format!("games format version {version}; this build reads version {FORMAT_VERSION}"),
        ));
    }
    if bytes[10..12] != [0, 0] {
        return Err(data::error(10, "reserved header bytes are not zero"));
    }
    data::Header::read_generator(&bytes[12..], 12)
}

/// Games gathered into one chunk, until [`ChunkWriter::take`] hands out its bytes.
#[derive(Default)]
pub struct ChunkWriter {
    body: Vec<u8>,
    games: u32,
    positions: u32,
}

impl ChunkWriter {
    /// Adds a game; fails (adding nothing) for a game the format cannot hold, or one
    /// that would take the chunk past what a reader accepts (take it first).
    pub fn push(&mut self, game: &GameRecord) -> Result<(), String> {
        let len = self.body.len();
        let pushed = game.encode(&mut self.body).and_then(|()| {
            if self.body.len() > MAX_CHUNK_BYTES {
                Err(format!("a chunk holds at most {MAX_CHUNK_BYTES} bytes"))
            } else {
                Ok(())
            }
        });
        if let Err(e) = pushed {
            self.body.truncate(len);
            return Err(e);
        }
        self.games += 1;
        self.positions += game.kept() as u32;
        Ok(())
    }

    /// Games gathered so far.
    pub fn games(&self) -> u32 {
        self.games
    }

    /// Whether the chunk has reached [`CHUNK_TARGET_BYTES`] and should be written.
    pub fn is_full(&self) -> bool {
        self.body.len() >= CHUNK_TARGET_BYTES
    }

    /// The chunk's bytes, header and body, to be written with one write; the writer starts
    /// a new chunk.
    pub fn take(&mut self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(CHUNK_HEADER_BYTES + self.body.len());
        bytes.extend_from_slice(&CHUNK_MAGIC);
        bytes.extend_from_slice(&(self.body.len() as u32).to_le_bytes());
        bytes.extend_from_slice(&self.games.to_le_bytes());
        bytes.extend_from_slice(&self.positions.to_le_bytes());
        let sum = checksum(&bytes[4..16], &self.body);
        bytes.extend_from_slice(&sum.to_le_bytes());
        bytes.append(&mut self.body);
        self.games = 0;
        self.positions = 0;
        bytes
    }
}

/// A chunk as read: its place, its counts and its bytes, checksum verified, games not
/// yet decoded.
#[derive(Clone, Debug)]
pub struct RawChunk {
    /// Offset of the chunk's header in the file.
    pub offset: u64,
    /// Games in the chunk.
    pub games: u32,
    /// Kept positions in the chunk.
    pub positions: u32,
    /// The whole chunk, header included (a merge copies it as it is).
    pub bytes: Vec<u8>,
}

impl RawChunk {
    /// The chunk's games, each move checked; an error names the chunk's offset.
    pub fn decode(&self) -> Result<Vec<GameRecord>, DataError> {
        let fail = |message: String| data::error(self.offset, format!("chunk: {message}"));
        let mut body = self.bytes.get(CHUNK_HEADER_BYTES..).unwrap_or_default();
        // A game takes at least a byte: a damaged count cannot ask for more room than that.
        let mut games = Vec::with_capacity((self.games as usize).min(body.len()));
        while !body.is_empty() {
            let (game, len) = GameRecord::decode(body)
                .map_err(|e| fail(format!("game {}: {e}", games.len() + 1)))?;
            games.push(game);
            body = &body[len..];
        }
        let kept: usize = games.iter().map(GameRecord::kept).sum();
        if games.len() != self.games as usize || kept != self.positions as usize {
            return Err(fail(format!(
                "holds {} games and {kept} kept positions; its header says {} and {}",
                games.len(),
                self.games,
                self.positions
            )));
        }
        Ok(games)
    }
}

/// Reads a games stream: the header first ([`GameReader::new`]), then one chunk per
/// iteration. A damaged chunk (a bad checksum, magic or length, or a cut) yields an error
/// naming its offset and where reading resumes, and the iteration goes on from the next
/// whole chunk; only a failing read of the stream ends it early.
pub struct GameReader<R: Read> {
    inner: R,
    header: data::Header,
    buf: Vec<u8>,
    /// Index in `buf` of the byte at `offset`.
    start: usize,
    offset: u64,
    eof: bool,
    failed: bool,
}

impl<R: Read> GameReader<R> {
    /// Reads and checks the header.
    pub fn new(inner: R) -> Result<Self, DataError> {
        let mut reader = GameReader {
            inner,
            header: data::Header::new(""),
            buf: Vec::new(),
            start: 0,
            offset: 0,
            eof: false,
            failed: false,
        };
        if !reader.fill(HEADER_BYTES)? {
            return Err(data::error(
                reader.available() as u64,
                format!("file ends inside the {HEADER_BYTES}-byte header"),
            ));
        }
        let mut bytes = [0; HEADER_BYTES];
        bytes.copy_from_slice(&reader.buf[..HEADER_BYTES]);
        reader.header = parse_header(&bytes)?;
        reader.consume(HEADER_BYTES);
        Ok(reader)
    }

    /// The file's header (its generator).
    pub fn header(&self) -> &data::Header {
        &self.header
    }

    fn available(&self) -> usize {
        self.buf.len() - self.start
    }

    fn consume(&mut self, n: usize) {
        self.start += n;
        self.offset += n as u64;
    }

    /// Reads until `need` bytes are buffered from `offset` on; false when the stream ends
    /// first.
    fn fill(&mut self, need: usize) -> Result<bool, DataError> {
        while self.available() < need && !self.eof {
            self.buf.drain(..self.start);
            self.start = 0;
            let old = self.buf.len();
            let want = READ_BYTES.max(need - old);
            self.buf.resize(old + want, 0);
            let got = data::read_full(&mut self.inner, &mut self.buf[old..])
                .map_err(|e| data::error(self.offset + old as u64, e.to_string()))?;
            self.buf.truncate(old + got);
            self.eof = got < want;
        }
        Ok(self.available() >= need)
    }

    /// The chunk at `offset`, checked, without consuming it; Err says what is wrong.
    fn try_chunk(&mut self) -> Result<Result<RawChunk, String>, DataError> {
        if !self.fill(CHUNK_HEADER_BYTES)? {
            return Ok(Err(format!(
                "the file ends {} bytes into its {CHUNK_HEADER_BYTES}-byte header (truncated)",
                self.available()
            )));
        }
        let head = &self.buf[self.start..self.start + CHUNK_HEADER_BYTES];
        if head[..4] != CHUNK_MAGIC {
            return Ok(Err("no GMCK chunk magic".to_string()));
        }
        let word =
            |at: usize| u32::from_le_bytes([head[at], head[at + 1], head[at + 2], head[at + 3]]);
        let (len, games, positions, sum) = (word(4) as usize, word(8), word(12), word(16));
        if len > MAX_CHUNK_BYTES {
            return Ok(Err(format!(
                "body length {len} (at most {MAX_CHUNK_BYTES})"
            )));
        }
        let total = CHUNK_HEADER_BYTES + len;
        if !self.fill(total)? {
            return Ok(Err(format!(
                "the file ends {} bytes into its {len}-byte body (truncated)",
                self.available() - CHUNK_HEADER_BYTES
            )));
        }
        let bytes = &self.buf[self.start..self.start + total];
        if checksum(&bytes[4..16], &bytes[CHUNK_HEADER_BYTES..]) != sum {
            return Ok(Err("checksum mismatch".to_string()));
        }
        Ok(Ok(RawChunk {
            offset: self.offset,
            games,
            positions,
            bytes: bytes.to_vec(),
        }))
    }

    /// After a damaged chunk: moves to the next place where a whole chunk starts, or to the
    /// end of the stream.
    fn resync(&mut self) -> Result<(), DataError> {
        self.consume(1);
        loop {
            let window = &self.buf[self.start..];
            if let Some(i) = window.windows(4).position(|w| w == CHUNK_MAGIC) {
                self.consume(i);
                if self.try_chunk()?.is_ok() {
                    return Ok(());
                }
                self.consume(1);
                continue;
            }
            let keep = window.len().min(CHUNK_MAGIC.len() - 1);
            self.consume(window.len() - keep);
            if !self.fill(keep + 1)? {
                self.consume(self.available());
                return Ok(());
            }
        }
    }

    fn next_chunk(&mut self) -> Result<Option<Result<RawChunk, DataError>>, DataError> {
        if !self.fill(1)? {
            return Ok(None);
        }
        let at = self.offset;
        match self.try_chunk()? {
            Ok(chunk) => {
                self.consume(chunk.bytes.len());
                Ok(Some(Ok(chunk)))
            }
            Err(reason) => {
                self.resync()?;
                let next = if self.available() == 0 {
                    "the end of the file".to_string()
                } else {
                    format!("byte {}", self.offset)
                };
                Ok(Some(Err(data::error(
                    at,
                    format!(
                        "damaged chunk ({reason}): its games are skipped, reading resumes at {next}"
                    ),
                ))))
            }
        }
    }
}

impl<R: Read> Iterator for GameReader<R> {
    type Item = Result<RawChunk, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        match self.next_chunk() {
            Ok(item) => item,
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }
}

/// What a walk over a games file's chunk headers found: its counts, and where the whole
/// chunks end.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scan {
    /// Games in the whole chunks.
    pub games: u64,
    /// Kept positions in the whole chunks.
    pub positions: u64,
    /// Offset just past the last whole chunk: where an appending writer goes on.
    pub end: u64,
    /// Offset of the last whole chunk, if there is one.
    pub last_chunk: Option<u64>,
}

/// Walks a games stream's chunk headers (checksums are not verified: this is the quick
/// count an appending writer needs). Stops at the first header that is cut short or whose
/// body runs past the end, which is where `end` points; a bad magic or length before the
/// end is an error, since appending after damage would bury it.
pub fn scan(mut inner: impl Read) -> Result<Scan, DataError> {
    let mut header = [0; HEADER_BYTES];
    let got =
        data::read_full(&mut inner, &mut header).map_err(|e| data::error(0, e.to_string()))?;
    if got < HEADER_BYTES {
        return Err(data::error(
            got as u64,
            format!("file ends inside the {HEADER_BYTES}-byte header"),
        ));
    }
    parse_header(&header)?;
    let mut scan = Scan {
        end: HEADER_BYTES as u64,
        ..Scan::default()
    };
    let mut body = vec![0; READ_BYTES];
    loop {
        let mut head = [0; CHUNK_HEADER_BYTES];
        let got = data::read_full(&mut inner, &mut head)
            .map_err(|e| data::error(scan.end, e.to_string()))?;
        if got < CHUNK_HEADER_BYTES {
            return Ok(scan);
        }
        let word =
            |at: usize| u32::from_le_bytes([head[at], head[at + 1], head[at + 2], head[at + 3]]);
        let len = word(4) as usize;
        if head[..4] != CHUNK_MAGIC || len > MAX_CHUNK_BYTES {
            return Err(data::error(scan.end, "damaged chunk header"));
        }
        let mut left = len;
        while left > 0 {
            let take = left.min(body.len());
            let got = data::read_full(&mut inner, &mut body[..take])
                .map_err(|e| data::error(scan.end, e.to_string()))?;
            if got < take {
                return Ok(scan);
            }
            left -= take;
        }
        scan.games += u64::from(word(8));
        scan.positions += u64::from(word(12));
        scan.last_chunk = Some(scan.end);
        scan.end += (CHUNK_HEADER_BYTES + len) as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A short game from the start position with every kind of move: castling, en
    /// passant, a promotion, and a ply without a score.
    fn game() -> GameRecord {
        let mut board = Board::from_fen(
            "r3k2r/pPpp1ppp/8/3Pp3/8/8/PPP2PPP/R3K2R w KQkq e6 0 9",
            false,
        )
        .unwrap();
        let start = board.pos().clone();
        let mut plies = Vec::new();
        for (i, uci) in ["d5e6", "e8g8", "b7a8q", "h7h6", "e1g1"].iter().enumerate() {
            let mv = board.parse_uci(uci).unwrap();
            plies.push(Ply {
                mv,
                score: (i != 3).then_some(20 * i as i16 - 30),
                kept: i % 2 == 0,
            });
            board.make(mv);
            board.commit();
        }
        GameRecord {
            start,
            outcome: Outcome::WhiteWins,
            plies,
        }
    }

    fn file(chunks: &[Vec<u8>]) -> Vec<u8> {
        let mut bytes = header_bytes("test").to_vec();
        for chunk in chunks {
            bytes.extend_from_slice(chunk);
        }
        bytes
    }

    fn chunk_of(games: &[GameRecord]) -> Vec<u8> {
        let mut writer = ChunkWriter::default();
        for game in games {
            writer.push(game).unwrap();
        }
        writer.take()
    }

    #[test]
    fn games_round_trip_with_every_kind_of_move() {
        let game = game();
        let bytes = file(&[chunk_of(&[game.clone(), game.clone()])]);
        let chunks: Vec<_> = GameReader::new(&bytes[..]).unwrap().collect();
        assert_eq!(chunks.len(), 1);
        let chunk = chunks[0].clone().unwrap();
        assert_eq!((chunk.games, chunk.positions), (2, 6));
        assert_eq!(chunk.decode().unwrap(), vec![game.clone(), game.clone()]);
        let samples = game.samples();
        assert_eq!(samples.len(), 3);
        // The third ply's position, Black having castled: White to move, score -30 + 40.
        assert_eq!(samples[1].white_score(), 10);
        assert_eq!(samples[1].outcome(), Outcome::WhiteWins);
        assert_eq!(
            scan(&bytes[..]).unwrap(),
            Scan {
                games: 2,
                positions: 6,
                end: bytes.len() as u64,
                last_chunk: Some(HEADER_BYTES as u64),
            }
        );
    }

    #[test]
    fn a_damaged_chunk_costs_only_its_games() {
        let game = game();
        let chunks: Vec<_> = (0..3)
            .map(|_| chunk_of(std::slice::from_ref(&game)))
            .collect();
        let bytes = file(&chunks);
        let second = (HEADER_BYTES + chunks[0].len()) as u64;
        let third = second + chunks[1].len() as u64;
        // Each byte of the second chunk in turn: the first and third chunks come back.
        for at in second..third {
            let mut damaged = bytes.clone();
            damaged[at as usize] ^= 0x10;
            let results: Vec<_> = GameReader::new(&damaged[..]).unwrap().collect();
            let good: Vec<u64> = results.iter().flatten().map(|c| c.offset).collect();
            assert_eq!(good, [HEADER_BYTES as u64, third], "byte {at}");
            let e = results.iter().find_map(|r| r.clone().err()).unwrap();
            assert_eq!(e.offset, second, "byte {at}");
            assert!(
                e.message.contains(&format!("resumes at byte {third}")),
                "{e}"
            );
        }
        // A cut inside the last chunk: the others come back, the cut is named.
        let cut = &bytes[..bytes.len() - 3];
        let results: Vec<_> = GameReader::new(cut).unwrap().collect();
        assert_eq!(results.iter().flatten().count(), 2);
        let e = results[2].clone().unwrap_err();
        assert_eq!(e.offset, third);
        assert!(e.message.contains("truncated"), "{e}");
        assert_eq!(scan(cut).unwrap().end, third);
    }

    /// Random bytes after a header, and real chunks with random bytes changed: the reader
    /// and the decoder answer, never panic.
    #[test]
    fn random_damage_never_panics() {
        let mut rng = crate::rng::Rng::new(5);
        let bytes = file(&[chunk_of(&[game()]), chunk_of(&[game(), game()])]);
        for i in 0..3_000 {
            let mut damaged = bytes.clone();
            if i % 3 == 0 {
                for byte in &mut damaged[HEADER_BYTES..] {
                    *byte = rng.next_u64() as u8;
                }
            } else {
                for _ in 0..1 + rng.below(4) {
                    let at = rng.below(damaged.len());
                    damaged[at] = rng.next_u64() as u8;
                }
            }
            if let Ok(reader) = GameReader::new(&damaged[..]) {
                for chunk in reader.flatten() {
                    let _ = chunk.decode();
                }
            }
            let _ = scan(&damaged[..]);
            // A chunk whose checksum still holds but whose games are garbage is caught
            // by decoding.
            let mut body = damaged[HEADER_BYTES + CHUNK_HEADER_BYTES..].to_vec();
            body.truncate(200);
            let _ = GameRecord::decode(&body);
        }
    }

    /// A chunk whose header claims more games than its bytes can hold (its checksum made
    /// to match, as a forger could) is an error, not a request for that much memory.
    #[test]
    fn a_forged_game_count_is_refused() {
        let bytes = chunk_of(&[game()]);
        let mut chunk = GameReader::new(&file(&[bytes])[..])
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        chunk.games = u32::MAX;
        let e = chunk.decode().unwrap_err();
        assert!(e.message.contains("its header says 4294967295"), "{e}");
    }

    #[test]
    fn headers_are_checked() {
        let bytes = header_bytes("cutoff 0.2.0");
        assert_eq!(parse_header(&bytes).unwrap().generator, "cutoff 0.2.0");
        assert_eq!(Format::detect(&bytes), Some(Format::Games));
        let mut wrong = bytes;
        wrong[8] = 9;
        assert_eq!(parse_header(&wrong).unwrap_err().offset, 8);
        assert_eq!(GameReader::new(&bytes[..5]).err().unwrap().offset, 5);
    }
}
