//! `Position::is_pseudo_legal` against move generation: for every position reached
//! from the perft suites' positions (and minesweeper's playouts), a move passes the
//! test exactly when `generate(GenType::All)` yields it. The moves asked about are
//! every 17-bit encoding (squares off the board and impossible kinds included) at the
//! suites' positions and their children, and at deeper positions every move generated
//! anywhere in the variant's walk (the moves a transposition-table collision, a
//! killer or a countermove brings from another position).
//!
//! Also the generation types the staged move picker relies on: `Noisy` and `Quiet`
//! split `All` into the moves `is_noisy` calls noisy and the rest.

use sapper_engine::search::ordering::is_noisy;
use sapper_rules::movegen::GenType;
use sapper_rules::moves::{Move, MoveList};
use sapper_rules::position::Position;
use sapper_rules::variant::minesweeper::Minesweeper;
use sapper_rules::variant::{Variant, VariantKind};
use sapper_rules::with_variant;
use std::collections::{HashMap, HashSet};

/// Every move encoding `Move::from_raw` accepts.
const ALL_ENCODINGS: u32 = 1 << 17;

/// The suite's positions (`engine-tests/perft/VARIANT.epd`).
fn suite<V: Variant>() -> Vec<Position<V>> {
    let path = format!(
        "{}/../../engine-tests/perft/{}.epd",
        env!("CARGO_MANIFEST_DIR"),
        V::NAME
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let fen = line.split(';').next().unwrap().trim();
            Position::<V>::from_fen(fen)
                .unwrap_or_else(|e| panic!("bad FEN {fen}: {e}"))
                .0
        })
        .collect()
}

/// The generated moves of type `gen`, as raw encodings.
fn generated<V: Variant>(pos: &Position<V>, gen: GenType) -> Vec<u32> {
    let mut list = MoveList::new();
    pos.generate(gen, &mut list);
    list.iter().map(|m| m.raw()).collect()
}

/// Positions reached from `roots` by legal moves, by depth below a root (0: the roots),
/// deduplicated by key.
fn walk<V: Variant>(roots: &[Position<V>], depth: usize) -> Vec<Vec<Position<V>>> {
    let mut seen = HashSet::new();
    let mut levels = vec![roots.to_vec()];
    for _ in 0..depth {
        let mut next = Vec::new();
        for pos in levels.last().unwrap() {
            for m in pos.legal_moves() {
                let mut child = *pos;
                child.play(m);
                if seen.insert(child.key()) {
                    next.push(child);
                }
            }
        }
        levels.push(next);
    }
    levels
}

/// Compares `is_pseudo_legal` with generation on `levels` (from [`walk`]): every
/// encoding at the first `exhaustive` levels, every move generated anywhere at all
/// of them. Also checks that `Noisy` and `Quiet` split `All` by `is_noisy`. Returns
/// the number of (position, move) pairs compared.
fn compare<V: Variant>(levels: &[Vec<Position<V>>], exhaustive: usize) -> usize {
    let positions: Vec<&Position<V>> = levels.iter().flatten().collect();
    let mut anywhere: HashSet<u32> = HashSet::new();
    for pos in &positions {
        anywhere.extend(generated(*pos, GenType::All));
    }
    let anywhere: Vec<u32> = anywhere.into_iter().collect();
    let mut mismatches = Vec::new();
    let mut compared = 0;
    for (level, list) in levels.iter().enumerate() {
        for pos in list {
            let all = generated(pos, GenType::All);
            let mut counts: HashMap<u32, usize> = HashMap::new();
            for &raw in &all {
                *counts.entry(raw).or_default() += 1;
            }
            assert!(
                counts.values().all(|&n| n == 1),
                "{}: generation repeats a move",
                pos.to_fen()
            );
            // Noisy + Quiet = All, split by is_noisy.
            let mut split: Vec<u32> = generated(pos, GenType::Noisy);
            for &raw in &split {
                let m = Move::from_raw(raw);
                assert!(is_noisy(pos, m), "{}: Noisy generated quiet {m}", pos.to_fen());
            }
            for raw in generated(pos, GenType::Quiet) {
                let m = Move::from_raw(raw);
                assert!(!is_noisy(pos, m), "{}: Quiet generated noisy {m}", pos.to_fen());
                split.push(raw);
            }
            let mut sorted_all = all.clone();
            sorted_all.sort_unstable();
            split.sort_unstable();
            assert_eq!(split, sorted_all, "{}: Noisy + Quiet != All", pos.to_fen());

            let mut check = |raw: u32| {
                let m = Move::from_raw(raw);
                let expected = counts.contains_key(&raw);
                if pos.is_pseudo_legal(m) != expected && mismatches.len() < 20 {
                    mismatches.push(format!(
                        "{} {m} (raw {raw:#x}): generated {expected}",
                        pos.to_fen()
                    ));
                }
                compared += 1;
            };
            if level < exhaustive {
                (0..ALL_ENCODINGS).for_each(&mut check);
            } else {
                anywhere.iter().copied().for_each(&mut check);
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} is_pseudo_legal disagrees with generation:\n{}",
        V::NAME,
        mismatches.join("\n")
    );
    compared
}

fn suite_agrees<V: Variant>() {
    let levels = walk(&suite::<V>(), 2);
    let compared = compare(&levels, 2);
    // Enough positions were walked to mean something (the suites hold 7 to 27).
    assert!(
        levels[2].len() > 100,
        "{}: {} positions at depth 2",
        V::NAME,
        levels[2].len()
    );
    assert!(compared > 1_000_000);
}

/// Every registered variant with a perft suite, so a new variant is covered by its
/// registration line; minesweeper, which has none, by the test below.
#[test]
fn every_suite_variant_pseudo_legal_equals_generation() {
    for kind in VariantKind::ALL {
        if kind != VariantKind::Minesweeper {
            with_variant!(kind, V => suite_agrees::<V>());
        }
    }
}

/// Minesweeper has no perft suite: its start position with mines, a few hand-made
/// positions (fog beside pawns, checks, a lone king), and seeded random playouts
/// from each, so sapper actions, fog, checks and promotions all occur.
#[test]
fn minesweeper_pseudo_legal_equals_generation() {
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ????????/?M????M?/M??????M/???????? 4",
        "k3r3/8/8/8/8/8/8/2N5/7P/4K3 w - - 0 1 M??????M/M??????M/????????/?000???? 4",
        "k1r5/8/8/8/8/8/8/4N3/8/2K5 w - - 0 1 ?????01M/?????011/M????000/???????? 2",
        "k3r3/8/8/8/8/8/8/3N4/8/4K3 w - - 0 1 M??????M/????????/????*???/M??????? 4",
        "k7/4P3/8/8/8/8/8/8/1p6/4K3 w - - 0 1 M??????M/M??????M/????????/???????? 4",
    ];
    let roots: Vec<Position<Minesweeper>> = fens
        .iter()
        .map(|f| Position::from_fen(f).unwrap_or_else(|e| panic!("{f}: {e}")).0)
        .collect();
    let mut levels = walk(&roots, 1);
    // Seeded playouts (a small LCG: the positions depend only on the seed).
    let mut state: u64 = 0x5eed;
    let mut next = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    let mut deep = Vec::new();
    let (mut sappers, mut checks, mut promotions) = (0, 0, 0);
    for game in 0..120 {
        let mut pos = roots[game % roots.len()];
        for _ in 0..60 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            sappers += moves
                .iter()
                .filter(|m| m.kind() == sapper_rules::moves::MoveKind::Sapper)
                .count();
            promotions += moves.iter().filter(|m| m.promotion_role().is_some()).count();
            checks += usize::from(pos.in_check());
            pos.play(moves[next() % moves.len()]);
            deep.push(pos);
        }
    }
    assert!(
        sappers > 0 && checks > 0 && promotions > 0,
        "{sappers} {checks} {promotions}"
    );
    levels.push(deep);
    assert!(compare(&levels, 2) > 1_000_000);
}
