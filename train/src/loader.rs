//! Training positions read from packed data files on disk (`cutoff_engine::data`), in a
//! shuffled order that a seed and a position count alone determine.
//!
//! The files are one cyclic stream, read a buffer at a time: fill `k` holds the stream's
//! positions `k * B .. (k + 1) * B` (wrapping at the end), shuffled with a generator seeded
//! from the run's seed and `k`. So memory is bounded by the buffer, not the data, and the
//! `n`th position a run trains on depends only on `n`: a resumed run reads exactly what
//! an uninterrupted one would have. Shuffle across files beforehand (`cutoff data`) for
//! a global shuffle; the buffer only mixes what lies near each other.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use cutoff_engine::data::{HEADER_BYTES, Header, PackedPosition, RECORD_BYTES};
use cutoff_engine::rng::Rng;

use crate::TrainError;

/// One data file, its header checked and its length a whole number of records.
struct DataFile {
    path: PathBuf,
    file: File,
    records: u64,
}

impl DataFile {
    fn open(path: &Path) -> Result<DataFile, TrainError> {
        let fail = |message: String| TrainError::Data(format!("{}: {message}", path.display()));
        let mut file = File::open(path).map_err(|e| fail(e.to_string()))?;
        let len = file.metadata().map_err(|e| fail(e.to_string()))?.len();
        let mut header = [0; HEADER_BYTES];
        if len < HEADER_BYTES as u64 {
            return Err(fail(format!(
                "at byte {len}: file ends inside the {HEADER_BYTES}-byte header"
            )));
        }
        file.read_exact(&mut header)
            .map_err(|e| fail(e.to_string()))?;
        Header::from_bytes(&header).map_err(|e| fail(e.to_string()))?;
        let body = len - HEADER_BYTES as u64;
        let records = body / RECORD_BYTES as u64;
        let tail = body % RECORD_BYTES as u64;
        if tail != 0 {
            return Err(fail(format!(
                "at byte {}: file ends {tail} bytes into a {RECORD_BYTES}-byte record (truncated)",
                HEADER_BYTES as u64 + records * RECORD_BYTES as u64
            )));
        }
        Ok(DataFile {
            path: path.to_path_buf(),
            file,
            records,
        })
    }

    /// Appends records `first .. first + count` to `out`, each checked.
    fn read(
        &mut self,
        first: u64,
        count: u64,
        out: &mut Vec<PackedPosition>,
    ) -> Result<(), TrainError> {
        let offset = HEADER_BYTES as u64 + first * RECORD_BYTES as u64;
        let fail =
            |message: String| TrainError::Data(format!("{}: {message}", self.path.display()));
        let mut bytes = vec![0; count as usize * RECORD_BYTES];
        self.file
            .seek(SeekFrom::Start(offset))
            .and_then(|_| self.file.read_exact(&mut bytes))
            .map_err(|e| fail(format!("at byte {offset}: {e}")))?;
        for (i, chunk) in bytes.chunks_exact(RECORD_BYTES).enumerate() {
            let mut record = [0; RECORD_BYTES];
            record.copy_from_slice(chunk);
            let record = PackedPosition(record);
            record.check().map_err(|e| {
                fail(format!(
                    "at byte {}: bad record: {e}",
                    offset + (i * RECORD_BYTES) as u64
                ))
            })?;
            out.push(record);
        }
        Ok(())
    }
}

/// Several data files read as one stream of positions.
pub struct DataSet {
    files: Vec<DataFile>,
    len: u64,
}

impl DataSet {
    /// Opens every file, checking its header and its length; refuses an empty set.
    pub fn open(paths: &[PathBuf]) -> Result<DataSet, TrainError> {
        let files = paths
            .iter()
            .map(|p| DataFile::open(p))
            .collect::<Result<Vec<_>, _>>()?;
        let len = files.iter().map(|f| f.records).sum();
        if len == 0 {
            return Err(TrainError::Data("the data files hold no positions".into()));
        }
        Ok(DataSet { files, len })
    }

    /// Positions in all the files together.
    pub fn positions(&self) -> u64 {
        self.len
    }

    /// The file holding position `index` (below the total), and its index in that file.
    fn locate(&mut self, mut index: u64) -> (&mut DataFile, u64) {
        for file in &mut self.files {
            if index < file.records {
                return (file, index);
            }
            index -= file.records;
        }
        unreachable!("an index below the total lies in some file")
    }

    /// Appends `count` positions from `start` on (wrapping to the first file after the
    /// last) to `out`.
    pub fn read(
        &mut self,
        start: u64,
        count: u64,
        out: &mut Vec<PackedPosition>,
    ) -> Result<(), TrainError> {
        let total = self.len;
        let mut index = start % total;
        let mut left = count;
        while left > 0 {
            let (file, first) = self.locate(index);
            let take = left.min(file.records - first);
            file.read(first, take, out)?;
            left -= take;
            index = (index + take) % total;
        }
        Ok(())
    }
}

/// Mixes the run's seed with a fill's number into the seed of that fill's shuffle.
fn fill_seed(seed: u64, fill: u64) -> u64 {
    Rng::new(seed ^ fill.wrapping_mul(0x9E37_79B9_7F4A_7C15)).next_u64()
}

/// The shuffled stream of training positions (see the module's documentation).
pub struct Shuffled {
    data: DataSet,
    seed: u64,
    capacity: u64,
    buffer: Vec<PackedPosition>,
    fill: Option<u64>,
}

impl Shuffled {
    /// `buffer` positions (at least 1) are shuffled together; never more than the data has.
    pub fn new(data: DataSet, seed: u64, buffer: u64) -> Shuffled {
        let capacity = buffer.clamp(1, data.positions());
        Shuffled {
            data,
            seed,
            capacity,
            buffer: Vec::new(),
            fill: None,
        }
    }

    /// Positions in the data.
    pub fn positions(&self) -> u64 {
        self.data.positions()
    }

    fn refill(&mut self, fill: u64) -> Result<(), TrainError> {
        self.buffer.clear();
        self.fill = None;
        let start = (u128::from(fill) * u128::from(self.capacity)
            % u128::from(self.data.positions())) as u64;
        self.data.read(start, self.capacity, &mut self.buffer)?;
        let mut rng = Rng::new(fill_seed(self.seed, fill));
        // Fisher-Yates.
        for i in (1..self.buffer.len()).rev() {
            let j = rng.below(i + 1);
            self.buffer.swap(i, j);
        }
        self.fill = Some(fill);
        Ok(())
    }

    /// Replaces `out` with the stream's positions `first .. first + count`.
    pub fn batch(
        &mut self,
        first: u64,
        count: u64,
        out: &mut Vec<PackedPosition>,
    ) -> Result<(), TrainError> {
        out.clear();
        let mut n = first;
        while n < first + count {
            let fill = n / self.capacity;
            if self.fill != Some(fill) {
                self.refill(fill)?;
            }
            let from = (n % self.capacity) as usize;
            let take = (first + count - n).min(self.capacity - from as u64) as usize;
            out.extend_from_slice(&self.buffer[from..from + take]);
            n += take as u64;
        }
        Ok(())
    }
}
