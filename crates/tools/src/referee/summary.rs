//! The match's summary: the lines printed to stdout at the end (cutechess-cli's
//! `Score of ...` and `Elo difference` first, so tools that read those find them)
//! and the `--json` object, both made from one [`Summary`].

use super::arguments::MatchConfig;
use super::record::Termination;
use super::tally::Tally;
use crate::stats::{self, Pentanomial, SprtDecision};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The SPRT's state, for output.
#[derive(Clone, Copy, Debug, Serialize)]
pub(super) struct SprtState {
    /// H0's Elo (normalized).
    pub(super) elo0: f64,
    /// H1's Elo (normalized).
    pub(super) elo1: f64,
    /// The log-likelihood ratio of the pentanomial counts so far.
    pub(super) llr: f64,
    /// The LLR at which H0 is accepted.
    pub(super) lower: f64,
    /// The LLR at which H1 is accepted.
    pub(super) upper: f64,
    /// `continue`, `H0 accepted` or `H1 accepted`.
    pub(super) decision: &'static str,
}

/// The GSPRT (alpha = beta = 0.05) between `elo0` and `elo1` over `penta`.
pub(super) fn sprt_state((elo0, elo1): (f64, f64), penta: &Pentanomial) -> SprtState {
    let (lower, upper) = stats::sprt_bounds(0.05, 0.05);
    let llr = stats::llr_normalized(elo0, elo1, penta);
    SprtState {
        elo0,
        elo1,
        llr,
        lower,
        upper,
        decision: match stats::sprt_decision(llr, (lower, upper)) {
            SprtDecision::Continue => "continue",
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
        },
    }
}

/// The `--json` summary (non-finite numbers are `null`).
#[derive(Serialize)]
pub(super) struct Summary {
    engine1: String,
    engine2: String,
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    score: Option<f64>,
    elo: Option<f64>,
    elo_error95: Option<f64>,
    pairs: u32,
    pentanomial: Pentanomial,
    elo_pentanomial: Option<f64>,
    elo_error95_pentanomial: Option<f64>,
    nelo_pentanomial: Option<f64>,
    illegal: u32,
    crashes: u32,
    no_move: u32,
    time_losses: u32,
    forfeits: BTreeMap<String, BTreeMap<String, u32>>,
    terminations: BTreeMap<String, u32>,
    /// Per engine name: pieces destroyed by mines.
    mine_losses: BTreeMap<String, u32>,
    /// Per engine name: games in which it lost a piece to a mine.
    mine_loss_games: BTreeMap<String, u32>,
    /// Per engine name: pieces destroyed on a mine discovered before the move (in
    /// plain sight), among `mine_losses`.
    mine_losses_in_sight: BTreeMap<String, u32>,
    sprt: Option<SprtState>,
    aborted: Option<String>,
}

/// `x` if finite: JSON has no infinities or NaN.
fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// `x` with its sign and one decimal, for printing (`+inf` for a perfect score).
fn signed(x: f64) -> String {
    if x.is_nan() {
        "n/a".into()
    } else if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.into()
    } else {
        format!("{x:+.1}")
    }
}

/// `x` with one decimal, for printing (an error bar may be infinite).
fn plain(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.1}")
    } else {
        "inf".into()
    }
}

/// The summary of the games `t` counted; `sprt` is the GSPRT's last state and
/// `aborted` why the match stopped early, if it did.
pub(super) fn summarize(
    cfg: &MatchConfig,
    t: &Tally,
    sprt: Option<SprtState>,
    aborted: Option<String>,
) -> Summary {
    let tri = stats::trinomial(t.wins, t.draws, t.losses);
    let penta = stats::pentanomial(&t.penta);
    let names = |m: &BTreeMap<Termination, u32>| -> BTreeMap<String, u32> {
        m.iter().map(|(k, v)| (k.as_str().to_string(), *v)).collect()
    };
    Summary {
        engine1: cfg.engines[0].name.clone(),
        engine2: cfg.engines[1].name.clone(),
        games: t.games(),
        wins: t.wins,
        draws: t.draws,
        losses: t.losses,
        score: tri.map(|e| e.score),
        elo: tri.and_then(|e| finite(e.elo)),
        elo_error95: tri.and_then(|e| finite(e.error)),
        pairs: t.penta.iter().sum(),
        pentanomial: t.penta,
        elo_pentanomial: penta.and_then(|e| finite(e.elo)),
        elo_error95_pentanomial: penta.and_then(|e| finite(e.error)),
        nelo_pentanomial: stats::normalized_elo(&t.penta).and_then(finite),
        illegal: t.forfeit_total(Termination::IllegalMove),
        crashes: t.forfeit_total(Termination::Crash),
        no_move: t.forfeit_total(Termination::NoMove),
        time_losses: t.forfeit_total(Termination::TimeForfeit),
        forfeits: (0..2)
            .map(|i| (cfg.engines[i].name.clone(), names(&t.forfeits[i])))
            .collect(),
        terminations: names(&t.terminations),
        mine_losses: (0..2)
            .map(|i| (cfg.engines[i].name.clone(), t.mine_losses[i]))
            .collect(),
        mine_loss_games: (0..2)
            .map(|i| (cfg.engines[i].name.clone(), t.mine_loss_games[i]))
            .collect(),
        mine_losses_in_sight: (0..2)
            .map(|i| (cfg.engines[i].name.clone(), t.mine_losses_in_sight[i]))
            .collect(),
        sprt,
        aborted,
    }
}

/// Prints `s` to stdout; `t` again for the infinite Elo figures that `s` holds as
/// `None` (a perfect score prints as `+inf`, not `n/a`).
pub(super) fn print_summary(s: &Summary, t: &Tally) {
    let tri = stats::trinomial(t.wins, t.draws, t.losses);
    let score = tri.map_or("n/a".to_string(), |e| format!("{:.1}%", e.score * 100.0));
    println!(
        "Score of {} vs {}: {} - {} - {} (W-D-L) [{score}] in {} games",
        s.engine1, s.engine2, s.wins, s.draws, s.losses, s.games
    );
    match tri {
        Some(e) => println!(
            "Elo difference: {} +/- {} (95%, trinomial)",
            signed(e.elo),
            plain(e.error)
        ),
        None => println!("Elo difference: n/a"),
    }
    let penta_text = match stats::pentanomial(&t.penta) {
        Some(e) => format!(
            "Elo {} +/- {} (95%), nElo {}",
            signed(e.elo),
            plain(e.error),
            stats::normalized_elo(&t.penta).map_or("n/a".into(), signed)
        ),
        None => "Elo n/a".into(),
    };
    println!(
        "Pentanomial [0, 0.5, 1, 1.5, 2]: {:?} over {} pairs, {penta_text}",
        t.penta, s.pairs
    );
    if let Some(sp) = &s.sprt {
        println!(
            "SPRT nElo [{:.2}, {:.2}] (alpha = beta = 0.05): LLR {:.3} ({:.3}, {:.3}): {}",
            sp.elo0, sp.elo1, sp.llr, sp.lower, sp.upper, sp.decision
        );
    }
    let per_engine: Vec<String> = s
        .forfeits
        .iter()
        .map(|(name, m)| {
            let list: Vec<String> = m.iter().map(|(k, v)| format!("{k} {v}")).collect();
            format!(
                "{name}: {}",
                if list.is_empty() {
                    "none".into()
                } else {
                    list.join(", ")
                }
            )
        })
        .collect();
    println!(
        "Forfeits: illegal moves {}, crashes {}, no move {}, time losses {} ({})",
        s.illegal,
        s.crashes,
        s.no_move,
        s.time_losses,
        per_engine.join("; ")
    );
    let mut terms: Vec<(Termination, u32)> = t.terminations.iter().map(|(k, v)| (*k, *v)).collect();
    terms.sort_by_key(|&(k, v)| (std::cmp::Reverse(v), k));
    let terms: Vec<String> = terms.iter().map(|(k, v)| format!("{k} {v}")).collect();
    println!(
        "Terminations: {}",
        if terms.is_empty() {
            "none".into()
        } else {
            terms.join(", ")
        }
    );
    let losses: Vec<String> = s
        .mine_losses
        .iter()
        .map(|(name, n)| {
            format!(
                "{name} {n} in {} games ({} on a discovered mine)",
                s.mine_loss_games[name], s.mine_losses_in_sight[name]
            )
        })
        .collect();
    println!("Pieces destroyed by mines: {}", losses.join(", "));
    if let Some(why) = &s.aborted {
        println!("Match aborted: {why}");
    }
}

/// Writes `s` to `path` as pretty-printed JSON.
///
/// # Errors
/// The file cannot be written.
pub(super) fn write_json(s: &Summary, path: &Path) -> std::io::Result<()> {
    let text = serde_json::to_string_pretty(s).expect("the summary serialises");
    std::fs::write(path, text + "\n")
}
