//! Speed of the engine's parts: evaluation, transposition table, SEE and a fixed-depth
//! search over a few positions.

use criterion::{Criterion, criterion_group, criterion_main};
use cutoff_engine::bench::POSITIONS;
use cutoff_engine::board::Board;
use cutoff_engine::eval::{PawnTable, evaluate, evaluate_cached};
use cutoff_engine::limits::Limits;
use cutoff_engine::score::Bound;
use cutoff_engine::search::{SearchOptions, Searcher};
use cutoff_engine::see::see_ge;
use cutoff_engine::tt::TranspositionTable;
use std::hint::black_box;

fn boards() -> Vec<Board> {
    POSITIONS
        .iter()
        .map(|fen| Board::from_fen(fen, false).unwrap())
        .collect()
}

fn eval_bench(c: &mut Criterion) {
    let boards = boards();
    c.bench_function("eval/bench-positions", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|bd| evaluate(black_box(bd.pos())))
                .sum::<i32>()
        })
    });
    // As the search calls it: the pawn structures are in the pawn table after the
    // first pass.
    let mut pawn_table = PawnTable::default();
    c.bench_function("eval/bench-positions-pawn-table", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|bd| evaluate_cached(black_box(bd.pos()), &mut pawn_table))
                .sum::<i32>()
        })
    });
}

fn see_bench(c: &mut Criterion) {
    let boards = boards();
    let captures: Vec<(usize, shakmaty::Move)> = boards
        .iter()
        .enumerate()
        .flat_map(|(i, b)| {
            b.legal_moves()
                .into_iter()
                .filter(|m| m.is_capture())
                .map(move |m| (i, m))
        })
        .collect();
    c.bench_function("see/all-captures-of-bench-positions", |b| {
        b.iter(|| {
            captures
                .iter()
                .filter(|(i, m)| see_ge(boards[*i].pos(), *m, 0))
                .count()
        })
    });
}

fn tt_bench(c: &mut Criterion) {
    let tt = TranspositionTable::new(16).unwrap();
    let keys: Vec<u64> = (0..4096u64)
        .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .collect();
    c.bench_function("tt/store-4096", |b| {
        b.iter(|| {
            for (i, &k) in keys.iter().enumerate() {
                tt.store(k, 0, i as u16, 10, 5, (i % 20) as i32, Bound::Lower);
            }
        })
    });
    c.bench_function("tt/probe-4096", |b| {
        b.iter(|| {
            keys.iter()
                .filter(|&&k| tt.probe(black_box(k), 0, 0).is_some())
                .count()
        })
    });
}

fn search_bench(c: &mut Criterion) {
    let boards: Vec<Board> = boards().into_iter().take(4).collect();
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.bench_function("depth-8/4-positions", |b| {
        b.iter(|| {
            let mut searcher = Searcher::new(16).unwrap();
            for board in &boards {
                searcher.clear();
                searcher.search(
                    board,
                    &Limits::depth(8),
                    &SearchOptions::default(),
                    &mut |_| {},
                );
            }
        })
    });
    group.finish();
}

/// The fixed cost of a search with helper threads (spawning them per search, and waiting
/// for them to notice the end): a depth-1 search with one thread against two.
fn thread_overhead_bench(c: &mut Criterion) {
    let board = Board::default();
    let mut group = c.benchmark_group("threads");
    for threads in [1, 2] {
        let mut searcher = Searcher::new(16).unwrap();
        let options = SearchOptions {
            threads,
            ..SearchOptions::default()
        };
        group.bench_function(format!("depth-1-startpos/{threads}"), |b| {
            b.iter(|| searcher.search(&board, &Limits::depth(1), &options, &mut |_| {}))
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    eval_bench,
    see_bench,
    tt_bench,
    search_bench,
    thread_overhead_bench
);
criterion_main!(benches);
