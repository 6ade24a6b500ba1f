//! Static exchange evaluation: what a capture sequence on one square wins, by the
//! swap-list method (every capture in turn, then a minimax back over the list), and the
//! piece values it counts in.

use shakmaty::{Bitboard, Chess, Color, Move, Position, Role, Square, attacks};

/// Exchange values in centipawns, indexed by `Role as usize - 1` (pawn … king). They are
/// what a piece is worth when traded off, for SEE and for ordering captures (most valuable
/// victim first); the king is never traded, so it counts 0. The evaluation has weights of
/// its own.
pub const SEE_VALUES: [i32; 6] = [100, 320, 330, 480, 950, 0];

/// The exchange value of a piece of `role` (see [`SEE_VALUES`]).
#[inline]
pub const fn see_value(role: Role) -> i32 {
    SEE_VALUES[role as usize - 1]
}

/// The exchange value of what `m` captures plus the piece it promotes to, the pawn not
/// taken off: a noisy move's weight as a victim when ordering, and the most quiescence's
/// delta pruning credits it with (a bound, so the pawn can stay).
#[inline]
pub fn noisy_value(m: Move) -> i32 {
    m.capture().map_or(0, see_value) + m.promotion().map_or(0, see_value)
}

/// Material gained by the move itself before any recapture.
fn gain(m: Move) -> i32 {
    let captured = m.capture().map_or(0, see_value);
    match m.promotion() {
        Some(p) => captured + see_value(p) - see_value(Role::Pawn),
        None => captured,
    }
}

fn least_valuable(pos: &Chess, attackers: Bitboard, side: Color) -> Option<(Square, Role)> {
    let b = pos.board();
    let ours = attackers & b.by_color(side);
    Role::ALL
        .into_iter()
        .find_map(|role| (ours & b.by_role(role)).first().map(|sq| (sq, role)))
}

/// True if `m` wins at least `threshold` centipawns after the best sequence of
/// recaptures on its target square (either side may stop capturing when it pleases):
/// the full [`see`] value compared with the threshold. Castling counts as neutral.
///
/// Two bounds settle most calls without the exchange: the move's own gain is the most it
/// can win (the opponent may decline to recapture), and its gain less the piece it puts
/// on the square is the least (after one recapture the mover may stop).
pub fn see_ge(pos: &Chess, m: Move, threshold: i32) -> bool {
    let gain = gain(m);
    if gain < threshold {
        return false;
    }
    if gain - see_value(m.promotion().unwrap_or(m.role())) >= threshold {
        return true;
    }
    see(pos, m) >= threshold
}

/// The exchange value of `m` by the swap-list method: list the gains of each capture in
/// turn (least valuable attacker first, x-rays joining as pieces leave), then let each
/// side, from the last capture back, choose between capturing and standing pat.
pub fn see(pos: &Chess, m: Move) -> i32 {
    let Some(from) = m.from() else {
        return 0;
    };
    if m.is_castle() {
        return 0;
    }
    let to = m.to();
    let b = pos.board();
    let mut occupied = b.occupied() ^ Bitboard::from(from);
    if m.is_en_passant() {
        occupied ^= Bitboard::from(Square::from_coords(to.file(), from.rank()));
    }
    let diagonal = b.bishops() | b.queens();
    let straight = b.rooks() | b.queens();
    let mut attackers =
        b.attacks_to(to, Color::White, occupied) | b.attacks_to(to, Color::Black, occupied);

    let mut gains = [0i32; 32];
    gains[0] = gain(m);
    let mut on_square = see_value(m.promotion().unwrap_or(m.role()));
    let mut side = !pos.turn();
    let mut depth = 0;
    while depth + 1 < gains.len() {
        attackers &= occupied;
        let Some((sq, role)) = least_valuable(pos, attackers, side) else {
            break;
        };
        // A king may only capture onto a square the other side no longer defends.
        if role == Role::King && (attackers & b.by_color(!side)).any() {
            break;
        }
        depth += 1;
        gains[depth] = on_square - gains[depth - 1];
        on_square = see_value(role);
        occupied ^= Bitboard::from(sq);
        // Sliders behind the capturer join in (x-rays).
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= attacks::bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= attacks::rook_attacks(to, occupied) & straight;
        }
        side = !side;
    }
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    fn see(fen: &str, uci: &str, threshold: i32) -> bool {
        let board = Board::from_fen(fen, false).unwrap();
        let m = board.parse_uci(uci).unwrap();
        see_ge(board.pos(), m, threshold)
    }

    #[test]
    fn exchange_values_rank_the_pieces() {
        assert_eq!(see_value(Role::Pawn), 100);
        assert_eq!(see_value(Role::Queen), SEE_VALUES[4]);
        assert_eq!(see_value(Role::King), 0);
        assert!(see_value(Role::Knight) < see_value(Role::Rook));
    }

    #[test]
    fn simple_exchanges() {
        // Pawn takes an undefended knight.
        let fen = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1";
        assert!(see(fen, "e4d5", 300));
        assert!(!see(fen, "e4d5", 400));
        // Queen takes a pawn defended by a pawn: loses material.
        let fen = "4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1";
        assert!(!see(fen, "d2d5", 0));
        assert!(see(fen, "d2d5", -900));
        // Rook takes a rook defended by a rook, with our second rook behind (x-ray).
        let fen = "3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1";
        assert!(see(fen, "d2d7", 0));
        // Quiet move to an attacked square.
        let fen = "4k3/8/8/4p3/8/8/8/3QK3 w - - 0 1";
        assert!(!see(fen, "d1d4", 0));
        assert!(see(fen, "d1d3", 0));
    }
}
