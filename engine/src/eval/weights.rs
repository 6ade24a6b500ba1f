//! Evaluation weights, tuned by `cutoff texel`.
//!
//! Generated file: to change a weight by hand, change it here and retune, or edit the
//! tuner's starting point (the weights the tuning binary was built with).
//!
//! Data: data/selfplay-25f-seed5.txt (1500059 positions).
//! Command: `cutoff tune data/selfplay-25f-seed5.txt --epochs 100 --lambda 0.5 --learning-rate 0.25 --batch-size 16384`.
//! K = 0.006734; loss 0.02950718 at the start, 0.02862937 with these weights.

use super::tapered::{Score, s};

/// Material per role: pawn, knight, bishop, rook, queen.
#[rustfmt::skip]
pub const MATERIAL: [Score; 5] = [
    s(  79,  107), s( 334,  349), s( 353,  374), s( 473,  638), s(1190, 1109),
];

/// Pawn by square from its own side (a1 first, h8 last; Black's squares are mirrored).
#[rustfmt::skip]
pub const PAWN_PST: [Score; 64] = [
    s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
    s(  -6,   10), s(   0,    6), s(   0,   12), s(  -1,   10), s(   0,   15), s(  25,   19), s(  31,   -2), s(   3,   -8),
    s(  -8,    3), s( -11,    2), s(   2,    1), s(   4,   12), s(   9,    8), s(  15,    2), s(  17,  -14), s(   4,  -10),
    s(  -8,    5), s( -14,   -1), s(   2,    2), s(  16,   -8), s(  14,   -9), s(  16,   -6), s(  -4,   -3), s(  -4,   -8),
    s(  -1,    5), s(   1,    6), s(   1,    7), s(   2,   -6), s(   4,   -2), s(  10,  -20), s(   6,    7), s(  -5,   -9),
    s(  17,    0), s(  10,    6), s(   3,    8), s(  12,  -10), s(  21,    6), s(  31,    1), s(   4,   28), s(   6,    1),
    s( 129,  -56), s(  70,   14), s(  42,   28), s(  68,   33), s(  39,   44), s(  35,   13), s(  26,   17), s(  83,  -37),
    s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
];

/// Knight by square from its own side.
#[rustfmt::skip]
pub const KNIGHT_PST: [Score; 64] = [
    s(  26,  -61), s( -15,  -26), s( -32,    2), s(  -8,   -8), s(  -8,   31), s(   3,   -5), s( -16,  -22), s(  37, -105),
    s( -25,  -25), s(   7,   -1), s( -10,    7), s(   9,    7), s(  12,   11), s(  11,    1), s(  -2,   12), s(   7,  -12),
    s( -20,   -9), s(  -1,   19), s(   4,   14), s(  27,   22), s(  15,   25), s(  15,    8), s(  26,   -5), s(  -7,  -11),
    s(   3,   14), s(  23,   15), s(  30,   22), s(  20,   35), s(  25,   33), s(  41,    9), s(  32,   22), s(  11,   12),
    s(  -1,   19), s(  15,   23), s(  12,   20), s(  29,   36), s(  30,   36), s(  29,   36), s(  22,    7), s(  37,   -4),
    s(   6,    5), s(  -6,   16), s(  21,   34), s(  41,   33), s(  34,   18), s(  52,   11), s(   4,   10), s( -18,    8),
    s( -44,   20), s( -16,   21), s( -23,   21), s(  -3,   32), s( -36,   28), s(  14,   -1), s( -46,    8), s(  -4,  -30),
    s(-182,    4), s(   1,   43), s(-113,   34), s(   1,   25), s(  11,   36), s( -88,   -3), s( -71,  -12), s( -28, -171),
];

/// Bishop by square from its own side.
#[rustfmt::skip]
pub const BISHOP_PST: [Score; 64] = [
    s(  17,   -5), s( -13,   -5), s(  -2,    9), s(  -4,   -3), s(   4,    1), s( -19,   13), s(  -5,    9), s(  -1,  -16),
    s(  21,  -45), s(  20,  -13), s(  21,   -3), s(  11,   12), s(  13,    7), s(  22,   -4), s(  21,   -4), s(  32,  -10),
    s(   5,  -15), s(  18,    4), s(  24,    9), s(  14,   12), s(  15,   14), s(  28,   11), s(   6,   33), s(   2,    3),
    s( -16,   31), s(  15,    3), s(  12,   24), s(  26,   23), s(  30,   15), s(  19,   26), s(  23,    7), s(  -7,   10),
    s( -17,   10), s(   5,   19), s(  20,   21), s(  25,   34), s(  21,   32), s(  34,   12), s(   9,   14), s(   6,   -8),
    s( -32,   29), s(   2,   19), s(  14,   18), s(  22,    3), s(  15,   33), s( -12,   29), s(  14,   25), s(   8,   14),
    s( -13,  -22), s( -63,   43), s(   5,   13), s( -35,   31), s( -25,   14), s( -31,   28), s( -62,   48), s( -35,   32),
    s( -29,   42), s(  47,  -13), s(-169,   63), s( -79,   25), s( -30,   19), s( -95,   44), s( -89,   34), s( -51,    7),
];

/// Rook by square from its own side.
#[rustfmt::skip]
pub const ROOK_PST: [Score; 64] = [
    s(  -8,   -7), s(  -7,    0), s(  -3,    2), s(   1,   -6), s(  10,  -11), s(   6,   -7), s( -10,    3), s(  -7,  -17),
    s( -29,    3), s( -18,    8), s(  14,   -2), s( -19,   25), s(   7,   -7), s( -10,   -1), s(   7,  -11), s( -40,   11),
    s( -21,   16), s( -15,   23), s( -26,   22), s( -22,   25), s( -20,   12), s( -29,   23), s( -17,    9), s(  -2,    3),
    s( -18,   36), s( -13,   32), s(   5,   22), s( -11,   29), s(   3,   20), s(  -4,   36), s(   1,   25), s( -19,   24),
    s(   6,   36), s(   5,   35), s(   1,   33), s(  27,   22), s(  30,   16), s(  30,   17), s(  35,   11), s(  12,   22),
    s(  -3,   44), s(  12,   33), s(  16,   36), s(   6,   25), s(  63,   12), s(  39,   22), s(  18,   21), s(  26,   26),
    s(  29,   12), s(  25,   19), s(  54,   -1), s(  78,   -8), s(  59,   -3), s(  37,    7), s(  54,    4), s(  78,  -14),
    s(  18,   40), s(  11,   35), s(  18,   36), s(  27,   28), s(  51,   21), s(  79,    2), s(  15,   45), s(  49,   33),
];

/// Queen by square from its own side.
#[rustfmt::skip]
pub const QUEEN_PST: [Score; 64] = [
    s(   8,  -28), s(   7,  -78), s(  15,  -78), s(   4,  -55), s(  -1,  -28), s( -10,  -18), s( -25,  -44), s( -19,  -48),
    s(  -3,  -23), s(  12,  -84), s(   9,  -35), s(  12,  -38), s(  13,   -4), s(  30,  -46), s(  17,  -88), s(  20,  -69),
    s(   6,   -6), s(   3,   -4), s(   0,   21), s(   6,   27), s(   6,   27), s(  13,   35), s(  15,   13), s( -22,   60),
    s(  -2,   11), s(  -1,   49), s(  -1,   48), s(   7,   53), s(  -1,   81), s(   8,   63), s(  16,   -1), s(   4,   46),
    s( -11,   20), s(   3,   51), s(  -6,   73), s( -10,   97), s(  17,   83), s(  18,   91), s(   0,   83), s(  16,   34),
    s(  -6,    2), s(   1,   59), s( -27,   80), s(   7,   72), s(   9,   90), s(  47,   69), s(   8,   78), s(  24,   51),
    s(   2,    4), s( -51,  112), s(   4,   57), s(   3,   78), s(  16,   67), s(  24,   78), s(   4,   55), s(  39,   31),
    s( -10,   15), s(  50,   21), s(  11,   37), s(  55,   11), s(  45,   15), s(  97,   30), s(  61,   24), s(  33,   57),
];

/// King by square from its own side.
#[rustfmt::skip]
pub const KING_PST: [Score; 64] = [
    s(  26,  -51), s(  20,  -18), s(  17,  -20), s( -35,  -16), s( -11,  -28), s( -29,  -14), s(   8,  -15), s(  15,  -57),
    s(  40,  -40), s(  23,  -11), s(  -4,    2), s( -36,   18), s( -23,   16), s( -16,   11), s(   4,    1), s(  13,  -23),
    s( -50,  -24), s(  32,  -17), s( -48,   23), s( -17,   24), s( -19,   23), s( -39,   26), s(   9,    4), s(  -8,  -15),
    s( -19,   -4), s( -23,    7), s( -25,   23), s( -34,   31), s( -43,   40), s( -52,   43), s( -17,   15), s( -75,    6),
    s( -86,   -3), s(   9,   11), s(  10,   28), s( -51,   32), s( -10,   31), s( -18,   33), s( -42,   38), s( -51,    0),
    s(  29,  -24), s(  -4,   33), s(  22,   24), s(  21,   20), s( -38,   34), s(  63,   32), s(  -4,   65), s(-122,    5),
    s( -22,  -63), s(  63,   29), s(  30,   26), s(  64,   34), s( -19,   41), s(  12,   62), s(  -5,   62), s(-123,  -11),
    s( 124, -129), s( 245, -267), s( 149,  -25), s(  81,   11), s(  71,   46), s(  62,   98), s(  75,   25), s( -88, -192),
];

/// Knight by number of safe squares attacked.
#[rustfmt::skip]
pub const KNIGHT_MOBILITY: [Score; 9] = [
    s( -29,  -37), s( -14,   -1), s(  -1,   22), s(   5,   19), s(  11,   28), s(  15,   40), s(  19,   40), s(  22,   38),
    s(   8,   33),
];

/// Bishop by number of safe squares attacked.
#[rustfmt::skip]
pub const BISHOP_MOBILITY: [Score; 14] = [
    s( -18,  -15), s(  -4,    6), s(   4,    4), s(   8,   15), s(  14,   25), s(  16,   35), s(  19,   38), s(  16,   42),
    s(  21,   38), s(  19,   38), s(  14,   38), s(  15,   38), s(  24,   17), s( -21,   36),
];

/// Rook by number of safe squares attacked.
#[rustfmt::skip]
pub const ROOK_MOBILITY: [Score; 15] = [
    s( -34,  -46), s( -16,  -18), s( -13,   -8), s(  -8,    7), s(  -6,   19), s(  -5,   34), s(   1,   33), s(   2,   39),
    s(   5,   47), s(  10,   51), s(  12,   56), s(   5,   61), s(  21,   59), s(  35,   53), s(  64,   44),
];

/// Queen by number of safe squares attacked.
#[rustfmt::skip]
pub const QUEEN_MOBILITY: [Score; 28] = [
    s(  -7, -114), s(  -5, -135), s(  -8,  -43), s(  -1,  -47), s(   0,  -16), s(   4,  -12), s(   4,   18), s(   9,   24),
    s(   8,   34), s(  10,   58), s(  10,   58), s(  14,   60), s(  10,   68), s(  15,   78), s(  17,   73), s(  20,   74),
    s(  19,   74), s(  21,   75), s(  25,   83), s(  22,   78), s(  51,   51), s( 112,  -16), s( 116,   -7), s( 141,  -57),
    s( 131,  -19), s( 165,  -81), s(  44,   64), s( 157, -201),
];

/// A pawn with another pawn of its own colour in front of it on the same file.
pub const DOUBLED_PAWN: Score = s(-11, -6);

/// A pawn with no pawns of its own colour on the adjacent files.
pub const ISOLATED_PAWN: Score = s(-7, -12);

/// A pawn behind all its neighbours whose stop square an enemy pawn guards.
pub const BACKWARD_PAWN: Score = s(-5, -15);

/// A pawn with an own pawn beside it on the same rank, by relative rank.
#[rustfmt::skip]
pub const PAWN_PHALANX: [Score; 8] = [
    s(   0,    0), s(   4,    0), s(   5,    4), s(   9,   13), s(  12,   40), s(  96,   54), s( 230,  141), s(   0,    0),
];

/// A pawn defended by an own pawn, by relative rank.
#[rustfmt::skip]
pub const PAWN_SUPPORTED: [Score; 8] = [
    s(   0,    0), s(   0,    0), s(  13,   15), s(  12,   16), s(  22,   25), s(  36,   54), s( 145,  102), s(   0,    0),
];

/// Passed pawn by relative rank.
#[rustfmt::skip]
pub const PASSED_PAWN: [Score; 8] = [
    s(   0,    0), s(  32,    9), s(  42,   13), s( -28,   42), s(  47,   37), s(  76,   56), s( 124,   16), s(   0,    0),
];

/// Passed pawn with no piece on the squares in front of it, by relative rank.
#[rustfmt::skip]
pub const PASSED_FREE_PATH: [Score; 8] = [
    s(   0,    0), s(  21,    5), s( -23,   13), s(  -6,   17), s(   8,   21), s(  29,   29), s( 126,   41), s(   0,    0),
];

/// Per step from the enemy king to a passed pawn's stop square, by relative rank.
#[rustfmt::skip]
pub const PASSED_THEIR_KING: [Score; 8] = [
    s(   0,    0), s(  -6,   -3), s( -19,    6), s(  -2,   13), s( -11,   27), s(  -5,   45), s(   6,   51), s(   0,    0),
];

/// Per step from our king to a passed pawn's stop square, by relative rank.
#[rustfmt::skip]
pub const PASSED_OUR_KING: [Score; 8] = [
    s(   0,    0), s(  -1,    3), s(   7,   -8), s(  10,  -13), s(   2,  -14), s(  -7,  -20), s( -22,   -7), s(   0,    0),
];

/// Passed pawn whose squares to promotion no enemy piece occupies or attacks, by relative rank.
#[rustfmt::skip]
pub const PASSED_SAFE_PATH: [Score; 8] = [
    s(   0,    0), s( -64,   26), s(  -4,    6), s( -41,   26), s( -19,   36), s(  24,   38), s( -13,   80), s(   0,    0),
];

/// Own pawn directly in front of the king, on its file or an adjacent one.
pub const KING_SHIELD_NEAR: Score = s(12, -4);

/// Own pawn two squares in front of the king.
pub const KING_SHIELD_FAR: Score = s(3, -3);

/// A shield file with no own pawn within two squares in front of the king.
pub const KING_SHIELD_MISSING: Score = s(-10, 9);

/// A shield file with no pawns of either colour.
pub const KING_OPEN_FILE: Score = s(-16, -22);

/// Nearest enemy pawn on a shield file, by how many ranks it stands in front of the king.
#[rustfmt::skip]
pub const PAWN_STORM: [Score; 8] = [
    s(   0,    0), s(  46,   -6), s( -13,  -15), s(  -3,   -9), s(   2,  -11), s(  11,  -19), s(  12,  -18), s(   0,    0),
];

/// King by its distance in king steps to the nearest pawn of either colour (none: no count).
#[rustfmt::skip]
pub const KING_PAWN_DISTANCE: [Score; 8] = [
    s(   0,    0), s(   0,   21), s(   0,   11), s( -10,  -10), s(   3,  -37), s(  20,  -71), s(  92,  -85), s(   8,  -88),
];

/// Bishops on both square colours.
pub const BISHOP_PAIR: Score = s(20, 64);

/// Rook on a file without pawns.
pub const ROOK_OPEN_FILE: Score = s(37, -12);

/// Rook on a file without own pawns but with enemy pawns.
pub const ROOK_HALF_OPEN_FILE: Score = s(26, -5);

/// Rook on the seventh rank with the enemy king on the eighth or enemy pawns on the seventh.
pub const ROOK_ON_SEVENTH: Score = s(-28, 34);

/// Knight on relative rank 4 to 6, defended by a pawn, out of reach of enemy pawns.
pub const KNIGHT_OUTPOST: Score = s(18, 9);

/// Bishop on relative rank 4 to 6, defended by a pawn, out of reach of enemy pawns.
pub const BISHOP_OUTPOST: Score = s(20, 12);

/// Knight or bishop with a pawn (of either colour) directly in front of it.
pub const MINOR_BEHIND_PAWN: Score = s(4, 18);

/// Per own pawn on the squares of a bishop's colour, for each bishop.
pub const BISHOP_PAWNS: Score = s(-2, -2);

/// Per own pawn on a bishop's colour blocked by an enemy pawn in front, for each bishop.
pub const BISHOP_RAMMED_PAWNS: Score = s(3, -14);

/// Enemy piece attacked by a pawn, by its role: knight, bishop, rook, queen.
#[rustfmt::skip]
pub const THREAT_BY_PAWN: [Score; 4] = [
    s(  59,   40), s(  55,   60), s(  56,   30), s(  47,  -13),
];

/// Enemy piece attacked by a knight or bishop, by its role: pawn to queen.
#[rustfmt::skip]
pub const THREAT_BY_MINOR: [Score; 5] = [
    s(  -2,   13), s(  16,   36), s(  38,   13), s(  58,   15), s(  39,   34),
];

/// Enemy piece attacked by a rook, by its role: pawn to queen.
#[rustfmt::skip]
pub const THREAT_BY_ROOK: [Score; 5] = [
    s(  -9,   16), s(   5,   26), s(  14,   20), s( -32,   71), s(  56,   19),
];

/// Enemy piece (not pawn or king) attacked and not defended at all.
pub const HANGING: Score = s(15, 14);

/// Enemy piece (not pawn or king) a pawn would attack after a safe push.
pub const THREAT_BY_PAWN_PUSH: Score = s(14, 14);

/// Bonus for the side to move.
pub const TEMPO: Score = s(15, 8);

/// King-danger units per king-zone square attacked by a knight, bishop, rook, queen; then per safe check by each.
#[rustfmt::skip]
pub const KING_ATTACK_WEIGHT: [i32; 8] = [
       9,    6,    7,   11,   20,   26,   22,   22,
];
