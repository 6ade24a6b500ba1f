//! The UCI face of the binary: the session that serves a GUI over stdin/stdout, the parser
//! of its commands, the options it offers and the lines it sends. The command-line tools
//! (`crate::tools`) reuse its output, Syzygy loading and `bench`/`perft` runners; nothing
//! here reaches into the tools.

pub mod command;
pub mod options;
pub mod output;
pub mod session;
pub mod syzygy;
