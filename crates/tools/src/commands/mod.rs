//! The body of each `sapper` command, one module per command, each with
//! `run(args) -> ExitCode`. They turn the parsed arguments ([`crate::cli`]) into the
//! settings of the library that does the work (`sapper-engine` for the engine's
//! commands, `sapper_tools` for the tools), and its report into the lines printed,
//! so the libraries never see clap types or the exit status. `referee` and
//! `replay` have no module here: their bodies are the library's
//! `sapper_tools::referee::run` and `run_replay`, which its integration tests call.

pub mod analyze;
pub mod bench;
pub mod datagen;
pub mod perft;
pub mod play;
pub mod review;
pub mod stats;
pub mod train;
pub mod tune;
pub mod uci;

/// Sizes rayon's global pool (`--threads`; all cores when `None`).
fn use_threads(threads: Option<usize>) {
    if let Some(n) = threads {
        // An error means the pool exists already, sized by an earlier call; there
        // is only one per process, so there is nothing better to do than use it.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build_global();
    }
}
