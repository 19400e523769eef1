//! Perft against the peer suites copied into `engine-tests/perft/`.
//!
//! Depths whose node count is at most `QUICK_NODES` run with every `cargo test`; the
//! rest run with `cargo test --release -- --ignored`.

use sapper_rules::perft::perft;
use sapper_rules::position::Position;
use sapper_rules::variant::{Atomic, Chess, KingOfTheHill, ThreeCheck, Variant, VariantKind};
use sapper_rules::with_variant;

const QUICK_NODES: u64 = 5_000_000;

struct Case {
    id: String,
    fen: String,
    depths: Vec<(u32, u64)>,
}

/// Variants without a suite in `engine-tests/perft/`: no peer engine plays
/// minesweeper, so `tests/minesweeper_reference.rs` checks its move generator
/// against a slow reference generator instead.
const NO_SUITE: &[VariantKind] = &[VariantKind::Minesweeper];

fn suite_path(variant: &str) -> String {
    format!(
        "{}/../../engine-tests/perft/{variant}.epd",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn load(variant: &str) -> Vec<Case> {
    let path = suite_path(variant);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let mut case = Case {
                id: String::new(),
                fen,
                depths: Vec::new(),
            };
            for op in parts {
                let op = op.trim();
                if let Some(id) = op.strip_prefix("id ") {
                    case.id = id.trim_matches('"').to_string();
                } else if let Some(rest) = op.strip_prefix('D') {
                    let (d, n) = rest.split_once(' ').unwrap();
                    case.depths.push((d.parse().unwrap(), n.parse().unwrap()));
                }
            }
            case
        })
        .collect()
}

/// Runs every figure of the suite within `[min_nodes, max_nodes]`; returns how many ran.
fn run_suite<V: Variant>(min_nodes: u64, max_nodes: u64) -> usize {
    let mut ran = 0;
    let mut failures = Vec::new();
    for case in load(V::NAME) {
        let (pos, _) = Position::<V>::from_fen(&case.fen)
            .unwrap_or_else(|e| panic!("{}: bad FEN {}: {e}", case.id, case.fen));
        for &(depth, expected) in &case.depths {
            if expected < min_nodes || expected > max_nodes {
                continue;
            }
            ran += 1;
            let got = perft(&pos, depth);
            if got != expected {
                failures.push(format!(
                    "{} ({}) depth {depth}: expected {expected}, got {got}",
                    case.id, case.fen
                ));
            }
        }
    }
    assert!(failures.is_empty(), "perft mismatches:\n{}", failures.join("\n"));
    ran
}

/// Every variant of the registration list has its suite (its file is all a new
/// variant adds for perft), and its quick figures agree.
#[test]
fn every_registered_variant_has_a_suite() {
    for kind in VariantKind::ALL {
        let exists = std::path::Path::new(&suite_path(kind.name())).exists();
        if NO_SUITE.contains(&kind) {
            assert!(!exists, "{kind} has a suite: remove it from NO_SUITE");
            continue;
        }
        assert!(exists, "{kind}: no perft suite {}", suite_path(kind.name()));
        let ran = with_variant!(kind, V => run_suite::<V>(0, QUICK_NODES));
        assert!(ran >= 6, "{kind}: only {ran} quick figures");
    }
}

#[test]
fn chess_suite_quick() {
    assert!(run_suite::<Chess>(0, QUICK_NODES) >= 60);
}

#[test]
fn atomic_suite_quick() {
    assert!(run_suite::<Atomic>(0, QUICK_NODES) >= 24);
}

#[test]
fn kingofthehill_suite_quick() {
    assert!(run_suite::<KingOfTheHill>(0, QUICK_NODES) >= 6);
}

#[test]
#[ignore = "deep perft: minutes; run with --release -- --ignored"]
fn all_suites_deep() {
    let deep: usize = VariantKind::ALL
        .into_iter()
        .filter(|kind| !NO_SUITE.contains(kind))
        .map(|kind| with_variant!(kind, V => run_suite::<V>(QUICK_NODES + 1, u64::MAX)))
        .sum();
    assert!(deep >= 5);
}

#[test]
fn kingofthehill_start_equals_chess_through_depth_5() {
    // The peer README: the hill cannot be reached before depth 7 from the start.
    let koth = Position::<KingOfTheHill>::startpos();
    let chess = Position::<Chess>::startpos();
    for depth in 1..=4 {
        assert_eq!(perft(&koth, depth), perft(&chess, depth));
    }
}

#[test]
fn threecheck_suite_quick() {
    assert!(run_suite::<ThreeCheck>(0, QUICK_NODES) >= 30);
}

/// The three-check figures (made with python-chess's `ThreeCheckBoard`) agree with
/// shakmaty's `variant::ThreeCheck`, so the file holds two libraries' word.
#[test]
fn threecheck_suite_agrees_with_shakmaty() {
    use shakmaty::{fen::Fen, CastlingMode};
    let mut checked = 0;
    for case in load(ThreeCheck::NAME) {
        let fen: Fen = format!("{} 0 1", case.fen)
            .parse()
            .unwrap_or_else(|e| panic!("{}: {e}", case.id));
        let pos: shakmaty::variant::ThreeCheck = fen
            .into_position(CastlingMode::Standard)
            .unwrap_or_else(|e| panic!("{}: {e}", case.id));
        for &(depth, expected) in &case.depths {
            if expected <= QUICK_NODES {
                assert_eq!(
                    shakmaty::perft(&pos, depth),
                    expected,
                    "{} depth {depth}",
                    case.id
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 30);
}
