//! Minesweeper costs: exact mine inference (`Position::mine_inference`) on the
//! hardest public minefields found, and perft on an 8x10 minesweeper middlegame
//! against the same code's perft on an 8x8 chess middlegame.
//!
//! Run with `cargo bench --bench inference`. The inference cases:
//!
//! - `start`: the public start position, no information (35,960 layouts, all
//!   unconstrained: the solver's closed form).
//! - `isolated-numbers`: a few isolated numbers (1 and 2s) whose neighbourhoods cover
//!   most of the zone, so the frontier is large and its constraints loose. Found by
//!   hill climbing over mine layouts and revealed squares, timing this very function;
//!   it was the slowest minefield found (random search gave the same order).
//! - `scattered-numbers`: the slowest of 30,000 random public minefields.
//! - `two-revealed-ranks`: ranks 5 and 6 revealed, so every fogged square is on the
//!   frontier and many numbers constrain it.
//!
//! The perft cases report nodes per second (criterion's element throughput).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use sapper_rules::perft::perft;
use sapper_rules::position::Position;
use sapper_rules::variant::minesweeper::Minesweeper;
use sapper_rules::variant::Chess;

const INFERENCE_CASES: [(&str, &str); 4] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ????????/????????/????????/???????? 4",
    ),
    (
        "isolated-numbers",
        "4k3/8/8/8/8/8/8/8/8/4K3 w - - 0 1 ??????2?/?1??2???/??????2?/???????? 4",
    ),
    (
        "scattered-numbers",
        "4k3/8/8/8/8/8/8/8/8/4K3 w - - 0 1 ????????/??????1?/1??2??1?/???????? 4",
    ),
    (
        "two-revealed-ranks",
        "4k3/8/8/8/8/8/8/8/8/4K3 w - - 0 1 ????????/01110111/11101110/???????? 4",
    ),
];

/// An 8x10 middlegame from a random playout, full information (two mines left, one
/// discovered), 41 legal moves.
const MINESWEEPER_MIDDLEGAME: &str = "3k3r/rbp1bppp/p2pp2n/N7/7q/7P/5P2/P1PP1NP1/1P1BP1R1/R2QKB2 w Q - 1 16 \
                                      00111000/012M??00/01*?1000/01110000 2";
/// "Kiwipete", the usual 8x8 perft middlegame (48 legal moves).
const CHESS_MIDDLEGAME: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const PERFT_DEPTH: u32 = 4;

fn inference(c: &mut Criterion) {
    let mut group = c.benchmark_group("inference");
    for (name, fen) in INFERENCE_CASES {
        let (pos, _) = Position::<Minesweeper>::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert!(pos.mine_inference().layouts > 0, "{fen}");
        group.bench_function(name, |b| b.iter(|| black_box(&pos).mine_inference()));
    }
    group.finish();
}

fn perft_8x10_vs_8x8(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    let (ms, _) = Position::<Minesweeper>::from_fen(MINESWEEPER_MIDDLEGAME).unwrap();
    let nodes = perft(&ms, PERFT_DEPTH);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(format!("minesweeper-8x10-d{PERFT_DEPTH}-{nodes}-nodes"), |b| {
        b.iter(|| perft(black_box(&ms), PERFT_DEPTH))
    });
    let (chess, _) = Position::<Chess>::from_fen(CHESS_MIDDLEGAME).unwrap();
    let nodes = perft(&chess, PERFT_DEPTH);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(format!("chess-8x8-d{PERFT_DEPTH}-{nodes}-nodes"), |b| {
        b.iter(|| perft(black_box(&chess), PERFT_DEPTH))
    });
    group.finish();
}

criterion_group!(benches, inference, perft_8x10_vs_8x8);
criterion_main!(benches);
