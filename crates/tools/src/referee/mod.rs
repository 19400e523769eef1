//! `sapper referee`: engine-against-engine minesweeper games over UCI.
//!
//! Games come in pairs: each pair draws one mine layout (four distinct mines,
//! uniform on ranks 4-7, from a generator seeded by `--seed` and the pair number)
//! and plays it twice with colours swapped. The referee holds the full-information
//! position and sends each engine only the public FEN, fresh every move (an engine
//! given a public FEN can accept `moves` only while their outcome is determined, so
//! `moves` are never sent). Every answer is checked against the legal moves; the
//! rules end a game by checkmate, stalemate, dead position, threefold repetition or
//! the move limit (minesweeper has no 50-move rule), and misbehaviour forfeits it
//! (an illegal or unparsable move, `bestmove (none)`/`0000` with legal moves, a
//! crash, a hang, a clock overrun; losing on time against a bare king is a draw).
//!
//! `--reveal1`/`--reveal2` make an engine an *oracle*: it is sent the full-information
//! start FEN and every move, so it knows where the hidden mines are. No fair player
//! has that; it measures what knowing the mines is worth at most.
//!
//! Games run on `--concurrency` threads, each with its own pair of engine
//! processes, restarted after a crash or a hang. Records go to `--out` (JSON Lines,
//! see [`record::GameRecord`]), one progress line per game to stderr, the summary
//! (W/D/L, Elo with trinomial and pentanomial error bars, forfeits, terminations)
//! to stdout and, with `--json`, to a file. `--sprt` stops once the pentanomial
//! GSPRT decides.
//!
//! The parts: `arguments` (the options and the match configuration built from
//! them), `worker` (playing games), `tally` (counting results and mine losses),
//! `summary` (the printed and JSON summary), [`engine_process`] (talking to one
//! engine) and [`record`] (game records and the rules' verdicts). This module ties
//! them together: [`run`] starts the workers and feeds their games to the tally,
//! the records file and the SPRT as they finish.

mod arguments;
pub mod engine_process;
pub mod record;
mod summary;
mod tally;
mod worker;

pub use arguments::{parse_sprt, parse_tc, Limit, RefereeArgs, ReplayArgs, DEFAULT_SEED};
pub use worker::pair_layout;

use arguments::build_config;
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc;
use summary::{print_summary, sprt_state, summarize, write_json, SprtState};
use tally::Tally;
use worker::GameReport;

/// Runs `sapper referee`. Exit status 1 when the match could not be played (an
/// engine that cannot be started or configured, an unwritable file).
pub fn run(args: &RefereeArgs) -> ExitCode {
    let cfg = match build_config(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut out = match &args.out {
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Some(std::io::BufWriter::new(f)),
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        },
        None => None,
    };
    let (sprt, concurrency) = (cfg.sprt, cfg.concurrency);
    let next = AtomicU32::new(0);
    let stop = AtomicBool::new(false);
    let mut tally = Tally::default();
    let mut aborted: Option<String> = None;
    let mut sprt_now: Option<SprtState> = None;
    let (tx, rx) = mpsc::channel::<Result<GameReport, String>>();
    std::thread::scope(|scope| {
        for _ in 0..concurrency.min(cfg.games.max(1) as usize) {
            let tx = tx.clone();
            let (cfg, next, stop) = (&cfg, &next, &stop);
            scope.spawn(move || worker::play_games(cfg, next, stop, tx));
        }
        drop(tx);
        for report in rx {
            let report = match report {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("error: {e}; stopping the match");
                    aborted.get_or_insert(e);
                    stop.store(true, Ordering::SeqCst);
                    continue;
                }
            };
            let pair_done = tally.add(&report);
            let r = &report.record;
            eprintln!(
                "game {}/{} pair {}: {} - {} {} ({}, {} plies) [engine1 W-D-L {}-{}-{}]",
                r.game,
                cfg.games,
                r.pair,
                r.white,
                r.black,
                r.result,
                r.termination,
                r.moves.len(),
                tally.wins,
                tally.draws,
                tally.losses
            );
            if let Some(f) = out.as_mut() {
                let line = serde_json::to_string(r).expect("records serialise");
                if let Err(e) = writeln!(f, "{line}").and_then(|()| f.flush()) {
                    eprintln!("error: writing the record: {e}; stopping the match");
                    aborted.get_or_insert(format!("writing the records: {e}"));
                    stop.store(true, Ordering::SeqCst);
                }
            }
            if let (Some(bounds), true) = (sprt, pair_done) {
                let s = sprt_state(bounds, &tally.penta);
                let pairs: u32 = tally.penta.iter().sum();
                eprintln!(
                    "SPRT nElo [{:.2}, {:.2}] after {pairs} pairs: LLR {:.3} ({:.3}, {:.3}) {}",
                    s.elo0, s.elo1, s.llr, s.lower, s.upper, s.decision
                );
                if s.decision != "continue" && !stop.swap(true, Ordering::SeqCst) {
                    eprintln!("SPRT decided ({}); finishing the games in progress", s.decision);
                }
                sprt_now = Some(s);
            }
        }
    });
    if sprt_now.is_none() {
        if let Some(bounds) = sprt {
            sprt_now = Some(sprt_state(bounds, &tally.penta));
        }
    }
    let summary = summarize(&cfg, &tally, sprt_now, aborted.clone());
    print_summary(&summary, &tally);
    if let Some(path) = &args.json {
        if let Err(e) = write_json(&summary, path) {
            eprintln!("error: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    if aborted.is_some() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Runs `sapper replay`.
pub fn run_replay(args: &ReplayArgs) -> ExitCode {
    let mut out = std::io::stdout().lock();
    match record::replay_file(&args.file, args.game, args.verbose, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = out.flush();
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
