//! `bench`: a fixed-depth search of fixed positions. Its node count is the signature
//! of the search's behaviour (a change that alters it is a functional change and its
//! commit ends with `Bench: N`); its speed is a rough nodes-per-second figure.

use crate::eval::default_params;
use crate::host::Instant;
use crate::search::timeman::Limits;
use crate::search::SearchContext;
use crate::search::{SearchOptions, SearchShared, Searcher, Silent};
use sapper_rules::game::AnyGame;
use sapper_rules::variant::VariantKind;
use sapper_rules::with_game;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Default search depth of `bench`, plies.
pub const DEFAULT_DEPTH: i32 = 13;

/// The bench positions: (variant, FEN).
pub const POSITIONS: &[(VariantKind, &str)] = &[
    (
        VariantKind::Chess,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        VariantKind::Chess,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    (VariantKind::Chess, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    (
        VariantKind::Chess,
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    ),
    (
        VariantKind::Chess,
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ),
    (VariantKind::Chess, "6k1/5ppp/8/8/8/8/1r3PPP/3R2K1 w - - 0 1"),
    (
        VariantKind::Atomic,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        VariantKind::Atomic,
        "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1",
    ),
    (
        VariantKind::Atomic,
        "rn1qkb1r/p5pp/2p5/3p4/N3P3/5P2/PPP4P/R1BQK3 w Qkq - 0 1",
    ),
    (
        VariantKind::Atomic,
        "r4b1r/2kb1N2/p2Bpnp1/8/2Pp3p/1P1PPP2/P5PP/R3K2R b KQ - 0 1",
    ),
    (
        VariantKind::Atomic,
        "rnbqk2r/pp1p2pp/2p3Nn/5p2/1b2P1PP/8/PPP2P2/R1BQKB1R w KQkq - 0 1",
    ),
    (
        VariantKind::KingOfTheHill,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        VariantKind::KingOfTheHill,
        "8/5k2/1pp2p2/8/3P1PP1/P3K3/1P6/8 b - - 0 1",
    ),
    (
        VariantKind::KingOfTheHill,
        "rnb2b1r/ppp2ppp/3k4/8/1PKp1pn1/3Pq3/PBP1P2P/RN1Q1B1R w - - 4 12",
    ),
    (
        VariantKind::KingOfTheHill,
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 4 5",
    ),
    // Three-check: the start, and an Italian game where White has given a check.
    (
        VariantKind::ThreeCheck,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1",
    ),
    (
        VariantKind::ThreeCheck,
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 2+3 4 4",
    ),
    // Minesweeper in public form (what a GUI sends), so chance nodes are searched:
    // the start, and a middlegame whose numbers constrain the fog.
    (
        VariantKind::Minesweeper,
        "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ????????/????????/????????/???????? 4",
    ),
    (
        VariantKind::Minesweeper,
        "r1bqk1nr/pppp1ppp/2n5/2b1p3/8/8/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4 ?11001??/?*1001??/?21001??/?100001? 4",
    ),
];

/// The result of a bench run.
#[derive(Clone, Debug)]
pub struct BenchReport {
    /// Nodes per position, in [`POSITIONS`] order.
    pub nodes: Vec<u64>,
    /// Total nodes: the signature.
    pub total_nodes: u64,
    /// Wall time of all searches.
    pub elapsed: Duration,
}

impl BenchReport {
    /// Nodes per second over the whole run.
    pub fn nps(&self) -> u64 {
        (self.total_nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
}

/// Searches every bench position to `depth` with a fresh 16 MiB table and fresh
/// statistics, one thread, so the node count is reproducible.
pub fn run(depth: i32) -> BenchReport {
    run_until(depth, &AtomicBool::new(false)).unwrap_or_else(|| unreachable!("never stopped"))
}

/// [`run`], giving up as soon as `stop` is set (checked every 2 ms, also inside a
/// search): `None` if stopped.
pub fn run_until(depth: i32, stop: &AtomicBool) -> Option<BenchReport> {
    let mut nodes = Vec::with_capacity(POSITIONS.len());
    let start = Instant::now();
    for &(variant, fen) in POSITIONS {
        let (game, _) = AnyGame::from_spec(variant, Some(fen), &[])
            .unwrap_or_else(|e| unreachable!("bench position {fen}: {e}"));
        let ctx = SearchContext::new(16, default_params(variant));
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let n = watched(stop, &ctx.shared, || {
            with_game!(&game, g, V => {
                let mut searcher = Searcher::<V>::new();
                searcher
                    .search(&g.position, &g.keys, &limits, &SearchOptions::default(), &ctx, &mut Silent)
                    .nodes
            })
        });
        if stop.load(Ordering::Relaxed) || crate::host::stop_requested() {
            return None;
        }
        nodes.push(n);
    }
    Some(BenchReport {
        total_nodes: nodes.iter().sum(),
        nodes,
        elapsed: start.elapsed(),
    })
}

/// Runs `search` (which uses `shared`) while a watcher passes `stop` on to
/// `shared.stop`, so a deep bench ends within milliseconds of it, not at the end of
/// the position.
#[cfg(not(target_arch = "wasm32"))]
fn watched(stop: &AtomicBool, shared: &SearchShared, search: impl FnOnce() -> u64 + Send) -> u64 {
    let finished = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !finished.load(Ordering::Relaxed) {
                if stop.load(Ordering::Relaxed) {
                    shared.stop.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::sleep(Duration::from_millis(2));
            }
        });
        let n = search();
        finished.store(true, Ordering::Relaxed);
        n
    })
}

/// Runs `search` on wasm32's only thread: no watcher can run beside it; the search
/// itself polls `crate::host::stop_requested`.
#[cfg(target_arch = "wasm32")]
fn watched(_stop: &AtomicBool, _shared: &SearchShared, search: impl FnOnce() -> u64 + Send) -> u64 {
    search()
}
