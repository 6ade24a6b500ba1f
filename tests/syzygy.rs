//! Syzygy tablebases through the library: won endings converted within the fifty-move
//! rule, draws kept, the root moves ranked, probes inside the tree, damaged files; and
//! the `Syzygy50MoveRule` option through the built binary over UCI.
//!
//! Every verdict is checked against the tables read directly with `shakmaty-syzygy`,
//! not against the engine's own use of them. The tables are the few small files in
//! tests/data/syzygy (provenance in its README).

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use common::Engine;
use cutoff_engine::board::Board;
use cutoff_engine::limits::Limits;
use cutoff_engine::score::{DRAW, TB_CURSED_WIN, TB_WIN};
use cutoff_engine::search::{SearchOptions, SearchResult, Searcher, SyzygyOptions};
use cutoff_engine::tablebase::{RootMethod, Tablebases};
use shakmaty::{Chess, Position};
use shakmaty_syzygy::{AmbiguousWdl, Tablebase};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy")
}

/// The engine's tables, loaded from `folder` (which must load without complaint).
fn engine_tables(folder: &Path) -> Arc<Tablebases> {
    let (tables, scans) = Tablebases::load(&[folder.to_path_buf()]);
    assert!(
        scans
            .iter()
            .all(|s| s.outcome.is_ok() && s.rejected.is_empty()),
        "{scans:?}"
    );
    Arc::new(tables)
}

/// The same tables read directly, to judge the engine's moves.
fn referee() -> Tablebase<Chess> {
    let mut tables = Tablebase::new();
    tables.add_directory(data_dir()).expect("test tables");
    tables
}

/// WDL of `pos` for its side to move, counting its halfmove clock.
fn wdl(referee: &Tablebase<Chess>, pos: &Chess) -> AmbiguousWdl {
    referee.probe_wdl(pos).expect("position in the test tables")
}

fn searcher(tables: Option<Arc<Tablebases>>) -> Searcher {
    let mut s = Searcher::new(16).expect("16 MB table");
    s.set_tablebases(tables);
    s
}

fn search(s: &mut Searcher, board: &Board, limits: &Limits) -> SearchResult {
    s.search(board, limits, &SearchOptions::default(), &mut |_| {})
}

fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

/// Plays the engine against itself from `fen` until mate, at most `max_plies`. Returns
/// the halfmove clock before each move, and whether the game ended in mate. After every
/// move of the side to move at the start, the referee must still call the position won.
fn self_play(fen: &str, max_plies: usize) -> (Vec<u32>, bool) {
    let referee = referee();
    let mut s = searcher(Some(engine_tables(&data_dir())));
    let mut board = Board::from_fen(fen, false).expect("test FEN");
    let winner = board.turn();
    let mut clocks = Vec::new();
    for _ in 0..max_plies {
        if board.legal_moves().is_empty() {
            return (clocks, board.in_check());
        }
        clocks.push(board.pos().halfmoves());
        let best = search(&mut s, &board, &nodes(5_000))
            .best
            .expect("a legal move");
        let mover = board.turn();
        board.make(best);
        board.commit();
        if mover == winner && !board.legal_moves().is_empty() {
            let after = wdl(&referee, board.pos());
            assert!(
                matches!(after, AmbiguousWdl::Loss | AmbiguousWdl::MaybeLoss),
                "{} spoiled the win: {after:?} in {}",
                board.fen(),
                fen
            );
        }
    }
    (clocks, false)
}

#[test]
fn kqvk_and_krvk_are_mated_within_the_fifty_move_rule() {
    for fen in [
        "8/8/8/4k3/8/8/8/3QK3 w - - 0 1",
        "8/8/8/4k3/8/8/8/4K2R w - - 0 1",
        "k7/8/8/8/8/8/8/4K2R w - - 0 1",
        // DTZ 27 with 73 plies on the clock: only a DTZ-optimal move at every turn mates
        // in time (the tables call the position won, and only just).
        "8/8/8/4k3/8/8/8/4K2R w - - 73 60",
    ] {
        let referee = referee();
        let start = Board::from_fen(fen, false).expect("test FEN");
        assert!(
            matches!(
                wdl(&referee, start.pos()),
                AmbiguousWdl::Win | AmbiguousWdl::MaybeWin
            ),
            "{fen} is won"
        );
        let (clocks, mated) = self_play(fen, 120);
        assert!(mated, "{fen}: no mate in {} plies", clocks.len());
        // The mating move is played with at most 99 halfmoves on the clock: nobody
        // could claim a draw by the fifty-move rule before it.
        let last = *clocks.last().expect("a move");
        assert!(last <= 99, "{fen}: mate played on halfmove {last}");
    }
}

/// The `cp` score of a UCI `info` line (None for a mate score or no score).
fn cp_of(info: &str) -> Option<i32> {
    let mut words = info.split(' ');
    words.find(|&w| w == "score")?;
    match (words.next(), words.next()) {
        (Some("cp"), Some(n)) => n.parse().ok(),
        _ => None,
    }
}

/// `Syzygy50MoveRule` over UCI, through the built binary. KRvK at DTZ 27: with 60 plies
/// on the clock the mate comes in time (a win either way); with 80 the fifty-move rule
/// ends the game first, a cursed win, which the option on scores as a draw (nudged
/// towards the side the tables favour) and off as the tables' win.
#[test]
fn syzygy_50_move_rule_over_uci_draws_a_cursed_win() {
    let fen = |clock: u32| format!("8/8/8/4k3/8/8/8/4K2R w - - {clock} 60");
    let referee = referee();
    let wdl_at = |clock| {
        wdl(
            &referee,
            Board::from_fen(&fen(clock), false).expect("FEN").pos(),
        )
    };
    assert_eq!(wdl_at(0), AmbiguousWdl::Win);
    assert_eq!(wdl_at(60), AmbiguousWdl::Win);
    assert_eq!(wdl_at(80), AmbiguousWdl::CursedWin);

    // The tables' win one ply from the root, as `info` prints it.
    let win = TB_WIN - 1;
    assert_eq!(win, 31_870);
    assert_eq!(TB_CURSED_WIN, 2);
    let mut e = Engine::spawn();
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        data_dir().display()
    ));
    let loaded = e.sync();
    assert_eq!(
        loaded.last().map(String::as_str),
        Some("info string Syzygy: 10 tables in all, endings of up to 4 pieces"),
        "{loaded:?}"
    );
    for (rule50, clock, expected) in [
        ("true", 80, TB_CURSED_WIN),
        ("false", 80, win),
        ("true", 60, win),
        ("false", 60, win),
    ] {
        e.send("ucinewgame");
        e.send(&format!("setoption name Syzygy50MoveRule value {rule50}"));
        e.send(&format!("position fen {}", fen(clock)));
        let lines = e.go("go depth 6");
        let scores: Vec<Option<i32>> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .map(|l| cp_of(l))
            .collect();
        assert_eq!(
            scores,
            vec![Some(expected); 6],
            "Syzygy50MoveRule {rule50}, clock {clock}: {lines:?}"
        );
    }
    e.quit();
}

#[test]
fn kbvk_is_a_draw() {
    let tables = engine_tables(&data_dir());
    let mut s = searcher(Some(tables));
    let board = Board::from_fen("8/8/3k4/8/8/2B5/8/4K3 w - - 0 1", false).expect("FEN");
    let result = search(&mut s, &board, &Limits::depth(8));
    assert_eq!(result.score, DRAW);
    // All 15 root moves were ranked by the tables.
    assert_eq!(result.tbhits, 15);
}

/// King and pawn against king with the defender in front: a pawn up to the evaluation,
/// a draw to the tables, and the tables win.
#[test]
fn kpvk_draw_is_scored_as_a_draw() {
    let board = Board::from_fen("8/8/8/8/8/4k3/4P3/4K3 w - - 0 1", false).expect("FEN");
    let without = search(&mut searcher(None), &board, &Limits::depth(10));
    assert!(without.score > 50, "evaluation: {}", without.score);
    assert_eq!(without.tbhits, 0);
    let tables = engine_tables(&data_dir());
    let with = search(&mut searcher(Some(tables)), &board, &Limits::depth(10));
    assert_eq!(with.score, DRAW);
    assert!(with.tbhits > 0);
}

/// Rook against bishop, drawn, with moves that lose for the bishop's side: with the
/// tables the engine, on either side, never plays a move that changes the verdict.
#[test]
fn krvkb_draw_is_held() {
    let fen = "8/8/8/3k4/8/8/5R2/2b1K3 b - - 0 1";
    let referee = referee();
    let mut board = Board::from_fen(fen, false).expect("FEN");
    assert_eq!(wdl(&referee, board.pos()), AmbiguousWdl::Draw);
    // The test means something: some bishop-side moves lose here.
    let losing = board
        .legal_moves()
        .iter()
        .filter(|&&m| {
            let mut after = board.pos().clone();
            after.play_unchecked(m);
            wdl(&referee, &after) == AmbiguousWdl::Win
        })
        .count();
    assert!(losing > 0, "no losing move to avoid");
    let mut s = searcher(Some(engine_tables(&data_dir())));
    for _ in 0..40 {
        let best = search(&mut s, &board, &nodes(5_000))
            .best
            .expect("a legal move");
        board.make(best);
        board.commit();
        if board.legal_moves().is_empty() {
            break;
        }
        let verdict = wdl(&referee, board.pos());
        assert!(
            !matches!(
                verdict,
                AmbiguousWdl::Win
                    | AmbiguousWdl::MaybeWin
                    | AmbiguousWdl::Loss
                    | AmbiguousWdl::MaybeLoss
            ),
            "{} is {verdict:?} after a move from a draw",
            board.fen()
        );
    }
}

/// The rook attacked by the king, and many moves leaving it en prise: at depth 1 the
/// ranked root keeps only moves that keep the win, and the score is the tables' win.
#[test]
fn root_ranking_keeps_the_win() {
    let fen = "8/8/8/8/8/2k5/3R4/7K w - - 0 1";
    let referee = referee();
    let board = Board::from_fen(fen, false).expect("FEN");
    let throws = board
        .legal_moves()
        .iter()
        .filter(|&&m| {
            let mut after = board.pos().clone();
            after.play_unchecked(m);
            wdl(&referee, &after) != AmbiguousWdl::Loss
        })
        .count();
    assert!(throws > 0, "no move throws the win away");
    let tables = engine_tables(&data_dir());
    let (ranks, method) = tables
        .rank_root(&board, &board.legal_moves(), true)
        .expect("ranked");
    assert_eq!(method, RootMethod::Dtz);
    for r in &ranks {
        let mut after = board.pos().clone();
        after.play_unchecked(r.mv);
        assert_eq!(wdl(&referee, &after), AmbiguousWdl::Loss);
        assert_eq!(r.score, TB_WIN - 1);
    }
    for limits in [Limits::depth(1), nodes(1), Limits::depth(6)] {
        let result = search(&mut searcher(Some(Arc::clone(&tables))), &board, &limits);
        let mut after = board.pos().clone();
        after.play_unchecked(result.best.expect("a move"));
        assert_eq!(wdl(&referee, &after), AmbiguousWdl::Loss);
        assert_eq!(result.score, TB_WIN - 1);
    }
}

/// Five pieces, more than any table: the bishop takes the pawn before it queens, which
/// leads into a drawn rook-against-bishop ending the tree finds in the tables (an exact
/// draw), where the evaluation alone sees a rook against a bishop (its endgame scale
/// shrinks that edge as drawish, to -67 at depth 8 when this was written, but no more).
#[test]
fn probes_inside_the_tree_score_a_capture_into_the_tables() {
    let fen = "8/P7/8/8/8/4bk2/8/4K2R b - - 0 1";
    let board = Board::from_fen(fen, false).expect("FEN");
    let without = search(&mut searcher(None), &board, &Limits::depth(8));
    assert_eq!(without.tbhits, 0);
    assert!(without.score < -30, "evaluation: {}", without.score);
    let tables = engine_tables(&data_dir());
    let with = search(&mut searcher(Some(tables)), &board, &Limits::depth(8));
    assert!(with.tbhits > 0);
    assert_eq!(with.score, DRAW);
    assert_eq!(
        with.best.map(|m| board.uci(m)).as_deref(),
        Some("e3a7"),
        "the bishop takes the pawn"
    );
}

/// `SyzygyProbeLimit` 0 and a probe depth beyond the search switch the tree's probes off.
#[test]
fn probe_limit_and_depth_switch_probes_off() {
    let fen = "8/P7/8/8/8/4bk2/8/4K2R b - - 0 1";
    let board = Board::from_fen(fen, false).expect("FEN");
    let tables = engine_tables(&data_dir());
    for syzygy in [
        SyzygyOptions {
            probe_limit: 0,
            ..SyzygyOptions::default()
        },
        SyzygyOptions {
            probe_depth: 20,
            ..SyzygyOptions::default()
        },
    ] {
        let options = SearchOptions {
            syzygy,
            ..SearchOptions::default()
        };
        let result = searcher(Some(Arc::clone(&tables))).search(
            &board,
            &Limits::depth(8),
            &options,
            &mut |_| {},
        );
        assert_eq!(result.tbhits, 0, "{syzygy:?}");
    }
}

/// A DTZ table cut short at a size the load check accepts: the probe fails when the
/// table is opened, the root falls back to WDL, and the win is still kept.
#[test]
fn damaged_dtz_table_falls_back_to_wdl() {
    let scratch = common::scratch("syzygy", "damaged");
    let dir = scratch.path();
    let wdl_bytes = std::fs::read(data_dir().join("KQvK.rtbw")).expect("KQvK.rtbw");
    std::fs::write(dir.join("KQvK.rtbw"), wdl_bytes).expect("copy");
    let dtz_bytes = std::fs::read(data_dir().join("KQvK.rtbz")).expect("KQvK.rtbz");
    // 16 + 64·k bytes is the size check's idea of a whole table.
    std::fs::write(dir.join("KQvK.rtbz"), &dtz_bytes[..16 + 64 * 4]).expect("cut copy");
    let tables = engine_tables(dir);
    assert_eq!(tables.files(), 2);
    let fen = "8/8/8/4k3/8/8/8/3QK3 w - - 0 1";
    let board = Board::from_fen(fen, false).expect("FEN");
    let (_, method) = tables
        .rank_root(&board, &board.legal_moves(), true)
        .expect("ranked by WDL");
    assert_eq!(method, RootMethod::Wdl);
    let result = search(&mut searcher(Some(tables)), &board, &Limits::depth(6));
    let mut after = board.pos().clone();
    after.play_unchecked(result.best.expect("a move"));
    assert_eq!(wdl(&referee(), &after), AmbiguousWdl::Loss);
}

#[test]
fn load_reports_missing_folders_and_damaged_files() {
    let scratch = common::scratch("syzygy", "load");
    let dir = scratch.path().to_path_buf();
    let bytes = std::fs::read(data_dir().join("KRvK.rtbz")).expect("KRvK.rtbz");
    std::fs::write(dir.join("KRvK.rtbz"), &bytes[..1000]).expect("truncated copy");
    std::fs::write(dir.join("README.txt"), "not a table").expect("other file");
    let missing = dir.join("missing");
    let (tables, scans) = Tablebases::load(&[missing.clone(), dir.clone(), data_dir()]);
    assert_eq!(scans.len(), 3);
    assert_eq!(scans[0].folder, missing);
    assert_eq!(
        scans[0].outcome.as_ref().map_err(|e| e.kind()).err(),
        Some(std::io::ErrorKind::NotFound)
    );
    assert_eq!(*scans[1].outcome.as_ref().expect("listed"), 0);
    assert_eq!(scans[1].rejected.len(), 1);
    assert_eq!(scans[1].rejected[0].0, dir.join("KRvK.rtbz"));
    assert_eq!(*scans[2].outcome.as_ref().expect("listed"), 10);
    assert_eq!(tables.files(), 10);
    assert_eq!(tables.max_pieces(), 4);
}

#[test]
fn syzygy_path_splits_like_path() {
    assert!(Tablebases::split_path("").is_empty());
    assert!(Tablebases::split_path("<empty>").is_empty());
    let sep = if cfg!(windows) { ';' } else { ':' };
    assert_eq!(
        Tablebases::split_path(&format!("/tb/345{sep}/tb/6{sep}")),
        [PathBuf::from("/tb/345"), PathBuf::from("/tb/6")]
    );
}

/// Plays `moves` (UCI) from `fen`, each one a game move, so that the board keeps the
/// positions on the way (as after `position fen … moves …`).
fn board_after(fen: &str, moves: &[&str]) -> Board {
    let mut board = Board::from_fen(fen, false).expect("FEN");
    for text in moves {
        let m = board.parse_uci(text).expect("legal move");
        board.make(m);
        board.commit();
    }
    board
}

/// The root moves the ranking keeps, in UCI.
fn ranked_moves(tables: &Tablebases, board: &Board) -> Vec<String> {
    let (ranks, method) = tables
        .rank_root(board, &board.legal_moves(), true)
        .expect("ranked");
    assert_eq!(method, RootMethod::Dtz);
    assert!(ranks.iter().all(|r| r.score == TB_WIN - 1), "{ranks:?}");
    let mut moves: Vec<String> = ranks.iter().map(|r| board.uci(r.mv)).collect();
    moves.sort();
    moves
}

/// The KRvK table keeps DTZ rounded to even plies for the losing side, so a zeroing move
/// it puts 28 plies away after Kg2 or Kh2 may come on the 29th. From a clock of 70 they
/// are sure wins with Ra4 (24 or 25 plies); from 71 the 29th ply would be the 101st and
/// only Ra4 remains (the ranking once counted the rounded value as exact, keeping all
/// three).
#[test]
fn root_ranking_counts_a_rounded_dtz_at_its_worst() {
    let tables = engine_tables(&data_dir());
    let at = |clock: u32| format!("8/8/8/8/8/4k3/8/R6K w - - {clock} 80");
    let board = Board::from_fen(&at(70), false).expect("FEN");
    assert_eq!(ranked_moves(&tables, &board), ["a1a4", "h1g2", "h1h2"]);
    let board = Board::from_fen(&at(71), false).expect("FEN");
    assert_eq!(ranked_moves(&tables, &board), ["a1a4"]);
}

/// Kg1 would bring about, a third time, the position after 1. Kg1 and 3. Kg1: a draw,
/// whatever the tables say of the position. The ranking keeps every other move (each
/// wins) and drops it (it once ranked it with them).
#[test]
fn root_ranking_drops_a_move_that_repeats_a_position_a_third_time() {
    let tables = engine_tables(&data_dir());
    let fen = "8/8/8/8/8/4k3/8/R6K w - - 0 1";
    let moves = [
        "h1g1", "e3e4", "g1h2", "e4e3", "h2g1", "e3e4", "g1h1", "e4e3",
    ];
    let board = board_after(fen, &moves);
    let kept = ranked_moves(&tables, &board);
    let mut others: Vec<String> = board
        .legal_moves()
        .iter()
        .map(|&m| board.uci(m))
        .filter(|m| m != "h1g1")
        .collect();
    others.sort();
    assert_eq!(kept, others);
}
