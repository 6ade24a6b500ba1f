//! The search: the `Searcher` that runs a search for a caller and reports through a
//! callback, on top of its steps.
//!
//! `state` holds what the threads share and what each owns (every module here imports it,
//! it imports none of them); `iterative` drives iterative deepening with aspiration
//! windows over the root moves, `alphabeta` is the PVS negamax with its pruning steps (the
//! root one of its node kinds), `qsearch` resolves captures at the horizon. Every margin,
//! threshold and tunable constant lives in [`crate::params`].

pub mod alphabeta;
pub mod iterative;
pub mod qsearch;
mod state;
mod vote;

pub use state::{
    Report, SearchInfo, SearchOptions, SearchResult, SharedState, Signals, SyzygyOptions,
    ThreadData,
};
pub(crate) use state::{RootMove, TbProbe};

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::board::Board;
use crate::correction::CorrectionHistory;
use crate::limits::Limits;
use crate::nnue::{AccumulatorStack, Network};
use crate::rng::Rng;
use crate::score::Bound;
use crate::skill::Strength;
use crate::tablebase::Tablebases;
use crate::time::TimeManager;
use crate::tt::TranspositionTable;

/// Stack of a thread that runs a search: the recursion keeps a move list and a picker
/// per ply, up to `MAX_PLY` plies (the default 2 MiB of a spawned thread may not be
/// enough in a debug build). Every thread that calls `Searcher::search` or searches
/// beside it gets this much: UCI's search thread, the helpers, `epd`'s and `datagen`'s
/// workers.
pub const SEARCH_STACK_SIZE: usize = 64 << 20;

/// Runs searches: owns the shared state and one `ThreadData` per thread, so histories
/// persist from one move to the next within a game.
pub struct Searcher {
    shared: SharedState,
    threads: Vec<ThreadData>,
    /// Searches run so far: with the position key, the seed of a weakened engine's choice,
    /// so that replaying a game replays its moves while new games differ.
    searches: u64,
}

impl Searcher {
    /// A searcher with a `hash_mb` table and one thread.
    pub fn new(hash_mb: usize) -> Result<Self, String> {
        Ok(Self::with_table(TranspositionTable::new(hash_mb)?))
    }

    /// A searcher over a given table (tests use tiny tables to force collisions).
    pub fn with_table(tt: TranspositionTable) -> Self {
        Searcher {
            shared: SharedState {
                tt,
                signals: Arc::new(Signals::default()),
                nodes: AtomicU64::new(0),
                helpers_stop: AtomicBool::new(false),
                tablebases: None,
                tb_probe: TbProbe::default(),
                tb_hits: AtomicU64::new(0),
                network: None,
            },
            threads: vec![ThreadData::new(0)],
            searches: 0,
        }
    }

    /// The stop and ponder flags, for the thread that reads the protocol.
    pub fn signals(&self) -> Arc<Signals> {
        Arc::clone(&self.shared.signals)
    }

    /// Searches with these stop and ponder flags from now on (a caller that already
    /// holds flags, such as a UCI session running a bench, stops this searcher by them).
    pub fn set_signals(&mut self, signals: Arc<Signals>) {
        self.shared.signals = signals;
    }

    /// Resizes the table and takes its memory now (`TranspositionTable::fault_in`); on
    /// failure the old table is kept.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), String> {
        self.shared.tt.resize(mb)?;
        self.shared.tt.fault_in();
        Ok(())
    }

    /// The transposition table the threads share.
    pub fn tt(&self) -> &TranspositionTable {
        &self.shared.tt
    }

    /// Uses these Syzygy tables from the next search on (None: none).
    pub fn set_tablebases(&mut self, tablebases: Option<Arc<Tablebases>>) {
        self.shared.tablebases = tablebases;
    }

    /// Evaluates with `network` from the next search on (None: the hand-crafted
    /// evaluation). The table and correction history, which learned the other
    /// evaluation's scores, are cleared when the evaluation changes.
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        let same = match (&self.shared.network, &network) {
            (Some(old), Some(new)) => Arc::ptr_eq(old, new),
            (None, None) => true,
            _ => false,
        };
        if !same {
            self.shared.network = network;
            self.clear();
        }
    }

    /// Sets the number of search threads (main + helpers).
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.max(1);
        self.threads.truncate(threads);
        while self.threads.len() < threads {
            self.threads.push(ThreadData::new(self.threads.len()));
        }
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    /// Forgets everything learned: the table and every thread's history (new game).
    pub fn clear(&mut self) {
        self.shared.tt.clear();
        for td in &mut self.threads {
            td.history.clear();
            td.correction = CorrectionHistory::default();
        }
    }

    /// Searches `board` within `limits`, calling `report` from the calling thread with
    /// progress. Returns when a limit is reached or `signals().stop` is set; in infinite
    /// or ponder mode it does not return before `stop` (or `ponderhit`).
    pub fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        options: &SearchOptions,
        report: &mut dyn FnMut(Report),
    ) -> SearchResult {
        self.set_threads(options.threads);
        self.shared.tt.new_search();
        self.shared.tb_hits.store(0, Ordering::Relaxed);
        let (root_moves, tb_probe) =
            iterative::root_moves(board, limits, &self.shared, &options.syzygy);
        self.shared.tb_probe = tb_probe;
        let shared = &self.shared;
        let root_moves = &root_moves;
        shared.nodes.store(0, Ordering::Relaxed);
        shared.helpers_stop.store(false, Ordering::Relaxed);
        let pondering = limits.ponder && shared.signals.ponder.load(Ordering::Relaxed);
        for td in &mut self.threads {
            td.board = board.clone();
            td.board.commit();
            td.nodes = 0;
            td.flushed_nodes = 0;
            td.completed_depth = 0;
            td.stopped = false;
            td.history.clear_killers();
            let current = td.nnue.as_ref().map(AccumulatorStack::network);
            if current.map(Arc::as_ptr) != shared.network.as_ref().map(Arc::as_ptr) {
                td.nnue = shared.network.clone().map(AccumulatorStack::new);
            }
            td.node_limit = if td.is_main() { limits.nodes } else { None };
            td.pondering = pondering;
            td.time = td
                .is_main()
                .then(|| TimeManager::new(limits, options.move_overhead));
        }
        // A weakened engine searches several lines to choose from and a smaller tree.
        let (lines, node_budget) = match &options.strength {
            Some(s) => (options.multipv.max(s.lines()), Some(s.node_budget())),
            None => (options.multipv, None),
        };
        let seed = board.key() ^ self.searches.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.searches += 1;
        let (main, helpers) = self.threads.split_at_mut(1);
        let main = &mut main[0];
        let (main_result, helper_results) = std::thread::scope(|scope| {
            // The helpers are started by a thread of their own, so that the main search,
            // the one that keeps the clock and ends the search, starts at once: started
            // one by one before it, a few hundred helpers on a few cores delayed its time
            // limit by up to seconds. (A reborrow: `helpers` is read again after the scope.)
            let helpers = &mut *helpers;
            let launcher = if helpers.is_empty() {
                None
            } else {
                // A launcher that cannot be started leaves the main thread to search alone,
                // as a first helper that cannot be started did.
                std::thread::Builder::new()
                    .spawn_scoped(scope, move || {
                        run_helpers(scope, helpers, shared, root_moves, limits)
                    })
                    .ok()
            };
            let result =
                iterative::iterate(main, shared, root_moves, limits, lines, node_budget, report);
            shared.helpers_stop.store(true, Ordering::Relaxed);
            let helper_results = launcher
                .map(|l| l.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .unwrap_or_default();
            (result, helper_results)
        });
        let result = match &options.strength {
            Some(strength) => {
                let chosen = choose_line(main_result, &main.completed_lines, strength, seed);
                // A weakened engine may play another line than the one shown best: show
                // it last, so that the last line a GUI shows ends in the move it is sent.
                if let Some(line) = main
                    .completed_lines
                    .iter()
                    .skip(1)
                    .find(|rm| Some(rm.mv) == chosen.best)
                {
                    show_played(main, shared, line, chosen.score, report);
                }
                chosen
            }
            None if lines == 1 && !helper_results.is_empty() => {
                let mut results = vec![main_result];
                results.extend(helper_results);
                let chosen = vote::vote(&results);
                if chosen != 0 {
                    // The move played is a helper's: show its line, so that the last
                    // line a GUI shows ends in the move it is sent.
                    let line = &helpers[chosen - 1].root_moves[0];
                    show_played(main, shared, line, results[chosen].score, report);
                }
                // The result's depth, too, is the main thread's.
                SearchResult {
                    depth: results[0].depth,
                    ..results.swap_remove(chosen)
                }
            }
            None => main_result,
        };
        SearchResult {
            nodes: shared.nodes.load(Ordering::Relaxed),
            tbhits: shared.tb_hits.load(Ordering::Relaxed),
            ..result
        }
    }
}

/// Starts a search on each helper in turn, until one cannot be started or the search has
/// ended, and returns their results once they end. The results are those of the first
/// helpers, in order, so that `helpers[i]` and the `i`-th result stay together.
fn run_helpers<'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    helpers: &'scope mut [ThreadData],
    shared: &'scope SharedState,
    root_moves: &'scope [RootMove],
    limits: &'scope Limits,
) -> Vec<SearchResult> {
    let mut running = Vec::with_capacity(helpers.len());
    for td in helpers.iter_mut() {
        if shared.stopping() {
            break;
        }
        let spawned = std::thread::Builder::new()
            .stack_size(SEARCH_STACK_SIZE)
            .spawn_scoped(scope, move || {
                iterative::iterate(td, shared, root_moves, limits, 1, None, &mut |_| {})
            });
        match spawned {
            Ok(handle) => running.push(handle),
            // Too few resources for another thread: search with those we have.
            Err(_) => break,
        }
    }
    running
        .into_iter()
        .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
        .collect()
}

/// Shows `line`, the one played, as the best line with `score`, after the main thread's
/// lines, so that the last line a GUI shows ends in the move it is sent. `depth` stays the
/// main thread's, as on every other line: the depth the search as a whole reached.
fn show_played(
    main: &ThreadData,
    shared: &SharedState,
    line: &RootMove,
    score: i32,
    report: &mut dyn FnMut(Report),
) {
    let info = iterative::info(main, shared, main.searched_depth, 1, 0, Bound::Exact);
    report(Report::Iteration(SearchInfo {
        seldepth: line.seldepth.max(info.seldepth),
        score,
        pv: line.pv.clone(),
        ..info
    }));
}

/// A weakened engine's move: one of the last completed iteration's lines, picked by
/// `strength` (the best line when no iteration completed).
fn choose_line(
    result: SearchResult,
    lines: &[RootMove],
    strength: &Strength,
    seed: u64,
) -> SearchResult {
    let scores: Vec<i32> = lines.iter().map(|rm| rm.score).collect();
    match lines.get(strength.pick(&scores, &mut Rng::new(seed))) {
        Some(rm) => SearchResult {
            best: Some(rm.mv),
            ponder: rm.pv.get(1).copied(),
            score: rm.score,
            ..result
        },
        None => result,
    }
}
