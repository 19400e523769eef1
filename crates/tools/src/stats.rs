//! Match statistics for engine-against-engine testing: Elo from a score with a 95%
//! error bar, pentanomial counts over colour-swapped game pairs, and the pentanomial
//! GSPRT log-likelihood ratio as Fishtest and OpenBench compute it.
//!
//! The one implementation: `sapper referee` calls it directly, and the Python match
//! runners (`scripts/match.py`, `scripts/ladder.py`) through `sapper stats`
//! ([`report_json`]), by way of `scripts/stats.py`.
//!
//! Pure functions only. Conventions:
//!
//! * A *score* is the mean points per game of the engine of interest, in `[0, 1]`
//!   (win 1, draw 1/2, loss 0).
//! * Elo is logistic: `score = 1 / (1 + 10^(-elo / 400))`.
//! * An error bar is the half-width of the 95% interval obtained by mapping the normal
//!   interval `mean +- 1.96 * stderr` of the score through [`elo_from_score`], that is
//!   `(elo(high) - elo(low)) / 2` (as cutechess-cli reports it); it is infinite when
//!   the score interval reaches 0 or 1.
//! * Pentanomial counts are indexed by the points the engine scored in a game pair:
//!   `[0, 1/2, 1, 3/2, 2]`, i.e. `[LL, LD, LW+DD, DW, WW]`.

/// The two-sided 95% standard-normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Normalized Elo per unit of t-value: `800 / ln 10` (Fishtest's `nelo_divided_by_nt`).
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// An Elo difference and the half-width of its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Logistic Elo of the mean score (`+-inf` at 100% / 0%).
    pub elo: f64,
    /// Half-width of the 95% interval (`inf` when it reaches 0% or 100%).
    pub error: f64,
    /// The mean score per game.
    pub score: f64,
}

/// The expected score of a player `elo` points stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The logistic Elo difference of a mean score: `400 * log10(s / (1 - s))`; 0 and 1
/// map to `-inf` and `+inf`.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        400.0 * (score / (1.0 - score)).log10()
    }
}

/// The Elo half-width of the 95% interval of a mean score `mean` whose standard error
/// is `stderr`: `(elo(mean + z*stderr) - elo(mean - z*stderr)) / 2`, infinite when
/// either end leaves the open interval (0, 1).
pub fn elo_error(mean: f64, stderr: f64) -> f64 {
    let delta = Z95 * stderr;
    let (low, high) = (mean - delta, mean + delta);
    if low <= 0.0 || high >= 1.0 {
        return f64::INFINITY;
    }
    (elo_from_score(high) - elo_from_score(low)) / 2.0
}

/// Mean and population variance of outcomes `values` seen `counts` times.
fn mean_and_variance(values: &[f64], counts: &[f64]) -> (f64, f64) {
    let total: f64 = counts.iter().sum();
    let mean = values.iter().zip(counts).map(|(v, c)| v * c).sum::<f64>() / total;
    let variance = values
        .iter()
        .zip(counts)
        .map(|(v, c)| c * (v - mean).powi(2))
        .sum::<f64>()
        / total;
    (mean, variance)
}

/// Elo and error bar from a game-level (trinomial) record: every game is an
/// independent sample worth 1, 1/2 or 0, and the standard error of the mean score is
/// `sqrt(var / games)` with `var` the per-game variance of the observed W/D/L
/// distribution. `None` without games.
pub fn trinomial(wins: u32, draws: u32, losses: u32) -> Option<EloEstimate> {
    let games = wins + draws + losses;
    if games == 0 {
        return None;
    }
    let (mean, variance) = mean_and_variance(&[1.0, 0.5, 0.0], &[wins as f64, draws as f64, losses as f64]);
    Some(EloEstimate {
        elo: elo_from_score(mean),
        error: elo_error(mean, (variance / games as f64).sqrt()),
        score: mean,
    })
}

/// Pentanomial counts: game pairs by the engine's points in the pair, `[LL, LD,
/// LW+DD, DW, WW]`.
pub type Pentanomial = [u32; 5];

/// The pentanomial bucket (0..=4) of a pair in which the engine scored `first` and
/// `second` (each 0, 1/2 or 1).
pub fn pair_bucket(first: f64, second: f64) -> usize {
    ((first + second) * 2.0).round().clamp(0.0, 4.0) as usize
}

/// Counts game pairs by bucket (see [`pair_bucket`]).
pub fn pentanomial_counts(pairs: impl IntoIterator<Item = (f64, f64)>) -> Pentanomial {
    let mut counts = [0; 5];
    for (a, b) in pairs {
        counts[pair_bucket(a, b)] += 1;
    }
    counts
}

const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

fn as_f64(counts: &Pentanomial) -> [f64; 5] {
    counts.map(f64::from)
}

/// Elo and error bar from pentanomial counts. Each pair is one sample (its mean
/// score: 0, 1/4, 1/2, 3/4 or 1), so the correlation between the two games of a pair
/// is accounted for. `None` without pairs.
pub fn pentanomial(counts: &Pentanomial) -> Option<EloEstimate> {
    let pairs: u32 = counts.iter().sum();
    if pairs == 0 {
        return None;
    }
    let (mean, variance) = mean_and_variance(&PAIR_SCORES, &as_f64(counts));
    Some(EloEstimate {
        elo: elo_from_score(mean),
        error: elo_error(mean, (variance / pairs as f64).sqrt()),
        score: mean,
    })
}

/// Normalized Elo of pentanomial counts (the unit of the SPRT bounds):
/// `(mean - 1/2) / sigma_per_game * 800 / ln 10`, with `sigma_per_game =
/// sqrt(2 * var)` and `var` the variance of the pair mean score (Fishtest's
/// `LLR_normalized_alt` estimate). `None` without pairs or without variance.
pub fn normalized_elo(counts: &Pentanomial) -> Option<f64> {
    let pairs: u32 = counts.iter().sum();
    if pairs == 0 {
        return None;
    }
    let (mean, variance) = mean_and_variance(&PAIR_SCORES, &as_f64(counts));
    (variance > 0.0).then(|| (mean - 0.5) / (2.0 * variance).sqrt() * NELO_PER_T)
}

/// The SPRT decision bounds on the LLR for error rates `alpha` (type I) and `beta`
/// (type II): `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`; about
/// `(-2.944, 2.944)` for 0.05 / 0.05.
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// What an SPRT says after the games so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Neither bound reached.
    Continue,
    /// LLR at or below the lower bound: H0 (elo = elo0) accepted.
    AcceptH0,
    /// LLR at or above the upper bound: H1 (elo = elo1) accepted.
    AcceptH1,
}

/// Compares an LLR with its `(lower, upper)` bounds.
pub fn sprt_decision(llr: f64, (lower, upper): (f64, f64)) -> SprtDecision {
    if llr >= upper {
        SprtDecision::AcceptH1
    } else if llr <= lower {
        SprtDecision::AcceptH0
    } else {
        SprtDecision::Continue
    }
}

/// Fishtest's regularisation: empty buckets count 1e-3 so every logarithm exists.
/// Returns the number of pairs (regularised) and the empirical probabilities.
fn regularised_pdf(counts: &Pentanomial) -> (f64, [f64; 5]) {
    let r = counts.map(|c| if c == 0 { 1e-3 } else { f64::from(c) });
    let n: f64 = r.iter().sum();
    (n, r.map(|c| c / n))
}

/// Solves the secular equation `sum_i p_i a_i / (1 + x a_i) = 0` for `x` in
/// `(-1 / max a, -1 / min a)`, where the left side falls strictly from `+inf` to
/// `-inf`. Bisection inside the bracket Fishtest gives Brent's method (shrunk by
/// 1e-9 at both ends). Returns 0 when the `a_i` do not change sign (no solution:
/// the constraint is unreachable, which happens only for absurd hypotheses).
fn secular(a: &[f64; 5], p: &[f64; 5]) -> f64 {
    let (v, w) = a.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
        (lo.min(x), hi.max(x))
    });
    if v * w >= 0.0 {
        return 0.0;
    }
    let f = |x: f64| {
        a.iter()
            .zip(p)
            .map(|(ai, pi)| pi * ai / (1.0 + x * ai))
            .sum::<f64>()
    };
    let (mut lo, mut hi) = (-1.0 / w + 1e-9, -1.0 / v - 1e-9);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The maximum-likelihood distribution on [`PAIR_SCORES`] with expectation `s`,
/// given the empirical distribution `phat` (Fishtest's `MLE_expected`).
fn mle_expected(phat: &[f64; 5], s: f64) -> [f64; 5] {
    let a = PAIR_SCORES.map(|v| v - s);
    let x = secular(&a, phat);
    std::array::from_fn(|i| phat[i] / (1.0 + x * a[i]))
}

/// The maximum-likelihood distribution on [`PAIR_SCORES`] with t-value
/// `(mu - reference) / sigma = t`, given `phat` (Fishtest's `MLE_t_value`: at most
/// ten fixed-point iterations, stopping when no probability moves by 1e-9).
fn mle_t_value(phat: &[f64; 5], reference: f64, t: f64) -> [f64; 5] {
    let mut p = [0.2; 5];
    for _ in 0..10 {
        let previous = p;
        let (mu, var) = mean_and_variance(&PAIR_SCORES, &p);
        let sigma = var.sqrt();
        let a = PAIR_SCORES.map(|v| v - reference - t * sigma * (1.0 + ((mu - v) / sigma).powi(2)) / 2.0);
        let x = secular(&a, phat);
        p = std::array::from_fn(|i| phat[i] / (1.0 + x * a[i]));
        if (0..5).all(|i| (previous[i] - p[i]).abs() < 1e-9) {
            break;
        }
    }
    p
}

/// `N * sum_i phat_i * ln(p1_i / p0_i)`: the generalised log-likelihood ratio.
fn llr_from(n: f64, phat: &[f64; 5], p0: &[f64; 5], p1: &[f64; 5]) -> f64 {
    n * (0..5).map(|i| phat[i] * (p1[i].ln() - p0[i].ln())).sum::<f64>()
}

/// The pentanomial GSPRT log-likelihood ratio of H1 (`nelo1`) against H0 (`nelo0`),
/// both in **normalized** Elo, as Fishtest (`LLRcalc.LLR_normalized`) and OpenBench
/// (`PentanomialSPRT`) compute it: empty buckets are regularised to 1e-3, the t-value
/// of each hypothesis is `nelo / (800 / ln 10) * sqrt(2)` (per pair), and the LLR is
/// the number of pairs times the mean log ratio of the maximum-likelihood
/// distributions with those t-values (around the score 1/2). 0 without pairs.
pub fn llr_normalized(nelo0: f64, nelo1: f64, counts: &Pentanomial) -> f64 {
    if counts.iter().all(|&c| c == 0) {
        return 0.0;
    }
    let (n, phat) = regularised_pdf(counts);
    let (t0, t1) = (
        nelo0 / NELO_PER_T * std::f64::consts::SQRT_2,
        nelo1 / NELO_PER_T * std::f64::consts::SQRT_2,
    );
    llr_from(
        n,
        &phat,
        &mle_t_value(&phat, 0.5, t0),
        &mle_t_value(&phat, 0.5, t1),
    )
}

/// The pentanomial GSPRT log-likelihood ratio with bounds in **logistic** Elo
/// (Fishtest's `LLR_logistic`, the older model): the maximum-likelihood
/// distributions have expected pair score `score_from_elo(elo)`. 0 without pairs.
pub fn llr_logistic(elo0: f64, elo1: f64, counts: &Pentanomial) -> f64 {
    if counts.iter().all(|&c| c == 0) {
        return 0.0;
    }
    let (n, phat) = regularised_pdf(counts);
    llr_from(
        n,
        &phat,
        &mle_expected(&phat, score_from_elo(elo0)),
        &mle_expected(&phat, score_from_elo(elo1)),
    )
}

/// The Elo model of an SPRT's bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EloModel {
    /// Logistic Elo ([`llr_logistic`]; `scripts/match.py`'s bounds).
    Logistic,
    /// Normalized Elo ([`llr_normalized`]; Fishtest's and OpenBench's current
    /// bounds, and `sapper referee`'s).
    Normalized,
}

/// What `sapper stats` is asked: any of a W/D/L record, pentanomial counts, a score
/// to convert, and an SPRT over the pentanomial counts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StatsQuery {
    /// Wins, draws, losses of the engine of interest.
    pub wdl: Option<[u32; 3]>,
    /// Pentanomial counts of complete pairs.
    pub pentanomial: Option<Pentanomial>,
    /// A mean score in `[0, 1]` whose Elo is wanted.
    pub score: Option<f64>,
    /// `(elo0, elo1, model, alpha, beta)` of an SPRT over `pentanomial` (no counts:
    /// no pairs yet, LLR 0).
    pub sprt: Option<(f64, f64, EloModel, f64, f64)>,
}

/// A number for [`report_json`]: finite values as Rust prints them (shortest form
/// that reads back exactly, never an exponent), the others as `Infinity`,
/// `-Infinity` and `NaN`, the tokens Python's `json` module reads.
fn json_number(x: f64) -> String {
    if x.is_nan() {
        "NaN".into()
    } else if x == f64::INFINITY {
        "Infinity".into()
    } else if x == f64::NEG_INFINITY {
        "-Infinity".into()
    } else {
        format!("{x}")
    }
}

/// The answer of `sapper stats`: one JSON object whose keys are those of the parts
/// asked for: `score_elo` (the Elo of `score`); `games`, `score`, `elo`,
/// `elo_error95` (trinomial, from `wdl`); `pairs`, `elo_pentanomial`,
/// `elo_error95_pentanomial`, `normalized_elo` (from `pentanomial`); `sprt_llr`,
/// `sprt_lower`, `sprt_upper`, `sprt_decision` (`"H0"`, `"H1"` or `null`). Undefined
/// values (no games, no variance) are `NaN`, a 0% or 100% score gives infinities.
pub fn report_json(query: &StatsQuery) -> String {
    let mut fields: Vec<(&str, String)> = Vec::new();
    if let Some(score) = query.score {
        fields.push(("score_elo", json_number(elo_from_score(score))));
    }
    if let Some([w, d, l]) = query.wdl {
        let e = trinomial(w, d, l);
        fields.push(("games", (w + d + l).to_string()));
        fields.push(("score", json_number(e.map_or(f64::NAN, |e| e.score))));
        fields.push(("elo", json_number(e.map_or(f64::NAN, |e| e.elo))));
        fields.push(("elo_error95", json_number(e.map_or(f64::NAN, |e| e.error))));
    }
    let counts = query.pentanomial.unwrap_or([0; 5]);
    if query.pentanomial.is_some() {
        let e = pentanomial(&counts);
        fields.push(("pairs", counts.iter().sum::<u32>().to_string()));
        fields.push(("elo_pentanomial", json_number(e.map_or(f64::NAN, |e| e.elo))));
        fields.push((
            "elo_error95_pentanomial",
            json_number(e.map_or(f64::NAN, |e| e.error)),
        ));
        fields.push((
            "normalized_elo",
            json_number(normalized_elo(&counts).unwrap_or(f64::NAN)),
        ));
    }
    if let Some((elo0, elo1, model, alpha, beta)) = query.sprt {
        let llr = match model {
            EloModel::Logistic => llr_logistic(elo0, elo1, &counts),
            EloModel::Normalized => llr_normalized(elo0, elo1, &counts),
        };
        let bounds = sprt_bounds(alpha, beta);
        let decision = match sprt_decision(llr, bounds) {
            SprtDecision::Continue => "null",
            SprtDecision::AcceptH0 => "\"H0\"",
            SprtDecision::AcceptH1 => "\"H1\"",
        };
        fields.push(("sprt_llr", json_number(llr)));
        fields.push(("sprt_lower", json_number(bounds.0)));
        fields.push(("sprt_upper", json_number(bounds.1)));
        fields.push(("sprt_decision", decision.into()));
    }
    let body: Vec<String> = fields.iter().map(|(k, v)| format!("\"{k}\": {v}")).collect();
    format!("{{{}}}", body.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_and_score_are_inverse() {
        assert_eq!(elo_from_score(0.5), 0.0);
        // 0.75 = 3:1 odds: 400 * log10(3) = 190.8485.
        assert!(close(elo_from_score(0.75), 190.848_501_887_865, 1e-9));
        assert!(close(score_from_elo(190.848_501_887_865), 0.75, 1e-12));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn trinomial_error_by_hand() {
        // 60 W, 30 D, 10 L: score 0.75, Elo 400 log10 3 = 190.85.
        // var = (60 * 0.25^2 + 30 * 0.25^2 + 10 * 0.75^2) / 100 = 0.1125,
        // stderr = sqrt(0.1125 / 100) = 0.033541, 1.96 * stderr = 0.065739,
        // interval [0.684261, 0.815739] -> Elo [134.357, 258.447], half-width 62.045.
        let e = trinomial(60, 30, 10).unwrap();
        assert!(close(e.score, 0.75, 1e-12));
        assert!(close(e.elo, 190.8485, 1e-3));
        assert!(close(e.error, 62.0450, 1e-3), "{e:?}");
        // 30-40-30: score 1/2, var 0.15, stderr 0.03873, interval [0.42409, 0.57591]
        // -> +-53.158.
        let e = trinomial(30, 40, 30).unwrap();
        assert_eq!(e.elo, 0.0);
        assert!(close(e.error, 53.1580, 1e-3), "{e:?}");
        assert!(trinomial(0, 0, 0).is_none());
        // All wins: infinite Elo, infinite error.
        let e = trinomial(4, 0, 0).unwrap();
        assert_eq!(e.elo, f64::INFINITY);
        assert_eq!(e.error, f64::INFINITY);
    }

    #[test]
    fn pentanomial_counts_and_error_by_hand() {
        let counts = pentanomial_counts([(1.0, 0.0), (0.5, 0.5), (1.0, 1.0), (0.0, 0.5), (0.5, 1.0)]);
        assert_eq!(counts, [0, 1, 2, 1, 1]);
        // [1, 2, 3, 2, 2]: mean (0.5 + 1.5 + 1.5 + 2) / 10 = 0.55 -> Elo 34.86;
        // var = (0.3025 + 2 * 0.09 + 3 * 0.0025 + 2 * 0.04 + 2 * 0.2025) / 10 = 0.0975,
        // stderr = sqrt(0.0975 / 10) = 0.098742, interval [0.356469, 0.743531],
        // Elo [-102.619, 184.906], half-width 143.762; nElo = 0.05 / sqrt(0.195) * 347.4356 = 39.339.
        let c = [1, 2, 3, 2, 2];
        let e = pentanomial(&c).unwrap();
        assert!(close(e.score, 0.55, 1e-12));
        assert!(close(e.elo, 34.8601, 1e-3));
        assert!(close(e.error, 143.7623, 1e-3), "{e:?}");
        assert!(close(normalized_elo(&c).unwrap(), 39.3393, 1e-3));
        // Every pair 1-1: no variance, so no error at all.
        let e = pentanomial(&[0, 0, 10, 0, 0]).unwrap();
        assert_eq!((e.elo, e.error), (0.0, 0.0));
        assert!(pentanomial(&[0; 5]).is_none());
    }

    #[test]
    fn sprt_bounds_for_five_percent() {
        let (lo, hi) = sprt_bounds(0.05, 0.05);
        // ln(0.05 / 0.95) = -ln 19 = -2.944439.
        assert!(close(lo, -2.944_438_979, 1e-8));
        assert!(close(hi, 2.944_438_979, 1e-8));
        assert_eq!(sprt_decision(3.0, (lo, hi)), SprtDecision::AcceptH1);
        assert_eq!(sprt_decision(-3.0, (lo, hi)), SprtDecision::AcceptH0);
        assert_eq!(sprt_decision(0.1, (lo, hi)), SprtDecision::Continue);
    }

    #[test]
    fn secular_equation_by_hand() {
        // a = (-1, 1) with p = (1/2, 1/2) balances at x = 0; with p = (1/4, 3/4),
        // -1/4 / (1 - x) + 3/4 / (1 + x) = 0 gives x = 1/2.
        let a = [-1.0, 1.0, 1.0, 1.0, 1.0];
        assert!(close(secular(&a, &[0.5, 0.5, 0.0, 0.0, 0.0]), 0.0, 1e-9));
        assert!(close(secular(&a, &[0.25, 0.75, 0.0, 0.0, 0.0]), 0.5, 1e-9));
    }

    #[test]
    fn llr_matches_fastchess_and_fishtest() {
        // fastchess's SPRT tests (Stats(ll, ld, wl, dd, wd, ww), so the middle bucket
        // is wl + dd), which check two decimals; the precise values come from a
        // transcription of Fishtest's LLRcalc.py.
        let llr = llr_normalized(0.0, 2.0, &[365, 16618, 36029 + 200, 16974, 390]);
        assert!(close(llr, 2.250_368, 1e-5), "{llr}");
        let llr = llr_normalized(-1.75, 0.25, &[127, 4883, 10311 + 401, 5150, 104]);
        assert!(close(llr, 3.010_154, 1e-5), "{llr}");
        // All wins, regularised empty buckets (fastchess: 111.82 +- 1%).
        let llr = llr_normalized(0.0, 5.0, &[0, 0, 0, 0, 5550]);
        assert!(close(llr, 111.797_555, 1e-4), "{llr}");
        let llr = llr_logistic(0.5, 2.5, &[223, 9863, 20279 + 1000, 10037, 246]);
        assert!(close(llr, -3.074_126, 1e-5), "{llr}");
        let llr = llr_logistic(0.0, 2.0, &[871, 26175, 55003 + 980, 26678, 821]);
        assert!(close(llr, -4.978_673, 1e-5), "{llr}");
        // OpenBench's own example in stats.py.
        let llr = llr_normalized(0.5, 2.5, &[39, 8843, 26675, 9240, 44]);
        assert!(close(llr, 2.941_675, 1e-5), "{llr}");
    }

    #[test]
    fn llr_signs_and_symmetry() {
        assert_eq!(llr_normalized(0.0, 5.0, &[0; 5]), 0.0);
        // A symmetric record sits between [-1.75, 0.25]: LLR close to 0.
        assert!(llr_normalized(-1.75, 0.25, &[10, 5, 2, 5, 10]).abs() < 0.01);
        assert!(llr_normalized(0.0, 10.0, &[1, 2, 3, 4, 5]) > 0.0);
        assert!(llr_normalized(0.0, 10.0, &[5, 4, 3, 2, 1]) < 0.0);
        assert_eq!(llr_normalized(3.0, 3.0, &[5, 4, 3, 2, 1]), 0.0);
    }

    // The tests below came with the statistics from `scripts/stats.py` when the
    // Python runners moved onto this implementation (their values were derived by
    // hand or with fishtest's own code, independently of either implementation).

    #[test]
    fn trinomial_records_from_the_python_suite() {
        // 10-20-10: mean 0.5, per-game variance 0.125, stderr sqrt(0.125 / 40) =
        // 0.0559017, score interval 0.5 +- 0.1095644 -> +-77.389.
        assert!(close(trinomial(10, 20, 10).unwrap().error, 77.3887, 1e-3));
        // 30-10-10: mean 0.7, variance 0.16, stderr 0.0565685, interval
        // [0.589129, 0.810871] -> Elo [62.59, 252.89].
        let e = trinomial(30, 10, 10).unwrap();
        assert!(close(e.elo, 147.1907, 1e-3), "{e:?}");
        assert!(close(e.error, 95.1390, 1e-3), "{e:?}");
        // No variance, no error; a clean sweep, no finite bar.
        assert_eq!(trinomial(0, 10, 0).unwrap().error, 0.0);
        assert_eq!(trinomial(5, 0, 0).unwrap().error, f64::INFINITY);
        assert!(close(elo_from_score(10.0 / 11.0), 400.0, 1e-9));
        assert!(close(elo_from_score(0.25), -190.848_501, 1e-5));
        for elo in [-500.0, -35.5, 0.0, 12.0, 190.0, 800.0] {
            assert!(close(elo_from_score(score_from_elo(elo)), elo, 1e-9));
        }
    }

    #[test]
    fn pentanomial_records_from_the_python_suite() {
        // 1,2,3,2,1: mean 0.5, variance 1/12, stderr 0.096225, interval 0.5 +- 0.188597.
        let e = pentanomial(&[1, 2, 3, 2, 1]).unwrap();
        assert_eq!(e.elo, 0.0);
        assert!(close(e.error, 137.8574, 1e-3), "{e:?}");
        // 0,2,6,8,4: mean 0.675, variance 0.050625, stderr 0.0503115, interval
        // [0.576391, 0.773609].
        let e = pentanomial(&[0, 2, 6, 8, 4]).unwrap();
        assert!(close(e.elo, 126.9682, 1e-3), "{e:?}");
        assert!(close(e.error, 79.9819, 1e-3), "{e:?}");
        // Perfectly correlated pairs carry no information; the same games seen as
        // independent have the largest per-game variance.
        assert_eq!(pentanomial(&[0, 0, 10, 0, 0]).unwrap().error, 0.0);
        assert!(trinomial(10, 0, 10).unwrap().error > 100.0);
        let pairs = [
            (1.0, 0.0),
            (0.5, 0.5),
            (1.0, 1.0),
            (0.0, 0.5),
            (0.0, 0.0),
            (1.0, 0.5),
        ];
        assert_eq!(pentanomial_counts(pairs), [1, 1, 2, 1, 1]);
    }

    const SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

    /// `max sum_i p_i ln q_i` over distributions `q` with mean `score`, through the
    /// concave dual `sum p ln p - max_x sum p ln(1 + x (a - score))`, maximised by
    /// golden-section search: a derivation independent of the secular equation.
    fn max_log_likelihood(p: &[f64; 5], score: f64) -> f64 {
        let a = SCORES.map(|v| v - score);
        let max_a = a.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let min_a = a.iter().copied().fold(f64::INFINITY, f64::min);
        let (mut lo, mut hi) = (-1.0 / max_a + 1e-12, -1.0 / min_a - 1e-12);
        let g = |x: f64| (0..5).map(|i| p[i] * (1.0 + x * a[i]).ln()).sum::<f64>();
        let ratio = (5f64.sqrt() - 1.0) / 2.0;
        for _ in 0..300 {
            let (left, right) = (hi - ratio * (hi - lo), lo + ratio * (hi - lo));
            if g(left) < g(right) {
                lo = left;
            } else {
                hi = right;
            }
        }
        p.iter().map(|q| q * q.ln()).sum::<f64>() - g((lo + hi) / 2.0)
    }

    fn reference_llr(counts: &Pentanomial, elo0: f64, elo1: f64) -> f64 {
        let (n, p) = regularised_pdf(counts);
        n * (max_log_likelihood(&p, score_from_elo(elo1)) - max_log_likelihood(&p, score_from_elo(elo0)))
    }

    #[test]
    fn logistic_llr_matches_an_independent_derivation() {
        let cases: [(Pentanomial, f64, f64); 6] = [
            ([1, 2, 3, 2, 1], 0.0, 5.0),
            ([0, 2, 6, 8, 4], 0.0, 5.0),
            ([3, 40, 120, 60, 9], 0.0, 10.0),
            ([5, 30, 100, 25, 4], -3.0, 1.0),
            ([0, 0, 100, 0, 0], 0.0, 10.0),
            ([12, 0, 0, 0, 1], -5.0, 5.0),
        ];
        for (counts, elo0, elo1) in cases {
            let (ours, reference) = (
                llr_logistic(elo0, elo1, &counts),
                reference_llr(&counts, elo0, elo1),
            );
            assert!(close(ours, reference, 1e-7), "{counts:?}: {ours} vs {reference}");
        }
        // fishtest's stat_util self-test sample: LLRcalc.LLR_logistic(-3, 1, counts)
        // = 2.1310678117940807 (scipy's brentq).
        let llr = llr_logistic(-3.0, 1.0, &[10789, 19328, 33806, 19402, 10543]);
        assert!(close(llr, 2.131_067_811_794_080_7, 1e-9), "{llr}");
    }

    #[test]
    fn the_maximum_likelihood_distribution_has_the_mean_and_is_optimal() {
        let (_, p) = regularised_pdf(&[3, 40, 120, 60, 9]);
        let score = score_from_elo(10.0);
        let mle = mle_expected(&p, score);
        assert!(close(mle.iter().sum(), 1.0, 1e-12));
        assert!(close((0..5).map(|i| SCORES[i] * mle[i]).sum(), score, 1e-12));
        let log_likelihood = |q: &[f64; 5]| (0..5).map(|i| p[i] * q[i].ln()).sum::<f64>();
        // Directions that keep the total and the mean must not raise the likelihood.
        for d in [
            [1.0, -2.0, 1.0, 0.0, 0.0],
            [0.0, 1.0, -2.0, 1.0, 0.0],
            [0.0, 0.0, 1.0, -2.0, 1.0],
            [1.0, -1.0, -1.0, 1.0, 0.0],
        ] {
            assert_eq!(d.iter().sum::<f64>(), 0.0);
            assert_eq!((0..5).map(|i| SCORES[i] * d[i]).sum::<f64>(), 0.0);
            for step in [1e-4, -1e-4] {
                let moved: [f64; 5] = std::array::from_fn(|i| mle[i] + step * d[i]);
                assert!(log_likelihood(&moved) <= log_likelihood(&mle));
            }
        }
    }

    #[test]
    fn logistic_llr_signs_and_decisions() {
        let (lower, upper) = sprt_bounds(0.05, 0.05);
        let strong = [2, 20, 60, 60, 30]; // mean 0.6125, about +79 Elo
        assert!(llr_logistic(0.0, 10.0, &strong) > upper);
        let weak = [30, 60, 60, 20, 2];
        assert!(llr_logistic(0.0, 10.0, &weak) < lower);
        // Identical self-play (every pair 1-1) slowly accepts H0.
        let llr = llr_logistic(0.0, 10.0, &[0, 0, 10, 0, 0]);
        assert!(lower < llr && llr < 0.0, "{llr}");
        assert!(llr_logistic(0.0, 10.0, &[0, 0, 110, 0, 0]) < lower);
        assert_eq!(llr_logistic(0.0, 10.0, &[0; 5]), 0.0);
        // A sample whose mean is exactly elo0 fits H0 better.
        for counts in [[1, 2, 3, 2, 1], [10, 40, 100, 40, 10], [0, 5, 20, 5, 0]] {
            assert!(llr_logistic(0.0, 5.0, &counts) < 0.0, "{counts:?}");
        }
        let (lo, hi) = sprt_bounds(0.1, 0.05);
        assert!(close(lo, (0.05f64 / 0.9).ln(), 1e-12) && close(hi, (0.95f64 / 0.1).ln(), 1e-12));
    }

    #[test]
    fn the_report_holds_what_was_asked() {
        let text = report_json(&StatsQuery {
            wdl: Some([30, 10, 10]),
            pentanomial: Some([0, 2, 6, 8, 4]),
            score: Some(1.0),
            sprt: Some((0.0, 10.0, EloModel::Logistic, 0.05, 0.05)),
        });
        let field = |key: &str| -> String {
            let start = text
                .find(&format!("\"{key}\": "))
                .unwrap_or_else(|| panic!("{key} in {text}"))
                + key.len()
                + 4;
            text[start..].split([',', '}']).next().unwrap().to_string()
        };
        assert_eq!(field("score_elo"), "Infinity");
        assert_eq!(field("games"), "50");
        assert!(close(
            field("elo").parse().unwrap(),
            trinomial(30, 10, 10).unwrap().elo,
            1e-12
        ));
        assert_eq!(field("pairs"), "20");
        let llr: f64 = field("sprt_llr").parse().unwrap();
        assert!(close(llr, llr_logistic(0.0, 10.0, &[0, 2, 6, 8, 4]), 1e-12));
        assert_eq!(
            field("sprt_decision"),
            if llr >= 2.944 { "\"H1\"" } else { "null" }
        );
        // Nothing asked, nothing answered; no games: undefined, not zero.
        assert_eq!(report_json(&StatsQuery::default()), "{}");
        let empty = report_json(&StatsQuery {
            wdl: Some([0, 0, 0]),
            ..StatsQuery::default()
        });
        assert!(empty.contains("\"elo\": NaN"), "{empty}");
    }
}
