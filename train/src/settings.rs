//! What a training run is: the settings that decide what it computes, and the losses it
//! records each epoch. The trainer, its checkpoints and its plot all read these, so they
//! live below all three.

use crate::optim::Schedule;

/// Everything that decides what a run computes (threads aside).
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Neurons per perspective.
    pub hidden: usize,
    /// Output buckets, chosen by the number of pieces (`nnue::output_bucket`).
    pub buckets: usize,
    /// Positions per batch.
    pub batch_size: u64,
    /// Batches per epoch (an epoch is a fixed number of positions, not a pass over data).
    pub epoch_batches: u64,
    /// Epochs in the run.
    pub epochs: u32,
    /// The base learning rate.
    pub learning_rate: f32,
    /// How the learning rate falls over the run.
    pub schedule: Schedule,
    /// AdamW's weight decay.
    pub weight_decay: f32,
    /// Weight of the game result in the target; the search score gets the rest.
    pub wdl: f32,
    /// Centipawns per unit of the sigmoid's argument, for prediction and score alike.
    pub eval_scale: f32,
    /// Seeds the initial weights and the shuffling.
    pub seed: u64,
    /// Positions shuffled together in memory.
    pub shuffle_buffer: u64,
}

/// The losses of one epoch (mean squared error of the win probability).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochLoss {
    /// On the training positions of the epoch.
    pub train: f64,
    /// On the validation set, when there is one.
    pub validation: Option<f64>,
}
