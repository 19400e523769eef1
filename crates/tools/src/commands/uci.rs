//! `sapper uci`, and `sapper` without arguments: the UCI protocol on stdin/stdout.

use sapper_engine::uci::{Output, Uci};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

/// Speaks UCI until `quit` or the end of stdin.
pub fn run() -> ExitCode {
    // Shared with the search thread, which prints `info` and `bestmove` itself.
    let out: Output = Arc::new(Mutex::new(std::io::stdout()));
    let mut uci = Uci::new(out);
    uci.run(std::io::stdin().lock());
    ExitCode::SUCCESS
}
