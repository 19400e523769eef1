//! `sapper train`: an NNUE network fitted to datagen records.

use super::use_threads;
use crate::cli::TrainArgs;
use sapper_tools::train::{self, TrainSettings};
use std::process::ExitCode;

/// Trains the network, logging progress to stderr, and prints the file written and
/// its losses to stdout.
pub fn run(args: TrainArgs) -> ExitCode {
    use_threads(args.threads);
    let settings = TrainSettings {
        mirror: !args.no_mirror,
        variant: args.variant,
        data: args.data,
        out_dir: args.out_dir,
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        lambda: args.lambda.clamp(0.0, 1.0),
        k: args.k,
        val_fraction: args.val_fraction.clamp(0.0, 1.0),
        max_score: args.max_score,
        seed: args.seed,
        init: args.init,
        residual: args.residual,
    };
    match train::run(&settings, &mut std::io::stderr()) {
        Ok(r) => {
            println!(
                "{}: {} training / {} validation positions, validation loss {:.6} (quantized {:.6}; hand-written evaluation {:.6}), {:.0} s",
                r.file.display(),
                r.train,
                r.val,
                r.val_loss,
                r.val_loss_quantized,
                r.val_loss_linear,
                r.seconds
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
