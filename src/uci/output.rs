//! Formatting of the lines the engine sends: `info` (pv last, mate in moves) and `bestmove`.

use std::time::Duration;

use cutoff_engine::board::Board;
use cutoff_engine::score::{Bound, is_decisive, is_mate, mate_moves};
use cutoff_engine::search::SearchInfo;
use shakmaty::Move;

/// `score cp N` or `score mate N` (moves, negative when the side to move is mated). A
/// tablebase win is no mate in a known number of moves: it prints as a large `cp`, as
/// Stockfish's does.
pub fn score(score: i32) -> String {
    if is_mate(score) {
        format!("mate {}", mate_moves(score))
    } else {
        format!("cp {score}")
    }
}

/// Expected win/draw/loss in permill for a score (`UCI_ShowWDL`): a logistic curve
/// centred a little over two pawns, so that an even position reads mostly as a draw.
pub fn wdl(score: i32) -> (u32, u32, u32) {
    const CENTRE: f64 = 200.0;
    const SCALE: f64 = 80.0;
    if is_decisive(score) {
        return if score > 0 {
            (1000, 0, 0)
        } else {
            (0, 0, 1000)
        };
    }
    let cp = f64::from(score);
    let win = (1000.0 / (1.0 + ((CENTRE - cp) / SCALE).exp())).round() as u32;
    let loss = (1000.0 / (1.0 + ((CENTRE + cp) / SCALE).exp())).round() as u32;
    (win, 1000 - win - loss, loss)
}

/// Nodes a second, as `info` lines and the bench and perft summaries print it (a search
/// that took under a millisecond counts as one).
pub fn nps(nodes: u64, time: Duration) -> u128 {
    u128::from(nodes) * 1000 / time.as_millis().max(1)
}

pub fn info(info: &SearchInfo, board: &Board, show_wdl: bool) -> String {
    let nps = nps(info.nodes, info.time);
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {}",
        info.depth,
        info.seldepth,
        info.multipv,
        score(info.score)
    );
    match info.bound {
        Bound::Lower => line.push_str(" lowerbound"),
        Bound::Upper => line.push_str(" upperbound"),
        Bound::Exact => {}
    }
    if show_wdl {
        let (w, d, l) = wdl(info.score);
        line.push_str(&format!(" wdl {w} {d} {l}"));
    }
    line.push_str(&format!(
        " nodes {} nps {nps} hashfull {} tbhits {} time {}",
        info.nodes,
        info.hashfull,
        info.tbhits,
        info.time.as_millis()
    ));
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for &m in &info.pv {
            line.push(' ');
            line.push_str(&board.uci(m));
        }
    }
    line
}

pub fn bestmove(board: &Board, best: Option<Move>, ponder: Option<Move>) -> String {
    match (best, ponder) {
        (None, _) => "bestmove 0000".to_string(),
        (Some(b), None) => format!("bestmove {}", board.uci(b)),
        (Some(b), Some(p)) => format!("bestmove {} ponder {}", board.uci(b), board.uci(p)),
    }
}
