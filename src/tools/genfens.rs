//! OpenBench's DATAGEN workload: OpenBench starts the engine as
//! `cutoff "genfens N seed S book <path|None> [extra]" "quit"` and reads N lines
//! `info string genfens <FEN>`: openings for the games its workers then play (with
//! fastchess) and convert to training data (`cutoff data from-pgn`).

use std::process::ExitCode;

use cutoff_engine::datagen;
use cutoff_engine::search::Searcher;

use crate::tools::datagen::load_openings;

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
            println!("info string error: {e}");
            return ExitCode::from(2);
        }
    };
    let (openings, random_plies) =
        match load_openings(request.book.as_deref().map(std::path::Path::new)) {
            Ok(loaded) => loaded,
            Err(e) => {
                println!("info string error: genfens: {e}");
                return ExitCode::from(2);
            }
        };
    let mut searcher = match Searcher::new(GENFENS_HASH_MB) {
        Ok(s) => s,
        Err(e) => {
            println!("info string error: genfens: {e}");
            return ExitCode::FAILURE;
        }
    };
    match datagen::genfens(
        &mut searcher,
        &openings,
        random_plies,
        request.seed,
        request.count,
        &mut |board| println!("info string genfens {}", board.fen()),
    ) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            println!("info string error: genfens: {e}");
            ExitCode::FAILURE
        }
    }
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
}
