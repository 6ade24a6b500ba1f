//! The command-line face of the binary: each subcommand of `cutoff` (datagen, data,
//! train, texel, epd, lab, genfens) in a module of its own, with the helpers they share
//! (network flags, files written under a temporary name, opening books read lazily).

pub mod book;
pub mod data;
pub mod datagen;
pub mod epd;
pub mod genfens;
pub mod lab;
pub mod manifest;
pub mod network_args;
pub mod pending_file;
pub mod pgn;
pub mod sha256;
pub mod texel;
pub mod train;
