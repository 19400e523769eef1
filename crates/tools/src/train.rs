//! `sapper train`: trains an NNUE network ([`sapper_engine::eval::nnue`]) on `sapper datagen` data.
//!
//! The float model is the network before quantization: per side
//! `a = screlu(b + sum W[f])` over the side's active features `f`, then
//! `y = w_us . a_us + w_them . a_them + c`; the prediction is `sigmoid(400 y / K)`
//! against the target `lambda * result + (1 - lambda) * sigmoid(score / K)`, both for
//! the side to move (the loss that bullet and nnue-pytorch blend from score and
//! result). Minibatch Adam; the feature transformer's gradient is sparse (only the
//! rows of active features), summed per rayon chunk. Weights are clipped to
//! [`WEIGHT_CLIP`] so that the quantized integer sums cannot overflow. A tenth of the
//! games (by a hash of file and game number) is held out: the validation loss, of the
//! float model and of the quantized network the file holds.

use crate::datagen::read_file;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use sapper_engine::eval::nnue::{
    feature, load_network_file, supports, Network, HIDDEN, INPUTS, QA, QB, SCALE, WEIGHT_CLIP,
};
use sapper_engine::eval::params::EvalParams;
use sapper_engine::eval::VariantEval;
use sapper_engine::eval::{default_params, evaluate_linear};
use sapper_rules::bitboard::BitBoard;
use sapper_rules::geometry::Geometry;
use sapper_rules::position::Position;
use sapper_rules::types::{Color, Role};
use sapper_rules::variant::{Variant, VariantKind};
use sapper_rules::with_variant;
use sapper_rules::zobrist::splitmix64;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// What `sapper train` does.
#[derive(Clone, Debug)]
pub struct TrainSettings {
    /// The variant (records of other variants are skipped); an 8x8 one.
    pub variant: VariantKind,
    /// Data files written by `sapper datagen`.
    pub data: Vec<PathBuf>,
    /// Directory the network goes to, as `<variant>-<hash>.nnue`.
    pub out_dir: PathBuf,
    /// Passes over the training set.
    pub epochs: usize,
    /// Positions per Adam step.
    pub batch: usize,
    /// Adam step size at the start; divided by 10 for the last quarter of the epochs.
    pub lr: f32,
    /// Weight of the game result in the target (the rest is the search score).
    pub lambda: f32,
    /// Scale of the sigmoid that turns centipawns into an expected score.
    pub k: f32,
    /// Fraction of games held out for validation.
    pub val_fraction: f64,
    /// Positions whose |score| exceeds this many centipawns are skipped.
    pub max_score: i32,
    /// Seed of the split, the initial weights and the shuffles.
    pub seed: u64,
    /// Adds each training position without castling rights mirrored left to right.
    pub mirror: bool,
    /// A network file to start from instead of random weights (fine-tuning; another
    /// variant's network may start this one's, e.g. chess's for king of the hill).
    pub init: Option<PathBuf>,
    /// Train a residual network: it learns the score less the embedded hand-written
    /// evaluation, and the engine adds the two ([`Network::residual`]).
    pub residual: bool,
}

/// What a training run did.
#[derive(Clone, Debug)]
pub struct TrainReport {
    /// Training positions.
    pub train: usize,
    /// Validation positions.
    pub val: usize,
    /// Validation loss of the float model after the last epoch.
    pub val_loss: f64,
    /// Validation loss of the quantized network.
    pub val_loss_quantized: f64,
    /// Validation loss of the embedded hand-written evaluation on the same positions
    /// (the baseline to beat).
    pub val_loss_linear: f64,
    /// Seconds spent training (data loading excluded).
    pub seconds: f64,
    /// The file written.
    pub file: PathBuf,
}

/// Positions as feature lists (White's perspective; Black's is derived).
#[derive(Default)]
struct Set {
    /// Active White-perspective features of every position, concatenated.
    features: Vec<u16>,
    /// Start of each position's features; one more than positions.
    starts: Vec<u32>,
    /// Whether Black is to move.
    black: Vec<bool>,
    /// Target expected score for the side to move.
    target: Vec<f32>,
    /// The hand-written evaluation, side to move's view, centipawns.
    linear: Vec<f32>,
    /// The network learns the score less the hand-written evaluation: its output
    /// is added to `linear`.
    residual: bool,
}

impl Set {
    fn len(&self) -> usize {
        self.black.len()
    }

    fn push(&mut self, features: &[u16], black: bool, target: f32, linear: f32) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        self.features.extend_from_slice(features);
        self.starts.push(self.features.len() as u32);
        self.black.push(black);
        self.target.push(target);
        self.linear.push(linear);
    }

    /// The hand-written evaluation's mean squared error.
    fn linear_loss(&self, k: f32) -> f64 {
        let sum: f64 = (0..self.len())
            .map(|n| ((sigmoid(self.linear[n] / k) - self.target[n]) as f64).powi(2))
            .sum();
        sum / self.len().max(1) as f64
    }

    fn features(&self, n: usize) -> &[u16] {
        &self.features[self.starts[n] as usize..self.starts[n + 1] as usize]
    }

    /// What the network's output is added to for position `n`, centipawns: the
    /// hand-written evaluation for a residual network, else 0.
    #[inline(always)]
    fn base(&self, n: usize) -> f32 {
        if self.residual {
            self.linear[n]
        } else {
            0.0
        }
    }
}

/// Black's feature for White's feature `f` (colours swapped, board flipped).
#[inline(always)]
fn mirrored(f: usize) -> usize {
    let (side, rest) = (f / 384, f % 384);
    (1 - side) * 384 + (rest / 64) * 64 + ((rest % 64) ^ 56)
}

/// The float model (and the shape of its gradient and Adam moments).
#[derive(Clone)]
struct Model {
    ft_w: Vec<f32>,
    ft_b: Vec<f32>,
    out_w: Vec<f32>,
    out_b: f32,
}

impl Model {
    fn zero() -> Model {
        Model {
            ft_w: vec![0.0; INPUTS * HIDDEN],
            ft_b: vec![0.0; HIDDEN],
            out_w: vec![0.0; 2 * HIDDEN],
            out_b: 0.0,
        }
    }

    fn random(rng: &mut impl Rng) -> Model {
        let mut m = Model::zero();
        let a = 1.0 / (32.0f32).sqrt();
        m.ft_w.iter_mut().for_each(|w| *w = rng.gen_range(-a..a) * 0.5);
        m.ft_b.iter_mut().for_each(|w| *w = rng.gen_range(0.0..0.2));
        let b = 1.0 / ((2 * HIDDEN) as f32).sqrt();
        m.out_w.iter_mut().for_each(|w| *w = rng.gen_range(-b..b));
        m
    }

    /// The parameters as slices: transformer weights, transformer biases, output
    /// weights, output bias.
    fn parts(&self) -> [&[f32]; 4] {
        [
            &self.ft_w,
            &self.ft_b,
            &self.out_w,
            std::slice::from_ref(&self.out_b),
        ]
    }

    fn parts_mut(&mut self) -> [&mut [f32]; 4] {
        [
            &mut self.ft_w,
            &mut self.ft_b,
            &mut self.out_w,
            std::slice::from_mut(&mut self.out_b),
        ]
    }

    fn add(&mut self, o: &Model) {
        for (a, b) in self.parts_mut().into_iter().zip(o.parts()) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
    }

    /// Accumulators of position `n` for White's and Black's perspective.
    fn accumulate(&self, set: &Set, n: usize, acc: &mut [[f32; HIDDEN]; 2]) {
        acc[0].copy_from_slice(&self.ft_b);
        acc[1].copy_from_slice(&self.ft_b);
        for &f in set.features(n) {
            let (fw, fb) = (f as usize, mirrored(f as usize));
            for (a, w) in acc[0].iter_mut().zip(&self.ft_w[fw * HIDDEN..(fw + 1) * HIDDEN]) {
                *a += w;
            }
            for (a, w) in acc[1].iter_mut().zip(&self.ft_w[fb * HIDDEN..(fb + 1) * HIDDEN]) {
                *a += w;
            }
        }
    }

    /// The raw output `y` (centipawns / 400) of position `n`, side to move's view.
    fn forward(&self, set: &Set, n: usize, acc: &mut [[f32; HIDDEN]; 2]) -> f32 {
        self.accumulate(set, n, acc);
        let us = set.black[n] as usize;
        let mut y = self.out_b;
        for (i, w) in self.out_w.iter().enumerate() {
            let side = if i < HIDDEN { us } else { 1 - us };
            let x = acc[side][i % HIDDEN].clamp(0.0, 1.0);
            y += x * x * w;
        }
        y
    }

    /// Adds the loss gradient of position `n` to `g`; returns the squared error.
    fn backward(&self, set: &Set, n: usize, k: f32, g: &mut Model) -> f32 {
        let mut acc = [[0.0f32; HIDDEN]; 2];
        let y = self.forward(set, n, &mut acc);
        let p = sigmoid((SCALE as f32 * y + set.base(n)) / k);
        let err = p - set.target[n];
        let dy = 2.0 * err * p * (1.0 - p) * SCALE as f32 / k;
        g.out_b += dy;
        let us = set.black[n] as usize;
        let mut dacc = [[0.0f32; HIDDEN]; 2];
        for i in 0..2 * HIDDEN {
            let side = if i < HIDDEN { us } else { 1 - us };
            let a = acc[side][i % HIDDEN];
            let x = a.clamp(0.0, 1.0);
            g.out_w[i] += dy * x * x;
            if a > 0.0 && a < 1.0 {
                dacc[side][i % HIDDEN] += dy * self.out_w[i] * 2.0 * x;
            }
        }
        for (gb, (d0, d1)) in g.ft_b.iter_mut().zip(dacc[0].iter().zip(&dacc[1])) {
            *gb += d0 + d1;
        }
        for &f in set.features(n) {
            let (fw, fb) = (f as usize, mirrored(f as usize));
            for (gw, d) in g.ft_w[fw * HIDDEN..(fw + 1) * HIDDEN].iter_mut().zip(&dacc[0]) {
                *gw += d;
            }
            for (gw, d) in g.ft_w[fb * HIDDEN..(fb + 1) * HIDDEN].iter_mut().zip(&dacc[1]) {
                *gw += d;
            }
        }
        err * err
    }

    /// Mean squared error over `set`.
    fn loss(&self, set: &Set, k: f32) -> f64 {
        if set.len() == 0 {
            return 0.0;
        }
        let sum: f64 = (0..set.len())
            .into_par_iter()
            .map_init(
                || [[0.0f32; HIDDEN]; 2],
                |acc, n| {
                    let y = SCALE as f32 * self.forward(set, n, acc) + set.base(n);
                    let e = sigmoid(y / k) - set.target[n];
                    (e * e) as f64
                },
            )
            .sum();
        sum / set.len() as f64
    }

    /// The float model of a quantized network: [`Model::quantize`]'s inverse, exact
    /// up to its rounding, so that quantizing it again gives the same network.
    fn dequantize(net: &Network) -> Model {
        let (ft, bias, out, out_bias) = net.parts();
        Model {
            ft_w: ft.iter().map(|&w| w as f32 / QA as f32).collect(),
            ft_b: bias.iter().map(|&w| w as f32 / QA as f32).collect(),
            out_w: out.iter().map(|&w| w as f32 / QB as f32).collect(),
            out_b: out_bias as f32 / (QA * QB) as f32,
        }
    }

    /// The quantized network.
    fn quantize(&self, variant: VariantKind) -> Network {
        let q = |x: f32, s: i32| (x * s as f32).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
        let ft: Vec<i16> = self.ft_w.iter().map(|&w| q(w, QA)).collect();
        let mut bias = [0i16; HIDDEN];
        for (b, &w) in bias.iter_mut().zip(&self.ft_b) {
            *b = q(w, QA);
        }
        let mut out = [0i16; 2 * HIDDEN];
        for (o, &w) in out.iter_mut().zip(&self.out_w) {
            *o = q(w, QB);
        }
        Network::from_parts(
            variant,
            ft,
            bias,
            out,
            (self.out_b * (QA * QB) as f32).round() as i32,
        )
    }
}

/// The logistic function.
#[inline(always)]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// A parsed training position.
struct Parsed {
    /// White-perspective features.
    features: Vec<u16>,
    /// Whether Black is to move.
    black: bool,
    /// The embedded hand-written evaluation, side to move, centipawns.
    linear: f32,
    /// No castling rights: the position may be mirrored left to right.
    symmetric: bool,
}

/// The features of `fen` and what else training needs of it.
fn features_of<V: VariantEval>(fen: &str, params: &EvalParams) -> Option<Parsed> {
    let (pos, _) = Position::<V>::from_fen(fen).ok()?;
    let linear = evaluate_linear(&pos, params) as f32;
    let mut out = Vec::with_capacity(32);
    for color in Color::ALL {
        for role in Role::ALL {
            for sq in pos.pieces(color, role).squares() {
                out.push(feature(Color::White, color, role, sq.index()) as u16);
            }
        }
    }
    Some(Parsed {
        features: out,
        black: pos.side_to_move() == Color::Black,
        linear,
        symmetric: pos.castling_rights() == 0,
    })
}

/// White's feature `f` with the board mirrored left to right (file a <-> h).
#[inline(always)]
fn flipped_files(f: u16) -> u16 {
    f ^ 7
}

fn features_any(variant: VariantKind, fen: &str, params: &EvalParams) -> Option<Parsed> {
    with_variant!(variant, V => supports::<V>().then(|| features_of::<V>(fen, params)).flatten())
}

/// The quantized network's mean squared error over `set` (what the engine plays).
fn quantized_loss(net: &Network, set: &Set, k: f32) -> f64 {
    use sapper_engine::eval::nnue::{Accumulator, PieceBoards};
    if set.len() == 0 {
        return 0.0;
    }
    let sum: f64 = (0..set.len())
        .into_par_iter()
        .map(|n| {
            let mut boards = PieceBoards::default();
            for &f in set.features(n) {
                let (side, rest) = (f as usize / 384, f as usize % 384);
                boards.0[side * 6 + rest / 64] |= 1u64 << (rest % 64);
            }
            let mut acc = Accumulator::default();
            acc.refresh(net, &boards);
            let side = if set.black[n] { Color::Black } else { Color::White };
            let e = sigmoid((net.output(&acc, side) as f32 + set.base(n)) / k) - set.target[n];
            (e * e) as f64
        })
        .sum();
    sum / set.len() as f64
}

/// Runs `sapper train`, logging progress to `log`.
///
/// # Errors
/// A minesweeper variant (its board does not fit the network), unreadable data, no
/// usable positions, or an unwritable output.
pub fn run(s: &TrainSettings, log: &mut dyn Write) -> Result<TrainReport, String> {
    if let Some(board) =
        with_variant!(s.variant, V => (!supports::<V>()).then_some(<<V as Variant>::G as Geometry>::RANKS))
    {
        return Err(format!(
            "{}'s 8x{board} board does not fit the {INPUTS}-input network",
            s.variant
        ));
    }
    // A bad starting network is refused before the data is read.
    let init = s
        .init
        .as_ref()
        .map(|path| load_network_file(path).map(|net| (path, net)))
        .transpose()?;
    if let Some((path, net)) = &init {
        if net.residual != s.residual {
            return Err(format!(
                "{} is {}a residual network: train {} --residual to start from it",
                path.display(),
                if net.residual { "" } else { "not " },
                if net.residual { "with" } else { "without" }
            ));
        }
    }
    let mut train = Set {
        residual: s.residual,
        ..Set::default()
    };
    let mut val = Set {
        residual: s.residual,
        ..Set::default()
    };
    let mut skipped = 0usize;
    let mut mirrored_count = 0usize;
    // The baseline the log reports: the embedded hand-written evaluation.
    let linear_params = default_params(s.variant);
    for (file_index, path) in s.data.iter().enumerate() {
        let (_, records) = read_file(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let parsed: Vec<Option<(Parsed, f32, u32)>> = records
            .par_iter()
            .map(|r| {
                if r.variant != s.variant || (r.score as i32).abs() > s.max_score {
                    return None;
                }
                let p = features_any(r.variant, &r.fen, &linear_params)?;
                let result = (r.result as f32 + 1.0) / 2.0;
                let white = s.lambda * result + (1.0 - s.lambda) * sigmoid(r.score as f32 / s.k);
                let target = if p.black { 1.0 - white } else { white };
                Some((p, target, r.game))
            })
            .collect();
        for p in parsed {
            let Some((
                Parsed {
                    features: f,
                    black,
                    linear,
                    symmetric,
                },
                target,
                game,
            )) = p
            else {
                skipped += 1;
                continue;
            };
            let h = splitmix64(s.seed ^ ((file_index as u64) << 32) ^ game as u64);
            if ((h % 1_000_000) as f64) < s.val_fraction * 1_000_000.0 {
                val.push(&f, black, target, linear);
            } else {
                train.push(&f, black, target, linear);
                // Without castling rights the rules are symmetric left to right:
                // the mirrored position is a free second sample.
                if s.mirror && symmetric {
                    let m: Vec<u16> = f.iter().map(|&x| flipped_files(x)).collect();
                    train.push(&m, black, target, linear);
                    mirrored_count += 1;
                }
            }
        }
    }
    if train.len() == 0 {
        return Err("no usable positions for this variant in the data".to_string());
    }
    let val_loss_linear = val.linear_loss(s.k);
    let _ = writeln!(
        log,
        "{} training ({mirrored_count} of them mirrored copies) and {} validation positions ({} skipped: \
         other variant, |score| > {}, or bad FEN); hand-written evaluation's validation loss {val_loss_linear:.6}",
        train.len(),
        val.len(),
        skipped,
        s.max_score
    );

    let started = Instant::now();
    let mut rng = rand::rngs::StdRng::seed_from_u64(s.seed);
    let mut model = Model::random(&mut rng);
    if let Some((path, net)) = &init {
        model = Model::dequantize(net);
        let _ = writeln!(
            log,
            "starting from {} ({} network): validation {:.6}",
            path.display(),
            net.variant,
            model.loss(&val, s.k)
        );
    }
    let mut m = Model::zero();
    let mut v = Model::zero();
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut step = 0i32;
    let mut best: Option<(f64, usize, Model)> = None;
    let batch = s.batch.max(1);
    let chunk = batch.div_ceil(rayon::current_num_threads().max(1)).max(64);
    for epoch in 1..=s.epochs {
        order.shuffle(&mut rng);
        let lr = if epoch * 4 > s.epochs * 3 {
            s.lr / 10.0
        } else {
            s.lr
        };
        let mut loss_sum = 0.0f64;
        for ids in order.chunks(batch) {
            let (loss, grad) = ids
                .par_chunks(chunk)
                .map(|part| {
                    let mut g = Model::zero();
                    let l: f64 = part
                        .iter()
                        .map(|&n| model.backward(&train, n, s.k, &mut g) as f64)
                        .sum();
                    (l, g)
                })
                .reduce(
                    || (0.0, Model::zero()),
                    |(la, mut ga), (lb, gb)| {
                        ga.add(&gb);
                        (la + lb, ga)
                    },
                );
            loss_sum += loss;
            step += 1;
            let scale = 1.0 / ids.len() as f32;
            let c1 = 1.0 - b1.powi(step);
            let c2 = 1.0 - b2.powi(step);
            let adam = |w: &mut f32, g: f32, m: &mut f32, v: &mut f32| {
                let g = g * scale;
                *m = b1 * *m + (1.0 - b1) * g;
                *v = b2 * *v + (1.0 - b2) * g * g;
                *w -= lr * (*m / c1) / ((*v / c2).sqrt() + eps);
                *w = w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
            };
            let parts = model
                .parts_mut()
                .into_iter()
                .zip(grad.parts())
                .zip(m.parts_mut())
                .zip(v.parts_mut());
            for (i, (((w, g), mm), vv)) in parts.enumerate() {
                // Transformer rows of features absent from the batch have no
                // gradient; leave their moments alone too (sparse Adam, as the NNUE
                // trainers do).
                let sparse = i == 0;
                for (((w, g), mm), vv) in w.iter_mut().zip(g).zip(mm.iter_mut()).zip(vv.iter_mut()) {
                    if !(sparse && *g == 0.0) {
                        adam(w, *g, mm, vv);
                    }
                }
            }
        }
        let epoch_val = model.loss(&val, s.k);
        let _ = writeln!(
            log,
            "epoch {epoch}/{}: lr {lr:.5} train loss {:.6} validation {epoch_val:.6} ({:.0} s)",
            s.epochs,
            loss_sum / train.len() as f64,
            started.elapsed().as_secs_f64()
        );
        // Early stopping: the file gets the epoch with the lowest validation loss.
        if best
            .as_ref()
            .is_none_or(|(l, _, _)| epoch_val < *l || val.len() == 0)
        {
            best = Some((epoch_val, epoch, model.clone()));
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let (val_loss, best_epoch, model) = best.ok_or("no epochs")?;
    let _ = writeln!(log, "kept epoch {best_epoch} (validation {val_loss:.6})");
    let net = model.quantize(s.variant).with_residual(s.residual);
    let val_loss_quantized = quantized_loss(&net, &val, s.k);
    std::fs::create_dir_all(&s.out_dir).map_err(|e| format!("{}: {e}", s.out_dir.display()))?;
    let file = s.out_dir.join(format!("{}-{}.nnue", s.variant.name(), net.hash));
    std::fs::write(&file, net.to_bytes()).map_err(|e| format!("{}: {e}", file.display()))?;
    Ok(TrainReport {
        train: train.len(),
        val: val.len(),
        val_loss,
        val_loss_quantized,
        val_loss_linear,
        seconds,
        file,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sapper_rules::variant::Chess;

    /// A network read back into floats quantizes to the same bytes: `--init` starts
    /// from exactly the network the file holds.
    #[test]
    fn dequantized_network_quantizes_to_itself() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let net = Model::random(&mut rng).quantize(VariantKind::Atomic);
        let again = Model::dequantize(&net).quantize(VariantKind::Atomic);
        assert_eq!(net.to_bytes(), again.to_bytes());
        assert_ne!(net.parts().1, &[0i16; HIDDEN], "the biases are not all zero");
    }

    #[test]
    fn mirrored_feature_is_the_black_perspective() {
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in 0..64 {
                    let w = feature(Color::White, color, role, sq);
                    assert_eq!(mirrored(w), feature(Color::Black, color, role, sq));
                    assert_eq!(mirrored(mirrored(w)), w);
                }
            }
        }
    }

    /// A starting network must be residual exactly when the training is: refused
    /// before the data is read.
    #[test]
    fn init_must_match_residual() {
        let dir = std::env::temp_dir().join(format!("sapper-train-init-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let net = Network::random(VariantKind::KingOfTheHill, 3).with_residual(true);
        let path = dir.join(format!("kingofthehill-{}.nnue", net.hash));
        std::fs::write(&path, net.to_bytes()).unwrap();
        let settings = |residual| TrainSettings {
            variant: VariantKind::KingOfTheHill,
            data: vec![dir.join("missing.bin")],
            out_dir: dir.clone(),
            epochs: 1,
            batch: 64,
            lr: 0.001,
            lambda: 0.0,
            k: 330.0,
            val_fraction: 0.1,
            max_score: 3000,
            seed: 1,
            mirror: true,
            init: Some(path.clone()),
            residual,
        };
        let err = run(&settings(false), &mut std::io::sink()).unwrap_err();
        assert!(err.contains("residual"), "{err}");
        // With --residual it gets as far as the data, which is missing.
        let err = run(&settings(true), &mut std::io::sink()).unwrap_err();
        assert!(err.contains("missing.bin"), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }

    /// The float model and the quantized network agree to within a few centipawns,
    /// and the analytic gradient matches a finite difference, residual or not.
    #[test]
    fn quantized_net_tracks_the_float_model_and_gradients_are_right() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(9);
        let model = Model::random(&mut rng);
        let mut set = Set::default();
        let fens = [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "8/5k2/8/3K4/8/8/1R6/8 w - - 0 1",
        ];
        for fen in fens {
            let p = features_of::<Chess>(fen, &default_params(VariantKind::Chess)).expect("fen");
            set.push(&p.features, p.black, 0.7, p.linear);
        }
        let net = model.quantize(VariantKind::Chess);
        for (n, fen) in fens.iter().enumerate() {
            let (pos, _) = Position::<Chess>::from_fen(fen).expect("fen");
            let float_cp = SCALE as f32 * model.forward(&set, n, &mut [[0.0; HIDDEN]; 2]);
            let int_cp = net.evaluate(&pos) as f32;
            assert!(
                (float_cp - int_cp).abs() < 4.0,
                "{fen}: float {float_cp} int {int_cp}"
            );
        }
        // Finite differences on a few weights of each kind, for a plain network and
        // for a residual one (whose output is added to the hand-written evaluation).
        fn weight(m: &mut Model, which: usize, f1: usize) -> &mut f32 {
            match which {
                0 => &mut m.out_w[5],
                1 => &mut m.out_b,
                2 => &mut m.ft_b[7],
                _ => &mut m.ft_w[f1 * HIDDEN + 2],
            }
        }
        assert_ne!(set.linear[1], 0.0, "the residual case must move the prediction");
        for residual in [false, true] {
            set.residual = residual;
            let k = 160.0;
            let mut g = Model::zero();
            model.backward(&set, 1, k, &mut g);
            assert!(
                g.ft_w.iter().any(|&x| x != 0.0),
                "a gradient reaches the transformer"
            );
            let f1 = set.features(1)[3] as usize;
            let loss_at = |m: &Model| {
                let y = SCALE as f32 * m.forward(&set, 1, &mut [[0.0; HIDDEN]; 2]) + set.base(1);
                let e = sigmoid(y / k) - 0.7;
                (e * e) as f64
            };
            for i in 0..4 {
                let analytic = *weight(&mut g, i, f1);
                let h = 1e-3;
                let (mut plus, mut minus) = (model.clone(), model.clone());
                *weight(&mut plus, i, f1) += h;
                *weight(&mut minus, i, f1) -= h;
                let numeric = ((loss_at(&plus) - loss_at(&minus)) / (2.0 * h as f64)) as f32;
                assert!(
                    (numeric - analytic).abs() <= 1e-3 + 0.05 * analytic.abs(),
                    "residual {residual}, weight {i}: numeric {numeric} analytic {analytic}"
                );
            }
        }
    }
}
