//! The lab's transposition table: two plain hash maps, no replacement, no size limit.
//!
//! Bounds are keyed by (position key, remaining depth), so a search only ever takes a
//! cutoff from a search of the same depth: the value it returns is then exactly what it
//! would have found by searching (values depend only on the position and the depth). Both a
//! lower and an upper bound are kept per entry, as MTD(f) needs (Plaat, Schaeffer, Pijls &
//! de Bruin 1996, "AlphaBetaWithMemory"). The best move is keyed by the position alone, so
//! a shallower search's move orders a deeper one.
//!
//! Mate scores are stored counted from the node (`±(MATE − plies to mate)`) and converted
//! back to plies from the root when read, so an entry is valid at any ply.

use std::collections::HashMap;

use super::{INF, is_mate};

/// What is known about a value: `lower ≤ value ≤ upper`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The value is at least this.
    pub lower: i32,
    /// The value is at most this.
    pub upper: i32,
}

/// A transposition table without replacement: bounds by (position key, depth) and the
/// best move by position key.
#[derive(Clone, Debug)]
pub struct Table<M> {
    bounds: HashMap<(u64, u32), Bounds>,
    moves: HashMap<u64, M>,
}

impl<M> Default for Table<M> {
    fn default() -> Self {
        Table {
            bounds: HashMap::new(),
            moves: HashMap::new(),
        }
    }
}

/// A value found `ply` plies below the root, as stored (mates counted from the node).
fn to_table(value: i32, ply: u32) -> i32 {
    match value {
        v if is_mate(v) && v > 0 => v + ply as i32,
        v if is_mate(v) => v - ply as i32,
        v => v,
    }
}

/// The inverse of [`to_table`].
fn from_table(value: i32, ply: u32) -> i32 {
    match value {
        v if is_mate(v) && v > 0 => v - ply as i32,
        v if is_mate(v) => v + ply as i32,
        v => v,
    }
}

impl<M: Copy> Table<M> {
    /// Forgets everything.
    pub fn clear(&mut self) {
        self.bounds.clear();
        self.moves.clear();
    }

    /// Number of (position, depth) entries.
    pub fn len(&self) -> usize {
        self.bounds.len()
    }

    /// Whether no bounds are stored.
    pub fn is_empty(&self) -> bool {
        self.bounds.is_empty()
    }

    /// The bounds stored for this position searched to `depth`, as seen at `ply`.
    pub fn probe(&self, key: u64, depth: u32, ply: u32) -> Option<Bounds> {
        self.bounds.get(&(key, depth)).map(|b| Bounds {
            lower: from_table(b.lower, ply),
            upper: from_table(b.upper, ply),
        })
    }

    /// A value that settles a search with window (alpha, beta) without searching: a lower
    /// bound at or above beta, an upper bound at or below alpha, or the exact value.
    pub fn cutoff(&self, key: u64, depth: u32, ply: u32, alpha: i32, beta: i32) -> Option<i32> {
        let b = self.probe(key, depth, ply)?;
        if b.lower >= beta {
            Some(b.lower)
        } else if b.upper <= alpha {
            Some(b.upper)
        } else if b.lower == b.upper {
            Some(b.lower)
        } else {
            None
        }
    }

    /// Records the fail-soft result `value` of a search with window (alpha, beta): an upper
    /// bound if it failed low, a lower bound if it failed high, else the exact value. The
    /// new bound is intersected with what was known (all bounds of one entry bound the same
    /// value). `best` is the move that gave `value`, kept if the search did not fail low.
    #[allow(clippy::too_many_arguments, reason = "the fields of one entry")]
    pub fn store(
        &mut self,
        key: u64,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
        value: i32,
        best: Option<M>,
    ) {
        let v = to_table(value, ply);
        let entry = self.bounds.entry((key, depth)).or_insert(Bounds {
            lower: -INF,
            upper: INF,
        });
        if value > alpha {
            entry.lower = entry.lower.max(v);
        }
        if value < beta {
            entry.upper = entry.upper.min(v);
        }
        if let (true, Some(m)) = (value > alpha, best) {
            self.moves.insert(key, m);
        }
    }

    /// The best move last found in this position, at any depth.
    pub fn best_move(&self, key: u64) -> Option<M> {
        self.moves.get(&key).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::super::MATE;
    use super::*;

    #[test]
    fn lab_table_keeps_both_bounds_and_converts_mates() {
        let mut t: Table<u8> = Table::default();
        t.store(7, 3, 0, 10, 20, 25, Some(1)); // fail high: value >= 25
        t.store(7, 3, 0, 30, 40, 28, None); // fail low: value <= 28
        assert_eq!(
            t.probe(7, 3, 0),
            Some(Bounds {
                lower: 25,
                upper: 28
            })
        );
        assert_eq!(t.probe(7, 2, 0), None, "other depths are other entries");
        assert_eq!(t.best_move(7), Some(1));
        assert_eq!(t.cutoff(7, 3, 0, 0, 25), Some(25));
        assert_eq!(t.cutoff(7, 3, 0, 28, 50), Some(28));
        assert_eq!(t.cutoff(7, 3, 0, 25, 28), None);
        // Mate in 3 plies from a node at ply 2 (MATE - 5 at the root) is mate in 3 from
        // the same node reached at ply 4 (MATE - 7).
        t.store(9, 4, 2, -INF, INF, MATE - 5, None);
        assert_eq!(t.cutoff(9, 4, 4, -INF, INF), Some(MATE - 7));
    }
}
