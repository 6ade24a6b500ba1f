//! Iterative deepening: search depth 1, 2, 3, … each inside an aspiration window around
//! the previous score, until a limit says stop; each MultiPV line in turn, and the
//! reports of what each iteration found. The root moves themselves are searched by
//! `alphabeta::search_root`, the root being one of the search's node kinds.

use std::sync::atomic::Ordering;
use std::time::Duration;

use shakmaty::{Move, Position};

use super::alphabeta::{CURRMOVE_AFTER, search_root};
use super::state::{
    Report, RootMove, SearchInfo, SearchResult, SharedState, SyzygyOptions, TbProbe, ThreadData,
};
use crate::board::Board;
use crate::limits::{Limits, MAX_DEPTH};
use crate::params::{
    ASPIRATION_DEPTH, ASPIRATION_GROWTH_PERCENT, ASPIRATION_WINDOW, MATE_PLIES_SLACK,
};
use crate::score::{Bound, DRAW, INFINITY, MATE, is_decisive, is_mate, mate_moves, mated_in};
use crate::tablebase::{RootMethod, Tablebases};
use crate::time::IterationSummary;

/// An aspiration search that fails is reported, its score a bound, once a search has run
/// this long: sooner than `currmove`, so that a GUI shows the score moving during a long
/// iteration, but not in the fast ones at the start, which would only flood it.
const FAIL_REPORTS_AFTER: Duration = Duration::from_secs(1);

/// The moves every thread searches at the root, and how the tree probes the tablebases.
///
/// When the root itself is in the tables, only the moves the tables rank best are kept
/// (a won ending stays won and is converted within the fifty-move rule, a drawn one is
/// not spoiled), each with the tables' score. Ranked by DTZ, the ranks alone make
/// progress, so the tree does not probe (Stockfish's rule); ranked by WDL only, it probes
/// while the root is won, so that the search finds its way to the next winning zeroing
/// move.
pub(crate) fn root_moves(
    board: &Board,
    limits: &Limits,
    shared: &SharedState,
    syzygy: &SyzygyOptions,
) -> (Vec<RootMove>, TbProbe) {
    let mut root_moves: Vec<RootMove> = board
        .legal_moves()
        .into_iter()
        .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
        .map(|mv| RootMove {
            mv,
            score: -INFINITY,
            bound: Bound::Exact,
            previous_score: -INFINITY,
            seldepth: 0,
            pv: vec![mv],
            tb_score: None,
            nodes: 0,
        })
        .collect();
    let Some(tables) = shared.tablebases.as_deref() else {
        return (root_moves, TbProbe::default());
    };
    let mut probe = TbProbe {
        cardinality: syzygy.probe_limit.min(tables.max_pieces()),
        depth: syzygy.probe_depth,
        rule50: syzygy.rule50,
    };
    if root_moves.is_empty() || !Tablebases::covers(board.pos(), probe.cardinality) {
        return (root_moves, probe);
    }
    let moves: Vec<Move> = root_moves.iter().map(|rm| rm.mv).collect();
    let Some((ranks, method)) = tables.rank_root(board, &moves, syzygy.rule50) else {
        return (root_moves, probe);
    };
    shared
        .tb_hits
        .fetch_add(moves.len() as u64, Ordering::Relaxed);
    root_moves.retain_mut(|rm| match ranks.iter().find(|r| r.mv == rm.mv) {
        Some(r) => {
            rm.tb_score = Some(r.score);
            true
        }
        None => false,
    });
    if method == RootMethod::Dtz || ranks.iter().all(|r| r.score <= DRAW) {
        probe.cardinality = 0;
    }
    (root_moves, probe)
}

/// Runs iterative deepening on one thread over `root_moves`, `multipv` lines. The main
/// thread (id 0) reports and decides when to stop, starting no new iteration once
/// `node_budget` nodes are spent (a weakened engine's budget); helpers search until told
/// to stop.
pub(crate) fn iterate(
    td: &mut ThreadData,
    shared: &SharedState,
    root_moves: &[RootMove],
    limits: &Limits,
    multipv: usize,
    node_budget: Option<u64>,
    outer_report: &mut dyn FnMut(Report),
) -> SearchResult {
    // The line last shown as the best (`multipv 1`): the search ends by showing the line
    // it plays if that is another, so that a GUI's last line starts with the `bestmove`
    // and continues with the `ponder` move.
    let mut shown: Option<Vec<Move>> = None;
    let mut report = |r: Report| {
        if let Report::Iteration(info) = &r
            && info.multipv == 1
        {
            shown = Some(info.pv.clone());
        }
        outer_report(r);
    };
    let report: &mut dyn FnMut(Report) = &mut report;
    td.completed_lines.clear();
    td.root_moves.clear();
    td.root_moves.extend_from_slice(root_moves);
    if td.root_moves.is_empty() {
        return no_legal_move(td, shared, limits, report);
    }

    // The root's static eval, so that `improving` can compare against it at ply 2.
    let in_check = td.board.in_check();
    td.stack[0].static_eval = td.static_eval(None, in_check).map(|e| e.corrected);

    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let lines = multipv.clamp(1, td.root_moves.len());
    // Helpers start one ply deeper on odd ids, so threads spread over two depths.
    let first_depth = 1 + (td.id % 2) as i32;
    let mut best_score = -INFINITY;
    // What the clock reads after each iteration: the last best move and how long it held.
    let mut last_best: Option<Move> = None;
    let mut stable_iterations = 0;
    td.searched_depth = 0;

    for depth in first_depth..=max_depth {
        // A helper stops between iterations as soon as the search has ended: one started
        // after its end (the launcher was between its check and the spawn) then searches
        // nothing and, with no completed iteration, does not vote.
        if !td.is_main() && shared.stopping() {
            break;
        }
        td.searched_depth = depth;
        search_lines(td, shared, depth, lines, report);
        if td.stopped {
            break;
        }
        td.completed_depth = depth;
        let previous_best_score = best_score;
        best_score = td.root_moves[0].score;

        if !td.is_main() {
            continue;
        }
        td.completed_lines.clear();
        td.completed_lines
            .extend_from_slice(&td.root_moves[..lines]);
        // Between iterations: the node budget (checked here so that the last iteration
        // completes and every line has an exact score to choose by), or a settled mate.
        if node_budget.is_some_and(|budget| td.total_nodes(shared) >= budget)
            || mate_ends_search(limits, best_score, depth)
        {
            break;
        }
        let best_move = td.root_moves[0].mv;
        stable_iterations = if last_best == Some(best_move) {
            stable_iterations + 1
        } else {
            0
        };
        last_best = Some(best_move);
        if let Some(time) = td.time.as_mut() {
            // Every node of this thread's search lies under some root move.
            time.adapt(&IterationSummary {
                depth,
                stable_iterations,
                score_drop: if previous_best_score > -INFINITY
                    && !is_decisive(previous_best_score)
                    && !is_decisive(best_score)
                {
                    previous_best_score - best_score
                } else {
                    0
                },
                best_move_nodes: td.root_moves[0].nodes as f64 / td.nodes.max(1) as f64,
                root_moves: td.root_moves.len(),
            });
        }
        if !td.pondering && td.time.as_ref().is_some_and(|t| t.soft_limit_reached()) {
            break;
        }
    }

    td.flush_nodes(shared);
    if td.is_main() {
        wait_for_stop(shared, limits);
    }
    add_ponder_move(td, shared);
    search_result(td, shared, best_score, shown.as_deref(), outer_report)
}

/// Checkmate or stalemate at the root: the main thread reports the score, then waits if
/// told to; there is no move.
fn no_legal_move(
    td: &mut ThreadData,
    shared: &SharedState,
    limits: &Limits,
    report: &mut dyn FnMut(Report),
) -> SearchResult {
    let score = if td.board.in_check() {
        mated_in(0)
    } else {
        DRAW
    };
    if td.is_main() {
        report(Report::Iteration(info(
            td,
            shared,
            0,
            1,
            score,
            Bound::Exact,
        )));
        wait_for_stop(shared, limits);
    }
    SearchResult {
        score,
        ..SearchResult::default()
    }
}

/// One iteration: each of the first `lines` lines in turn, by an aspiration search of the
/// root moves not yet taken by a better line. The main thread reports the lines found so
/// far once the last is done, and after each one once the search has run long enough
/// for `currmove`.
fn search_lines(
    td: &mut ThreadData,
    shared: &SharedState,
    depth: i32,
    lines: usize,
    report: &mut dyn FnMut(Report),
) {
    for rm in &mut td.root_moves {
        rm.previous_score = rm.score;
    }
    for pv_index in 0..lines {
        td.pv_index = pv_index;
        td.seldepth = 0;
        aspiration(td, shared, depth, report);
        if td.stopped {
            return;
        }
        // Lines found so far stay ordered by score.
        td.root_moves[..=pv_index].sort_by_key(|rm| std::cmp::Reverse(rm.score));
        if td.is_main() && (pv_index + 1 == lines || td.elapsed() > CURRMOVE_AFTER) {
            for line in 0..=pv_index {
                let rm = &td.root_moves[line];
                report(Report::Iteration(info(
                    td,
                    shared,
                    depth,
                    line + 1,
                    rm.score,
                    Bound::Exact,
                )));
            }
        }
    }
}

/// Whether an iteration at `depth` that scored `best_score` ends the search: a mate
/// found and confirmed by deeper iterations will not change (unless told to search on),
/// and `go mate` ends once the mate it asked for is found.
fn mate_ends_search(limits: &Limits, best_score: i32, depth: i32) -> bool {
    if !is_mate(best_score) {
        return false;
    }
    let confirmed = !limits.infinite && depth >= 2 * (MATE_PLIES_SLACK + (MATE - best_score.abs()));
    let asked_for = limits
        .mate
        .is_some_and(|mate| best_score > 0 && mate_moves(best_score) <= mate);
    confirmed || asked_for
}

/// The search's result: the best line's move, reply, score and depth, shown once more
/// if the last line shown (`shown`) was another. `best_score` is the last completed
/// iteration's.
fn search_result(
    td: &mut ThreadData,
    shared: &SharedState,
    best_score: i32,
    shown: Option<&[Move]>,
    report: &mut dyn FnMut(Report),
) -> SearchResult {
    // The best line's score, and what it is: the stop may have left a root search's fail
    // high or low; a line never scored gets a guess, shown as exact.
    let best = &td.root_moves[0];
    let (searched, bound) = if best.score > -INFINITY {
        (best.score, best.bound)
    } else {
        (fallback_score(td, best_score), Bound::Exact)
    };
    let best = &td.root_moves[0];
    let score = best.reported_score(searched);
    if td.is_main() && shown != Some(best.pv.as_slice()) {
        // An iteration cut short may have found a new best line, re-sorted the lines or
        // left only a bound; a root fail-high leaves a line without a reply until the
        // ponder move is found. Show what is played.
        let line = info(td, shared, td.searched_depth, 1, searched, bound);
        report(Report::Iteration(line));
    }
    let best = &td.root_moves[0];
    SearchResult {
        best: Some(best.mv),
        ponder: best.pv.get(1).copied(),
        score,
        depth: td.completed_depth,
        nodes: td.nodes,
        tbhits: 0,
    }
}

/// The score of a search stopped before its best move had one: the last iteration's,
/// else the static eval (a draw in check, where there is none).
fn fallback_score(td: &mut ThreadData, best_score: i32) -> i32 {
    if best_score > -INFINITY {
        best_score
    } else if td.board.in_check() {
        // Stopped before any move was scored (a tiny node limit).
        DRAW
    } else {
        td.evaluate()
    }
}

/// In infinite and ponder mode the best move may only be sent after `stop` or `ponderhit`.
fn wait_for_stop(shared: &SharedState, limits: &Limits) {
    while (limits.infinite || (limits.ponder && shared.signals.ponder.load(Ordering::Relaxed)))
        && !shared.signals.stop.load(Ordering::Relaxed)
    {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Searches the current line at `depth` inside a window around the previous score,
/// widening on the side that failed until the score falls inside. A stop inside a pass
/// leaves each root move with the score and bound its last search gave it.
fn aspiration(
    td: &mut ThreadData,
    shared: &SharedState,
    depth: i32,
    report: &mut dyn FnMut(Report),
) {
    let mut delta = ASPIRATION_WINDOW();
    let (mut alpha, mut beta) = first_window(&td.root_moves[td.pv_index], depth);
    loop {
        let score = search_root(td, shared, alpha, beta, depth, report);
        // Keep the best line first; moves searched this time rank by their new scores.
        td.root_moves[td.pv_index..]
            .sort_by_key(|rm| std::cmp::Reverse((rm.score, rm.previous_score)));
        if td.stopped {
            return;
        }
        let bound = if score <= alpha {
            // Fail low: the best move may be worse than hoped; widen downwards.
            beta = (alpha + beta) / 2;
            alpha = (score - delta).max(-INFINITY);
            Bound::Upper
        } else if score >= beta {
            beta = (score + delta).min(INFINITY);
            Bound::Lower
        } else {
            return;
        };
        if td.is_main() && td.elapsed() > FAIL_REPORTS_AFTER {
            report(Report::Iteration(info(
                td,
                shared,
                depth,
                td.pv_index + 1,
                score,
                bound,
            )));
        }
        delta += delta * ASPIRATION_GROWTH_PERCENT() / 100;
    }
}

/// The window a line's search at `depth` starts from: ASPIRATION_WINDOW either side of
/// the score of its move in the previous iteration, or the full window before
/// ASPIRATION_DEPTH, after a mate and before the move had a score.
///
/// The previous score, not this iteration's: once an earlier line has been searched, a
/// move that failed low behind it has a score of −∞ (only the order mattered), which
/// left every line but the first without a window.
fn first_window(rm: &RootMove, depth: i32) -> (i32, i32) {
    let previous = rm.previous_score;
    if depth >= ASPIRATION_DEPTH() && !is_decisive(previous) && previous > -INFINITY {
        (
            (previous - ASPIRATION_WINDOW()).max(-INFINITY),
            (previous + ASPIRATION_WINDOW()).min(INFINITY),
        )
    } else {
        (-INFINITY, INFINITY)
    }
}

/// A best line that ends after its first move (a root fail-high that was not searched
/// again, a search stopped early) gets the reply the table holds, if it is legal: the
/// move to ponder on. Not when the move draws by rule: the game ends there, and a line
/// going on past a threefold repetition is one a GUI warns of.
fn add_ponder_move(td: &mut ThreadData, shared: &SharedState) {
    let Some(best) = td.root_moves.first().filter(|rm| rm.pv.len() == 1) else {
        return;
    };
    td.board.make(best.mv);
    let reply = if td.board.is_rule_draw(1) {
        None
    } else {
        shared
            .tt
            .probe(td.board.key(), 1, td.board.pos().halfmoves())
            .filter(|hit| hit.packed_move != 0)
            .and_then(|hit| td.board.unpack(hit.packed_move))
    };
    td.board.unmake();
    if let Some(reply) = reply {
        td.root_moves[0].pv.push(reply);
    }
}

impl RootMove {
    /// The score to report for this move: the tables' verdict when the root is in them,
    /// unless the search has found a real mate (which says more).
    fn reported_score(&self, searched: i32) -> i32 {
        match self.tb_score {
            Some(tb) if !is_mate(searched) => tb,
            _ => searched,
        }
    }
}

pub(crate) fn info(
    td: &ThreadData,
    shared: &SharedState,
    depth: i32,
    multipv: usize,
    score: i32,
    bound: Bound,
) -> SearchInfo {
    let rm = td.root_moves.get(multipv - 1);
    SearchInfo {
        depth,
        seldepth: rm.map_or(0, |rm| rm.seldepth.max(depth as usize)),
        multipv,
        score: rm.map_or(score, |rm| rm.reported_score(score)),
        bound,
        // Helpers stop a few hundred nodes after the main thread: a line reports no more
        // than `go nodes` allowed.
        nodes: td
            .node_limit
            .map_or(td.total_nodes(shared), |n| td.total_nodes(shared).min(n)),
        time: td.elapsed(),
        hashfull: shared.tt.hashfull(),
        tbhits: shared.tb_hits.load(Ordering::Relaxed),
        pv: rm.map_or_else(Vec::new, |rm| rm.pv.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{SearchOptions, Searcher};

    /// A one-thread searcher that has searched the start position to `depth`, `multipv`
    /// lines, ready for a test to run the next iteration's passes by hand (the search that
    /// ended told helpers to stop: those passes must not).
    fn searcher_after(depth: i32, multipv: usize) -> Searcher {
        let mut searcher = Searcher::new(16).unwrap();
        let options = SearchOptions {
            multipv,
            ..SearchOptions::default()
        };
        searcher.search(
            &Board::default(),
            &Limits::depth(depth),
            &options,
            &mut |_| {},
        );
        searcher.shared.helpers_stop.store(false, Ordering::Relaxed);
        searcher
    }

    /// A pass stopped before it scored anything leaves the line with the score of the
    /// pass before, and that score keeps its bound: a fail high stays a lower bound,
    /// although it lies inside the stopped pass's window (which was once read as exact).
    #[test]
    fn a_stop_after_a_fail_high_leaves_a_lower_bound() {
        let depth = ASPIRATION_DEPTH() + 2;
        let mut searcher = searcher_after(depth, 1);
        let td = &mut searcher.threads[0];
        td.pv_index = 0;
        // The other moves unscored, as when they failed low behind the first (else a
        // score of theirs from the last iteration could outrank this pass's).
        for rm in &mut td.root_moves[1..] {
            rm.score = -INFINITY;
        }
        // A window far below the score: the first root move fails high.
        let low = td.root_moves[0].score - 300;
        search_root(td, &searcher.shared, low - 1, low, depth + 1, &mut |_| {});
        let fail_high = td.root_moves[0].score;
        assert!(fail_high >= low);
        let mv = td.root_moves[0].mv;
        assert_eq!(td.root_moves[0].bound, Bound::Lower);
        // The next pass, in a window around that score, stops at its first node.
        td.root_moves[0].previous_score = fail_high;
        td.node_limit = Some(0);
        aspiration(td, &searcher.shared, depth + 1, &mut |_| {});
        assert!(td.stopped);
        let rm = td.root_moves.iter().find(|rm| rm.mv == mv).unwrap();
        assert_eq!((rm.score, rm.bound), (fail_high, Bound::Lower));
    }

    /// After line 1 of an iteration, the moves of lines 2 and 3 start from an aspiration
    /// window around their previous scores as line 1 did, also when line 1's search left
    /// them at −∞ (they failed low behind its move).
    #[test]
    fn every_multipv_line_starts_in_an_aspiration_window() {
        let depth = ASPIRATION_DEPTH() + 2;
        let mut searcher = searcher_after(depth, 3);
        // The next iteration, as `iterate` runs it, up to the end of line 1.
        let td = &mut searcher.threads[0];
        for rm in &mut td.root_moves {
            rm.previous_score = rm.score;
        }
        td.pv_index = 0;
        aspiration(td, &searcher.shared, depth + 1, &mut |_| {});
        assert!(td.root_moves[1..3].iter().any(|rm| rm.score == -INFINITY));
        for line in 1..3 {
            let rm = &td.root_moves[line];
            let previous = rm.previous_score;
            assert_eq!(
                first_window(rm, depth + 1),
                (
                    previous - ASPIRATION_WINDOW(),
                    previous + ASPIRATION_WINDOW()
                ),
                "line {}",
                line + 1
            );
        }
    }
}
