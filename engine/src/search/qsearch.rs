//! Quiescence search: at the horizon, keep searching captures (and every evasion when in
//! check) until the position is quiet, so the evaluation never sees a hanging piece.

use shakmaty::Position;

use super::state::{SharedState, ThreadData};
use crate::board::Board;
use crate::movepick::MovePicker;
use crate::params::{DELTA_MARGIN, TT_CUTOFF_HALFMOVES};
use crate::score::{Bound, DRAW, INFINITY, MAX_PLY, mated_in};
use crate::see::{noisy_value, see_ge};

/// Depth recorded for quiescence entries in the transposition table.
const QS_DEPTH: i32 = 0;

pub(super) fn qsearch<const PV: bool>(
    td: &mut ThreadData,
    shared: &SharedState,
    mut alpha: i32,
    beta: i32,
    ply: usize,
) -> i32 {
    if PV {
        td.pv[ply].clear();
    }
    if td.count_node_and_check(shared) {
        return 0;
    }
    td.seldepth = td.seldepth.max(ply);
    let board = &td.board;
    // A quiet evasion can return to a position earlier in the tree; captures and pawn
    // moves reset the halfmove clock, so after them the look back is empty.
    if board.is_insufficient_material() || board.is_repetition(ply) {
        return DRAW;
    }
    let in_check = board.in_check();
    if ply >= MAX_PLY - 1 {
        return if in_check { DRAW } else { td.evaluate() };
    }

    // A TT entry of any depth bounds a quiescence node, except near the end of the
    // fifty-move count, which the entry knows nothing of (as in the main search).
    let key = board.key();
    let halfmoves = board.pos().halfmoves();
    let tt_hit = shared.tt.probe(key, ply, halfmoves);
    if !PV
        && halfmoves < TT_CUTOFF_HALFMOVES
        && let Some(hit) = tt_hit
        && hit.bound.settles(hit.score, alpha, beta)
    {
        return hit.score;
    }

    // Stand pat: the side to move may decline every capture (not when in check).
    let evals = td.static_eval(tt_hit, in_check);
    let raw_eval = evals.map(|e| e.raw);
    let static_eval = evals.map(|e| e.corrected);
    let mut best_score = -INFINITY;
    if let Some(eval) = static_eval {
        if eval >= beta {
            return eval;
        }
        alpha = alpha.max(eval);
        best_score = eval;
    }

    let mut picker = MovePicker::noisy();
    let mut best_move = None;
    // Quiescence does not record its moves on the search stack, so quiet evasions are
    // ranked by butterfly history alone.
    let continuations = [None; 2];
    let mut fetched = false;
    while let Some((m, _)) = picker.next(&td.board, &td.history, &continuations) {
        // The first move comes once all are generated: every child's bucket is fetched
        // now, so later children find theirs in the cache.
        if !fetched {
            fetched = true;
            for &generated in picker.generated() {
                shared.tt.prefetch(td.board.key_after_hint(generated));
            }
        }
        if let Some(eval) = static_eval {
            // Delta pruning: even winning the captured piece leaves us below α. The move
            // is taken to score up to that much, as a futile move in the main search.
            let futility_value = eval + noisy_value(m) + DELTA_MARGIN();
            if futility_value <= alpha {
                best_score = best_score.max(futility_value);
                continue;
            }
            // Captures that lose material are not worth resolving.
            if !see_ge(td.board.pos(), m, 0) {
                continue;
            }
        }
        td.board.make(m);
        let score = -qsearch::<PV>(td, shared, -beta, -alpha, ply + 1);
        td.board.unmake();
        if td.stopped {
            return 0;
        }
        if score > best_score {
            best_score = score;
            if score > alpha {
                alpha = score;
                best_move = Some(m);
                if PV {
                    td.update_pv(ply, m);
                }
                if alpha >= beta {
                    break;
                }
            }
        }
    }

    // In check nothing is pruned: no move searched means no legal move.
    if in_check && picker.is_empty() {
        return mated_in(ply);
    }
    let bound = Bound::of_result(best_score, beta, best_move.is_some());
    shared.tt.store(
        key,
        ply,
        best_move.map_or(0, Board::pack),
        best_score,
        raw_eval.unwrap_or(0),
        QS_DEPTH,
        bound,
    );
    best_score
}
