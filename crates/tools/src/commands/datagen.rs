//! `sapper datagen`: self-play records for `tune` and `train`.

use crate::cli::DatagenArgs;
use sapper_tools::datagen::{self, DatagenSettings};
use std::process::ExitCode;

/// Plays the games, logging progress to stderr, and prints the totals to stdout.
pub fn run(args: DatagenArgs) -> ExitCode {
    let Some(random_plies) = parse_plies(&args.random_plies) else {
        eprintln!("error: --random-plies wants MIN-MAX, got '{}'", args.random_plies);
        return ExitCode::FAILURE;
    };
    let settings = DatagenSettings {
        variant: args.variant,
        games: args.games,
        nodes: args.nodes.max(1),
        seed: args.seed,
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        random_plies,
        max_plies: args.max_plies,
        hash_mib: args.hash.max(1),
        adjudicate_mates: !args.no_mate_adjudication,
        eval_file: args.eval_file,
        openings: args.openings,
        out: args.out,
    };
    match datagen::run(&settings, &mut std::io::stderr()) {
        Ok(r) => {
            println!(
                "{} games, {} positions in {:.1} s: {:.0} positions/hour ({} threads, {} nodes per move); W-D-L {}-{}-{}",
                r.games,
                r.positions,
                r.seconds,
                r.positions_per_hour(),
                settings.threads,
                settings.nodes,
                r.wdl[0],
                r.wdl[1],
                r.wdl[2]
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `--random-plies`: `MIN-MAX`, or one number for both.
fn parse_plies(text: &str) -> Option<(u32, u32)> {
    text.split_once('-')
        .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)))
        .or_else(|| text.trim().parse().ok().map(|n| (n, n)))
}

#[cfg(test)]
mod tests {
    use super::parse_plies;

    #[test]
    fn random_plies_are_a_range_or_one_number() {
        assert_eq!(parse_plies("6-10"), Some((6, 10)));
        assert_eq!(parse_plies(" 4 - 8 "), Some((4, 8)));
        assert_eq!(parse_plies("7"), Some((7, 7)));
        assert_eq!(parse_plies("6-"), None);
        assert_eq!(parse_plies("x"), None);
    }
}
