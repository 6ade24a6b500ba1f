//! Evaluation weights: hand-set starting values, not yet tuned.
//!
//! Generated file, written by `cutoff tune` (see the README, "Tuning the evaluation"); edit the
//! tuner's starting point, not this file. These values are the hand-set tables the evaluation
//! had before it was shaped for tuning, with the piece-square tables expanded to 64 squares;
//! the terms added since (phalanx and supported pawns, outposts, minors behind pawns,
//! threats, hanging pieces, pawn storms, safe checks) start at zero, so they change nothing until a tuning run gives them values.

use super::{Score, s};

/// Material per role: pawn, knight, bishop, rook, queen.
#[rustfmt::skip]
pub const MATERIAL: [Score; 5] = [
    s( 100,  120), s( 320,  300), s( 330,  320), s( 480,  530), s( 950,  980),
];

/// Pawn by square from its own side (a1 first, h8 last; Black's squares are mirrored).
#[rustfmt::skip]
pub const PAWN_PST: [Score; 64] = [
    s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
    s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
    s(   0,   -4), s(   0,   -4), s(   4,   -4), s(  12,   -4), s(  12,   -4), s(   4,   -4), s(   0,   -4), s(   0,   -4),
    s(   4,    0), s(   4,    0), s(   8,    0), s(  16,    0), s(  16,    0), s(   8,    0), s(   4,    0), s(   4,    0),
    s(  10,    6), s(  10,    6), s(  14,    6), s(  22,    6), s(  22,    6), s(  14,    6), s(  10,    6), s(  10,    6),
    s(  20,   14), s(  20,   14), s(  20,   14), s(  20,   14), s(  20,   14), s(  20,   14), s(  20,   14), s(  20,   14),
    s(  35,   24), s(  35,   24), s(  35,   24), s(  35,   24), s(  35,   24), s(  35,   24), s(  35,   24), s(  35,   24),
    s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
];

/// Knight by square from its own side.
#[rustfmt::skip]
pub const KNIGHT_PST: [Score; 64] = [
    s( -36,  -36), s( -25,  -23), s( -17,  -14), s( -13,   -9), s( -13,   -9), s( -17,  -14), s( -25,  -23), s( -36,  -36),
    s( -19,  -23), s(  -8,  -10), s(   0,   -1), s(   4,    4), s(   4,    4), s(   0,   -1), s(  -8,  -10), s( -19,  -23),
    s(  -9,  -14), s(   2,   -1), s(  10,    8), s(  14,   13), s(  14,   13), s(  10,    8), s(   2,   -1), s(  -9,  -14),
    s(  -1,   -7), s(  10,    6), s(  18,   15), s(  22,   20), s(  22,   20), s(  18,   15), s(  10,    6), s(  -1,   -7),
    s(   3,   -5), s(  14,    8), s(  22,   17), s(  26,   22), s(  26,   22), s(  22,   17), s(  14,    8), s(   3,   -5),
    s(   1,  -10), s(  12,    3), s(  20,   12), s(  24,   17), s(  24,   17), s(  20,   12), s(  12,    3), s(   1,  -10),
    s( -13,  -23), s(  -2,  -10), s(   6,   -1), s(  10,    4), s(  10,    4), s(   6,   -1), s(  -2,  -10), s( -13,  -23),
    s( -35,  -40), s( -24,  -27), s( -16,  -18), s( -12,  -13), s( -12,  -13), s( -16,  -18), s( -24,  -27), s( -35,  -40),
];

/// Bishop by square from its own side.
#[rustfmt::skip]
pub const BISHOP_PST: [Score; 64] = [
    s( -16,  -16), s( -18,  -13), s( -13,   -7), s( -10,   -4), s( -10,   -4), s( -13,   -7), s( -18,  -13), s( -16,  -16),
    s(  -8,  -13), s(   6,   -2), s(   3,    0), s(   6,    3), s(   6,    3), s(   3,    0), s(   6,   -2), s(  -8,  -13),
    s(  -1,   -7), s(   5,    0), s(  18,   10), s(  13,    9), s(  13,    9), s(  18,   10), s(   5,    0), s(  -1,   -7),
    s(   2,   -4), s(   8,    3), s(  13,    9), s(  24,   16), s(  24,   16), s(  13,    9), s(   8,    3), s(   2,   -4),
    s(   2,   -4), s(   8,    3), s(  13,    9), s(  24,   16), s(  24,   16), s(  13,    9), s(   8,    3), s(   2,   -4),
    s(  -3,   -7), s(   3,    0), s(  16,   10), s(  11,    9), s(  11,    9), s(  16,   10), s(   3,    0), s(  -3,   -7),
    s( -10,  -13), s(   4,   -2), s(   1,    0), s(   4,    3), s(   4,    3), s(   1,    0), s(   4,   -2), s( -10,  -13),
    s( -12,  -16), s( -14,  -13), s(  -9,   -7), s(  -6,   -4), s(  -6,   -4), s(  -9,   -7), s( -14,  -13), s( -12,  -16),
];

/// Rook by square from its own side.
#[rustfmt::skip]
pub const ROOK_PST: [Score; 64] = [
    s(  -4,   -2), s(  -2,   -2), s(   2,   -2), s(   5,   -2), s(   5,   -2), s(   2,   -2), s(  -2,   -2), s(  -4,   -2),
    s(  -6,   -2), s(  -4,   -2), s(   0,   -2), s(   3,   -2), s(   3,   -2), s(   0,   -2), s(  -4,   -2), s(  -6,   -2),
    s(  -8,   -2), s(  -6,   -2), s(  -2,   -2), s(   1,   -2), s(   1,   -2), s(  -2,   -2), s(  -6,   -2), s(  -8,   -2),
    s(  -8,    0), s(  -6,    0), s(  -2,    0), s(   1,    0), s(   1,    0), s(  -2,    0), s(  -6,    0), s(  -8,    0),
    s(  -6,    2), s(  -4,    2), s(   0,    2), s(   3,    2), s(   3,    2), s(   0,    2), s(  -4,    2), s(  -6,    2),
    s(  -2,    4), s(   0,    4), s(   4,    4), s(   7,    4), s(   7,    4), s(   4,    4), s(   0,    4), s(  -2,    4),
    s(  12,   12), s(  14,   12), s(  18,   12), s(  21,   12), s(  21,   12), s(  18,   12), s(  14,   12), s(  12,   12),
    s(   4,    6), s(   6,    6), s(  10,    6), s(  13,    6), s(  13,    6), s(  10,    6), s(   6,    6), s(   4,    6),
];

/// Queen by square from its own side.
#[rustfmt::skip]
pub const QUEEN_PST: [Score; 64] = [
    s(  -8,  -26), s(  -4,  -18), s(  -2,  -12), s(  -1,   -8), s(  -1,   -8), s(  -2,  -12), s(  -4,  -18), s(  -8,  -26),
    s(  -2,  -14), s(   2,   -6), s(   4,    0), s(   5,    4), s(   5,    4), s(   4,    0), s(   2,   -6), s(  -2,  -14),
    s(  -1,   -6), s(   3,    2), s(   5,    8), s(   6,   12), s(   6,   12), s(   5,    8), s(   3,    2), s(  -1,   -6),
    s(  -1,    0), s(   3,    8), s(   5,   14), s(   6,   18), s(   6,   18), s(   5,   14), s(   3,    8), s(  -1,    0),
    s(  -1,    2), s(   3,   10), s(   5,   16), s(   6,   20), s(   6,   20), s(   5,   16), s(   3,   10), s(  -1,    2),
    s(  -4,   -2), s(   0,    6), s(   2,   12), s(   3,   16), s(   3,   16), s(   2,   12), s(   0,    6), s(  -4,   -2),
    s(  -8,  -10), s(  -4,   -2), s(  -2,    4), s(  -1,    8), s(  -1,    8), s(  -2,    4), s(  -4,   -2), s(  -8,  -10),
    s( -14,  -20), s( -10,  -12), s(  -8,   -6), s(  -7,   -2), s(  -7,   -2), s(  -8,   -6), s( -10,  -12), s( -14,  -20),
];

/// King by square from its own side.
#[rustfmt::skip]
pub const KING_PST: [Score; 64] = [
    s(  18,  -56), s(  26,  -36), s(   8,  -22), s( -10,  -14), s( -10,  -14), s(   8,  -22), s(  26,  -36), s(  18,  -56),
    s(   0,  -36), s(   8,  -16), s( -10,   -2), s( -28,    6), s( -28,    6), s( -10,   -2), s(   8,  -16), s(   0,  -36),
    s( -22,  -22), s( -14,   -2), s( -32,   12), s( -50,   20), s( -50,   20), s( -32,   12), s( -14,   -2), s( -22,  -22),
    s( -37,  -14), s( -29,    6), s( -47,   20), s( -65,   28), s( -65,   28), s( -47,   20), s( -29,    6), s( -37,  -14),
    s( -47,  -14), s( -39,    6), s( -57,   20), s( -75,   28), s( -75,   28), s( -57,   20), s( -39,    6), s( -47,  -14),
    s( -52,  -22), s( -44,   -2), s( -62,   12), s( -80,   20), s( -80,   20), s( -62,   12), s( -44,   -2), s( -52,  -22),
    s( -52,  -36), s( -44,  -16), s( -62,   -2), s( -80,    6), s( -80,    6), s( -62,   -2), s( -44,  -16), s( -52,  -36),
    s( -52,  -56), s( -44,  -36), s( -62,  -22), s( -80,  -14), s( -80,  -14), s( -62,  -22), s( -44,  -36), s( -52,  -56),
];

/// Knight by number of safe squares attacked.
#[rustfmt::skip]
pub const KNIGHT_MOBILITY: [Score; 9] = [
    s( -28,  -32), s( -16,  -22), s(  -6,  -10), s(   0,   -2), s(   4,    4), s(   8,    8), s(  12,   11), s(  15,   13),
    s(  17,   14),
];

/// Bishop by number of safe squares attacked.
#[rustfmt::skip]
pub const BISHOP_MOBILITY: [Score; 14] = [
    s( -25,  -35), s( -15,  -22), s(  -6,  -12), s(   0,   -4), s(   4,    2), s(   8,    7), s(  11,   11), s(  14,   14),
    s(  16,   17), s(  18,   19), s(  20,   21), s(  22,   22), s(  23,   23), s(  24,   24),
];

/// Rook by number of safe squares attacked.
#[rustfmt::skip]
pub const ROOK_MOBILITY: [Score; 15] = [
    s( -20,  -40), s( -13,  -28), s(  -8,  -18), s(  -4,  -10), s(  -1,   -4), s(   1,    2), s(   3,    7), s(   5,   12),
    s(   7,   16), s(   9,   20), s(  10,   23), s(  11,   26), s(  12,   28), s(  13,   30), s(  14,   31),
];

/// Queen by number of safe squares attacked.
#[rustfmt::skip]
pub const QUEEN_MOBILITY: [Score; 28] = [
    s( -15,  -30), s( -11,  -24), s(  -8,  -18), s(  -6,  -13), s(  -4,   -9), s(  -2,   -6), s(  -1,   -3), s(   0,    0),
    s(   1,    2), s(   2,    4), s(   3,    6), s(   4,    8), s(   5,   10), s(   6,   12), s(   7,   14), s(   8,   16),
    s(   9,   18), s(  10,   19), s(  10,   20), s(  11,   21), s(  11,   22), s(  12,   23), s(  12,   24), s(  13,   25),
    s(  13,   25), s(  14,   26), s(  14,   26), s(  15,   27),
];

/// A pawn with another pawn of its own colour in front of it on the same file.
pub const DOUBLED_PAWN: Score = s(-8, -18);

/// A pawn with no pawns of its own colour on the adjacent files.
pub const ISOLATED_PAWN: Score = s(-10, -14);

/// A pawn behind all its neighbours whose stop square an enemy pawn guards.
pub const BACKWARD_PAWN: Score = s(-6, -10);

/// A pawn with an own pawn beside it on the same rank, by relative rank.
#[rustfmt::skip]
pub const PAWN_PHALANX: [Score; 8] = [
    s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
];

/// A pawn defended by an own pawn, by relative rank.
#[rustfmt::skip]
pub const PAWN_SUPPORTED: [Score; 8] = [
    s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
];

/// Passed pawn by relative rank.
#[rustfmt::skip]
pub const PASSED_PAWN: [Score; 8] = [
    s(   0,    0), s(   2,    8), s(   4,   12), s(  10,   22), s(  22,   40), s(  40,   70), s(  65,  110), s(   0,    0),
];

/// Passed pawn with no piece on the squares in front of it, by relative rank.
#[rustfmt::skip]
pub const PASSED_FREE_PATH: [Score; 8] = [
    s(   0,    0), s(   0,    2), s(   0,    4), s(   2,    8), s(   5,   14), s(  10,   24), s(  15,   38), s(   0,    0),
];

/// Per step from the enemy king to a passed pawn's stop square, by relative rank.
#[rustfmt::skip]
pub const PASSED_THEIR_KING: [Score; 8] = [
    s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    4), s(   0,    8), s(   0,   12), s(   0,   16), s(   0,    0),
];

/// Per step from our king to a passed pawn's stop square, by relative rank.
#[rustfmt::skip]
pub const PASSED_OUR_KING: [Score; 8] = [
    s(   0,    0), s(   0,    0), s(   0,    0), s(   0,   -2), s(   0,   -4), s(   0,   -6), s(   0,   -8), s(   0,    0),
];

/// Own pawn directly in front of the king, on its file or an adjacent one.
pub const KING_SHIELD_NEAR: Score = s(14, 0);

/// Own pawn two squares in front of the king.
pub const KING_SHIELD_FAR: Score = s(7, 0);

/// A shield file with no own pawn within two squares in front of the king.
pub const KING_SHIELD_MISSING: Score = s(-14, 0);

/// A shield file with no pawns of either colour.
pub const KING_OPEN_FILE: Score = s(-12, 0);

/// Nearest enemy pawn on a shield file, by how many ranks it stands in front of the king.
#[rustfmt::skip]
pub const PAWN_STORM: [Score; 8] = [
    s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
];

/// Bishops on both square colours.
pub const BISHOP_PAIR: Score = s(28, 50);

/// Rook on a file without pawns.
pub const ROOK_OPEN_FILE: Score = s(24, 8);

/// Rook on a file without own pawns but with enemy pawns.
pub const ROOK_HALF_OPEN_FILE: Score = s(12, 6);

/// Knight on relative rank 4 to 6, defended by a pawn, out of reach of enemy pawns.
pub const KNIGHT_OUTPOST: Score = s(0, 0);

/// Bishop on relative rank 4 to 6, defended by a pawn, out of reach of enemy pawns.
pub const BISHOP_OUTPOST: Score = s(0, 0);

/// Knight or bishop with a pawn (of either colour) directly in front of it.
pub const MINOR_BEHIND_PAWN: Score = s(0, 0);

/// Enemy piece attacked by a pawn, by its role: knight, bishop, rook, queen.
#[rustfmt::skip]
pub const THREAT_BY_PAWN: [Score; 4] = [
    s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
];

/// Enemy piece attacked by a knight or bishop, by its role: pawn to queen.
#[rustfmt::skip]
pub const THREAT_BY_MINOR: [Score; 5] = [
    s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
];

/// Enemy piece attacked by a rook, by its role: pawn to queen.
#[rustfmt::skip]
pub const THREAT_BY_ROOK: [Score; 5] = [
    s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
];

/// Enemy piece (not pawn or king) attacked and not defended at all.
pub const HANGING: Score = s(0, 0);

/// Bonus for the side to move.
pub const TEMPO: Score = s(18, 8);

/// King-danger units per king-zone square attacked by a knight, bishop, rook, queen; then per safe check by each.
#[rustfmt::skip]
pub const KING_ATTACK_WEIGHT: [i32; 8] = [
       8,    8,   12,   20,    0,    0,    0,    0,
];
