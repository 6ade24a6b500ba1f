//! Pieces: mobility, the bishop pair, rooks on open files, and the attacks each piece
//! makes on the enemy king zone (which [`super::king`] turns into king danger).

use shakmaty::{Bitboard, Color, Role, attacks};

use super::{Acc, Ctx, KingAttack, Tracer, features};

/// Mobility and rook files for `color`'s pieces; returns the attacks they make on the
/// enemy king zone.
#[inline(always)]
pub(super) fn pieces<T: Tracer>(
    board: &shakmaty::Board,
    ctx: &Ctx,
    color: Color,
    acc: &mut Acc<T>,
) -> KingAttack {
    let us = color as usize;
    let them = (!color) as usize;
    let own = ctx.by_color[us];
    // Squares a piece can go to without being taken by a pawn.
    let area = !(own | ctx.pawn_attacks[them]);
    let enemy_zone = ctx.king_zone[them];
    let occ = ctx.occupied;
    let mut attack = KingAttack::default();

    let mut piece = |role: Role, mobility: usize, att: Bitboard, acc: &mut Acc<T>| {
        acc.add(mobility + (att & area).count(), color, 1);
        attack.add(role, (att & enemy_zone).count() as i32);
    };

    for sq in board.knights() & own {
        let att = attacks::knight_attacks(sq);
        piece(Role::Knight, features::KNIGHT_MOBILITY, att, acc);
    }
    for sq in board.bishops() & own {
        let att = attacks::bishop_attacks(sq, occ);
        piece(Role::Bishop, features::BISHOP_MOBILITY, att, acc);
    }
    for sq in board.rooks() & own {
        let att = attacks::rook_attacks(sq, occ);
        piece(Role::Rook, features::ROOK_MOBILITY, att, acc);
        let file = Bitboard::from_file(sq.file());
        if (file & ctx.pawns[us]).is_empty() {
            let feature = if (file & ctx.pawns[them]).is_empty() {
                features::ROOK_OPEN_FILE
            } else {
                features::ROOK_HALF_OPEN_FILE
            };
            acc.add(feature, color, 1);
        }
    }
    for sq in board.queens() & own {
        let att = attacks::queen_attacks(sq, occ);
        piece(Role::Queen, features::QUEEN_MOBILITY, att, acc);
    }
    attack
}

/// Bishops on both square colours.
#[inline(always)]
pub(super) fn bishop_pair<T: Tracer>(
    board: &shakmaty::Board,
    ctx: &Ctx,
    color: Color,
    acc: &mut Acc<T>,
) {
    let bishops = board.bishops() & ctx.by_color[color as usize];
    if (bishops & Bitboard::LIGHT_SQUARES).any() && (bishops & Bitboard::DARK_SQUARES).any() {
        acc.add(features::BISHOP_PAIR, color, 1);
    }
}
