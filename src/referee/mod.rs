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

pub mod engine_process;
pub mod record;

use crate::game::Game;
use crate::minesweeper::public::{play_public, to_public};
use crate::minesweeper::{Minesweeper, ZONE_SIZE};
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::stats::{self, Pentanomial, SprtDecision};
use crate::types::Color;
use crate::zobrist::splitmix64;
use engine_process::{EngineError, EngineProcess};
use rand::rngs::StdRng;
use rand::SeedableRng;
use record::{
    adjudicate, forfeit_result, layout_names, legal_move_from_uci, start_fen, GameRecord, Termination,
};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// The default `--seed`.
pub const DEFAULT_SEED: u64 = 20_240_601;

/// How long an engine may take to answer `uci`.
const UCI_TIMEOUT: Duration = Duration::from_secs(30);
/// How long an engine may take to answer `isready`.
const READY_TIMEOUT: Duration = Duration::from_secs(15);

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
struct EngineSpec {
    command: Vec<String>,
    name: String,
    options: Vec<(String, String)>,
    /// Sent the full-information position (`--reveal1`/`--reveal2`).
    reveal: bool,
}

/// Everything a worker needs.
struct MatchConfig {
    engines: [EngineSpec; 2],
    games: u32,
    limit: Limit,
    seed: u64,
    max_plies: u32,
    margin: Duration,
    move_timeout: Duration,
    sprt: Option<(f64, f64)>,
    concurrency: usize,
}

/// The mine layout of pair `pair` (from 0) under `seed`: four distinct zone squares,
/// uniform, as a zone mask. Depends only on `seed` and `pair`, not on the order in
/// which games finish.
pub fn pair_layout(seed: u64, pair: u32) -> u32 {
    let mut rng = StdRng::seed_from_u64(splitmix64(seed ^ splitmix64(u64::from(pair))));
    rand::seq::index::sample(&mut rng, ZONE_SIZE, 4)
        .iter()
        .fold(0u32, |mask, i| mask | (1 << i))
}

/// A finished game, as a worker reports it.
struct GameReport {
    record: GameRecord,
    /// The engine (0 or 1) that forfeited, if one did.
    forfeiter: Option<usize>,
    /// Per engine (0 or 1): its pieces destroyed by mines in this game.
    mine_losses: [u32; 2],
}

/// What the side to move did.
enum Answer {
    Played(Played),
    Forfeit {
        termination: Termination,
        detail: String,
        /// Kill the engine (it may still be thinking, or is dead).
        discard: bool,
    },
}

/// A legal move and its thinking time.
struct Played {
    m: Move,
    elapsed_ms: u64,
}

/// A worker: plays games one after another with its own two engine processes.
struct Worker<'a> {
    cfg: &'a MatchConfig,
    engines: [Option<EngineProcess>; 2],
}

impl Worker<'_> {
    /// Starts and configures engine `idx`.
    fn start_engine(&self, idx: usize) -> Result<EngineProcess, String> {
        let spec = &self.cfg.engines[idx];
        let fail = |e: EngineError| format!("{}: {e}", spec.name);
        let mut engine = EngineProcess::start(&spec.command, &spec.name).map_err(fail)?;
        engine.handshake(UCI_TIMEOUT).map_err(fail)?;
        let offers_minesweeper = engine
            .option("UCI_Variant")
            .is_some_and(|o| o.vars.iter().any(|v| v == "minesweeper"));
        if !offers_minesweeper {
            return Err(format!(
                "{}: the engine does not offer UCI_Variant minesweeper",
                spec.name
            ));
        }
        for (name, value) in &spec.options {
            if engine.option(name).is_none() {
                return Err(format!("{}: the engine has no option '{name}'", spec.name));
            }
            // A button (`--option1 "Clear Hash="`) has no value.
            let line = if value.is_empty() {
                format!("setoption name {name}")
            } else {
                format!("setoption name {name} value {value}")
            };
            engine.send(&line).map_err(fail)?;
        }
        engine
            .send("setoption name UCI_Variant value minesweeper")
            .map_err(fail)?;
        let said = engine.sync(READY_TIMEOUT).map_err(fail)?;
        if let Some(err) = said.iter().find(|l| l.starts_with("info string error")) {
            return Err(format!("{}: setting the options failed: {err}", spec.name));
        }
        Ok(engine)
    }

    /// Makes engine `idx` ready for a new game, restarting it if it died.
    fn new_game(&mut self, idx: usize) -> Result<(), String> {
        if let Some(engine) = self.engines[idx].as_mut() {
            if engine.send("ucinewgame").is_ok() && engine.sync(READY_TIMEOUT).is_ok() {
                return Ok(());
            }
            self.engines[idx] = None;
        }
        let mut engine = self.start_engine(idx)?;
        let spec = &self.cfg.engines[idx];
        engine
            .send("ucinewgame")
            .and_then(|()| engine.sync(READY_TIMEOUT).map(drop))
            .map_err(|e| format!("{}: {e}", spec.name))?;
        self.engines[idx] = Some(engine);
        Ok(())
    }

    /// Asks engine `idx` for a move in `pos` (given to it as the `position`
    /// command's arguments `position`), with `clocks` (White, Black; ms).
    fn ask(&mut self, idx: usize, pos: &Position<Minesweeper>, position: &str, clocks: &[u64; 2]) -> Answer {
        let cfg = self.cfg;
        let engine = self.engines[idx].as_mut().expect("engine started for the game");
        let side = pos.side_to_move();
        let (go, allowed) = match cfg.limit {
            Limit::Clock { inc_ms, .. } => (
                format!(
                    "wtime {} btime {} winc {inc_ms} binc {inc_ms}",
                    clocks[0], clocks[1]
                ),
                Some(clocks[side.index()]),
            ),
            Limit::Nodes(n) => (format!("nodes {n}"), None),
            Limit::MoveTime(ms) => (format!("movetime {ms}"), Some(ms)),
        };
        let deadline = match allowed {
            Some(ms) => Duration::from_millis(ms) + cfg.margin,
            None => cfg.move_timeout,
        };
        let fen = pos.to_public_fen();
        let answer = match engine.think(position, &go, deadline) {
            Ok(a) => a,
            Err(e) => {
                let termination = match e {
                    EngineError::Timeout(_) => Termination::TimeForfeit,
                    _ => Termination::Crash,
                };
                let detail = match (termination, allowed) {
                    (Termination::TimeForfeit, Some(ms)) => {
                        format!(
                            "{side:?} had {ms} ms and sent no move within the {} ms margin",
                            cfg.margin.as_millis()
                        )
                    }
                    (Termination::TimeForfeit, None) => {
                        format!("{side:?} sent no move in {} s (hung)", cfg.move_timeout.as_secs())
                    }
                    _ => e.to_string(),
                };
                return Answer::Forfeit {
                    termination,
                    detail,
                    discard: true,
                };
            }
        };
        let elapsed_ms = answer.elapsed.as_millis() as u64;
        if let Some(ms) = allowed {
            if answer.elapsed > Duration::from_millis(ms) + cfg.margin {
                return Answer::Forfeit {
                    termination: Termination::TimeForfeit,
                    detail: format!("{side:?} used {elapsed_ms} ms of {ms} ms"),
                    discard: false,
                };
            }
        }
        if answer.text == "(none)" || answer.text == "0000" {
            return Answer::Forfeit {
                termination: Termination::NoMove,
                detail: format!("bestmove {} with legal moves in {fen}", answer.text),
                discard: false,
            };
        }
        match legal_move_from_uci(pos, &answer.text) {
            Some(m) => Answer::Played(Played { m, elapsed_ms }),
            None => {
                let mut detail = format!("illegal move '{}' in {fen}", answer.text);
                if let Some(said) = answer.info_strings.iter().find(|l| l.contains("error")) {
                    detail.push_str(&format!(" (the engine said: {said})"));
                }
                Answer::Forfeit {
                    termination: Termination::IllegalMove,
                    detail,
                    discard: false,
                }
            }
        }
    }

    /// Plays game `index` (from 0).
    fn play(&mut self, index: u32) -> Result<GameReport, String> {
        let cfg = self.cfg;
        let pair = index / 2;
        // Engine 1 has White in the first game of a pair.
        let white_engine = (index % 2) as usize;
        let engine_of = |c: Color| {
            if c == Color::White {
                white_engine
            } else {
                1 - white_engine
            }
        };
        let layout = pair_layout(cfg.seed, pair);
        let fen = start_fen(layout);
        let (start, _) =
            Position::<Minesweeper>::from_fen(&fen).map_err(|e| format!("internal: start FEN {fen}: {e}"))?;
        self.new_game(0)?;
        self.new_game(1)?;
        let mut game = Game::new(start);
        let mut line = PublicLine::new(to_public(&start));
        let mut clocks = match cfg.limit {
            Limit::Clock { base_ms, .. } => [base_ms; 2],
            _ => [0; 2],
        };
        let mut times = Vec::new();
        let mut forfeiter = None;
        let mut detail = None;
        let mut mine_losses = [0; 2];
        let (result, termination) = loop {
            if let Some(end) = adjudicate(&game, cfg.max_plies) {
                break end;
            }
            let side = game.position.side_to_move();
            let idx = engine_of(side);
            let position = if cfg.engines[idx].reveal {
                full_information_line(&game)
            } else {
                line.uci_position()
            };
            match self.ask(idx, &game.position, &position, &clocks) {
                Answer::Played(p) => {
                    if let Limit::Clock { inc_ms, .. } = cfg.limit {
                        let clock = &mut clocks[side.index()];
                        *clock = clock.saturating_sub(p.elapsed_ms) + inc_ms;
                    }
                    let before = game.position;
                    game.play(p.m);
                    if destroyed_by_mine(&before, p.m, &game.position) {
                        mine_losses[idx] += 1;
                    }
                    line.push(p.m, &game.position);
                    times.push(p.elapsed_ms);
                }
                Answer::Forfeit {
                    termination,
                    detail: why,
                    discard,
                } => {
                    if discard {
                        self.engines[idx] = None;
                    }
                    forfeiter = Some(idx);
                    detail = Some(format!("{}: {why}", cfg.engines[idx].name));
                    break (forfeit_result(&game.position, termination), termination);
                }
            }
        };
        let name = |c: Color| cfg.engines[engine_of(c)].name.clone();
        Ok(GameReport {
            record: GameRecord {
                game: index + 1,
                pair: pair + 1,
                white: name(Color::White),
                black: name(Color::Black),
                white_engine: white_engine as u8 + 1,
                seed: cfg.seed,
                layout: layout_names(layout),
                start_fen: fen,
                moves: game.moves.iter().map(ToString::to_string).collect(),
                result,
                termination,
                detail,
                times_ms: times,
                max_plies: cfg.max_plies,
            },
            forfeiter,
            mine_losses,
        })
    }

    fn quit(self) {
        for engine in self.engines.into_iter().flatten() {
            engine.quit(Duration::from_millis(500));
        }
    }
}

/// Whether `m`, played in `before` to reach `after`, landed a non-king piece on a
/// mine (RULES.md minesweeper 10): a mine left the board and the piece with it. A
/// king removes a mine and stays (rule 9); a sapper action removes one from the
/// square in front (rule 11).
fn destroyed_by_mine(before: &Position<Minesweeper>, m: Move, after: &Position<Minesweeper>) -> bool {
    m.kind() != MoveKind::Sapper
        && after.state().counter() < before.state().counter()
        && after.piece_at(m.to()).is_none()
}

/// The `position` command's arguments for an oracle (`--reveal1`): the
/// full-information start FEN, mines included, and every move since.
fn full_information_line(game: &Game<Minesweeper>) -> String {
    position_arguments(&game.start.to_fen(), &game.moves)
}

/// The `position` command's arguments `fen FEN [moves M1 M2 ...]`.
fn position_arguments(fen: &str, moves: &[Move]) -> String {
    let mut text = format!("fen {fen}");
    if !moves.is_empty() {
        text.push_str(" moves");
        for m in moves {
            text.push_str(&format!(" {m}"));
        }
    }
    text
}

/// What an engine is told of the game: the public position after the last move
/// whose outcome depended on hidden mines, and the moves since, all determined by
/// public information (RULES.md, Notation). Sending the moves lets engines see
/// repetitions; a fresh FEN alone would hide them.
struct PublicLine {
    start: Position<Minesweeper>,
    moves: Vec<Move>,
    current: Position<Minesweeper>,
}

impl PublicLine {
    fn new(public: Position<Minesweeper>) -> PublicLine {
        PublicLine {
            start: public,
            moves: Vec::new(),
            current: public,
        }
    }

    /// Records `m`, after which the true position is `after`.
    fn push(&mut self, m: Move, after: &Position<Minesweeper>) {
        let expected = to_public(after);
        match play_public(&self.current, m) {
            Ok(next) if next == expected => {
                self.moves.push(m);
                self.current = next;
            }
            _ => *self = PublicLine::new(expected),
        }
    }

    /// The `position` command's arguments.
    fn uci_position(&self) -> String {
        position_arguments(&self.start.to_public_fen(), &self.moves)
    }
}

/// Engine 1's tally.
#[derive(Default)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
    /// Per pair (from 0): engine 1's score in its two games.
    pairs: HashMap<u32, [Option<f64>; 2]>,
    penta: Pentanomial,
    /// Per engine: forfeit termination -> count.
    forfeits: [BTreeMap<Termination, u32>; 2],
    terminations: BTreeMap<Termination, u32>,
    /// Per engine: pieces destroyed by mines, and games in which it lost any.
    mine_losses: [u32; 2],
    mine_loss_games: [u32; 2],
}

impl Tally {
    /// Adds a game; returns true when it completed a pair.
    fn add(&mut self, report: &GameReport) -> bool {
        let r = &report.record;
        let engine1_color = if r.white_engine == 1 {
            Color::White
        } else {
            Color::Black
        };
        let score = r.result.score_for(engine1_color);
        match score {
            s if s > 0.75 => self.wins += 1,
            s if s < 0.25 => self.losses += 1,
            _ => self.draws += 1,
        }
        *self.terminations.entry(r.termination).or_default() += 1;
        for (idx, &lost) in report.mine_losses.iter().enumerate() {
            self.mine_losses[idx] += lost;
            self.mine_loss_games[idx] += u32::from(lost > 0);
        }
        if let Some(idx) = report.forfeiter {
            *self.forfeits[idx].entry(r.termination).or_default() += 1;
        }
        let slot = self.pairs.entry(r.pair - 1).or_default();
        slot[((r.game - 1) % 2) as usize] = Some(score);
        if let [Some(a), Some(b)] = *slot {
            self.penta[stats::pair_bucket(a, b)] += 1;
            return true;
        }
        false
    }

    fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    fn forfeit_total(&self, t: Termination) -> u32 {
        self.forfeits
            .iter()
            .map(|f| f.get(&t).copied().unwrap_or(0))
            .sum()
    }
}

/// The SPRT's state, for output.
#[derive(Clone, Copy, Debug, Serialize)]
struct SprtState {
    elo0: f64,
    elo1: f64,
    llr: f64,
    lower: f64,
    upper: f64,
    decision: &'static str,
}

fn sprt_state((elo0, elo1): (f64, f64), penta: &Pentanomial) -> SprtState {
    let (lower, upper) = stats::sprt_bounds(0.05, 0.05);
    let llr = stats::llr_normalized(elo0, elo1, penta);
    SprtState {
        elo0,
        elo1,
        llr,
        lower,
        upper,
        decision: match stats::sprt_decision(llr, (lower, upper)) {
            SprtDecision::Continue => "continue",
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
        },
    }
}

/// The `--json` summary (non-finite numbers are `null`).
#[derive(Serialize)]
struct Summary {
    engine1: String,
    engine2: String,
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    score: Option<f64>,
    elo: Option<f64>,
    elo_error95: Option<f64>,
    pairs: u32,
    pentanomial: Pentanomial,
    elo_pentanomial: Option<f64>,
    elo_error95_pentanomial: Option<f64>,
    nelo_pentanomial: Option<f64>,
    illegal: u32,
    crashes: u32,
    no_move: u32,
    time_losses: u32,
    forfeits: BTreeMap<String, BTreeMap<String, u32>>,
    terminations: BTreeMap<String, u32>,
    /// Per engine name: pieces destroyed by mines.
    mine_losses: BTreeMap<String, u32>,
    /// Per engine name: games in which it lost a piece to a mine.
    mine_loss_games: BTreeMap<String, u32>,
    sprt: Option<SprtState>,
    aborted: Option<String>,
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

fn signed(x: f64) -> String {
    if x.is_nan() {
        "n/a".into()
    } else if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.into()
    } else {
        format!("{x:+.1}")
    }
}

fn plain(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.1}")
    } else {
        "inf".into()
    }
}

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

fn build_config(args: &RefereeArgs) -> Result<MatchConfig, String> {
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
            scope.spawn(move || {
                let mut worker = Worker {
                    cfg,
                    engines: [None, None],
                };
                while !stop.load(Ordering::SeqCst) {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= cfg.games {
                        break;
                    }
                    let report = worker.play(index);
                    let failed = report.is_err();
                    if tx.send(report).is_err() || failed {
                        break;
                    }
                }
                worker.quit();
            });
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
        let text = serde_json::to_string_pretty(&summary).expect("the summary serialises");
        if let Err(e) = std::fs::write(path, text + "\n") {
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

fn summarize(cfg: &MatchConfig, t: &Tally, sprt: Option<SprtState>, aborted: Option<String>) -> Summary {
    let tri = stats::trinomial(t.wins, t.draws, t.losses);
    let penta = stats::pentanomial(&t.penta);
    let names = |m: &BTreeMap<Termination, u32>| -> BTreeMap<String, u32> {
        m.iter().map(|(k, v)| (k.as_str().to_string(), *v)).collect()
    };
    Summary {
        engine1: cfg.engines[0].name.clone(),
        engine2: cfg.engines[1].name.clone(),
        games: t.games(),
        wins: t.wins,
        draws: t.draws,
        losses: t.losses,
        score: tri.map(|e| e.score),
        elo: tri.and_then(|e| finite(e.elo)),
        elo_error95: tri.and_then(|e| finite(e.error)),
        pairs: t.penta.iter().sum(),
        pentanomial: t.penta,
        elo_pentanomial: penta.and_then(|e| finite(e.elo)),
        elo_error95_pentanomial: penta.and_then(|e| finite(e.error)),
        nelo_pentanomial: stats::normalized_elo(&t.penta).and_then(finite),
        illegal: t.forfeit_total(Termination::IllegalMove),
        crashes: t.forfeit_total(Termination::Crash),
        no_move: t.forfeit_total(Termination::NoMove),
        time_losses: t.forfeit_total(Termination::TimeForfeit),
        forfeits: (0..2)
            .map(|i| (cfg.engines[i].name.clone(), names(&t.forfeits[i])))
            .collect(),
        terminations: names(&t.terminations),
        mine_losses: (0..2)
            .map(|i| (cfg.engines[i].name.clone(), t.mine_losses[i]))
            .collect(),
        mine_loss_games: (0..2)
            .map(|i| (cfg.engines[i].name.clone(), t.mine_loss_games[i]))
            .collect(),
        sprt,
        aborted,
    }
}

fn print_summary(s: &Summary, t: &Tally) {
    let tri = stats::trinomial(t.wins, t.draws, t.losses);
    let score = tri.map_or("n/a".to_string(), |e| format!("{:.1}%", e.score * 100.0));
    println!(
        "Score of {} vs {}: {} - {} - {} (W-D-L) [{score}] in {} games",
        s.engine1, s.engine2, s.wins, s.draws, s.losses, s.games
    );
    match tri {
        Some(e) => println!(
            "Elo difference: {} +/- {} (95%, trinomial)",
            signed(e.elo),
            plain(e.error)
        ),
        None => println!("Elo difference: n/a"),
    }
    let penta_text = match stats::pentanomial(&t.penta) {
        Some(e) => format!(
            "Elo {} +/- {} (95%), nElo {}",
            signed(e.elo),
            plain(e.error),
            stats::normalized_elo(&t.penta).map_or("n/a".into(), signed)
        ),
        None => "Elo n/a".into(),
    };
    println!(
        "Pentanomial [0, 0.5, 1, 1.5, 2]: {:?} over {} pairs, {penta_text}",
        t.penta, s.pairs
    );
    if let Some(sp) = &s.sprt {
        println!(
            "SPRT nElo [{:.2}, {:.2}] (alpha = beta = 0.05): LLR {:.3} ({:.3}, {:.3}): {}",
            sp.elo0, sp.elo1, sp.llr, sp.lower, sp.upper, sp.decision
        );
    }
    let per_engine: Vec<String> = s
        .forfeits
        .iter()
        .map(|(name, m)| {
            let list: Vec<String> = m.iter().map(|(k, v)| format!("{k} {v}")).collect();
            format!(
                "{name}: {}",
                if list.is_empty() {
                    "none".into()
                } else {
                    list.join(", ")
                }
            )
        })
        .collect();
    println!(
        "Forfeits: illegal moves {}, crashes {}, no move {}, time losses {} ({})",
        s.illegal,
        s.crashes,
        s.no_move,
        s.time_losses,
        per_engine.join("; ")
    );
    let mut terms: Vec<(Termination, u32)> = t.terminations.iter().map(|(k, v)| (*k, *v)).collect();
    terms.sort_by_key(|&(k, v)| (std::cmp::Reverse(v), k));
    let terms: Vec<String> = terms.iter().map(|(k, v)| format!("{k} {v}")).collect();
    println!(
        "Terminations: {}",
        if terms.is_empty() {
            "none".into()
        } else {
            terms.join(", ")
        }
    );
    let losses: Vec<String> = s
        .mine_losses
        .iter()
        .map(|(name, n)| format!("{name} {n} in {} games", s.mine_loss_games[name]))
        .collect();
    println!("Pieces destroyed by mines: {}", losses.join(", "));
    if let Some(why) = &s.aborted {
        println!("Match aborted: {why}");
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

#[cfg(test)]
mod tests {
    use super::*;
    use record::GameResult;

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

    #[test]
    fn layouts_are_four_distinct_zone_squares_and_reproducible() {
        let mut seen = std::collections::HashSet::new();
        for pair in 0..200 {
            let l = pair_layout(7, pair);
            assert_eq!(l.count_ones(), 4);
            assert_eq!(l, pair_layout(7, pair));
            seen.insert(l);
        }
        assert!(seen.len() > 190);
        assert_ne!(pair_layout(7, 0), pair_layout(8, 0));
    }

    #[test]
    fn the_tally_scores_pairs_from_engine_one_s_view() {
        let make = |game: u32, white_engine: u8, result: GameResult| GameReport {
            record: GameRecord {
                game,
                pair: game.div_ceil(2),
                white: String::new(),
                black: String::new(),
                white_engine,
                seed: 0,
                layout: vec![],
                start_fen: String::new(),
                moves: vec![],
                result,
                termination: Termination::Checkmate,
                detail: None,
                times_ms: vec![],
                max_plies: 400,
            },
            forfeiter: None,
            mine_losses: [game % 2, game / 2],
        };
        let mut t = Tally::default();
        // Engine 1 wins with White, then wins with Black: WW.
        assert!(!t.add(&make(1, 1, GameResult::WhiteWins)));
        assert!(t.add(&make(2, 2, GameResult::BlackWins)));
        // Engine 1 draws, then loses with Black: LD.
        assert!(!t.add(&make(4, 2, GameResult::WhiteWins)));
        assert!(t.add(&make(3, 1, GameResult::Draw)));
        assert_eq!((t.wins, t.draws, t.losses), (2, 1, 1));
        assert_eq!(t.penta, [0, 1, 0, 0, 1]);
        // Mine losses per engine: games 1-4 lost [1, 0], [0, 1], [1, 1], [0, 2].
        assert_eq!(t.mine_losses, [2, 4]);
        assert_eq!(t.mine_loss_games, [2, 3]);
    }

    /// The start position with mines on `squares` (full information).
    fn mined_start(squares: &[&str]) -> Position<Minesweeper> {
        let layout = squares.iter().fold(0u32, |mask, name| {
            let sq = crate::types::Square::parse(name, 10).unwrap();
            mask | 1 << crate::minesweeper::zone_index(sq).unwrap()
        });
        Position::<Minesweeper>::from_fen(&start_fen(layout)).unwrap().0
    }

    #[test]
    fn a_piece_landing_on_a_mine_is_counted_and_a_sapper_find_is_not() {
        let pos = mined_start(&["a4", "c4", "e5", "h7"]);
        let play = |pos: &Position<Minesweeper>, text: &str| {
            let m = legal_move_from_uci(pos, text).unwrap();
            let mut after = *pos;
            after.play(m);
            (m, after)
        };
        let (m, after) = play(&pos, "a2a4");
        assert!(
            destroyed_by_mine(&pos, m, &after),
            "the pawn lands on the mine of a4"
        );
        let (m, after) = play(&pos, "b2b4");
        assert!(!destroyed_by_mine(&pos, m, &after), "no mine on b4");
        // White's c-pawn reaches c3; its sapper action then removes the mine of c4.
        let (_, pos) = play(&pos, "c2c3");
        let (_, pos) = play(&pos, "h9h8");
        let sapper = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.kind() == MoveKind::Sapper && m.from().to_string() == "c3")
            .expect("c3's sapper action");
        let mut after = pos;
        after.play(sapper);
        assert_eq!(after.state().counter() + 1, pos.state().counter());
        assert!(!destroyed_by_mine(&pos, sapper, &after));
    }

    #[test]
    fn an_oracle_is_sent_the_mines_and_every_move() {
        let start = mined_start(&["a4", "c4", "e5", "h7"]);
        let mut game = Game::new(start);
        for text in ["a2a4", "e9e7", "g1f3"] {
            game.play_uci(text).unwrap();
        }
        let line = full_information_line(&game);
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "moves").unwrap();
        assert_eq!(words[0], "fen");
        assert_eq!(words[at + 1..], ["a2a4", "e9e7", "g1f3"]);
        let fen = words[1..at].join(" ");
        let (replayed, _) = Game::<Minesweeper>::from_spec(Some(&fen), &words[at + 1..]).unwrap();
        assert_eq!(replayed.position, game.position);
        // The mines the oracle is told are the ones still on the board.
        assert_eq!(replayed.position.state().mines(), game.position.state().mines());
        assert_eq!(game.position.state().counter(), 3, "a4's mine destroyed the pawn");
    }
}
