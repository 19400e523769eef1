//! `sapper review`: a PGN game judged move by move (the engine's
//! [`sapper_engine::review`]), printed as a table, written as an annotated PGN and
//! an SVG evaluation graph on request.

use crate::cli::ReviewArgs;
use sapper_engine::review::{self, annotate, graph, pgn, table, ReviewSettings};
use sapper_engine::search::timeman::Limits;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

/// Reads the game, reviews it and reports.
pub fn run(args: ReviewArgs) -> ExitCode {
    match review_file(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn review_file(args: &ReviewArgs) -> Result<(), String> {
    let path = &args.pgn;
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let text = pgn::decode(&bytes);
    let record = pgn::read(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let (game, warnings) =
        pgn::game_of(&record, args.variant).map_err(|e| format!("{}: {e}", path.display()))?;
    for w in warnings {
        eprintln!("warning: FEN tag: {w}");
    }
    // Without a limit, the variant's default (a depth, or nodes where mines make
    // the search a chance search); a time limit would make the review depend on
    // the machine's load.
    let limits = if args.depth.is_none() && args.nodes.is_none() {
        review::default_limits(game.variant())
    } else {
        Limits {
            depth: args.depth,
            nodes: args.nodes,
            ..Limits::default()
        }
    };
    let settings = ReviewSettings {
        limits,
        hash_mib: args.hash.max(1),
    };
    // A progress line on a terminal only ('\r' must not reach a pipe or a file).
    let mut stderr = std::io::stderr();
    let live = stderr.is_terminal();
    let mut progress = |done: usize, total: usize| {
        if live {
            let text = if done < total {
                format!("\rreviewing: position {}/{total}", done + 1)
            } else {
                format!("\r{:40}\r", "")
            };
            let _ = stderr.write_all(text.as_bytes());
            let _ = stderr.flush();
        }
    };
    let reviewed = review::review(&game, &settings, &mut progress)?;
    print!("{}", table::report(&reviewed));
    if let Some(out) = &args.out {
        std::fs::write(out, annotate::annotated(&record, &reviewed))
            .map_err(|e| format!("{}: {e}", out.display()))?;
        println!("Annotated PGN written to {}", out.display());
    }
    if let Some(svg) = &args.svg {
        std::fs::write(svg, graph::graph(&reviewed)).map_err(|e| format!("{}: {e}", svg.display()))?;
        println!("Evaluation graph written to {}", svg.display());
    }
    Ok(())
}
