//! The depth-first algorithms, each a short function in negamax form.
//!
//! Conventions shared by all of them: `depth` is the remaining depth in plies, `ply` the
//! distance from the root; values are from the side to move; a search records the move
//! that gave the best value at the root in `s.root_best`. Where the depth runs out,
//! [`horizon`] returns the static value (or a quiescence search when it is on).
//!
//! References: Knuth & Moore, "An analysis of alpha-beta pruning" (1975) for negamax,
//! fail-hard and fail-soft alpha-beta and the minimal tree; Marsland, "A review of
//! game-tree pruning" (1986) for ordering, killers, history, PVS and aspiration windows;
//! Schaeffer, "The history heuristic" (1989); Plaat, Schaeffer, Pijls & de Bruin,
//! "Best-first fixed-depth minimax algorithms" (1996) for MTD(f) and "Exploiting graph
//! properties of game trees" (1996) for enhanced transposition cutoffs.

use std::cmp::Reverse;
use std::ops::ControlFlow;

use super::{Game, INF, Lab};

// ---------------------------------------------------------------------------------------
// The horizon: static evaluation or quiescence search.
// ---------------------------------------------------------------------------------------

/// The value where the depth runs out: the static value, or a quiescence search when it
/// is on.
pub fn horizon<G: Game>(s: &mut Lab<G>, ply: u32, alpha: i32, beta: i32) -> i32 {
    if s.over_budget() {
        return 0;
    }
    if s.quiescence {
        return quiesce(s, ply, alpha, beta);
    }
    let moves = s.game.moves();
    s.stats.leaves += 1;
    s.game
        .outcome(&moves, ply)
        .unwrap_or_else(|| s.game.evaluate())
}

/// What every depth-first search does first: unwind with 0 once the budget is spent,
/// hand over to [`horizon`] where the depth runs out, and score a finished game as a leaf
/// (each a `Break` with the node's value); else `Continue` with the moves to search.
fn expand<G: Game>(
    s: &mut Lab<G>,
    depth: u32,
    ply: u32,
    alpha: i32,
    beta: i32,
) -> ControlFlow<i32, Vec<G::Move>> {
    if s.over_budget() {
        return ControlFlow::Break(0);
    }
    if depth == 0 {
        return ControlFlow::Break(horizon(s, ply, alpha, beta));
    }
    let moves = s.game.moves();
    if let Some(v) = s.game.outcome(&moves, ply) {
        s.stats.leaves += 1;
        return ControlFlow::Break(v);
    }
    ControlFlow::Continue(moves)
}

/// Quiescence search, fail-soft: the side to move may stand pat on the static value or try
/// a capture; captures are searched until none is left. Apart from alpha-beta's own
/// cutoffs nothing is pruned (no delta or SEE pruning), so the value does not depend on the
/// window it is searched with beyond the fail-soft bound theorem. Captures are always
/// tried in the static order (MVV-LVA, losing captures last), in every row: quiescence is
/// part of the horizon's value, not of what the rows compare, and unordered capture
/// searches explode in tactical positions.
pub fn quiesce<G: Game>(s: &mut Lab<G>, ply: u32, mut alpha: i32, beta: i32) -> i32 {
    if s.over_budget() {
        return 0;
    }
    let moves = s.game.moves();
    if let Some(v) = s.game.outcome(&moves, ply) {
        s.stats.leaves += 1;
        return v;
    }
    let stand_pat = s.game.evaluate();
    let mut captures: Vec<G::Move> = moves.into_iter().filter(|&m| s.game.is_noisy(m)).collect();
    if stand_pat >= beta || captures.is_empty() {
        s.stats.leaves += 1;
        return stand_pat;
    }
    s.stats.interior += 1;
    captures.sort_by_cached_key(|&m| Reverse(s.game.order_score(m)));
    let mut best = stand_pat;
    alpha = alpha.max(stand_pat);
    for m in captures {
        s.game.make(m);
        let v = -quiesce(s, ply + 1, -beta, -alpha);
        s.game.unmake();
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

// ---------------------------------------------------------------------------------------
// Minimax and alpha-beta.
// ---------------------------------------------------------------------------------------

/// Minimax in negamax form: a position is worth the largest of its children's values,
/// negated. Every node of the tree is visited: the reference value and cost. With
/// quiescence on, each horizon node's value is its quiescence value, searched with the
/// full window (an exhaustive capture tree, without alpha-beta, would explode).
pub fn minimax<G: Game>(s: &mut Lab<G>, depth: u32, ply: u32) -> i32 {
    let moves = match expand(s, depth, ply, -INF, INF) {
        ControlFlow::Continue(moves) => moves,
        ControlFlow::Break(value) => return value,
    };
    s.stats.interior += 1;
    let mut best = -INF;
    for m in moves {
        s.game.make(m);
        let v = -minimax(s, depth - 1, ply + 1);
        s.game.unmake();
        if v > best {
            best = v;
            if ply == 0 {
                s.root_best = Some(m);
            }
        }
    }
    best
}

/// Alpha-beta, fail-hard (Knuth & Moore's F2), in the generator's order. The window
/// (alpha, beta) holds the values that can still matter: alpha is what the side to move is
/// already sure of, beta what the opponent will allow. A child worth beta or more refutes
/// the position (a cutoff: its remaining moves are never searched), and the result is
/// clamped to the window.
pub fn alphabeta<G: Game>(s: &mut Lab<G>, depth: u32, ply: u32, mut alpha: i32, beta: i32) -> i32 {
    let moves = match expand(s, depth, ply, alpha, beta) {
        ControlFlow::Continue(moves) => moves,
        ControlFlow::Break(value) => return value,
    };
    s.stats.interior += 1;
    for m in moves {
        s.game.make(m);
        let v = -alphabeta(s, depth - 1, ply + 1, -beta, -alpha);
        s.game.unmake();
        if v >= beta {
            return beta;
        }
        if v > alpha {
            alpha = v;
            if ply == 0 {
                s.root_best = Some(m);
            }
        }
    }
    alpha
}

/// Alpha-beta, fail-soft (Fishburn 1983): the same cutoffs, but the best value found is
/// returned even outside the window. For a window (alpha, beta) and true value m, the
/// result v satisfies: v ≤ alpha ⇒ m ≤ v; alpha < v < beta ⇒ v = m; v ≥ beta ⇒ m ≥ v.
pub fn alphabeta_failsoft<G: Game>(
    s: &mut Lab<G>,
    depth: u32,
    ply: u32,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    let moves = match expand(s, depth, ply, alpha, beta) {
        ControlFlow::Continue(moves) => moves,
        ControlFlow::Break(value) => return value,
    };
    s.stats.interior += 1;
    let mut best = -INF;
    for m in moves {
        s.game.make(m);
        let v = -alphabeta_failsoft(s, depth - 1, ply + 1, -beta, -alpha);
        s.game.unmake();
        if v > best {
            best = v;
            if ply == 0 {
                s.root_best = Some(m);
            }
        }
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

// ---------------------------------------------------------------------------------------
// Move ordering: the cheaper the refutation is found, the more is cut.
// ---------------------------------------------------------------------------------------

/// Orders `moves` best-first by what `s.enhance` allows: the table's move, then the game's
/// static order (chess: winning captures by MVV-LVA, quiet moves, losing captures), with
/// quiet moves raised by killers and history. The sort is stable: ties keep the generator's
/// order.
pub(super) fn order_moves<G: Game>(s: &mut Lab<G>, moves: Vec<G::Move>, ply: u32) -> Vec<G::Move> {
    if !s.enhance.ordering {
        return moves;
    }
    const TABLE_MOVE: i32 = i32::MAX;
    const KILLER: [i32; 2] = [1_000_000, 900_000];
    const HISTORY_MAX: i32 = 800_000;
    let table_move = if s.enhance.table {
        s.table.best_move(s.game.key())
    } else {
        None
    };
    let killers = s.killers(ply);
    let mut scored: Vec<(i32, G::Move)> = moves
        .into_iter()
        .map(|m| {
            let mut score = s.game.order_score(m);
            if Some(m) == table_move {
                score = TABLE_MOVE;
            } else if s.game.is_quiet(m) {
                if let Some(k) = killers.iter().position(|&k| k == Some(m)) {
                    score += KILLER[k];
                } else {
                    score += s.history(m).min(HISTORY_MAX);
                }
            }
            (score, m)
        })
        .collect();
    scored.sort_by_key(|&(score, _)| Reverse(score));
    scored.into_iter().map(|(_, m)| m).collect()
}

/// Fail-soft alpha-beta with the enhancements `s.enhance` turns on: static ordering,
/// killers, history and a transposition table (the last also makes it Plaat et al.'s
/// "AlphaBetaWithMemory", the engine of MTD(f)). The rows `alphabeta-ordered`, `+killers`,
/// `+history` and `+tt` are this function with one more enhancement each.
pub fn alphabeta_ordered<G: Game>(
    s: &mut Lab<G>,
    depth: u32,
    ply: u32,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    let moves = match expand(s, depth, ply, alpha, beta) {
        ControlFlow::Continue(moves) => moves,
        ControlFlow::Break(value) => return value,
    };
    let key = s.game.key();
    // A bound from an earlier search of this position to this depth may settle it.
    if s.enhance.table
        && ply > 0
        && let Some(v) = s.table.cutoff(key, depth, ply, alpha, beta)
    {
        s.stats.leaves += 1;
        return v;
    }
    s.stats.interior += 1;
    let moves = order_moves(s, moves, ply);
    let alpha0 = alpha;
    let mut best = -INF;
    let mut best_move = None;
    for m in moves {
        s.game.make(m);
        let v = -alphabeta_ordered(s, depth - 1, ply + 1, -beta, -alpha);
        s.game.unmake();
        if v > best {
            best = v;
            best_move = Some(m);
            if ply == 0 {
                s.root_best = Some(m);
            }
        }
        alpha = alpha.max(v);
        if alpha >= beta {
            s.reward(m, depth, ply);
            break;
        }
    }
    if s.enhance.table {
        s.table
            .store(key, depth, ply, alpha0, beta, best, best_move);
    }
    best
}

// ---------------------------------------------------------------------------------------
// Principal variation search, aspiration windows, MTD(f), ETC.
// ---------------------------------------------------------------------------------------

/// Principal variation search (Marsland & Campbell 1982; NegaScout, Reinefeld 1983), fail
/// soft, with all the ordering above. The first move is searched with the full window;
/// every later move only has to be shown no better than alpha, which a null window
/// (alpha, alpha + 1) tests cheaply. If the test fails high the move is better after all
/// and is searched again with the full window. With `s.enhance.etc`, enhanced transposition
/// cutoffs are tried before any move is searched.
pub fn pvs<G: Game>(s: &mut Lab<G>, depth: u32, ply: u32, mut alpha: i32, beta: i32) -> i32 {
    let moves = match expand(s, depth, ply, alpha, beta) {
        ControlFlow::Continue(moves) => moves,
        ControlFlow::Break(value) => return value,
    };
    let key = s.game.key();
    if s.enhance.table && ply > 0 {
        if let Some(v) = s.table.cutoff(key, depth, ply, alpha, beta) {
            s.stats.leaves += 1;
            return v;
        }
        if s.enhance.etc
            && depth >= 2
            && let Some(v) = enhanced_transposition_cutoff(s, &moves, depth, ply, beta)
        {
            s.stats.leaves += 1;
            s.table.store(key, depth, ply, alpha, beta, v, None);
            return v;
        }
    }
    s.stats.interior += 1;
    let moves = order_moves(s, moves, ply);
    let alpha0 = alpha;
    let mut best = -INF;
    let mut best_move = None;
    for (i, m) in moves.into_iter().enumerate() {
        s.game.make(m);
        let mut v;
        if i == 0 {
            v = -pvs(s, depth - 1, ply + 1, -beta, -alpha);
        } else {
            v = -pvs(s, depth - 1, ply + 1, -alpha - 1, -alpha);
            if v > alpha && v < beta {
                v = -pvs(s, depth - 1, ply + 1, -beta, -alpha);
            }
        }
        s.game.unmake();
        if v > best {
            best = v;
            best_move = Some(m);
            if ply == 0 {
                s.root_best = Some(m);
            }
        }
        alpha = alpha.max(v);
        if alpha >= beta {
            s.reward(m, depth, ply);
            break;
        }
    }
    if s.enhance.table {
        s.table
            .store(key, depth, ply, alpha0, beta, best, best_move);
    }
    best
}

/// Enhanced transposition cutoffs (Plaat et al. 1996): before searching any child, look
/// every child up in the table. A child whose stored upper bound u (from its side) makes
/// −u ≥ beta refutes this position at once, though the ordering might have searched a
/// whole subtree before reaching it.
fn enhanced_transposition_cutoff<G: Game>(
    s: &mut Lab<G>,
    moves: &[G::Move],
    depth: u32,
    ply: u32,
    beta: i32,
) -> Option<i32> {
    for &m in moves {
        s.game.make(m);
        let bounds = s.table.probe(s.game.key(), depth - 1, ply + 1);
        s.game.unmake();
        if let Some(b) = bounds
            && -b.upper >= beta
        {
            return Some(-b.upper);
        }
    }
    None
}

/// Iterative deepening with aspiration windows: each iteration searches the root with PVS
/// in a narrow window around the previous iteration's value (the first with the full
/// window). If the value falls outside, the window is opened on that side and the
/// iteration searched again. Returns the value and the number of re-searches.
pub fn aspiration<G: Game>(s: &mut Lab<G>, depth: u32) -> (i32, u32) {
    let delta = s.game.aspiration_delta();
    let mut value = 0;
    let mut re_searches = 0;
    for d in 1..=depth {
        let (mut alpha, mut beta) = if d == 1 {
            (-INF, INF)
        } else {
            (value - delta, value + delta)
        };
        loop {
            value = pvs(s, d, 0, alpha, beta);
            if value <= alpha {
                alpha = -INF;
            } else if value >= beta {
                beta = INF;
            } else {
                break;
            }
            re_searches += 1;
        }
    }
    (value, re_searches)
}

/// MTD(f) (Plaat, Schaeffer, Pijls & de Bruin 1996): the value is found by null-window
/// searches only. Each pass asks "is the value at least beta?" with the window
/// (beta − 1, beta); a fail-soft answer g is a new upper bound (g < beta) or lower bound
/// (g ≥ beta), and the next pass tests at g. The table keeps the passes from re-searching
/// what they already proved. Returns the value and the number of passes.
pub fn mtdf<G: Game>(s: &mut Lab<G>, first_guess: i32, depth: u32) -> (i32, u32) {
    let mut g = first_guess;
    let (mut lower, mut upper) = (-INF, INF);
    let mut passes = 0;
    let mut best = None;
    while lower < upper {
        let beta = if g == lower { g + 1 } else { g };
        g = alphabeta_ordered(s, depth, 0, beta - 1, beta);
        passes += 1;
        if g < beta {
            upper = g;
        } else {
            lower = g;
            // Only a pass that fails high has found a move worth at least the value.
            best = s.root_best;
        }
    }
    s.root_best = best;
    (g, passes)
}

/// MTD(f) in iterative deepening: each iteration's first guess is the previous value (0
/// for the first). Returns the value and the passes over all iterations.
pub fn mtdf_deepening<G: Game>(s: &mut Lab<G>, depth: u32) -> (i32, u32) {
    let mut value = 0;
    let mut passes = 0;
    for d in 1..=depth {
        let (v, p) = mtdf(s, value, d);
        value = v;
        passes += p;
    }
    (value, passes)
}
