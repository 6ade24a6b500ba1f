//! The search lab's checks (issue 5): every exact algorithm returns the minimax value, the
//! fail-soft bound theorem, node-count theorems, the lecture notes' tic-tac-toe counts,
//! B* stopping by separation, and the `cutoff lab` command itself.

use cutoff_lab::algorithms::{alphabeta, alphabeta_failsoft, alphabeta_ordered, pvs};
use cutoff_lab::chess::ChessGame;
use cutoff_lab::minimal::{knuth_moore_leaves, knuth_moore_nodes, minimal_tree, uniform_nodes};
use cutoff_lab::plot;
use cutoff_lab::sweep::{self, Quartiles};
use cutoff_lab::synthetic::{self, Synthetic};
use cutoff_lab::tictactoe::{self, TableSearch, TicTacToe};
use cutoff_lab::{Algorithm, Detail, Enhancements, Game, INF, Lab, MATE, Row, Settings, run};

mod common;

use common::Rng;

/// Chess positions with the depths (no quiescence, quiescence) at which minimax stays fast.
const CHESS: &[(&str, &str, u32, u32)] = &[
    (
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        4,
        3,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        3,
        2,
    ),
    // Mate in 2 (Nf6+ gxf6, Bxf7#): mate scores through the table and iterative deepening.
    (
        "mate in 2",
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
        3,
        3,
    ),
    // Scholar's mate available: Qxf7#.
    (
        "mate in 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        3,
        2,
    ),
    (
        "rook endgame",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        4,
        4,
    ),
    (
        "promotions",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        3,
        3,
    ),
    (
        "free queen",
        "rnb1kbnr/pppp1ppp/8/4p3/4P2q/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        3,
        3,
    ),
    // Black is stalemated: a finished game at the root.
    ("stalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 2, 2),
];

fn chess(fen: &str) -> ChessGame {
    ChessGame::from_fen(fen).expect("test FENs are legal")
}

fn settings(depth: u32, quiescence: bool) -> Settings {
    Settings {
        quiescence,
        ..Settings::new(depth)
    }
}

/// Runs a row that every game has.
fn run_row<G: Game>(game: &G, algorithm: Algorithm, settings: &Settings) -> Row<G::Move> {
    run(game, algorithm, settings).expect("the textbook rows run on every game")
}

/// Every exact row on `game` returns minimax's value; returns the rows.
fn check_exact<G: Game>(game: &G, what: &str, settings: &Settings) -> Vec<Row<G::Move>> {
    let rows: Vec<Row<G::Move>> = Algorithm::ALL
        .into_iter()
        .filter(|a| a.is_exact())
        .filter_map(|a| run(game, a, settings))
        .collect();
    let minimax = rows[0].value;
    assert_eq!(rows[0].algorithm, Algorithm::Minimax);
    for row in &rows {
        assert_eq!(
            row.value,
            minimax,
            "{what}, depth {}, quiescence {}: {} returned {}, minimax {minimax}",
            settings.depth,
            settings.quiescence,
            row.algorithm.name(),
            row.value
        );
    }
    rows
}

/// Pruning only ever skips nodes: none of the alpha-beta rows (each a single search
/// without re-searches) visits more nodes than minimax.
fn check_not_more_than_minimax<M>(rows: &[Row<M>], what: &str) {
    let minimax = rows[0].stats;
    for row in rows.iter().filter(|r| {
        matches!(
            r.algorithm,
            Algorithm::AlphaBeta
                | Algorithm::AlphaBetaFailSoft
                | Algorithm::AlphaBetaOrdered
                | Algorithm::AlphaBetaKillers
                | Algorithm::AlphaBetaHistory
                | Algorithm::AlphaBetaTable
        )
    }) {
        assert!(
            row.stats.total() <= minimax.total() && row.stats.leaves <= minimax.leaves,
            "{what}: {} visited {:?}, minimax {:?}",
            row.algorithm.name(),
            row.stats,
            minimax
        );
    }
}

#[test]
fn exact_algorithms_agree_with_minimax_on_chess() {
    for &(name, fen, depth, q_depth) in CHESS {
        let game = chess(fen);
        for (d, quiescence) in [(depth, false), (q_depth, true)] {
            for depth in 1..=d {
                let rows = check_exact(&game, name, &settings(depth, quiescence));
                check_not_more_than_minimax(&rows, name);
            }
        }
    }
}

#[test]
fn mates_are_scored_by_distance() {
    let (_, fen, ..) = CHESS[2];
    let row = run_row(&chess(fen), Algorithm::Minimax, &settings(3, false));
    assert_eq!(row.value, MATE - 3, "mate in 2 moves = 3 plies");
    assert_eq!(row.best_name.as_deref(), Some("Nf6+"));
    let (_, fen, ..) = CHESS[3];
    for algorithm in [Algorithm::Mtdf, Algorithm::Aspiration, Algorithm::Etc] {
        let row = run_row(&chess(fen), algorithm, &settings(3, true));
        assert_eq!(row.value, MATE - 1, "{}", algorithm.name());
        assert_eq!(row.best_name.as_deref(), Some("Qxf7#"));
    }
}

#[test]
fn exact_algorithms_agree_with_minimax_on_synthetic_trees() {
    for branching in 2..=5 {
        for depth in 1..=6 {
            for seed in 0..6 {
                let tree = Synthetic::new(branching, depth, seed);
                let what = format!("synthetic N={branching} D={depth} seed {seed}");
                let rows = check_exact(&tree, &what, &settings(depth, false));
                check_not_more_than_minimax(&rows, &what);
                // Searched to a depth short of the leaves, the static values count.
                if depth > 2 {
                    check_exact(&tree, &what, &settings(depth - 2, false));
                }
            }
        }
    }
}

#[test]
fn exact_algorithms_agree_with_minimax_on_tictactoe() {
    for position in tictactoe::table_positions() {
        let depth = position.empty_squares();
        let rows = check_exact(&position, "tic-tac-toe", &settings(depth, false));
        check_not_more_than_minimax(&rows, "tic-tac-toe");
        assert_eq!(rows[0].value, 0, "tic-tac-toe is a draw");
    }
}

/// Random windows for the property tests.
impl Rng {
    /// A window (alpha, beta), alpha < beta, scattered around `m`: below, around or
    /// above it, narrow or wide, sometimes a null window, sometimes open on one side.
    fn window(&mut self, m: i32, spread: i32) -> (i32, i32) {
        let a = m + self.range(-spread, spread);
        let width = match self.next() % 4 {
            0 => 1,
            1 => self.range(1, 10),
            _ => self.range(1, 2 * spread),
        };
        match self.next() % 10 {
            0 => (-INF, a + width),
            1 => (a, INF),
            _ => (a, a + width),
        }
    }
}

/// v ≤ alpha ⇒ m ≤ v; alpha < v < beta ⇒ v = m; v ≥ beta ⇒ m ≥ v.
fn check_fail_soft(v: i32, m: i32, alpha: i32, beta: i32, what: &str) {
    let ok = if v <= alpha {
        m <= v
    } else if v >= beta {
        m >= v
    } else {
        v == m
    };
    assert!(
        ok,
        "{what}: window ({alpha}, {beta}) returned {v}, minimax value {m}"
    );
}

/// Fail-hard (Knuth & Moore's F2): an interior node's result is clamped to the window and
/// tells on which side m lies; a leaf (here: a finished game at the root) returns m itself.
fn check_fail_hard(v: i32, m: i32, alpha: i32, beta: i32, what: &str) {
    let ok = v == m || (v == alpha && m <= alpha) || (v == beta && m >= beta);
    assert!(
        ok,
        "{what}: fail-hard window ({alpha}, {beta}) returned {v}, minimax value {m}"
    );
}

/// Searches `game` with many random windows: fail-soft alpha-beta (natural order, and
/// ordered with a table kept across windows), PVS and fail-hard alpha-beta.
fn check_windows<G: Game>(
    game: &G,
    depth: u32,
    quiescence: bool,
    spread: i32,
    rng: &mut Rng,
    what: &str,
) {
    let m = run_row(game, Algorithm::Minimax, &settings(depth, quiescence)).value;
    let mut with_table = Lab::new(game.clone(), quiescence, Enhancements::ALL);
    for _ in 0..40 {
        let (alpha, beta) = rng.window(m, spread);
        let mut s = Lab::new(game.clone(), quiescence, Enhancements::NONE);
        let v = alphabeta_failsoft(&mut s, depth, 0, alpha, beta);
        check_fail_soft(v, m, alpha, beta, &format!("{what} alphabeta-failsoft"));
        let v = alphabeta_ordered(&mut with_table, depth, 0, alpha, beta);
        check_fail_soft(v, m, alpha, beta, &format!("{what} +tt (table kept)"));
        let mut s = Lab::new(game.clone(), quiescence, Enhancements::ALL);
        let v = pvs(&mut s, depth, 0, alpha, beta);
        check_fail_soft(v, m, alpha, beta, &format!("{what} pvs"));
        let mut s = Lab::new(game.clone(), quiescence, Enhancements::NONE);
        let v = alphabeta(&mut s, depth, 0, alpha, beta);
        check_fail_hard(v, m, alpha, beta, &format!("{what} alphabeta"));
    }
}

#[test]
fn fail_soft_bound_theorem_holds_for_random_windows() {
    let mut rng = Rng::new(2024);
    for &(name, fen, depth, q_depth) in CHESS {
        let game = chess(fen);
        check_windows(&game, depth.min(3), false, 150, &mut rng, name);
        check_windows(&game, q_depth.min(2), true, 150, &mut rng, name);
    }
    for seed in 0..40 {
        let branching = 2 + (seed % 4) as u32;
        let depth = 1 + (seed % 6) as u32;
        let tree = Synthetic::new(branching, depth, seed);
        check_windows(
            &tree,
            depth,
            false,
            3 * synthetic::SPREAD / 2,
            &mut rng,
            &format!("synthetic seed {seed}"),
        );
    }
}

#[test]
fn perfectly_ordered_alphabeta_visits_the_knuth_moore_minimal_tree() {
    for n in 2..=5u32 {
        for d in 1..=6u32 {
            for seed in 0..3 {
                let expected = knuth_moore_leaves(u64::from(n), d);
                let tree = Synthetic::new(n, d, seed).perfectly_ordered();
                let mut s = Lab::new(tree, false, Enhancements::NONE);
                alphabeta(&mut s, d, 0, -INF, INF);
                assert_eq!(
                    s.stats.leaves, expected,
                    "N={n} D={d} seed {seed}: perfectly ordered alpha-beta"
                );
                // The exact minimal tree of a uniform tree is the Knuth–Moore tree.
                let mut s = Lab::new(Synthetic::new(n, d, seed), false, Enhancements::ALL);
                let (_, size) = minimal_tree(&mut s, d);
                assert_eq!(
                    size.leaves, expected,
                    "N={n} D={d} seed {seed}: minimal tree"
                );
                // With the generator's (random) order alpha-beta does at least as much.
                let mut s = Lab::new(Synthetic::new(n, d, seed), false, Enhancements::NONE);
                alphabeta(&mut s, d, 0, -INF, INF);
                assert!(s.stats.leaves >= expected);
            }
        }
    }
    assert_eq!(knuth_moore_leaves(20, 5), 8_399);
}

/// Knuth and Moore's theorems, exactly: with the best move always first, alpha-beta visits
/// N^⌈D/2⌉ + N^⌊D/2⌋ − 1 leaves (every level k of its tree being the minimal tree of depth
/// k); on their worst-case tree, every move better than the ones before by more than its
/// subtree can change, it cuts nothing and visits all N^D leaves, as minimax does. (Merely
/// sorting a random tree worst-first is not enough: a bound proved near the root still
/// cuts deep in the tree.)
#[test]
fn alphabeta_visits_the_knuth_moore_tree_in_the_best_order_and_every_leaf_in_the_worst() {
    let cases = [
        (2, 1),
        (2, 7),
        (3, 4),
        (3, 5),
        (4, 6),
        (5, 3),
        (6, 4),
        (8, 3),
    ];
    for (n, d) in cases {
        let worst = Synthetic::pessimal(n, d).expect("small trees fit");
        let mut s = Lab::new(worst, false, Enhancements::NONE);
        alphabeta(&mut s, d, 0, -INF, INF);
        assert_eq!(
            s.stats.leaves,
            u64::from(n).pow(d),
            "N={n} D={d}: worst case"
        );
        let all = uniform_nodes(f64::from(n), d);
        assert_eq!(
            s.stats.total() as f64,
            all,
            "N={n} D={d}: worst case, all nodes"
        );
        for seed in 0..2 {
            let what = format!("N={n} D={d} seed {seed}");
            let best = Synthetic::new(n, d, seed).perfectly_ordered();
            let mut s = Lab::new(best, false, Enhancements::NONE);
            alphabeta(&mut s, d, 0, -INF, INF);
            let expected = u64::from(n).pow(d.div_ceil(2)) + u64::from(n).pow(d / 2) - 1;
            assert_eq!(s.stats.leaves, expected, "{what}: best order, leaves");
            let all: f64 = knuth_moore_nodes(f64::from(n), d);
            assert_eq!(s.stats.total() as f64, all, "{what}: best order, all nodes");
        }
    }
}

#[test]
fn the_engine_row_runs_on_chess_only() {
    let (_, fen, ..) = CHESS[3];
    let row = run(&chess(fen), Algorithm::Engine, &settings(3, false)).expect("chess");
    assert_eq!(row.value, MATE - 1, "the engine finds Qxf7#");
    assert_eq!(row.best_name.as_deref(), Some("Qxf7#"));
    assert!(row.stats.total() > 0 && !row.over_budget);
    assert!(!Algorithm::Engine.is_exact());
    assert!(
        run(
            &Synthetic::new(3, 3, 1),
            Algorithm::Engine,
            &settings(3, false)
        )
        .is_none()
    );
    assert!(run(&TicTacToe::table1(), Algorithm::Engine, &settings(3, false)).is_none());
}

#[test]
fn a_row_over_its_node_budget_says_so() {
    let (_, fen, ..) = CHESS[0];
    let budget = Settings {
        node_budget: 5_000,
        ..settings(4, false)
    };
    for algorithm in [
        Algorithm::Minimax,
        Algorithm::AlphaBeta,
        Algorithm::MinimalTree,
    ] {
        let row = run_row(&chess(fen), algorithm, &budget);
        assert!(row.over_budget, "{}: {:?}", algorithm.name(), row.stats);
    }
    // Minimax visits 206,604 nodes to depth 4 from the initial position: it stops at once.
    let row = run_row(&chess(fen), Algorithm::Minimax, &budget);
    assert_eq!(row.stats.total(), 5_000);
    let row = run_row(&chess(fen), Algorithm::Pvs, &budget);
    assert!(!row.over_budget, "{:?}", row.stats);
}

/// A sweep of a few synthetic trees: the minimal tree of a uniform tree is the formula's,
/// and a row over budget is censored at its depth and not run deeper.
#[test]
fn sweeps_summarise_every_row_and_depth() {
    let rows = [
        Algorithm::Minimax,
        Algorithm::AlphaBeta,
        Algorithm::Pvs,
        Algorithm::MinimalTree,
    ];
    let budget = Settings {
        node_budget: 300,
        ..Settings::new(1)
    };
    let tree = |i: usize, depth: u32| (format!("seed {i}"), Synthetic::new(3, depth, i as u64));
    let report = sweep::sweep("test", 5, tree, &rows, 1..=5, &budget, &|_| {});
    assert_eq!(report.depths, [1, 2, 3, 4, 5]);
    assert_eq!(report.algorithms, rows, "no engine row outside chess");
    for (d, summaries) in report.summaries.iter().enumerate() {
        let depth = d as u32 + 1;
        let reference = report.references[d];
        assert_eq!(reference.uniform, uniform_nodes(3.0, depth));
        // Where the search for it stays within the budget, the minimal tree is the formula's.
        let minimal = &summaries[3];
        if minimal.over_budget == 0 {
            assert_eq!(
                minimal.nodes.median,
                Some(reference.knuth_moore),
                "depth {depth}"
            );
            assert_eq!(minimal.vs_formula.max, Some(1.0));
            assert_eq!(minimal.vs_minimal.map(|q| q.max), Some(Some(1.0)));
        } else {
            assert!(depth > 3, "depth {depth}: {minimal:?}");
        }
        // Minimax visits the whole tree: 1 + 3 + 9 + 27 + 81 = 121 nodes to depth 4, 364
        // to depth 5, over the budget of 300 on every tree.
        let minimax = &summaries[0];
        if depth <= 4 {
            assert_eq!(minimax.nodes.median, Some(reference.uniform));
            assert_eq!(minimax.over_budget, 0);
        } else {
            assert_eq!(minimax.nodes, Quartiles::default());
            assert_eq!(minimax.over_budget, 5);
        }
    }
    for p in &report.positions {
        assert_eq!(p.branching, 3);
        assert!(p.cells[4][0].is_none(), "minimax censored at depth 5");
    }
    let savings = report.savings.expect("alpha-beta stays within the budget");
    assert_eq!(savings.depth, 5);
    assert_eq!(savings.ratios[0], (Algorithm::Minimax, None));
}

/// The chart of a tiny sweep has one line per row, found by its legend text, and the two
/// formulas.
#[test]
fn charts_have_one_series_per_row() {
    let rows = [
        Algorithm::AlphaBeta,
        Algorithm::AlphaBetaOrdered,
        Algorithm::Mtdf,
        Algorithm::MinimalTree,
    ];
    let tree = |i: usize, depth: u32| (format!("seed {i}"), Synthetic::new(3, depth, i as u64));
    let report = sweep::sweep("tiny", 2, tree, &rows, 1..=3, &Settings::new(1), &|_| {});
    let scratch = common::scratch("lab", "charts");
    let dir = scratch.path();
    let files = plot::write_charts(&report, dir).expect("charts drawn");
    let names: Vec<String> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["nodes.svg", "ebf.svg", "savings.svg"]);
    let text = |name: &str| std::fs::read_to_string(dir.join(name)).expect("SVG written");
    let (nodes, ebf) = (text("nodes.svg"), text("ebf.svg"));
    // A legend entry is an SVG text element of its own: ">name\n</text>".
    let entries = |svg: &str, legend: &str| svg.matches(&format!(">\n{legend}\n</text>")).count();
    for a in rows {
        assert_eq!(
            entries(&nodes, &plot::legend(a)),
            1,
            "{}:\n{nodes}",
            a.name()
        );
        assert_eq!(entries(&ebf, &plot::legend(a)), 1, "{}", a.name());
    }
    assert_eq!(entries(&nodes, plot::UNIFORM_LEGEND), 1);
    assert_eq!(entries(&nodes, plot::KNUTH_MOORE_LEGEND), 1);
}

#[test]
fn tictactoe_reproduces_the_notes_table() {
    let table1 = TicTacToe::table1();
    let count = |search| tictactoe::drive(&table1, search).stats.total();
    assert_eq!(count(TableSearch::Minimax), 59_704);
    assert_eq!(count(TableSearch::AlphaBeta), 4_089);
    assert_eq!(count(TableSearch::NotesAlphaBeta), 13_052);
    for search in TableSearch::ALL {
        let r = tictactoe::drive(&table1, search);
        assert_eq!(r.value, 0, "{}: O draws", search.name());
        assert_eq!(r.best, 4, "{}: O takes the centre", search.name());
        // Every corner or edge reply loses against best play.
        for &(m, v) in &r.values {
            assert_eq!(v, if m == 4 { 0 } else { -1 }, "{} move {m}", search.name());
        }
    }
    let empties: Vec<u32> = tictactoe::table_positions()
        .iter()
        .map(TicTacToe::empty_squares)
        .collect();
    assert_eq!(empties, [8, 6, 4, 2]);
}

#[test]
fn bstar_separates_on_a_free_queen() {
    let (_, fen, ..) = CHESS[6];
    let row = run_row(&chess(fen), Algorithm::BStar, &settings(3, false));
    let Detail::BStar(report) = row.detail else {
        panic!("B* reports how it stopped");
    };
    assert!(report.separated, "{report:?}");
    assert!(report.lower >= report.rival_upper.unwrap());
    assert_eq!(row.best_name.as_deref(), Some("Nxh4"));
    assert!(row.stats.total() < Settings::new(3).bstar_budget);
}

#[test]
fn bstar_stops_at_its_budget_without_separation() {
    let (_, fen, ..) = CHESS[0];
    let budget = 20_000;
    let row = run_row(
        &chess(fen),
        Algorithm::BStar,
        &Settings {
            bstar_budget: budget,
            ..settings(3, false)
        },
    );
    let Detail::BStar(report) = row.detail else {
        panic!("B* reports how it stopped");
    };
    assert!(
        !report.separated,
        "the initial position has no clearly best move"
    );
    assert!(row.stats.total() >= budget);
    assert!(row.best.is_some());
}

#[test]
fn every_row_starts_from_a_cleared_table() {
    let game = chess(CHESS[1].1);
    for algorithm in Algorithm::ALL {
        let a = run_row(&game, algorithm, &settings(2, false));
        let b = run_row(&game, algorithm, &settings(2, false));
        assert_eq!(a.stats, b.stats, "{}", algorithm.name());
        assert_eq!(a.value, b.value, "{}", algorithm.name());
    }
}

#[test]
fn algorithm_names_round_trip() {
    for a in Algorithm::ALL {
        assert_eq!(Algorithm::parse(a.name()), Some(a));
    }
    assert_eq!(
        Algorithm::parse("killers"),
        Some(Algorithm::AlphaBetaKillers)
    );
    assert_eq!(
        Algorithm::parse("alphabeta-tt"),
        Some(Algorithm::AlphaBetaTable)
    );
    assert_eq!(Algorithm::parse("nonsense"), None);
}

#[test]
fn lab_command_prints_every_row_and_writes_json() {
    let scratch = common::scratch("lab", "json");
    let json_path = scratch.path().join("lab.json");
    let out = std::process::Command::new(common::BINARY)
        .args(["lab", "--depth", "3", "--json"])
        .arg(&json_path)
        .output()
        .expect("run cutoff lab");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    for a in Algorithm::ALL {
        assert!(
            text.lines()
                .any(|l| l.starts_with(&format!("{} ", a.name()))),
            "row {} missing:\n{text}",
            a.name()
        );
    }
    assert!(!text.contains("DIFFERS"), "{text}");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json_path).expect("JSON written"))
            .expect("valid JSON");
    let rows = doc["positions"][0]["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), Algorithm::ALL.len());
    let minimax = rows[0]["value"].as_i64().unwrap();
    for row in rows {
        assert!(row["nodes"].as_u64().unwrap() > 0);
        if row["exact"] == serde_json::Value::Bool(true) {
            assert_eq!(row["value"].as_i64().unwrap(), minimax, "{row}");
        }
    }
    assert!(rows.iter().any(|r| r["bstar"]["stop"].is_string()));
}

#[test]
fn lab_command_prints_the_tictactoe_table() {
    let out = std::process::Command::new(common::BINARY)
        .args(["lab", "--game", "tictactoe"])
        .output()
        .expect("run cutoff lab");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for count in ["59,704", "4,089", "13,052"] {
        assert!(text.contains(count), "{count} missing:\n{text}");
    }
    let rows = text
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .count();
    assert_eq!(
        rows, 12,
        "three rows for 8, 6, 4 and 2 empty squares:\n{text}"
    );
}

#[test]
fn lab_command_sweeps_depths_into_json_and_charts() {
    let scratch = common::scratch("lab", "sweep");
    let dir = scratch.path();
    let json_path = dir.join("sweep.json");
    let out = std::process::Command::new(common::BINARY)
        .args(["lab", "--depths", "1..3", "--algos", "minimax,pvs,engine"])
        .args(["--budget", "2000", "--json"])
        .arg(&json_path)
        .arg("--plot")
        .arg(dir)
        .output()
        .expect("run cutoff lab");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    // Minimax visits 1 + 20 + 400 = 421 nodes to depth 2 and 9,323 to depth 3.
    let minimax: Vec<&str> = text.lines().filter(|l| l.starts_with("minimax ")).collect();
    assert_eq!(minimax.len(), 3, "{text}");
    assert!(minimax[1].contains(" 421 "), "{}", minimax[1]);
    assert!(minimax[2].contains("> budget"), "{}", minimax[2]);
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json_path).expect("JSON written"))
            .expect("valid JSON");
    for chart in ["nodes.svg", "ebf.svg"] {
        assert!(dir.join(chart).exists(), "{chart}");
    }
    assert_eq!(doc["depths"], serde_json::json!([1, 2, 3]));
    assert_eq!(
        doc["algorithms"],
        serde_json::json!(["minimax", "pvs", "engine"])
    );
    let summaries = doc["summaries"].as_array().expect("summaries");
    assert_eq!(summaries.len(), 9);
    assert_eq!(summaries[3]["nodes"]["median"], 421.0);
    assert_eq!(summaries[6]["over_budget"], 1);
    assert!(summaries[6]["nodes"]["median"].is_null());
    assert_eq!(doc["references"][1]["uniform_nodes"], 421.0);
    let cells = &doc["positions"][0]["depths"][2]["rows"];
    assert_eq!(cells[0]["over_budget"], true);
    assert!(cells[2]["nodes"].as_u64().unwrap() > 0, "the engine's row");
}

#[test]
fn lab_command_rejects_unknown_algorithms() {
    let out = std::process::Command::new(common::BINARY)
        .args(["lab", "--algos", "minimax,quantum"])
        .output()
        .expect("run cutoff lab");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("quantum"));
}

/// A position without a legal move has no tree to compare searches on: `--fen` with one
/// is an error, and `--epd` skips one and runs the rest.
#[test]
fn positions_without_moves_are_not_run() {
    const MATED: &str = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let out = std::process::Command::new(common::BINARY)
        .args(["lab", "--fen", MATED, "--depth", "2"])
        .output()
        .expect("run cutoff lab");
    assert!(!out.status.success());
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains("no legal moves"), "{e}");

    let scratch = common::scratch("lab", "no-moves");
    let epd = scratch.path().join("two.epd");
    std::fs::write(
        &epd,
        format!(
            "{MATED} id \"mated\";\n{} id \"start\";\n",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
        ),
    )
    .unwrap();
    let out = std::process::Command::new(common::BINARY)
        .args([
            "lab",
            "--epd",
            epd.to_str().unwrap(),
            "--depths",
            "1..2",
            "--algos",
            "alphabeta,minimal-tree",
        ])
        .output()
        .expect("run cutoff lab");
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{e}");
    assert!(
        e.contains("two.epd:1: no legal moves") && !e.contains("NaN"),
        "{e}"
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("NaN"));
}
