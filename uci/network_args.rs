//! The evaluation a command-line tool searches with: the hand-crafted one, the embedded
//! network (`--nnue`) or a network file (`--eval-file`). `bench` and `datagen` share it.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use cutoff_engine::nnue::{self, Network};

#[derive(Args, Debug, Clone)]
pub struct NetworkArgs {
    /// Evaluate with the embedded network instead of the hand-crafted evaluation.
    #[arg(long)]
    pub nnue: bool,
    /// Evaluate with this network file (implies --nnue).
    #[arg(long, value_name = "FILE")]
    pub eval_file: Option<PathBuf>,
}

impl NetworkArgs {
    /// The network to search with, or `None` for the hand-crafted evaluation; a file that
    /// cannot be read or is not a valid network is an error naming it.
    pub fn load(&self) -> Result<Option<Arc<Network>>, String> {
        match (&self.eval_file, self.nnue) {
            (Some(path), _) => Network::load(path)
                .map(|network| Some(Arc::new(network)))
                .map_err(|e| e.0),
            (None, true) => Ok(Some(Arc::new(nnue::embedded()))),
            (None, false) => Ok(None),
        }
    }

    /// The evaluation in words, for a tool's first line of output.
    pub fn describe(&self) -> String {
        match (&self.eval_file, self.nnue) {
            (Some(path), _) => format!("network {}", path.display()),
            (None, true) => "the embedded network".to_string(),
            (None, false) => "the hand-crafted evaluation".to_string(),
        }
    }
}
