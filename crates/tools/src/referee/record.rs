//! Game records of `sapper referee` (JSON Lines, one object per game), the rules
//! that end a game, and `sapper replay`, which checks a record against the rules.

use sapper_engine::display::board_text;
use sapper_rules::bitboard::BitBoard;
use sapper_rules::game::{AnyGame, Game};
use sapper_rules::moves::Move;
use sapper_rules::position::Position;
pub use sapper_rules::result::GameResult;
use sapper_rules::types::Square;
use sapper_rules::variant::minesweeper::{zone_square, Minesweeper, ZONE_SIZE};
use sapper_rules::variant::Outcome;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io::Write;
use std::path::Path;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Termination {
    /// The side to move is checkmated.
    #[serde(rename = "checkmate")]
    Checkmate,
    /// The side to move has no legal move and is not in check.
    #[serde(rename = "stalemate")]
    Stalemate,
    /// Bare kings, or kings and a single knight or bishop (dead position).
    #[serde(rename = "drawn material")]
    DrawnMaterial,
    /// The position occurred for the third time.
    #[serde(rename = "threefold repetition")]
    Threefold,
    /// The move limit (`--max-plies`) was reached.
    #[serde(rename = "max plies")]
    MaxPlies,
    /// The side to move overran its clock or hung.
    #[serde(rename = "time forfeit")]
    TimeForfeit,
    /// The side to move sent an illegal or unparsable move.
    #[serde(rename = "illegal move")]
    IllegalMove,
    /// The side to move's engine died or broke the protocol.
    #[serde(rename = "crash")]
    Crash,
    /// The side to move answered `bestmove (none)` or `0000` with legal moves.
    #[serde(rename = "no move")]
    NoMove,
}

impl Termination {
    /// All terminations, in display order.
    pub const ALL: [Termination; 9] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::DrawnMaterial,
        Termination::Threefold,
        Termination::MaxPlies,
        Termination::TimeForfeit,
        Termination::IllegalMove,
        Termination::Crash,
        Termination::NoMove,
    ];

    /// The name used in records and output.
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::DrawnMaterial => "drawn material",
            Termination::Threefold => "threefold repetition",
            Termination::MaxPlies => "max plies",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Crash => "crash",
            Termination::NoMove => "no move",
        }
    }

    /// Whether the side to move lost by misbehaving rather than by the rules.
    pub fn is_forfeit(self) -> bool {
        matches!(
            self,
            Termination::TimeForfeit | Termination::IllegalMove | Termination::Crash | Termination::NoMove
        )
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

fn default_max_plies() -> u32 {
    400
}

/// One game, as written to `--out` (one JSON object per line).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Game number, from 1.
    pub game: u32,
    /// Pair number, from 1: games `2p - 1` and `2p` share a mine layout.
    pub pair: u32,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// Which engine (1 or 2) had White.
    pub white_engine: u8,
    /// The match seed; the layout is `referee::pair_layout(seed, pair - 1)`.
    pub seed: u64,
    /// The four mine squares.
    pub layout: Vec<String>,
    /// The start position, full-information form (`M` for the mines).
    pub start_fen: String,
    /// The moves played, UCI.
    pub moves: Vec<String>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: GameResult,
    /// Why the game ended.
    pub termination: Termination,
    /// What went wrong, for forfeits (the illegal move, the clock, the crash).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Thinking time of each move in `moves`, milliseconds.
    pub times_ms: Vec<u64>,
    /// The move limit the game was played under.
    #[serde(default = "default_max_plies")]
    pub max_plies: u32,
}

/// The legal move of `pos` written `text` in UCI (docs/rules.md, Notation): its canonical
/// form (`e2e4`, `e9e10q`, castling as the king's move `e1g1`, the sapper action
/// `e4e4`), or a promotion without its `q`. `None` for anything else.
///
/// The referee matches against the legal moves' own spelling rather than calling
/// `notation::parse_uci_move`, which (at the time of writing) misreads every move
/// that ends on rank 10 without a suffix (`e10g10`, `d1d10`): it splits `e10g10` as
/// `e10`, `g1` and a promotion letter `0`.
pub fn legal_move_from_uci(pos: &Position<Minesweeper>, text: &str) -> Option<Move> {
    let legal = pos.legal_moves();
    let found = legal.iter().copied().find(|m| m.to_string() == text);
    found.or_else(|| {
        legal
            .iter()
            .copied()
            .find(|m| m.promotion_role().is_some() && m.to_string() == format!("{text}q"))
    })
}

/// The result by the rules of a game that has not been forfeited: checkmate,
/// stalemate, dead position, threefold repetition, or the move limit; `None` while
/// play continues. Minesweeper has no 50-move rule.
pub fn adjudicate(game: &Game<Minesweeper>, max_plies: u32) -> Option<(GameResult, Termination)> {
    let pos = &game.position;
    match pos.outcome() {
        Some(Outcome::Decisive { winner }) => {
            return Some((GameResult::win_for(winner), Termination::Checkmate))
        }
        Some(Outcome::Draw) => return Some((GameResult::Draw, Termination::Stalemate)),
        None => {}
    }
    if pos.is_drawn_material() {
        return Some((GameResult::Draw, Termination::DrawnMaterial));
    }
    if game.is_threefold() {
        return Some((GameResult::Draw, Termination::Threefold));
    }
    if game.moves.len() >= max_plies as usize {
        return Some((GameResult::Draw, Termination::MaxPlies));
    }
    None
}

/// The result when the side to move in `pos` forfeits by `termination`: a loss,
/// except that losing on time against a bare king is a draw.
pub fn forfeit_result(pos: &Position<Minesweeper>, termination: Termination) -> GameResult {
    let loser = pos.side_to_move();
    if termination == Termination::TimeForfeit && pos.color(!loser).count() == 1 {
        GameResult::Draw
    } else {
        GameResult::win_for(!loser)
    }
}

/// The full-information start position with mines on the zone squares of `layout`
/// (a zone mask; bit 0 is a4, bit 31 is h7): the standard start with the minefield
/// field written with `M` for a mine and `?` elsewhere.
pub fn start_fen(layout: u32) -> String {
    let mut field = String::new();
    for zone_rank in (0..4).rev() {
        for file in 0..8 {
            field.push(if layout & (1 << (zone_rank * 8 + file)) != 0 {
                'M'
            } else {
                '?'
            });
        }
        if zone_rank > 0 {
            field.push('/');
        }
    }
    format!(
        "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 {field} {}",
        layout.count_ones()
    )
}

/// The names of the zone squares in `mask`, a4 first.
pub fn layout_names(mask: u32) -> Vec<String> {
    (0..ZONE_SIZE)
        .filter(|i| mask & (1 << i) != 0)
        .map(|i| zone_square(i).to_string())
        .collect()
}

/// Reads a JSON Lines file of records (blank lines skipped).
///
/// # Errors
/// A message naming the file and line that could not be read.
pub fn load(path: &Path) -> Result<Vec<GameRecord>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| serde_json::from_str(l).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1)))
        .collect()
}

/// Replays `record` from its start FEN, checking that it is consistent with the
/// rules: the start is full-information with the recorded layout, every move is
/// legal, the game was not already over before its last move, and the recorded
/// result and termination are what the final position (or the forfeit) gives.
/// `visit` sees the game after each move (and once at the start, with no moves).
///
/// # Errors
/// A message saying what is inconsistent, and where.
pub fn replay(
    record: &GameRecord,
    mut visit: impl FnMut(&Game<Minesweeper>),
) -> Result<Game<Minesweeper>, String> {
    let (start, _) = Position::<Minesweeper>::from_fen(&record.start_fen)
        .map_err(|e| format!("start_fen '{}': {e}", record.start_fen))?;
    let Some(mines) = start.state().mines() else {
        return Err(format!(
            "start_fen '{}' is not full-information (no M)",
            record.start_fen
        ));
    };
    let mut layout = 0u32;
    for name in &record.layout {
        let sq = Square::parse(name, 10).ok_or_else(|| format!("layout square '{name}' is not a square"))?;
        let i = sapper_rules::variant::minesweeper::zone_index(sq)
            .ok_or_else(|| format!("layout square {name} is outside the fog zone"))?;
        layout |= 1 << i;
    }
    if layout != mines || record.layout.len() != mines.count_ones() as usize {
        return Err(format!(
            "layout [{}] does not match the mines of start_fen [{}]",
            record.layout.join(" "),
            layout_names(mines).join(" ")
        ));
    }
    if record.times_ms.len() != record.moves.len() {
        return Err(format!(
            "{} moves but {} move times",
            record.moves.len(),
            record.times_ms.len()
        ));
    }
    let mut game = Game::new(start);
    visit(&game);
    for (ply, text) in record.moves.iter().enumerate() {
        if let Some((_, why)) = adjudicate(&game, record.max_plies) {
            return Err(format!(
                "the game was over ({why}) before ply {} ({text})",
                ply + 1
            ));
        }
        let m = legal_move_from_uci(&game.position, text).ok_or_else(|| {
            format!(
                "ply {} ({text}): not a legal move in {}",
                ply + 1,
                game.position.to_fen()
            )
        })?;
        game.play(m);
        visit(&game);
    }
    let expected = match adjudicate(&game, record.max_plies) {
        Some((result, termination)) => {
            if record.termination != termination {
                return Err(format!(
                    "recorded termination '{}' but the final position is {termination}",
                    record.termination
                ));
            }
            result
        }
        None => {
            if !record.termination.is_forfeit() {
                return Err(format!(
                    "recorded termination '{}' but the game is not over after {} plies",
                    record.termination,
                    record.moves.len()
                ));
            }
            forfeit_result(&game.position, record.termination)
        }
    };
    if record.result != expected {
        return Err(format!(
            "recorded result {} but {} gives {expected}",
            record.result, record.termination
        ));
    }
    Ok(game)
}

/// `sapper replay`: replays the records of `path` (only game `only` if given),
/// printing the board after the last move (after every move when `verbose`) and the
/// result.
///
/// # Errors
/// A message for an unreadable file, a missing game or an inconsistent record.
pub fn replay_file(
    path: &Path,
    only: Option<u32>,
    verbose: bool,
    out: &mut impl Write,
) -> Result<(), String> {
    let records = load(path)?;
    let chosen: Vec<&GameRecord> = records
        .iter()
        .filter(|r| only.is_none_or(|n| r.game == n))
        .collect();
    if chosen.is_empty() {
        return Err(match only {
            Some(n) => format!("{}: no game {n} (games: {})", path.display(), records.len()),
            None => format!("{}: no games", path.display()),
        });
    }
    let w = |out: &mut dyn Write, s: &str| out.write_all(s.as_bytes()).map_err(|e| e.to_string());
    for record in chosen {
        w(
            out,
            &format!(
                "Game {} (pair {}): {} - {}, mines {}\n",
                record.game,
                record.pair,
                record.white,
                record.black,
                record.layout.join(" ")
            ),
        )?;
        let mut printed = Ok(());
        let game = replay(record, |g| {
            if verbose && printed.is_ok() {
                let head = match g.moves.last() {
                    Some(m) => format!("\nPly {}: {m}\n", g.moves.len()),
                    None => "\nStart\n".to_string(),
                };
                printed = w(out, &head).and_then(|()| w(out, &board_text(&AnyGame::Minesweeper(g.clone()))));
            }
        })
        .map_err(|e| format!("game {}: {e}", record.game))?;
        printed?;
        if !verbose {
            w(out, &board_text(&AnyGame::Minesweeper(game.clone())))?;
        }
        let detail = record
            .detail
            .as_deref()
            .map_or(String::new(), |d| format!(": {d}"));
        w(
            out,
            &format!(
                "Result: {} ({}{detail}) after {} plies; record consistent\n\n",
                record.result,
                record.termination,
                record.moves.len()
            ),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record_for(moves: &[&str], result: GameResult, termination: Termination) -> GameRecord {
        // Mines on a5, c6, e5, h7.
        let layout = (1 << 8) | (1 << 18) | (1 << 12) | (1 << 31);
        GameRecord {
            game: 1,
            pair: 1,
            white: "a".into(),
            black: "b".into(),
            white_engine: 1,
            seed: 0,
            layout: layout_names(layout),
            start_fen: start_fen(layout),
            moves: moves.iter().map(|s| s.to_string()).collect(),
            result,
            termination,
            detail: None,
            times_ms: vec![0; moves.len()],
            max_plies: 400,
        }
    }

    #[test]
    fn start_fen_is_full_information() {
        let fen = start_fen((1 << 8) | (1 << 31));
        assert_eq!(
            fen,
            "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ???????M/????????/M???????/???????? 2"
        );
        let (pos, _) = Position::<Minesweeper>::from_fen(&fen).unwrap();
        assert_eq!(pos.state().mines(), Some((1 << 8) | (1 << 31)));
        assert_eq!(layout_names((1 << 8) | (1 << 31)), ["a5", "h7"]);
    }

    #[test]
    fn a_forfeit_replays_and_a_wrong_result_does_not() {
        let r = record_for(&["e2e4", "e9e7"], GameResult::BlackWins, Termination::IllegalMove);
        replay(&r, |_| {}).unwrap();
        let r = record_for(&["e2e4"], GameResult::BlackWins, Termination::IllegalMove);
        assert!(replay(&r, |_| {}).unwrap_err().contains("recorded result"));
        let r = record_for(&["e2e4"], GameResult::WhiteWins, Termination::Checkmate);
        assert!(replay(&r, |_| {}).unwrap_err().contains("not over"));
    }

    #[test]
    fn an_illegal_move_is_reported_with_its_ply() {
        let r = record_for(&["e2e4", "e9e5"], GameResult::Draw, Termination::MaxPlies);
        let err = replay(&r, |_| {}).unwrap_err();
        assert!(err.starts_with("ply 2 (e9e5): not a legal move"), "{err}");
    }

    #[test]
    fn moves_to_rank_ten_and_bare_promotions_are_found() {
        let (pos, _) = Position::<Minesweeper>::from_fen(
            "r3k2r/8/8/8/8/8/8/8/8/4K3 b kq - 0 1 00000000/00000000/00000000/00000000 0",
        )
        .unwrap();
        for text in ["e10g10", "e10c10", "a10d10", "h10h1"] {
            let m = legal_move_from_uci(&pos, text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(m.to_string(), text);
        }
        assert!(legal_move_from_uci(&pos, "e10h10").is_none());
        assert!(legal_move_from_uci(&pos, "e10e8").is_none());
        let (pos, _) = Position::<Minesweeper>::from_fen(
            "4k3/P7/8/8/8/8/8/8/8/4K3 w - - 0 1 00000000/00000000/00000000/00000000 0",
        )
        .unwrap();
        for text in ["a9a10q", "a9a10"] {
            assert_eq!(legal_move_from_uci(&pos, text).unwrap().to_string(), "a9a10q");
        }
        assert!(legal_move_from_uci(&pos, "a9a10n").is_none());
    }

    #[test]
    fn the_move_limit_ends_a_game() {
        let mut r = record_for(&["e2e2", "e9e9"], GameResult::Draw, Termination::MaxPlies);
        r.max_plies = 2;
        replay(&r, |_| {}).unwrap();
        r.max_plies = 1;
        assert!(replay(&r, |_| {}).unwrap_err().contains("was over"));
    }

    #[test]
    fn a_time_forfeit_against_a_bare_king_is_a_draw() {
        let (pos, _) = Position::<Minesweeper>::from_fen(
            "4k3/8/8/8/8/8/8/8/8/R3K3 w - - 0 1 00000000/00000000/00000000/00000000 0",
        )
        .unwrap();
        assert_eq!(forfeit_result(&pos, Termination::TimeForfeit), GameResult::Draw);
        assert_eq!(
            forfeit_result(&pos, Termination::IllegalMove),
            GameResult::BlackWins
        );
        let (pos, _) = Position::<Minesweeper>::from_fen(
            "4k3/8/8/8/8/8/8/8/8/R3K3 b - - 0 1 00000000/00000000/00000000/00000000 0",
        )
        .unwrap();
        assert_eq!(
            forfeit_result(&pos, Termination::TimeForfeit),
            GameResult::WhiteWins
        );
    }

    #[test]
    fn records_round_trip_through_json() {
        let r = record_for(&["e2e4"], GameResult::BlackWins, Termination::TimeForfeit);
        let line = serde_json::to_string(&r).unwrap();
        assert!(line.contains("\"result\":\"0-1\""), "{line}");
        assert!(line.contains("\"termination\":\"time forfeit\""), "{line}");
        assert_eq!(serde_json::from_str::<GameRecord>(&line).unwrap(), r);
    }
}
