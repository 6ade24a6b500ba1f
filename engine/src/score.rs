//! Score conventions: centipawns from the side to move, with mate scores near ±`MATE`.

/// Deepest ply the search reaches (search stack size).
pub const MAX_PLY: usize = 128;
/// Mate at the root; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores at or beyond this magnitude are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Wider than any score: the initial window.
pub const INFINITY: i32 = MATE + 1;
pub const DRAW: i32 = 0;

#[inline]
pub fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND && score.abs() <= MATE
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
