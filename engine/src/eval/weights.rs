//! Evaluation weights, tuned by `cutoff tune`.
//!
//! Generated file: to change a weight by hand, change it here and retune, or edit the
//! tuner's starting point (the weights the tuning binary was built with).
//!
//! Data: data/selfplay-seed1.txt, data/selfplay-b71-seed2.txt, data/selfplay-b71-seed3.txt, data/selfplay-fb5-seed4.txt (1080654 positions).
//! Command: `cutoff tune data/selfplay-seed1.txt data/selfplay-b71-seed2.txt data/selfplay-b71-seed3.txt data/selfplay-fb5-seed4.txt --epochs 100 --lambda 0.5 --learning-rate 0.25 --batch-size 16384`.
//! K = 0.006476; loss 0.02729889 at the start, 0.02705668 with these weights.

use super::{Score, s};

/// Material per role: pawn, knight, bishop, rook, queen.
#[rustfmt::skip]
pub const MATERIAL: [Score; 5] = [
    s(  82,  110), s( 342,  327), s( 359,  346), s( 486,  598), s(1159, 1050),
];

/// Pawn by square from its own side (a1 first, h8 last; Black's squares are mirrored).
#[rustfmt::skip]
pub const PAWN_PST: [Score; 64] = [
    s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
    s(  -8,    7), s(   0,    8), s(   1,   16), s(  -2,    1), s(   2,   10), s(  17,   18), s(  25,   14), s(   1,   -7),
    s( -10,    5), s(  -9,    1), s(   2,   -8), s(   1,    6), s(   8,    6), s(  14,   -1), s(  15,   -9), s(   1,   -6),
    s(  -8,    2), s( -10,  -10), s(   5,   -3), s(  18,  -12), s(  24,  -12), s(  14,   -6), s(  -5,   -5), s(  -4,   -5),
    s(  -5,    5), s(   5,    9), s(  12,    4), s(  11,  -15), s(   6,  -11), s(  20,  -21), s(  10,    0), s(  -2,   -4),
    s(  26,    8), s(  -3,   28), s(  -8,   30), s(  50,    2), s(  11,   14), s(  59,  -14), s(  22,   10), s(  17,   15),
    s( 126,  -40), s(  32,   22), s(   7,   33), s(  17,   38), s(  19,   53), s(  71,   24), s(  38,   15), s(  27,  -16),
    s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
];

/// Knight by square from its own side.
#[rustfmt::skip]
pub const KNIGHT_PST: [Score; 64] = [
    s( -90,  -19), s( -21,    1), s( -19,    9), s( -26,   11), s(  -5,  -18), s(   6,   16), s( -11,  -27), s( -35,  -29),
    s(  -8,    9), s(  -5,   32), s(  -5,   -4), s(  10,    3), s(  15,   -1), s(  15,    4), s( -38,   35), s(  16,   -8),
    s( -18,   -6), s(  -4,   -1), s(   6,   12), s(  26,   25), s(   8,   34), s(  20,   -1), s(  28,   -7), s(  -6,  -13),
    s(  -2,   10), s(  20,   22), s(  20,   27), s(  19,   15), s(  29,   22), s(  35,    0), s(  16,    3), s(   6,   -3),
    s(  12,    1), s(   9,    7), s(  23,   31), s(  33,   22), s(  32,   34), s(  34,   22), s(  24,    2), s(  34,   -8),
    s( -17,  -20), s(  13,  -16), s(  29,   31), s(  42,   19), s(  41,    8), s(  34,   11), s( -12,   18), s(   0,    5),
    s( -20,  -12), s( -16,   11), s(   5,   -6), s(  24,   18), s(  20,    8), s(  49,  -13), s(  30,  -19), s( -22,  -13),
    s(-161,  -46), s(-219,   90), s( -67,   10), s( -86,   29), s(  52,  -18), s( -95,   -6), s(-105,    8), s(  -7, -132),
];

/// Bishop by square from its own side.
#[rustfmt::skip]
pub const BISHOP_PST: [Score; 64] = [
    s(  18,  -24), s( -43,   11), s(   4,   -2), s(   0,   -4), s(  -5,    4), s( -10,   -3), s(  13,   -5), s(  -2,   -2),
    s(  25,  -20), s(  20,  -28), s(  16,   -3), s(  13,    4), s(  21,   -1), s(  16,   -2), s(  21,   -3), s( -17,    6),
    s(  -1,   -7), s(  15,    0), s(  23,    4), s(  12,   13), s(  13,   16), s(  26,   11), s(  17,  -11), s(   9,   -5),
    s( -20,    8), s(   2,   12), s(   7,   16), s(  27,   12), s(  18,   19), s(  10,   18), s(  -2,    9), s( -28,  -14),
    s( -10,   -6), s(   3,   15), s(   9,   18), s(  20,   28), s(  17,   18), s(  15,   18), s(   6,  -11), s(  16,   -6),
    s( -18,    0), s(  -5,   17), s(   3,   27), s(   9,   31), s(  25,   10), s(  13,   23), s( -10,   29), s(  19,    1),
    s( -11,    6), s( -20,   46), s(  -8,   22), s( -24,   15), s(  15,   16), s( -20,   22), s(  -6,    4), s( -52,   15),
    s( -53,   25), s(   7,   11), s(-125,   64), s(  -4,   20), s( -41,   25), s( -85,   37), s(  11,   18), s( -65,   14),
];

/// Rook by square from its own side.
#[rustfmt::skip]
pub const ROOK_PST: [Score; 64] = [
    s(  -7,   -6), s(  -9,   -2), s( -10,    5), s(   0,    1), s(   7,  -11), s(   4,   -6), s( -12,    4), s(  -6,  -11),
    s( -17,    3), s(   2,   -3), s(   6,   -7), s( -31,   16), s( -21,    9), s(  -5,   -5), s(  14,  -13), s( -17,  -14),
    s( -26,   21), s( -46,   40), s( -30,   17), s( -30,   17), s( -23,   15), s( -28,    6), s(  -7,    3), s(  -9,    2),
    s( -16,   19), s(  -8,   19), s( -11,   20), s( -17,   30), s(  18,    9), s(  -4,   26), s(   8,   25), s( -11,    8),
    s( -13,   28), s(   1,   13), s(   6,   21), s(  12,   17), s(  -5,    7), s(  22,    8), s(  35,    4), s(   8,   13),
    s(   4,   24), s(  19,    7), s(  34,   20), s(   8,   22), s(  82,  -16), s(  73,  -12), s(  59,   -9), s(  25,   26),
    s(  35,   20), s(  43,    8), s(  45,    8), s(  47,    2), s(  70,  -10), s(  96,  -14), s(  54,    8), s(  68,   -1),
    s(  32,   30), s(  37,   24), s(  53,   16), s(  18,   29), s(  53,   12), s(  88,   -9), s(  20,   24), s(  21,   18),
];

/// Queen by square from its own side.
#[rustfmt::skip]
pub const QUEEN_PST: [Score; 64] = [
    s(  13,  -54), s(   3, -111), s(  15,  -50), s(   2,  -45), s( -13,  -27), s(  37, -156), s(  29,  -97), s( -46,    2),
    s(   6,  -46), s(   8,  -43), s(   5,  -33), s(  11,  -27), s(  14,  -23), s(  35,  -63), s(  12,  -49), s(  -2,   15),
    s( -14,   36), s(  -4,   -8), s(  -5,   47), s(  -2,   44), s(   9,   16), s(   4,   25), s(   6,    4), s(   2,    3),
    s(   3,   10), s(   1,   24), s( -10,   34), s(   2,   68), s( -10,   71), s(  -6,   74), s(  11,   47), s(  -1,   26),
    s(  29,  -44), s( -12,   35), s(   9,   46), s( -15,   72), s(   0,   89), s(  51,   26), s( -17,   63), s(  11,   11),
    s( -47,   89), s(  -3,   58), s(   6,   50), s(   8,   85), s(  27,   65), s(  41,   44), s(   2,  112), s(  17,   27),
    s(  15,  -46), s( -18,   56), s( -15,   64), s(  -1,   61), s(  38,   33), s( -18,  106), s(  67,  -12), s(  25,  -11),
    s(  39,  -10), s(  -2,   25), s(  10,   11), s(  14,   50), s(  49,   60), s(  98,    8), s(  42,   16), s(   7,   50),
];

/// King by square from its own side.
#[rustfmt::skip]
pub const KING_PST: [Score; 64] = [
    s(  18,  -95), s(  22,  -39), s(  14,  -23), s( -26,  -24), s(  -6,  -38), s( -18,  -18), s(  19,  -31), s(  18,  -54),
    s(   5,  -42), s(   8,   -8), s(  10,   -5), s( -26,    9), s( -26,    8), s( -15,    6), s(   1,    8), s(  -7,  -19),
    s( -47,  -17), s(  25,   -6), s( -20,   10), s( -23,   25), s( -20,   24), s( -28,   22), s( -30,   16), s( -13,  -13),
    s( -40,   -4), s( -25,   19), s( -28,   36), s( -55,   41), s(  -2,   33), s( -23,   37), s( -29,   18), s( -46,   -1),
    s( -95,   17), s( -47,   52), s( -58,   58), s(   6,   36), s( -82,   63), s(  10,   41), s( -33,   42), s(-133,   12),
    s(  36,  -59), s(  29,   28), s( -27,   53), s( -35,   59), s(-102,   62), s( -67,   77), s( -29,   53), s( -17,  -25),
    s(  80,  -84), s(  14,   58), s(  43,   50), s( -43,   35), s(-109,   75), s(-102,   65), s( -46,   23), s(-215,  -10),
    s( -19, -145), s( 405, -387), s(  73,  -10), s( -95,   64), s(  25,    7), s(  -7,  -42), s(  42, -126), s( -65,  -71),
];

/// Knight by number of safe squares attacked.
#[rustfmt::skip]
pub const KNIGHT_MOBILITY: [Score; 9] = [
    s( -30,  -72), s(  -9,  -26), s(   2,    5), s(   7,   11), s(   9,   24), s(  16,   34), s(  20,   29), s(  28,   25),
    s(  24,   19),
];

/// Bishop by number of safe squares attacked.
#[rustfmt::skip]
pub const BISHOP_MOBILITY: [Score; 14] = [
    s( -19,  -57), s(  -7,  -22), s(   2,  -10), s(   7,    5), s(  12,   15), s(  17,   23), s(  18,   32), s(  21,   30),
    s(  23,   36), s(  23,   34), s(  23,   37), s(  33,   28), s(  99,    7), s( 114,   13),
];

/// Rook by number of safe squares attacked.
#[rustfmt::skip]
pub const ROOK_MOBILITY: [Score; 15] = [
    s( -36,  -42), s( -18,  -17), s( -13,  -11), s(  -8,    5), s(  -6,   18), s(   0,   21), s(   3,   25), s(   7,   31),
    s(   8,   39), s(   7,   41), s(  14,   42), s(  20,   44), s(  30,   41), s(  32,   40), s( 119,    4),
];

/// Queen by number of safe squares attacked.
#[rustfmt::skip]
pub const QUEEN_MOBILITY: [Score; 28] = [
    s( -15, -140), s(  -8,  -83), s(  -8,  -61), s(  -4,  -39), s(  -2,   -7), s(   2,  -31), s(   6,   -5), s(   7,   21),
    s(   9,   23), s(  10,   32), s(  10,   41), s(   8,   65), s(   9,   67), s(  14,   67), s(  15,   65), s(  25,   47),
    s(  27,   56), s(  16,   59), s(  21,   63), s(  26,   53), s(  48,   25), s( 100,  -14), s( 138,  -35), s( 157,  -61),
    s(  93,   -3), s( 169, -148), s(   4,   45), s( 101,  -64),
];

/// A pawn with another pawn of its own colour in front of it on the same file.
pub const DOUBLED_PAWN: Score = s(-10, -5);

/// A pawn with no pawns of its own colour on the adjacent files.
pub const ISOLATED_PAWN: Score = s(-6, -11);

/// A pawn behind all its neighbours whose stop square an enemy pawn guards.
pub const BACKWARD_PAWN: Score = s(-4, -21);

/// A pawn with an own pawn beside it on the same rank, by relative rank.
#[rustfmt::skip]
pub const PAWN_PHALANX: [Score; 8] = [
    s(   0,    0), s(   5,   -3), s(   4,    3), s(   6,    8), s(   7,   33), s(  65,   48), s( 188,  123), s(   0,    0),
];

/// A pawn defended by an own pawn, by relative rank.
#[rustfmt::skip]
pub const PAWN_SUPPORTED: [Score; 8] = [
    s(   0,    0), s(   0,    0), s(  13,    9), s(  12,   18), s(  15,   24), s(  12,   43), s( 215,   57), s(   0,    0),
];

/// Passed pawn by relative rank.
#[rustfmt::skip]
pub const PASSED_PAWN: [Score; 8] = [
    s(   0,    0), s(  10,   31), s(  -5,   21), s( -20,   36), s(  11,   46), s(  65,   48), s(  80,   45), s(   0,    0),
];

/// Passed pawn with no piece on the squares in front of it, by relative rank.
#[rustfmt::skip]
pub const PASSED_FREE_PATH: [Score; 8] = [
    s(   0,    0), s(  -3,   10), s(  -5,    6), s(  -4,   12), s(  -1,   20), s(  32,   33), s(  83,   51), s(   0,    0),
];

/// Per step from the enemy king to a passed pawn's stop square, by relative rank.
#[rustfmt::skip]
pub const PASSED_THEIR_KING: [Score; 8] = [
    s(   0,    0), s(  -1,   -4), s( -16,    7), s(  -6,   15), s( -15,   26), s(   0,   41), s(  20,   52), s(   0,    0),
];

/// Per step from our king to a passed pawn's stop square, by relative rank.
#[rustfmt::skip]
pub const PASSED_OUR_KING: [Score; 8] = [
    s(   0,    0), s(  -2,    0), s(  15,   -8), s(  11,  -11), s(   8,  -15), s(  -9,  -17), s( -16,  -15), s(   0,    0),
];

/// Passed pawn whose squares to promotion no enemy piece occupies or attacks, by relative rank.
#[rustfmt::skip]
pub const PASSED_SAFE_PATH: [Score; 8] = [
    s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
];

/// Own pawn directly in front of the king, on its file or an adjacent one.
pub const KING_SHIELD_NEAR: Score = s(14, -1);

/// Own pawn two squares in front of the king.
pub const KING_SHIELD_FAR: Score = s(4, -4);

/// A shield file with no own pawn within two squares in front of the king.
pub const KING_SHIELD_MISSING: Score = s(-10, 7);

/// A shield file with no pawns of either colour.
pub const KING_OPEN_FILE: Score = s(-15, -23);

/// Nearest enemy pawn on a shield file, by how many ranks it stands in front of the king.
#[rustfmt::skip]
pub const PAWN_STORM: [Score; 8] = [
    s(   0,    0), s(  57,  -10), s(  -3,  -14), s(  -2,   -9), s(   5,  -10), s(  11,  -21), s(   9,  -16), s(   0,    0),
];

/// King by its distance in king steps to the nearest pawn of either colour (none: no count).
#[rustfmt::skip]
pub const KING_PAWN_DISTANCE: [Score; 8] = [
    s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
];

/// Bishops on both square colours.
pub const BISHOP_PAIR: Score = s(21, 46);

/// Rook on a file without pawns.
pub const ROOK_OPEN_FILE: Score = s(41, -9);

/// Rook on a file without own pawns but with enemy pawns.
pub const ROOK_HALF_OPEN_FILE: Score = s(26, -2);

/// Rook on the seventh rank with the enemy king on the eighth or enemy pawns on the seventh.
pub const ROOK_ON_SEVENTH: Score = s(-18, 16);

/// Knight on relative rank 4 to 6, defended by a pawn, out of reach of enemy pawns.
pub const KNIGHT_OUTPOST: Score = s(26, 6);

/// Bishop on relative rank 4 to 6, defended by a pawn, out of reach of enemy pawns.
pub const BISHOP_OUTPOST: Score = s(26, 6);

/// Knight or bishop with a pawn (of either colour) directly in front of it.
pub const MINOR_BEHIND_PAWN: Score = s(2, 18);

/// Per own pawn on the squares of a bishop's colour, for each bishop.
pub const BISHOP_PAWNS: Score = s(0, 0);

/// Per own pawn on a bishop's colour blocked by an enemy pawn in front, for each bishop.
pub const BISHOP_RAMMED_PAWNS: Score = s(0, 0);

/// Enemy piece attacked by a pawn, by its role: knight, bishop, rook, queen.
#[rustfmt::skip]
pub const THREAT_BY_PAWN: [Score; 4] = [
    s(  53,   23), s(  52,   45), s(  44,   14), s(  52,  -22),
];

/// Enemy piece attacked by a knight or bishop, by its role: pawn to queen.
#[rustfmt::skip]
pub const THREAT_BY_MINOR: [Score; 5] = [
    s(  -3,   13), s(  14,   27), s(  30,   25), s(  54,   11), s(  43,   22),
];

/// Enemy piece attacked by a rook, by its role: pawn to queen.
#[rustfmt::skip]
pub const THREAT_BY_ROOK: [Score; 5] = [
    s( -13,   22), s(  -4,   26), s(   1,   19), s( -71,  -16), s(  55,   11),
];

/// Enemy piece (not pawn or king) attacked and not defended at all.
pub const HANGING: Score = s(15, 16);

/// Enemy piece (not pawn or king) a pawn would attack after a safe push.
pub const THREAT_BY_PAWN_PUSH: Score = s(0, 0);

/// Bonus for the side to move.
pub const TEMPO: Score = s(15, 7);

/// King-danger units per king-zone square attacked by a knight, bishop, rook, queen; then per safe check by each.
#[rustfmt::skip]
pub const KING_ATTACK_WEIGHT: [i32; 8] = [
       9,    6,    6,   10,   17,   16,   19,   21,
];
