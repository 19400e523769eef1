//! NNUE costs: a full accumulator refresh against the incremental update the search
//! makes after a quiet move and after an atomic explosion (three pieces removed), and
//! the output layer, on the embedded network of each variant that has one (a
//! network with random weights where none is embedded, since the cost depends only on
//! the shapes).
//!
//! Run with `cargo bench --bench nnue`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use sapper_engine::eval::nnue::{Accumulator, Network, PieceBoards};
use sapper_rules::position::Position;
use sapper_rules::types::Color;
use sapper_rules::variant::{Atomic, Chess, VariantKind};

fn network(variant: VariantKind) -> Network {
    sapper_engine::eval::default_nnue(variant)
        .map_or_else(|| Network::random(variant, 1), |n| n.as_ref().clone())
}

fn boards(fen: &str, atomic: bool) -> PieceBoards {
    if atomic {
        PieceBoards::of(&Position::<Atomic>::from_fen(fen).expect("fen").0)
    } else {
        PieceBoards::of(&Position::<Chess>::from_fen(fen).expect("fen").0)
    }
}

fn bench(c: &mut Criterion) {
    let chess = network(VariantKind::Chess);
    let atomic = network(VariantKind::Atomic);
    // A middlegame, the same after a quiet knight move, and an atomic pair three
    // pieces apart (a capture whose explosion removes the capturer, the captured
    // piece and a neighbour).
    let before = boards(
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        false,
    );
    let after = boards(
        "r1bqkb1r/pppp1ppp/2n2n2/4p1N1/2B1P3/8/PPPP1PPP/RNBQK2R b KQkq - 5 4",
        false,
    );
    let blast_before = boards(
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        true,
    );
    let blast_after = boards(
        "r1bqkb1r/pppp1p1p/2n5/4p3/2B1P3/8/PPPP1PPP/RNBQK2R b KQkq - 0 4",
        true,
    );
    let mut acc = Accumulator::default();
    acc.refresh(&chess, &before);
    let base = acc;
    let mut g = c.benchmark_group("nnue");
    g.bench_function("refresh", |b| {
        b.iter(|| {
            let mut a = Accumulator::default();
            a.refresh(&chess, black_box(&before));
            a
        })
    });
    g.bench_function("update-quiet-move", |b| {
        b.iter(|| {
            let mut a = base;
            a.apply(&chess, black_box(&before), black_box(&after));
            a
        })
    });
    let mut atomic_base = Accumulator::default();
    atomic_base.refresh(&atomic, &blast_before);
    g.bench_function("update-atomic-explosion", |b| {
        b.iter(|| {
            let mut a = atomic_base;
            a.apply(&atomic, black_box(&blast_before), black_box(&blast_after));
            a
        })
    });
    g.bench_function("output", |b| {
        b.iter(|| chess.output(black_box(&base), Color::White))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
