//! Fail-soft principal variation search (negamax). Each pruning, reduction and extension
//! is one commented step below, in the order they apply.
//!
//! What each step was measured to be worth, with the commit and the test, is in
//! docs/search.md.

use std::sync::atomic::Ordering;
use std::time::Duration;

use shakmaty::{Move, MoveList, Position};

use super::qsearch::qsearch;
use super::state::{Report, SharedState, ThreadData};
use crate::board::Board;
use crate::movepick::{MovePicker, Stage, is_quiet};
use crate::params::*;
use crate::score::{Bound, DRAW, INFINITY, MATE, MAX_PLY, TB_WIN_BOUND, is_decisive, mated_in};
use crate::see::see_ge;
use crate::tablebase::{Tablebases, wdl_score};
use crate::tt::TtHit;

/// Late-move reduction at this depth and move number: BASE + ln(depth)·ln(moves) / DIVISOR,
/// BASE and DIVISOR in hundredths.
fn lmr_formula(depth: usize, moves: usize) -> i32 {
    let base = f64::from(LMR_BASE()) / 100.0;
    let divisor = f64::from(LMR_DIVISOR()) / 100.0;
    (base + (depth as f64).ln() * (moves as f64).ln() / divisor) as i32
}

/// [`lmr_formula`] for depths and move numbers below `LMR_TABLE_SIZE`, computed once.
#[cfg(not(feature = "spsa"))]
fn lmr_reduction(depth: usize, moves: usize) -> i32 {
    type Table = [[i32; LMR_TABLE_SIZE]; LMR_TABLE_SIZE];
    static TABLE: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut table = [[0; LMR_TABLE_SIZE]; LMR_TABLE_SIZE];
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (moves, r) in row.iter_mut().enumerate().skip(1) {
                *r = lmr_formula(depth, moves);
            }
        }
        table
    });
    table[depth][moves]
}

/// A tuning build computes each reduction afresh: BASE and DIVISOR may change between
/// searches, and a table computed once would keep the first values.
#[cfg(feature = "spsa")]
fn lmr_reduction(depth: usize, moves: usize) -> i32 {
    lmr_formula(depth, moves)
}

/// The first ply where a null move may be tried again inside a verification of
/// `verify_depth` plies started at `ply`. Null moves stay off for most of its depth, not
/// only at its own node: else the side in zugzwang could pass again two plies on
/// (Stockfish's span).
fn null_moves_off_until(ply: usize, verify_depth: i32) -> usize {
    ply + (verify_depth * NMP_VERIFY_SPAN_PERCENT() / 100) as usize
}

/// Root moves are reported with `currmove` once a search has run this long.
pub(super) const CURRMOVE_AFTER: Duration = Duration::from_secs(3);

/// The kind of node a search is, as the parent expects it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Node {
    /// The root, a PV node whose moves are the root moves from the current MultiPV line
    /// on, in the order the iterations left them; each keeps its score, line and nodes.
    Root,
    /// Searched with an open window: it must produce a line.
    Pv,
    /// A null-window node expected to fail high: one move should refute the parent's.
    Cut,
    /// A null-window node expected to fail low: every move must be searched.
    All,
}

impl Node {
    /// Whether the node is searched with an open window.
    fn is_pv(self) -> bool {
        matches!(self, Node::Root | Node::Pv)
    }

    /// What a null-window child of this node is expected to be: the opposite (a refutation
    /// answers every move of an all node; a cut node's first move meets an all node).
    fn child(self) -> Node {
        match self {
            Node::Cut => Node::All,
            Node::Root | Node::Pv | Node::All => Node::Cut,
        }
    }
}

/// Searches the child position reached by the move just made, by PVS: the first move
/// gets the full window; later moves a null window, at reduced depth if `reduction` > 0,
/// re-searched at full depth if they beat α, and with the full window if, in a PV node,
/// they land inside it. Returns the score from the parent's point of view.
#[allow(
    clippy::too_many_arguments,
    reason = "the child's window, depth, ply, reduction and node kind: each a different fact"
)]
pub(super) fn search_child(
    td: &mut ThreadData,
    shared: &SharedState,
    alpha: i32,
    beta: i32,
    new_depth: i32,
    ply: usize,
    first: bool,
    reduction: i32,
    node: Node,
) -> i32 {
    let pv_node = node.is_pv();
    // The child's line is rebuilt by a PV search of it; any other search leaves none.
    if pv_node {
        td.pv[ply + 1].clear();
    }
    if first {
        return if pv_node {
            -alphabeta::<true>(td, shared, -beta, -alpha, new_depth, ply + 1, Node::Pv)
        } else {
            -alphabeta::<false>(td, shared, -beta, -alpha, new_depth, ply + 1, node.child())
        };
    }
    // A reduced search is expected to fail low here, so high in the child: a cut node.
    let reduced_child = if reduction > 0 {
        Node::Cut
    } else {
        node.child()
    };
    let mut score = -alphabeta::<false>(
        td,
        shared,
        -alpha - 1,
        -alpha,
        new_depth - reduction,
        ply + 1,
        reduced_child,
    );
    if score > alpha && reduction > 0 {
        score = -alphabeta::<false>(
            td,
            shared,
            -alpha - 1,
            -alpha,
            new_depth,
            ply + 1,
            node.child(),
        );
    }
    if pv_node && score > alpha && score < beta {
        score = -alphabeta::<true>(td, shared, -beta, -alpha, new_depth, ply + 1, Node::Pv);
    }
    score
}

/// Negamax alpha-beta below the root. `PV` marks nodes searched with an open window;
/// `node` says which kind the parent expects (`Node::Pv` exactly when `PV`).
#[inline]
pub(super) fn alphabeta<const PV: bool>(
    td: &mut ThreadData,
    shared: &SharedState,
    alpha: i32,
    beta: i32,
    depth: i32,
    ply: usize,
    node: Node,
) -> i32 {
    debug_assert_ne!(node, Node::Root, "the root is searched by search_root");
    negamax::<PV>(td, shared, alpha, beta, depth, ply, node, &mut |_| {})
}

/// Searches the root, a PV node whose moves are the root moves from the current MultiPV
/// line on, in their list's order: each is searched, announced to `report` (`currmove`)
/// and leaves its score, bound, line and nodes in the list.
pub(super) fn search_root(
    td: &mut ThreadData,
    shared: &SharedState,
    alpha: i32,
    beta: i32,
    depth: i32,
    report: &mut dyn FnMut(Report),
) -> i32 {
    negamax::<true>(td, shared, alpha, beta, depth, 0, Node::Root, report)
}

/// The search of any node, the root included; [`search_root`] and [`alphabeta`] call it.
///
/// What the other nodes do and the root does not, each step says: the root is not
/// counted, keeps what it learns in its move list rather than in the table or the
/// histories, prunes and extends nothing, and reduces by its own rule. (Builds that gave
/// the root the other nodes' reductions, check extension and history updates lost 22 to
/// 48 Elo: docs/search.md.) Only the root reports.
#[allow(
    clippy::too_many_arguments,
    reason = "the window, depth, ply and node kind of the node, and where the root reports"
)]
fn negamax<const PV: bool>(
    td: &mut ThreadData,
    shared: &SharedState,
    mut alpha: i32,
    mut beta: i32,
    mut depth: i32,
    ply: usize,
    node: Node,
    report: &mut dyn FnMut(Report),
) -> i32 {
    debug_assert_eq!(PV, node.is_pv(), "a PV search is a PV node");
    // Known at compile time in the null-window search, which has no root code.
    let root = PV && node == Node::Root;
    debug_assert!(!root || ply == 0, "the root is at ply 0");
    if PV {
        td.pv[ply].clear();
    }

    // Step 1. Draws by repetition, the fifty-move rule and insufficient material, also
    // right at the horizon (quiescence looks only for repetitions and insufficient
    // material). Not at the root, which must choose a move whatever the game's state.
    if !root && td.board.is_rule_draw(ply) {
        return DRAW;
    }
    let board = &td.board;
    let in_check = board.in_check();

    // Step 2. Horizon: resolve captures with quiescence.
    if depth <= 0 {
        return qsearch::<PV>(td, shared, alpha, beta, ply);
    }

    // Step 3. Count the node; unwind if a stop condition was met. Not the root: the
    // count is of positions reached by a move, so that the root moves' node counts, which
    // the clock reads, add up to it.
    if !root && td.count_node_and_check(shared) {
        return 0;
    }
    td.seldepth = td.seldepth.max(ply);
    let board = &td.board;
    if ply >= MAX_PLY - 1 {
        return if in_check { DRAW } else { td.evaluate() };
    }

    // Step 4. Mate-distance pruning: no line from here can beat a mate already found
    // closer to the root. Not at the root itself, whose window is the aspiration
    // loop's: clamped, a mate in one would score β and be taken for a fail high.
    if !root {
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
    }

    // Step 5. Transposition table: a deep enough entry whose bound settles the
    // window ends the node (not at PV nodes, which must produce a line, nor in a
    // singular-extension search, whose entry describes the node with every move, nor
    // near the end of the fifty-move count, which the entry knows nothing of).
    // The root neither probes nor stores: its move list holds its order, scores and lines.
    let key = board.key();
    let halfmoves = board.pos().halfmoves();
    let tt_hit = if root {
        None
    } else {
        shared.tt.probe(key, ply, halfmoves)
    };
    let excluded = td.stack[ply].excluded;
    if !PV
        && excluded.is_none()
        && halfmoves < TT_CUTOFF_HALFMOVES
        && let Some(hit) = tt_hit
        && hit.depth >= depth
        && hit.bound.settles(hit.score, alpha, beta)
    {
        return hit.score;
    }
    let tt_packed = tt_hit.map_or(0, |h| h.packed_move);

    // Step 6. Syzygy tablebases: right after a capture or pawn move (the tables count the
    // fifty-move rule from a clock at zero), a position with few enough pieces has a known
    // outcome. A win proves at least a tablebase win, a loss at most a tablebase loss, a
    // draw the draw; a bound that settles the window ends the node and is stored deep.
    // At PV nodes a bound that does not settle it limits the score the search returns.
    // Not at the root: it searches its move list, which the tables ranked when the
    // root itself is in them.
    let mut tb_floor = -INFINITY;
    let mut max_score = INFINITY;
    let tb = shared.tb_probe;
    if !root
        && tb.cardinality > 0
        && excluded.is_none()
        && depth >= tb.depth
        && board.pos().halfmoves() == 0
        && Tablebases::covers(board.pos(), tb.cardinality)
        && let Some(tables) = shared.tablebases.as_deref()
        && let Some(wdl) = tables.probe_wdl(board.pos())
    {
        shared.tb_hits.fetch_add(1, Ordering::Relaxed);
        let (score, bound) = wdl_score(wdl, tb.rule50, ply);
        if bound.settles(score, alpha, beta) {
            let raw_eval = if in_check { 0 } else { td.evaluate() };
            shared.tt.store(
                key,
                ply,
                0,
                score,
                raw_eval,
                depth + TB_STORE_DEPTH_BONUS,
                bound,
            );
            return score;
        }
        if PV {
            if bound == Bound::Lower {
                tb_floor = score;
                alpha = alpha.max(score);
            } else {
                max_score = score;
            }
        }
    }

    // Step 7. Static evaluation (none in check), corrected by what correction history
    // learned about this pawn structure and each colour's pieces, then refined by a TT
    // score whose bound points the right way. The table keeps the raw eval. `improving`:
    // better than two plies ago, so prune less. (Correction history was measured with
    // step 13; its pieces' tables: +22.8 ± 11.5 Elo at 5+0.05, SPRT [0, 5] H1 after
    // 1,176 games: docs/search.md.)
    // The root's eval prunes nothing: only ply 2's `improving` reads it, as set once
    // when the search started.
    let evals = if root {
        None
    } else {
        td.static_eval(tt_hit, in_check)
    };
    let raw_eval = evals.map(|e| e.raw);
    let static_eval = evals.map(|e| e.corrected);
    if !root {
        td.stack[ply].static_eval = static_eval;
    }
    let eval = match (static_eval, tt_hit) {
        (Some(e), Some(hit))
            if !is_decisive(hit.score) && hit.bound.says_more_than(hit.score, e) =>
        {
            Some(hit.score)
        }
        _ => static_eval,
    };
    let improving = match (
        static_eval,
        ply.checked_sub(2).and_then(|p| td.stack[p].static_eval),
    ) {
        (Some(now), Some(before)) => now > before,
        _ => false,
    };
    // The root's replies keep their killers from one pass to the next: the root
    // searches the same children each time.
    if !root {
        td.history.clear_killers_at(ply + 1);
    }

    if !PV
        && excluded.is_none()
        && let Some(eval) = eval
    {
        // Step 8. Reverse futility pruning: so far above β that a shallow search would
        // not bring it back.
        if depth <= RFP_DEPTH()
            && eval - RFP_MARGIN() * (depth - i32::from(improving)) >= beta
            && beta > -TB_WIN_BOUND
            && eval < TB_WIN_BOUND
        {
            return eval;
        }

        // Step 9. Null-move pruning: if passing still fails high at reduced depth, a real
        // move would too.
        if let Some(score) = null_move_cutoff(td, shared, beta, depth, ply, eval, node) {
            return score;
        }
    }

    // Step 10. Internal iterative reduction: a deep node without a TT move is likely
    // mis-ordered; search it shallower first. Not the root, whose list puts the last
    // pass's best move first.
    if !root && depth >= IIR_DEPTH() && tt_packed == 0 {
        depth -= 1;
    }

    // Step 11. The move loop.
    let previous = ply.checked_sub(1).and_then(|p| td.stack[p].current_move);
    let continuations = td.continuations(ply);
    let mut picker = if root {
        MovePicker::listed(td.root_moves[td.pv_index..].iter().map(|rm| rm.mv))
    } else {
        MovePicker::new(&td.board, tt_packed, &td.history, ply, previous)
    };
    let side = td.board.turn();
    let mut best_score = tb_floor;
    let mut best_move: Option<Move> = None;
    let mut moves_searched = 0usize;
    let mut quiets_tried = MoveList::new();
    let mut captures_tried = MoveList::new();
    let mut tt_capture = false;

    while let Some((m, stage)) = picker.next(&td.board, &td.history, &continuations) {
        if Some(m) == excluded {
            continue;
        }
        let key_hint = td.board.key_after_hint(m);
        shared.tt.prefetch(key_hint);
        let quiet = is_quiet(m);
        if stage == Stage::TtMove {
            tt_capture = !quiet;
        }

        // Step 12. Shallow pruning of late moves, once a line that avoids a lost outcome exists.
        // Quiet checks are spared late-move, futility and history pruning: a mate hides
        // among them more often than eval or move order can tell. Not at the root, where
        // every move gets a score to rank it by.
        if !root && best_score > -TB_WIN_BOUND && !in_check {
            if quiet {
                // Late-move pruning: enough quiets tried at this depth.
                let limit = (LMP_BASE() + depth * depth) as usize / if improving { 1 } else { 2 };
                let late = depth <= LMP_DEPTH() && quiets_tried.len() >= limit;
                // Futility pruning: even a good quiet move will not lift eval to α.
                let futility_value = eval.map(|e| e + FUTILITY_BASE() + FUTILITY_MARGIN() * depth);
                let futile = depth <= FUTILITY_DEPTH()
                    && futility_value.is_some_and(|f| f <= alpha)
                    && stage == Stage::Quiet;
                // History pruning: a quiet move with very bad history at low depth.
                let unpromising = depth <= HISTORY_PRUNE_DEPTH()
                    && stage == Stage::Quiet
                    && picker.last_quiet_score() < -HISTORY_PRUNE_MARGIN() * depth;
                if (late || futile || unpromising) && !td.board.gives_check(m) {
                    // A futile move is taken to score up to its futility value, not
                    // nothing: a fail-low node's upper bound says no less (Stockfish's
                    // rule).
                    if futile
                        && let Some(value) = futility_value
                        && !is_decisive(best_score)
                        && !is_decisive(value)
                    {
                        best_score = best_score.max(value);
                    }
                    // Each condition holds for every quiet still to come (they come in
                    // order of history): the picker need only hand out their checks.
                    if stage == Stage::Quiet {
                        picker.keep_only_quiet_checks(&td.board);
                    }
                    continue;
                }
            }
            // SEE pruning: the move loses too much material for this depth.
            let see_margin = if quiet {
                SEE_QUIET_MARGIN() * depth
            } else {
                SEE_CAPTURE_MARGIN() * depth * depth
            };
            if depth <= SEE_PRUNE_DEPTH()
                && stage != Stage::TtMove
                && !see_ge(td.board.pos(), m, see_margin)
            {
                continue;
            }
        }

        // Step 13. Extensions. A singular TT move is extended, or, when the
        // other moves also beat β, the node is cut (multi-cut); a TT move that is not
        // singular while its score beats β is reduced. Other checks extend one ply.
        let mut extension = 0;
        if !root
            && stage == Stage::TtMove
            && let Some(hit) = tt_hit
            && excluded.is_none()
        {
            match singular_extension::<PV>(td, shared, hit, m, beta, depth, ply, node) {
                Singular::Extend(plies) => extension = plies,
                Singular::Cutoff(score) => return score,
            }
        }

        if root && td.is_main() && td.elapsed() > CURRMOVE_AFTER {
            report(Report::CurrentMove {
                depth,
                mv: m,
                number: td.pv_index + moves_searched + 1,
            });
        }
        let nodes_before = td.nodes;
        td.set_move(ply, Some(m));
        td.board.make_with_hint(m, key_hint);
        let gives_check = td.board.in_check();
        if !root && extension == 0 && gives_check {
            extension = 1;
        }
        td.stack[ply + 1].double_extensions =
            td.stack[ply].double_extensions + u8::from(extension == 2);
        let new_depth = depth - 1 + extension;

        // Step 14. Late-move reductions for moves tried late: quiets by their history,
        // captures and promotions by a share of that and by their capture history (the
        // bad captures come after the quiets, and good ones tried late are rarely best).
        // At the root, one ply for a quiet move that gives no check, and none for others.
        let reduction = if depth < LMR_DEPTH()
            || moves_searched < LMR_MOVES() + usize::from(PV)
            || stage == Stage::TtMove
        {
            0
        } else if root {
            i32::from(quiet && !gives_check)
        } else {
            let last = LMR_TABLE_SIZE - 1;
            let mut r = lmr_reduction((depth as usize).min(last), moves_searched.min(last));
            r -= i32::from(PV);
            r += i32::from(!improving);
            r -= i32::from(gives_check);
            if quiet {
                r -= i32::from(stage == Stage::Refutation);
                r += LMR_CUT_NODE() * i32::from(node == Node::Cut);
                r += LMR_TT_CAPTURE() * i32::from(tt_capture);
                let history = if stage == Stage::Quiet {
                    picker.last_quiet_score()
                } else {
                    td.history.quiet_score(side, m, &continuations)
                };
                r -= history / LMR_HISTORY_DIVISOR();
            } else {
                r = r * LMR_NOISY_PERCENT() / 100
                    - td.history.capture_score(side, m) / LMR_CAPTURE_HISTORY_DIVISOR();
            }
            // A tuning build may set LMR_DEPTH to 1, where new_depth can be 0.
            r.clamp(0, (new_depth - 1).max(0))
        };

        // Step 15. PVS search of the child.
        let score = search_child(
            td,
            shared,
            alpha,
            beta,
            new_depth,
            ply,
            moves_searched == 0,
            reduction,
            node,
        );
        td.board.unmake();
        // Root moves come in their list's order, none left out, so the move's place in
        // it is known. Its nodes feed the clock; its score and line, the lines reported.
        let root_move = root.then(|| td.pv_index + moves_searched);
        if let Some(i) = root_move {
            debug_assert_eq!(td.root_moves[i].mv, m);
            td.root_moves[i].nodes += td.nodes - nodes_before;
        }
        if td.stopped {
            return 0;
        }
        if let Some(i) = root_move {
            let first = moves_searched == 0;
            td.root_moves[i].record(score, (alpha, beta), first, &td.pv[1], td.seldepth);
        }
        moves_searched += 1;

        // Step 16. New best move; a β cutoff rewards the move in its history table and
        // punishes the moves of its kind tried before it (captures always).
        if score > best_score {
            best_score = score;
            if score > alpha {
                best_move = Some(m);
                alpha = score;
                if PV {
                    td.update_pv(ply, m);
                }
                if alpha >= beta {
                    // The root's cutoffs, aspiration fail-highs, teach the histories
                    // nothing: the root keeps its move order in its list.
                    if root {
                        break;
                    }
                    if quiet {
                        td.history.add_killer(ply, m);
                        td.history
                            .reward_quiet(side, m, &quiets_tried, &continuations, depth);
                        if let Some(p) = previous {
                            td.history.set_countermove(!side, p, m);
                        }
                    }
                    let noisy_best = (!quiet).then_some(m);
                    td.history
                        .reward_captures(side, noisy_best, &captures_tried, depth);
                    break;
                }
            }
        }
        let tried = if quiet {
            &mut quiets_tried
        } else {
            &mut captures_tried
        };
        if tried.len() < tried.capacity() {
            tried.push(m);
        }
    }

    // No legal move: mate or stalemate. Otherwise every move was pruned (only possible
    // when not in check), or a singular-extension search had no move but the one it
    // leaves out: fail low with α.
    if moves_searched == 0 {
        return if !picker.is_empty() {
            alpha
        } else if in_check {
            mated_in(ply)
        } else {
            DRAW
        };
    }

    // Step 17. Store the result, within what the tables allow (not a singular-extension
    // search's: it left a move out; nor the root's, which its move list holds).
    if excluded.is_some() || root {
        return best_score;
    }
    if PV {
        best_score = best_score.min(max_score);
    }
    let bound = Bound::of_result(best_score, beta, best_move.is_some());
    shared.tt.store(
        key,
        ply,
        best_move.map_or(0, Board::pack),
        best_score,
        raw_eval.unwrap_or(0),
        depth,
        bound,
    );

    // Step 18. Correction history learns from a result the static eval could have
    // judged (no capture or promotion decided it, no mate) that says more than the eval:
    // exact, or a bound on the far side of it.
    if let (Some(raw), Some(corrected)) = (raw_eval, static_eval)
        && best_move.is_none_or(is_quiet)
        && !is_decisive(best_score)
        && bound.says_more_than(best_score, corrected)
    {
        td.learn_eval_error(depth, best_score - raw);
    }
    best_score
}

/// Step 9 of [`alphabeta`], null-move pruning, at a non-PV node whose eval (`eval`) is
/// known: the side to move passes, and if a search of the opponent's move at reduced
/// depth still fails high, a real move would too. Not in pawn endings (zugzwang), right
/// after a null move, or inside a verification's span. Returns the score to cut off
/// with (0 when the search stopped), or `None` to search the node's moves.
fn null_move_cutoff(
    td: &mut ThreadData,
    shared: &SharedState,
    beta: i32,
    depth: i32,
    ply: usize,
    eval: i32,
    node: Node,
) -> Option<i32> {
    let previous_null = ply > 0 && td.stack[ply - 1].null_move;
    if depth < NMP_DEPTH()
        || eval < beta
        || previous_null
        || ply < td.nmp_min_ply
        || beta <= -TB_WIN_BOUND
        || td.board.only_pawns_and_king()
    {
        return None;
    }
    let reduction = NMP_BASE()
        + depth / NMP_DIVISOR()
        + ((eval - beta) / NMP_EVAL_DIVISOR()).min(NMP_EVAL_MAX());
    td.set_move(ply, None);
    td.stack[ply].null_move = true;
    td.stack[ply + 1].double_extensions = td.stack[ply].double_extensions;
    td.board.make_null();
    let score = -alphabeta::<false>(
        td,
        shared,
        -beta,
        -beta + 1,
        depth - 1 - reduction,
        ply + 1,
        node.child(),
    );
    td.board.unmake();
    td.stack[ply].null_move = false;
    if td.stopped {
        return Some(0);
    }
    if score < beta {
        return None;
    }
    let score = if score >= TB_WIN_BOUND { beta } else { score };
    if depth < NMP_VERIFY_DEPTH() {
        return Some(score);
    }
    // Deep nodes: verify with a reduced search without null moves, so a zugzwang cannot
    // cut off a large subtree. A verification inside another one leaves the outer one's
    // limit in force when it ends. (The depth is negative only for a tuning build's
    // extreme NMP_* values.)
    let verify_depth = (depth - reduction).max(0);
    let outer_min_ply = td.nmp_min_ply;
    td.nmp_min_ply = null_moves_off_until(ply, verify_depth);
    let verified = alphabeta::<false>(td, shared, beta - 1, beta, verify_depth, ply, Node::Cut);
    td.nmp_min_ply = outer_min_ply;
    if td.stopped {
        Some(0)
    } else {
        (verified >= beta).then_some(score)
    }
}

/// What the singular-extension search decided about the TT move.
enum Singular {
    /// Extend the TT move by this many plies: 2 or 1 when it is singular, -1 when it is
    /// not while its score beats β, else 0.
    Extend(i32),
    /// The other moves beat β too (multi-cut): the node ends with this score (0 when the
    /// search stopped).
    Cutoff(i32),
}

/// Step 13 of [`alphabeta`], singular extensions, for the TT move `tt_move` with its
/// entry `hit`: a search at half depth of every other move, against a window below the
/// entry's score, tells whether the TT move alone holds the score.
#[allow(
    clippy::too_many_arguments,
    reason = "the entry and its move, the node's β, depth, ply and kind: each a different fact"
)]
fn singular_extension<const PV: bool>(
    td: &mut ThreadData,
    shared: &SharedState,
    hit: TtHit,
    tt_move: Move,
    beta: i32,
    depth: i32,
    ply: usize,
    node: Node,
) -> Singular {
    if depth < SINGULAR_DEPTH()
        || hit.depth < depth - SINGULAR_DEPTH_SLACK()
        || hit.bound == Bound::Upper
        || is_decisive(hit.score)
    {
        return Singular::Extend(0);
    }
    let singular_beta = hit.score - SINGULAR_MARGIN() * depth;
    td.stack[ply].excluded = Some(tt_move);
    let score = alphabeta::<false>(
        td,
        shared,
        singular_beta - 1,
        singular_beta,
        (depth - 1) / 2,
        ply,
        if node == Node::Cut {
            Node::Cut
        } else {
            Node::All
        },
    );
    td.stack[ply].excluded = None;
    if td.stopped {
        Singular::Cutoff(0)
    } else if score < singular_beta {
        let doubles = td.stack[ply].double_extensions;
        let double = !PV
            && score < singular_beta - SINGULAR_DOUBLE_MARGIN()
            && doubles < SINGULAR_DOUBLE_MAX();
        Singular::Extend(if double { 2 } else { 1 })
    } else if singular_beta >= beta {
        Singular::Cutoff(singular_beta)
    } else if hit.score >= beta {
        Singular::Extend(-1)
    } else {
        Singular::Extend(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Searcher;

    /// A null-window search at `depth` (0: quiescence), with β = 1, of the lone king in
    /// check in `3k4/8/8/8/8/8/8/3QK3 b` with `halfmoves` on the clock, after a deeper
    /// search (with another clock) left the position a lower bound of 900: the score and
    /// the nodes the search visited.
    fn search_after_a_deep_entry(halfmoves: u32, depth: i32) -> (i32, u64) {
        let mut searcher = Searcher::new(1).unwrap();
        let fen = format!("3k4/8/8/8/8/8/8/3QK3 b - - {halfmoves} 60");
        let board = Board::from_fen(&fen, false).unwrap();
        searcher
            .shared
            .tt
            .store(board.key(), 0, 0, 900, 0, 20, Bound::Lower);
        let td = &mut searcher.threads[0];
        td.board = board;
        let score = alphabeta::<false>(td, &searcher.shared, 0, 1, depth, 0, Node::Cut);
        (score, td.nodes)
    }

    /// A verification keeps the side that passed from passing again two plies on, and
    /// beyond: null moves stay off for three quarters of its depth (once they stayed off
    /// at the verifying node alone, `ply + 1`).
    #[test]
    fn null_moves_stay_off_for_most_of_a_verification() {
        assert_eq!(null_moves_off_until(10, 0), 10);
        assert_eq!(null_moves_off_until(10, 4), 13);
        assert_eq!(null_moves_off_until(10, 8), 16);
        assert_eq!(null_moves_off_until(30, 13), 39);
    }

    #[test]
    fn no_table_cutoff_near_the_end_of_the_fifty_move_count() {
        for depth in [3, 0] {
            assert_eq!(
                search_after_a_deep_entry(TT_CUTOFF_HALFMOVES - 1, depth),
                (900, 1)
            );
            let (score, nodes) = search_after_a_deep_entry(TT_CUTOFF_HALFMOVES, depth);
            assert!(
                score < 1 && nodes > 1,
                "depth {depth}: score {score}, {nodes} nodes"
            );
        }
    }

    /// The null-move search continues its parent's line, so it counts the parent's
    /// double extensions, not what a sibling of the parent left at the child's ply. A
    /// queen up, at depth 9 (beyond reverse futility) and β 50 below the eval, the null
    /// move fails high without a verification, so the last count written two plies on
    /// is one its child wrote: the parent's 0, plus at most one.
    #[test]
    fn the_null_move_child_counts_its_parents_double_extensions() {
        let mut searcher = Searcher::new(1).unwrap();
        let td = &mut searcher.threads[0];
        td.board = Board::from_fen("k7/8/8/8/8/8/8/1Q2K3 w - - 0 1", false).unwrap();
        td.stack[0].double_extensions = 0;
        td.stack[1].double_extensions = SINGULAR_DOUBLE_MAX() - 1;
        let beta = td.evaluate() - 50;
        let score = alphabeta::<false>(td, &searcher.shared, beta - 1, beta, 9, 0, Node::Cut);
        assert!(score >= beta);
        assert!(td.stack[2].double_extensions <= 1);
    }

    /// A node that fails low after pruning futile quiet moves says the pruned moves might
    /// reach their futility value: its score is no lower. At depth 1, with α 100 above
    /// that value, the first quiet move is searched (nothing is pruned before one is)
    /// and scores near the eval; every other move is futile.
    #[test]
    fn a_fail_low_after_futility_pruning_scores_the_futility_value() {
        let mut searcher = Searcher::new(1).unwrap();
        let td = &mut searcher.threads[0];
        td.board = Board::from_fen("7k/8/8/8/8/8/5PPP/6K1 w - - 0 1", false).unwrap();
        let futility_value = td.evaluate() + FUTILITY_BASE() + FUTILITY_MARGIN();
        let alpha = futility_value + 100;
        let score = alphabeta::<false>(td, &searcher.shared, alpha, alpha + 1, 1, 0, Node::All);
        assert_eq!(score, futility_value);
    }

    /// A tuning build searches with every value its options accept: each tunable at
    /// either end of its range, the others at their defaults (LMR_DEPTH 1 used to abort
    /// on `clamp(0, -1)` in the first search). The values are process-wide, so
    /// `.ci/run` runs this test alone.
    #[cfg(feature = "spsa")]
    #[test]
    fn every_tunable_value_in_range_searches() {
        use crate::limits::Limits;
        use crate::params::{self, TUNABLES};
        use crate::search::SearchOptions;
        let mut searcher = Searcher::new(1).unwrap();
        let boards: Vec<Board> = crate::bench::POSITIONS[..4]
            .iter()
            .map(|fen| Board::from_fen(fen, false).unwrap())
            .collect();
        for t in TUNABLES {
            for value in [t.min, t.max] {
                params::set(t.name, value).unwrap();
                for board in &boards {
                    searcher.clear();
                    let limits = Limits::depth(7);
                    let result =
                        searcher.search(board, &limits, &SearchOptions::default(), &mut |_| {});
                    assert!(result.best.is_some(), "{} = {value}", t.name);
                }
            }
            params::set(t.name, t.default).unwrap();
        }
    }
}
