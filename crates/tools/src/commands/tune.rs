//! `sapper tune`: the hand-written evaluation's weights fitted to datagen records.

use super::use_threads;
use crate::cli::TuneArgs;
use sapper_tools::tune::{self, TuneSettings};
use std::process::ExitCode;

/// Fits the weights, logging progress to stderr, and prints the file written, K and
/// the losses to stdout.
pub fn run(args: TuneArgs) -> ExitCode {
    use_threads(args.threads);
    let settings = TuneSettings {
        variant: args.variant,
        data: args.data,
        init: args.init,
        out_dir: args.out_dir,
        lambda: args.lambda.clamp(0.0, 1.0),
        epochs: args.epochs,
        lr: args.lr,
        val_fraction: args.val_fraction.clamp(0.0, 1.0),
        max_score: args.max_score,
        seed: args.seed,
        freeze: args
            .freeze
            .split(',')
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect(),
        l2: args.l2,
        k: args.k,
    };
    match tune::run(&settings, &mut std::io::stderr()) {
        Ok(r) => {
            println!(
                "{}: K {:.1}, {} training / {} validation positions, loss train {:.6} -> {:.6}, validation {:.6} -> {:.6}",
                r.file.display(),
                r.k,
                r.train,
                r.val,
                r.train_loss.0,
                r.train_loss.1,
                r.val_loss.0,
                r.val_loss.1
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
