//! Uniform synthetic game trees: every interior node has exactly N children, every leaf is
//! D plies below the root, and a seed determines all values, so the textbook theorems can
//! be checked exactly and fast.
//!
//! Values follow the "incremental" model (Fuller, Gaschnig & Gillogly 1973): each move
//! adds a pseudo-random increment in [−SPREAD, SPREAD] (a hash of the seed and the path)
//! to a running score, and a node's static value is the running score from the side to
//! move. A leaf's value is its static value; an interior node's static value is a fair
//! estimate of its subtree, so shallow searches and static ordering mean something.

use super::{Game, INF};

/// Largest increment of one move.
pub const SPREAD: i32 = 100;

#[derive(Clone, Copy, Debug)]
struct Node {
    key: u64,
    /// Sum of increments along the path, from the root player's side.
    score: i32,
}

/// A uniform synthetic tree: every node has the same number of children, and leaf values
/// are sums of pseudo-random increments along the path, fixed by a seed.
#[derive(Clone, Debug)]
pub struct Synthetic {
    branching: u32,
    depth: u32,
    /// Generate moves best-first (by their true minimax value) instead of 0, 1, …, N − 1.
    perfect: bool,
    /// Knuth and Moore's worst case instead of random increments ([`Synthetic::pessimal`]).
    pessimal: bool,
    path: Vec<Node>,
}

/// SplitMix64's finaliser: a good 64-bit mix.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

impl Synthetic {
    /// A tree with `branching` children per node and leaves `depth` plies down.
    pub fn new(branching: u32, depth: u32, seed: u64) -> Self {
        Synthetic {
            branching,
            depth,
            perfect: false,
            pessimal: false,
            path: vec![Node {
                key: mix(seed),
                score: 0,
            }],
        }
    }

    /// The same tree with children generated best-first: perfect move ordering.
    pub fn perfectly_ordered(mut self) -> Self {
        self.perfect = true;
        self
    }

    /// The tree on which alpha-beta cuts nothing, of every node's children in the
    /// generator's order: move m at ply k gains its mover m · N^(D−1−k), more than all the
    /// moves below it can change, so every child is better for the mover than the ones
    /// searched before it and every value of its subtree lies beyond the bounds its
    /// ancestors have proved (Knuth & Moore's worst case). `None` where N^D would not fit
    /// the lab's values.
    pub fn pessimal(branching: u32, depth: u32) -> Option<Self> {
        i32::try_from(u64::from(branching).checked_pow(depth)?)
            .ok()
            .filter(|&leaves| leaves < INF)?;
        Some(Synthetic {
            pessimal: true,
            ..Synthetic::new(branching, depth, 0)
        })
    }

    /// Children per node.
    pub fn branching(&self) -> u32 {
        self.branching
    }

    /// Plies from the root to the leaves.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    fn ply(&self) -> u32 {
        self.path.len() as u32 - 1
    }

    fn at_leaf(&self) -> bool {
        self.ply() == self.depth
    }

    /// The exact negamax value of the current node's subtree down to the leaves.
    pub fn true_value(&mut self) -> i32 {
        if self.at_leaf() {
            return self.evaluate();
        }
        let mut best = i32::MIN;
        for m in 0..self.branching {
            self.make(m);
            best = best.max(-self.true_value());
            self.unmake();
        }
        best
    }
}

impl Game for Synthetic {
    type Move = u32;

    fn moves(&self) -> Vec<u32> {
        if self.at_leaf() {
            return Vec::new();
        }
        let mut moves: Vec<u32> = (0..self.branching).collect();
        if self.perfect {
            let mut tree = self.clone();
            tree.perfect = false;
            moves.sort_by_cached_key(|&m| {
                tree.make(m);
                let v = tree.true_value();
                tree.unmake();
                v // the child's value from its side: smallest is best for us
            });
        }
        moves
    }

    fn make(&mut self, m: u32) {
        let top = *self.path.last().expect("the root is always there");
        let key = mix(top.key ^ mix(u64::from(m) + 1));
        let increment = if self.pessimal {
            // In the mover's favour: up for the root's side, down for the other.
            let gain = m as i32 * (self.branching as i32).pow(self.depth - 1 - self.ply());
            if self.ply().is_multiple_of(2) {
                gain
            } else {
                -gain
            }
        } else {
            (key % (2 * SPREAD as u64 + 1)) as i32 - SPREAD
        };
        self.path.push(Node {
            key,
            score: top.score + increment,
        });
    }

    fn unmake(&mut self) {
        assert!(self.path.len() > 1, "unmake at the root");
        self.path.pop();
    }

    fn outcome(&self, _moves: &[u32], _ply: u32) -> Option<i32> {
        self.at_leaf().then(|| self.evaluate())
    }

    fn evaluate(&self) -> i32 {
        let score = self.path.last().expect("the root is always there").score;
        if self.ply().is_multiple_of(2) {
            score
        } else {
            -score
        }
    }

    fn key(&self) -> u64 {
        self.path.last().expect("the root is always there").key
    }

    fn order_score(&mut self, m: u32) -> i32 {
        self.make(m);
        let v = -self.evaluate();
        self.unmake();
        v
    }

    fn move_name(&self, m: u32) -> String {
        format!("#{m}")
    }

    fn aspiration_delta(&self) -> i32 {
        SPREAD / 4
    }

    fn bstar_margin(&self) -> i32 {
        SPREAD / 5
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lab_synthetic_trees_are_deterministic_and_uniform() {
        let mut a = Synthetic::new(3, 4, 7);
        let mut b = Synthetic::new(3, 4, 7);
        assert_eq!(a.true_value(), b.true_value());
        assert_ne!(a.key(), Synthetic::new(3, 4, 8).key());
        for m in [2, 0, 1, 1] {
            assert_eq!(a.moves(), vec![0, 1, 2]);
            a.make(m);
        }
        assert!(a.moves().is_empty());
        assert_eq!(a.outcome(&[], 4), Some(a.evaluate()));
    }

    #[test]
    fn lab_perfect_order_puts_the_best_child_first() {
        let mut tree = Synthetic::new(4, 5, 11).perfectly_ordered();
        let value = tree.true_value();
        let first = tree.moves()[0];
        tree.make(first);
        assert_eq!(-tree.true_value(), value);
    }
}
