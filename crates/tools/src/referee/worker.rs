//! Playing the games: each worker thread owns a pair of engine processes and plays
//! the next unplayed game until none is left, the match is stopped, or a game
//! cannot be played. The worker is the referee proper: it keeps the
//! full-information position, tells each engine only what it may know, checks
//! every answer and ends the game by the rules or by forfeit.

use super::arguments::{Limit, MatchConfig};
use super::engine_process::{EngineError, EngineProcess};
use super::record::{
    adjudicate, forfeit_result, layout_names, legal_move_from_uci, start_fen, GameRecord, Termination,
};
use rand::rngs::StdRng;
use rand::SeedableRng;
use sapper_rules::game::Game;
use sapper_rules::moves::{Move, MoveKind};
use sapper_rules::position::Position;
use sapper_rules::types::Color;
use sapper_rules::variant::minesweeper::public::{play_public, to_public};
use sapper_rules::variant::minesweeper::{zone_index, Minesweeper, ZONE_SIZE};
use sapper_rules::zobrist::splitmix64;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::Sender;
use std::time::Duration;

/// How long an engine may take to answer `uci`.
const UCI_TIMEOUT: Duration = Duration::from_secs(30);
/// How long an engine may take to answer `isready`.
const READY_TIMEOUT: Duration = Duration::from_secs(15);

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
pub(super) struct GameReport {
    /// What goes to `--out`.
    pub(super) record: GameRecord,
    /// The engine (0 or 1) that forfeited, if one did.
    pub(super) forfeiter: Option<usize>,
    /// Per engine (0 or 1): its pieces destroyed by mines in this game.
    pub(super) mine_losses: [u32; 2],
    /// Per engine: of those, the pieces that landed on a mine already discovered
    /// (in plain sight before the move).
    pub(super) mine_losses_in_sight: [u32; 2],
}

/// Runs one worker on the calling thread: claims game indices from `next` and
/// sends each report (or the error that kept a game from being played) to `tx`,
/// until the games run out, `stop` is set or the receiver is gone. A failed game
/// ends the worker too: its engines could not be started, and would not be for the
/// next game either. The engines quit when it returns.
pub(super) fn play_games(
    cfg: &MatchConfig,
    next: &AtomicU32,
    stop: &AtomicBool,
    tx: Sender<Result<GameReport, String>>,
) {
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
        let mut mine_losses_in_sight = [0; 2];
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
                        mine_losses_in_sight[idx] += u32::from(onto_discovered_mine(&before, p.m));
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
            mine_losses_in_sight,
        })
    }

    /// Quits both engines, giving each half a second before it is killed.
    fn quit(self) {
        for engine in self.engines.into_iter().flatten() {
            engine.quit(Duration::from_millis(500));
        }
    }
}

/// Whether `m`, played in `before` to reach `after`, landed a non-king piece on a
/// mine (docs/rules.md minesweeper 10): a mine left the board and the piece with it. A
/// king removes a mine and stays (rule 9); a sapper action removes one from the
/// square in front (rule 11).
fn destroyed_by_mine(before: &Position<Minesweeper>, m: Move, after: &Position<Minesweeper>) -> bool {
    m.kind() != MoveKind::Sapper
        && after.state().counter() < before.state().counter()
        && after.piece_at(m.to()).is_none()
}

/// Whether `m` lands on a mine that was discovered before it (in plain sight).
fn onto_discovered_mine(before: &Position<Minesweeper>, m: Move) -> bool {
    zone_index(m.to()).is_some_and(|i| before.state().discovered & (1 << i) != 0)
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
/// public information (docs/rules.md, Notation). Sending the moves lets engines see
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

#[cfg(test)]
mod tests {
    use super::*;

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

    /// The start position with mines on `squares` (full information).
    fn mined_start(squares: &[&str]) -> Position<Minesweeper> {
        let layout = squares.iter().fold(0u32, |mask, name| {
            let sq = sapper_rules::types::Square::parse(name, 10).unwrap();
            mask | 1 << sapper_rules::variant::minesweeper::zone_index(sq).unwrap()
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
    fn a_landing_on_a_discovered_mine_is_told_from_one_in_the_fog() {
        let pos = mined_start(&["a4", "c4", "e5", "h7"]);
        let a2a4 = legal_move_from_uci(&pos, "a2a4").unwrap();
        assert!(!onto_discovered_mine(&pos, a2a4), "a4's mine is still hidden");
        // b2b4 reveals a4 (and c4) as discovered mines; a2a3 then a3a4 walks onto one.
        let mut pos = pos;
        for text in ["b2b4", "b10c8", "a2a3", "c8b10"] {
            let m = legal_move_from_uci(&pos, text).unwrap();
            pos.play(m);
        }
        let a3a4 = legal_move_from_uci(&pos, "a3a4").unwrap();
        assert!(onto_discovered_mine(&pos, a3a4));
        let b4b5 = legal_move_from_uci(&pos, "b4b5").unwrap();
        assert!(!onto_discovered_mine(&pos, b4b5));
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
