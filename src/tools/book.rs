//! Opening books as OpenBench hands them to `genfens`: an EPD file (a position a line) or
//! a PGN file (`.pgn`: each game's moves lead to its position, as fastchess opens a game
//! from a PGN book). A name with FRC, 960 or FISCHER in it is a Chess960 book, by the
//! rule OpenBench's worker uses to play such a test as Chess960; its positions keep their
//! castling rights and are written back as Shredder-FENs.
//!
//! A book is read lazily: opening it only finds where each entry starts, and an entry is
//! read and parsed when it is drawn. A worker runs one genfens process a core, each
//! drawing a few dozen entries; parsing a whole book of a million lines first cost each
//! of them seconds and hundreds of MB.

use std::cell::RefCell;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use cutoff_engine::board::Board;
use cutoff_engine::datagen::Book;
use cutoff_engine::epd::parse_suite;

use crate::tools::pgn;

/// An entry larger than this is no opening (a corrupt file, or not a book at all): it is
/// skipped rather than read into memory.
const MAX_ENTRY_BYTES: u64 = 1 << 20;

/// How a book's entries are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    /// One position a line; blank lines and `#` comments are no entries.
    Epd,
    /// One game an entry: its tag pairs and its moves.
    Pgn,
}

/// A book file, indexed: entries are read from the file when drawn.
pub struct FileBook {
    file: RefCell<File>,
    /// The byte offset where each entry starts, then the end of the file.
    bounds: Vec<u64>,
    format: Format,
    chess960: bool,
}

impl FileBook {
    /// Opens and indexes a book; a file that cannot be read or holds no entry is an error.
    pub fn open(path: &Path) -> Result<FileBook, String> {
        let cannot = |e: std::io::Error| format!("cannot read book {}: {e}", path.display());
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_uppercase())
            .unwrap_or_default();
        let format = if name.ends_with(".PGN") {
            Format::Pgn
        } else {
            Format::Epd
        };
        let file = File::open(path).map_err(cannot)?;
        let bounds = index(BufReader::new(&file), format).map_err(cannot)?;
        if bounds.len() < 2 {
            return Err(format!("book {} holds no position", path.display()));
        }
        Ok(FileBook {
            file: RefCell::new(file),
            bounds,
            format,
            chess960: ["FRC", "960", "FISCHER"].iter().any(|w| name.contains(w)),
        })
    }

    /// The text of entry `index`, or None if it cannot be read or is too large.
    fn text(&self, index: usize) -> Option<String> {
        let start = *self.bounds.get(index)?;
        let end = *self.bounds.get(index + 1)?;
        if end - start > MAX_ENTRY_BYTES {
            return None;
        }
        let mut bytes = vec![0; usize::try_from(end - start).ok()?];
        let mut file = self.file.borrow_mut();
        file.seek(SeekFrom::Start(start)).ok()?;
        file.read_exact(&mut bytes).ok()?;
        Some(String::from_utf8_lossy(&bytes).into_owned())
    }
}

impl Book for FileBook {
    fn entries(&self) -> usize {
        self.bounds.len() - 1
    }

    fn position(&self, index: usize) -> Option<Board> {
        let text = self.text(index)?;
        match self.format {
            Format::Epd => parse_suite(&text, self.chess960)
                .records
                .into_iter()
                .next()
                .map(|record| record.board),
            Format::Pgn => {
                let game = pgn::games(&text).into_iter().next()?;
                pgn::replay(&game, self.chess960, &mut |_, _, _| {}).ok()
            }
        }
    }
}

/// The byte offsets where the entries of a book start, then the end of the file. An
/// EPD entry is a line that is neither blank nor a comment; a PGN game starts at the
/// first tag pair after a game's moves (or at the first line, for a game without tags).
fn index(mut reader: impl BufRead, format: Format) -> std::io::Result<Vec<u64>> {
    let mut bounds = Vec::new();
    let mut line = Vec::new();
    let mut offset = 0;
    // PGN: whether the last line that was not blank held moves (or none was read yet),
    // so that a tag pair starts a new game.
    let mut after_moves = true;
    loop {
        line.clear();
        let read = reader.read_until(b'\n', &mut line)?;
        if read == 0 {
            break;
        }
        let first = line.iter().find(|b| !b.is_ascii_whitespace());
        match (format, first) {
            (_, None) | (Format::Epd, Some(b'#')) => {}
            (Format::Epd, Some(_)) => bounds.push(offset),
            (Format::Pgn, Some(b'[')) => {
                if after_moves {
                    bounds.push(offset);
                }
                after_moves = false;
            }
            (Format::Pgn, Some(_)) => {
                if bounds.is_empty() {
                    bounds.push(offset);
                }
                after_moves = true;
            }
        }
        offset += read as u64;
    }
    bounds.push(offset);
    Ok(bounds)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A book of `text` in a file called `name`. The book keeps the file open, so the
    /// folder may go when this returns.
    fn book(name: &str, text: &str) -> FileBook {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        FileBook::open(&path).unwrap()
    }

    fn fens(book: &FileBook) -> Vec<Option<String>> {
        (0..book.entries())
            .map(|i| book.position(i).map(|b| b.fen()))
            .collect()
    }

    #[test]
    fn epd_entries_are_the_lines_that_hold_positions() {
        let book = book(
            "lines.epd",
            "# a comment\n\n\
             rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - hmvc 0; fmvn 2;\n\
             \n  not a position\n\
             r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        );
        assert_eq!(
            fens(&book),
            [
                Some("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2".to_string()),
                None,
                Some(
                    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3".to_string()
                ),
            ]
        );
    }

    /// A book named for Chess960 keeps castling rights a standard reading drops (the king
    /// is not on e1, the rooks not all in corners). (`Board::fen` writes them as X-FEN;
    /// genfens writes Shredder-FEN.)
    #[test]
    fn a_chess960_book_keeps_its_castling_rights() {
        let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        for name in ["3moves_FRC.epd", "dfrc-960.epd", "fischer.EPD"] {
            let book = book(name, &format!("{fen}\n"));
            assert_eq!(fens(&book), [Some(fen.replace("HFhf", "KQkq"))], "{name}");
        }
        let standard = book("standard.epd", &format!("{fen}\n"));
        assert_eq!(fens(&standard), [Some(fen.replace("HFhf", "-"))]);
    }

    /// A PGN book's entries are its games, each the position after its moves: with tags
    /// or without, from the start position or from a FEN tag.
    #[test]
    fn pgn_entries_are_the_positions_after_each_game() {
        let book = book(
            "Pohl.pgn",
            "1. e4 e5 *\n\n\
             [Event \"two\"]\n[Result \"*\"]\n\n1. d4 {book} d5 2. c4\n*\n\n\
             [Event \"three\"]\n[SetUp \"1\"]\n\
             [FEN \"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\"]\n\n\
             2. Nf3 Nc6 *\n\n\
             [Event \"four\"]\n\n1. e4 Ke7 Ke2 *\n",
        );
        assert_eq!(
            fens(&book),
            [
                Some("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2".to_string()),
                Some("rnbqkbnr/ppp1pppp/8/3p4/2PP4/8/PP2PPPP/RNBQKBNR b KQkq - 0 2".to_string()),
                Some(
                    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3".to_string()
                ),
                None,
            ]
        );
    }

    #[test]
    fn a_book_without_positions_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        for (name, text) in [
            ("empty.epd", ""),
            ("comments.epd", "# none\n\n"),
            ("e.pgn", "\n"),
        ] {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            assert!(FileBook::open(&path).is_err(), "{name}");
        }
        assert!(FileBook::open(&dir.join("missing.epd")).is_err());
    }
}
