//! The `sapper` binary: UCI on stdin/stdout when started without arguments (as
//! GUIs and match runners start engines), plus the command-line tools.
//!
//! This file only dispatches. The binary's own modules are [`cli`] (the clap
//! definitions, which are the `--help` texts) and [`commands`] (one `run` per
//! command); the work itself is in the libraries: `sapper-engine` (uci, analyze,
//! review, play, bench), `sapper-rules` (perft) and this crate's `sapper_tools` (referee,
//! replay, stats, datagen, tune, train), whose modules share `src/` with these.

mod cli;
mod commands;

use clap::Parser;
use cli::{Cli, Command};
use std::process::ExitCode;

fn main() -> ExitCode {
    match Cli::parse().command {
        None | Some(Command::Uci) => commands::uci::run(),
        Some(Command::Play(args)) => commands::play::run(args),
        Some(Command::Analyze(args)) => commands::analyze::run(args),
        Some(Command::Review(args)) => commands::review::run(args),
        Some(Command::Perft(args)) => commands::perft::run(args),
        Some(Command::Bench(args)) => commands::bench::run(args),
        Some(Command::Datagen(args)) => commands::datagen::run(args),
        Some(Command::Train(args)) => commands::train::run(args),
        Some(Command::Tune(args)) => commands::tune::run(args),
        Some(Command::Referee(args)) => sapper_tools::referee::run(&args),
        Some(Command::Replay(args)) => sapper_tools::referee::run_replay(&args),
        Some(Command::Stats(args)) => commands::stats::run(args),
    }
}
