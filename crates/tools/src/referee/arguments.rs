//! What `sapper referee` and `sapper replay` are told: their clap options, the
//! parsers of the options' own syntax (`--tc`, `--sprt`, `--option1`), and the
//! [`MatchConfig`] the referee's workers play under, checked once before any engine
//! starts so that a typo fails at once rather than mid-match.

use std::path::PathBuf;
use std::time::Duration;

/// The default `--seed`.
pub const DEFAULT_SEED: u64 = 20_240_601;

/// `sapper referee` options.
#[derive(clap::Args, Clone, Debug)]
#[command(group = clap::ArgGroup::new("limit").multiple(false))]
pub struct RefereeArgs {
    /// First engine's command line (split on whitespace); default: this executable.
    #[arg(long, value_name = "CMD")]
    pub engine1: Option<String>,
    /// Second engine's command line; default: this executable.
    #[arg(long, value_name = "CMD")]
    pub engine2: Option<String>,
    /// First engine's name (default: the executable's file name).
    #[arg(long)]
    pub name1: Option<String>,
    /// Second engine's name.
    #[arg(long)]
    pub name2: Option<String>,
    /// UCI option for engine 1, sent as `setoption` (repeatable).
    #[arg(long = "option1", value_name = "NAME=VALUE")]
    pub option1: Vec<String>,
    /// UCI option for engine 2 (repeatable).
    #[arg(long = "option2", value_name = "NAME=VALUE")]
    pub option2: Vec<String>,
    /// Tell engine 1 where the hidden mines are: it is sent the full-information FEN
    /// and the moves, not the public position (an oracle, to measure what knowing
    /// the mines is worth; Sapper uses them with `--option1 "Mine Knowledge=full"`).
    #[arg(long)]
    pub reveal1: bool,
    /// Tell engine 2 where the hidden mines are (see `--reveal1`).
    #[arg(long)]
    pub reveal2: bool,
    /// Number of games (pairs of games share a mine layout).
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    /// Games played at once, each by its own pair of engine processes.
    #[arg(long, default_value_t = 2)]
    pub concurrency: usize,
    /// Clock: base seconds + increment seconds, e.g. `5+0.05` (the default is 10+0.1
    /// when no limit is given).
    #[arg(long, value_name = "BASE+INC", group = "limit")]
    pub tc: Option<String>,
    /// Fixed nodes per move.
    #[arg(long, group = "limit")]
    pub nodes: Option<u64>,
    /// Fixed time per move, milliseconds.
    #[arg(long, value_name = "MS", group = "limit")]
    pub movetime: Option<u64>,
    /// Seed of the mine layouts.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Plies after which a game is adjudicated a draw.
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// Milliseconds a move may overrun the clock (or the move time) without losing.
    #[arg(long, value_name = "MS", default_value_t = 50)]
    pub timemargin: u64,
    /// Seconds without `bestmove` after which an engine counts as hung (with
    /// `--nodes`; with a clock or a move time the limit itself is the deadline).
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    pub move_timeout: u64,
    /// Game records, JSON Lines (one object per game).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Stop when the pentanomial GSPRT (alpha = beta = 0.05) decides between
    /// ELO0 and ELO1, in normalized Elo as Fishtest and OpenBench use them.
    #[arg(long, value_name = "ELO0,ELO1")]
    pub sprt: Option<String>,
    /// Summary as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}

/// `sapper replay` options.
#[derive(clap::Args, Clone, Debug)]
pub struct ReplayArgs {
    /// Records written by `sapper referee --out`.
    #[arg(long, value_name = "FILE")]
    pub file: PathBuf,
    /// Only this game (its number in the record); default: every game.
    #[arg(long)]
    pub game: Option<u32>,
    /// Print the board after every move.
    #[arg(long)]
    pub verbose: bool,
}

/// A search limit per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// A clock per side: base and increment, milliseconds.
    Clock { base_ms: u64, inc_ms: u64 },
    /// `go nodes N`.
    Nodes(u64),
    /// `go movetime MS`.
    MoveTime(u64),
}

/// Parses a cutechess-style time control `BASE[+INC]` in seconds (`5+0.05`, `60`).
///
/// # Errors
/// A message for anything else.
pub fn parse_tc(text: &str) -> Result<Limit, String> {
    let seconds = |s: &str| -> Result<u64, String> {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0)
            .map(|v| (v * 1000.0).round() as u64)
            .ok_or_else(|| format!("--tc '{text}': expected BASE+INC in seconds, e.g. 5+0.05"))
    };
    let (base, inc) = match text.split_once('+') {
        Some((b, i)) => (seconds(b)?, seconds(i)?),
        None => (seconds(text)?, 0),
    };
    if base == 0 && inc == 0 {
        return Err(format!("--tc '{text}': the clock must not be empty"));
    }
    Ok(Limit::Clock {
        base_ms: base,
        inc_ms: inc,
    })
}

/// Parses `--sprt ELO0,ELO1`.
///
/// # Errors
/// A message unless both are numbers and ELO0 < ELO1.
pub fn parse_sprt(text: &str) -> Result<(f64, f64), String> {
    let bad = || format!("--sprt '{text}': expected ELO0,ELO1 with ELO0 < ELO1, e.g. 0,5");
    let (a, b) = text.split_once(',').ok_or_else(bad)?;
    let (a, b) = (
        a.trim().parse::<f64>().map_err(|_| bad())?,
        b.trim().parse::<f64>().map_err(|_| bad())?,
    );
    if a < b && a.is_finite() && b.is_finite() {
        Ok((a, b))
    } else {
        Err(bad())
    }
}

/// One engine of the match.
#[derive(Clone, Debug)]
pub(super) struct EngineSpec {
    /// The program and its arguments.
    pub(super) command: Vec<String>,
    /// The name in records and the summary (made distinct from the other's).
    pub(super) name: String,
    /// `setoption` pairs, in the order given; an empty value is a button.
    pub(super) options: Vec<(String, String)>,
    /// Sent the full-information position (`--reveal1`/`--reveal2`).
    pub(super) reveal: bool,
}

/// Everything a worker needs.
pub(super) struct MatchConfig {
    /// Engine 1 and engine 2.
    pub(super) engines: [EngineSpec; 2],
    /// Games to play (`--games`).
    pub(super) games: u32,
    /// The search limit per move.
    pub(super) limit: Limit,
    /// Seed of the mine layouts.
    pub(super) seed: u64,
    /// Plies after which a game is drawn.
    pub(super) max_plies: u32,
    /// How far a move may overrun its time (`--timemargin`).
    pub(super) margin: Duration,
    /// How long a `--nodes` search may take before the engine counts as hung.
    pub(super) move_timeout: Duration,
    /// The GSPRT's bounds in normalized Elo, if the match stops on it.
    pub(super) sprt: Option<(f64, f64)>,
    /// Games played at once.
    pub(super) concurrency: usize,
}

/// An engine's command line split on whitespace; `None` is this executable, so
/// that `sapper referee` alone plays Sapper against itself.
fn split_command(cmd: Option<&str>) -> Result<Vec<String>, String> {
    match cmd {
        Some(c) => {
            let parts: Vec<String> = c.split_whitespace().map(str::to_string).collect();
            if parts.is_empty() {
                Err("an engine command is empty".into())
            } else {
                Ok(parts)
            }
        }
        None => std::env::current_exe()
            .map(|p| vec![p.to_string_lossy().into_owned()])
            .map_err(|e| format!("cannot find this executable: {e}")),
    }
}

/// `--option1`/`--option2` values as (name, value) pairs; `flag` names the option
/// in the error.
fn parse_options(list: &[String], flag: &str) -> Result<Vec<(String, String)>, String> {
    list.iter()
        .map(|o| {
            o.split_once('=')
                .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
                .filter(|(n, _)| !n.is_empty())
                .ok_or_else(|| format!("{flag} '{o}': expected NAME=VALUE"))
        })
        .collect()
}

/// Checks `args` and fills in the defaults (names, the 10+0.1 clock).
///
/// # Errors
/// A message naming the option at fault.
pub(super) fn build_config(args: &RefereeArgs) -> Result<MatchConfig, String> {
    let commands = [
        split_command(args.engine1.as_deref())?,
        split_command(args.engine2.as_deref())?,
    ];
    let base = |c: &[String]| {
        std::path::Path::new(&c[0])
            .file_name()
            .map_or_else(|| c[0].clone(), |f| f.to_string_lossy().into_owned())
    };
    let mut names = [
        args.name1.clone().unwrap_or_else(|| base(&commands[0])),
        args.name2.clone().unwrap_or_else(|| base(&commands[1])),
    ];
    if names[0] == names[1] {
        names = [format!("{} (1)", names[0]), format!("{} (2)", names[1])];
    }
    let options = [
        parse_options(&args.option1, "--option1")?,
        parse_options(&args.option2, "--option2")?,
    ];
    let limit = match (&args.tc, args.nodes, args.movetime) {
        (Some(tc), _, _) => parse_tc(tc)?,
        (_, Some(n), _) => Limit::Nodes(n.max(1)),
        (_, _, Some(ms)) => Limit::MoveTime(ms.max(1)),
        _ => Limit::Clock {
            base_ms: 10_000,
            inc_ms: 100,
        },
    };
    let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
    if args.concurrency == 0 {
        return Err("--concurrency must be at least 1".into());
    }
    let [c1, c2] = commands;
    let [n1, n2] = names;
    let [o1, o2] = options;
    Ok(MatchConfig {
        engines: [
            EngineSpec {
                command: c1,
                name: n1,
                options: o1,
                reveal: args.reveal1,
            },
            EngineSpec {
                command: c2,
                name: n2,
                options: o2,
                reveal: args.reveal2,
            },
        ],
        games: args.games,
        limit,
        seed: args.seed,
        max_plies: args.max_plies,
        margin: Duration::from_millis(args.timemargin),
        move_timeout: Duration::from_secs(args.move_timeout.max(1)),
        sprt,
        concurrency: args.concurrency,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(
            parse_tc("5+0.05"),
            Ok(Limit::Clock {
                base_ms: 5000,
                inc_ms: 50
            })
        );
        assert_eq!(
            parse_tc("60"),
            Ok(Limit::Clock {
                base_ms: 60_000,
                inc_ms: 0
            })
        );
        assert!(parse_tc("5+x").is_err());
        assert!(parse_tc("0+0").is_err());
        assert_eq!(parse_sprt("0,5"), Ok((0.0, 5.0)));
        assert!(parse_sprt("5,0").is_err());
        assert!(parse_sprt("5").is_err());
    }
}
