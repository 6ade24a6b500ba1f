//! Perft speed: Cutoff's `Board` (copy-make with the incremental key) against shakmaty's
//! own perft, single-threaded, and the rayon split on two threads.

use criterion::{Criterion, criterion_group, criterion_main};
use cutoff_engine::board::{Board, STARTPOS};
use cutoff_engine::perft::{divide_with_threads, perft};
use shakmaty::{CastlingMode, Chess, fen::Fen};
use std::hint::black_box;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn perft_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, fen, depth) in [("startpos", STARTPOS, 5), ("kiwipete", KIWIPETE, 4)] {
        let board = Board::from_fen(fen, false).unwrap();
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        group.bench_function(format!("board/{name}/d{depth}"), |b| {
            b.iter(|| perft(&mut board.clone(), black_box(depth)))
        });
        group.bench_function(format!("shakmaty/{name}/d{depth}"), |b| {
            b.iter(|| shakmaty::perft(&pos, black_box(depth)))
        });
        for threads in [1, 2] {
            group.bench_function(format!("divide/{name}/d{depth}/threads{threads}"), |b| {
                b.iter(|| divide_with_threads(&board, black_box(depth), threads))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
