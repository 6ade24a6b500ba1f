//! The one move generator shakmaty lacks: captures and queen promotions alone, for
//! quiescence. shakmaty generates every legal move and would leave us to filter them,
//! which made move generation the largest cost of a quiescence node.
//!
//! The moves come out in the order `legal_moves` followed by a filter would give them
//! (en passant, pawns, knights, bishops, rooks, queens, king), so a search that ranks
//! equal-scored moves by generation order searches the same tree either way.

use shakmaty::{Bitboard, Chess, Move, MoveList, Position, Role, Square, attacks};

use crate::board::pinned;

/// Every legal capture (en passant and capturing promotions to any piece included) and
/// every legal non-capturing queen promotion, appended to `moves` (filled in place: a
/// move list is 2 KB, too much to copy at every quiescence node). Not for positions in
/// check: there the caller wants every evasion.
pub fn noisy_moves(pos: &Chess, moves: &mut MoveList) {
    debug_assert!(!pos.is_check());
    let board = pos.board();
    let turn = pos.turn();
    let them = pos.them();
    let occupied = board.occupied();
    // Most positions have no en-passant square; asking shakmaty anyway builds and copies a
    // whole move list to return it.
    if pos.maybe_ep_square().is_some() {
        moves.extend(pos.en_passant_moves());
    }
    let Some(king) = board.king_of(turn) else {
        return;
    };
    let pinned = pinned(pos, king);
    let legal =
        |from: Square, to: Square| !pinned.contains(from) || attacks::aligned(from, to, king);

    // Pawn captures toward one side, then the other, each first off the last rank, then
    // onto it, promoting to each piece in turn.
    let pawns = pos.our(Role::Pawn);
    let forward = turn.fold_wb(8, -8);
    for side in [-1, 1] {
        for promoting in [false, true] {
            for from in pawns {
                let Some(to) = from.offset(forward + side) else {
                    continue;
                };
                if to.distance(from) != 1
                    || Bitboard::BACKRANKS.contains(to) != promoting
                    || !them.contains(to)
                    || !legal(from, to)
                {
                    continue;
                }
                let capture = board.role_at(to);
                let promotions: &[Option<Role>] = if promoting {
                    &[
                        Some(Role::Queen),
                        Some(Role::Rook),
                        Some(Role::Bishop),
                        Some(Role::Knight),
                    ]
                } else {
                    &[None]
                };
                for &promotion in promotions {
                    moves.push(Move::Normal {
                        role: Role::Pawn,
                        from,
                        capture,
                        to,
                        promotion,
                    });
                }
            }
        }
    }
    // Pushes to the last rank, as queens only.
    for from in pawns {
        if let Some(to) = from.offset(forward)
            && Bitboard::BACKRANKS.contains(to)
            && !occupied.contains(to)
            && legal(from, to)
        {
            moves.push(Move::Normal {
                role: Role::Pawn,
                from,
                capture: None,
                to,
                promotion: Some(Role::Queen),
            });
        }
    }

    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for from in pos.our(role) {
            for to in attacks::attacks(from, role.of(turn), occupied) & them {
                if legal(from, to) {
                    moves.push(Move::Normal {
                        role,
                        from,
                        capture: board.role_at(to),
                        to,
                        promotion: None,
                    });
                }
            }
        }
    }
    for to in attacks::king_attacks(king) & them {
        if board.attacks_to(to, !turn, occupied).is_empty() {
            moves.push(Move::Normal {
                role: Role::King,
                from: king,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    /// The filter this generator replaces, in shakmaty's order.
    fn filtered(pos: &Chess) -> MoveList {
        let mut moves = pos.legal_moves();
        moves.retain(|m| m.is_capture() || m.promotion() == Some(Role::Queen));
        moves
    }

    /// Over a three-ply walk from positions with pins, en passant (pinned and not),
    /// promotions by push and by capture and Chess960 castling, the generator gives
    /// exactly the filtered legal moves, in the same order.
    #[test]
    fn noisy_moves_are_the_filtered_legal_moves_in_order() {
        fn walk(board: &mut Board, depth: u32) -> usize {
            let mut count = 0;
            if !board.in_check() {
                let expected = filtered(board.pos());
                let mut moves = MoveList::new();
                noisy_moves(board.pos(), &mut moves);
                assert_eq!(moves, expected, "{}", board.fen());
                count += expected.len();
            }
            if depth > 0 {
                for m in board.legal_moves() {
                    board.make(m);
                    count += walk(board, depth - 1);
                    board.unmake();
                }
            }
            count
        }
        let mut count = 0;
        for (fen, chess960) in [
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                false,
            ),
            (
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                false,
            ),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false),
            ("8/8/8/2k5/3Pp3/8/8/4K2B b - d3 0 1", false),
            ("8/8/8/K1k5/3Pp2q/8/8/8 b - d3 0 1", false),
            ("1r2k3/P1P5/8/8/8/8/1p1p4/R3K3 w Q - 0 1", false),
            (
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                true,
            ),
        ] {
            let mut board = Board::from_fen(fen, chess960).unwrap();
            count += walk(&mut board, 3);
        }
        assert_eq!(count, 939_614);
    }
}
