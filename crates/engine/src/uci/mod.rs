//! The UCI protocol (Stefan Meyer-Kahlen's specification, with Stockfish's
//! extensions `d`, `eval`, `bench` and `go perft`), as GUIs and python-chess expect
//! it (`shared/spec/UCI.md`).
//!
//! Nothing here panics on input: every malformed line gets an `info string error`
//! and leaves the engine's state as it was.
//!
//! This module runs the command loop, parses and dispatches commands and writes
//! the answers; the options `uci` lists, each with the code `setoption` runs for it,
//! are declared in `options`.

mod options;

use crate::bench;
use crate::display::board_text;
use crate::engine::{Engine, SearchListener};
use crate::eval::{evaluate, trace};
use crate::search::score;
use crate::search::timeman::Limits;
use crate::search::{IterationInfo, Reporter, SearchResult};
use sapper_rules::moves::Move;
use sapper_rules::perft::divide_until;
use sapper_rules::with_game;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Where UCI output goes: stdout in the binary, a buffer in tests. Shared with the
/// search thread, one line per lock.
pub type Output = Arc<Mutex<dyn Write + Send>>;

/// Writes one line and flushes.
pub fn emit(out: &Output, line: &str) {
    let mut w = match out.lock() {
        Ok(w) => w,
        Err(poisoned) => poisoned.into_inner(),
    };
    // A closed pipe means the GUI is gone; nothing useful can be done about it here.
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

/// Longest stretch of an unknown command echoed back, bytes.
const ECHO_LIMIT: usize = 120;

/// A `go perft` or `bench` running beside the command loop, so that `isready` is
/// answered and `stop` or `quit` end it.
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
struct Job {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

/// The UCI front end: reads commands, drives an [`Engine`], writes answers.
pub struct Uci {
    engine: Engine,
    out: Output,
    show_wdl: bool,
    job: Option<Job>,
}

impl Uci {
    /// A front end writing to `out`.
    pub fn new(out: Output) -> Uci {
        Uci {
            engine: Engine::new(),
            out,
            show_wdl: false,
            job: None,
        }
    }

    /// The engine behind the front end.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The engine behind the front end, for commands of an embedding front end
    /// (the browser build's `pass`) that UCI has no word for.
    pub fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// Reads commands from `input` until `quit` or end of input.
    pub fn run(&mut self, mut input: impl BufRead) {
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            match input.read_until(b'\n', &mut bytes) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            // A line that is not UTF-8 is garbage, not the end of the session.
            if !self.handle_line(&String::from_utf8_lossy(&bytes)) {
                return;
            }
        }
        // End of input: a perft or bench still running finishes and prints.
        self.finish_job(false);
        self.engine.stop();
    }

    /// Waits for the running `go perft` or `bench`, first telling it to stop if
    /// `interrupt`.
    fn finish_job(&mut self, interrupt: bool) {
        if let Some(job) = self.job.take() {
            if interrupt {
                job.stop.store(true, Ordering::Relaxed);
            }
            // A panic in the job has already been reported by the panic hook.
            let _ = job.handle.join();
        }
    }

    /// Runs `work` beside the command loop; it gets the stop flag and the output.
    fn start_job(&mut self, work: impl FnOnce(&AtomicBool, &Output) + Send + 'static) {
        let stop = Arc::new(AtomicBool::new(false));
        let out = Arc::clone(&self.out);
        let flag = Arc::clone(&stop);
        #[cfg(not(target_arch = "wasm32"))]
        {
            let handle = std::thread::spawn(move || work(&flag, &out));
            self.job = Some(Job { stop, handle });
        }
        // One thread on wasm32: the job runs to its end here; `stop` reaches it
        // through `crate::host::stop_requested`.
        #[cfg(target_arch = "wasm32")]
        {
            drop(stop);
            work(&flag, &out);
        }
    }

    fn say(&self, line: &str) {
        emit(&self.out, line);
    }

    fn error(&self, text: &str) {
        self.say(&format!("info string error: {text}"));
    }

    /// Handles one command line. Returns `false` after `quit`.
    pub fn handle_line(&mut self, line: &str) -> bool {
        let line = line.trim();
        let mut tokens = line.split_whitespace();
        let Some(command) = tokens.next() else {
            return true;
        };
        let args: Vec<&str> = tokens.collect();
        // A running perft or bench: `stop` and `quit` end it, `isready` and `debug`
        // are answered meanwhile, and any other command waits for its output, so a
        // piped script reads the results in order (as Stockfish's synchronous perft).
        match command {
            "isready" | "debug" => {}
            "stop" | "quit" => self.finish_job(true),
            _ => self.finish_job(false),
        }
        match command {
            "uci" => self.uci(),
            // UCI's debug mode allows extra `info string` output; Sapper has none
            // to add, so `on` and `off` are accepted and change nothing.
            "debug" => match args.as_slice() {
                ["on"] | ["off"] => {}
                _ => self.error("debug: expected 'on' or 'off'"),
            },
            "isready" => self.say("readyok"),
            "ucinewgame" => self.engine.new_game(),
            "setoption" => self.setoption(&args),
            "position" => self.position(&args),
            "go" => self.go(&args),
            "stop" => self.engine.stop(),
            "ponderhit" => self.engine.ponderhit(),
            "quit" => {
                self.engine.stop();
                return false;
            }
            "d" => self.display(),
            "eval" => self.eval(),
            "bench" => self.bench(&args),
            _ => self.say(&format!("Unknown command: '{}'", echo(line))),
        }
        true
    }

    fn uci(&self) {
        self.say(&format!("id name Sapper {}", env!("CARGO_PKG_VERSION")));
        self.say("id author the Sapper developers");
        for opt in options::all() {
            self.say(&opt.to_string());
        }
        self.say("uciok");
    }

    fn setoption(&mut self, args: &[&str]) {
        if args.first() != Some(&"name") {
            return self.error("setoption: expected 'setoption name <name> [value <value>]'");
        }
        let value_at = args.iter().position(|t| *t == "value");
        let name = args[1..value_at.unwrap_or(args.len())].join(" ");
        let value = value_at.map(|i| args[i + 1..].join(" "));
        let Some(opt) = options::find(&name) else {
            return self.error(&format!("setoption: unknown option '{name}'"));
        };
        match opt.set(self, &value.unwrap_or_default()) {
            Ok(Some(text)) => self.say(&format!("info string {text}")),
            Ok(None) => {}
            Err(e) => self.error(&format!("setoption: {e}")),
        }
    }

    fn position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|t| *t == "moves");
        let (spec, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let fen = match spec.first() {
            Some(&"startpos") if spec.len() == 1 => None,
            Some(&"fen") if spec.len() > 1 => Some(spec[1..].join(" ")),
            _ => {
                return self.error("position: expected 'position startpos|fen <fen> [moves ...]'");
            }
        };
        match self.engine.set_position(fen.as_deref(), moves) {
            Ok(warnings) => {
                for w in warnings {
                    self.say(&format!("info string warning: {w}"));
                }
            }
            Err(e) => self.error(&format!("position: {e}; position unchanged")),
        }
    }

    fn go(&mut self, args: &[&str]) {
        if args.first() == Some(&"perft") {
            return self.perft(args.get(1).copied());
        }
        let mut limits = Limits::default();
        let mut searchmoves = Vec::new();
        let mut i = 0;
        while i < args.len() {
            let key = args[i];
            i += 1;
            let number = |i: &mut usize| -> Option<i64> {
                let v = args.get(*i).and_then(|s| s.parse::<i64>().ok());
                if v.is_some() {
                    *i += 1;
                }
                v
            };
            let ok = match key {
                "wtime" => number(&mut i).map(|v| limits.time[0] = Some(millis(v))),
                "btime" => number(&mut i).map(|v| limits.time[1] = Some(millis(v))),
                "winc" => number(&mut i).map(|v| limits.inc[0] = millis(v)),
                "binc" => number(&mut i).map(|v| limits.inc[1] = millis(v)),
                "movestogo" => number(&mut i).map(|v| limits.movestogo = Some(v.clamp(0, 10_000) as u32)),
                "movetime" => number(&mut i).map(|v| limits.movetime = Some(millis(v))),
                "depth" => number(&mut i).map(|v| limits.depth = Some(v.clamp(1, 1000) as i32)),
                "nodes" => number(&mut i).map(|v| limits.nodes = Some(v.max(1) as u64)),
                "mate" => number(&mut i).map(|v| limits.mate = Some(v.clamp(1, 1000) as u32)),
                "infinite" => {
                    limits.infinite = true;
                    Some(())
                }
                "ponder" => {
                    limits.ponder = true;
                    Some(())
                }
                "searchmoves" => {
                    while i < args.len() && !is_go_keyword(args[i]) {
                        searchmoves.push(args[i]);
                        i += 1;
                    }
                    Some(())
                }
                _ => None,
            };
            if ok.is_none() {
                self.error(&format!("go: ignoring '{key}' (unknown or missing value)"));
            }
        }
        let listener = Box::new(UciListener {
            out: Arc::clone(&self.out),
            show_wdl: self.show_wdl,
        });
        if let Err(e) = self.engine.go(limits.clone(), &searchmoves, listener) {
            self.error(&format!("go: {e}; searching all moves"));
            let listener = Box::new(UciListener {
                out: Arc::clone(&self.out),
                show_wdl: self.show_wdl,
            });
            // Searching without the bad restriction still answers with a legal move.
            let _ = self.engine.go(limits, &[], listener);
        }
    }

    fn perft(&mut self, depth: Option<&str>) {
        let Some(depth) = depth
            .and_then(|d| d.parse::<u32>().ok())
            .filter(|d| (1..=20).contains(d))
        else {
            return self.error("go perft: expected a depth from 1 to 20");
        };
        self.engine.stop();
        let game = self.engine.game().clone();
        self.start_job(move |stop, out| {
            let stopped = || stop.load(Ordering::Relaxed) || crate::host::stop_requested();
            let Some(lines) = with_game!(&game, g, _V => divide_until(&g.position, depth, &stopped)) else {
                emit(out, "info string go perft: stopped");
                return;
            };
            let mut total = 0;
            for (m, n) in lines {
                emit(out, &format!("{m}: {n}"));
                total += n;
            }
            emit(out, "");
            emit(out, &format!("Nodes searched: {total}"));
        });
    }

    fn display(&self) {
        let text = board_text(self.engine.game());
        for line in text.lines() {
            self.say(line);
        }
    }

    fn eval(&self) {
        let params = self.engine.params();
        let game = self.engine.game();
        let t = with_game!(game, g, _V => trace(&g.position, &params));
        self.say(&format!(
            "Parameters: {} (hash {})",
            self.engine.params_name(),
            params.hash
        ));
        for line in t.table() {
            self.say(&line);
        }
        let hand = format!("{} (White's view, tempo included)", score::human(t.total_white));
        // The final figure is the search's own static evaluation (`eval::evaluate`:
        // a known endgame's rule, else the network, added to the hand-written
        // evaluation when residual), so the two cannot disagree.
        let (final_white, net) = with_game!(game, g, V => (
            evaluate(&g.position, &params) * g.position.side_to_move().sign(),
            params
                .nnue
                .as_deref()
                .filter(|_| !t.endgame && crate::eval::nnue::supports::<V>())
                .map(|n| n.residual),
        ));
        let how = match (net, self.engine.network_name()) {
            (Some(residual), Some(name)) => {
                self.say(&format!("Hand-written evaluation: {hand}"));
                self.say(&format!("NNUE network: {name}"));
                if residual {
                    "NNUE added to the hand-written evaluation"
                } else {
                    "NNUE"
                }
            }
            _ if t.endgame => "a known endgame's rule",
            _ => "tempo included",
        };
        self.say(&format!(
            "Final evaluation: {} (White's view, {how})",
            score::human(final_white)
        ));
    }

    fn bench(&mut self, args: &[&str]) {
        let depth = match args.first() {
            None => bench::DEFAULT_DEPTH,
            Some(d) => match d.parse::<i32>() {
                Ok(d) if (1..=30).contains(&d) => d,
                _ => return self.error("bench: expected a depth from 1 to 30"),
            },
        };
        self.engine.stop();
        self.start_job(move |stop, out| match bench::run_until(depth, stop) {
            Some(report) => emit(out, &format!("{} nodes {} nps", report.total_nodes, report.nps())),
            None => emit(out, "info string bench: stopped"),
        });
    }
}

/// `line` cut to [`ECHO_LIMIT`] bytes (at a character boundary), marked when cut:
/// an 8 MB junk line is not worth echoing whole.
fn echo(line: &str) -> String {
    if line.len() <= ECHO_LIMIT {
        return line.to_string();
    }
    let mut end = ECHO_LIMIT;
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes)", &line[..end], line.len())
}

/// A time from `go`, in milliseconds, clamped to 0..=2^40 (about 35 years) so that
/// the time manager's arithmetic on it cannot overflow.
fn millis(v: i64) -> u64 {
    v.clamp(0, 1 << 40) as u64
}

fn is_go_keyword(token: &str) -> bool {
    matches!(
        token,
        "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "movetime"
            | "depth"
            | "nodes"
            | "mate"
            | "infinite"
            | "ponder"
            | "searchmoves"
    )
}

/// Prints search progress and the final `bestmove` as UCI lines.
struct UciListener {
    out: Output,
    show_wdl: bool,
}

impl Reporter for UciListener {
    fn iteration(&mut self, info: &IterationInfo) {
        emit(&self.out, &info_line(info, self.show_wdl));
    }
}

impl SearchListener for UciListener {
    fn done(&mut self, result: &SearchResult) {
        if result.best.is_none() {
            // No legal move: say why (lost or stalemated), then `(none)` (UCI.md).
            emit(
                &self.out,
                &format!("info depth 0 score {}", score::uci(result.score)),
            );
            emit(&self.out, "bestmove (none)");
        } else if result.ponder.is_some() {
            emit(
                &self.out,
                &format!("bestmove {} ponder {}", result.best, result.ponder),
            );
        } else {
            emit(&self.out, &format!("bestmove {}", result.best));
        }
    }
}

/// The `info` line of one principal variation; with `show_wdl`, the score's
/// win/draw/loss expectation per mille (`wdl W D L`) follows it.
pub fn info_line(info: &IterationInfo, show_wdl: bool) -> String {
    let ms = info.elapsed.as_millis().max(1) as u64;
    let pv: Vec<String> = info.pv.iter().map(Move::to_string).collect();
    let wdl = if show_wdl {
        let (w, d, l) = score::wdl(info.score);
        format!(" wdl {w} {d} {l}")
    } else {
        String::new()
    };
    format!(
        "info depth {} seldepth {} multipv {} score {}{wdl} nodes {} nps {} hashfull {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        score::uci(info.score),
        info.nodes,
        info.nodes * 1000 / ms,
        info.hashfull,
        info.elapsed.as_millis(),
        pv.join(" ")
    )
}
