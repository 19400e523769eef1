//! Every line of the registration list (`for_each_variant!` in `crates/rules/src/variant/mod.rs`) is a
//! complete variant: what `docs/architecture.md`'s "Adding a variant" asks of a new
//! one beyond its line, checked for each line. What the compiler already refuses
//! (a type without `NAME`, a `KIND` naming another line, two lines with one code)
//! needs no test; the perft suites are checked by `crates/rules/tests/perft.rs`.

use sapper_engine::eval::params::{EvalParams, ParamsError, SCHEMA};
use sapper_engine::eval::VariantKindEval;
use sapper_engine::eval::{default_params, default_params_name};
use sapper_rules::game::AnyGame;
use sapper_rules::position::Position;
use sapper_rules::variant::{Variant, VariantKind};
use sapper_rules::with_variant;

#[test]
fn every_variant_is_registered_completely() {
    let mut names = Vec::new();
    for kind in VariantKind::ALL {
        let name = kind.name();
        assert!(!names.contains(&name), "two variants are named {name}");
        names.push(name);
        assert_eq!(
            name.parse::<VariantKind>(),
            Ok(kind),
            "{name} does not parse back"
        );
        assert_eq!(VariantKind::from_code(kind.code()), Some(kind));

        // The type the line names is the variant the value names, and its start
        // position is a game.
        let (type_name, moves) =
            with_variant!(kind, V => (V::NAME, Position::<V>::startpos().legal_moves().len()));
        assert_eq!(type_name, name);
        assert!(moves > 0, "{name}: the start position has no move");
        let game = AnyGame::new(kind).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(game.variant(), kind);

        // Its own parameter file, named in nets/defaults.txt (without one the
        // engine would silently play it with chess's).
        assert_eq!(
            default_params(kind).variant,
            kind,
            "{name}: nets/defaults.txt names no parameter file"
        );
        assert!(
            default_params_name(kind).starts_with(&format!("{name}-")),
            "{name}: embedded file {} is not {name}-<hash>.eval",
            default_params_name(kind)
        );

        // The blocks it declares its own are blocks of the schema, which its files
        // must give and the other variants' may leave out.
        for &block in kind.eval_blocks() {
            assert!(
                SCHEMA.iter().any(|b| b.name == block),
                "{name}: EVAL_BLOCKS names {block}, which is no block of eval::params::SCHEMA"
            );
            assert!(
                !kind.may_omit_block(block),
                "{name} may leave out its own {block}"
            );
            // A block may have several owners (chess and king of the hill share
            // `king_attack`); every variant that does not read it may leave it out.
            for other in VariantKind::ALL
                .into_iter()
                .filter(|o| !o.eval_blocks().contains(&block))
            {
                assert!(other.may_omit_block(block), "{other} must give {name}'s {block}");
            }
        }
    }
}

/// A block only some variants' evaluations read is optional exactly in the files of
/// the variants that do not read it, and read as zeros there.
#[test]
fn a_variants_own_block_is_optional_only_in_other_files() {
    let owned: Vec<(VariantKind, &str)> = VariantKind::ALL
        .into_iter()
        .flat_map(|k| k.eval_blocks().iter().map(move |&b| (k, b)))
        .collect();
    assert!(!owned.is_empty(), "three-check owns the three_check block");
    for (owner, block) in owned {
        let idx = SCHEMA.iter().position(|b| b.name == block).unwrap();
        let without = |kind: VariantKind| {
            let mut weights = *EvalParams::zero(kind).weights();
            let start = SCHEMA[idx].offset;
            for w in &mut weights[start..start + SCHEMA[idx].len] {
                *w = [7, 7];
            }
            let p = EvalParams::from_weights(kind, Box::new(weights));
            // Drops the block's two lines and the values after each.
            let text = p.to_text();
            let mut out = String::new();
            let mut skipping = false;
            for line in text.lines() {
                let head = line.split_whitespace().next().unwrap_or("");
                if head.starts_with(|c: char| c.is_ascii_alphabetic()) && !line.starts_with("sapper-eval") {
                    skipping = head == format!("{block}_mg") || head == format!("{block}_eg");
                }
                if !skipping {
                    out.push_str(line);
                    out.push('\n');
                }
            }
            assert_ne!(out, text, "the test removed nothing");
            EvalParams::parse(&out, kind)
        };
        match without(owner) {
            Err(ParamsError::Missing(n)) => assert!(n.starts_with(block), "{n}"),
            other => panic!("{owner}'s file without {block}: {other:?}"),
        }
        for kind in VariantKind::ALL
            .into_iter()
            .filter(|k| !k.eval_blocks().contains(&block))
        {
            let p = without(kind).unwrap_or_else(|e| panic!("{kind}'s file without {block}: {e}"));
            let start = SCHEMA[idx].offset;
            assert!(p.weights()[start..start + SCHEMA[idx].len]
                .iter()
                .all(|w| *w == [0, 0]));
        }
    }
}
