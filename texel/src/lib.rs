//! Cutoff's evaluation tuner (Texel's method with Adam).
//!
//! - [`data`] reads labelled positions (`FEN | score | result`, the format `cutoff datagen`
//!   writes) and keeps each one as its evaluation trace: a sparse list of (feature,
//!   White-minus-Black count), the game phase, and the inputs of king danger.
//! - [`model`] replays that trace with real-valued weights, exactly as the engine's
//!   evaluation does with its integer ones, and gives the gradient of the loss.
//! - [`tuner`] fits the sigmoid scale K, then runs Adam over mini-batches, in parallel
//!   with a fixed chunking and summation order so that the result does not depend on the
//!   number of threads.
//! - [`writer`] prints weights as the Rust source of `engine/src/eval/weights.rs`.
//!
//! The tuner prints nothing; `cutoff texel` (in the `cutoff` binary) is its front end.

pub mod data;
pub mod model;
pub mod tuner;
pub mod writer;
