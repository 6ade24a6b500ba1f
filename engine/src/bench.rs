//! `bench`: a fixed set of positions searched to a fixed depth on one thread with a fresh
//! 16 MB table each, so the total node count is a signature of the search: any change to
//! the tree changes it (OpenBench reads `N nodes N nps`).

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crate::board::Board;
use crate::limits::Limits;
use crate::nnue::Network;
use crate::search::{SearchOptions, Searcher, Signals};

/// Default depth of `cutoff bench`.
pub const DEFAULT_DEPTH: i32 = 11;
/// Table size of `cutoff bench` (MB).
pub const DEFAULT_HASH_MB: usize = 16;

/// Bench positions: openings, middlegames from public test suites (Bratko-Kopec, Silent
/// but Deadly, ECM, Kaufman, LCT II) and endgames (EET, PET), plus classics.
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "1Q4R1/8/P1b2p2/2p2k2/2P5/5p2/1r5P/4R1K1 b - - 0 1",
    "1b6/1P6/8/2KB4/6pk/3N3p/8/8 b - - 0 1",
    "1k1r3r/pp2qpp1/3b1n1p/3pNQ2/2pP1P2/2N1P3/PP4PP/1K1RR3 b - - 0 1",
    "1r2r1k1/3bnppp/p2q4/2RPp3/4P3/6P1/2Q1NPBP/2R3K1 w - - 0 1",
    "1r3k2/5pp1/3p2p1/8/3P4/P6P/2R2P1K/8 b - - 0 1",
    "1rbq1rk1/p1b1nppp/1p2p3/8/1B1pN3/P2B4/1P3PPP/2RQ1R1K w - - 0 1",
    "2nq2k1/2r3pp/p1p1rp2/PpQ1N3/1P1PR3/8/5PPP/2R3K1 w - - 0 1",
    "2rr2k1/4bppp/p1n1p3/3q4/1p1P2N1/2P3R1/P3QPPP/2B2RK1 w - - 0 1",
    "3q1rk1/3rbppp/ppbppn2/1N6/2P1P3/BP6/P1B1QPPP/R3R1K1 w - - 0 1",
    "3r1rk1/2p1qp1p/pnP3p1/4n3/PP1NpR2/1BQ4P/6P1/5RK1 w - - 0 1",
    "3rr1k1/pb3pp1/1p1q1b1p/1P2NQ2/3P4/P1NB4/3K1P1P/2R3R1 w - - 0 1",
    "4b1k1/1p3p2/4pPp1/p2pP1P1/P2P4/1P1B4/8/2K5 w - - 0 1",
    "4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - - 0 1",
    "4qr2/4p2k/1p2P1pP/5P2/1P3P2/6Q1/8/3B1K2 w - - 0 1",
    "4r1k1/5ppp/p1q3b1/1ppNr3/2P1P3/1P4QP/P4PP1/4RRK1 w - - 0 1",
    "4rr2/2p5/1p1p1kp1/p6p/P1P4P/6P1/1P3PK1/3R1R2 w - - 0 1",
    "5k2/8/4b3/1B5P/8/8/5pPP/5K2 b - - 0 1",
    "6k1/4b3/4p1p1/8/6pP/4PN2/5K2/8 w - - 0 1",
    "6k1/p4p1p/3pqp2/2p1r3/2Pnr1N1/P6P/1P1Q1PP1/3R1RK1 b - - 0 1",
    "7r/1p2qk2/pQ1p2p1/3Ppp2/P4b2/2P2PrP/1P2R1B1/4R2K b - - 0 1",
    "8/1Pk2Kpp/8/8/4nPP1/7P/8/8 b - - 0 1",
    "8/2k5/4p3/1nb2p2/2K5/8/6B1/8 w - - 0 1",
    "8/4p3/p2p4/2pP4/2P1P3/1P4k1/1P1K4/8 w - - 0 1",
    "8/6p1/6P1/6Pp/B1p1p2K/6PP/3k2P1/8 w - - 0 1",
    "8/8/2p5/pkp3R1/7B/P7/2p3K1/8 w - - 0 1",
    "8/8/2pn4/p4p1p/P4N2/1Pk2KPP/8/8 w - - 0 1",
    "8/p4k2/1p1p1qp1/1P1P4/P5P1/7P/4Q1K1/2b5 b - - 0 1",
    "8/p5pp/3k1p2/3p4/1P3P2/P1K5/5P1P/8 b - - 0 1",
    "8/p7/1p2k1p1/8/1p2p1Pp/3pP2P/PP6/5K2 w - - 0 1",
    "8/pR4pk/1b6/2p5/N1p5/8/PP1r2PP/6K1 b - - 0 1",
    "q3rn1k/2QR4/pp2pp2/8/P1P5/1P4N1/6n1/6K1 w - - 0 1",
    "r1b1qrk1/pp4b1/2pRn1pp/5p2/2n2B2/2N2NPP/PPQ1PPB1/5RK1 w - - 0 1",
    "r1b4r/pp2ppk1/2np1np1/3N3p/2B1P3/q3BP2/P1PQ2PP/1R3RK1 w - - 0 1",
    "r1b5/p2k1r1p/3P2pP/1ppR4/2P2p2/2P5/P1B4P/4R1K1 w - - 0 1",
    "r1bq1rk1/pp1pppbp/2n2np1/8/4P3/1NN5/PPP1BPPP/R1BQK2R w KQ - 0 1",
    "r1bqk2r/pp2bppp/2n1p3/1B1n4/3P4/2N2N2/PP3PPP/R1BQ1RK1 b kq - 0 1",
    "r1bqkb1r/4npp1/p1p4p/1p1pP1B1/8/1B6/PPPN1PPP/R2Q1RK1 w kq - 0 1",
    "r1bqrbk1/1pp3pp/2n2p2/p2np3/8/PP1PPN2/1BQNBPPP/R3K2R w KQ - 0 1",
    "r2qk2r/1b2bppp/p1n1pn2/1p6/1P6/P2BPN2/1B2QPPP/RN3RK1 b kq - 0 1",
    "r2qnrnk/p2b2b1/1p1p2pp/2pPpp2/1PP1P3/PRNBB3/3QNPPP/5RK1 w - - 0 1",
    "r2qr1k1/1pnb1pp1/p1n1p2p/8/P2P3P/B2B1NP1/6P1/R2Q1RK1 w - - 0 1",
    "r3k2r/1pqnnppp/p5b1/1PPp1p2/3P4/2N5/P2NB1PP/2RQ1RK1 b kq - 0 1",
    "r3kb1r/3n1pp1/p6p/2pPp2q/Pp2N3/3B2PP/1PQ2P2/R3K2R w KQkq - 0 1",
    "r4r1k/pp1bq1b1/n2p2p1/2pPp1Np/2P4P/P1N1BP2/1P1Q2P1/2KR3R w - - 0 1",
    "r4rk1/5p2/p1b1pQpq/8/1B2P3/2NR4/PPP3PP/1K6 w - - 0 1",
    "r4rk1/pp2q1p1/4b2p/2ppb3/6n1/2P3N1/PPQBBPPP/R4RK1 b - - 0 1",
];

/// One bench position's result.
pub struct BenchLine {
    /// The position searched.
    pub fen: &'static str,
    /// Nodes the search of this position visited.
    pub nodes: u64,
    /// How long it took.
    pub time: Duration,
}

/// Runs the bench: each position from a cleared table and fresh histories, so the result
/// does not depend on the order or on earlier searches. `network` evaluates if given,
/// else the hand-crafted evaluation does.
pub fn run(
    depth: i32,
    threads: usize,
    hash_mb: usize,
    network: Option<Arc<Network>>,
    on_line: impl FnMut(&BenchLine),
) -> Result<(u64, Duration), String> {
    // Nothing else holds these signals, so nothing stops the bench.
    run_until(depth, threads, hash_mb, network, Arc::default(), on_line)?
        .ok_or_else(|| "bench stopped".to_string())
}

/// As [`run`], searching with `signals`: once `signals.stop` is set it returns
/// `Ok(None)`, with `on_line` called only for the positions searched to the end.
pub fn run_until(
    depth: i32,
    threads: usize,
    hash_mb: usize,
    network: Option<Arc<Network>>,
    signals: Arc<Signals>,
    mut on_line: impl FnMut(&BenchLine),
) -> Result<Option<(u64, Duration)>, String> {
    let mut searcher = Searcher::new(hash_mb)?;
    searcher.set_network(network);
    searcher.set_signals(Arc::clone(&signals));
    let options = SearchOptions {
        threads,
        ..SearchOptions::default()
    };
    let limits = Limits::depth(depth);
    let mut total_nodes = 0;
    let mut total_time = Duration::ZERO;
    for fen in POSITIONS {
        let board = Board::from_fen(fen, false).map_err(|e| e.to_string())?;
        searcher.clear();
        let start = Instant::now();
        let result = searcher.search(&board, &limits, &options, &mut |_| {});
        if signals.stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let line = BenchLine {
            fen,
            nodes: result.nodes,
            time: start.elapsed(),
        };
        total_nodes += line.nodes;
        total_time += line.time;
        on_line(&line);
    }
    Ok(Some((total_nodes, total_time)))
}
