//! Reading training data files of either format (the 32-byte records of
//! `cutoff_engine::data`, the games of `cutoff_engine::games`), told apart by their magic:
//! their positions, chunks and counts, with every damaged chunk of a games file reported
//! and skipped. `cutoff data`, the data manifest and `cutoff train` read files this way.

use std::cell::Cell;
use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use cutoff_engine::data::{self, HEADER_BYTES, PackedPosition, RECORD_BYTES, Reader};
use cutoff_engine::games::{self, Format, GameReader, RawChunk};

/// The damaged chunks of games files met so far: each is reported when met and skipped,
/// and the tool fails at the end.
#[derive(Default)]
pub struct Damage {
    chunks: Cell<u64>,
}

impl Damage {
    /// Reports a damaged chunk of `path`.
    fn report(&self, path: &Path, e: &data::DataError) {
        self.chunks.set(self.chunks.get() + 1);
        eprintln!("cutoff data: {}: {e}", path.display());
    }

    /// Damaged chunks met so far.
    pub fn chunks(&self) -> u64 {
        self.chunks.get()
    }
}

pub type Positions<'a> = Box<dyn Iterator<Item = Result<PackedPosition, String>> + 'a>;

/// A data file's format, read from its magic.
pub fn format_of(path: &Path) -> Result<Format, String> {
    let mut magic = Vec::with_capacity(8);
    File::open(path)
        .and_then(|file| file.take(8).read_to_end(&mut magic))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Format::detect(&magic).ok_or_else(|| {
        format!(
            "{}: not a Cutoff data file (neither CUTOFFPK nor CUTOFFGM magic)",
            path.display()
        )
    })
}

/// The whole chunks of a games file, checksums verified; a damaged one is reported to
/// `damage` and skipped.
pub fn chunks<'a>(
    path: &'a Path,
    damage: &'a Damage,
) -> Result<impl Iterator<Item = RawChunk> + 'a, String> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let reader = GameReader::new(BufReader::with_capacity(1 << 20, file))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(reader.filter_map(move |chunk| chunk.map_err(|e| damage.report(path, &e)).ok()))
}

/// The games of a games file, a chunk at a time (a chunk whose games do not decode is
/// damaged too).
pub fn game_chunks<'a>(
    path: &'a Path,
    damage: &'a Damage,
) -> Result<impl Iterator<Item = Vec<games::GameRecord>> + 'a, String> {
    Ok(chunks(path, damage)?
        .filter_map(move |chunk| chunk.decode().map_err(|e| damage.report(path, &e)).ok()))
}

/// The positions of a file of either format, each checked: a records file's records, a
/// games file's kept positions. Errors name the file and the byte.
pub fn records<'a>(path: &'a Path, damage: &'a Damage) -> Result<Positions<'a>, String> {
    Ok(match format_of(path)? {
        Format::Records => {
            let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let reader = Reader::new(BufReader::with_capacity(1 << 20, file))
                .map_err(|e| format!("{}: {e}", path.display()))?;
            Box::new(reader.map(move |r| r.map_err(|e| format!("{}: {e}", path.display()))))
        }
        Format::Games => Box::new(
            game_chunks(path, damage)?
                .flat_map(|games| games.into_iter().flat_map(|game| game.samples()))
                .map(Ok),
        ),
    })
}

/// Positions in a file: a records file's by its size, a games file's from its whole
/// chunks' headers (the pass that reads the positions checks the header and reports
/// damaged chunks).
pub fn record_count(path: &Path) -> Result<u64, String> {
    Ok(match format_of(path)? {
        Format::Records => {
            let len = std::fs::metadata(path)
                .map_err(|e| format!("{}: {e}", path.display()))?
                .len();
            len.saturating_sub(HEADER_BYTES as u64) / RECORD_BYTES as u64
        }
        Format::Games => {
            let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
            GameReader::new(BufReader::with_capacity(1 << 20, file))
                .map_err(|e| format!("{}: {e}", path.display()))?
                .flatten()
                .map(|chunk| u64::from(chunk.positions))
                .sum()
        }
    })
}
