//! Evaluation weights, tuned by `cutoff tune`.
//!
//! Generated file: to change a weight by hand, change it here and retune, or edit the
//! tuner's starting point (the weights the tuning binary was built with).
//!
//! Data: data/selfplay-seed1.txt, data/selfplay-b71-seed2.txt (666274 positions).
//! Command: `cutoff tune data/selfplay-seed1.txt data/selfplay-b71-seed2.txt --epochs 100 --lambda 0.5 --learning-rate 0.25 --batch-size 16384`.
//! K = 0.006581; loss 0.02762420 at the start, 0.02613554 with these weights.

use super::{Score, s};

/// Material per role: pawn, knight, bishop, rook, queen.
#[rustfmt::skip]
pub const MATERIAL: [Score; 5] = [
    s(  81,  111), s( 339,  321), s( 358,  339), s( 494,  585), s(1125, 1041),
];

/// Pawn by square from its own side (a1 first, h8 last; Black's squares are mirrored).
#[rustfmt::skip]
pub const PAWN_PST: [Score; 64] = [
    s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
    s(  -3,    4), s(   2,    3), s(   1,   17), s(   1,   -3), s(   5,    5), s(  14,   19), s(  20,   13), s(   5,   -2),
    s(  -5,   -1), s( -10,    2), s(  -4,   -6), s(   0,    3), s(   6,    5), s(  12,   -3), s(   8,   -3), s(   3,   -1),
    s(  -4,   -1), s( -12,   -6), s(   3,    1), s(  14,  -12), s(  21,  -13), s(   5,   -6), s( -10,    6), s(  -7,   -1),
    s(  -1,    6), s(   7,   12), s(  19,    5), s(  15,  -13), s(  17,  -12), s(  18,  -15), s(   8,    2), s(   0,    5),
    s(  25,    3), s(   1,   14), s(   4,   13), s(  67,  -10), s(  20,    9), s(  63,  -20), s(  34,    2), s(  21,    8),
    s( 113,  -30), s(  25,   11), s(  -1,   51), s(  13,   69), s( -14,   47), s(  52,   24), s(  39,   -1), s(  39,  -20),
    s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
];

/// Knight by square from its own side.
#[rustfmt::skip]
pub const KNIGHT_PST: [Score; 64] = [
    s( -93,  -28), s( -26,    1), s( -44,   23), s( -12,   16), s(  -7,  -26), s(   5,   21), s(  -9,  -14), s( -61,   38),
    s( -10,    0), s( -11,   28), s(   0,  -13), s(   9,   -4), s(  15,    3), s(   9,   17), s( -51,   45), s(  13,    8),
    s( -19,   -9), s(   1,    4), s(   5,   12), s(  21,   23), s(   5,   34), s(  16,   -3), s(  25,   -9), s(  -4,   -1),
    s(  -8,   -1), s(  31,   17), s(  21,   27), s(  25,    6), s(  29,   21), s(  37,    2), s(  10,   19), s(   3,  -10),
    s(  22,   -4), s(   8,    8), s(  26,   23), s(  35,   17), s(  35,   26), s(  29,   19), s(  32,   -4), s(  41,  -13),
    s(  -7,  -28), s(  13,  -15), s(  46,   24), s(  38,   12), s(  39,    1), s(  44,    7), s( -20,   21), s(  11,    8),
    s( -41,    5), s(  -6,   20), s(  15,   -9), s(  27,   23), s(  18,    9), s(  55,  -30), s(  44,  -40), s( -38,  -33),
    s(-137,  -74), s(-134,   51), s( -57,   17), s( -45,    2), s( -18,    6), s( -31,  -37), s( -26,  -16), s( -17,  -71),
];

/// Bishop by square from its own side.
#[rustfmt::skip]
pub const BISHOP_PST: [Score; 64] = [
    s(  20,  -31), s( -26,  -17), s(   0,   -1), s(  19,  -17), s(  -6,    7), s( -12,   -6), s(  17,   12), s(   3,  -33),
    s(  26,   -7), s(  18,  -30), s(  14,    3), s(  14,    9), s(  20,   -7), s(  15,    0), s(  19,   -9), s( -15,   21),
    s(  -6,   -5), s(  10,    8), s(  19,   10), s(   8,   14), s(  10,   17), s(  21,   14), s(  20,  -24), s(   8,  -21),
    s( -16,   20), s(  -6,   19), s(   6,   15), s(  27,   14), s(  10,   24), s(   4,   15), s(  15,   -6), s( -35,    5),
    s( -18,   -3), s(   9,    8), s(   5,   25), s(  23,   25), s(  34,   17), s(  19,   14), s(   3,   -8), s(  26,  -23),
    s(   7,  -24), s(  12,   19), s(  14,   24), s( -10,   32), s(  41,   -7), s( -14,   33), s(  -6,   25), s(  13,    5),
    s(  -6,    1), s( -21,   42), s(  -8,   41), s(  -5,    5), s(  -7,   30), s(  15,    6), s( -17,   12), s( -50,   13),
    s( -49,   25), s(  -5,    8), s( -57,   41), s(   1,   26), s( -16,   20), s( -29,    2), s( 114,   -1), s( -59,   -1),
];

/// Rook by square from its own side.
#[rustfmt::skip]
pub const ROOK_PST: [Score; 64] = [
    s(  -7,   -6), s( -10,   -1), s( -15,    5), s(   1,   -2), s(  11,  -12), s(   9,   -8), s( -10,    0), s(  -1,  -15),
    s( -14,    0), s(   0,   -4), s(   3,    1), s( -46,   26), s( -28,   12), s(   9,  -14), s(  20,  -12), s(   7,  -15),
    s( -33,   24), s( -53,   45), s( -12,    1), s( -44,   16), s( -35,   14), s( -24,   -1), s(   5,   -8), s( -16,   -3),
    s( -12,   18), s( -10,   12), s( -22,   19), s( -16,   26), s(  23,   -2), s(  -2,   12), s(  -5,   34), s(  -9,   10),
    s( -16,   27), s(   6,   12), s(  -2,   13), s(   1,   20), s( -25,   18), s(  29,    1), s(  19,   10), s(   0,   11),
    s(  13,   20), s(  20,    2), s(  15,   24), s( -29,   33), s(  80,  -18), s(  56,   -8), s(  68,   -3), s(  31,   30),
    s(  19,   26), s(  26,   11), s(   4,   21), s(  18,    9), s(  58,   -8), s( 105,  -17), s(  47,   11), s(  52,    0),
    s(  38,   18), s(  37,   15), s(  53,    8), s(  34,   15), s(  91,   -8), s(  60,   -6), s(  13,   21), s(  20,   14),
];

/// Queen by square from its own side.
#[rustfmt::skip]
pub const QUEEN_PST: [Score; 64] = [
    s(  17,  -47), s(  -1, -132), s(   8,  -46), s(   3,  -57), s( -22,   13), s(  32, -114), s(  13,  -51), s( -56,   21),
    s(  -4,  -41), s(   6,  -48), s(   2,  -42), s(   8,  -32), s(  14,  -26), s(  30,  -58), s(  11,  -30), s(  19,    6),
    s( -15,   47), s(  -4,  -26), s(  -3,   27), s(  -3,   46), s(   8,   13), s(   2,   40), s(   1,   26), s(  21,  -27),
    s(   3,  -24), s(   7,    9), s(  -8,   22), s(   7,   40), s( -16,   80), s(   0,   74), s(  16,   43), s( -12,   44),
    s(  23,  -32), s( -20,   59), s(   3,   51), s( -16,   71), s( -16,  103), s(  63,   31), s( -14,   51), s(  14,   19),
    s( -66,  121), s(   2,   48), s(  17,   47), s(  -4,   99), s(  19,   63), s(  33,   36), s(  12,   85), s(  25,  -17),
    s(  15,  -33), s(  -9,   43), s( -20,   96), s(  24,   68), s(  79,   39), s( -23,  105), s(  86,  -52), s(  24,  -43),
    s(  32,   25), s(  27,   -5), s(  12,    6), s(  30,   40), s(  17,   71), s(  78,   17), s(  29,   22), s(  10,   42),
];

/// King by square from its own side.
#[rustfmt::skip]
pub const KING_PST: [Score; 64] = [
    s(  21, -106), s(  29,  -51), s(  15,  -30), s( -25,  -35), s(  -8,  -43), s( -20,  -17), s(  18,  -33), s(  21,  -54),
    s(  22,  -62), s(  20,  -20), s(  23,  -23), s( -24,    4), s( -34,    6), s( -14,    3), s(   1,   -1), s( -13,  -20),
    s( -72,  -17), s(  40,  -27), s( -20,    8), s( -25,   18), s( -31,   20), s( -18,   17), s( -35,   14), s( -23,  -16),
    s(  44,  -36), s(  -2,   -1), s( -18,   34), s( -46,   35), s(  13,   18), s( -41,   33), s( -63,   27), s( -47,  -13),
    s( -75,    0), s( -60,   33), s( -85,   51), s(   5,   34), s( -53,   52), s(  20,   37), s(  37,   13), s(-142,    0),
    s(   4,  -57), s( -29,   30), s( -43,   47), s(  30,   50), s(-124,   71), s( -16,   67), s( -11,   42), s(  30,  -13),
    s( -13,  -77), s( -37,   54), s(  42,   97), s(-124,  123), s( -56,   67), s( -81,   53), s( -55,   34), s(-171,  -32),
    s( -68, -163), s( 234, -284), s(  46,   38), s(-100,   59), s(   2,   58), s(-115,  117), s( -33,  114), s( -18,    2),
];

/// Knight by number of safe squares attacked.
#[rustfmt::skip]
pub const KNIGHT_MOBILITY: [Score; 9] = [
    s( -32,  -82), s( -11,  -32), s(   0,    6), s(   7,    8), s(   9,   22), s(  16,   26), s(  19,   28), s(  27,   22),
    s(  31,   12),
];

/// Bishop by number of safe squares attacked.
#[rustfmt::skip]
pub const BISHOP_MOBILITY: [Score; 14] = [
    s( -20,  -46), s(  -8,  -21), s(   2,   -4), s(   7,    0), s(  12,   13), s(  16,   20), s(  15,   29), s(  21,   25),
    s(  21,   35), s(  27,   29), s(  20,   29), s(  56,   19), s(  77,   14), s( 151,  -13),
];

/// Rook by number of safe squares attacked.
#[rustfmt::skip]
pub const ROOK_MOBILITY: [Score; 15] = [
    s( -37,  -36), s( -18,  -19), s( -12,  -16), s(  -6,    6), s(  -5,   14), s(   1,   18), s(   3,   23), s(   5,   28),
    s(   7,   38), s(   6,   41), s(  14,   39), s(  19,   41), s(  32,   37), s(  30,   38), s( 136,   -1),
];

/// Queen by number of safe squares attacked.
#[rustfmt::skip]
pub const QUEEN_MOBILITY: [Score; 28] = [
    s(  -8, -107), s(  -8,  -54), s(  -8,  -48), s(  -5,  -16), s(  -4,    1), s(   0,  -16), s(   3,    5), s(  10,   16),
    s(   8,   20), s(   7,   23), s(   7,   35), s(   7,   55), s(   8,   62), s(  17,   45), s(  15,   58), s(  20,   45),
    s(  24,   42), s(  17,   43), s(  24,   58), s(  24,   50), s(  68,    4), s( 105,  -26), s( 117,  -31), s( 116,  -36),
    s(  87,  -23), s(  91,  -83), s(  21,   39), s(  69,  -32),
];

/// A pawn with another pawn of its own colour in front of it on the same file.
pub const DOUBLED_PAWN: Score = s(-11, -5);

/// A pawn with no pawns of its own colour on the adjacent files.
pub const ISOLATED_PAWN: Score = s(-9, -12);

/// A pawn behind all its neighbours whose stop square an enemy pawn guards.
pub const BACKWARD_PAWN: Score = s(-4, -19);

/// A pawn with an own pawn beside it on the same rank, by relative rank.
#[rustfmt::skip]
pub const PAWN_PHALANX: [Score; 8] = [
    s(   0,    0), s(   3,   -5), s(   3,    2), s(   7,    5), s(   2,   27), s(  71,   48), s( 108,  117), s(   0,    0),
];

/// A pawn defended by an own pawn, by relative rank.
#[rustfmt::skip]
pub const PAWN_SUPPORTED: [Score; 8] = [
    s(   0,    0), s(   0,    0), s(  10,    4), s(  15,   12), s(  18,   18), s(  14,   36), s( 185,   63), s(   0,    0),
];

/// Passed pawn by relative rank.
#[rustfmt::skip]
pub const PASSED_PAWN: [Score; 8] = [
    s(   0,    0), s(  15,   25), s(  -7,   11), s(  -5,   31), s(  13,   44), s(  51,   66), s(  63,   54), s(   0,    0),
];

/// Passed pawn with no piece on the squares in front of it, by relative rank.
#[rustfmt::skip]
pub const PASSED_FREE_PATH: [Score; 8] = [
    s(   0,    0), s(  -6,    9), s( -20,   12), s(  -9,    9), s(   2,   19), s(  34,   23), s(  78,   59), s(   0,    0),
];

/// Per step from the enemy king to a passed pawn's stop square, by relative rank.
#[rustfmt::skip]
pub const PASSED_THEIR_KING: [Score; 8] = [
    s(   0,    0), s(  -3,   -3), s( -13,    6), s(  -4,   11), s( -11,   23), s(   2,   41), s(   5,   52), s(   0,    0),
];

/// Per step from our king to a passed pawn's stop square, by relative rank.
#[rustfmt::skip]
pub const PASSED_OUR_KING: [Score; 8] = [
    s(   0,    0), s(   0,   -1), s(  15,   -7), s(   4,   -7), s(   5,  -12), s(  -7,  -19), s(  -4,  -18), s(   0,    0),
];

/// Own pawn directly in front of the king, on its file or an adjacent one.
pub const KING_SHIELD_NEAR: Score = s(14, 0);

/// Own pawn two squares in front of the king.
pub const KING_SHIELD_FAR: Score = s(3, -1);

/// A shield file with no own pawn within two squares in front of the king.
pub const KING_SHIELD_MISSING: Score = s(-10, 9);

/// A shield file with no pawns of either colour.
pub const KING_OPEN_FILE: Score = s(-12, -25);

/// Nearest enemy pawn on a shield file, by how many ranks it stands in front of the king.
#[rustfmt::skip]
pub const PAWN_STORM: [Score; 8] = [
    s(   0,    0), s(  64,  -17), s(  -5,  -16), s(  -3,  -11), s(  -1,   -8), s(   9,  -17), s(   8,  -17), s(   0,    0),
];

/// Bishops on both square colours.
pub const BISHOP_PAIR: Score = s(17, 48);

/// Rook on a file without pawns.
pub const ROOK_OPEN_FILE: Score = s(39, -6);

/// Rook on a file without own pawns but with enemy pawns.
pub const ROOK_HALF_OPEN_FILE: Score = s(26, 3);

/// Rook on the seventh rank with the enemy king on the eighth or enemy pawns on the seventh.
pub const ROOK_ON_SEVENTH: Score = s(-3, 10);

/// Knight on relative rank 4 to 6, defended by a pawn, out of reach of enemy pawns.
pub const KNIGHT_OUTPOST: Score = s(23, 3);

/// Bishop on relative rank 4 to 6, defended by a pawn, out of reach of enemy pawns.
pub const BISHOP_OUTPOST: Score = s(28, 2);

/// Knight or bishop with a pawn (of either colour) directly in front of it.
pub const MINOR_BEHIND_PAWN: Score = s(1, 17);

/// Enemy piece attacked by a pawn, by its role: knight, bishop, rook, queen.
#[rustfmt::skip]
pub const THREAT_BY_PAWN: [Score; 4] = [
    s(  52,   17), s(  52,   45), s(  30,   20), s(  50,  -27),
];

/// Enemy piece attacked by a knight or bishop, by its role: pawn to queen.
#[rustfmt::skip]
pub const THREAT_BY_MINOR: [Score; 5] = [
    s(  -4,   12), s(  12,   20), s(  23,   25), s(  48,   10), s(  43,   23),
];

/// Enemy piece attacked by a rook, by its role: pawn to queen.
#[rustfmt::skip]
pub const THREAT_BY_ROOK: [Score; 5] = [
    s( -12,   16), s(  -4,   27), s(   3,   11), s( -87,  -20), s(  58,    1),
];

/// Enemy piece (not pawn or king) attacked and not defended at all.
pub const HANGING: Score = s(14, 14);

/// Bonus for the side to move.
pub const TEMPO: Score = s(16, 6);

/// King-danger units per king-zone square attacked by a knight, bishop, rook, queen; then per safe check by each.
#[rustfmt::skip]
pub const KING_ATTACK_WEIGHT: [i32; 8] = [
       9,    7,    8,   11,   17,   16,   20,   22,
];
