//! The search lab: the classic game-tree search algorithms side by side.
//!
//! Every algorithm here is a short function written to be read next to a textbook, generic
//! over a small [`Game`] trait, and run to the same fixed depth on the same position so that
//! their values and costs can be compared row by row ([`run`]). Three games implement the
//! trait: chess ([`chess::ChessGame`]: Cutoff's board and evaluation), tic-tac-toe
//! ([`tictactoe::TicTacToe`], the lecture notes' example, searched to the end) and uniform
//! synthetic trees ([`synthetic::Synthetic`]) on which the textbook theorems can be checked
//! exactly.
//!
//! The lab is a crate of its own, apart from the production search (`cutoff_engine::search`) on purpose: nothing here
//! is tuned for speed and nothing prunes forward (no null move, no reductions, no futility,
//! no delta or SEE pruning in quiescence), so that every exact algorithm returns exactly the
//! minimax value. For that to hold:
//! - a node's value depends only on the position and the remaining depth: no repetition or
//!   fifty-move draws are detected inside the tree, and mate scores count plies from the root
//!   (`−MATE + ply`), converted to plies from the node when stored in the table;
//! - the lab's own table ([`table::Table`]) gives cutoffs only from entries of the same
//!   remaining depth and never loses a bound to replacement;
//! - every row starts with a cleared table, killers and history.
//!
//! Counting: every call of a recursive search is one node. A node is *interior* if it
//! searched at least one child and a *leaf* otherwise (depth exhausted, game over, a
//! stand-pat cutoff in quiescence, or a cutoff from the table).
//!
//! A row may be given a node budget ([`Settings::node_budget`]): a search that reaches it
//! unwinds at once and its row is marked [`Row::over_budget`], its value meaningless, so
//! that minimax at depth 7 costs seconds rather than days. [`sweep`] runs the rows over
//! many positions and depths and summarises them; [`plot`] draws the summaries.

pub mod algorithms;
pub mod bstar;
pub mod chess;
pub mod minimal;
pub mod plot;
pub mod sweep;
pub mod synthetic;
pub mod table;
pub mod tictactoe;

use std::collections::HashMap;
use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{Add, AddAssign, Sub};
use std::time::{Duration, Instant};

use table::Table;

/// Wider than any value a game produces: the full window is (−INF, +INF).
pub const INF: i32 = 1_000_000;
/// A side mated at the root scores −MATE; mated `ply` plies below the root, `−MATE + ply`.
pub const MATE: i32 = 30_000;
/// Values at least this large in magnitude (and at most `MATE`) are mate scores.
pub const MATE_BOUND: i32 = MATE - 1_000;

/// True if `value` is a mate score.
pub fn is_mate(value: i32) -> bool {
    (MATE_BOUND..=MATE).contains(&value.abs())
}

/// A two-player, zero-sum game with perfect information, seen from the side to move
/// (negamax convention: a position's value for one side is minus its value for the other).
pub trait Game: Clone {
    /// A move of the game.
    type Move: Copy + Eq + Hash + Debug;

    /// The legal moves in the generator's natural order (the order "unordered" searches use).
    fn moves(&self) -> Vec<Self::Move>;
    /// Plays `m`, one of [`Game::moves`].
    fn make(&mut self, m: Self::Move);
    /// Takes back the last `make`.
    fn unmake(&mut self);
    /// The value of a finished game for the side to move, or `None` while it goes on.
    /// `moves` are this position's legal moves, `ply` the distance from the root (chess
    /// scores being mated as `−MATE + ply`).
    fn outcome(&self, moves: &[Self::Move], ply: u32) -> Option<i32>;
    /// The static value for the side to move, used where the depth runs out.
    fn evaluate(&self) -> i32;
    /// A hash of the position for the transposition table.
    fn key(&self) -> u64;
    /// True if [`Game::engine_search`] answers (chess).
    const HAS_ENGINE: bool = false;
    /// Cutoff's own search of this position to `depth` plies, where the game is chess;
    /// `None` for the games the engine does not play.
    fn engine_search(&self, _depth: u32) -> Option<EngineSearch<Self::Move>> {
        None
    }
    /// Moves quiescence searches (captures in chess; none elsewhere).
    fn is_noisy(&self, _m: Self::Move) -> bool {
        false
    }
    /// Moves that killers and history may reorder (in chess: non-captures).
    fn is_quiet(&self, m: Self::Move) -> bool {
        !self.is_noisy(m)
    }
    /// Static ordering score, higher first (chess: MVV-LVA with SEE-losing captures last).
    fn order_score(&mut self, _m: Self::Move) -> i32 {
        0
    }
    /// A move's name for people (SAN in chess).
    fn move_name(&self, m: Self::Move) -> String;
    /// Half-width of the aspiration window.
    fn aspiration_delta(&self) -> i32 {
        25
    }
    /// Margin added on both sides of B*'s probe values to make an interval.
    fn bstar_margin(&self) -> i32 {
        10
    }
}

/// What the engine's full search of a position found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineSearch<M> {
    /// In the lab's units (mates as `MATE - plies` from the root).
    pub value: i32,
    /// The move it would play.
    pub best: Option<M>,
    /// Every node the engine counts, quiescence included.
    pub nodes: u64,
}

/// Nodes visited: interior (searched at least one child) and leaves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes that searched at least one child.
    pub interior: u64,
    /// Nodes that searched none.
    pub leaves: u64,
}

impl Stats {
    /// One leaf.
    pub const LEAF: Stats = Stats {
        interior: 0,
        leaves: 1,
    };
    /// One interior node.
    pub const INTERIOR: Stats = Stats {
        interior: 1,
        leaves: 0,
    };

    /// All nodes.
    pub fn total(self) -> u64 {
        self.interior + self.leaves
    }
}

impl Add for Stats {
    type Output = Stats;
    fn add(self, o: Stats) -> Stats {
        Stats {
            interior: self.interior + o.interior,
            leaves: self.leaves + o.leaves,
        }
    }
}

impl AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        *self = *self + o;
    }
}

impl Sub for Stats {
    type Output = Stats;
    fn sub(self, o: Stats) -> Stats {
        Stats {
            interior: self.interior - o.interior,
            leaves: self.leaves - o.leaves,
        }
    }
}

/// Which move-ordering and table enhancements a search uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Enhancements {
    /// Static ordering ([`Game::order_score`]).
    pub ordering: bool,
    /// Two killer moves per ply: quiet moves that caused a cutoff at the same ply.
    pub killers: bool,
    /// History heuristic: quiet moves that caused cutoffs, weighted by depth².
    pub history: bool,
    /// Transposition table: cutoffs from bounds of the same depth, best move first.
    pub table: bool,
    /// Enhanced transposition cutoffs (needs `table`).
    pub etc: bool,
}

impl Enhancements {
    /// No enhancement: the plain algorithm.
    pub const NONE: Enhancements = Enhancements {
        ordering: false,
        killers: false,
        history: false,
        table: false,
        etc: false,
    };
    /// Ordering, killers, history and the table (not ETC).
    pub const ALL: Enhancements = Enhancements {
        ordering: true,
        killers: true,
        history: true,
        table: true,
        etc: false,
    };
}

/// The state a search carries: the game, what it counts, and its ordering memory.
pub struct Lab<G: Game> {
    /// The position searched, made and unmade as the search walks the tree.
    pub game: G,
    /// Search captures at the horizon (stand pat, no pruning) instead of evaluating.
    pub quiescence: bool,
    /// The enhancements in use.
    pub enhance: Enhancements,
    /// Nodes counted so far.
    pub stats: Stats,
    /// The transposition table (used with `enhance.table`).
    pub table: Table<G::Move>,
    /// The move that gave the best value at the root (ply 0) in the last search.
    pub root_best: Option<G::Move>,
    /// The search unwinds once `stats` counts this many nodes.
    pub node_budget: u64,
    killers: Vec<[Option<G::Move>; 2]>,
    history: HashMap<G::Move, i32>,
}

impl<G: Game> Lab<G> {
    /// A fresh search state: empty table, no killers, no history, no nodes counted.
    pub fn new(game: G, quiescence: bool, enhance: Enhancements) -> Self {
        Lab {
            game,
            quiescence,
            enhance,
            stats: Stats::default(),
            table: Table::default(),
            root_best: None,
            node_budget: u64::MAX,
            killers: Vec::new(),
            history: HashMap::new(),
        }
    }

    /// True once the node budget is spent: every search returns at once, with a value
    /// that means nothing, and the caller marks the row as over budget.
    pub fn over_budget(&self) -> bool {
        self.stats.total() >= self.node_budget
    }

    fn killers(&self, ply: u32) -> [Option<G::Move>; 2] {
        self.killers
            .get(ply as usize)
            .copied()
            .unwrap_or([None, None])
    }

    fn history(&self, m: G::Move) -> i32 {
        self.history.get(&m).copied().unwrap_or(0)
    }

    /// Remembers a quiet move that caused a cutoff (killers, history).
    fn reward(&mut self, m: G::Move, depth: u32, ply: u32) {
        if !self.game.is_quiet(m) {
            return;
        }
        if self.enhance.killers {
            let ply = ply as usize;
            if self.killers.len() <= ply {
                self.killers.resize(ply + 1, [None, None]);
            }
            let slot = &mut self.killers[ply];
            if slot[0] != Some(m) {
                slot[1] = slot[0];
                slot[0] = Some(m);
            }
        }
        if self.enhance.history {
            let h = self.history.entry(m).or_insert(0);
            *h = h.saturating_add((depth * depth) as i32);
        }
    }
}

/// The rows of the lab, in table order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Plain minimax.
    Minimax,
    /// Fail-hard alpha-beta.
    AlphaBeta,
    /// Fail-soft alpha-beta.
    AlphaBetaFailSoft,
    /// Alpha-beta with static move ordering.
    AlphaBetaOrdered,
    /// Ordered alpha-beta with killer moves.
    AlphaBetaKillers,
    /// Ordered alpha-beta with killers and history.
    AlphaBetaHistory,
    /// Ordered alpha-beta with killers, history and a transposition table.
    AlphaBetaTable,
    /// Principal variation search, with the enhancements of `+tt`.
    Pvs,
    /// Iterative deepening with aspiration windows around PVS.
    Aspiration,
    /// MTD(f): null-window searches converging on the value.
    Mtdf,
    /// PVS with enhanced transposition cutoffs.
    Etc,
    /// B*: best-first search on optimistic and pessimistic bounds.
    BStar,
    /// The minimal tree: the nodes that prove the value.
    MinimalTree,
    /// Cutoff's own search, pruning and all (chess only).
    Engine,
}

impl Algorithm {
    /// Every row, in table order.
    pub const ALL: [Algorithm; 14] = [
        Algorithm::Minimax,
        Algorithm::AlphaBeta,
        Algorithm::AlphaBetaFailSoft,
        Algorithm::AlphaBetaOrdered,
        Algorithm::AlphaBetaKillers,
        Algorithm::AlphaBetaHistory,
        Algorithm::AlphaBetaTable,
        Algorithm::Pvs,
        Algorithm::Aspiration,
        Algorithm::Mtdf,
        Algorithm::Etc,
        Algorithm::BStar,
        Algorithm::MinimalTree,
        Algorithm::Engine,
    ];

    /// The row's name (`--algos`, JSON). The three enhancement rows are cumulative:
    /// `+killers` is ordered alpha-beta with killers, `+history` adds history to that, `+tt`
    /// adds the table.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::AlphaBetaFailSoft => "alphabeta-failsoft",
            Algorithm::AlphaBetaOrdered => "alphabeta-ordered",
            Algorithm::AlphaBetaKillers => "+killers",
            Algorithm::AlphaBetaHistory => "+history",
            Algorithm::AlphaBetaTable => "+tt",
            Algorithm::Pvs => "pvs",
            Algorithm::Aspiration => "aspiration",
            Algorithm::Mtdf => "mtdf",
            Algorithm::Etc => "etc",
            Algorithm::BStar => "bstar",
            Algorithm::MinimalTree => "minimal-tree",
            Algorithm::Engine => "engine",
        }
    }

    /// Parses a row name; the enhancement rows also answer to `killers`,
    /// `alphabeta-killers` (and the same for `history` and `tt`).
    pub fn parse(name: &str) -> Option<Algorithm> {
        let name = name.trim().to_ascii_lowercase();
        let bare = name
            .trim_start_matches('+')
            .trim_start_matches("alphabeta-ordered+")
            .trim_start_matches("alphabeta-");
        match bare {
            "killers" => return Some(Algorithm::AlphaBetaKillers),
            "history" => return Some(Algorithm::AlphaBetaHistory),
            "tt" | "table" => return Some(Algorithm::AlphaBetaTable),
            _ => {}
        }
        Algorithm::ALL.into_iter().find(|a| a.name() == name)
    }

    /// True for the algorithms that must return exactly the minimax value. The engine
    /// prunes forward, extends and searches captures at the horizon: its value is its own.
    pub fn is_exact(self) -> bool {
        !matches!(self, Algorithm::BStar | Algorithm::Engine)
    }

    /// True if the row can be run on games of type `G` (the engine's row needs chess).
    pub fn runs_on<G: Game>(self) -> bool {
        self != Algorithm::Engine || G::HAS_ENGINE
    }

    /// The enhancements the row's search runs with.
    pub fn enhancements(self) -> Enhancements {
        let ordered = Enhancements {
            ordering: true,
            ..Enhancements::NONE
        };
        match self {
            Algorithm::Minimax | Algorithm::AlphaBeta | Algorithm::AlphaBetaFailSoft => {
                Enhancements::NONE
            }
            Algorithm::AlphaBetaOrdered => ordered,
            Algorithm::AlphaBetaKillers => Enhancements {
                killers: true,
                ..ordered
            },
            Algorithm::AlphaBetaHistory => Enhancements {
                killers: true,
                history: true,
                ..ordered
            },
            Algorithm::AlphaBetaTable
            | Algorithm::Pvs
            | Algorithm::Aspiration
            | Algorithm::Mtdf
            | Algorithm::BStar
            | Algorithm::MinimalTree
            | Algorithm::Engine => Enhancements::ALL,
            Algorithm::Etc => Enhancements {
                etc: true,
                ..Enhancements::ALL
            },
        }
    }
}

/// How the rows are run.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Depth in plies.
    pub depth: u32,
    /// Quiescence search at the horizon.
    pub quiescence: bool,
    /// B*: stop after this many nodes without separation.
    pub bstar_budget: u64,
    /// B*: the two probe searches of a new node go to this depth and one ply deeper.
    pub bstar_probe: u32,
    /// Every row but the engine's stops after this many nodes (for the minimal tree:
    /// nodes of the searches that find its true values).
    pub node_budget: u64,
}

impl Settings {
    /// Settings for a search of `depth` plies, without quiescence, B* at its defaults.
    pub fn new(depth: u32) -> Self {
        Settings {
            depth,
            quiescence: false,
            bstar_budget: bstar::DEFAULT_BUDGET,
            bstar_probe: 1,
            node_budget: u64::MAX,
        }
    }
}

/// What a row reports beyond value, move and nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    /// Nothing more.
    None,
    /// Aspiration: re-searches after the value fell outside the window.
    ReSearches(u32),
    /// MTD(f): null-window passes over all iterations.
    Passes(u32),
    /// B*: how the search ended.
    BStar(bstar::Report),
    /// Minimal tree: the Knuth–Moore leaf count for a uniform tree with the root's
    /// branching factor, for comparison.
    MinimalTree {
        /// The leaf count of the Knuth–Moore formula.
        knuth_moore_leaves: u64,
    },
}

/// One row of the lab's table.
#[derive(Clone, Debug)]
pub struct Row<M> {
    /// The row.
    pub algorithm: Algorithm,
    /// The value from the side to move (for B*, the chosen move's pessimistic bound).
    pub value: i32,
    /// The best move at the root (None when the game is over).
    pub best: Option<M>,
    /// `best` as the game names it.
    pub best_name: Option<String>,
    /// Nodes visited.
    pub stats: Stats,
    /// How long the search took.
    pub elapsed: Duration,
    /// What the row reports beyond value, move and nodes.
    pub detail: Detail,
    /// The search reached the node budget and stopped: `value` and `best` mean nothing,
    /// `stats` is what it had spent (for B*, its own budget: it still chose a move).
    pub over_budget: bool,
}

impl<M> Row<M> {
    /// Effective branching factor: total nodes^(1/depth).
    pub fn ebf(&self, depth: u32) -> f64 {
        ebf(self.stats.total(), depth)
    }
}

/// Effective branching factor of a search of `depth` plies that visited `nodes` nodes.
pub fn ebf(nodes: u64, depth: u32) -> f64 {
    if depth == 0 || nodes == 0 {
        return 0.0;
    }
    (nodes as f64).powf(1.0 / f64::from(depth))
}

/// Runs one row on a copy of `game`, from a cleared table; `None` if the row does not
/// run on this game ([`Algorithm::runs_on`]).
pub fn run<G: Game>(game: &G, algorithm: Algorithm, settings: &Settings) -> Option<Row<G::Move>> {
    use algorithms as a;
    let mut s = Lab::new(game.clone(), settings.quiescence, algorithm.enhancements());
    s.node_budget = settings.node_budget;
    let depth = settings.depth;
    let start = Instant::now();
    let mut detail = Detail::None;
    let mut stats = None;
    let mut bstar_over_budget = false;
    let value = match algorithm {
        Algorithm::Minimax => a::minimax(&mut s, depth, 0),
        Algorithm::AlphaBeta => a::alphabeta(&mut s, depth, 0, -INF, INF),
        Algorithm::AlphaBetaFailSoft => a::alphabeta_failsoft(&mut s, depth, 0, -INF, INF),
        Algorithm::AlphaBetaOrdered
        | Algorithm::AlphaBetaKillers
        | Algorithm::AlphaBetaHistory
        | Algorithm::AlphaBetaTable => a::alphabeta_ordered(&mut s, depth, 0, -INF, INF),
        Algorithm::Pvs | Algorithm::Etc => a::pvs(&mut s, depth, 0, -INF, INF),
        Algorithm::Aspiration => {
            let (v, re) = a::aspiration(&mut s, depth);
            detail = Detail::ReSearches(re);
            v
        }
        Algorithm::Mtdf => {
            let (v, passes) = a::mtdf_deepening(&mut s, depth);
            detail = Detail::Passes(passes);
            v
        }
        Algorithm::BStar => {
            // B* has its own budget, after which it still plays a move; the row's budget
            // only lowers it. It has no budget to unwind from, hence no `s.node_budget`.
            s.node_budget = u64::MAX;
            let budget = settings.bstar_budget.min(settings.node_budget);
            let (v, report) = bstar::bstar(&mut s, settings.bstar_probe, budget);
            bstar_over_budget = !report.separated;
            detail = Detail::BStar(report);
            v
        }
        Algorithm::MinimalTree => {
            let n = s.game.moves().len() as u64;
            let (v, size) = minimal::minimal_tree(&mut s, depth);
            stats = Some(size);
            detail = Detail::MinimalTree {
                knuth_moore_leaves: minimal::knuth_moore_leaves(n, depth),
            };
            v
        }
        Algorithm::Engine => {
            // The engine's nodes are not split into interior nodes and leaves: all are
            // counted as interior. It has no node budget (it does not explode).
            let found = game.engine_search(depth)?;
            s.root_best = found.best;
            stats = Some(Stats {
                interior: found.nodes,
                leaves: 0,
            });
            found.value
        }
    };
    let elapsed = start.elapsed();
    let over_budget = bstar_over_budget || s.over_budget();
    let best = s.root_best;
    Some(Row {
        algorithm,
        value,
        best,
        best_name: best.map(|m| game.move_name(m)),
        stats: stats.unwrap_or(s.stats),
        elapsed,
        detail,
        over_budget,
    })
}
