//! Pieces: mobility, the bishop pair, bishops hemmed in by their own pawns, rooks on open
//! files and the seventh rank, outposts, and the attacks each piece makes: on the enemy
//! king zone (which [`super::king`] turns into king danger) and on the board (which
//! [`super::threats`] turns into threats).

use shakmaty::{Bitboard, Color, Role, Square, attacks};

use super::attacks::{Attacks, Ctx, KingAttack};
use super::features;
use super::geometry::{forward, out_of_pawn_reach, relative_rank};
use super::tracer::{Acc, Tracer};

/// An outpost: relative rank 4 to 6, defended by an own pawn, and no enemy pawn left
/// that could ever chase the piece away.
#[inline(always)]
fn is_outpost(ctx: &Ctx, sq: Square, color: Color) -> bool {
    (3..=5).contains(&relative_rank(sq, color))
        && ctx.pawn_attacks[color as usize].contains(sq)
        && out_of_pawn_reach(sq, color, ctx.pawns[(!color) as usize])
}

/// Mobility, rook files and outposts for `color`'s pieces; returns the attacks they make
/// on the enemy king zone and the squares `color` attacks.
#[inline(always)]
pub(super) fn pieces<T: Tracer>(
    board: &shakmaty::Board,
    ctx: &Ctx,
    color: Color,
    acc: &mut Acc<T>,
) -> (KingAttack, Attacks) {
    let us = color as usize;
    let them = (!color) as usize;
    let own = ctx.by_color[us];
    // Squares a piece can go to without being taken by a pawn.
    let area = !(own | ctx.pawn_attacks[them]);
    let enemy_zone = ctx.king_zone[them];
    let occ = ctx.occupied;
    let mut attack = KingAttack::default();
    let mut by = Attacks::default();

    let mut piece = |role: Role, mobility: usize, att: Bitboard, acc: &mut Acc<T>| {
        acc.add(mobility + (att & area).count(), color, 1);
        attack.add(role, (att & enemy_zone).count() as i32);
        by.by_role[role as usize - 2] |= att;
    };

    for sq in board.knights() & own {
        let att = attacks::knight_attacks(sq);
        piece(Role::Knight, features::KNIGHT_MOBILITY, att, acc);
        if is_outpost(ctx, sq, color) {
            acc.add(features::KNIGHT_OUTPOST, color, 1);
        }
    }
    // Own pawns blocked by an enemy pawn: they will stay on their square's colour.
    let rammed = ctx.pawns[us] & ctx.pawns[them].shift(-forward(color));
    for sq in board.bishops() & own {
        let att = attacks::bishop_attacks(sq, occ);
        piece(Role::Bishop, features::BISHOP_MOBILITY, att, acc);
        if is_outpost(ctx, sq, color) {
            acc.add(features::BISHOP_OUTPOST, color, 1);
        }
        // Own pawns on the bishop's colour block it and leave the other colour's
        // squares to the enemy.
        let colour = if Bitboard::LIGHT_SQUARES.contains(sq) {
            Bitboard::LIGHT_SQUARES
        } else {
            Bitboard::DARK_SQUARES
        };
        let on_colour = ctx.pawns[us] & colour;
        if on_colour.any() {
            acc.add(features::BISHOP_PAWNS, color, on_colour.count() as i32);
            let blocked = (on_colour & rammed).count() as i32;
            if blocked > 0 {
                acc.add(features::BISHOP_RAMMED_PAWNS, color, blocked);
            }
        }
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
        // On the seventh a rook attacks pawns that have not moved and cuts the king off
        // on its back rank.
        if relative_rank(sq, color) == 6 {
            let eighth = Bitboard::from_rank(color.relative_rank(shakmaty::Rank::Eighth));
            let seventh = Bitboard::from_rank(sq.rank());
            let king_cut_off = ctx.kings[them].is_some_and(|k| eighth.contains(k));
            if king_cut_off || (ctx.pawns[them] & seventh).any() {
                acc.add(features::ROOK_ON_SEVENTH, color, 1);
            }
        }
    }
    for sq in board.queens() & own {
        let att = attacks::queen_attacks(sq, occ);
        piece(Role::Queen, features::QUEEN_MOBILITY, att, acc);
    }
    let king = ctx.kings[us].map_or(Bitboard::EMPTY, attacks::king_attacks);
    let pieces = by.by_role.iter().fold(Bitboard::EMPTY, |a, &b| a | b);
    by.all = pieces | king | ctx.pawn_attacks[us];
    (attack, by)
}

/// Knights and bishops with a pawn directly in front of them: shielded from attacks along
/// the file, and the pawn restrains the enemy's.
#[inline(always)]
pub(super) fn minors_behind_pawns<T: Tracer>(
    board: &shakmaty::Board,
    ctx: &Ctx,
    color: Color,
    acc: &mut Acc<T>,
) {
    let minors = (board.knights() | board.bishops()) & ctx.by_color[color as usize];
    let n = (minors.shift(forward(color)) & board.pawns()).count() as i32;
    if n > 0 {
        acc.add(features::MINOR_BEHIND_PAWN, color, n);
    }
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
