//! The hand-written evaluation's cost per position, per variant (issue 31's
//! "evaluation cost"): `evaluate_linear` with the embedded parameters over the bench
//! positions of the variant and the positions of seeded random playouts from them
//! (up to 24 plies each), so that middlegames and endgames weigh as well as the
//! starts. One iteration evaluates every position once; divide by their number
//! (printed) for the time per evaluation.
//!
//! Run with `cargo bench --bench eval`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sapper_engine::bench::POSITIONS;
use sapper_engine::eval::{default_params, evaluate_linear, VariantEval};
use sapper_rules::position::Position;
use sapper_rules::variant::{Atomic, Chess, KingOfTheHill, Minesweeper, ThreeCheck};

/// Plies of each random playout.
const PLAYOUT: usize = 24;

/// The bench positions of `V` and every position of a seeded random playout from
/// each (stopping early where a game ends).
fn positions<V: VariantEval>() -> Vec<Position<V>> {
    let mut rng = StdRng::seed_from_u64(31);
    let mut out = Vec::new();
    for (_, fen) in POSITIONS.iter().filter(|(k, _)| *k == V::KIND) {
        let (mut pos, _) = Position::<V>::from_fen(fen).expect("bench FEN");
        out.push(pos);
        for _ in 0..PLAYOUT {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.special_outcome().is_some() {
                break;
            }
            pos.play(moves[rng.gen_range(0..moves.len())]);
            out.push(pos);
        }
    }
    out
}

fn bench_variant<V: VariantEval>(c: &mut Criterion) {
    let params = default_params(V::KIND);
    let set = positions::<V>();
    let name = format!("evaluate_linear/{} ({} positions)", V::NAME, set.len());
    c.bench_function(&name, |b| {
        b.iter(|| {
            set.iter()
                .map(|p| evaluate_linear(black_box(p), &params))
                .fold(0i32, i32::wrapping_add)
        })
    });
}

fn bench(c: &mut Criterion) {
    bench_variant::<Chess>(c);
    bench_variant::<Atomic>(c);
    bench_variant::<KingOfTheHill>(c);
    bench_variant::<ThreeCheck>(c);
    bench_variant::<Minesweeper>(c);
}

criterion_group!(benches, bench);
criterion_main!(benches);
