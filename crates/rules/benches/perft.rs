//! Perft speed, Sapper against shakmaty 0.30.1 on the same positions, single thread.
//!
//! `cargo bench --bench perft`. Groups are named `perft/<variant>/<position>`, each
//! with the functions `sapper` and `shakmaty`; throughput is in perft nodes (leaves),
//! so criterion's `thrpt` line reads as nodes per second. Both libraries count in bulk
//! at depth 1 (the number of legal moves is the count, nothing is played), and both
//! copy the position to make a move (Sapper's `Position` is `Copy`, shakmaty's is
//! cloned). The node counts are checked equal before timing.
//!
//! Kept quick: 10 samples of flat sampling (a fixed number of iterations per sample:
//! each iteration takes tens to hundreds of milliseconds), a short warm-up and
//! measurement time.

use criterion::{black_box, criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use sapper_rules::position::Position;
use sapper_rules::variant::{Atomic, Chess, KingOfTheHill, Variant};
use shakmaty as sk;
use std::time::Duration;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// shakmaty's atomic benchmark position.
const ATOMIC_MIDDLEGAME: &str = "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1";
/// From engine-tests/perft/kingofthehill.epd (peer-kingofthehill-7): the white king on
/// c4 and the black king on d6 are next to the hill, so the hill rule is exercised.
const KOTH_MIDDLEGAME: &str = "rnb2b1r/ppp2ppp/3k4/8/1PKp1pn1/3Pq3/PBP1P2P/RN1Q1B1R w - - 0 1";

/// Benchmarks one position at `depth` in both libraries.
fn pair<V: Variant, P: sk::Position + sk::FromSetup + Clone>(
    c: &mut Criterion,
    name: &str,
    fen: &str,
    depth: u32,
) {
    let (ours, _) = Position::<V>::from_fen(fen).expect("Sapper rejects the FEN");
    let theirs: P = sk::fen::Fen::from_ascii(fen.as_bytes())
        .expect("shakmaty cannot parse the FEN")
        .into_position(sk::CastlingMode::Standard)
        .expect("shakmaty rejects the position");
    let nodes = sapper_rules::perft::perft(&ours, depth);
    let their_nodes = sk::perft(&theirs, depth);
    assert_eq!(
        nodes, their_nodes,
        "{name}: perft {depth} differs: Sapper {nodes}, shakmaty {their_nodes}"
    );

    let mut group = c.benchmark_group(format!("perft/{}/{name}", V::NAME));
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2))
        .throughput(Throughput::Elements(nodes));
    group.bench_function("sapper", |b| {
        b.iter(|| sapper_rules::perft::perft(black_box(&ours), black_box(depth)))
    });
    group.bench_function("shakmaty", |b| {
        b.iter(|| sk::perft(black_box(&theirs), black_box(depth)))
    });
    group.finish();
}

fn perft_benches(c: &mut Criterion) {
    pair::<Chess, sk::Chess>(c, "startpos", START, 5);
    pair::<Chess, sk::Chess>(c, "kiwipete", KIWIPETE, 4);
    pair::<Atomic, sk::variant::Atomic>(c, "startpos", START, 5);
    pair::<Atomic, sk::variant::Atomic>(c, "middlegame", ATOMIC_MIDDLEGAME, 4);
    pair::<KingOfTheHill, sk::variant::KingOfTheHill>(c, "startpos", START, 5);
    pair::<KingOfTheHill, sk::variant::KingOfTheHill>(c, "middlegame", KOTH_MIDDLEGAME, 5);
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
