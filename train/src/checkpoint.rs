//! A run's whole float state (settings, weights, AdamW moments, loss history) in one
//! file, so that `--resume` goes on exactly where the run stopped, and the atomic write
//! that every output of the trainer goes through.
//!
//! Layout (little endian): magic `CUTOFFCK`, version u32, the settings (version 2 adds
//! the output buckets after the hidden size; version 1 had one), the number of
//! training positions, the loss history, AdamW's step count, then weights, first and
//! second moments as f32, and last an FNV-1a 64 checksum of everything before it.

use std::path::{Path, PathBuf};

use crate::TrainError;
use crate::model::{Layout, Params};
use crate::optim::{AdamW, Schedule};
use crate::settings::{EpochLoss, Settings};

const MAGIC: [u8; 8] = *b"CUTOFFCK";
/// The version written; version 1 (one output bucket) is read too.
const VERSION: u32 = 2;
const SCHEDULE_STEP: u8 = 0;
const SCHEDULE_COSINE: u8 = 1;

/// Writes `bytes` to a temporary file beside `path`, then renames it over `path`: a run
/// killed midway leaves the previous file whole, never half of a new one.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), TrainError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            TrainError::Io(format!("{}: {e}", path.display()))
        })
}

/// FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A run's state between two epochs.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// The run's settings.
    pub settings: Settings,
    /// Positions in the run's training files, to refuse resuming on other data.
    pub data_positions: u64,
    /// The weights after the last epoch done.
    pub params: Params,
    /// The optimiser's state after the last epoch done.
    pub adam: AdamW,
    /// The losses of the epochs done.
    pub history: Vec<EpochLoss>,
}

#[derive(Default)]
struct Writer(Vec<u8>);

impl Writer {
    fn u8(&mut self, x: u8) {
        self.0.push(x);
    }
    fn u32(&mut self, x: u32) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    fn u64(&mut self, x: u64) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    fn f32(&mut self, x: f32) {
        self.u32(x.to_bits());
    }
    fn f64(&mut self, x: f64) {
        self.u64(x.to_bits());
    }
    fn f32s(&mut self, xs: &[f32]) {
        for &x in xs {
            self.f32(x);
        }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], TrainError> {
        let end = self.at + N;
        let slice = self.bytes.get(self.at..end).ok_or_else(|| {
            TrainError::Checkpoint(format!("ends at byte {} (truncated)", self.bytes.len()))
        })?;
        self.at = end;
        Ok(slice.try_into().expect("slice of N bytes"))
    }
    fn u8(&mut self) -> Result<u8, TrainError> {
        Ok(self.take::<1>()?[0])
    }
    fn u32(&mut self) -> Result<u32, TrainError> {
        Ok(u32::from_le_bytes(self.take()?))
    }
    fn u64(&mut self) -> Result<u64, TrainError> {
        Ok(u64::from_le_bytes(self.take()?))
    }
    fn f32(&mut self) -> Result<f32, TrainError> {
        Ok(f32::from_bits(self.u32()?))
    }
    fn f64(&mut self) -> Result<f64, TrainError> {
        Ok(f64::from_bits(self.u64()?))
    }
    fn f32s(&mut self, len: usize) -> Result<Vec<f32>, TrainError> {
        (0..len).map(|_| self.f32()).collect()
    }
}

impl Checkpoint {
    /// The checkpoint as a file: every field, then a checksum of them.
    pub fn to_bytes(&self) -> Vec<u8> {
        let s = &self.settings;
        let mut w = Writer::default();
        w.0.extend_from_slice(&MAGIC);
        w.u32(VERSION);
        w.u32(s.hidden as u32);
        w.u32(s.buckets as u32);
        w.u64(s.batch_size);
        w.u64(s.epoch_batches);
        w.u32(s.epochs);
        w.f32(s.learning_rate);
        match s.schedule {
            Schedule::Step { every, gamma } => {
                w.u8(SCHEDULE_STEP);
                w.u32(every);
                w.f32(gamma);
            }
            Schedule::Cosine { final_rate } => {
                w.u8(SCHEDULE_COSINE);
                w.u32(0);
                w.f32(final_rate);
            }
        }
        w.f32(s.weight_decay);
        w.f32(s.wdl);
        w.f32(s.eval_scale);
        w.u64(s.seed);
        w.u64(s.shuffle_buffer);
        w.u64(self.data_positions);
        w.u32(self.history.len() as u32);
        for epoch in &self.history {
            w.f64(epoch.train);
            w.f64(epoch.validation.unwrap_or(f64::NAN));
        }
        w.u64(self.adam.steps);
        w.f32s(&self.params.weights);
        w.f32s(&self.adam.m);
        w.f32s(&self.adam.v);
        let checksum = fnv1a(&w.0);
        w.u64(checksum);
        w.0
    }

    /// Reads a checkpoint written by [`Checkpoint::to_bytes`], checking its checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, TrainError> {
        let fail = |m: String| Err(TrainError::Checkpoint(m));
        let mut r = Reader { bytes, at: 0 };
        if r.take::<8>()? != MAGIC {
            return fail("not a Cutoff training checkpoint (no CUTOFFCK magic)".into());
        }
        let version = r.u32()?;
        if version == 0 || version > VERSION {
            return fail(format!(
                "version {version}; this build reads versions 1 to {VERSION}"
            ));
        }
        let hidden = r.u32()? as usize;
        if hidden == 0 || hidden > cutoff_engine::nnue::network::MAX_HIDDEN {
            return fail(format!("hidden size {hidden}"));
        }
        let buckets = match version {
            1 => 1,
            _ => r.u32()? as usize,
        };
        if buckets == 0 || buckets > cutoff_engine::nnue::MAX_BUCKETS {
            return fail(format!("{buckets} output buckets"));
        }
        let batch_size = r.u64()?;
        let epoch_batches = r.u64()?;
        let epochs = r.u32()?;
        let learning_rate = r.f32()?;
        let schedule = match (r.u8()?, r.u32()?, r.f32()?) {
            (SCHEDULE_STEP, every, gamma) => Schedule::Step { every, gamma },
            (SCHEDULE_COSINE, _, final_rate) => Schedule::Cosine { final_rate },
            (tag, _, _) => return fail(format!("unknown schedule {tag}")),
        };
        let settings = Settings {
            hidden,
            buckets,
            batch_size,
            epoch_batches,
            epochs,
            learning_rate,
            schedule,
            weight_decay: r.f32()?,
            wdl: r.f32()?,
            eval_scale: r.f32()?,
            seed: r.u64()?,
            shuffle_buffer: r.u64()?,
        };
        let data_positions = r.u64()?;
        let epochs_done = r.u32()? as usize;
        // Each epoch takes 16 bytes: a count beyond the file is corrupt, not an allocation.
        if epochs_done > bytes.len() / 16 {
            return fail(format!("{epochs_done} epochs recorded"));
        }
        let history = (0..epochs_done)
            .map(|_| {
                let train = r.f64()?;
                let validation = r.f64()?;
                Ok(EpochLoss {
                    train,
                    validation: (!validation.is_nan()).then_some(validation),
                })
            })
            .collect::<Result<Vec<_>, TrainError>>()?;
        let steps = r.u64()?;
        let len = Layout { hidden, buckets }.size();
        let expected = r.at + 3 * 4 * len + 8;
        if bytes.len() != expected {
            return fail(format!(
                "{} bytes; a hidden-{hidden} checkpoint has {expected} (truncated or padded)",
                bytes.len()
            ));
        }
        let weights = r.f32s(len)?;
        let m = r.f32s(len)?;
        let v = r.f32s(len)?;
        let stored = r.u64()?;
        if stored != fnv1a(&bytes[..bytes.len() - 8]) {
            return fail("checksum mismatch (the file is corrupt)".into());
        }
        Ok(Checkpoint {
            settings,
            data_positions,
            params: Params {
                hidden,
                buckets,
                weights,
            },
            adam: AdamW { m, v, steps },
            history,
        })
    }

    /// Writes the checkpoint atomically.
    pub fn save(&self, path: &Path) -> Result<(), TrainError> {
        write_atomically(path, &self.to_bytes())
    }

    /// Reads the checkpoint file at `path`.
    pub fn load(path: &Path) -> Result<Checkpoint, TrainError> {
        let bytes =
            std::fs::read(path).map_err(|e| TrainError::Io(format!("{}: {e}", path.display())))?;
        Checkpoint::from_bytes(&bytes).map_err(|e| match e {
            TrainError::Checkpoint(m) => TrainError::Checkpoint(format!("{}: {m}", path.display())),
            other => other,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checkpoint(buckets: usize) -> Checkpoint {
        let params = Params::init(4, buckets, 9);
        Checkpoint {
            settings: Settings {
                hidden: 4,
                buckets,
                batch_size: 16,
                epoch_batches: 2,
                epochs: 3,
                learning_rate: 0.01,
                schedule: Schedule::Cosine { final_rate: 0.001 },
                weight_decay: 0.0,
                wdl: 0.0,
                eval_scale: 400.0,
                seed: 9,
                shuffle_buffer: 64,
            },
            data_positions: 100,
            adam: AdamW::new(params.weights.len()),
            params,
            history: vec![EpochLoss {
                train: 0.5,
                validation: None,
            }],
        }
    }

    #[test]
    fn round_trip_with_buckets() {
        let eight = checkpoint(8);
        assert_eq!(Checkpoint::from_bytes(&eight.to_bytes()).unwrap(), eight);
    }

    /// A checkpoint written before output buckets (version 1: no bucket count after the
    /// hidden size) resumes as a one-bucket run.
    #[test]
    fn version_1_reads_as_one_bucket() {
        let one = checkpoint(1);
        let bytes = one.to_bytes();
        let mut old = bytes[..8].to_vec();
        old.extend_from_slice(&1u32.to_le_bytes());
        old.extend_from_slice(&bytes[12..16]);
        old.extend_from_slice(&bytes[20..bytes.len() - 8]);
        let checksum = fnv1a(&old);
        old.extend_from_slice(&checksum.to_le_bytes());
        assert_eq!(Checkpoint::from_bytes(&old).unwrap(), one);
        let mut newer = bytes.clone();
        newer[8..12].copy_from_slice(&3u32.to_le_bytes());
        assert!(matches!(
            Checkpoint::from_bytes(&newer),
            Err(TrainError::Checkpoint(m)) if m == "version 3; this build reads versions 1 to 2"
        ));
    }
}
