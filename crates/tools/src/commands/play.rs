//! `sapper play`: a game against Sapper in the terminal.

use crate::cli::PlayArgs;
use sapper_engine::play::{self, PlaySettings};
use sapper_rules::types::Color;
use std::process::ExitCode;

/// Plays one game on stdin/stdout.
pub fn run(args: PlayArgs) -> ExitCode {
    let settings = PlaySettings {
        variant: args.variant,
        // clap accepts only "white" and "black".
        human: if args.color == "black" {
            Color::Black
        } else {
            Color::White
        },
        level: args.level,
        movetime: args.movetime,
        seed: args.seed.unwrap_or_else(play::clock_seed),
        fen: args.fen,
        pgn: args.pgn,
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout();
    match play::run(&settings, &mut input, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
