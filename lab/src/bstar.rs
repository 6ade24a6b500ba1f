//! B* (Berliner, "The B* tree search algorithm: a best-first proof procedure", 1979).
//!
//! B* does not compute a value: it looks for a proof that one root move is at least as good
//! as every other. Each node of its explicit, best-first tree carries an interval
//! [pessimistic, optimistic] for the player who made the move leading to it. Once the best
//! root move's pessimistic bound reaches every other root move's optimistic bound, the
//! moves are *separated* and the search stops, however deep or shallow the tree is.
//! Otherwise the root chooses a strategy:
//! - PROVEBEST raises the best move's pessimistic bound (chosen when the best move also has
//!   the highest optimistic bound: it has the most room to rise),
//! - DISPROVEREST lowers the optimistic bound of the strongest rival,
//!
//! then descends to a frontier node, expands it and backs the bounds up. Below the root,
//! either strategy follows at every node the child with the highest optimistic bound (the
//! reply that holds the parent's bound where it is).
//!
//! Bounds of a new node come from two shallow alpha-beta searches of the position, to the
//! probe depth and one ply deeper (odd and even depths err on opposite sides), widened by
//! the game's margin: [min − margin, max + margin]. A finished game is an exact interval.
//! Interior intervals are backed up in negamax form: a node's pessimistic bound is minus
//! the largest optimistic bound among its children, its optimistic bound minus their
//! largest pessimistic bound. The probe searches count towards a node budget; when it runs
//! out, B* plays the move with the highest pessimistic bound.

use super::algorithms::alphabeta_ordered;
use std::cmp::Reverse;

use super::{Game, INF, Lab};

/// How a B* search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Report {
    /// True if it stopped because the best move separated from the others, false if the
    /// node budget ran out first.
    pub separated: bool,
    /// Frontier nodes expanded (the root included).
    pub expansions: u64,
    /// The chosen move's pessimistic bound ...
    pub lower: i32,
    /// ... and its optimistic bound.
    pub upper: i32,
    /// The highest optimistic bound among the other moves (None with a single move).
    pub rival_upper: Option<i32>,
}

/// A node of the B* tree.
struct Node<M> {
    /// The move leading here.
    mv: M,
    /// Bounds for the player who made `mv`.
    lower: i32,
    upper: i32,
    children: Vec<usize>,
}

impl<M> Node<M> {
    fn is_open(&self) -> bool {
        self.lower < self.upper
    }
}

/// Nodes a B* search may use by default.
pub const DEFAULT_BUDGET: u64 = 500_000;

/// Runs B* from the root of `s.game`. Returns the chosen move's pessimistic bound (its
/// value as far as B* proved it) and the report; the move is left in `s.root_best`.
pub fn bstar<G: Game>(s: &mut Lab<G>, probe: u32, budget: u64) -> (i32, Report) {
    let mut tree: Vec<Node<G::Move>> = Vec::new();
    let moves = s.game.moves();
    if let Some(v) = s.game.outcome(&moves, 0) {
        s.stats.leaves += 1;
        return (
            v,
            Report {
                separated: true,
                expansions: 0,
                lower: v,
                upper: v,
                rival_upper: None,
            },
        );
    }
    let root = expand(s, &mut tree, moves, probe, 1);
    let mut expansions = 1;
    loop {
        let best = *root
            .iter()
            .max_by_key(|&&i| (tree[i].lower, tree[i].upper, Reverse(i)))
            .expect("the root has moves");
        let rival = root
            .iter()
            .copied()
            .filter(|&i| i != best)
            .max_by_key(|&i| (tree[i].upper, Reverse(i)));
        let separated = rival.is_none_or(|r| tree[best].lower >= tree[r].upper);
        if separated || s.stats.total() >= budget {
            s.root_best = Some(tree[best].mv);
            let report = Report {
                separated,
                expansions,
                lower: tree[best].lower,
                upper: tree[best].upper,
                rival_upper: rival.map(|r| tree[r].upper),
            };
            return (tree[best].lower, report);
        }
        let rival = rival.expect("not separated, so there is a rival");
        // PROVEBEST if the best move also has the highest optimistic bound, else
        // DISPROVEREST on the rival. (Whichever is chosen is open: it overlaps the other.)
        let target = if tree[best].upper >= tree[rival].upper {
            best
        } else {
            rival
        };
        // Descend to a frontier node along the children with the highest optimistic bound.
        let mut path = vec![target];
        s.game.make(tree[target].mv);
        while !tree[*path.last().unwrap()].children.is_empty() {
            let node = *path.last().unwrap();
            let next = tree[node]
                .children
                .iter()
                .copied()
                .filter(|&c| tree[c].is_open())
                .max_by_key(|&c| (tree[c].upper, Reverse(c)))
                .expect("an open node has an open child");
            s.game.make(tree[next].mv);
            path.push(next);
        }
        let frontier = *path.last().unwrap();
        let moves = s.game.moves();
        let children = expand(s, &mut tree, moves, probe, path.len() as u32 + 1);
        tree[frontier].children = children;
        expansions += 1;
        // Back the intervals up to the root move, taking the moves back on the way.
        for &node in path.iter().rev() {
            let kids = &tree[node].children;
            let lower = -kids.iter().map(|&c| tree[c].upper).max().unwrap();
            let upper = -kids.iter().map(|&c| tree[c].lower).max().unwrap();
            tree[node].lower = lower;
            tree[node].upper = upper;
            s.game.unmake();
        }
    }
}

/// Creates the children of the current position (it has `moves`, at least one), each with
/// its interval from probe searches, and returns their indices.
fn expand<G: Game>(
    s: &mut Lab<G>,
    tree: &mut Vec<Node<G::Move>>,
    moves: Vec<G::Move>,
    probe: u32,
    child_ply: u32,
) -> Vec<usize> {
    s.stats.interior += 1;
    let margin = s.game.bstar_margin();
    let mut children = Vec::with_capacity(moves.len());
    for m in moves {
        s.game.make(m);
        let replies = s.game.moves();
        let (lower, upper) = match s.game.outcome(&replies, child_ply) {
            Some(v) => {
                s.stats.leaves += 1;
                (-v, -v)
            }
            None => {
                let a = -alphabeta_ordered(s, probe, child_ply, -INF, INF);
                let b = -alphabeta_ordered(s, probe + 1, child_ply, -INF, INF);
                (a.min(b) - margin, a.max(b) + margin)
            }
        };
        s.game.unmake();
        children.push(tree.len());
        tree.push(Node {
            mv: m,
            lower,
            upper,
            children: Vec::new(),
        });
    }
    children
}
