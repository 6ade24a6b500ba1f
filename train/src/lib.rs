//! Cutoff's network trainer, on the CPU: packed positions (`cutoff_engine::data`) in, a
//! quantised network file out.
//!
//! - [`loader`] reads the data files as one stream, a buffer at a time, shuffled so that
//!   the seed and the count of positions seen decide the order (memory stays bounded, and
//!   a resumed run reads what an uninterrupted one would).
//! - [`sample`] turns a record into the active features of both perspectives and its
//!   labels; [`model`] is the float network 768 -> H x 2 -> 1 (SCReLU) with sparse forward
//!   and backward passes: only the rows of active features are read or written.
//! - [`optim`] is AdamW and the learning-rate schedules; [`trainer`] runs the epochs, a
//!   fixed split of each batch per thread summed in order (the weights depend only on the
//!   seed and the thread count), and the validation loss.
//! - [`quant`] rounds the weights to the network file's integers and evaluates them as the
//!   engine does; [`checkpoint`] saves and restores a run; [`plot`] draws its loss curves.
//!
//! The trainer prints nothing; `cutoff train` (in the `cutoff` binary) is its front end.

pub mod checkpoint;
pub mod loader;
pub mod model;
pub mod optim;
pub mod plot;
pub mod quant;
pub mod sample;
pub mod settings;
pub mod trainer;

/// Why training could not go on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrainError {
    /// A data file is missing, malformed or truncated.
    Data(String),
    /// A checkpoint is missing, malformed or truncated.
    Checkpoint(String),
    /// The settings cannot work (or do not match the checkpoint's run).
    Settings(String),
    /// Writing an output failed.
    Io(String),
}

impl std::fmt::Display for TrainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TrainError::Data(m) => write!(f, "data: {m}"),
            TrainError::Checkpoint(m) => write!(f, "checkpoint: {m}"),
            TrainError::Settings(m) => write!(f, "settings: {m}"),
            TrainError::Io(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for TrainError {}
