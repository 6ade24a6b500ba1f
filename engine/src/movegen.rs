//! What shakmaty gives only at a cost: the captures and queen promotions alone, and
//! whether one normal move is legal, each without generating every legal move.
//!
//! - [`noisy_moves`], for quiescence: shakmaty generates every legal move and would leave
//!   us to filter them, which made move generation the largest cost of a quiescence node.
//!   The moves come out in the order `legal_moves` followed by a filter would give them
//!   (en passant, pawns, knights, bishops, rooks, queens, king), so a search that ranks
//!   equal-scored moves by generation order searches the same tree either way.
//! - [`is_legal_normal`], for the TT move ([`crate::board::Board::unpack`]).
//! - [`line_blockers`], the pieces that pin or shield a king's lines.

use shakmaty::{Bitboard, Chess, File, Move, MoveList, Position, Rank, Role, Square, attacks};

/// A promotion to each piece, in the order shakmaty generates them.
const PROMOTIONS: [Option<Role>; 4] = [
    Some(Role::Queen),
    Some(Role::Rook),
    Some(Role::Bishop),
    Some(Role::Knight),
];

/// Pieces of the side to move that shield their own `king` from an enemy slider: they
/// may move only along the line between the two.
fn pinned(pos: &Chess, king: Square) -> Bitboard {
    line_blockers(pos.board(), king, pos.them()) & pos.us()
}

/// The pieces (of either colour) that alone stand between `king` and a slider among
/// `sliders` (one side's pieces) that would attack it along their line if it were empty:
/// the pieces pinned to the king, or that uncover a check when they leave the line.
pub fn line_blockers(board: &shakmaty::Board, king: Square, sliders: Bitboard) -> Bitboard {
    let snipers = sliders
        & (attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens()
            | attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens());
    let mut blockers = Bitboard::EMPTY;
    for sniper in snipers {
        let between = attacks::between(king, sniper) & board.occupied();
        if !between.more_than_one() {
            blockers |= between;
        }
    }
    blockers
}

/// Whether a move from `from` to `to` is allowed by the pins: a pinned piece stays on the
/// line through its king.
#[inline]
fn keeps_to_pin(pinned: Bitboard, from: Square, to: Square, king: Square) -> bool {
    !pinned.contains(from) || attacks::aligned(from, to, king)
}

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
    let legal = |from: Square, to: Square| keeps_to_pin(pinned, from, to, king);

    // Pawn captures toward one side, then the other, each first off the last rank, then
    // onto it, promoting to each piece in turn. A capture's target is its pawn shifted
    // one rank forward and one file aside (a pawn on the edge file has no target off the
    // board that way), so targets come in the order of their pawns.
    let pawns = pos.our(Role::Pawn);
    let forward = turn.fold_wb(8, -8);
    for (side, edge) in [(-1, File::A), (1, File::H)] {
        let step = forward + side;
        let targets = pawns.without(Bitboard::from_file(edge)).shift(step) & them;
        for (rank, promotions) in [
            (!Bitboard::BACKRANKS, &[None][..]),
            (Bitboard::BACKRANKS, &PROMOTIONS[..]),
        ] {
            for to in targets & rank {
                let from = to
                    .offset(-step)
                    .expect("a capture's pawn stands one step back from it");
                if !legal(from, to) {
                    continue;
                }
                let capture = board.role_at(to);
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
    for to in pawns.shift(forward) & Bitboard::BACKRANKS & !occupied {
        let from = to
            .offset(-forward)
            .expect("a push's pawn stands one step back from it");
        if legal(from, to) {
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

/// Whether the side to move's `role` on `from` may go to `to`, promoting to `promotion`
/// (a normal move: neither castling nor en passant): the piece reaches `to` and none of
/// ours stands there, a pawn promotes on the last rank and only there, a piece pinned to
/// our king keeps to the pin's line, in check a piece other than the king takes the lone
/// checker or steps between it and the king, and the king steps onto a square no enemy
/// attacks once it has left its own. shakmaty's
/// `is_legal` gives the same answer by generating the moves that reach `to` (in check,
/// every evasion), at several times the cost: the TT move of most nodes is checked here
/// ([`Board::unpack`](crate::board::Board::unpack)).
pub fn is_legal_normal(
    pos: &Chess,
    role: Role,
    from: Square,
    to: Square,
    promotion: Option<Role>,
) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let occupied = board.occupied();
    if pos.us().contains(to) {
        return false;
    }
    if role == Role::King {
        return promotion.is_none()
            && attacks::king_attacks(from).contains(to)
            && board.attacks_to(to, !us, occupied.without(from)).is_empty();
    }
    let reaches = match role {
        Role::Pawn => {
            let promotes = Bitboard::BACKRANKS.contains(to);
            let promotion_ok = match promotion {
                None => !promotes,
                Some(Role::Pawn | Role::King) => false,
                Some(_) => promotes,
            };
            let forward = us.fold_wb(8, -8);
            let pushed = |steps: i32| from.offset(forward * steps);
            // A capture goes diagonally onto an enemy; a push onto an empty square,
            // one step or, from the second rank, two across an empty one.
            promotion_ok
                && if pos.them().contains(to) {
                    attacks::pawn_attacks(us, from).contains(to)
                } else {
                    pushed(1) == Some(to)
                        || (pushed(2) == Some(to)
                            && from.rank() == us.fold_wb(Rank::Second, Rank::Seventh)
                            && pushed(1).is_some_and(|middle| !occupied.contains(middle)))
                }
        }
        _ => promotion.is_none() && attacks::attacks(from, role.of(us), occupied).contains(to),
    };
    if !reaches {
        return false;
    }
    let king = board.king_of(us).expect("a position has both kings");
    let checkers = pos.checkers();
    let answers_check = checkers.is_empty()
        || checkers.single_square().is_some_and(|checker| {
            (attacks::between(king, checker) | Bitboard::from_square(checker)).contains(to)
        });
    answers_check && keeps_to_pin(pinned(pos, king), from, to, king)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, STARTPOS};

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

    /// A TT move unpacks to a move exactly when it is the packed form of a legal move
    /// here, and then to that move: every packed value (any squares, any promotion code)
    /// is checked against the legal move list, over a
    /// walk one ply deep from positions with pins, checks, en passant (pinned and not),
    /// promotions and castling of both kinds.
    #[test]
    fn unpack_finds_exactly_the_legal_moves() {
        fn check(board: &Board) -> usize {
            let legal = board.legal_moves();
            let mut found = 0;
            for from in Square::ALL {
                for to in Square::ALL {
                    for promotion in 0..8u16 {
                        let packed = from as u16 | (to as u16) << 6 | promotion << 12;
                        let expected = legal.iter().find(|&&m| Board::pack(m) == packed);
                        assert_eq!(
                            board.unpack(packed),
                            expected.copied(),
                            "{packed:#06x} in {}",
                            board.fen()
                        );
                        found += usize::from(expected.is_some());
                    }
                }
            }
            assert_eq!(found, legal.len(), "{}", board.fen());
            found
        }
        let mut found = 0;
        for (fen, chess960) in [
            (STARTPOS, false),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                false,
            ),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false),
            (
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                false,
            ),
            (
                "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
                false,
            ),
            ("8/8/8/2k5/3Pp3/8/8/4K2B b - d3 0 1", false),
            ("4k3/1P6/8/8/8/8/1p6/R3K2R b KQ - 0 1", false),
            // Pins along a file, a rank and a diagonal, and a king beside a slider's line.
            ("4r1k1/8/8/2b5/4N3/3B4/r3R1K1/8 w - - 0 1", false),
            // Checks by a slider the king may not step back along, by a knight, and two
            // at once (a pawn could take one checker, but not both).
            ("8/3pk3/8/8/8/8/8/4RK2 b - - 0 1", false),
            ("r3k3/8/3N4/8/8/8/6b1/R3K3 b Qq - 0 1", false),
            ("4k3/8/3N4/8/8/8/3r4/R3K2R b KQ - 0 1", false),
            ("4k3/2p5/3N4/8/8/8/8/4R1K1 b - - 0 1", false),
            (
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                true,
            ),
            ("2r1kr2/8/8/8/8/8/8/1R2K1R1 w GBfc - 0 1", true),
        ] {
            let mut board = Board::from_fen(fen, chess960).unwrap();
            found += check(&board);
            for m in board.legal_moves() {
                board.make(m);
                found += check(&board);
                board.unmake();
            }
        }
        assert_eq!(found, 7131);
    }
}
