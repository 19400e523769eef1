//! `sapper stats`: the match statistics the Python runners ask for, as JSON.

use crate::cli::StatsArgs;
use sapper_tools::referee::parse_sprt;
use sapper_tools::stats::{report_json, EloModel, StatsQuery};
use std::process::ExitCode;

/// Checks the arguments and prints [`sapper_tools::stats::report_json`].
pub fn run(args: StatsArgs) -> ExitCode {
    let StatsArgs {
        wdl,
        pentanomial,
        score,
        sprt,
        elo_model,
        alpha,
        beta,
    } = args;
    let fail = |message: String| {
        eprintln!("error: {message}");
        ExitCode::FAILURE
    };
    if score.is_some_and(|s| !(0.0..=1.0).contains(&s)) {
        return fail(format!(
            "--score must be in [0, 1], got {}",
            score.unwrap_or_default()
        ));
    }
    if !(alpha > 0.0 && beta > 0.0 && alpha + beta < 1.0) {
        return fail(format!(
            "need 0 < alpha, beta and alpha + beta < 1, got {alpha}, {beta}"
        ));
    }
    let sprt = match sprt.as_deref().map(parse_sprt).transpose() {
        Ok(bounds) => bounds,
        Err(e) => return fail(e),
    };
    // clap accepts only "normalized" and "logistic".
    let model = if elo_model == "logistic" {
        EloModel::Logistic
    } else {
        EloModel::Normalized
    };
    let wdl = match wdl.map(<[u32; 3]>::try_from).transpose() {
        Ok(wdl) => wdl,
        Err(v) => return fail(format!("--wdl wants W,D,L, got {} numbers", v.len())),
    };
    let pentanomial = match pentanomial.map(<[u32; 5]>::try_from).transpose() {
        Ok(counts) => counts,
        Err(v) => return fail(format!("--pentanomial wants five counts, got {}", v.len())),
    };
    let query = StatsQuery {
        wdl,
        pentanomial,
        score,
        sprt: sprt.map(|(elo0, elo1)| (elo0, elo1, model, alpha, beta)),
    };
    println!("{}", report_json(&query));
    ExitCode::SUCCESS
}
