//! The transposition table: a lock-free hash table shared by all search threads.
//!
//! Each entry is two `AtomicU64`s: the packed data and `key ^ data`. A reader accepts an
//! entry only if the XOR of the two words gives back its key, so an entry torn by two
//! threads writing at once reads as a miss, never as someone else's data (the "lockless
//! hashing" idea of Hyatt and Mann). Entries live in buckets of four that share a cache
//! line; a new entry replaces the bucket's least valuable one (shallow and old first).

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::search::score::{MATE_BOUND, is_mate};

/// How an entry's score relates to the true value of its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is the exact value (a PV node).
    Exact,
    /// The true value is at least the score (a fail-high).
    Lower,
    /// The true value is at most the score (a fail-low).
    Upper,
}

impl Bound {
    /// The bound a fail-soft search proves with `best` against its window: a fail high
    /// is a lower bound, a score that raised α inside the window exact, else an upper bound.
    pub fn of_result(best: i32, beta: i32, raised_alpha: bool) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if raised_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// What a probe returns.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    /// The best or refutation move, packed as by `Board::pack` (0 for none).
    pub packed_move: u16,
    /// Score adjusted to the probing node's distance from the root.
    pub score: i32,
    pub static_eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

const BUCKET_SIZE: usize = 4;
/// Ages wrap in six bits; a search increments the generation once.
const GENERATION_MASK: u8 = 0x3f;
/// A replacement prefers to keep entries deeper than the candidate by this much per age step.
const AGE_WEIGHT: i32 = 8;

#[derive(Default)]
struct Entry {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    entries: [Entry; BUCKET_SIZE],
}

/// The unpacked form of an entry's 64-bit data word.
#[derive(Clone, Copy)]
struct Data {
    packed_move: u16,
    score: i16,
    static_eval: i16,
    depth: u8,
    generation: u8,
    bound: Bound,
}

impl Data {
    fn pack(self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        u64::from(self.packed_move)
            | (u64::from(self.score as u16) << 16)
            | (u64::from(self.static_eval as u16) << 32)
            | (u64::from(self.depth) << 48)
            | (u64::from(self.generation & GENERATION_MASK) << 56)
            | (bound << 62)
    }

    /// `None` for an empty slot (bound bits zero).
    fn unpack(word: u64) -> Option<Data> {
        let bound = match word >> 62 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        Some(Data {
            packed_move: word as u16,
            score: (word >> 16) as u16 as i16,
            static_eval: (word >> 32) as u16 as i16,
            depth: (word >> 48) as u8,
            generation: ((word >> 56) as u8) & GENERATION_MASK,
            bound,
        })
    }
}

/// Depths are stored offset so that quiescence entries (depth ≤ 0) fit in a `u8`.
const DEPTH_OFFSET: i32 = 8;

/// The shared transposition table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: std::sync::atomic::AtomicU8,
}

/// Mate scores are stored relative to the node (distance to mate from here), so the same
/// entry is right wherever in the tree the position is met again; a score read back is
/// made relative to the root again.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if is_mate(score) {
        if score > 0 {
            score - ply as i32
        } else {
            score + ply as i32
        }
    } else {
        score
    }
}

impl TranspositionTable {
    /// A table of `mb` mebibytes, or an error if the memory cannot be had.
    pub fn new(mb: usize) -> Result<Self, String> {
        let count = Self::bucket_count(mb);
        Ok(TranspositionTable {
            buckets: Self::allocate(count)?,
            generation: std::sync::atomic::AtomicU8::new(0),
        })
    }

    /// A table with exactly `buckets` buckets (tests use tiny tables to force collisions).
    pub fn with_buckets(buckets: usize) -> Self {
        TranspositionTable {
            buckets: Self::allocate(buckets.max(1)).expect("small table"),
            generation: std::sync::atomic::AtomicU8::new(0),
        }
    }

    fn bucket_count(mb: usize) -> usize {
        (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(1)
    }

    fn allocate(count: usize) -> Result<Vec<Bucket>, String> {
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(count)
            .map_err(|e| format!("cannot allocate {count} hash buckets: {e}"))?;
        buckets.resize_with(count, Bucket::default);
        Ok(buckets)
    }

    /// Resizes to `mb` mebibytes, keeping the old table if the new one cannot be allocated.
    pub fn resize(&mut self, mb: usize) -> Result<(), String> {
        let count = Self::bucket_count(mb);
        if count != self.buckets.len() {
            // Release the old table first so that both need not fit in memory at once;
            // if the new one fails, rebuild the old size.
            let old = self.buckets.len();
            self.buckets = Vec::new();
            match Self::allocate(count) {
                Ok(b) => self.buckets = b,
                Err(e) => {
                    self.buckets = Self::allocate(old)?;
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// Size in mebibytes.
    pub fn size_mb(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Empties the table, in parallel for large tables.
    pub fn clear(&self) {
        const PARALLEL_FROM: usize = 1 << 16;
        let wipe = |b: &Bucket| {
            for e in &b.entries {
                e.key_xor_data.store(0, Ordering::Relaxed);
                e.data.store(0, Ordering::Relaxed);
            }
        };
        if self.buckets.len() >= PARALLEL_FROM {
            self.buckets.par_iter().for_each(wipe);
        } else {
            self.buckets.iter().for_each(wipe);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries from earlier searches age.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation
            .store(g.wrapping_add(1) & GENERATION_MASK, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto the table without a modulo.
        let idx = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[idx]
    }

    /// Looks up `key`; `ply` is the node's distance from the root (for mate scores).
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        for e in &self.bucket(key).entries {
            let data = e.data.load(Ordering::Relaxed);
            if e.key_xor_data.load(Ordering::Relaxed) ^ data == key
                && let Some(d) = Data::unpack(data)
            {
                return Some(TtHit {
                    packed_move: d.packed_move,
                    score: score_from_tt(i32::from(d.score), ply),
                    static_eval: i32::from(d.static_eval),
                    depth: i32::from(d.depth) - DEPTH_OFFSET,
                    bound: d.bound,
                });
            }
        }
        None
    }

    /// Stores a search result. A missing move keeps the move already stored for the key.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        packed_move: u16,
        score: i32,
        static_eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let age = |d: &Data| i32::from(generation.wrapping_sub(d.generation) & GENERATION_MASK);

        // Choose the slot: the same key if present, else an empty slot, else the entry
        // with the least depth, counting each generation of age as AGE_WEIGHT plies.
        let mut slot = 0;
        let mut worst = i32::MAX;
        let mut old: Option<Data> = None;
        for (i, e) in bucket.entries.iter().enumerate() {
            let data = e.data.load(Ordering::Relaxed);
            let Some(d) = Data::unpack(data) else {
                slot = i;
                old = None;
                break;
            };
            if e.key_xor_data.load(Ordering::Relaxed) ^ data == key {
                slot = i;
                old = Some(d);
                break;
            }
            let value = i32::from(d.depth) - AGE_WEIGHT * age(&d);
            if value < worst {
                worst = value;
                slot = i;
            }
        }

        let stored_depth = (depth + DEPTH_OFFSET).clamp(0, 255);
        let mut packed_move = packed_move;
        if let Some(old) = old {
            if packed_move == 0 {
                packed_move = old.packed_move;
            }
            // Keep a deeper entry of this search about the same position unless the new
            // one is exact.
            if bound != Bound::Exact && age(&old) == 0 && i32::from(old.depth) > stored_depth + 2 {
                return;
            }
        }
        let data = Data {
            packed_move,
            score: score_to_tt(score, ply) as i16,
            static_eval: static_eval as i16,
            depth: stored_depth as u8,
            generation,
            bound,
        }
        .pack();
        let e = &bucket.entries[slot];
        e.data.store(data, Ordering::Relaxed);
        e.key_xor_data.store(key ^ data, Ordering::Relaxed);
    }

    /// Permill of sampled entries written during the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> usize {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.buckets.len().min(1000 / BUCKET_SIZE);
        let used: usize = self.buckets[..sample]
            .iter()
            .flat_map(|b| &b.entries)
            .filter(|e| {
                Data::unpack(e.data.load(Ordering::Relaxed))
                    .is_some_and(|d| d.generation == generation)
            })
            .count();
        used * 1000 / (sample * BUCKET_SIZE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MATE;

    #[test]
    fn store_then_probe_round_trips() {
        let tt = TranspositionTable::new(1).unwrap();
        tt.store(0xdead_beef, 3, 1234, -57, 12, 9, Bound::Lower);
        let hit = tt.probe(0xdead_beef, 3).unwrap();
        assert_eq!(
            (
                hit.packed_move,
                hit.score,
                hit.static_eval,
                hit.depth,
                hit.bound
            ),
            (1234, -57, 12, 9, Bound::Lower)
        );
        assert!(tt.probe(0xdead_bee0, 3).is_none());
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let tt = TranspositionTable::new(1).unwrap();
        // Mate in 5 plies from the root, seen at ply 3: 2 plies from this node.
        tt.store(42, 3, 0, MATE - 5, 0, 4, Bound::Exact);
        // Met again at ply 1: mate is 3 plies from the root now.
        assert_eq!(tt.probe(42, 1).unwrap().score, MATE - 3);
        tt.store(43, 2, 0, -(MATE - 6), 0, 4, Bound::Exact);
        assert_eq!(tt.probe(43, 4).unwrap().score, -(MATE - 8));
    }

    #[test]
    fn torn_entry_reads_as_miss() {
        let tt = TranspositionTable::with_buckets(1);
        tt.store(7, 0, 99, 10, 0, 5, Bound::Exact);
        // Simulate a second writer's data word landing beside the first key word.
        let e = &tt.buckets[0].entries[0];
        e.data
            .store(e.data.load(Ordering::Relaxed) ^ 0x10000, Ordering::Relaxed);
        assert!(tt.probe(7, 0).is_none());
    }

    #[test]
    fn quiescence_depths_and_clear() {
        let tt = TranspositionTable::new(1).unwrap();
        tt.store(5, 0, 0, 0, 0, -1, Bound::Upper);
        assert_eq!(tt.probe(5, 0).unwrap().depth, -1);
        tt.clear();
        assert!(tt.probe(5, 0).is_none());
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn impossible_size_is_refused_and_table_kept() {
        let mut tt = TranspositionTable::new(1).unwrap();
        assert!(tt.resize(usize::MAX / (1024 * 1024)).is_err());
        assert_eq!(tt.size_mb(), 1);
    }
}
