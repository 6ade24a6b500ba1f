//! The evaluation a command-line tool searches with: the embedded network (the default, as
//! in the engine), a network file (`--eval-file`) or the hand-crafted one (`--hce`).
//! `bench`, `datagen` and `epd` share it.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use cutoff_engine::nnue::{self, Network};

#[derive(Args, Debug, Clone)]
pub struct NetworkArgs {
    /// Evaluate with the hand-crafted evaluation instead of the embedded network.
    #[arg(long, conflicts_with = "eval_file")]
    pub hce: bool,
    /// Evaluate with this network file instead of the embedded one.
    #[arg(long, value_name = "FILE")]
    pub eval_file: Option<PathBuf>,
}

impl NetworkArgs {
    /// The network to search with, or `None` for the hand-crafted evaluation; a file that
    /// cannot be read or is not a valid network is an error naming it.
    pub fn load(&self) -> Result<Option<Arc<Network>>, String> {
        match (&self.eval_file, self.hce) {
            (Some(path), _) => Network::load(path)
                .map(|network| Some(Arc::new(network)))
                .map_err(|e| e.0),
            (None, false) => Ok(Some(Arc::new(nnue::embedded()))),
            (None, true) => Ok(None),
        }
    }

    /// The evaluation in words, for a tool's first line of output.
    pub fn describe(&self) -> String {
        match (&self.eval_file, self.hce) {
            (Some(path), _) => format!("network {}", path.display()),
            (None, false) => "the embedded network".to_string(),
            (None, true) => "the hand-crafted evaluation".to_string(),
        }
    }
}
