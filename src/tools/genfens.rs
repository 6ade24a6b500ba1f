//! OpenBench's DATAGEN workload: OpenBench starts the engine as
//! `cutoff "genfens N seed S book <path|None> [extra]" "quit"` and reads N lines
//! `info string genfens <FEN>`: openings for the games its workers then play (with
//! fastchess) and convert to training data (`cutoff data from-pgn`). The book is an EPD
//! or PGN file, Chess960 when its name says so (see [`crate::tools::book`]).

use std::path::Path;
use std::process::ExitCode;

use cutoff_engine::board::Board;
use cutoff_engine::datagen::{self, Book, Openings};
use cutoff_engine::search::Searcher;
use shakmaty::{CastlingMode, Color, Position};

use crate::tools::book::FileBook;

/// Table size of the searcher that checks each opening (MB).
const GENFENS_HASH_MB: usize = 2;

/// What a genfens request asks for.
#[derive(Debug, PartialEq, Eq)]
pub struct Request {
    pub count: u64,
    pub seed: u64,
    pub book: Option<String>,
}

/// Parses `genfens N seed S book <path|None> [extra …]` (extra words are ignored, as
/// OpenBench may add its own).
pub fn parse(text: &str) -> Result<Request, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let value = |key: &str| {
        words
            .iter()
            .position(|w| *w == key)
            .and_then(|i| words.get(i + 1).copied())
    };
    if words.first() != Some(&"genfens") {
        return Err("expected 'genfens N seed S book <path|None>'".to_string());
    }
    let count = words
        .get(1)
        .and_then(|n| n.parse().ok())
        .ok_or("genfens: N (the number of openings) is missing or not a number")?;
    let seed = value("seed")
        .and_then(|s| s.parse().ok())
        .ok_or("genfens: 'seed S' is missing or S is not a number")?;
    let book = value("book")
        .filter(|b| !b.eq_ignore_ascii_case("none"))
        .map(str::to_string);
    Ok(Request { count, seed, book })
}

/// Answers a genfens request on stdout.
pub fn run(text: &str) -> ExitCode {
    let request = match parse(text) {
        Ok(r) => r,
        Err(e) => {
            outln!("info string error: {e}");
            return ExitCode::from(2);
        }
    };
    // Without a book, openings start from the start position: an empty book.
    let (book, random_plies): (Box<dyn Book>, _) = match request.book.as_deref() {
        Some(path) => match FileBook::open(Path::new(path)) {
            Ok(book) => (Box::new(book), datagen::DEFAULT_BOOK_RANDOM_PLIES),
            Err(e) => {
                outln!("info string error: genfens: {e}");
                return ExitCode::from(2);
            }
        },
        None => (Box::new(Openings::default()), datagen::DEFAULT_RANDOM_PLIES),
    };
    let mut searcher = match Searcher::new(GENFENS_HASH_MB) {
        Ok(s) => s,
        Err(e) => {
            outln!("info string error: genfens: {e}");
            return ExitCode::FAILURE;
        }
    };
    match datagen::genfens(
        &mut searcher,
        book.as_ref(),
        random_plies,
        request.seed,
        request.count,
        &mut |board| outln!("info string genfens {}", opening_fen(board)),
    ) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            outln!("info string error: genfens: {e}");
            ExitCode::FAILURE
        }
    }
}

/// An opening's FEN. A Chess960 position's castling rights name their rooks' files
/// (Shredder-FEN, `HFhf`): X-FEN's `KQkq` leaves a reader to find the rooks, and a
/// standard reader takes it for rooks in the corners.
fn opening_fen(board: &Board) -> String {
    let fen = board.fen();
    let castles = board.pos().castles();
    if castles.mode() != CastlingMode::Chess960 {
        return fen;
    }
    let rights = castles.castling_rights();
    let mut files: String = Color::ALL
        .into_iter()
        .flat_map(|color| {
            (rights & color.backrank())
                .into_iter()
                .rev()
                .map(move |rook| {
                    let file = rook.file().char();
                    color.fold_wb(file.to_ascii_uppercase(), file)
                })
        })
        .collect();
    if files.is_empty() {
        files.push('-');
    }
    // The castling rights are the third of a FEN's six fields.
    let mut fields: Vec<&str> = fen.split(' ').collect();
    if let Some(field) = fields.get_mut(2) {
        *field = &files;
    }
    fields.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_parse() {
        assert_eq!(
            parse("genfens 10 seed 7 book None").unwrap(),
            Request {
                count: 10,
                seed: 7,
                book: None
            }
        );
        assert_eq!(
            parse("genfens 3 seed 1 book books/UHO.epd extra words").unwrap(),
            Request {
                count: 3,
                seed: 1,
                book: Some("books/UHO.epd".to_string())
            }
        );
        for bad in [
            "genfens",
            "genfens x seed 1",
            "genfens 3 book None",
            "bench",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn chess960_openings_name_their_rooks() {
        let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let board = Board::from_fen(fen, true).unwrap();
        assert_eq!(opening_fen(&board), fen);
        let standard = "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 0 1";
        assert_eq!(
            opening_fen(&Board::from_fen(standard, false).unwrap()),
            standard
        );
        assert_eq!(
            opening_fen(&Board::from_fen(standard, true).unwrap()),
            standard.replace("Kq", "Ha")
        );
    }
}
