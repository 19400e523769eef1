//! `sapper analyze`: one search of a position, printed iteration by iteration
//! (`--threat`: of the position with the move passed).

use crate::cli::AnalyzeArgs;
use sapper_engine::analyze::{self, AnalyzeRequest};
use sapper_engine::search::timeman::Limits;
use std::io::IsTerminal;
use std::process::ExitCode;

/// Builds the position from `--fen` and `--moves` and analyses it.
pub fn run(args: AnalyzeArgs) -> ExitCode {
    let AnalyzeArgs {
        variant,
        fen,
        moves,
        depth,
        movetime,
        nodes,
        multipv,
        hash,
        level,
        white_pov,
        svg,
        threat,
    } = args;
    let game = match analyze::build_game(variant, fen.as_deref(), &moves) {
        Ok((game, warnings)) => {
            for w in warnings {
                eprintln!("warning: {w}");
            }
            game
        }
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let game = if threat {
        match analyze::pass_move(&game) {
            Ok(passed) => passed,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        game
    };
    // Without a limit, a time limit: a fixed depth can take minutes in
    // minesweeper.
    let movetime = movetime.or((depth.is_none() && nodes.is_none()).then_some(analyze::DEFAULT_MOVETIME_MS));
    let mut stdout = std::io::stdout();
    let request = AnalyzeRequest {
        game,
        limits: Limits {
            depth,
            movetime,
            nodes,
            ..Limits::default()
        },
        multipv: multipv.max(1),
        hash_mib: hash.max(1),
        level,
        white_pov,
        // The progress line is redrawn with '\r': for a person, not a pipe.
        progress: stdout.is_terminal(),
        svg,
        threat,
    };
    match analyze::run(&request, &mut stdout) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::FAILURE,
    }
}
