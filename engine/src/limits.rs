//! What a `go` command asked for.

use std::time::{Duration, Instant};

use shakmaty::Move;

use crate::score::MAX_PLY;

/// The deepest iteration a search runs: a `depth` limit above it means this.
pub const MAX_DEPTH: i32 = MAX_PLY as i32 - 1;

/// Search limits. Several may be given; the search stops at the first one reached.
/// With none (and not pondering) the search is infinite.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after this many plies.
    pub depth: Option<i32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Stop once a mate in at most this many moves is found.
    pub mate: Option<i32>,
    /// Search exactly this long.
    pub movetime: Option<Duration>,
    /// Remaining time of the side to move.
    pub time: Option<Duration>,
    /// Increment of the side to move per move.
    pub increment: Duration,
    /// Moves to the next time control (None: the rest of the game).
    pub movestogo: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Search in ponder mode: no time limit applies until `ponderhit`.
    pub ponder: bool,
    /// Restrict the root to these moves (empty: all moves).
    pub searchmoves: Vec<Move>,
    /// When the `go` arrived: the clock runs from here, so that whatever happens before
    /// the search starts (thread start, root move ranking, tablebase probes) is paid
    /// from this move's time, not past it. `None`: from the start of the search.
    pub started: Option<Instant>,
}

impl Limits {
    /// Fixed-depth limits (bench, tests).
    pub fn depth(depth: i32) -> Self {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// True if nothing would ever stop the search but `stop`.
    pub fn is_infinite(&self) -> bool {
        self.infinite
            || (self.depth.is_none()
                && self.nodes.is_none()
                && self.mate.is_none()
                && self.movetime.is_none()
                && self.time.is_none())
    }
}
