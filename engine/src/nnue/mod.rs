//! The learned evaluation (NNUE: an "efficiently updatable" neural network).
//!
//! [`network`] holds the network, its file format (shared with the trainer, which writes
//! what this module reads) and its exact integer forward pass.

pub mod network;

pub use network::{
    Accumulator, FORMAT_VERSION, INPUTS, Network, NetworkError, QA, QB, SCALE, feature_index,
};

#[cfg(test)]
mod tests;
