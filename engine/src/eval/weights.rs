//! Evaluation weights, tuned by `cutoff tune`.
//!
//! Generated file: to change a weight by hand, change it here and retune, or edit the
//! tuner's starting point (the weights the tuning binary was built with).
//!
//! Data: data/selfplay-seed1-200k.txt (200000 positions).
//! Command: `cutoff tune data/selfplay-seed1-200k.txt --epochs 100 --lambda 0.5 --learning-rate 0.25 --batch-size 16384`.
//! K = 0.005912; loss 0.02823607 at the start, 0.02455625 with these weights.

use super::{Score, s};

/// Material per role: pawn, knight, bishop, rook, queen.
#[rustfmt::skip]
pub const MATERIAL: [Score; 5] = [
    s(  96,  106), s( 349,  293), s( 362,  313), s( 521,  541), s(1049, 1011),
];

/// Pawn by square from its own side (a1 first, h8 last; Black's squares are mirrored).
#[rustfmt::skip]
pub const PAWN_PST: [Score; 64] = [
    s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
    s(   4,    3), s(  11,   14), s(   9,   11), s(   3,   10), s(   6,    9), s(  12,   20), s(  17,    8), s(   5,   -7),
    s(   0,    5), s(  -2,    5), s(   5,  -16), s(   0,   -1), s(   6,    3), s(   8,    0), s(   9,  -10), s(   2,   -1),
    s(  -3,   16), s( -17,    1), s(   2,    1), s(  13,  -14), s(  17,    2), s(   9,   -7), s( -33,    5), s(   3,   -9),
    s(  12,   -5), s(  21,    0), s(  30,   -1), s(  18,  -25), s(  10,    2), s(  31,  -15), s(  -2,   15), s( -16,   -4),
    s(  19,   -7), s(  36,    1), s( -30,    7), s(  71,  -12), s(  22,   -2), s(  45,   -6), s( -16,   26), s(  17,  -23),
    s( 109,   -6), s(  38,   22), s(  38,   74), s(  74,   82), s(  -3,    1), s(  91,   20), s( -16,   15), s( -23,  -32),
    s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
];

/// Knight by square from its own side.
#[rustfmt::skip]
pub const KNIGHT_PST: [Score; 64] = [
    s( -69,   26), s( -22,   -6), s( -63,   21), s( -11,   -1), s( -10,  -28), s(   3,    9), s(  -8,   -5), s( -23,  -17),
    s( -12,    8), s( -18,   19), s(   1,   29), s(  -2,    4), s(  16,  -24), s(  16,    1), s( -69,   21), s(  16,   21),
    s( -22,   15), s(   5,  -22), s(   3,   17), s(  37,    6), s(  -4,   33), s(  13,    5), s(  41,  -31), s(  -3,  -25),
    s( -14,  -15), s(  63,  -19), s(  19,   31), s(  25,  -13), s(  27,   14), s(  37,  -14), s(  29,   -8), s(  23,  -33),
    s(   6,   27), s(   3,  -16), s(  30,   24), s(  28,   25), s(  29,   31), s(  31,   24), s(  39,  -13), s(  46,  -37),
    s(  18,  -22), s(  22,  -27), s(  50,   29), s(  40,   -3), s(  41,  -17), s(  10,   -1), s(   9,   23), s(  38,  -17),
    s( -31,    0), s( -18,   24), s( -27,   15), s(  54,   -6), s( -17,   23), s(  33,  -28), s(  73,  -14), s( -79,  -28),
    s( -89,  -35), s(  11,  -10), s( -51,  -29), s(  18,   14), s( -13,  -29), s(  17,  -21), s(  11,   -6), s( -18,  -77),
];

/// Bishop by square from its own side.
#[rustfmt::skip]
pub const BISHOP_PST: [Score; 64] = [
    s( -10,  -12), s( -13,  -46), s(   1,   17), s( -13,  -40), s(  20,   11), s( -14,  -16), s(  -2,   19), s(   4,  -16),
    s(  66,  -18), s(  10,  -14), s(  36,  -40), s(  22,   16), s(  12,  -22), s(  12,    2), s(  11,  -30), s( -40,   18),
    s(  -4,   13), s(   8,   13), s(  20,   17), s( -13,    5), s(  13,   16), s(   3,   27), s( -10,  -25), s(  14,  -33),
    s( -23,   16), s(  21,    7), s(  -3,   23), s(   9,    7), s(   6,    9), s(   6,   35), s(  19,    7), s(  17,  -23),
    s(  -2,  -23), s(  -5,    9), s(  49,    7), s(  45,   16), s(  53,   25), s(  21,   20), s(   9,    3), s(  55,  -17),
    s(  18,  -43), s(  -4,   -6), s(  -8,   41), s(  21,   19), s(  39,  -29), s(  15,   31), s(  22,   24), s(   9,    4),
    s(  -4,   -7), s(  -6,   17), s(  28,   -8), s(   0,  -23), s(  -2,    4), s(  -8,   -8), s( -56,   17), s( -10,  -49),
    s( -20,   32), s(  78,   62), s(   3,   -6), s( -14,   -3), s(  85,   16), s( -44,  -55), s(  55,    0), s( -57,  -27),
];

/// Rook by square from its own side.
#[rustfmt::skip]
pub const ROOK_PST: [Score; 64] = [
    s(   2,  -14), s(  -4,    7), s(   1,   -5), s(  16,  -12), s(  16,   -8), s(  15,  -17), s( -10,    6), s(   3,  -25),
    s(  -8,   -1), s(  20,  -24), s(  15,   -7), s( -53,   21), s(  12,  -15), s(  -2,   -9), s(   6,  -32), s(  -8,  -17),
    s( -12,    2), s( -50,   18), s(   2,  -19), s( -25,   10), s( -52,   13), s( -40,   -3), s(   5,  -11), s( -40,    8),
    s( -19,   19), s(  -2,   -8), s(  28,  -10), s(  -3,    9), s(  20,    4), s( -14,   -3), s(   0,   16), s( -20,   27),
    s( -16,   10), s(  28,   -7), s(   5,   -2), s( -29,   19), s( -15,   11), s( -15,    4), s(  30,  -18), s(   5,   -1),
    s(   8,    6), s(   0,    8), s(   2,   10), s( -83,   22), s(  16,   -9), s(  74,    7), s(  38,   -1), s( -24,   33),
    s(  27,   23), s(  14,   22), s( -33,   37), s(  -1,   16), s(  71,   12), s(  88,    5), s(  39,   26), s(  38,   24),
    s(  39,   22), s(  10,   23), s(  34,   18), s(  47,   31), s(  96,  -20), s(  30,   13), s(  44,    7), s( -30,   20),
];

/// Queen by square from its own side.
#[rustfmt::skip]
pub const QUEEN_PST: [Score; 64] = [
    s(  17,  -22), s( -13,  -98), s(  37,  -64), s(   6,  -44), s( -17,   25), s(   4,  -99), s( -31,   -3), s( -89,  -97),
    s( -17,  -85), s(  25,  -14), s(  -6,  -47), s(  20,  -21), s(  11,  -28), s(  39,  -51), s(  -1,   15), s(  17,   -2),
    s( -18,   37), s( -13,  -13), s( -19,   35), s( -10,   17), s(   6,   15), s(   6,   37), s( -15,   37), s(  26,   51),
    s(  -8,  -44), s(   3,   12), s( -19,    5), s(   2,   32), s(   0,   43), s(  12,  109), s(  20,   16), s( -26,   81),
    s(  23,  -49), s( -53,   69), s( -15,   50), s( -27,   48), s( -13,   66), s(  66,   -3), s(  12,   22), s(  -5,   47),
    s( -45,   36), s(   6,   -2), s(  25,   27), s(  36,   75), s(   9,   43), s(  72,   46), s(  23,   60), s(  12,   11),
    s(  15,   -9), s(  -4,   42), s(  -7,   35), s(  45,   46), s(  56,   33), s(   3,   17), s(  54,  -30), s(  -7,    6),
    s(   1,   15), s(  -9,  -49), s( -17,   -5), s(  31,   33), s(  17,   34), s(  44,   25), s(  -6,   25), s(  14,   14),
];

/// King by square from its own side.
#[rustfmt::skip]
pub const KING_PST: [Score; 64] = [
    s( -23,  -74), s(   6,  -46), s(  17,  -30), s( -23,  -24), s(   1,  -46), s(  -3,  -25), s(  29,  -35), s(  34,  -60),
    s( -23,  -43), s(  29,  -24), s(  19,  -17), s( -20,   11), s( -15,    2), s( -22,    3), s(   2,   -7), s(   8,  -28),
    s( -77,  -22), s(  -9,   -8), s( -26,    9), s(   8,    6), s( -51,   21), s( -13,   13), s( -37,    2), s(  16,  -39),
    s(  11,  -31), s(  23,    3), s( -34,   16), s(-102,   29), s(-136,   33), s( -47,   22), s( -76,   11), s( -68,   -5),
    s( -62,   24), s( -60,   15), s(-117,   26), s(-175,   35), s(-127,   25), s(  33,   -6), s(   3,    9), s(-135,  -12),
    s( -16,   70), s( -36,   46), s( -42,   14), s( -64,    8), s( -94,   39), s( -52,   17), s( -22,   20), s( -99,   -6),
    s(-118,  -13), s( -41,   49), s( -59,    6), s( -79,   49), s( -42,   -8), s( -26,   45), s(   1,   81), s(-118,  -90),
    s( -20,  -11), s(  32,   98), s(  19,   57), s( -18,   60), s( -25,   20), s( -56,   60), s( -86,   29), s( -89, -113),
];

/// Knight by number of safe squares attacked.
#[rustfmt::skip]
pub const KNIGHT_MOBILITY: [Score; 9] = [
    s( -21,  -90), s( -13,  -40), s(   7,  -12), s(  10,   -8), s(  14,    5), s(  15,   12), s(  23,   17), s(  29,    8),
    s(  41,   -6),
];

/// Bishop by number of safe squares attacked.
#[rustfmt::skip]
pub const BISHOP_MOBILITY: [Score; 14] = [
    s( -19,  -55), s(  -4,  -29), s(   5,  -12), s(   5,   -7), s(  15,    8), s(  14,   12), s(  15,   24), s(  23,   14),
    s(  28,   19), s(  38,    9), s(   9,   16), s(  58,   -8), s(  85,   27), s(  43,  -10),
];

/// Rook by number of safe squares attacked.
#[rustfmt::skip]
pub const ROOK_MOBILITY: [Score; 15] = [
    s( -35,  -34), s( -15,  -25), s(  -4,  -25), s(   0,   -4), s(   4,   -5), s(   2,    9), s(   2,   13), s(   1,   23),
    s(   4,   31), s(   3,   36), s(  13,   30), s(  26,   19), s(  37,   23), s(   1,   39), s(  88,    4),
];

/// Queen by number of safe squares attacked.
#[rustfmt::skip]
pub const QUEEN_MOBILITY: [Score; 28] = [
    s( -26,    8), s( -13,   -6), s( -11,  -78), s( -14,  -24), s(  -5,  -28), s(   1,  -14), s(   4,  -16), s(  10,   17),
    s(  -6,   53), s(  13,    6), s(   5,   37), s(   3,   48), s(   7,   56), s(  19,   48), s(  36,   16), s(  55,    6),
    s(  17,   29), s(  28,   44), s(  49,   17), s(  23,   34), s(  30,   12), s(  42,  -12), s(  46,  -17), s(  18,  -43),
    s(  22,  -24), s(  -3,  -50), s(  28,   27), s(   4,  -34),
];

/// A pawn with another pawn of its own colour in front of it on the same file.
pub const DOUBLED_PAWN: Score = s(-18, -15);

/// A pawn with no pawns of its own colour on the adjacent files.
pub const ISOLATED_PAWN: Score = s(-12, -10);

/// A pawn behind all its neighbours whose stop square an enemy pawn guards.
pub const BACKWARD_PAWN: Score = s(-3, -18);

/// A pawn with an own pawn beside it on the same rank, by relative rank.
#[rustfmt::skip]
pub const PAWN_PHALANX: [Score; 8] = [
    s(   0,    0), s(   1,   -5), s(   0,    5), s(   6,    7), s(   5,   25), s(  79,   68), s(  77,  110), s(   0,    0),
];

/// A pawn defended by an own pawn, by relative rank.
#[rustfmt::skip]
pub const PAWN_SUPPORTED: [Score; 8] = [
    s(   0,    0), s(   0,    0), s(   5,    4), s(  15,   14), s(  25,    4), s(  20,   23), s(  93,    6), s(   0,    0),
];

/// Passed pawn by relative rank.
#[rustfmt::skip]
pub const PASSED_PAWN: [Score; 8] = [
    s(   0,    0), s(  17,   21), s(   4,   27), s(  10,   34), s(  22,   41), s(  33,   75), s(  57,   65), s(   0,    0),
];

/// Passed pawn with no piece on the squares in front of it, by relative rank.
#[rustfmt::skip]
pub const PASSED_FREE_PATH: [Score; 8] = [
    s(   0,    0), s(   4,    4), s( -12,   -8), s( -25,   14), s(  -5,   22), s(  39,    3), s( 117,   54), s(   0,    0),
];

/// Per step from the enemy king to a passed pawn's stop square, by relative rank.
#[rustfmt::skip]
pub const PASSED_THEIR_KING: [Score; 8] = [
    s(   0,    0), s(  -3,   -4), s( -21,    2), s( -10,   10), s(  -5,   22), s(   8,   36), s(   4,   44), s(   0,    0),
];

/// Per step from our king to a passed pawn's stop square, by relative rank.
#[rustfmt::skip]
pub const PASSED_OUR_KING: [Score; 8] = [
    s(   0,    0), s( -10,    6), s(  14,   -3), s(   5,   -8), s(  -1,  -10), s( -11,  -14), s(   0,  -21), s(   0,    0),
];

/// Own pawn directly in front of the king, on its file or an adjacent one.
pub const KING_SHIELD_NEAR: Score = s(14, -3);

/// Own pawn two squares in front of the king.
pub const KING_SHIELD_FAR: Score = s(1, -7);

/// A shield file with no own pawn within two squares in front of the king.
pub const KING_SHIELD_MISSING: Score = s(-10, 8);

/// A shield file with no pawns of either colour.
pub const KING_OPEN_FILE: Score = s(-7, -21);

/// Nearest enemy pawn on a shield file, by how many ranks it stands in front of the king.
#[rustfmt::skip]
pub const PAWN_STORM: [Score; 8] = [
    s(   0,    0), s(  69,  -16), s( -11,   -7), s(   7,   -7), s(   4,  -10), s(  15,  -12), s(  12,  -14), s(   0,    0),
];

/// Bishops on both square colours.
pub const BISHOP_PAIR: Score = s(31, 17);

/// Rook on a file without pawns.
pub const ROOK_OPEN_FILE: Score = s(35, 7);

/// Rook on a file without own pawns but with enemy pawns.
pub const ROOK_HALF_OPEN_FILE: Score = s(26, 4);

/// Rook on the seventh rank with the enemy king on the eighth or enemy pawns on the seventh.
pub const ROOK_ON_SEVENTH: Score = s(10, 20);

/// Knight on relative rank 4 to 6, defended by a pawn, out of reach of enemy pawns.
pub const KNIGHT_OUTPOST: Score = s(22, 5);

/// Bishop on relative rank 4 to 6, defended by a pawn, out of reach of enemy pawns.
pub const BISHOP_OUTPOST: Score = s(25, 4);

/// Knight or bishop with a pawn (of either colour) directly in front of it.
pub const MINOR_BEHIND_PAWN: Score = s(1, 19);

/// Enemy piece attacked by a pawn, by its role: knight, bishop, rook, queen.
#[rustfmt::skip]
pub const THREAT_BY_PAWN: [Score; 4] = [
    s(  52,    6), s(  48,   32), s(  46,    9), s(  39,   12),
];

/// Enemy piece attacked by a knight or bishop, by its role: pawn to queen.
#[rustfmt::skip]
pub const THREAT_BY_MINOR: [Score; 5] = [
    s(  -4,   16), s(  10,   21), s(  17,   13), s(  36,   21), s(  50,   -9),
];

/// Enemy piece attacked by a rook, by its role: pawn to queen.
#[rustfmt::skip]
pub const THREAT_BY_ROOK: [Score; 5] = [
    s( -12,   15), s( -15,   23), s(   7,    1), s( -93,  -73), s(  69,   12),
];

/// Enemy piece (not pawn or king) attacked and not defended at all.
pub const HANGING: Score = s(18, 14);

/// Bonus for the side to move.
pub const TEMPO: Score = s(16, 3);

/// King-danger units per king-zone square attacked by a knight, bishop, rook, queen; then per safe check by each.
#[rustfmt::skip]
pub const KING_ATTACK_WEIGHT: [i32; 8] = [
      11,    7,    9,   12,   14,   -1,    7,   19,
];
