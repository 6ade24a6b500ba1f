//! Threats: enemy pieces attacked by pieces worth less than them (or by anything, when
//! nothing defends them). A threat is half a capture: the opponent must spend a move on
//! it, and two at once often win material.

use shakmaty::{Bitboard, Color, Rank, Role};

use super::attacks::{Attacks, Ctx};
use super::features;
use super::geometry::{forward, pawn_attacks_bb};
use super::tracer::{Acc, Tracer};

/// Counts `color`'s threats against the other side; `attacks` is indexed by colour.
#[inline(always)]
pub(super) fn threats<T: Tracer>(
    board: &shakmaty::Board,
    ctx: &Ctx,
    color: Color,
    attacks: &[Attacks; 2],
    acc: &mut Acc<T>,
) {
    let us = color as usize;
    let them = (!color) as usize;
    let enemy = ctx.by_color[them];
    let ours = &attacks[us];
    let minor = ours.by_role[0] | ours.by_role[1];
    let count = |feature: usize, targets: Bitboard, acc: &mut Acc<T>| {
        let n = targets.count() as i32;
        if n > 0 {
            acc.add(feature, color, n);
        }
    };

    for role in [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ] {
        let targets = board.by_role(role) & enemy;
        let index = role as usize - 1;
        if role != Role::Pawn {
            count(
                features::THREAT_BY_PAWN + index - 1,
                targets & ctx.pawn_attacks[us],
                acc,
            );
        }
        count(features::THREAT_BY_MINOR + index, targets & minor, acc);
        count(
            features::THREAT_BY_ROOK + index,
            targets & ours.by_role[2],
            acc,
        );
    }
    let pieces = enemy & !board.pawns() & !board.kings();
    count(
        features::HANGING,
        pieces & ours.all & !attacks[them].all,
        acc,
    );

    // Pawn pushes (one step, or two from the start) to squares no enemy pawn attacks
    // and the enemy does not hold unopposed, from which the pawn would attack a piece.
    let empty = !ctx.occupied;
    let single = ctx.pawns[us].shift(forward(color)) & empty;
    let third = Bitboard::from_rank(color.relative_rank(Rank::Third));
    let pushes = single | ((single & third).shift(forward(color)) & empty);
    let safe = pushes & !ctx.pawn_attacks[them] & (ours.all | !attacks[them].all);
    count(
        features::THREAT_BY_PAWN_PUSH,
        pawn_attacks_bb(color, safe) & pieces,
        acc,
    );
}
