//! Time use through the `cutoff` binary with tiny clocks: no move spends more than its
//! share of the clock, under `movestogo 1` and over a whole 40/4 period, and the clock
//! never runs out.
//!
//! A move's share is the engine's hard limit as `engine/src/time.rs` computes it from the
//! `TIME_*` tunables of `cutoff_engine::params`, read here so that a tune that moves them
//! moves the bound too: with `mtg` moves to the control and `left` the clock less the Move
//! Overhead for each of them, the soft limit is the even share `left / mtg`, at most
//! `TIME_SOFT_MAX_PERCENT` of `left`, and the hard limit `TIME_HARD_SOFT_PERCENT` of the
//! soft one, at most `TIME_HARD_MAX_PERCENT` of `left`. The time a move takes is measured
//! here, from `go` sent to `bestmove` read, so it includes the latency of the pipes and of
//! a loaded machine, which the Move Overhead stands for: the tests set it to 30 ms, what a
//! test machine shared with other jobs may lose (the engine's default, 10 ms, is for a
//! quiet one).

mod common;

use common::{Engine, LONG, timing_lock};
use cutoff_engine::board::Board;
use cutoff_engine::params::{TIME_HARD_MAX_PERCENT, TIME_HARD_SOFT_PERCENT, TIME_SOFT_MAX_PERCENT};

/// The Move Overhead the tests set.
const OVERHEAD_MS: f64 = 30.0;
/// Latency beyond the share that a measured move may show without failing, where one move
/// is measured (the fastest of `TRIES`)…
const SLACK_MS: f64 = 50.0;
/// …and where every move of a game is: 90 replies meet a burst of load now and then, which
/// took moves 53-63 ms past their share on this 2-core machine beside two CI builds (load
/// average 18-21), while a move that ignores its share takes hundreds of milliseconds more.
const GAME_SLACK_MS: f64 = 100.0;
/// Tries of each `movestogo 1` search: a burst of load elsewhere may slow one, while an
/// engine that overspends does so every time.
const TRIES: usize = 3;

/// An engine with the tests' Move Overhead.
fn engine() -> Engine {
    let mut e = Engine::spawn();
    e.send(&format!(
        "setoption name Move Overhead value {OVERHEAD_MS:.0}"
    ));
    e.expect_silent("setoption");
    e
}

/// A `TIME_*_PERCENT` tunable as a fraction.
fn fraction(percent: i32) -> f64 {
    f64::from(percent) / 100.0
}

/// The most a move may take with `clock_ms` on the clock, `mtg` moves to the control and
/// no increment: the engine's hard limit.
fn share_ms(clock_ms: f64, mtg: u32) -> f64 {
    let left = (clock_ms - OVERHEAD_MS * f64::from(mtg)).max(1.0);
    let soft = (left / f64::from(mtg)).min(left * fraction(TIME_SOFT_MAX_PERCENT()));
    (soft * fraction(TIME_HARD_SOFT_PERCENT()))
        .min(left * fraction(TIME_HARD_MAX_PERCENT()))
        .max(soft)
}

/// Sends `go` and returns the best move and the milliseconds until it came.
fn timed_go(e: &mut Engine, go: &str) -> (String, f64) {
    e.send(go);
    let sent = e.last_sent();
    let (lines, at) = e.lines_until_timed("bestmove", LONG);
    let best = lines
        .last()
        .and_then(|l| l.split_whitespace().nth(1))
        .expect("bestmove has a move")
        .to_string();
    (best, at.duration_since(sent).as_secs_f64() * 1000.0)
}

/// The last move before the control, with 400 ms left, spends at most
/// `TIME_HARD_MAX_PERCENT` of the clock less the overhead (it spent up to 85 % before).
#[test]
fn movestogo_one_leaves_a_reserve() {
    let _lock = timing_lock();
    let mut e = engine();
    let share = share_ms(400.0, 1);
    for fen in [
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r2q1rk1/pb1nbppp/1p2pn2/2pp4/2PP4/1PN1PN2/PB2BPPP/R2Q1RK1 w - - 0 10",
        "2r3k1/pp3ppp/2n1b3/3p4/3P4/2NB1N2/PP3PPP/2R3K1 b - - 0 20",
    ] {
        e.send(&format!("position fen {fen}"));
        e.sync();
        let ms = (0..TRIES)
            .map(|_| timed_go(&mut e, "go wtime 400 btime 400 movestogo 1").1)
            .fold(f64::INFINITY, f64::min);
        assert!(
            ms <= share + SLACK_MS,
            "{fen}: {ms:.0} ms, share {share:.0} ms\n{}",
            e.context()
        );
    }
    e.quit();
}

/// Games the 40/4 test may play: a burst of load elsewhere may push a move past its share
/// and slack in one game, while an engine that overspends does so in every game.
const GAMES: usize = 3;

/// The engine plays itself at 40/4 (4 s for every 40 moves, no increment) for 45 moves a
/// side, across the control: every move stays inside its share of the clock of the side
/// to move, and neither clock runs out, in at least one of `GAMES` games.
#[test]
fn a_game_at_40_moves_in_4_seconds_keeps_every_move_inside_its_share() {
    let _lock = timing_lock();
    let mut e = engine();
    let mut failed = Vec::new();
    for game in 1..=GAMES {
        let faults = play_40_4(&mut e);
        if faults.is_empty() {
            e.quit();
            return;
        }
        failed.push(format!("game {game}:\n{}", faults.join("\n")));
    }
    panic!("every game failed:\n{}", failed.join("\n"));
}

/// One game of the engine against itself at 40/4 from the start position: the moves over
/// their share, the clock that ran out if one did, and an end before the control if it
/// came (none: an empty list).
fn play_40_4(e: &mut Engine) -> Vec<String> {
    const PERIOD_MS: f64 = 4000.0;
    const PERIOD_MOVES: u32 = 40;
    e.send("ucinewgame");
    let mut board = Board::default();
    let mut moves: Vec<String> = Vec::new();
    // White's clock and Black's, and the moves each has played.
    let mut clocks = [PERIOD_MS; 2];
    let mut played = [0u32; 2];
    let mut faults = Vec::new();
    for ply in 0..2 * 45 {
        if board.legal_moves().is_empty() {
            break;
        }
        let side = ply % 2;
        let mtg = PERIOD_MOVES - played[side] % PERIOD_MOVES;
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        e.send(&position);
        let go = format!(
            "go wtime {:.0} btime {:.0} movestogo {mtg}",
            clocks[0], clocks[1]
        );
        let (best, ms) = timed_go(e, &go);
        let share = share_ms(clocks[side], mtg);
        if ms > share + GAME_SLACK_MS {
            faults.push(format!(
                "ply {ply}: {ms:.0} ms for a share of {share:.0} ms ({go})"
            ));
        }
        clocks[side] -= ms;
        if clocks[side] <= 0.0 {
            faults.push(format!("ply {ply}: the clock ran out ({go}, {ms:.0} ms)"));
            return faults;
        }
        played[side] += 1;
        if played[side] % PERIOD_MOVES == 0 {
            clocks[side] += PERIOD_MS;
        }
        let m = board
            .parse_uci(&best)
            .unwrap_or_else(|err| panic!("ply {ply}: bestmove {best}: {err}"));
        board.make(m);
        moves.push(best);
    }
    // A game over before the control (a blunder at these speeds) shows nothing of the
    // control: another game is played.
    if played[1] < PERIOD_MOVES {
        faults.push(format!(
            "the game ended before the control: {}",
            moves.join(" ")
        ));
    }
    faults
}
