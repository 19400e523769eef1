//! The UCI protocol (Stefan Meyer-Kahlen's specification, with Stockfish's
//! extensions `d`, `eval`, `bench` and `go perft`), as GUIs and python-chess expect
//! it (`shared/spec/UCI.md`).
//!
//! Nothing here panics on input: every malformed line gets an `info string error`
//! and leaves the engine's state as it was.

use crate::bench;
use crate::engine::{Engine, MineKnowledge, SearchListener};
use crate::eval::trace;
use crate::game::AnyGame;
use crate::moves::Move;
use crate::perft::divide_until;
use crate::search::score;
use crate::search::timeman::Limits;
use crate::search::{IterationInfo, Reporter, SearchResult};
use crate::skill;
use crate::variant::{Variant, VariantKind};
use std::io::{BufRead, Write};
use std::str::FromStr;
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

/// The `UCI_Variant` values, in the order UCI.md lists them.
const VARIANT_NAMES: [&str; VariantKind::ALL.len()] = {
    let mut names = [""; VariantKind::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = VariantKind::ALL[i].name();
        i += 1;
    }
    names
};

/// Largest `Hash` value, MiB. A wasm32 module addresses at most 4 GiB (and a
/// larger size would overflow its 32-bit `usize`), so the browser build stops at 2 GiB.
const MAX_HASH_MIB: i64 = if cfg!(target_arch = "wasm32") {
    2048
} else {
    65_536
};

/// What a handler returns: a line to report as `info string`, or an error (printed
/// after `setoption: `; the engine's state is unchanged then).
type Applied = Result<Option<String>, String>;

/// An option's UCI type, with the handler that applies a value already checked
/// against it. Every option has its handler by construction: none can be declared
/// and then silently ignored by `setoption`.
#[derive(Clone, Copy)]
enum OptionKind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
        apply: fn(&mut Uci, i64) -> Applied,
    },
    Check {
        default: bool,
        apply: fn(&mut Uci, bool) -> Applied,
    },
    Str {
        default: &'static str,
        apply: fn(&mut Uci, &str) -> Applied,
    },
    Combo {
        default: &'static str,
        vars: &'static [&'static str],
        apply: fn(&mut Uci, &str) -> Applied,
    },
    Button {
        apply: fn(&mut Uci) -> Applied,
    },
}

struct UciOption {
    name: &'static str,
    kind: OptionKind,
}

/// The options `uci` lists, in that order.
const OPTIONS: &[UciOption] = &[
    UciOption {
        name: "Hash",
        kind: OptionKind::Spin {
            default: 16,
            min: 1,
            max: MAX_HASH_MIB,
            apply: |uci, v| {
                uci.engine
                    .set_hash(v as usize)
                    .map(|()| None)
                    .map_err(|e| format!("Hash: {e}"))
            },
        },
    },
    UciOption {
        name: "Clear Hash",
        kind: OptionKind::Button {
            apply: |uci| {
                uci.engine.clear_hash();
                Ok(None)
            },
        },
    },
    UciOption {
        name: "Threads",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            // wasm32 (the browser build) has one thread.
            max: if cfg!(target_arch = "wasm32") { 1 } else { 1024 },
            apply: |uci, v| {
                uci.engine.set_threads(v as usize);
                Ok(None)
            },
        },
    },
    UciOption {
        name: "MultiPV",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 500,
            apply: |uci, v| {
                uci.engine.set_multipv(v as usize);
                Ok(None)
            },
        },
    },
    UciOption {
        name: "Ponder",
        kind: OptionKind::Check {
            default: false,
            // Ponder only tells the engine that `go ponder` may come (UCI).
            apply: |_, _| Ok(None),
        },
    },
    UciOption {
        name: "Move Overhead",
        kind: OptionKind::Spin {
            default: 10,
            min: 0,
            max: 5000,
            apply: |uci, v| {
                uci.engine.set_move_overhead(v as u64);
                Ok(None)
            },
        },
    },
    UciOption {
        name: "Skill Level",
        kind: OptionKind::Spin {
            default: skill::MAX_LEVEL as i64,
            min: 0,
            max: skill::MAX_LEVEL as i64,
            apply: |uci, v| {
                uci.engine.set_skill_level(v as u8);
                Ok(None)
            },
        },
    },
    UciOption {
        name: "UCI_LimitStrength",
        kind: OptionKind::Check {
            default: false,
            apply: |uci, on| {
                uci.engine.set_limit_strength(on);
                Ok(None)
            },
        },
    },
    UciOption {
        name: "UCI_Elo",
        kind: OptionKind::Spin {
            default: skill::ELO_MAX as i64,
            min: skill::ELO_MIN as i64,
            max: skill::ELO_MAX as i64,
            apply: |uci, v| {
                uci.engine.set_elo(v as u32);
                Ok(None)
            },
        },
    },
    UciOption {
        name: "UCI_ShowWDL",
        kind: OptionKind::Check {
            default: false,
            apply: |uci, on| {
                uci.show_wdl = on;
                Ok(None)
            },
        },
    },
    UciOption {
        name: "UCI_AnalyseMode",
        kind: OptionKind::Check {
            default: false,
            apply: |uci, on| {
                uci.engine.set_analyse_mode(on);
                Ok(None)
            },
        },
    },
    UciOption {
        name: "SyzygyPath",
        kind: OptionKind::Str {
            default: "<empty>",
            apply: |_, path| Ok(syzygy_report(path)),
        },
    },
    UciOption {
        name: "Use NNUE",
        kind: OptionKind::Check {
            default: true,
            apply: |uci, on| {
                uci.engine.set_use_nnue(on);
                Ok(None)
            },
        },
    },
    UciOption {
        name: "EvalFile",
        kind: OptionKind::Str {
            default: "<embedded>",
            apply: |uci, path| {
                uci.engine
                    .set_eval_file(path)
                    .map_err(|e| format!("EvalFile: {e}; parameters unchanged"))
            },
        },
    },
    UciOption {
        name: "Mine Knowledge",
        kind: OptionKind::Combo {
            default: "public",
            vars: &MineKnowledge::NAMES,
            apply: |uci, name| {
                let k = MineKnowledge::from_name(name)
                    .ok_or_else(|| format!("Mine Knowledge: unknown value '{name}'"))?;
                uci.engine.set_mine_knowledge(k);
                Ok(None)
            },
        },
    },
    UciOption {
        name: "UCI_Variant",
        kind: OptionKind::Combo {
            default: "chess",
            vars: &VARIANT_NAMES,
            apply: |uci, name| {
                let variant = VariantKind::from_str(name).map_err(|e| e.to_string())?;
                uci.engine
                    .set_variant(variant)
                    .map(|()| None)
                    .map_err(|e| e.to_string())
            },
        },
    },
];

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
        for opt in OPTIONS {
            let line = match opt.kind {
                OptionKind::Spin {
                    default, min, max, ..
                } => {
                    format!(
                        "option name {} type spin default {default} min {min} max {max}",
                        opt.name
                    )
                }
                OptionKind::Check { default, .. } => {
                    format!("option name {} type check default {default}", opt.name)
                }
                OptionKind::Button { .. } => format!("option name {} type button", opt.name),
                OptionKind::Str { default, .. } => {
                    format!("option name {} type string default {default}", opt.name)
                }
                OptionKind::Combo { default, vars, .. } => {
                    let vars: Vec<String> = vars.iter().map(|v| format!("var {v}")).collect();
                    format!(
                        "option name {} type combo default {default} {}",
                        opt.name,
                        vars.join(" ")
                    )
                }
            };
            self.say(&line);
        }
        #[cfg(feature = "spsa")]
        for p in crate::search::params::ALL {
            self.say(&format!(
                "option name {} type spin default {} min {} max {}",
                p.name, p.default, p.min, p.max
            ));
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
        let Some(opt) = OPTIONS.iter().find(|o| o.name.eq_ignore_ascii_case(&name)) else {
            #[cfg(feature = "spsa")]
            if let Some(p) = crate::search::params::ALL
                .iter()
                .find(|p| p.name.eq_ignore_ascii_case(&name))
            {
                let set = value
                    .as_deref()
                    .and_then(|v| v.trim().parse::<i32>().ok())
                    .ok_or_else(|| format!("{} needs an integer", p.name))
                    .and_then(|v| p.set(v));
                if let Err(e) = set {
                    self.error(&format!("setoption: {e}"));
                }
                return;
            }
            return self.error(&format!("setoption: unknown option '{name}'"));
        };
        let value = value.unwrap_or_default();
        let applied = match opt.kind {
            OptionKind::Button { apply } => apply(self),
            OptionKind::Spin { min, max, apply, .. } => {
                let Some(v) = value.parse::<i64>().ok().filter(|v| (min..=max).contains(v)) else {
                    return self.error(&format!(
                        "setoption: {} needs an integer from {min} to {max}, got '{value}'",
                        opt.name
                    ));
                };
                apply(self, v)
            }
            OptionKind::Check { apply, .. } => {
                let on = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return self.error(&format!(
                            "setoption: {} needs true or false, got '{value}'",
                            opt.name
                        ))
                    }
                };
                apply(self, on)
            }
            OptionKind::Str { apply, .. } => apply(self, &value),
            OptionKind::Combo { vars, apply, .. } => {
                // Combo values match exactly (UCI.md).
                if !vars.contains(&value.as_str()) {
                    return self.error(&format!(
                        "setoption: {} must be one of: {}; got '{value}'",
                        opt.name,
                        vars.join(", ")
                    ));
                }
                apply(self, &value)
            }
        };
        match applied {
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
            let Some(lines) = with_game!(&game, g, _V => divide_until(&g.position, depth, stop)) else {
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
        let net = with_game!(game, g, V => params
            .nnue
            .as_deref()
            .filter(|_| crate::nnue::supports::<V>())
            .map(|n| n.evaluate(&g.position) * g.position.side_to_move().sign()));
        match (net, self.engine.network_name()) {
            (Some(cp), Some(name)) => {
                self.say(&format!("Hand-written evaluation: {hand}"));
                self.say(&format!("NNUE network: {name}"));
                self.say(&format!(
                    "Final evaluation: {} (White's view, NNUE)",
                    score::human(cp)
                ));
            }
            _ => self.say(&format!("Final evaluation: {hand}")),
        }
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

/// What `SyzygyPath` found: `None` for `<empty>`, else a line naming how many
/// Syzygy tablebase files (`.rtbw`/`.rtbz` for chess, `.atbw`/`.atbz` for atomic)
/// the directories hold (separated by `:`, or `;` on Windows, as in Stockfish).
/// Sapper does not probe them yet; GUIs and lichess-bot set the option by default,
/// so it must be accepted, and the line says plainly what it does.
fn syzygy_report(value: &str) -> Option<String> {
    let value = value.trim();
    if value.is_empty() || value == "<empty>" {
        return None;
    }
    let separator = if cfg!(windows) { ';' } else { ':' };
    let files = value
        .split(separator)
        .filter_map(|dir| std::fs::read_dir(dir).ok())
        .flat_map(|entries| entries.filter_map(Result::ok))
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            [".rtbw", ".rtbz", ".atbw", ".atbz"]
                .iter()
                .any(|ext| name.ends_with(ext))
        })
        .count();
    Some(if files == 0 {
        format!("SyzygyPath: no tablebase files found in {value}")
    } else {
        format!("SyzygyPath: {files} tablebase files found in {value}; Sapper does not probe tablebases yet")
    })
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

/// The `info` line of one principal variation.
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

/// The board as Stockfish's `d` prints it, then `Fen:`, `Key:` and `Checkers:`.
pub fn board_text(game: &AnyGame) -> String {
    let mut s = board_diagram(game);
    with_game!(game, g, V => {
        use crate::bitboard::BitBoard;
        let pos = &g.position;
        s.push_str(&format!("Fen: {}\n", pos.to_fen()));
        s.push_str(&format!("Key: {:016X}\n", pos.key()));
        let checkers: Vec<String> = pos.checkers().squares().map(|sq| sq.to_string()).collect();
        s.push_str(&format!("Checkers: {}\n", checkers.join(" ")));
        s.push_str(&V::describe_state(pos));
    });
    s
}

/// The board as a grid, rank 8 (or 10) at the top, White's pieces in capitals;
/// minesweeper's fog and numbers on the empty squares of the mined zone.
pub fn board_diagram(game: &AnyGame) -> String {
    with_game!(game, g, V => {
        use crate::geometry::Geometry;
        use crate::types::Square;
        let pos = &g.position;
        let ranks = <V as crate::variant::Variant>::G::RANKS;
        let border = " +---+---+---+---+---+---+---+---+\n";
        let mut s = String::from("\n");
        s.push_str(border);
        for rank in (0..ranks).rev() {
            for file in 0..8 {
                let sq = Square::new(file, rank);
                let c = pos.piece_at(sq).map_or_else(|| V::square_marker(pos, sq), |p| p.fen_char());
                s.push_str(&format!(" | {c}"));
            }
            s.push_str(&format!(" | {}\n", rank + 1));
            s.push_str(border);
        }
        s.push_str("   a   b   c   d   e   f   g   h\n\n");
        s
    })
}
