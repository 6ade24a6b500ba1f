//! The transposition table: a lock-free hash table shared by all search threads.
//!
//! Each entry is two `AtomicU64`s: the packed data and `key ^ data`. A reader accepts an
//! entry only if the XOR of the two words gives back its key, so an entry torn by two
//! threads writing at once reads as a miss, never as someone else's data (the "lockless
//! hashing" idea of Hyatt and Mann). Entries live in buckets of four that share a cache
//! line; a new entry replaces the bucket's least valuable one (shallow and old first).

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::params::{TT_AGE_WEIGHT, TT_REPLACE_DEPTH_SLACK};
use crate::score::{Bound, FIFTY_MOVE_PLIES, MATE, TB_WIN, TB_WIN_BOUND, is_decisive, is_mate};

/// What a probe returns.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    /// The best or refutation move, packed as by `Board::pack` (0 for none).
    pub packed_move: u16,
    /// Score adjusted to the probing node's distance from the root.
    pub score: i32,
    /// The raw static evaluation stored with the entry (before correction history).
    pub raw_eval: i32,
    /// The depth the score was searched to.
    pub depth: i32,
    /// Whether the score is exact or a bound.
    pub bound: Bound,
}

const BUCKET_SIZE: usize = 4;
/// Ages wrap in six bits; a search increments the generation once.
const GENERATION_MASK: u8 = 0x3f;

#[derive(Default)]
struct Entry {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

impl Entry {
    /// Writes `data` for `key`, the key word XORed with the data (see the module doc).
    #[inline]
    fn write(&self, key: u64, data: Data) {
        let data = data.pack();
        self.data.store(data, Ordering::Relaxed);
        self.key_xor_data.store(key ^ data, Ordering::Relaxed);
    }
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
    raw_eval: i16,
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
            | (u64::from(self.raw_eval as u16) << 32)
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
            raw_eval: (word >> 32) as u16 as i16,
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
    buckets: BucketArray,
    generation: std::sync::atomic::AtomicU8,
    /// No search has started since the table was allocated or cleared (searches are the
    /// only writers, and each starts with `new_search`), so clearing it again has nothing
    /// to do (and would only touch pages the system may not yet have handed out).
    clean: bool,
}

/// The table's memory: `len` buckets in zeroed memory from the system allocator, each
/// on a cache line of its own.
///
/// Zeroed is an empty table, and zeroed memory that the allocator gets fresh from the
/// system is not touched until it is written: a table made for one short search (bench,
/// the lab, an EPD worker) pays only for the pages it uses, and the UCI session takes the
/// whole table at once, in parallel, where it can wait (`TranspositionTable::fault_in`).
/// Rust's allocator zeroes memory aligned beyond 16 bytes by writing to it, so the
/// buckets are placed by hand on the first 64-byte boundary of a 16-byte-aligned block,
/// which `calloc` provides untouched.
///
/// A table of at least one huge page starts on a huge-page boundary instead, and on Linux
/// asks for transparent huge pages (`madvise`): a probe is a random access into the
/// whole table, and in a table larger than the TLB reaches on 4 KB pages most probes
/// also wait on a page walk (what that costs: docs/testing.md, "Speed").
struct BucketArray {
    buckets: std::ptr::NonNull<Bucket>,
    len: usize,
    block: std::ptr::NonNull<u8>,
    layout: std::alloc::Layout,
}

#[allow(
    unsafe_code,
    reason = "a raw pointer is not Send; the memory it owns is"
)]
// SAFETY: the array owns its memory, and `Bucket` (atomics only) is `Send`.
unsafe impl Send for BucketArray {}
#[allow(
    unsafe_code,
    reason = "a raw pointer is not Sync; the buckets it shares are"
)]
// SAFETY: the array hands out only `&[Bucket]`, and `Bucket` (atomics only) is `Sync`.
unsafe impl Sync for BucketArray {}

impl BucketArray {
    #[allow(
        unsafe_code,
        reason = "zeroed memory from `alloc_zeroed` stays untouched until used, as `vec!` of an over-aligned type does not"
    )]
    fn zeroed(len: usize) -> Result<Self, String> {
        let fail = || format!("cannot allocate {len} hash buckets");
        let bytes = len
            .max(1)
            .checked_mul(std::mem::size_of::<Bucket>())
            .ok_or_else(fail)?;
        let start = if bytes >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            std::mem::align_of::<Bucket>()
        };
        let size = bytes.checked_add(start).ok_or_else(fail)?;
        let layout = std::alloc::Layout::from_size_align(size, 16).map_err(|_| fail())?;
        // SAFETY: the layout's size is non-zero.
        let block =
            std::ptr::NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) }).ok_or_else(fail)?;
        let offset = block.as_ptr().align_offset(start);
        // SAFETY: `offset` < `start`, so the aligned start and the `bytes` after it stay
        // inside the block of `bytes + start`.
        let buckets = unsafe { block.add(offset) }.cast::<Bucket>();
        if start == HUGE_PAGE {
            advise_huge_pages(buckets.as_ptr().cast(), bytes);
        }
        Ok(BucketArray {
            buckets,
            len: len.max(1),
            block,
            layout,
        })
    }
}

/// The size of a transparent huge page on x86-64 and most Linux systems.
const HUGE_PAGE: usize = 2 << 20;

/// Asks Linux to back `len` bytes at `addr` (huge-page aligned, not yet touched) with
/// transparent huge pages where the system allows it (`enabled` set to `madvise` or
/// `always`). Only a hint: if it is refused, the table works as before on small pages.
#[cfg(target_os = "linux")]
#[allow(unsafe_code, reason = "`madvise` is a C function")]
fn advise_huge_pages(addr: *mut std::ffi::c_void, len: usize) {
    const MADV_HUGEPAGE: std::ffi::c_int = 14;
    unsafe extern "C" {
        fn madvise(
            addr: *mut std::ffi::c_void,
            len: usize,
            advice: std::ffi::c_int,
        ) -> std::ffi::c_int;
    }
    // SAFETY: the range lies inside a block this array owns; the advice changes how the
    // kernel backs the pages, never their contents (untouched, they read as zero either way).
    unsafe { madvise(addr, len, MADV_HUGEPAGE) };
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_: *mut std::ffi::c_void, _: usize) {}

impl std::ops::Deref for BucketArray {
    type Target = [Bucket];

    #[allow(unsafe_code, reason = "the buckets live in memory allocated by hand")]
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `buckets` is aligned for `Bucket` and points to `len` of them inside the
        // block, all initialised: an all-zero `Bucket` is a valid value (atomics have no
        // invalid bit patterns). Shared access is fine, as every field is atomic.
        unsafe { std::slice::from_raw_parts(self.buckets.as_ptr(), self.len) }
    }
}

impl Drop for BucketArray {
    #[allow(unsafe_code, reason = "the block was allocated by hand")]
    fn drop(&mut self) {
        // SAFETY: `block` was allocated by the global allocator with `layout`.
        unsafe { std::alloc::dealloc(self.block.as_ptr(), self.layout) }
    }
}

/// Refuses a table of `bytes` if the system says it has less memory available (counting
/// the `current` table's, which is released first). On systems that do not say, every
/// size is tried and only a failed allocation refuses it.
fn check_available(bytes: usize, current: usize) -> Result<(), String> {
    match available_memory() {
        Some(available) if bytes > available.saturating_add(current) => Err(format!(
            "{} MB exceeds the {} MB of memory available",
            bytes / (1024 * 1024),
            available.saturating_add(current) / (1024 * 1024)
        )),
        _ => Ok(()),
    }
}

/// Memory the system can give without swapping (Linux: `MemAvailable` in /proc/meminfo).
fn available_memory() -> Option<usize> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// Mate and tablebase scores are stored relative to the node (distance to the outcome
/// from here), so the same entry is right wherever in the tree the position is met again;
/// a score read back is made relative to the root again.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score + ply as i32
    } else if score <= -TB_WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score made relative to the root again (see `score_to_tt`).
///
/// The entry does not know the halfmove clock its search ran with (the key leaves it
/// out), so a mate, or a tablebase win reached by a capture or pawn move, further from
/// the node than the fifty-move rule leaves plies on `halfmoves` may never come: it reads
/// as the best score short of a decided game, so that it is neither reported as a mate
/// nor trusted as one.
fn score_from_tt(score: i32, ply: usize, halfmoves: u32) -> i32 {
    if !is_decisive(score) {
        return score;
    }
    let outcome = if is_mate(score) { MATE } else { TB_WIN };
    let distance = (outcome - score.abs()) as u32;
    if distance > FIFTY_MOVE_PLIES.saturating_sub(halfmoves) {
        score.signum() * (TB_WIN_BOUND - 1)
    } else {
        score - score.signum() * ply as i32
    }
}

impl TranspositionTable {
    /// A table of `mb` mebibytes, or an error if the memory cannot be had.
    pub fn new(mb: usize) -> Result<Self, String> {
        let count = Self::bucket_count(mb);
        check_available(count * std::mem::size_of::<Bucket>(), 0)?;
        Ok(Self::from_buckets(BucketArray::zeroed(count)?))
    }

    /// A table with exactly `buckets` buckets (tests use tiny tables to force collisions).
    pub fn with_buckets(buckets: usize) -> Self {
        Self::from_buckets(BucketArray::zeroed(buckets.max(1)).expect("small table"))
    }

    fn from_buckets(buckets: BucketArray) -> Self {
        TranspositionTable {
            buckets,
            generation: std::sync::atomic::AtomicU8::new(0),
            clean: true,
        }
    }

    fn bucket_count(mb: usize) -> usize {
        (mb.max(1).saturating_mul(1024 * 1024) / std::mem::size_of::<Bucket>()).max(1)
    }

    /// Resizes to `mb` mebibytes. A size beyond the memory the system has available is
    /// refused and the old table kept; an allocation that fails after all leaves a table
    /// of the old size, empty.
    pub fn resize(&mut self, mb: usize) -> Result<(), String> {
        let count = Self::bucket_count(mb);
        if count != self.buckets.len() {
            let bytes = count.saturating_mul(std::mem::size_of::<Bucket>());
            let current = self.buckets.len() * std::mem::size_of::<Bucket>();
            check_available(bytes, current)?;
            // Release the old table first so that both need not fit in memory at once;
            // if the new one fails after all, allocate the old size again.
            let old = self.buckets.len();
            self.buckets = BucketArray::zeroed(1)?;
            match BucketArray::zeroed(count) {
                Ok(b) => *self = Self::from_buckets(b),
                Err(e) => {
                    *self = Self::from_buckets(BucketArray::zeroed(old)?);
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// Takes the whole table from the system now: writes once to every page, in parallel
    /// over rayon's threads, the value already there (the write maps the page and changes
    /// nothing; no search may run meanwhile). Left to the first search, taking the pages
    /// cost it up to 450 ms (Hash 256, `go movetime 20`, 2-core machine whose memory had
    /// to be compacted into huge pages), enough to lose on time; the UCI session calls
    /// this whenever it sets a table's size, so the wait comes before `readyok`.
    pub fn fault_in(&self) {
        const PAGE: usize = 4096;
        let per_page = (PAGE / std::mem::size_of::<Bucket>()).max(1);
        self.buckets
            .par_chunks(per_page)
            .with_min_len(64)
            .for_each(|page| {
                let data = &page[0].entries[0].data;
                data.store(data.load(Ordering::Relaxed), Ordering::Relaxed);
            });
    }

    /// Number of buckets (four entries each).
    #[cfg(test)]
    fn buckets(&self) -> usize {
        self.buckets.len()
    }

    /// Empties the table, in parallel over rayon's threads; a table no search has used
    /// since it was allocated or cleared is left as it is.
    pub fn clear(&mut self) {
        if !self.clean {
            // Only written entries are written back: a page no search touched stays one
            // the system has not handed out (reading it maps the shared zero page).
            self.buckets.par_iter().with_min_len(1 << 12).for_each(|b| {
                for e in &b.entries {
                    if e.data.load(Ordering::Relaxed) != 0 {
                        e.key_xor_data.store(0, Ordering::Relaxed);
                        e.data.store(0, Ordering::Relaxed);
                    }
                }
            });
        }
        self.generation.store(0, Ordering::Relaxed);
        self.clean = true;
    }

    /// Starts a new search: entries from earlier searches age.
    pub fn new_search(&mut self) {
        self.clean = false;
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

    /// Starts loading `key`'s bucket into the cache, so that a probe of `key` soon after
    /// (the child node's, once the move is made) finds it there instead of waiting on
    /// memory. Only a hint: it changes nothing the table holds.
    #[inline(always)]
    #[allow(unsafe_code, reason = "`_mm_prefetch` is an unsafe intrinsic")]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: a prefetch is a hint that reads nothing the program sees; the
            // address is that of a live bucket anyway.
            unsafe { _mm_prefetch(bucket.cast::<i8>(), _MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks up `key`; `ply` is the node's distance from the root (for mate scores) and
    /// `halfmoves` its halfmove clock (for the fifty-move rule).
    #[inline]
    pub fn probe(&self, key: u64, ply: usize, halfmoves: u32) -> Option<TtHit> {
        for e in &self.bucket(key).entries {
            let data = e.data.load(Ordering::Relaxed);
            if e.key_xor_data.load(Ordering::Relaxed) ^ data == key
                && let Some(d) = Data::unpack(data)
            {
                return Some(TtHit {
                    packed_move: d.packed_move,
                    score: score_from_tt(i32::from(d.score), ply, halfmoves),
                    raw_eval: i32::from(d.raw_eval),
                    depth: i32::from(d.depth) - DEPTH_OFFSET,
                    bound: d.bound,
                });
            }
        }
        None
    }

    /// Stores a search result. A missing move keeps the move already stored for the key.
    #[allow(
        clippy::too_many_arguments,
        reason = "the fields of one entry, each a different thing the search knows"
    )]
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        packed_move: u16,
        score: i32,
        raw_eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let age = |d: &Data| i32::from(generation.wrapping_sub(d.generation) & GENERATION_MASK);

        // Choose the slot: the same key if present, else an empty slot, else the entry
        // with the least depth, counting each generation of age as TT_AGE_WEIGHT plies.
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
            let value = i32::from(d.depth) - TT_AGE_WEIGHT() * age(&d);
            if value < worst {
                worst = value;
                slot = i;
            }
        }

        let stored_depth = (depth + DEPTH_OFFSET).clamp(0, 255);
        let mut packed_move = packed_move;
        let e = &bucket.entries[slot];
        if let Some(old) = old {
            if packed_move == 0 {
                packed_move = old.packed_move;
            }
            // Keep a deeper entry of this search about the same position unless the new
            // one is exact, but give it the new best move: the latest search of the
            // position ordered its moves with more history behind it.
            if bound != Bound::Exact
                && age(&old) == 0
                && i32::from(old.depth) > stored_depth + TT_REPLACE_DEPTH_SLACK()
            {
                if packed_move != old.packed_move {
                    e.write(key, Data { packed_move, ..old });
                }
                return;
            }
        }
        e.write(
            key,
            Data {
                packed_move,
                score: score_to_tt(score, ply) as i16,
                raw_eval: raw_eval as i16,
                depth: stored_depth as u8,
                generation,
                bound,
            },
        );
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

    #[test]
    fn store_then_probe_round_trips() {
        let tt = TranspositionTable::new(1).unwrap();
        tt.store(0xdead_beef, 3, 1234, -57, 12, 9, Bound::Lower);
        let hit = tt.probe(0xdead_beef, 3, 0).unwrap();
        assert_eq!(
            (
                hit.packed_move,
                hit.score,
                hit.raw_eval,
                hit.depth,
                hit.bound
            ),
            (1234, -57, 12, 9, Bound::Lower)
        );
        assert!(tt.probe(0xdead_bee0, 3, 0).is_none());
    }

    #[test]
    fn faulting_the_table_in_keeps_its_entries() {
        let tt = TranspositionTable::with_buckets(1);
        tt.store(0xdead_beef, 0, 1234, -57, 12, 9, Bound::Lower);
        tt.fault_in();
        let hit = tt.probe(0xdead_beef, 0, 0).expect("the entry survives");
        assert_eq!((hit.packed_move, hit.score), (1234, -57));
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let tt = TranspositionTable::new(1).unwrap();
        // Mate in 5 plies from the root, seen at ply 3: 2 plies from this node.
        tt.store(42, 3, 0, MATE - 5, 0, 4, Bound::Exact);
        // Met again at ply 1: mate is 3 plies from the root now.
        assert_eq!(tt.probe(42, 1, 0).unwrap().score, MATE - 3);
        tt.store(43, 2, 0, -(MATE - 6), 0, 4, Bound::Exact);
        assert_eq!(tt.probe(43, 4, 0).unwrap().score, -(MATE - 8));
    }

    #[test]
    fn a_deeper_entry_kept_takes_the_new_best_move() {
        let tt = TranspositionTable::new(1).unwrap();
        tt.store(9, 0, 111, 50, 7, 12, Bound::Lower);
        // Too shallow to replace the entry, but its move is the latest word on the position.
        tt.store(9, 0, 222, -20, 5, 3, Bound::Lower);
        let hit = tt.probe(9, 0, 0).unwrap();
        assert_eq!(
            (
                hit.packed_move,
                hit.score,
                hit.raw_eval,
                hit.depth,
                hit.bound
            ),
            (222, 50, 7, 12, Bound::Lower)
        );
        // A result without a move leaves the kept move alone.
        tt.store(9, 0, 0, -20, 5, 3, Bound::Upper);
        assert_eq!(tt.probe(9, 0, 0).unwrap().packed_move, 222);
    }

    #[test]
    fn decided_scores_beyond_the_fifty_move_rule_read_as_wins_short_of_mate() {
        let tt = TranspositionTable::new(1).unwrap();
        let short_of_mate = TB_WIN_BOUND - 1;
        // Mate 9 plies from the node: on the 100th half-move from a clock of 91, too late
        // from 92.
        tt.store(42, 0, 0, MATE - 9, 0, 10, Bound::Exact);
        assert_eq!(tt.probe(42, 0, 91).unwrap().score, MATE - 9);
        assert_eq!(tt.probe(42, 0, 92).unwrap().score, short_of_mate);
        // Mated 10 plies from a node at ply 2; the score read back is relative to the root.
        tt.store(43, 2, 0, -(MATE - 12), 0, 10, Bound::Upper);
        assert_eq!(tt.probe(43, 3, 90).unwrap().score, -(MATE - 13));
        assert_eq!(tt.probe(43, 3, 91).unwrap().score, -short_of_mate);
        // A tablebase win reached 20 plies from the node (by a capture or pawn move).
        tt.store(44, 0, 0, TB_WIN - 20, 0, 10, Bound::Lower);
        assert_eq!(tt.probe(44, 0, 80).unwrap().score, TB_WIN - 20);
        assert_eq!(tt.probe(44, 0, 81).unwrap().score, short_of_mate);
    }

    #[test]
    fn torn_entry_reads_as_miss() {
        let tt = TranspositionTable::with_buckets(1);
        tt.store(7, 0, 99, 10, 0, 5, Bound::Exact);
        // Simulate a second writer's data word landing beside the first key word.
        let e = &tt.buckets[0].entries[0];
        e.data
            .store(e.data.load(Ordering::Relaxed) ^ 0x10000, Ordering::Relaxed);
        assert!(tt.probe(7, 0, 0).is_none());
    }

    #[test]
    fn quiescence_depths_and_clear() {
        let mut tt = TranspositionTable::new(1).unwrap();
        tt.new_search();
        tt.store(5, 0, 0, 0, 0, -1, Bound::Upper);
        assert_eq!(tt.probe(5, 0, 0).unwrap().depth, -1);
        tt.clear();
        assert!(tt.probe(5, 0, 0).is_none());
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn impossible_size_is_refused_and_table_kept() {
        let mut tt = TranspositionTable::new(1).unwrap();
        let buckets = tt.buckets();
        assert!(tt.resize(usize::MAX / (1024 * 1024)).is_err());
        assert_eq!(tt.buckets(), buckets);
    }
}
