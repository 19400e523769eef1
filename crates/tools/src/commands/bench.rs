//! `sapper bench`: the fixed positions whose node total is the build's signature.

use crate::cli::BenchArgs;
use sapper_engine::bench;
use std::process::ExitCode;

/// Searches every bench position and prints the counts; the last line,
/// `N nodes M nps`, is what OpenBench and `scripts/check_bench.sh` read.
pub fn run(args: BenchArgs) -> ExitCode {
    let report = bench::run(args.depth.clamp(1, 30));
    for (&(variant, fen), nodes) in bench::POSITIONS.iter().zip(&report.nodes) {
        println!("{variant:<14} {nodes:>10}  {fen}");
    }
    println!("Total time (ms) : {}", report.elapsed.as_millis());
    println!("{} nodes {} nps", report.total_nodes, report.nps());
    ExitCode::SUCCESS
}
