//! `sapper tune`: fits the evaluation's weights to `sapper datagen` data (Texel's
//! method).
//!
//! Every recorded position is traced once ([`sapper_engine::eval::coefficients`]): the
//! evaluation is linear in the weights, `E = sum c_i (w_mg,i * p + w_eg,i * (1 - p))`
//! with `p` the phase fraction. The tuner first fits the scaling constant `K` so that
//! `sigmoid(E / K)` best predicts the game results with the starting weights, then
//! minimises the mean squared error between `sigmoid(E / K)` and the target
//! `lambda * result + (1 - lambda) * sigmoid(score / K)` (result 1, 1/2, 0 for White;
//! `score` the search score) over all weights by full-batch Adam, the gradient summed
//! in parallel (rayon). A tenth of the games (by a hash of file and game number) is
//! held out and only reported: the validation loss. The weights are rounded and
//! written as `nets/<variant>-<hash>.eval`, with the settings and losses as comments.

use crate::datagen::read_file;
use rayon::prelude::*;
use sapper_engine::eval::params::{block_of, EvalParams, N_PARAMS};
use sapper_engine::eval::VariantEval;
use sapper_engine::eval::{
    coefficients, default_params, default_params_name, load_params_file, Coefficients, MAX_PHASE,
};
use sapper_rules::position::Position;
use sapper_rules::variant::VariantKind;
use sapper_rules::with_variant;
use sapper_rules::zobrist::splitmix64;
use std::io::Write;
use std::path::PathBuf;

/// What `sapper tune` does.
#[derive(Clone, Debug)]
pub struct TuneSettings {
    /// The variant (records of other variants are skipped).
    pub variant: VariantKind,
    /// Data files written by `sapper datagen`.
    pub data: Vec<PathBuf>,
    /// Starting parameters (the embedded ones when `None`).
    pub init: Option<PathBuf>,
    /// Directory the new file goes to.
    pub out_dir: PathBuf,
    /// Weight of the game result in the target (the rest is the search score).
    pub lambda: f64,
    /// Full passes over the training set.
    pub epochs: usize,
    /// Adam step size, centipawns per epoch.
    pub lr: f64,
    /// Fraction of games held out for validation.
    pub val_fraction: f64,
    /// Positions whose |score| exceeds this many centipawns are skipped (mates, lost
    /// causes).
    pub max_score: i32,
    /// Seed of the train/validation split.
    pub seed: u64,
    /// Blocks left as they are.
    pub freeze: Vec<String>,
    /// L2 pull toward the starting weights: the minimised objective gains
    /// `l2 * (w - w0)^2` per weight, `w` in centipawns (0 = none; the reported
    /// losses leave it out).
    pub l2: f64,
    /// Fixed `K`, centipawns, instead of fitting it.
    pub k: Option<f64>,
}

/// What a tuning run found.
#[derive(Clone, Debug)]
pub struct TuneReport {
    /// The scaling constant, centipawns.
    pub k: f64,
    /// Training positions.
    pub train: usize,
    /// Validation positions.
    pub val: usize,
    /// Training loss with the starting and the final (rounded) weights.
    pub train_loss: (f64, f64),
    /// Validation loss with the starting and the final (rounded) weights.
    pub val_loss: (f64, f64),
    /// The file written.
    pub file: PathBuf,
}

/// Traced positions in a compact, cache-friendly form.
#[derive(Default)]
struct Set {
    /// `(index, coefficient)` of every position, concatenated.
    entries: Vec<(u16, i16)>,
    /// Start of each position's entries; one more than positions.
    starts: Vec<u32>,
    /// Phase fraction `p` (1 = middlegame).
    phase: Vec<f32>,
    /// Game result for White: 1, 0.5, 0.
    result: Vec<f32>,
    /// Search score, White's view.
    score: Vec<f32>,
}

impl Set {
    fn len(&self) -> usize {
        self.phase.len()
    }

    fn push(&mut self, c: &Coefficients, result: f32, score: f32) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        for &(i, k) in &c.entries {
            self.entries
                .push((i, k.clamp(i16::MIN as i32, i16::MAX as i32) as i16));
        }
        self.starts.push(self.entries.len() as u32);
        self.phase.push(c.phase as f32 / MAX_PHASE as f32);
        self.result.push(result);
        self.score.push(score);
    }

    /// The evaluation of position `n` with weights `w` (`[mg..., eg...]` halves
    /// interleaved as `w[2 i]`, `w[2 i + 1]`).
    #[inline]
    fn eval(&self, n: usize, w: &[f64]) -> f64 {
        let p = self.phase[n] as f64;
        let mut mg = 0.0;
        let mut eg = 0.0;
        for &(i, c) in &self.entries[self.starts[n] as usize..self.starts[n + 1] as usize] {
            mg += c as f64 * w[2 * i as usize];
            eg += c as f64 * w[2 * i as usize + 1];
        }
        mg * p + eg * (1.0 - p)
    }

    fn target(&self, n: usize, k: f64, lambda: f64) -> f64 {
        lambda * self.result[n] as f64 + (1.0 - lambda) * sigmoid(self.score[n] as f64 / k)
    }

    /// Mean squared error against the target.
    fn loss(&self, w: &[f64], k: f64, lambda: f64) -> f64 {
        if self.len() == 0 {
            return 0.0;
        }
        let sum: f64 = (0..self.len())
            .into_par_iter()
            .map(|n| {
                let e = sigmoid(self.eval(n, w) / k) - self.target(n, k, lambda);
                e * e
            })
            .sum();
        sum / self.len() as f64
    }

    /// Loss and its gradient with respect to `w`.
    fn gradient(&self, w: &[f64], k: f64, lambda: f64) -> (f64, Vec<f64>) {
        let n = self.len();
        let (loss, mut grad) = (0..n)
            .into_par_iter()
            .with_min_len(2048)
            .fold(
                || (0.0f64, vec![0.0f64; 2 * N_PARAMS]),
                |(mut loss, mut grad), j| {
                    let s = sigmoid(self.eval(j, w) / k);
                    let err = s - self.target(j, k, lambda);
                    loss += err * err;
                    let d = 2.0 * err * s * (1.0 - s) / k;
                    let p = self.phase[j] as f64;
                    for &(i, c) in &self.entries[self.starts[j] as usize..self.starts[j + 1] as usize] {
                        grad[2 * i as usize] += d * c as f64 * p;
                        grad[2 * i as usize + 1] += d * c as f64 * (1.0 - p);
                    }
                    (loss, grad)
                },
            )
            .reduce(
                || (0.0, vec![0.0; 2 * N_PARAMS]),
                |(la, mut ga), (lb, gb)| {
                    for (a, b) in ga.iter_mut().zip(&gb) {
                        *a += b;
                    }
                    (la + lb, ga)
                },
            );
        let scale = 1.0 / n.max(1) as f64;
        for g in &mut grad {
            *g *= scale;
        }
        (loss * scale, grad)
    }
}

/// `[mg, eg]` weights as the tuner's flat vector: `w[2 i]` middlegame, `w[2 i + 1]`
/// endgame, centipawns.
fn interleaved(weights: &[[i32; 2]]) -> Vec<f64> {
    weights
        .iter()
        .flat_map(|&[mg, eg]| [mg as f64, eg as f64])
        .collect()
}

/// The logistic function.
#[inline]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn trace_fen<V: VariantEval>(fen: &str) -> Option<Coefficients> {
    Position::<V>::from_fen(fen).ok().map(|(p, _)| coefficients(&p))
}

fn trace_any(variant: VariantKind, fen: &str) -> Option<Coefficients> {
    with_variant!(variant, V => trace_fen::<V>(fen))
}

/// Golden-section search for the `K` minimising the result-only loss.
fn fit_k(set: &Set, w: &[f64]) -> f64 {
    let f = |k: f64| set.loss(w, k, 1.0);
    let (mut a, mut b) = (20.0f64, 2000.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    while b - a > 0.5 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    (a + b) / 2.0
}

/// Runs `sapper tune`, logging progress to `log`.
///
/// # Errors
/// Unreadable data or parameter files, no usable positions, or an unwritable output.
pub fn run(s: &TuneSettings, log: &mut dyn Write) -> Result<TuneReport, String> {
    let (base, base_name) = match &s.init {
        Some(path) => (load_params_file(path, s.variant)?, path.display().to_string()),
        None => (
            default_params(s.variant).as_ref().clone(),
            default_params_name(s.variant).to_string(),
        ),
    };
    for name in &s.freeze {
        if base.block(name).is_none() {
            return Err(format!("--freeze: unknown block '{name}'"));
        }
    }
    let mut train = Set::default();
    let mut val = Set::default();
    let mut games = std::collections::HashSet::new();
    let mut skipped = 0usize;
    for (file_index, path) in s.data.iter().enumerate() {
        let (_, records) = read_file(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let traced: Vec<Option<(Coefficients, f32, f32, u32)>> = records
            .par_iter()
            .map(|r| {
                if r.variant != s.variant || (r.score as i32).abs() > s.max_score {
                    return None;
                }
                let c = trace_any(r.variant, &r.fen)?;
                Some((c, (r.result as f32 + 1.0) / 2.0, r.score as f32, r.game))
            })
            .collect();
        for t in traced {
            let Some((c, result, score, game)) = t else {
                skipped += 1;
                continue;
            };
            games.insert((file_index, game));
            let h = splitmix64(s.seed ^ ((file_index as u64) << 32) ^ game as u64);
            if ((h % 1_000_000) as f64) < s.val_fraction * 1_000_000.0 {
                val.push(&c, result, score);
            } else {
                train.push(&c, result, score);
            }
        }
    }
    if train.len() == 0 {
        return Err("no usable positions for this variant in the data".to_string());
    }
    let _ = writeln!(
        log,
        "{} games, {} training and {} validation positions ({} skipped: other variant, |score| > {}, or bad FEN)",
        games.len(),
        train.len(),
        val.len(),
        skipped,
        s.max_score
    );

    let start = interleaved(&base.weights()[..]);
    let frozen: Vec<bool> = (0..N_PARAMS)
        .map(|i| s.freeze.iter().any(|f| f == block_of(i).name))
        .collect();
    let k = s.k.unwrap_or_else(|| fit_k(&train, &start));
    let train_before = train.loss(&start, k, s.lambda);
    let val_before = val.loss(&start, k, s.lambda);
    let _ = writeln!(
        log,
        "K = {k:.1}; loss (lambda {}) train {train_before:.6} validation {val_before:.6}",
        s.lambda
    );

    // Adam.
    let mut w = start.clone();
    let mut m = vec![0.0; w.len()];
    let mut v = vec![0.0; w.len()];
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    for epoch in 1..=s.epochs {
        let (loss, mut grad) = train.gradient(&w, k, s.lambda);
        if s.l2 > 0.0 {
            for (g, (x, x0)) in grad.iter_mut().zip(w.iter().zip(&start)) {
                *g += 2.0 * s.l2 * (x - x0);
            }
        }
        for (j, g) in grad.iter().enumerate() {
            if frozen[j / 2] {
                continue;
            }
            m[j] = b1 * m[j] + (1.0 - b1) * g;
            v[j] = b2 * v[j] + (1.0 - b2) * g * g;
            let mh = m[j] / (1.0 - b1.powi(epoch as i32));
            let vh = v[j] / (1.0 - b2.powi(epoch as i32));
            w[j] -= s.lr * mh / (vh.sqrt() + eps);
        }
        if epoch % 50 == 0 || epoch == s.epochs {
            let _ = writeln!(
                log,
                "epoch {epoch:5}  train {loss:.6}  validation {:.6}",
                val.loss(&w, k, s.lambda)
            );
        }
    }

    let mut weights = Box::new([[0i32; 2]; N_PARAMS]);
    for (i, x) in weights.iter_mut().enumerate() {
        *x = [w[2 * i].round() as i32, w[2 * i + 1].round() as i32].map(|v| v.clamp(-100_000, 100_000));
    }
    let rounded = interleaved(&weights[..]);
    let train_after = train.loss(&rounded, k, s.lambda);
    let val_after = val.loss(&rounded, k, s.lambda);
    let params = EvalParams::from_weights(s.variant, weights);
    let data: Vec<String> = s.data.iter().map(|p| p.display().to_string()).collect();
    let comment = format!(
        "tuned by `sapper tune` (Texel, Adam) from {base_name}\n\
         data: {data} ({games} games, {train} training + {val} validation positions, |score| <= {max})\n\
         K {k:.1}, lambda {lambda}, epochs {epochs}, lr {lr}, l2 {l2}, split seed {seed}, frozen: {frozen}\n\
         loss train {train_before:.6} -> {train_after:.6}, validation {val_before:.6} -> {val_after:.6}",
        data = data.join(" "),
        games = games.len(),
        train = train.len(),
        val = val.len(),
        max = s.max_score,
        lambda = s.lambda,
        epochs = s.epochs,
        lr = s.lr,
        l2 = s.l2,
        seed = s.seed,
        frozen = if s.freeze.is_empty() {
            "none".to_string()
        } else {
            s.freeze.join(",")
        },
    );
    let text = params.to_text_with_comment(&comment);
    std::fs::create_dir_all(&s.out_dir).map_err(|e| format!("{}: {e}", s.out_dir.display()))?;
    let file = s.out_dir.join(EvalParams::file_name(s.variant, &text));
    std::fs::write(&file, &text).map_err(|e| format!("{}: {e}", file.display()))?;
    let _ = writeln!(
        log,
        "wrote {}: loss train {train_before:.6} -> {train_after:.6}, validation {val_before:.6} -> {val_after:.6}",
        file.display()
    );
    Ok(TuneReport {
        k,
        train: train.len(),
        val: val.len(),
        train_loss: (train_before, train_after),
        val_loss: (val_before, val_after),
        file,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gradient_matches_finite_differences() {
        let mut set = Set::default();
        for (fen, result, score) in [
            (
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                1.0,
                30.0,
            ),
            ("4k3/8/8/3P4/8/8/8/4K3 b - - 0 1", 0.5, 150.0),
            ("r3k2r/ppp2ppp/8/8/8/8/PP3PPP/R3K2R w KQkq - 0 1", 0.0, -40.0),
        ] {
            let c = trace_any(VariantKind::Chess, fen).unwrap();
            set.push(&c, result, score);
        }
        let w = interleaved(&default_params(VariantKind::Chess).weights()[..]);
        let (k, lambda) = (200.0, 0.7);
        let (loss, grad) = set.gradient(&w, k, lambda);
        assert!((loss - set.loss(&w, k, lambda)).abs() < 1e-12);
        let entries: Vec<usize> = set.entries.iter().map(|e| e.0 as usize).collect();
        for &i in entries.iter().take(12) {
            for half in 0..2 {
                let j = 2 * i + half;
                let mut up = w.clone();
                up[j] += 0.01;
                let mut down = w.clone();
                down[j] -= 0.01;
                let numeric = (set.loss(&up, k, lambda) - set.loss(&down, k, lambda)) / 0.02;
                assert!((numeric - grad[j]).abs() < 1e-7, "{j}: {numeric} vs {}", grad[j]);
            }
        }
    }
}
