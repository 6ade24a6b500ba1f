//! Material and piece-square tables.

use shakmaty::{Color, Role};

use super::features;
use super::geometry::relative;
use super::tracer::{Acc, Tracer};

/// Counts each of `color`'s pieces once as material (kings excepted: both sides always
/// have one) and once on its square, seen from `color`'s side of the board.
#[inline(always)]
pub(super) fn material_pst<T: Tracer>(board: &shakmaty::Board, color: Color, acc: &mut Acc<T>) {
    for role in Role::ALL {
        let pieces = board.by_piece(role.of(color));
        let index = role as usize - 1;
        if role != Role::King {
            acc.add(features::MATERIAL + index, color, pieces.count() as i32);
        }
        for sq in pieces {
            acc.add(features::PST + 64 * index + relative(sq, color), color, 1);
        }
    }
}
