//! `sapper perft`: leaf counts of the legal move tree, to test the move generator.

use crate::cli::PerftArgs;
use sapper_rules::game::AnyGame;
use sapper_rules::perft::divide;
use sapper_rules::with_game;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

/// Counts to `args.depth` and prints the total (and, with `--divide`, each root
/// move's count) with the speed.
pub fn run(args: PerftArgs) -> ExitCode {
    let game = match AnyGame::from_spec(args.variant, args.fen.as_deref(), &[]) {
        Ok((game, _)) => game,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let start = Instant::now();
    let lines = with_game!(&game, g, _V => divide(&g.position, args.depth, args.parallel));
    let total: u64 = lines.iter().map(|(_, n)| n).sum();
    // Write errors (a closed pipe) are ignored: the count is all there is to say.
    let mut out = std::io::stdout().lock();
    if args.divide {
        for (m, n) in &lines {
            let _ = writeln!(out, "{m}: {n}");
        }
        let _ = writeln!(out);
    }
    let secs = start.elapsed().as_secs_f64();
    let _ = writeln!(out, "Nodes searched: {total}");
    let _ = writeln!(
        out,
        "Time: {:.3} s ({:.1} Mnps)",
        secs,
        total as f64 / secs.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}
