//! Labelled positions, read from `cutoff datagen`'s binary records or from text lines,
//! and kept as evaluation traces.
//!
//! A file that starts with the records' magic (`cutoff_engine::data::MAGIC`) is read as
//! records; any other file as text.
//!
//! The line format is the one `cutoff datagen` writes, one position a line, and
//! `cutoff_engine::data::parse_text_line` reads it:
//!
//! ```text
//! FEN | score | result
//! rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5 | 31 | 0.5
//! ```
//!
//! `score` is the search score in centipawns and `result` the game's result (1.0, 0.5 or
//! 0.0), both from White's point of view. Blank lines are skipped; any other line that does
//! not parse is an error naming its file and line.

use std::fmt;
use std::path::{Path, PathBuf};

use cutoff_engine::data::{self, MAGIC, PackedPosition, Reader, Sample};
use cutoff_engine::eval::{self, KING_DANGER_MIN_ATTACKERS, KING_UNITS, KingAttack};
use rayon::prelude::*;
use shakmaty::Color;

/// Lines parsed in parallel at a time; the order of the data does not depend on it.
const PARSE_BLOCK: usize = 1 << 16;

/// One labelled position, without its features (those live in [`Dataset`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    /// Index of the position's first feature in the dataset's feature list.
    start: u32,
    /// Number of features.
    len: u16,
    /// Game phase, 0 (pawn endgame) to [`eval::MAX_PHASE`].
    pub phase: u8,
    /// `[color as usize]`: the inputs of the attack units on that colour's king (see
    /// `KingAttack`), when enough pieces attack it for king danger to count.
    pub king_inputs: [Option<[u8; KING_UNITS]>; 2],
    /// `[color as usize]`: the endgame scale (out of `eval::SCALE_NORMAL`) when the
    /// endgame part favours that colour.
    pub scales: [u8; 2],
    /// Search score, centipawns, White's view.
    pub score: i32,
    /// Game result, White's view.
    pub result: f32,
}

/// Labelled positions as sparse traces: every position's features end to end in one
/// list, so that millions of positions cost a few hundred bytes each.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dataset {
    /// (feature index, White-minus-Black count) of every position, in position order.
    features: Vec<(u16, i16)>,
    entries: Vec<Entry>,
}

/// A line that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError {
    /// The file.
    pub file: PathBuf,
    /// 1-based line number; 0 when the file itself could not be read.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file.display(), self.message)
        } else {
            write!(f, "{}:{}: {}", self.file.display(), self.line, self.message)
        }
    }
}

/// One parsed line: its entry (with `start` still unset) and its features.
type Parsed = (Entry, Vec<(u16, i16)>);

/// Parses one data line (the format is `cutoff_engine::data`'s text line, read by its
/// `parse_text_line`); `Ok(None)` for a blank line.
pub fn parse_line(line: &str) -> Result<Option<Parsed>, String> {
    if line.trim().is_empty() {
        return Ok(None);
    }
    data::parse_text_line(line).map(|sample| Some(parse_sample(&sample)))
}

/// A record of a binary data file (the format `cutoff datagen` writes), checked in full.
pub fn parse_record(record: &PackedPosition) -> Result<Parsed, String> {
    record.unpack().map(|sample| parse_sample(&sample))
}

/// The trace of a labelled position.
fn parse_sample(sample: &Sample) -> Parsed {
    let (score, result) = (
        i32::from(sample.white_score),
        sample.outcome.white_points() as f32,
    );

    let trace = eval::trace(sample.board.pos());
    let features = trace
        .net_counts()
        .map(|(i, n)| (i as u16, n as i16))
        .collect::<Vec<_>>();
    let hits = |king: Color| {
        let attack: KingAttack = trace.king_attack(king);
        (attack.attackers >= KING_DANGER_MIN_ATTACKERS).then(|| attack.inputs.map(|h| h as u8))
    };
    let entry = Entry {
        start: 0,
        len: features.len() as u16,
        phase: trace.phase() as u8,
        king_inputs: [hits(Color::Black), hits(Color::White)],
        scales: [Color::Black, Color::White].map(|c| trace.scale(c) as u8),
        score,
        result,
    };
    (entry, features)
}

impl Dataset {
    /// Reads every file, in order. `progress` is called with the number of lines done
    /// after each block. Stops at the first bad line.
    pub fn load(
        files: &[PathBuf],
        progress: &(dyn Fn(usize) + Sync),
    ) -> Result<Dataset, DataError> {
        let mut data = Dataset::default();
        for file in files {
            data.load_file(file, progress)?;
        }
        Ok(data)
    }

    fn load_file(
        &mut self,
        file: &Path,
        progress: &(dyn Fn(usize) + Sync),
    ) -> Result<(), DataError> {
        let error = |line: usize, message: String| DataError {
            file: file.to_path_buf(),
            line,
            message,
        };
        let bytes = std::fs::read(file).map_err(|e| error(0, e.to_string()))?;
        if bytes.starts_with(&MAGIC) {
            return self.load_records(&bytes, &error, progress);
        }
        let text = String::from_utf8(bytes).map_err(|e| error(0, e.to_string()))?;
        let lines: Vec<&str> = text.lines().collect();
        for (block, chunk) in lines.chunks(PARSE_BLOCK).enumerate() {
            let parsed: Vec<_> = chunk.par_iter().map(|l| parse_line(l)).collect();
            for (i, p) in parsed.into_iter().enumerate() {
                match p {
                    Ok(Some((entry, features))) => self.push(entry, &features),
                    Ok(None) => {}
                    Err(message) => return Err(error(block * PARSE_BLOCK + i + 1, message)),
                }
            }
            progress(chunk.len());
        }
        Ok(())
    }

    /// Reads a binary data file (`cutoff datagen`'s records); errors name the record's
    /// byte offset in place of a line.
    fn load_records(
        &mut self,
        bytes: &[u8],
        error: &dyn Fn(usize, String) -> DataError,
        progress: &(dyn Fn(usize) + Sync),
    ) -> Result<(), DataError> {
        let records = Reader::new(bytes)
            .map_err(|e| error(0, e.to_string()))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| error(0, e.to_string()))?;
        for chunk in records.chunks(PARSE_BLOCK) {
            let parsed: Vec<_> = chunk.par_iter().map(parse_record).collect();
            for (record, p) in chunk.iter().zip(parsed) {
                let (entry, features) =
                    p.map_err(|message| error(0, format!("{message} in {record:?}")))?;
                self.push(entry, &features);
            }
            progress(chunk.len());
        }
        Ok(())
    }

    /// Adds one position.
    pub fn push(&mut self, mut entry: Entry, features: &[(u16, i16)]) {
        entry.start = self.features.len() as u32;
        entry.len = features.len() as u16;
        self.features.extend_from_slice(features);
        self.entries.push(entry);
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The positions.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The sparse features of `entry`.
    pub fn features(&self, entry: &Entry) -> &[(u16, i16)] {
        let start = entry.start as usize;
        &self.features[start..start + entry.len as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn parses_a_line() {
        let (entry, features) = parse_line(&format!("{START} | 25 | 0.5")).unwrap().unwrap();
        assert_eq!(entry.score, 25);
        assert_eq!(entry.result, 0.5);
        assert_eq!(entry.phase, 24);
        assert_eq!(entry.king_inputs, [None, None]);
        // A symmetric position: only the side to move's tempo is left.
        assert_eq!(
            features,
            vec![(cutoff_engine::eval::features::TEMPO as u16, 1)]
        );
        assert_eq!(parse_line("   ").unwrap(), None);
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        let cases = [
            (format!("{START} | 25"), "got 2 field(s)"),
            (format!("{START} | 25 | 0.5 | 3"), "got 4 field(s)"),
            ("rnbqkbnr/pppppppp/8 w - - 0 1 | 0 | 1.0".to_string(), "FEN"),
            (
                "8/8/8/8/8/8/8/8 w - - 0 1 | 0 | 1.0".to_string(),
                "illegal position",
            ),
            (
                format!("{START} | 2.5 | 1.0"),
                "score '2.5' is not an integer",
            ),
            (
                format!("{START} | 0 | 0.7"),
                "result '0.7' is not 1.0, 0.5 or 0.0",
            ),
        ];
        for (line, expected) in cases {
            let err = parse_line(&line).unwrap_err();
            assert!(err.contains(expected), "{line}: {err}");
        }
    }

    /// A binary file and its text lines load to the same dataset.
    #[test]
    fn records_load_like_their_text() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let lines = [
            format!("{START} | 25 | 0.5"),
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 | -140 | 0.0"
                .to_string(),
        ];
        let mut bytes = data::Header::new("test").to_bytes().to_vec();
        for line in &lines {
            let sample = data::parse_text_line(line).unwrap();
            let record =
                PackedPosition::pack(sample.board.pos(), sample.white_score, sample.outcome);
            data::extend_bytes(&mut bytes, &[record]);
        }
        let (text, binary) = (dir.join("d.txt"), dir.join("d.bin"));
        std::fs::write(&text, lines.join("\n")).unwrap();
        std::fs::write(&binary, &bytes).unwrap();
        let from_text = Dataset::load(std::slice::from_ref(&text), &|_| {}).unwrap();
        let from_records = Dataset::load(std::slice::from_ref(&binary), &|_| {}).unwrap();
        assert_eq!(from_records.len(), 2);
        assert_eq!(from_records, from_text);
        bytes.truncate(bytes.len() - 1);
        std::fs::write(&binary, &bytes).unwrap();
        let err = Dataset::load(std::slice::from_ref(&binary), &|_| {}).unwrap_err();
        assert!(err.message.contains("truncated"), "{err}");
    }

    #[test]
    fn load_names_file_and_line() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let file = dir.join("bad.txt");
        std::fs::write(&file, format!("{START} | 0 | 1.0\n\n{START} | x | 1.0\n")).unwrap();
        let err = Dataset::load(std::slice::from_ref(&file), &|_| {}).unwrap_err();
        assert_eq!(err.line, 3);
        assert_eq!(
            err.to_string(),
            format!(
                "{}:3: score 'x' is not an integer from -32768 to 32767",
                file.display()
            )
        );
        let missing = Dataset::load(&[dir.join("missing.txt")], &|_| {}).unwrap_err();
        assert_eq!(missing.line, 0);
    }
}
