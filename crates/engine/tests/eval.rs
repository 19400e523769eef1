//! Evaluation: colour symmetry, parameter files (round trip, validation, hash check),
//! and the tracer reproducing the scorer exactly.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sapper_engine::eval::params::{block_of, content_hash, EvalParams, ParamsError, N_PARAMS, SCHEMA};
use sapper_engine::eval::{
    coefficients, default_params, evaluate, evaluate_linear, evaluate_linear_with, load_params_file, trace,
    EvalTables, VariantEval, MAX_PHASE,
};
use sapper_rules::position::Position;
use sapper_rules::variant::minesweeper::{random_layout, Minesweeper};
use sapper_rules::variant::{Atomic, Chess, KingOfTheHill, ThreeCheck, Variant, VariantKind};

/// The colour-mirrored FEN of an 8x8 position: ranks reversed, colours swapped.
fn mirror_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let board: Vec<String> = f[0].split('/').rev().map(swap).collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    let castling = if f[2] == "-" {
        "-".to_string()
    } else {
        let s = swap(f[2]);
        let mut out: String = s.chars().filter(char::is_ascii_uppercase).collect();
        out.extend(s.chars().filter(char::is_ascii_lowercase));
        out
    };
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        let b = f[3].as_bytes();
        format!("{}{}", b[0] as char, (b'1' + b'8' - b[1]) as char)
    };
    format!("{} {side} {castling} {ep} {} {}", board.join("/"), f[4], f[5])
}

/// Positions from seeded random games of `V` (every third ply up to 80 plies).
fn random_positions<V: Variant>(seed: u64, games: usize) -> Vec<Position<V>> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = if V::MINES {
            let p = Position::<Minesweeper>::start_with_layout(random_layout(&mut rng));
            Position::<V>::from_fen(&p.to_fen()).unwrap().0
        } else {
            Position::<V>::startpos()
        };
        for ply in 0..80 {
            if pos.outcome().is_some() {
                break;
            }
            let moves = pos.legal_moves();
            let m = moves[rng.gen_range(0..moves.len())];
            pos.play(m);
            if ply % 3 == 0 && pos.special_outcome().is_none() {
                out.push(pos);
            }
        }
    }
    out
}

fn check_symmetry<V: VariantEval>(seed: u64) {
    let params = default_params(V::KIND);
    for pos in random_positions::<V>(seed, 40) {
        let fen = pos.to_fen();
        let mirrored = mirror_fen(&fen);
        let (m, _) = Position::<V>::from_fen(&mirrored).unwrap_or_else(|e| panic!("{mirrored}: {e:?}"));
        assert_eq!(
            evaluate(&pos, &params),
            evaluate(&m, &params),
            "{} {fen} vs {mirrored}",
            V::NAME
        );
        assert_eq!(
            trace(&pos, &params).total_white,
            -trace(&m, &params).total_white,
            "{fen}"
        );
        // The coefficients themselves are equal and opposite.
        let a = coefficients(&pos);
        let b = coefficients(&m);
        let negated: Vec<(u16, i32)> = b.entries.iter().map(|&(i, c)| (i, -c)).collect();
        assert_eq!(a.entries, negated, "{fen}");
        assert_eq!(a.phase, b.phase);
    }
}

#[test]
fn mirrored_positions_evaluate_equal_and_opposite() {
    check_symmetry::<Chess>(1);
    check_symmetry::<Atomic>(2);
    check_symmetry::<KingOfTheHill>(3);
}

#[test]
fn mirror_fen_helper_mirrors() {
    assert_eq!(
        mirror_fen("r3k2r/8/8/3pP3/8/8/8/R3K2R w Kq d6 0 1"),
        "r3k2r/8/8/8/3Pp3/8/8/R3K2R b Qk d3 0 1"
    );
}

/// Random weights within +-300, so the exactness test does not depend on the files.
fn random_params(variant: VariantKind, seed: u64) -> EvalParams {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut w = Box::new([[0i32; 2]; N_PARAMS]);
    for x in w.iter_mut() {
        *x = [rng.gen_range(-300..=300), rng.gen_range(-300..=300)];
    }
    EvalParams::from_weights(variant, w)
}

fn check_trace_reproduces<V: VariantEval>(seed: u64) {
    for params in [
        default_params(V::KIND).as_ref().clone(),
        random_params(V::KIND, seed),
    ] {
        for pos in random_positions::<V>(seed, 20) {
            let c = coefficients(&pos);
            let stm = pos.side_to_move().sign();
            assert_eq!(c.side, stm);
            assert!((0..=MAX_PHASE).contains(&c.phase));
            // The trace is the hand-written evaluation's, which `evaluate` gives way to
            // where a default parameter set carries a network (chess).
            let exact = evaluate_linear(&pos, &params);
            if let Some(known) = sapper_engine::eval::endgame::known(&pos) {
                // A known endgame overrides the terms and the network, in the trace too.
                assert_eq!(evaluate(&pos, &params), known);
                assert!(trace(&pos, &params).endgame);
                assert_eq!(trace(&pos, &params).total_white * stm, known);
                continue;
            }
            assert_eq!(c.evaluate_white(&params) * stm, exact, "{}", pos.to_fen());
            assert_eq!(trace(&pos, &params).total_white * stm, exact);
            // The phase-scaled form the tuner fits gives the same number before rounding.
            let p = c.phase as f64 / MAX_PHASE as f64;
            let float: f64 = c
                .entries
                .iter()
                .map(|&(i, k)| {
                    let [mg, eg] = params.weights()[i as usize];
                    k as f64 * (mg as f64 * p + eg as f64 * (1.0 - p))
                })
                .sum();
            assert!(
                (float - (exact * stm) as f64).abs() < 1.0 + 1e-3,
                "{float} vs {exact}"
            );
            // Every block's sum in the trace table adds up to the total.
            let t = trace(&pos, &params);
            let (mg, eg) = t.terms.iter().fold((0, 0), |(a, b), (_, x)| (a + x.mg, b + x.eg));
            assert_eq!(sapper_engine::eval::taper(mg, eg, t.phase), t.total_white);
        }
    }
}

#[test]
fn trace_coefficients_reproduce_evaluate_exactly() {
    check_trace_reproduces::<Chess>(11);
    check_trace_reproduces::<Atomic>(12);
    check_trace_reproduces::<KingOfTheHill>(13);
    check_trace_reproduces::<Minesweeper>(14);
}

/// At every random position of `V` the evaluation through the search's tables
/// (pawn structure and imbalance; a miss, then a hit) equals the evaluation without
/// them.
fn check_tables_change_nothing<V: VariantEval>(seed: u64) {
    let params = default_params(V::KIND);
    let mut tables = EvalTables::default();
    let positions = random_positions::<V>(seed, 20);
    assert!(positions.len() > 200, "{}", positions.len());
    for pos in positions {
        let expected = evaluate_linear(&pos, &params);
        assert_eq!(evaluate_linear_with(&pos, &params, &mut tables), expected);
        assert_eq!(evaluate_linear_with(&pos, &params, &mut tables), expected);
    }
}

#[test]
fn evaluation_tables_change_no_evaluation_in_any_variant() {
    check_tables_change_nothing::<Chess>(31);
    check_tables_change_nothing::<Atomic>(32);
    check_tables_change_nothing::<KingOfTheHill>(33);
    check_tables_change_nothing::<ThreeCheck>(34);
    check_tables_change_nothing::<Minesweeper>(35);
}

#[test]
fn variant_terms_stay_out_of_other_variants() {
    let in_block = |c: &sapper_engine::eval::Coefficients, name: &str| {
        assert!(SCHEMA.iter().any(|b| b.name == name), "no block {name}");
        c.entries.iter().any(|&(i, _)| block_of(i as usize).name == name)
    };
    for pos in random_positions::<Chess>(21, 10) {
        let c = coefficients(&pos);
        for name in [
            "atomic_king_blast",
            "atomic_king_neighbours",
            "hill_distance",
            "mine_risk",
        ] {
            assert!(!in_block(&c, name), "{name} in chess");
        }
    }
    let koth = random_positions::<KingOfTheHill>(22, 10);
    assert!(koth.iter().any(|p| in_block(&coefficients(p), "hill_distance")));
}

#[test]
fn params_round_trip_through_text() {
    for v in VariantKind::ALL {
        let p = random_params(v, 7);
        let text = p.to_text();
        let q = EvalParams::parse(&text, v).unwrap();
        assert_eq!(p, q);
        assert_eq!(q.to_text(), text);
        // Comments change the hash but not the weights.
        let commented = p.to_text_with_comment("made by a test\nsecond line");
        let r = EvalParams::parse(&commented, v).unwrap();
        assert_eq!(r.weights(), p.weights());
        assert_eq!(r.hash, content_hash(&commented));
        // The embedded files round trip too.
        let d = default_params(v);
        assert_eq!(EvalParams::parse(&d.to_text(), v).unwrap().weights(), d.weights());
    }
}

#[test]
fn parse_refuses_bad_files() {
    let v = VariantKind::Chess;
    let text = EvalParams::zero(v).to_text();
    let err = |t: &str| EvalParams::parse(t, v).unwrap_err();
    assert!(matches!(
        err(&text.replace("sapper-eval 3", "sapper-eval 2")),
        ParamsError::BadHeader(_)
    ));
    assert!(matches!(
        EvalParams::parse(&text, VariantKind::Atomic).unwrap_err(),
        ParamsError::WrongVariant { .. }
    ));
    assert!(matches!(
        err(&text.replace("tempo_mg", "tempo_xx")),
        ParamsError::UnknownParameter(_)
    ));
    assert!(matches!(
        err(&text.replace("tempo_mg\n      0\n", "")),
        ParamsError::Missing(n) if n == "tempo_mg"
    ));
    assert!(matches!(
        err(&text.replace("tempo_mg\n      0\n", "tempo_mg\n 0 0\n")),
        ParamsError::WrongLength {
            expected: 1,
            found: 2,
            ..
        }
    ));
    assert!(matches!(
        err(&format!("{text}tempo_eg\n 1\n")),
        ParamsError::Duplicate(_)
    ));
    assert!(matches!(
        err(&text.replace("tempo_mg\n      0", "tempo_mg\n  1.5")),
        ParamsError::BadValue(_)
    ));
    assert!(matches!(
        err(&text.replace("tempo_mg\n      0", "tempo_mg\n 100001")),
        ParamsError::BadValue(_)
    ));
}

#[test]
fn hash_in_the_file_name_is_checked() {
    let v = VariantKind::Atomic;
    let text = random_params(v, 3).to_text();
    let hash = content_hash(&text);
    let good = format!("nets/atomic-{hash}.eval");
    assert!(EvalParams::parse_named(&good, &text, v).is_ok());
    let bad = "nets/atomic-00000000.eval";
    assert!(matches!(
        EvalParams::parse_named(bad, &text, v),
        Err(ParamsError::HashMismatch { .. })
    ));
    // Changing one value changes the hash.
    let edited = text.replacen("    0", "    1", 1);
    if edited != text {
        assert!(EvalParams::parse_named(&good, &edited, v).is_err());
    }
    // Names without a hash are not checked.
    assert!(EvalParams::parse_named("/tmp/my-params.eval", &text, v).is_ok());

    // load_params_file: reads, validates and checks the name's hash.
    let dir = std::env::temp_dir().join(format!("sapper-eval-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let named = dir.join(format!("atomic-{hash}.eval"));
    std::fs::write(&named, &text).unwrap();
    assert_eq!(load_params_file(&named, v).unwrap().hash, hash);
    assert!(load_params_file(&named, VariantKind::Chess).is_err());
    let wrong = dir.join("atomic-12345678.eval");
    std::fs::write(&wrong, &text).unwrap();
    let e = load_params_file(&wrong, v).unwrap_err();
    assert!(e.contains("does not match"), "{e}");
    assert!(load_params_file(dir.join("missing.eval"), v).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_file_named_in_defaults_loads_with_its_hash() {
    let nets = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../nets");
    let list = std::fs::read_to_string(nets.join("defaults.txt")).unwrap();
    for line in list
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let mut parts = line.split_whitespace();
        let variant: VariantKind = parts.next().unwrap().parse().unwrap();
        let file = parts.next().unwrap();
        if file.ends_with(".nnue") {
            let bytes = std::fs::read(nets.join(file)).unwrap();
            let net = sapper_engine::eval::nnue::Network::parse_named(file, &bytes).unwrap();
            assert_eq!(net.variant, variant, "{file}");
            assert_eq!(
                Some(&net),
                sapper_engine::eval::default_nnue(variant).as_deref(),
                "{file}"
            );
            assert_eq!(
                default_params(variant).nnue.as_deref(),
                Some(&net),
                "{file}: the embedded parameters carry the network"
            );
            continue;
        }
        let p = load_params_file(nets.join(file), variant).unwrap();
        assert_eq!(p.weights(), default_params(variant).weights());
    }
}
