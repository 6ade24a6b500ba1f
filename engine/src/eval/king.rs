//! King safety: the king's shelter (the pawn shield in front of it, storming enemy pawns,
//! and its distance to the pawns), and king danger from the enemy pieces attacking the
//! squares around it.
//!
//! King danger is the evaluation's one nonlinear term: attack units (a weight per
//! attacking role times the king-zone squares that role attacks, and a weight per role
//! times the safe checks it has) are summed, and the penalty grows with the square of the
//! sum, because a lone attacker rarely mates while several together often do. The tuner differentiates through it explicitly
//! (`cutoff-texel`); the trace records its inputs, [`KingAttack`], per side.

use shakmaty::{Bitboard, Color, Square, attacks};

use super::attacks::{Attacks, Ctx, KING_UNITS, KingAttack};
use super::geometry::{file_mask, ranks_ahead, relative_rank};
use super::tapered::Score;
use super::tracer::{Acc, Tracer};
use super::{features, weights};

/// Where the safe checks start among the inputs of [`KingAttack`].
const SAFE_CHECKS: usize = 4;

/// Fewer attackers than this on the king zone count as no danger.
pub const KING_DANGER_MIN_ATTACKERS: i32 = 2;
/// The middlegame king-danger penalty is `units² / KING_DANGER_DIVISOR` ...
pub const KING_DANGER_DIVISOR: i32 = 64;
/// ... capped at this value ...
pub const KING_DANGER_MAX: i32 = 500;
/// ... and the endgame penalty is the middlegame one divided by this.
pub const KING_DANGER_EG_DIVISOR: i32 = 8;

/// The king-danger score of the side whose king suffers `attack`, under the per-role
/// attack-unit `weights`. Zero (no danger) below [`KING_DANGER_MIN_ATTACKERS`].
#[inline(always)]
pub fn danger(attack: KingAttack, weights: &[i32; KING_UNITS]) -> Score {
    if attack.attackers < KING_DANGER_MIN_ATTACKERS {
        return Score::ZERO;
    }
    let units = attack.units(weights);
    let mg = (units * units / KING_DANGER_DIVISOR).min(KING_DANGER_MAX);
    -Score {
        mg,
        eg: mg / KING_DANGER_EG_DIVISOR,
    }
}

/// `RINGS[sq][d]`: the squares exactly `d` king steps from `sq`.
const RINGS: [[u64; 8]; 64] = {
    let mut rings = [[0u64; 8]; 64];
    let mut from: usize = 0;
    while from < 64 {
        let mut to: usize = 0;
        while to < 64 {
            let files = (from % 8).abs_diff(to % 8);
            let ranks = (from / 8).abs_diff(to / 8);
            let d = if files > ranks { files } else { ranks };
            rings[from][d] |= 1 << to;
            to += 1;
        }
        from += 1;
    }
    rings
};

/// The square of `pawns` nearest to `color`'s back rank.
#[inline(always)]
fn nearest(pawns: Bitboard, color: Color) -> Option<Square> {
    if color.is_white() {
        pawns.first()
    } else {
        pawns.last()
    }
}

/// The pawns around `color`'s king: its shield and open files, enemy pawns storming the
/// shield files, and (for the endgame) its distance to the nearest pawn. Depends on the
/// pawns and the king's square alone, so that [`super::pawn_table::PawnTable`] can keep it.
#[inline(always)]
pub(super) fn king_shelter<T: Tracer>(ctx: &Ctx, color: Color, acc: &mut Acc<T>) {
    let Some(king) = ctx.kings[color as usize] else {
        return;
    };
    let own = ctx.pawns[color as usize];
    let enemy_pawns = ctx.pawns[(!color) as usize];
    let all_pawns = own | enemy_pawns;
    let ahead = ranks_ahead(color.is_white(), king.rank().to_usize());
    let king_file = king.file().to_usize();
    let king_rank = relative_rank(king, color);

    for file in king_file.saturating_sub(1)..=(king_file + 1).min(7) {
        let fm = file_mask(file);
        let in_front = Bitboard(fm & ahead);
        let ranks_to = |p: Square| relative_rank(p, color) - king_rank;
        let distance = nearest(own & in_front, color).map_or(8, ranks_to);
        let feature = match distance {
            1 => features::KING_SHIELD_NEAR,
            2 => features::KING_SHIELD_FAR,
            _ => features::KING_SHIELD_MISSING,
        };
        acc.add(feature, color, 1);
        if (all_pawns & Bitboard(fm)).is_empty() {
            acc.add(features::KING_OPEN_FILE, color, 1);
        }
        // An enemy pawn marching up a shield file opens lines to the king.
        if let Some(pawn) = nearest(enemy_pawns & in_front, color) {
            acc.add(features::PAWN_STORM + ranks_to(pawn), color, 1);
        }
    }

    // In the endgame the king belongs near the pawns, its own and the enemy's.
    if let Some(distance) =
        (1..8).find(|&d| (all_pawns & Bitboard(RINGS[king.to_usize()][d])).any())
    {
        acc.add(features::KING_PAWN_DISTANCE + distance, color, 1);
    }
}

/// King danger for `color`'s king; `attack` is what the enemy pieces do to its zone,
/// `attacks` the squares each side attacks (indexed by colour).
#[inline(always)]
pub(super) fn king_danger<T: Tracer>(
    ctx: &Ctx,
    color: Color,
    mut attack: KingAttack,
    attacks: &[Attacks; 2],
    acc: &mut Acc<T>,
) {
    let Some(king) = ctx.kings[color as usize] else {
        return;
    };

    // Safe checks: squares from which an enemy piece could check the king, that such a
    // piece attacks, and that no defender covers.
    let enemy = &attacks[(!color) as usize];
    let safe = !attacks[color as usize].all & !ctx.by_color[(!color) as usize];
    let diagonal = attacks::bishop_attacks(king, ctx.occupied);
    let straight = attacks::rook_attacks(king, ctx.occupied);
    let check_squares = [
        attacks::knight_attacks(king),
        diagonal,
        straight,
        diagonal | straight,
    ];
    for (i, squares) in check_squares.into_iter().enumerate() {
        attack.inputs[SAFE_CHECKS + i] += (squares & enemy.by_role[i] & safe).count() as i32;
    }

    acc.add_score(color, danger(attack, &weights::KING_ATTACK_WEIGHT));
    acc.tracer.king_attack(color, attack);
}
