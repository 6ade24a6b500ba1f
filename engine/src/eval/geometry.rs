//! Board geometry the evaluation's terms share: file and rank masks, the spans in front
//! of a pawn, squares and ranks seen from one side, and the squares pawns attack. Knows
//! nothing of scores: every other evaluation module may use it.

use shakmaty::{Bitboard, Color, Square};

const FILE_A: u64 = 0x0101_0101_0101_0101;

/// The squares of `file` (0 = a).
pub(super) const fn file_mask(file: usize) -> u64 {
    FILE_A << file
}

/// The squares of the files beside `file`.
pub(super) const fn adjacent_files_mask(file: usize) -> u64 {
    let west = if file > 0 { file_mask(file - 1) } else { 0 };
    let east = if file < 7 { file_mask(file + 1) } else { 0 };
    west | east
}

/// All squares on ranks strictly in front of `rank` (absolute rank index) from the
/// point of view of the given colour (`white`).
pub(super) const fn ranks_ahead(white: bool, rank: usize) -> u64 {
    if white {
        if rank >= 7 {
            0
        } else {
            !0u64 << (8 * (rank + 1))
        }
    } else if rank == 0 {
        0
    } else {
        !0u64 >> (64 - 8 * rank)
    }
}

/// `sq` as seen from `color`'s side of the board (a1 = own queen-side corner).
#[inline(always)]
pub(super) fn relative(sq: Square, color: Color) -> usize {
    if color.is_white() {
        sq.to_usize()
    } else {
        sq.flip_vertical().to_usize()
    }
}

/// The rank of `sq` counted from `color`'s back rank (0 to 7).
#[inline(always)]
pub(super) fn relative_rank(sq: Square, color: Color) -> usize {
    color.relative_rank(sq.rank()).to_usize()
}

/// One square towards the opponent, as a bitboard shift.
#[inline(always)]
pub(super) const fn forward(color: Color) -> i32 {
    if color.is_white() { 8 } else { -8 }
}

/// `[f(Black), f(White)]`, indexed by `Color as usize`. With `f` marked
/// `#[inline(always)]` it is compiled as two copies, each for a colour known when
/// compiled: the colour tests and the arrays indexed by colour inside cost nothing then.
/// A loop over the two colours would leave them to run time (measured in
/// docs/evaluation.md, "Speed").
#[inline(always)]
pub(super) fn per_color<T>(mut f: impl FnMut(Color) -> T) -> [T; 2] {
    [f(Color::Black), f(Color::White)]
}

/// All squares attacked by the pawns of `color` in `pawns`.
#[inline(always)]
pub(super) fn pawn_attacks_bb(color: Color, pawns: Bitboard) -> Bitboard {
    const NOT_A: u64 = !FILE_A;
    const NOT_H: u64 = !(FILE_A << 7);
    let p = pawns.0;
    Bitboard(if color.is_white() {
        ((p & NOT_A) << 7) | ((p & NOT_H) << 9)
    } else {
        ((p & NOT_A) >> 9) | ((p & NOT_H) >> 7)
    })
}

/// Per-colour, per-square pawn masks: `[color as usize][square]`.
type ColorSquareMasks = [[u64; 64]; 2];

const fn build_masks(kind: u8) -> ColorSquareMasks {
    let mut out = [[0u64; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let white = c == Color::White as usize;
        let mut sq = 0;
        while sq < 64 {
            let (file, rank) = (sq % 8, sq / 8);
            let ahead = ranks_ahead(white, rank);
            out[c][sq] = match kind {
                // Same file, strictly ahead.
                0 => file_mask(file) & ahead,
                // Same and adjacent files, strictly ahead.
                1 => (file_mask(file) | adjacent_files_mask(file)) & ahead,
                // Adjacent files, same rank or behind.
                _ => adjacent_files_mask(file) & !ahead,
            };
            sq += 1;
        }
        c += 1;
    }
    out
}

/// Squares in front of a pawn on its file.
pub(super) const FORWARD_FILE: ColorSquareMasks = build_masks(0);
/// Squares an enemy pawn must not occupy for a pawn to be passed.
pub(super) const PASSED_SPAN: ColorSquareMasks = build_masks(1);
/// Squares from which own pawns could still support a pawn.
pub(super) const SUPPORT_SPAN: ColorSquareMasks = build_masks(2);

/// Whether no pawn of `enemy` (the opponent of `color`) can ever attack `sq`: none stands
/// on an adjacent file ahead of it.
#[inline(always)]
pub(super) fn out_of_pawn_reach(sq: Square, color: Color, enemy: Bitboard) -> bool {
    let i = sq.to_usize();
    let adjacent_ahead = PASSED_SPAN[color as usize][i] & !FORWARD_FILE[color as usize][i];
    (enemy & Bitboard(adjacent_ahead)).is_empty()
}
