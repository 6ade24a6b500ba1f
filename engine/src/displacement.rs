//! A move read as what it does to the pieces: the ones it takes off their squares and
//! the ones it puts on. The Zobrist key ([`crate::board`]) and the network's accumulators
//! ([`crate::nnue`]) both change by exactly this, so both read a move here.

use shakmaty::{CastlingSide, Color, Move, Piece, Square};

/// A piece on a square.
pub(crate) type Placed = (Piece, Square);

/// What a move does to the pieces, in each of the shapes a move has.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Displacement {
    /// A quiet move or a promotion.
    Move { off: Placed, on: Placed },
    /// A capture (en passant included): the mover and its victim off, the mover on.
    Capture { off: [Placed; 2], on: Placed },
    /// Castling: the king and the rook off their squares and onto their targets (a
    /// Chess960 king or rook may land where it or the other stood: what is taken off and
    /// put back on the same square cancels).
    Castle { off: [Placed; 2], on: [Placed; 2] },
}

impl Displacement {
    /// What `m`, made by `us`, does to the pieces.
    #[inline]
    pub(crate) fn of(m: Move, us: Color) -> Displacement {
        let them = !us;
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                let off = (role.of(us), from);
                let on = (promotion.unwrap_or(role).of(us), to);
                match capture {
                    Some(captured) => Displacement::Capture {
                        off: [off, (captured.of(them), to)],
                        on,
                    },
                    None => Displacement::Move { off, on },
                }
            }
            Move::EnPassant { from, to } => Displacement::Capture {
                off: [
                    (us.pawn(), from),
                    (them.pawn(), Square::from_coords(to.file(), from.rank())),
                ],
                on: (us.pawn(), to),
            },
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_side(king < rook);
                Displacement::Castle {
                    off: [(us.king(), king), (us.rook(), rook)],
                    on: [(us.king(), side.king_to(us)), (us.rook(), side.rook_to(us))],
                }
            }
            Move::Put { .. } => unreachable!("no drops in standard chess"),
        }
    }
}
