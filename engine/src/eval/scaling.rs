//! Endgame scaling: material balances in which the side ahead wins far less often than
//! the endgame score says.
//!
//! The endgame half of the evaluation is multiplied by a factor out of [`SCALE_NORMAL`],
//! chosen for the side that half favours (the "strong" side): opposite-coloured bishops,
//! a pawnless edge of a minor piece or less, and a rook ending with every pawn on one wing
//! are drawn far more often than their material says. The factors are hand-set; the tuner
//! fits every weight under them but not the factors themselves.

use shakmaty::{Bitboard, Board, Color};

/// The factor of an ordinary position: the endgame score counts in full.
pub const SCALE_NORMAL: i32 = 128;
/// The strong side has no pawns and at most one minor piece, or two knights and nothing
/// else: it cannot force mate.
pub const SCALE_CANNOT_WIN: i32 = 0;
/// The strong side has no pawns and is at most a minor piece's worth ahead in pieces
/// (rook against minor, rook and minor against rook): nearly always a draw.
pub const SCALE_PAWNLESS_EDGE: i32 = 16;
/// Opposite-coloured bishops and nothing else but pawns.
pub const SCALE_OCB_ALONE: i32 = 64;
/// Opposite-coloured bishops with one more knight or rook on each side.
pub const SCALE_OCB_WITH_PIECE: i32 = 96;
/// One rook each and nothing else, the strong side at most a pawn ahead, and every pawn
/// on one wing (files a–d or e–h).
pub const SCALE_ROOKS_ONE_WING: i32 = 80;

/// Piece values for the pawnless rules: knight, bishop, rook, queen.
const MINOR: i32 = 3;
const ROOK: i32 = 5;
const QUEEN: i32 = 9;

/// The factor, out of [`SCALE_NORMAL`], for the endgame score when `strong` is the side
/// it favours.
#[inline]
pub fn scale(board: &Board, strong: Color) -> i32 {
    // The common case first: with pawns on the strong side and a queen on the board,
    // no rule below applies (each needs a pawnless strong side, no queens, or rooks
    // alone).
    if (board.pawns() & board.by_color(strong)).any() && board.queens().any() {
        return SCALE_NORMAL;
    }
    let us = board.material_side(strong);
    let them = board.material_side(!strong);
    let pieces = |m: &shakmaty::ByRole<u8>| {
        (i32::from(m.knight) + i32::from(m.bishop)) * MINOR
            + i32::from(m.rook) * ROOK
            + i32::from(m.queen) * QUEEN
    };
    let (ours, theirs) = (pieces(&us), pieces(&them));

    if us.pawn == 0 {
        let two_knights = us.knight == 2 && ours == 2 * MINOR;
        if ours <= MINOR || two_knights {
            return SCALE_CANNOT_WIN;
        }
        if ours - theirs <= MINOR {
            return SCALE_PAWNLESS_EDGE;
        }
    }

    let no_queens = us.queen == 0 && them.queen == 0;
    if no_queens && us.bishop == 1 && them.bishop == 1 {
        let bishops = board.bishops();
        let light = (bishops & Bitboard::LIGHT_SQUARES).count();
        let same_others = us.knight == them.knight && us.rook == them.rook;
        if light == 1 && same_others {
            match us.knight + us.rook {
                0 => return SCALE_OCB_ALONE,
                1 => return SCALE_OCB_WITH_PIECE,
                _ => {}
            }
        }
    }

    let rooks_only = ours == ROOK && theirs == ROOK && us.rook == 1 && them.rook == 1;
    if rooks_only && us.pawn <= them.pawn + 1 {
        let pawns = board.pawns();
        if pawns.is_subset(Bitboard::WEST) || pawns.is_subset(Bitboard::EAST) {
            return SCALE_ROOKS_ONE_WING;
        }
    }

    SCALE_NORMAL
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

    fn board(fen: &str) -> Board {
        let pos: Chess = fen
            .parse::<Fen>()
            .expect("valid FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal position");
        pos.board().clone()
    }

    #[test]
    fn scale_names_each_drawish_balance() {
        use Color::White;
        let cases = [
            // Lone minor, two knights: no mate without pawns.
            ("4k3/8/8/8/8/8/8/3BK3 w - - 0 1", White, SCALE_CANNOT_WIN),
            ("4k3/8/8/8/8/8/8/2N1KN2 w - - 0 1", White, SCALE_CANNOT_WIN),
            // Bishop and knight mate: ordinary.
            ("4k3/8/8/8/8/8/8/2B1KN2 w - - 0 1", White, SCALE_NORMAL),
            // Rook against bishop; rook and bishop against rook.
            (
                "4k3/4b3/8/8/8/8/8/R3K3 w - - 0 1",
                White,
                SCALE_PAWNLESS_EDGE,
            ),
            (
                "r3k3/8/8/8/8/8/8/R3KB2 w - - 0 1",
                White,
                SCALE_PAWNLESS_EDGE,
            ),
            // Queen against rook is a win.
            ("r3k3/8/8/8/8/8/8/3QK3 w - - 0 1", White, SCALE_NORMAL),
            // Opposite-coloured bishops (c1 dark, c8 light), alone and with a rook each.
            (
                "2b1k3/p7/8/8/8/8/PP6/2B1K3 w - - 0 1",
                White,
                SCALE_OCB_ALONE,
            ),
            (
                "r1b1k3/p7/8/8/8/8/PP6/R1B1K3 w - - 0 1",
                White,
                SCALE_OCB_WITH_PIECE,
            ),
            // Same-coloured bishops (c1 and f8 both dark): ordinary.
            ("4kb2/p7/8/8/8/8/PP6/2B1K3 w - - 0 1", White, SCALE_NORMAL),
            // Rook endings: a pawn up with every pawn on the king's wing; two pawns up;
            // a pawn up with pawns on both wings.
            (
                "r5k1/5pp1/8/8/8/8/5PPP/R5K1 w - - 0 1",
                White,
                SCALE_ROOKS_ONE_WING,
            ),
            ("r5k1/6p1/8/8/8/8/5PPP/R5K1 w - - 0 1", White, SCALE_NORMAL),
            (
                "r5k1/p4pp1/8/8/8/8/P4PPP/R5K1 w - - 0 1",
                White,
                SCALE_NORMAL,
            ),
        ];
        for (fen, strong, expected) in cases {
            assert_eq!(scale(&board(fen), strong), expected, "{fen}");
        }
    }
}
