//! The minimal tree: the fewest nodes any search must examine to prove the value.
//!
//! Knuth & Moore (1975) showed that in a uniform tree of branching factor N and depth D,
//! every directional algorithm examines at least N^⌈D/2⌉ + N^⌊D/2⌋ − 1 leaves, and
//! alpha-beta with perfect ordering examines exactly that many ([`knuth_moore_leaves`]).
//!
//! Real trees are not uniform, so [`minimal_tree`] computes the minimal tree of the actual
//! position from its true values, by the recursive definition: to prove that a node is
//! worth exactly v, show that every child is no better than v (each child's value is at
//! least −v from its side: a *cut* proof, one refuting grandchild suffices) and that one
//! child reaches v (an exact proof of that child, the *PV* child). A cut proof of a child
//! needs one grandchild with an *all* proof, and an all proof needs cut proofs of every
//! child. Where several children could serve, the cheapest is taken. In quiescence, a
//! node may stand pat, which proves "at least the static value" with no child at all.
//!
//! It is the lower bound for searches of the tree; searches with a transposition table
//! can go below it, as a graph is smaller than its tree.
//!
//! Finding the cheapest proof costs far more than the proof's size: `s.stats` counts that
//! work (the nodes of the searches for true values, and one leaf for every node a proof
//! considers), so that a node budget bounds it like any search.

use super::algorithms::{alphabeta_ordered, order_moves, quiesce};
use super::table::Bounds;
use super::{Game, INF, Lab, Stats};

/// Knuth–Moore minimal tree leaf count: N^⌈D/2⌉ + N^⌊D/2⌋ − 1.
pub fn knuth_moore_leaves(n: u64, depth: u32) -> u64 {
    n.pow(depth.div_ceil(2)) + n.pow(depth / 2) - 1
}

/// All nodes of the Knuth–Moore minimal tree, root included: its level k is the minimal
/// tree of depth k, so this is the sum of [`knuth_moore_leaves`] over k = 0..=D. In
/// floating point, as chess's N^D soon leaves `u64`.
pub fn knuth_moore_nodes(n: f64, depth: u32) -> f64 {
    (0..=depth as i32)
        .map(|k| n.powi((k + 1) / 2) + n.powi(k / 2) - 1.0)
        .sum()
}

/// All nodes of the uniform tree, root included: 1 + N + … + N^D, what minimax visits.
pub fn uniform_nodes(n: f64, depth: u32) -> f64 {
    (0..=depth as i32).map(|k| n.powi(k)).sum()
}

/// A node as the searches see it: a leaf with its value, or moves to expand (with the
/// stand-pat value in quiescence, where only captures are expanded).
enum Shape<M> {
    Leaf(i32),
    Inner {
        moves: Vec<M>,
        stand_pat: Option<i32>,
    },
}

fn shape<G: Game>(s: &mut Lab<G>, depth: u32, ply: u32) -> Shape<G::Move> {
    s.stats.leaves += 1;
    let moves = s.game.moves();
    if let Some(v) = s.game.outcome(&moves, ply) {
        return Shape::Leaf(v);
    }
    if depth > 0 {
        return Shape::Inner {
            moves,
            stand_pat: None,
        };
    }
    let stand_pat = s.game.evaluate();
    if !s.quiescence {
        return Shape::Leaf(stand_pat);
    }
    let captures: Vec<G::Move> = moves.into_iter().filter(|&m| s.game.is_noisy(m)).collect();
    if captures.is_empty() {
        Shape::Leaf(stand_pat)
    } else {
        Shape::Inner {
            moves: captures,
            stand_pat: Some(stand_pat),
        }
    }
}

/// Makes `m`, runs `f` on the child, takes `m` back.
fn child<G: Game, T>(s: &mut Lab<G>, m: G::Move, f: impl FnOnce(&mut Lab<G>) -> T) -> T {
    s.game.make(m);
    let t = f(s);
    s.game.unmake();
    t
}

/// The true value of the position searched to `depth` and the size of its minimal tree.
/// Sets `s.root_best` to the root's PV move. The true values of children come from an
/// alpha-beta search with the lab's table (`s.enhance` should include `table`), whose
/// nodes are not part of the result. Once `s.over_budget()`, returns a meaningless
/// (0, empty tree).
pub fn minimal_tree<G: Game>(s: &mut Lab<G>, depth: u32) -> (i32, Stats) {
    let (value, size, best) = exact(s, depth, 0).unwrap_or_default();
    s.root_best = best;
    (value, size)
}

/// The true value of the current position (searched to `depth`; quiescence below).
fn true_value<G: Game>(s: &mut Lab<G>, depth: u32, ply: u32) -> i32 {
    if depth == 0 && s.quiescence {
        quiesce(s, ply, -INF, INF)
    } else {
        alphabeta_ordered(s, depth, ply, -INF, INF)
    }
}

/// Value, minimal proof of exactly that value, and the PV move chosen; `None` once over
/// the node budget.
type Exact<M> = Option<(i32, Stats, Option<M>)>;

fn exact<G: Game>(s: &mut Lab<G>, depth: u32, ply: u32) -> Exact<G::Move> {
    let (moves, stand_pat) = match shape(s, depth, ply) {
        Shape::Leaf(v) => return Some((v, Stats::LEAF, None)),
        Shape::Inner { moves, stand_pat } => (moves, stand_pat),
    };
    let d = depth.saturating_sub(1);
    let values: Vec<i32> = moves
        .iter()
        .map(|&m| -child(s, m, |s| true_value(s, d, ply + 1)))
        .collect();
    if s.over_budget() {
        return None;
    }
    let value = values
        .iter()
        .copied()
        .chain(stand_pat)
        .max()
        .expect("an inner node has a child");
    // "No child is better than value": a cut proof of every child. Every child is worth
    // at least −value from its side, so each proof exists unless the budget ran out.
    let mut cuts = Vec::with_capacity(moves.len());
    for &m in &moves {
        cuts.push(child(s, m, |s| at_least(s, d, ply + 1, -value, u64::MAX))?);
    }
    let all_cuts = cuts.iter().fold(Stats::INTERIOR, |a, &c| a + c);
    if stand_pat == Some(value) {
        // Standing pat proves "at least value" for free.
        return Some((value, all_cuts, None));
    }
    // "Some child reaches value": the cheapest PV child's cut proof becomes an exact one.
    let mut best: Option<(Stats, G::Move)> = None;
    for ((&m, &v), &cut) in moves.iter().zip(&values).zip(&cuts) {
        if v == value {
            let (_, exact_size, _) = child(s, m, |s| exact(s, d, ply + 1))?;
            let size = all_cuts + exact_size - cut;
            if best.is_none_or(|(b, _)| size.total() < b.total()) {
                best = Some((size, m));
            }
        }
    }
    let (size, m) = best.expect("some child has the node's value");
    Some((value, size, Some(m)))
}

/// True if the table's bounds on the current position's value, left by the searches for
/// true values, already show that no proof exists: a proof that fails is as costly to
/// search for as one that succeeds.
fn refuted<G: Game>(s: &Lab<G>, depth: u32, ply: u32, impossible: impl Fn(Bounds) -> bool) -> bool {
    s.table
        .probe(s.game.key(), depth, ply)
        .is_some_and(impossible)
}

/// Minimal proof that the value is at least `bound`, if there is one of at most `limit`
/// nodes: a leaf, standing pat, or one child with a proof that it is at most −bound (a
/// cut node). The cheapest child is found by branch and bound: once a proof is known, the
/// others are abandoned as soon as they grow as large. `None` also once over budget.
fn at_least<G: Game>(
    s: &mut Lab<G>,
    depth: u32,
    ply: u32,
    bound: i32,
    limit: u64,
) -> Option<Stats> {
    if limit == 0 || s.over_budget() || refuted(s, depth, ply, |b| b.upper < bound) {
        return None;
    }
    let (moves, stand_pat) = match shape(s, depth, ply) {
        Shape::Leaf(v) => return (v >= bound).then_some(Stats::LEAF),
        Shape::Inner { moves, stand_pat } => (moves, stand_pat),
    };
    if stand_pat.is_some_and(|sp| sp >= bound) {
        return Some(Stats::LEAF);
    }
    let d = depth.saturating_sub(1);
    let mut best: Option<Stats> = None;
    let mut room = limit - 1; // the largest child proof still worth finding
    for m in order_moves(s, moves, ply) {
        if room == 0 {
            break;
        }
        if let Some(p) = child(s, m, |s| at_most(s, d, ply + 1, -bound, room)) {
            room = p.total() - 1;
            best = Some(p);
        }
    }
    best.map(|p| p + Stats::INTERIOR)
}

/// Minimal proof that the value is at most `bound`, if there is one of at most `limit`
/// nodes: every child must be shown to be at least −bound (an all node).
fn at_most<G: Game>(s: &mut Lab<G>, depth: u32, ply: u32, bound: i32, limit: u64) -> Option<Stats> {
    if limit == 0 || s.over_budget() || refuted(s, depth, ply, |b| b.lower > bound) {
        return None;
    }
    let (moves, stand_pat) = match shape(s, depth, ply) {
        Shape::Leaf(v) => return (v <= bound).then_some(Stats::LEAF),
        Shape::Inner { moves, stand_pat } => (moves, stand_pat),
    };
    if stand_pat.is_some_and(|sp| sp > bound) {
        return None;
    }
    let d = depth.saturating_sub(1);
    let mut size = Stats::INTERIOR;
    for m in moves {
        let room = limit - size.total();
        size += child(s, m, |s| at_least(s, d, ply + 1, -bound, room))?;
    }
    Some(size)
}
