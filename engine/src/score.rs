//! Score conventions: centipawns from the side to move, with mate scores near ±`MATE` and
//! tablebase wins just below them, near ±`TB_WIN`. A score comes with its [`Bound`]:
//! exact, or a bound on the true value.

/// Deepest ply the search reaches (search stack size).
pub const MAX_PLY: usize = 128;
/// Half-moves without a capture or pawn move after which the fifty-move rule draws.
pub const FIFTY_MOVE_PLIES: u32 = 100;
/// Mate at the root; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores at or beyond this magnitude are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Wider than any score: the initial window.
pub const INFINITY: i32 = MATE + 1;
/// A draw.
pub const DRAW: i32 = 0;
/// A position the Syzygy tables call won, `ply` plies from the root, scores
/// `TB_WIN - ply`: below every real mate (a mate found by search still ranks higher),
/// above every evaluation, and never reported as `score mate`.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores at or beyond this magnitude are tablebase wins or mates: decided games.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;
/// The largest static evaluation, corrected or not: below every tablebase or mate score,
/// so that no evaluation is ever read (or stored) as a decided game.
pub const EVAL_LIMIT: i32 = TB_WIN_BOUND - 1;
/// A win the fifty-move rule turns into a draw (a "cursed win"): a draw, nudged upwards
/// so that the search still prefers the line where the opponent may go wrong.
pub const TB_CURSED_WIN: i32 = 2;

/// How a score relates to the true value of its position: what a table entry stores
/// with its score, and what a search reports with a score from an aspiration fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is the exact value (a PV node, or a score inside the window).
    Exact,
    /// The true value is at least the score (a fail-high).
    Lower,
    /// The true value is at most the score (a fail-low).
    Upper,
}

impl Bound {
    /// The bound a fail-soft search proves with `best` against its window: a fail high
    /// is a lower bound, a score that raised α inside the window exact, else an upper
    /// bound.
    pub fn of_result(best: i32, beta: i32, raised_alpha: bool) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if raised_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether `score`, with this bound, decides a search of the window (α, β): exact
    /// always, a lower bound at or above β, an upper bound at or below α.
    #[inline]
    pub fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }

    /// Whether `score`, with this bound, says more about the true value than `estimate`:
    /// exact always, a lower bound above it, an upper bound below it.
    #[inline]
    pub fn says_more_than(self, score: i32, estimate: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score > estimate,
            Bound::Upper => score < estimate,
        }
    }
}

/// True for mate scores (either side).
#[inline]
pub fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND && score.abs() <= MATE
}

/// True for mates and tablebase wins or losses: scores whose size counts plies to an
/// outcome rather than material, and so are stored relative to the node in the table.
#[inline]
pub fn is_decisive(score: i32) -> bool {
    score.abs() >= TB_WIN_BOUND && score.abs() <= MATE
}

/// Score for being mated `ply` plies from the root.
#[inline]
pub fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// Full moves to mate for a mate score, negative when the side to move is mated
/// (UCI `score mate N`).
pub fn mate_moves(score: i32) -> i32 {
    if score > 0 {
        (MATE - score + 1) / 2
    } else {
        -(MATE + score) / 2
    }
}
