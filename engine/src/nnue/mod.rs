//! The learned evaluation (NNUE: an "efficiently updatable" neural network).
//!
//! [`network`] holds the network and its file format (shared with the trainer, which
//! writes what this module reads); `layers` lays it out at a width fixed at compile time
//! and runs its exact integer forward pass in loops the compiler vectorises;
//! [`accumulator`] keeps its first layer up to date beside the board's stack of
//! positions as the search walks the tree. The network is read-only and shared by all
//! search threads; each thread owns an [`AccumulatorStack`].

pub mod accumulator;
mod layers;
pub mod network;

pub use accumulator::AccumulatorStack;
pub use network::{
    FORMAT_VERSION, INPUTS, MAX_BUCKETS, Network, NetworkError, QA, QB, SCALE, feature_index,
    output_bucket,
};

/// The network compiled into the engine: `engine/nets/default.nnue`, whose provenance
/// `engine/nets/README.md` gives.
pub const EMBEDDED: &[u8] = include_bytes!(env!("CUTOFF_EVALFILE"));

/// The embedded network, read (a test checks that the committed file reads).
pub fn embedded() -> Network {
    Network::from_bytes(EMBEDDED).expect("the embedded network is a valid file")
}

#[cfg(test)]
mod tests;
