//! The search's state: what every thread shares (`SharedState`: the table, the stop
//! signals, the tablebases, the network), what each thread owns (`ThreadData`: histories,
//! the search stack, its accumulators), and what a search reports (`SearchInfo`,
//! `SearchResult`). The search's steps (`alphabeta`, `qsearch`, `iterative`) and the
//! `Searcher` above them import from here; nothing here imports them.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use shakmaty::Move;

use crate::board::Board;
use crate::correction::{self, CorrectionHistory, CorrectionKeys};
use crate::eval::{PawnTable, evaluate_cached};
use crate::history::{Continuations, History, PieceTo};
use crate::nnue::{AccumulatorStack, Network};
use crate::params;
use crate::score::{Bound, INFINITY, MAX_PLY};
use crate::skill::Strength;
use crate::tablebase::Tablebases;
use crate::time::TimeManager;
use crate::tt::{TranspositionTable, TtHit};

/// Signals from outside a running search: set by the protocol thread, read by the search.
#[derive(Default, Debug)]
pub struct Signals {
    /// Stop as soon as possible and report the best move found.
    pub stop: AtomicBool,
    /// The search is pondering: no time limit applies until this is cleared (`ponderhit`).
    pub ponder: AtomicBool,
}

/// State every search thread shares: the table, the signals, the node and tablebase-hit
/// totals, the endgame tablebases and how they are probed, and the network.
pub struct SharedState {
    /// The transposition table.
    pub tt: TranspositionTable,
    /// Stop and ponder signals, which the protocol thread sets.
    pub signals: Arc<Signals>,
    /// Nodes searched by all threads, flushed from each thread's own counter periodically.
    pub(super) nodes: AtomicU64,
    /// Set by the main thread when it finishes, to stop the helpers and their launcher.
    pub(super) helpers_stop: AtomicBool,
    /// Syzygy tables, if any: behind an `Arc` because every searcher of a process (the
    /// EPD runner keeps one per job) shares one set and the files it has opened.
    pub(super) tablebases: Option<Arc<Tablebases>>,
    /// How this search probes the tables, set when it starts.
    pub(super) tb_probe: TbProbe,
    /// Tablebase probes that gave an answer, by all threads (UCI `tbhits`).
    pub(super) tb_hits: AtomicU64,
    /// The network that evaluates positions, read-only; None: the hand-crafted evaluation.
    pub(super) network: Option<Arc<Network>>,
}

/// When the tree probes the tables during one search.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TbProbe {
    /// Probe positions with at most this many pieces; 0 never probes.
    pub cardinality: usize,
    /// Probe only at this remaining depth or more.
    pub depth: i32,
    /// Whether the fifty-move rule turns cursed wins and blessed losses into draws.
    pub rule50: bool,
}

impl SharedState {
    #[inline]
    pub(super) fn stopping(&self) -> bool {
        self.signals.stop.load(Ordering::Relaxed) || self.helpers_stop.load(Ordering::Relaxed)
    }
}

/// Options that shape a search besides its limits.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Principal variations to report (UCI `MultiPV`).
    pub multipv: usize,
    /// Time kept back from each move for the GUI and the pipes (UCI `Move Overhead`).
    pub move_overhead: Duration,
    /// Search threads (UCI `Threads`).
    pub threads: usize,
    /// How the tablebases are used.
    pub syzygy: SyzygyOptions,
    /// Play below full strength (None: full strength).
    pub strength: Option<Strength>,
}

/// How the tablebases are used (the UCI options `SyzygyProbeDepth`, `SyzygyProbeLimit`
/// and `Syzygy50MoveRule`, named as Stockfish names them).
#[derive(Clone, Copy, Debug)]
pub struct SyzygyOptions {
    /// Probe inside the tree only at this remaining depth or more.
    pub probe_depth: i32,
    /// Probe only positions with at most this many pieces (also capped by the tables).
    pub probe_limit: usize,
    /// Score wins and losses the fifty-move rule would undo as draws.
    pub rule50: bool,
}

impl SyzygyOptions {
    /// The defaults, which the UCI options declare too.
    pub const DEFAULT: SyzygyOptions = SyzygyOptions {
        probe_depth: 1,
        probe_limit: 7,
        rule50: true,
    };
}

impl Default for SyzygyOptions {
    fn default() -> Self {
        SyzygyOptions::DEFAULT
    }
}

impl SearchOptions {
    /// The defaults, which the UCI options declare too.
    pub const DEFAULT: SearchOptions = SearchOptions {
        multipv: 1,
        move_overhead: Duration::from_millis(10),
        threads: 1,
        syzygy: SyzygyOptions::DEFAULT,
        strength: None,
    };
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions::DEFAULT
    }
}

/// One line of search progress (an iteration or an aspiration re-search).
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// The iteration depth.
    pub depth: i32,
    /// The deepest ply any line reached.
    pub seldepth: usize,
    /// 1-based index of the line (UCI `multipv`).
    pub multipv: usize,
    /// The score, from the side to move.
    pub score: i32,
    /// Whether the score is exact or a bound.
    pub bound: Bound,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Permill of the table written in this search (UCI `hashfull`).
    pub hashfull: usize,
    /// Tablebase probes that gave an answer so far.
    pub tbhits: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// What a search reports while it runs.
#[derive(Clone, Debug)]
pub enum Report {
    /// A completed iteration or an aspiration re-search.
    Iteration(SearchInfo),
    /// The root move being searched (1-based number), sent after the first seconds.
    CurrentMove {
        /// The iteration depth.
        depth: i32,
        /// The move.
        mv: Move,
        /// Its place among the root moves, from 1.
        number: usize,
    },
}

/// The outcome of a search.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// None when the root has no legal move.
    pub best: Option<Move>,
    /// The expected reply, the principal variation's second move.
    pub ponder: Option<Move>,
    /// The score of the best move, from the side to move.
    pub score: i32,
    /// The last depth completed.
    pub depth: i32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Tablebase probes that gave an answer.
    pub tbhits: u64,
}

/// A root move with its score in the current and previous iteration.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    pub score: i32,
    /// What `score` is: exact, or the bound a root search that failed high or low left.
    pub bound: Bound,
    pub previous_score: i32,
    pub seldepth: usize,
    pub pv: Vec<Move>,
    /// The tables' verdict on the move when the root is in them: reported instead of
    /// the search's score unless the search finds a real mate.
    pub tb_score: Option<i32>,
    /// Nodes searched under this move in this search, all iterations together.
    pub nodes: u64,
}

impl RootMove {
    /// Records what a search of this move in the window (`alpha`, `beta`) found, `line`
    /// being the child's line and `seldepth` the deepest ply reached so far. The first
    /// move of a line and any that beat α get the score, its bound and their line; a
    /// later move that fails low gets −∞, for only the order matters among those.
    pub fn record(
        &mut self,
        score: i32,
        (alpha, beta): (i32, i32),
        first: bool,
        line: &[Move],
        seldepth: usize,
    ) {
        if !first && score <= alpha {
            self.score = -INFINITY;
            return;
        }
        self.score = score;
        self.bound = Bound::of_result(score, beta, score > alpha);
        self.seldepth = seldepth;
        self.pv.clear();
        self.pv.push(self.mv);
        self.pv.extend_from_slice(line);
    }
}

/// Per-ply search stack entry.
#[derive(Clone, Copy, Default)]
pub(crate) struct StackEntry {
    pub static_eval: Option<i32>,
    /// The move made from this ply (None for a null move or not yet chosen).
    pub current_move: Option<Move>,
    /// The same move as continuation history keys it.
    pub piece_to: Option<PieceTo>,
    pub null_move: bool,
    /// The move a singular-extension search at this ply leaves out.
    pub excluded: Option<Move>,
    /// Double extensions on the line from the root to this ply.
    pub double_extensions: u8,
}

/// A position's static eval as the search uses it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StaticEval {
    /// As `evaluate` gives it: what the table keeps.
    pub raw: i32,
    /// Corrected by correction history: what the search prunes with.
    pub corrected: i32,
}

/// Everything one search thread owns.
pub struct ThreadData {
    pub(super) id: usize,
    pub(crate) board: Board,
    pub(crate) history: History,
    pub(crate) correction: CorrectionHistory,
    /// The pawn-structure terms of the evaluation, by pawn structure.
    pub(crate) pawn_table: PawnTable,
    /// The network's accumulators beside the board's stack, when a network evaluates.
    pub(super) nnue: Option<AccumulatorStack>,
    pub(crate) stack: Vec<StackEntry>,
    /// Triangular principal-variation table: `pv[ply]` is the best line from `ply`.
    pub(crate) pv: Vec<Vec<Move>>,
    pub(crate) root_moves: Vec<RootMove>,
    /// The MultiPV lines of the last completed iteration, best first.
    pub(crate) completed_lines: Vec<RootMove>,
    pub(crate) pv_index: usize,
    pub(crate) nodes: u64,
    /// Nodes already added to the shared total.
    pub(super) flushed_nodes: u64,
    pub(crate) seldepth: usize,
    pub(crate) completed_depth: i32,
    /// The iteration searching when the search ended: the depth of the last line shown.
    pub(crate) searched_depth: i32,
    pub(crate) stopped: bool,
    /// Null move is disabled below this ply during a null-move verification search.
    pub(crate) nmp_min_ply: usize,
    pub(crate) time: Option<TimeManager>,
    pub(super) node_limit: Option<u64>,
    pub(super) pondering: bool,
}

impl ThreadData {
    pub(super) fn new(id: usize) -> Self {
        ThreadData {
            id,
            board: Board::default(),
            history: History::default(),
            correction: CorrectionHistory::default(),
            pawn_table: PawnTable::default(),
            nnue: None,
            stack: vec![StackEntry::default(); MAX_PLY + 8],
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            root_moves: Vec::new(),
            completed_lines: Vec::new(),
            pv_index: 0,
            nodes: 0,
            flushed_nodes: 0,
            seldepth: 0,
            completed_depth: 0,
            searched_depth: 0,
            stopped: false,
            nmp_min_ply: 0,
            time: None,
            node_limit: None,
            pondering: false,
        }
    }

    #[inline]
    pub(crate) fn is_main(&self) -> bool {
        self.id == 0
    }

    /// The current position's static eval, not in check (`None` in check): raw, from
    /// the table entry `tt_hit` if there is one or else evaluated, and corrected by what
    /// correction history learned about its side to move, pawns and pieces. The
    /// correction is read before the evaluation runs, so that its load overlaps it.
    #[inline]
    pub(crate) fn static_eval(
        &mut self,
        tt_hit: Option<TtHit>,
        in_check: bool,
    ) -> Option<StaticEval> {
        if in_check {
            return None;
        }
        let correction = self
            .correction
            .correction(self.board.turn(), self.correction_keys());
        let raw = tt_hit.map_or_else(|| self.evaluate(), |h| h.raw_eval);
        Some(StaticEval {
            raw,
            corrected: correction::apply(raw, correction),
        })
    }

    /// The current position's evaluation from the side to move: the network's when one is
    /// set, else the hand-crafted one.
    #[inline]
    pub(crate) fn evaluate(&mut self) -> i32 {
        match &mut self.nnue {
            Some(stack) => stack.evaluate(&self.board),
            None => evaluate_cached(self.board.pos(), &mut self.pawn_table),
        }
    }

    /// A search of `depth` found the current position worth `error` more than its raw
    /// static eval: correction history learns it.
    pub(crate) fn learn_eval_error(&mut self, depth: i32, error: i32) {
        let (side, keys) = (self.board.turn(), self.correction_keys());
        self.correction.update(side, keys, depth, error);
    }

    /// The keys correction history files the current position under.
    #[inline]
    fn correction_keys(&self) -> CorrectionKeys {
        CorrectionKeys {
            pawn: self.board.pawn_key(),
            non_pawn: self.board.non_pawn_keys(),
        }
    }

    /// Counts a node and checks the node limit; every CHECK_INTERVAL nodes, the other stop
    /// conditions too. Returns true if the search must unwind now.
    #[inline]
    pub(crate) fn count_node_and_check(&mut self, shared: &SharedState) -> bool {
        self.nodes += 1;
        if let Some(limit) = self.node_limit
            && self.total_nodes(shared) >= limit
        {
            self.stopped = true;
        }
        if self.nodes.is_multiple_of(params::CHECK_INTERVAL) {
            self.flush_nodes(shared);
            if shared.stopping() {
                self.stopped = true;
            }
            if self.is_main() {
                self.check_time(shared);
            }
        }
        self.stopped
    }

    pub(super) fn check_time(&mut self, shared: &SharedState) {
        let Some(time) = self.time.as_mut() else {
            return;
        };
        if self.pondering {
            if shared.signals.ponder.load(Ordering::Relaxed) {
                return;
            }
            // ponderhit: our clock has just started.
            self.pondering = false;
            time.restart();
        }
        if time.hard_limit_reached() {
            self.stopped = true;
        }
    }

    /// Records the move about to be made from `ply` (None for a null move).
    #[inline]
    pub(crate) fn set_move(&mut self, ply: usize, m: Option<Move>) {
        let side = self.board.turn();
        let entry = &mut self.stack[ply];
        entry.current_move = m;
        entry.piece_to = m.map(|m| PieceTo::of(side, m));
    }

    /// The moves one and two plies before `ply`, for continuation history.
    #[inline]
    pub(crate) fn continuations(&self, ply: usize) -> Continuations {
        let back = |n: usize| ply.checked_sub(n).and_then(|p| self.stack[p].piece_to);
        [back(1), back(2)]
    }

    /// A new best move at `ply`: its line is the move followed by the child's line.
    #[inline]
    pub(crate) fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// Nodes of all threads, this one's unflushed nodes included.
    #[inline]
    pub(super) fn total_nodes(&self, shared: &SharedState) -> u64 {
        shared.nodes.load(Ordering::Relaxed) + self.nodes - self.flushed_nodes
    }

    /// Time since the search started (zero for a helper, which keeps no clock).
    pub(crate) fn elapsed(&self) -> Duration {
        self.time.as_ref().map_or(Duration::ZERO, |t| t.elapsed())
    }

    pub(super) fn flush_nodes(&mut self, shared: &SharedState) {
        shared
            .nodes
            .fetch_add(self.nodes - self.flushed_nodes, Ordering::Relaxed);
        self.flushed_nodes = self.nodes;
    }
}
