//! lichess's judgement of a move from the evaluations before and after it: winning
//! chances, the class (inaccuracy, mistake, blunder), the move's accuracy and a
//! side's accuracy over a game. The formulas and constants are lichess's, from
//! lichess-org/lila `modules/analyse/src/main/`:
//!
//! * `WinPercent.scala`: winning chances `2 / (1 + exp(-0.00368208 * cp)) - 1` in
//!   [-1, 1] (cp clamped to +-1000, a mate counting as +-1000 with its sign), and
//!   win percent `50 + 50 * winning chances` in [0, 100];
//! * `Advice.scala`: a move is an inaccuracy, a mistake or a blunder when it lowers
//!   the mover's winning chances by at least 0.1, 0.2 or 0.3 (both evaluations in
//!   centipawns), or by its mate rules when a mate appears or vanishes;
//! * `AccuracyPercent.scala`: a move's accuracy
//!   `103.1668 * exp(-0.04354 * (win% before - win% after)) - 3.1669`, plus lila's
//!   "uncertainty bonus" of 1, within [0, 100] (100 when the win percent did not
//!   drop), and a side's game accuracy: the mean of the volatility-weighted mean and
//!   the harmonic mean of its moves' accuracies (with `modules/common/src/main/Maths.scala`'s
//!   means: population standard deviation, harmonic mean over `max(1, x)`).
//!
//! Every score here is a search score ([`crate::search::score`]: centipawns, or
//! `MATE - plies` for a mate) from the point of view named by each function.

use sapper_rules::types::Color;

/// The largest centipawn magnitude counted (lila's `Eval.Cp.CEILING`); a mate counts
/// as this with its sign.
pub const CP_CEILING: i32 = 1000;

/// The slope of lichess's winning-chances curve, per centipawn (lila pull request
/// 11148, fitted to lichess games).
pub const WINNING_CHANCES_SLOPE: f64 = 0.00368208;

/// The drops in the mover's winning chances (on the [-1, 1] scale) from which a move
/// is an inaccuracy, a mistake and a blunder (`Advice.scala`'s
/// `winningChanceJudgements`).
pub const THRESHOLDS: [(f64, Judgement); 3] = [
    (0.3, Judgement::Blunder),
    (0.2, Judgement::Mistake),
    (0.1, Judgement::Inaccuracy),
];

/// A score as lichess counts it: centipawns clamped to +-[`CP_CEILING`], so that a
/// mate (whose search score is near +-31000) counts as +-1000 with its sign.
pub fn ceiled_cp(score: i32) -> i32 {
    score.clamp(-CP_CEILING, CP_CEILING)
}

/// Winning chances in [-1, 1] of the side whose view `score` is:
/// `2 / (1 + exp(-0.00368208 * cp)) - 1` with cp from [`ceiled_cp`].
pub fn winning_chances(score: i32) -> f64 {
    let cp = f64::from(ceiled_cp(score));
    (2.0 / (1.0 + (-WINNING_CHANCES_SLOPE * cp).exp()) - 1.0).clamp(-1.0, 1.0)
}

/// Win percent in [0, 100]: `50 + 50 * winning_chances(score)`.
pub fn win_percent(score: i32) -> f64 {
    50.0 + 50.0 * winning_chances(score)
}

/// A move's accuracy in percent, [0, 100], from the mover's win percents before and
/// after it (`AccuracyPercent.fromWinPercents`): 100 if it did not drop, else
/// `103.1668100711649 * exp(-0.04354415386753951 * drop) - 3.166924740191411 + 1`
/// (the `+ 1` is lila's "uncertainty bonus (due to imperfect analysis)").
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let raw =
        103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * (before - after)).exp() - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// The class of a marked move, worst last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    /// A drop of at least 0.1 in winning chances (PGN `?!`).
    Inaccuracy,
    /// At least 0.2 (PGN `?`).
    Mistake,
    /// At least 0.3 (PGN `??`).
    Blunder,
}

impl Judgement {
    /// The lower-case name: `inaccuracy`, `mistake`, `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }

    /// The PGN numeric annotation glyph: `$6` (?!), `$2` (?), `$4` (??).
    pub fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    /// The glyph a person writes after the move: `?!`, `?`, `??`.
    pub fn glyph(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }
}

/// Why a move was marked (`Advice.scala`'s `CpAdvice` and `MateAdvice`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Both evaluations in centipawns: the drop in winning chances.
    WinningChances,
    /// The mover is now mated by force and was not before (`MateCreated`).
    MateCreated,
    /// The mover had a forced mate and has none now (`MateLost`).
    MateLost,
}

/// A marked move: its class and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Advice {
    /// The class.
    pub judgement: Judgement,
    /// Why.
    pub reason: Reason,
}

impl Advice {
    /// lichess's sentence: `Inaccuracy`, `Mistake`, `Blunder`, `Checkmate is now
    /// unavoidable`, `Lost forced checkmate sequence`.
    pub fn text(self) -> &'static str {
        match (self.reason, self.judgement) {
            (Reason::MateCreated, _) => "Checkmate is now unavoidable",
            (Reason::MateLost, _) => "Lost forced checkmate sequence",
            (Reason::WinningChances, Judgement::Inaccuracy) => "Inaccuracy",
            (Reason::WinningChances, Judgement::Mistake) => "Mistake",
            (Reason::WinningChances, Judgement::Blunder) => "Blunder",
        }
    }
}

/// The drop in the mover's winning chances: `winning_chances(before) -
/// winning_chances(after)`, both scores from the mover's point of view (negative
/// when the move gained).
pub fn chances_drop(before: i32, after: i32) -> f64 {
    winning_chances(before) - winning_chances(after)
}

/// Judges a move from the mover's scores before and after it, as `Advice.scala`
/// does: with two centipawn scores by [`THRESHOLDS`] on [`chances_drop`]; when a
/// mate is involved by the mate rules (a mate against the mover appears: a blunder,
/// a mistake if the mover already stood at -700 cp or worse, an inaccuracy at -1000
/// or worse; the mover's mate vanishes: a blunder, a mistake if it still stands
/// above 700 cp, an inaccuracy above 999). A longer mate, or a mate against the
/// mover that persists, is no mark.
pub fn judge(before: i32, after: i32) -> Option<Advice> {
    use crate::search::score::is_mate;
    let advice = |judgement, reason| Some(Advice { judgement, reason });
    match (is_mate(before), is_mate(after)) {
        (false, false) => {
            let drop = chances_drop(before, after);
            THRESHOLDS
                .iter()
                .find(|(threshold, _)| drop >= *threshold)
                .and_then(|&(_, j)| advice(j, Reason::WinningChances))
        }
        // MateCreated: no mate before, the mover is mated now.
        (false, true) if after < 0 => {
            let j = if before < -999 {
                Judgement::Inaccuracy
            } else if before < -700 {
                Judgement::Mistake
            } else {
                Judgement::Blunder
            };
            advice(j, Reason::MateCreated)
        }
        // MateLost: the mover had a mate and now has none (lila counts a mate
        // against the mover as 0 cp here).
        (true, after_mate) if before > 0 && (!after_mate || after < 0) => {
            let cp = if after_mate { 0 } else { after };
            let j = if cp > 999 {
                Judgement::Inaccuracy
            } else if cp > 700 {
                Judgement::Mistake
            } else {
                Judgement::Blunder
            };
            advice(j, Reason::MateLost)
        }
        _ => None,
    }
}

/// Each side's accuracy over a game, in percent (`AccuracyPercent.gameAccuracy`):
/// `white_scores` are White's scores of the start position and of the position after
/// each move, in order (so one more than the moves), and `first` is the side that
/// made the first move. Each move's accuracy ([`move_accuracy`] on the mover's win
/// percents) is weighted by the volatility around it: the standard deviation of the
/// win percents in a window of `moves / 10` positions (2 to 8), within [0.5, 12]; a
/// side's accuracy is the mean of the weighted mean and the harmonic mean of its
/// moves' accuracies. lila starts from a fixed 15 cp instead of the searched start
/// position. Indexed by [`Color::index`]; `None` for a side without a move.
pub fn game_accuracy(first: Color, white_scores: &[i32]) -> [Option<f64>; 2] {
    let wins: Vec<f64> = white_scores.iter().map(|&s| win_percent(s)).collect();
    let moves = wins.len().saturating_sub(1);
    if moves == 0 {
        return [None, None];
    }
    let window = (moves / 10).clamp(2, 8);
    // The first windows repeat the opening ones, so every move has a weight.
    let mut windows: Vec<&[f64]> = vec![&wins[..window.min(wins.len())]; window.min(wins.len()) - 2];
    if wins.len() <= window {
        windows.push(&wins);
    } else {
        windows.extend(wins.windows(window));
    }
    let mut per_side: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for (i, (pair, weights)) in wins.windows(2).zip(&windows).enumerate() {
        let mover = if i % 2 == 0 { first } else { !first };
        let (before, after) = match mover {
            Color::White => (pair[0], pair[1]),
            Color::Black => (100.0 - pair[0], 100.0 - pair[1]),
        };
        let weight = standard_deviation(weights).clamp(0.5, 12.0);
        per_side[mover.index()].push((move_accuracy(before, after), weight));
    }
    per_side.map(|moves| {
        let weighted = weighted_mean(&moves)?;
        let harmonic = harmonic_mean(moves.iter().map(|&(a, _)| a))?;
        Some((weighted + harmonic) / 2.0)
    })
}

/// The population standard deviation (lila's `Maths.standardDeviation`).
fn standard_deviation(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt()
}

/// `sum(value * weight) / sum(weight)`; `None` without weight.
fn weighted_mean(xs: &[(f64, f64)]) -> Option<f64> {
    let (sum, weights) = xs
        .iter()
        .fold((0.0, 0.0), |(s, w), &(x, weight)| (s + x * weight, w + weight));
    (weights != 0.0).then(|| sum / weights)
}

/// `n / sum(1 / max(1, x))`, lila's guard against a zero; `None` when empty.
fn harmonic_mean(xs: impl Iterator<Item = f64>) -> Option<f64> {
    let (n, sum) = xs.fold((0usize, 0.0), |(n, s), x| (n + 1, s + 1.0 / x.max(1.0)));
    (n > 0).then(|| n as f64 / sum)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{mate_in, mated_in};

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn winning_chances_follow_lichess_curve() {
        // By hand: exp(-0.368208) = 0.6919732; 2 / 1.6919732 - 1 = 0.1820518.
        assert!(close(winning_chances(100), 0.182_051_794_383_225_6));
        assert!(close(winning_chances(-100), -0.182_051_794_383_225_6));
        assert_eq!(winning_chances(0), 0.0);
        // exp(-1.10462) = 0.3313...; 2 / 1.3313 - 1 = 0.50225.
        assert!(close(winning_chances(300), 0.502_251_001_876_696_8));
        // Clamped at 1000 cp: exp(-3.68208) = 0.025170; 2 / 1.025170 - 1 = 0.950895.
        assert!(close(winning_chances(1000), 0.950_894_872_682_864_5));
        assert!(close(winning_chances(5000), winning_chances(1000)));
        // A mate counts as 1000 cp with its sign.
        assert!(close(winning_chances(mate_in(3)), winning_chances(1000)));
        assert!(close(winning_chances(mated_in(0)), winning_chances(-1000)));
        assert!(close(win_percent(100), 59.102_589_719_161_28));
        assert!(close(win_percent(0), 50.0));
    }

    #[test]
    fn move_accuracy_follows_lichess_formula() {
        // No drop: 100.
        assert_eq!(move_accuracy(40.0, 60.0), 100.0);
        assert_eq!(move_accuracy(50.0, 50.0), 100.0);
        // +1.00 to -1.00: win% 59.1026 to 40.8974, drop 18.2052;
        // 103.16681 * exp(-0.0435442 * 18.2052) - 3.16692 + 1 = 44.5272.
        let a = move_accuracy(win_percent(100), win_percent(-100));
        assert!((a - 44.527_186_488).abs() < 1e-6, "{a}");
        // 0 to -1000: drop 47.5447; 103.16681 * 0.126237 - 2.16692 = 10.8474.
        let a = move_accuracy(win_percent(0), win_percent(-1000));
        assert!((a - 10.847_411_806).abs() < 1e-6, "{a}");
        // A tiny drop is capped at 100 by the bonus; a huge one at 0.
        assert_eq!(move_accuracy(50.0, 49.99), 100.0);
        assert_eq!(move_accuracy(100.0, 0.0), 0.0);
    }

    #[test]
    fn thresholds_on_the_drop_in_winning_chances() {
        let j = |b, a| judge(b, a).map(|adv| adv.judgement);
        // 0 -> -50: wc drops 0.0918 (no mark); 0 -> -60: 0.1100 (inaccuracy).
        assert_eq!(j(0, -50), None);
        assert_eq!(j(0, -60), Some(Judgement::Inaccuracy));
        // 0 -> -110: 0.1998 (still an inaccuracy); 0 -> -120: 0.2174 (mistake);
        // 0 -> -160: 0.2863; 0 -> -170: 0.3031 (blunder).
        assert_eq!(j(0, -110), Some(Judgement::Inaccuracy));
        assert_eq!(j(0, -120), Some(Judgement::Mistake));
        assert_eq!(j(0, -160), Some(Judgement::Mistake));
        assert_eq!(j(0, -170), Some(Judgement::Blunder));
        // Far ahead, a pawn is little: 900 -> 800 drops 0.0297.
        assert_eq!(j(900, 800), None);
        // A gain is never marked.
        assert_eq!(j(-300, 200), None);
        assert!(close(chances_drop(100, -100), 2.0 * 0.182_051_794_383_225_6));
    }

    #[test]
    fn mates_follow_lichess_mate_rules() {
        let advice = |b, a| judge(b, a).unwrap();
        // A mate against the mover appears: a blunder from an even position, a
        // mistake from -800, an inaccuracy from -1000 or worse.
        assert_eq!(advice(0, mated_in(2)).judgement, Judgement::Blunder);
        assert_eq!(advice(0, mated_in(2)).reason, Reason::MateCreated);
        assert_eq!(advice(-800, mated_in(2)).judgement, Judgement::Mistake);
        assert_eq!(advice(-1500, mated_in(2)).judgement, Judgement::Inaccuracy);
        // The mover's mate vanishes.
        assert_eq!(advice(mate_in(3), 200).judgement, Judgement::Blunder);
        assert_eq!(advice(mate_in(3), 800).judgement, Judgement::Mistake);
        assert_eq!(advice(mate_in(3), 1200).judgement, Judgement::Inaccuracy);
        assert_eq!(advice(mate_in(3), mated_in(4)).reason, Reason::MateLost);
        assert_eq!(advice(mate_in(3), mated_in(4)).judgement, Judgement::Blunder);
        // A slower mate, or a mate against the mover that stays, is no mark.
        assert_eq!(judge(mate_in(1), mate_in(5)), None);
        assert_eq!(judge(mated_in(4), mated_in(2)), None);
        assert_eq!(judge(mated_in(4), -300), None);
    }

    #[test]
    fn game_accuracy_is_lichess_mean_of_weighted_and_harmonic_means() {
        // Two moves: 0 -> (White) 0 -> (Black) 0. Every move is perfect.
        let acc = game_accuracy(Color::White, &[0, 0, 0]);
        assert_eq!(acc, [Some(100.0), Some(100.0)]);
        // White blunders +1.00 -> -1.00 (accuracy 44.5272), Black keeps it.
        // One move per side, so each side's means are that move's accuracy whatever
        // its weight (window 2: White's is std(59.10, 40.90) = 9.1026).
        let acc = game_accuracy(Color::White, &[100, -100, -100]);
        assert!((acc[0].unwrap() - 44.527_186_488).abs() < 1e-6);
        assert_eq!(acc[1], Some(100.0));
        // Black to move first: the first move is Black's.
        let acc = game_accuracy(Color::Black, &[-100, 100]);
        assert!((acc[1].unwrap() - 44.527_186_488).abs() < 1e-6);
        assert_eq!(acc[0], None);
        assert_eq!(game_accuracy(Color::White, &[30]), [None, None]);
    }

    #[test]
    fn game_accuracy_weighs_and_takes_the_harmonic_mean() {
        // White: 0 -> 0 (100), then 0 -> -100 (drop 9.1026: accuracy
        // 103.16681 * exp(-0.0435442 * 9.1026) - 2.16692 = 67.2397); Black perfect.
        // Weights (window 2): std(50, 50) = 0 -> 0.5; std(50, 50) -> 0.5;
        // std(50, 40.897) = 4.5513. White's moves are the 1st and 3rd:
        // weighted (100 * 0.5 + 67.2397 * 4.5513) / 5.0513 = 70.4825,
        // harmonic 2 / (1/100 + 1/67.2397) = 80.4112, accuracy 75.4468.
        let acc = game_accuracy(Color::White, &[0, 0, 0, -100]);
        let third = move_accuracy(50.0, win_percent(-100));
        let weights = [0.5, standard_deviation(&[50.0, win_percent(-100)])];
        let weighted = (100.0 * weights[0] + third * weights[1]) / (weights[0] + weights[1]);
        let harmonic = 2.0 / (1.0 / 100.0 + 1.0 / third);
        assert!((third - 67.239_7).abs() < 1e-3, "{third}");
        assert!(close(acc[0].unwrap(), (weighted + harmonic) / 2.0));
        assert!((acc[0].unwrap() - 75.446_8).abs() < 1e-3, "{acc:?}");
        assert_eq!(acc[1], Some(100.0));
    }
}
