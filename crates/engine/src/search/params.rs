//! Search parameters: every margin, reduction and depth limit of the node searches,
//! named in one place so that they can be tuned by SPSA (Spall's simultaneous
//! perturbation; OpenBench and Stockfish's fishtest run it over UCI spin options).
//!
//! In a normal build each parameter is a `const fn` and costs nothing. Built with the
//! cargo feature `spsa`, each is an atomic cell, `uci` lists it as a spin option of
//! the same name (default, min and max as below), and `setoption` sets it, so a tuner
//! can move the values without a rebuild. Values are integers; the unit is given per
//! parameter (centipawns, plies, or hundredths where a formula needs fractions).

/// A tunable search parameter: its name (the UCI option under `spsa`), its default
/// and its range.
#[derive(Debug)]
pub struct Param {
    /// The parameter's name and UCI option name.
    pub name: &'static str,
    /// The value the engine plays with.
    pub default: i32,
    /// Least value a tuner may set.
    pub min: i32,
    /// Greatest value a tuner may set.
    pub max: i32,
    /// The live value under the `spsa` feature.
    #[cfg(feature = "spsa")]
    cell: &'static std::sync::atomic::AtomicI32,
}

impl Param {
    /// The current value.
    pub fn get(&self) -> i32 {
        #[cfg(feature = "spsa")]
        {
            self.cell.load(std::sync::atomic::Ordering::Relaxed)
        }
        #[cfg(not(feature = "spsa"))]
        {
            self.default
        }
    }

    /// Sets the value (only under `spsa`; otherwise the parameters are constants and
    /// this reports that). `value` must lie in `min..=max`.
    pub fn set(&self, value: i32) -> Result<(), String> {
        if !(self.min..=self.max).contains(&value) {
            return Err(format!(
                "{} needs a value from {} to {}",
                self.name, self.min, self.max
            ));
        }
        #[cfg(feature = "spsa")]
        {
            self.cell.store(value, std::sync::atomic::Ordering::Relaxed);
            Ok(())
        }
        #[cfg(not(feature = "spsa"))]
        {
            Err(format!(
                "{} is a constant in this build (build with --features spsa)",
                self.name
            ))
        }
    }
}

macro_rules! search_params {
    ($( $(#[doc = $doc:literal])* $name:ident = $default:literal, $min:literal..=$max:literal; )*) => {
        #[cfg(feature = "spsa")]
        mod cells {
            #![allow(non_upper_case_globals)]
            use std::sync::atomic::AtomicI32;
            $( pub static $name: AtomicI32 = AtomicI32::new($default); )*
        }

        $(
            $(#[doc = $doc])*
            #[cfg(not(feature = "spsa"))]
            #[inline(always)]
            pub const fn $name() -> i32 {
                $default
            }

            $(#[doc = $doc])*
            #[cfg(feature = "spsa")]
            #[inline(always)]
            pub fn $name() -> i32 {
                cells::$name.load(std::sync::atomic::Ordering::Relaxed)
            }
        )*

        /// Every parameter, in declaration order.
        pub static ALL: &[Param] = &[
            $( Param {
                name: stringify!($name),
                default: $default,
                min: $min,
                max: $max,
                #[cfg(feature = "spsa")]
                cell: &cells::$name,
            }, )*
        ];
    };
}

search_params! {
    /// Reverse futility pruning: greatest depth (plies).
    rfp_depth = 8, 4..=12;
    /// Reverse futility pruning: margin per ply of depth (centipawns).
    rfp_margin = 80, 30..=160;
    /// Null-move pruning: least depth (plies).
    nmp_min_depth = 3, 2..=5;
    /// Null-move reduction: base (plies).
    nmp_base = 3, 2..=5;
    /// Null-move reduction: one more ply per this many plies of depth.
    nmp_depth_div = 4, 2..=8;
    /// Null-move reduction: one more ply per this many centipawns above beta.
    nmp_eval_div = 200, 80..=400;
    /// Null-move reduction: most plies added for the eval margin.
    nmp_eval_max = 3, 1..=5;
    /// Internal iterative reduction: least depth (plies).
    iir_depth = 4, 2..=8;
    /// Late-move pruning: greatest depth (plies).
    lmp_depth = 8, 3..=12;
    /// Late-move pruning: quiet moves tried before pruning, `(base + depth^2) / 2`
    /// when not improving.
    lmp_base = 3, 1..=8;
    /// Futility pruning: greatest depth (plies).
    futility_depth = 6, 3..=10;
    /// Futility pruning: base margin (centipawns).
    futility_base = 100, 30..=250;
    /// Futility pruning: margin per ply of depth (centipawns).
    futility_per_depth = 120, 50..=250;
    /// History pruning: greatest depth (plies).
    history_pruning_depth = 4, 1..=8;
    /// History pruning: quiet moves scored below `-margin * depth` are skipped.
    history_pruning_margin = 4096, 1000..=12000;
    /// SEE pruning: greatest depth (plies).
    see_depth = 8, 3..=12;
    /// SEE pruning of quiet moves: allowed loss per ply of depth (centipawns).
    see_quiet_margin = 50, 20..=150;
    /// SEE pruning of captures: allowed loss per ply of depth (centipawns).
    see_noisy_margin = 100, 40..=200;
    /// Singular extensions: least depth (plies).
    singular_min_depth = 7, 4..=10;
    /// Singular extensions: how much shallower than the node the stored score may be.
    singular_tt_depth_margin = 3, 1..=5;
    /// Singular extensions: margin below the stored score per ply (centipawns).
    singular_margin_per_depth = 2, 1..=4;
    /// Double extensions: how far below the singular bound the others must fail.
    double_extension_margin = 20, 5..=60;
    /// Double extensions allowed on one line.
    max_double_extensions = 6, 0..=12;
    /// Late-move reductions: least depth (plies; from 3, so that a reduced depth
    /// stays positive after a negative extension).
    lmr_min_depth = 3, 3..=5;
    /// Late-move reductions: the table's constant term, hundredths of a ply.
    lmr_base = 75, 0..=150;
    /// Late-move reductions: the divisor of `ln(d) ln(m)`, hundredths.
    lmr_divisor = 225, 150..=350;
    /// Late-move reductions: one ply less per this much quiet history.
    lmr_history_div = 8192, 2000..=16000;
    /// Late-move reductions: extra plies at expected cut nodes.
    lmr_cut_node = 1, 0..=3;
    /// Late-move reductions: plies less at a node that is or was on a principal
    /// variation (Stockfish's `ttPv`), not itself a PV node.
    lmr_tt_pv = 1, 0..=2;
    /// After a reduced search beats alpha: the full-depth search goes a ply deeper
    /// when the score beats the best by this much plus 2 a ply (centipawns;
    /// Stockfish's doDeeper).
    lmr_deeper_margin = 20, 0..=80;
    /// ... and a ply shallower when it beats the best by less than this
    /// (centipawns; Stockfish's doShallower).
    lmr_shallower_margin = 5, 0..=30;
    /// ProbCut: least depth (plies).
    probcut_depth = 5, 3..=8;
    /// ProbCut: margin above beta (centipawns).
    probcut_margin = 200, 80..=400;
    /// ProbCut: plies by which the capture's verifying search is shallower.
    probcut_reduction = 4, 3..=5;
    /// ProbCut: margin taken off when the evaluation is improving (centipawns).
    probcut_improving = 50, 0..=150;
    /// Quiescence delta pruning: margin above the captured piece (centipawns).
    delta_margin = 150, 50..=400;
    /// Minesweeper: plies by which a chance move's unlikely outcome is searched
    /// shallower than its likely one.
    chance_probe_reduction = 3, 0..=6;
    /// Quiet history bonus per ply of depth squared.
    history_bonus_mul = 16, 4..=64;
    /// Quiet history bonus: greatest value.
    history_bonus_max = 1600, 400..=4000;
    /// Aspiration windows: first half-width (centipawns).
    aspiration_delta = 25, 8..=60;
}

/// The late-move reduction of the `moves`-th move at `depth`, in 1/1024 ply:
/// `base + ln(depth) ln(moves) / divisor`, as in Stockfish's reduction table, whose
/// fraction the search keeps until its adjustments are added.
#[inline(always)]
pub fn lmr(depth: i32, moves: usize) -> i32 {
    #[cfg(not(feature = "spsa"))]
    {
        LMR[depth.clamp(0, 63) as usize][moves.min(63)]
    }
    #[cfg(feature = "spsa")]
    {
        lmr_formula(
            depth.clamp(1, 63) as usize,
            moves.clamp(1, 63),
            lmr_base(),
            lmr_divisor(),
        )
    }
}

fn lmr_formula(d: usize, m: usize, base: i32, divisor: i32) -> i32 {
    let plies = base as f64 / 100.0 + (d as f64).ln() * (m as f64).ln() / (divisor as f64 / 100.0);
    (plies * 1024.0) as i32
}

/// The reduction table of the default parameters, by depth and move number.
#[cfg(not(feature = "spsa"))]
static LMR: once_cell::sync::Lazy<[[i32; 64]; 64]> = once_cell::sync::Lazy::new(|| {
    let mut t = [[0; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = lmr_formula(d, m, lmr_base(), lmr_divisor());
        }
    }
    t
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_in_their_ranges_and_names_are_unique() {
        let mut names = std::collections::HashSet::new();
        for p in ALL {
            assert!(p.min <= p.default && p.default <= p.max, "{p:?}");
            assert!(names.insert(p.name), "{} twice", p.name);
            assert_eq!(p.get(), p.default);
        }
        assert!(ALL.iter().any(|p| p.name == "rfp_margin"));
    }

    #[test]
    fn out_of_range_values_are_refused() {
        let p = ALL.iter().find(|p| p.name == "rfp_margin").unwrap();
        assert!(p.set(p.max + 1).is_err());
        assert!(p.set(p.min - 1).is_err());
    }

    #[cfg(feature = "spsa")]
    #[test]
    fn spsa_builds_set_values_in_range() {
        let p = ALL.iter().find(|p| p.name == "aspiration_delta").unwrap();
        p.set(p.default + 1).unwrap();
        assert_eq!(aspiration_delta(), p.default + 1);
        p.set(p.default).unwrap();
    }

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        // 1/1024 ply: at depth 1 the first move is reduced by less than a ply.
        assert!((0..1024).contains(&lmr(1, 1)));
        assert!(lmr(20, 30) > lmr(5, 5));
        assert!(lmr(10, 40) >= lmr(10, 4));
    }
}
