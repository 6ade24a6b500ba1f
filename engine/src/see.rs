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

/// True if `m` wins at least `threshold` centipawns after the best sequence of
/// recaptures on its target square (either side may stop capturing when it pleases): the
/// full [`see`] value compared with the threshold, without the list of gains. Castling
/// counts as neutral.
///
/// Two bounds settle most calls without the exchange: the move's own gain is the most it
/// can win (the opponent may decline to recapture), and its gain less the piece it puts
/// on the square is the least (after one recapture the mover may stop). Past them the
/// captures are played out keeping only `balance`: how far the side about to capture
/// would be past its goal if it captured and the exchange ended there (the mover's goal
/// is the threshold; the opponent's, to keep the mover below it). Once a side could not
/// reach its goal even with an unanswered capture, the capture before stands and decides.
pub fn see_ge(pos: &Chess, m: Move, threshold: i32) -> bool {
    let gain = gain(m);
    if gain < threshold {
        return false;
    }
    let mut balance = see_value(m.promotion().unwrap_or(m.role())) - (gain - threshold);
    if balance <= 0 {
        return true;
    }
    let Some(exchange) = Exchange::after(pos, m) else {
        return true;
    };
    // Whether the mover reaches the threshold as things stand.
    let mut mover_reaches = true;
    for role in exchange {
        mover_reaches = !mover_reaches;
        balance = see_value(role) - balance;
        // `balance` is now the other side's: the mover needs it >= 0, the opponent > 0.
        if balance < i32::from(mover_reaches) {
            break;
        }
    }
    mover_reaches
}

/// The exchange value of `m` by the swap-list method: list the gains of each capture in
/// turn, then let each side, from the last capture back, choose between capturing and
/// standing pat.
pub fn see(pos: &Chess, m: Move) -> i32 {
    let Some(exchange) = Exchange::after(pos, m) else {
        return 0;
    };
    let mut gains = [0i32; 32];
    gains[0] = gain(m);
    let mut on_square = see_value(m.promotion().unwrap_or(m.role()));
    let mut depth = 0;
    for role in exchange.take(gains.len() - 1) {
        depth += 1;
        gains[depth] = on_square - gains[depth - 1];
        on_square = see_value(role);
    }
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

/// The recaptures on a move's target square, in the order SEE plays them: each side in
/// turn with its least valuable attacker, sliders behind a capturer joining as it leaves.
/// Yields the role each capture is made with; ends when the side to capture has no
/// attacker left, or only its king while the square is still defended.
struct Exchange<'a> {
    board: &'a shakmaty::Board,
    to: Square,
    occupied: Bitboard,
    attackers: Bitboard,
    /// The side to capture next.
    side: Color,
}

impl<'a> Exchange<'a> {
    /// The exchange after `m`; none after castling (no exchange) or a drop.
    fn after(pos: &'a Chess, m: Move) -> Option<Self> {
        let from = m.from()?;
        if m.is_castle() {
            return None;
        }
        let to = m.to();
        let board = pos.board();
        let mut occupied = board.occupied() ^ Bitboard::from(from);
        if m.is_en_passant() {
            occupied ^= Bitboard::from(Square::from_coords(to.file(), from.rank()));
        }
        let attackers = (attacks::rook_attacks(to, occupied) & (board.rooks() | board.queens()))
            | (attacks::bishop_attacks(to, occupied) & (board.bishops() | board.queens()))
            | (attacks::knight_attacks(to) & board.knights())
            | (attacks::king_attacks(to) & board.kings())
            | (attacks::pawn_attacks(Color::White, to) & board.pawns() & board.black())
            | (attacks::pawn_attacks(Color::Black, to) & board.pawns() & board.white());
        Some(Exchange {
            board,
            to,
            occupied,
            attackers,
            side: !pos.turn(),
        })
    }
}

impl Iterator for Exchange<'_> {
    type Item = Role;

    fn next(&mut self) -> Option<Role> {
        let b = self.board;
        self.attackers &= self.occupied;
        let ours = self.attackers & b.by_color(self.side);
        let (sq, role) = Role::ALL
            .into_iter()
            .find_map(|role| (ours & b.by_role(role)).first().map(|sq| (sq, role)))?;
        // A king may only capture onto a square the other side no longer defends.
        if role == Role::King && (self.attackers & b.by_color(!self.side)).any() {
            return None;
        }
        self.occupied ^= Bitboard::from(sq);
        // Sliders behind the capturer join in (x-rays).
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            self.attackers |=
                attacks::bishop_attacks(self.to, self.occupied) & (b.bishops() | b.queens());
        }
        if matches!(role, Role::Rook | Role::Queen) {
            self.attackers |=
                attacks::rook_attacks(self.to, self.occupied) & (b.rooks() | b.queens());
        }
        self.side = !self.side;
        Some(role)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::rng::Rng;

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

    /// `see_ge` keeps no list of gains, so it is checked against the swap list: for every
    /// legal move along random games from crowded positions, it holds exactly up to the
    /// full exchange value, ties included.
    #[test]
    fn threshold_test_agrees_with_the_swap_list() {
        let mut rng = Rng::new(7);
        let mut checked = 0;
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "2r2rk1/1b2qppp/p3pn2/1pn5/3NP3/1BN1QP2/PPP3PP/2KRR3 w - - 0 1",
            "r1b1k2r/pp1nqppp/2pbpn2/3p4/2PP4/2NBPN2/PPQ2PPP/R1B1K2R w KQkq - 0 1",
        ] {
            for _ in 0..40 {
                let mut board = Board::from_fen(fen, false).unwrap();
                for _ in 0..30 {
                    let moves = board.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    for &m in &moves {
                        let value = super::see(board.pos(), m);
                        for threshold in [value, value + 1, value - 1, -400, 0, 150] {
                            assert_eq!(
                                see_ge(board.pos(), m, threshold),
                                value >= threshold,
                                "{} {} at {threshold}",
                                board.fen(),
                                board.uci(m)
                            );
                        }
                        checked += 1;
                    }
                    board.make(moves[rng.below(moves.len())]);
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
    }
}
