//! Commands of the browser build beyond UCI, for the module API (`web/src/engine.js`)
//! and the play page. They arrive on the worker's UCI channel, one message each, and
//! are answered there, so that `stop`, `isready` and the ordering of requests work
//! as for `go`:
//!
//! - `pass`: the side to move passes (a null move) in the position `position` set,
//!   so that the next `go` searches for the other side: its best move is the
//!   *threat* (`sapper analyze --threat`). Refused with `info string error: pass:
//!   ...` when the side to move is in check or the game is over; the position stays.
//! - `review [depth N] [nodes N] [hash MIB] GAME`: reviews a game move by move
//!   ([`sapper_engine::review`]). `GAME` is `<variant> startpos|fen FEN [moves M1
//!   M2 ...]` (UCI moves; minesweeper: the full-information FEN, so that each move's
//!   outcome is known) or `pgn` followed by a PGN text (newlines allowed). Answers
//!   `review progress DONE TOTAL` before each position's search, then one line
//!   `review result JSON` ([`review_json`]), `review error MESSAGE` or (after
//!   `stop`) `review stopped`.

use sapper_engine::analyze::pass_move;
use sapper_engine::host;
use sapper_engine::review::lichess::winning_chances;
use sapper_engine::review::pgn::{self, PgnGame};
use sapper_engine::review::{self, annotate, Review, ReviewSettings};
use sapper_engine::search::score;
use sapper_engine::search::timeman::Limits;
use sapper_engine::uci::Uci;
use sapper_rules::game::AnyGame;
use sapper_rules::types::Color;
use sapper_rules::variant::{Variant, VariantKind};
use sapper_rules::{with_game, with_variant};
use std::fmt::Write;
use std::str::FromStr;

/// Largest review depth accepted: a deeper one would take minutes per position.
const MAX_DEPTH: i32 = 30;

/// Handles `line` if it is one of this module's commands, sending answers through
/// `say`; returns false for any other line (UCI's).
pub fn handle(uci: &mut Uci, line: &str, say: &mut dyn FnMut(&str)) -> bool {
    let trimmed = line.trim_start();
    let command = trimmed.split_whitespace().next().unwrap_or("");
    match command {
        "pass" => {
            if let Err(e) = pass(uci) {
                say(&format!("info string error: pass: {e}; position unchanged"));
            }
            true
        }
        "review" => {
            let rest = trimmed["review".len()..].trim_start();
            let last = run_review(rest, say);
            say(&last);
            true
        }
        _ => false,
    }
}

/// `pass`: the engine's game with the move passed.
fn pass(uci: &mut Uci) -> Result<(), String> {
    let passed = pass_move(uci.engine().game())?;
    uci.engine_mut().set_game(passed)
}

/// The game and the settings of a `review` command.
struct ReviewRequest {
    game: AnyGame,
    settings: ReviewSettings,
    pgn: PgnGame,
}

/// Runs the review `rest` asks for; returns the final line.
fn run_review(rest: &str, say: &mut dyn FnMut(&str)) -> String {
    let request = match parse_review(rest) {
        Ok(r) => r,
        Err(e) => return format!("review error {}", one_line(&e)),
    };
    let mut progress = |done: usize, total: usize| say(&format!("review progress {done} {total}"));
    let result = review::review(&request.game, &request.settings, &mut progress);
    if host::stop_requested() {
        return "review stopped".to_string();
    }
    match result {
        Ok(r) => format!("review result {}", review_json(&r, &request.pgn)),
        Err(e) => format!("review error {}", one_line(&e)),
    }
}

/// Reads `[depth N] [nodes N] [hash MIB] GAME` (see the module documentation).
fn parse_review(rest: &str) -> Result<ReviewRequest, String> {
    let mut settings = ReviewSettings::default();
    let mut limits = Limits::default();
    let mut rest = rest.trim_start();
    loop {
        let mut words = rest.splitn(3, char::is_whitespace);
        let (Some(key), Some(value)) = (words.next(), words.next()) else {
            break;
        };
        let number = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("review: {key} needs a positive number, got '{value}'"))
        };
        match key {
            "depth" => limits.depth = Some(number()?.clamp(1, MAX_DEPTH as u64) as i32),
            "nodes" => limits.nodes = Some(number()?.max(1)),
            "hash" => settings.hash_mib = number()?.clamp(1, 1024) as usize,
            _ => break,
        }
        rest = words.next().unwrap_or("").trim_start();
    }
    let limited = limits.depth.is_some() || limits.nodes.is_some();
    let (game, pgn) = if let Some(text) = rest.strip_prefix("pgn") {
        let pgn = pgn::read(text)?;
        let kind = pgn::variant_of(pgn.tag("Variant"))?;
        let fen = pgn.tag("FEN").filter(|f| !f.trim().is_empty());
        let (mut game, _) = AnyGame::from_spec(kind, fen, &[]).map_err(|e| format!("FEN tag: {e}"))?;
        for (i, text) in pgn.moves.iter().enumerate() {
            with_game!(&mut game, g, _V => g.play_typed(text).map(|_| ()))
                .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        }
        (game, pgn)
    } else {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let Some((variant, spec)) = words.split_first() else {
            return Err(
                "review: expected '<variant> startpos|fen FEN [moves ...]' or 'pgn TEXT'".to_string(),
            );
        };
        let kind = VariantKind::from_str(variant).map_err(|e| e.to_string())?;
        let moves_at = spec.iter().position(|&w| w == "moves").unwrap_or(spec.len());
        let fen = match &spec[..moves_at] {
            ["startpos"] => None,
            ["fen", fen @ ..] if !fen.is_empty() => Some(fen.join(" ")),
            _ => return Err("review: expected 'startpos' or 'fen FEN' after the variant".to_string()),
        };
        let moves = spec.get(moves_at + 1..).unwrap_or(&[]);
        let (game, _) = AnyGame::from_spec(kind, fen.as_deref(), moves).map_err(|e| e.to_string())?;
        let mut tags = Vec::new();
        if let Some(name) = with_variant!(kind, V => V::PGN_VARIANT) {
            tags.push(("Variant".to_string(), name.to_string()));
        }
        if let Some(fen) = fen {
            tags.push(("SetUp".to_string(), "1".to_string()));
            tags.push(("FEN".to_string(), fen));
        }
        let pgn = PgnGame {
            tags,
            ..PgnGame::default()
        };
        (game, pgn)
    };
    review::supported(game.variant())?;
    // Without a limit, the variant's default (nodes where mines make the search a
    // chance search).
    settings.limits = if limited {
        limits
    } else {
        review::default_limits(game.variant())
    };
    Ok(ReviewRequest { game, settings, pgn })
}

/// `text` on one line (a review's answer is one line).
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` as a JSON string, quotes included.
fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A number for JSON (finite, three decimals), or `null`.
fn json_number(x: Option<f64>) -> String {
    match x {
        Some(x) if x.is_finite() => format!("{:.3}", x),
        _ => "null".to_string(),
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The review as one JSON object, what `engine.review()` resolves with (its fields
/// are described in `web/src/engine.d.ts`, `Review`):
///
/// `{"variant", "startFen", "limit", "nodes", "ms", "accuracy": [white, black],
/// "positions": [{"side", "eval", "chances", "mate", "best", "depth"}],
/// "moves": [{"ply", "number", "mover", "uci", "san", "before", "after", "best",
/// "bestSan", "pv", "drop", "accuracy", "judgement", "advice", "mine": {"chance",
/// "hit"} or null}], "pgn"}`
pub fn review_json(review: &Review, pgn: &PgnGame) -> String {
    let mut s = String::new();
    let limit = sapper_engine::analyze::limits_text(&review.limits);
    let _ = write!(
        s,
        "{{\"variant\":{},\"startFen\":{},\"limit\":{},\"nodes\":{},\"ms\":{},\"accuracy\":[{},{}],\"positions\":[",
        json_string(review.variant.name()),
        json_string(&review.start_fen),
        json_string(&limit),
        review.nodes,
        review.elapsed.as_millis(),
        json_number(review.accuracy[0]),
        json_number(review.accuracy[1]),
    );
    for (i, p) in review.positions.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let mate = score::mate_moves_from(p.score, p.side == Color::Black);
        let _ = write!(
            s,
            "{{\"side\":\"{}\",\"eval\":{},\"chances\":{},\"mate\":{},\"best\":{},\"depth\":{}}}",
            color_name(p.side),
            json_string(&review.white_text(i)),
            json_number(Some(winning_chances(p.white()))),
            mate.map_or("null".to_string(), |n| n.to_string()),
            if p.best.is_some() {
                json_string(&p.best.to_string())
            } else {
                "null".to_string()
            },
            p.depth,
        );
    }
    s.push_str("],\"moves\":[");
    for (i, m) in review.moves.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(
            s,
            "{{\"ply\":{},\"number\":{},\"mover\":\"{}\",\"uci\":{},\"san\":{},\"before\":{},\"after\":{},\"best\":{},\"bestSan\":{},\"pv\":{},\"drop\":{},\"accuracy\":{},\"judgement\":{},\"advice\":{},\"mine\":{}}}",
            m.ply,
            json_string(&m.number_text()),
            color_name(m.mover),
            json_string(&m.played.to_string()),
            json_string(&m.san),
            json_string(&review.white_text(m.ply)),
            json_string(&review.white_text(m.ply + 1)),
            if m.best.is_some() {
                json_string(&m.best.to_string())
            } else {
                "null".to_string()
            },
            json_string(&m.best_san),
            json_string(&m.pv_san),
            json_number(Some(m.chances_drop)),
            json_number(Some(m.accuracy)),
            m.advice
                .map_or("null".to_string(), |a| json_string(a.judgement.name())),
            m.advice.map_or("null".to_string(), |a| json_string(a.text())),
            m.mine.map_or("null".to_string(), |(chance, hit)| format!(
                "{{\"chance\":{},\"hit\":{hit}}}",
                json_number(Some(chance))
            )),
        );
    }
    let _ = write!(
        s,
        "],\"pgn\":{}}}",
        json_string(&annotate::annotated(pgn, review))
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A front end whose UCI output is collected, and the lines `handle` said.
    fn run(uci: &mut Uci, line: &str) -> Vec<String> {
        let mut said = Vec::new();
        let handled = handle(uci, line, &mut |l| said.push(l.to_string()));
        assert!(handled, "{line}");
        said
    }

    /// A front end whose UCI output is dropped.
    fn uci() -> Uci {
        Uci::new(Arc::new(Mutex::new(std::io::sink())))
    }

    #[test]
    fn other_lines_are_left_to_uci() {
        let mut u = uci();
        assert!(!handle(&mut u, "go depth 1", &mut |_| {}));
        assert!(!handle(&mut u, "reviewing", &mut |_| {}));
        assert!(!handle(&mut u, "", &mut |_| {}));
    }

    #[test]
    fn pass_gives_the_move_to_the_other_side_unless_in_check() {
        let mut u = uci();
        u.handle_line("position startpos moves e2e4");
        assert!(run(&mut u, "pass").is_empty());
        let fen = with_game!(u.engine().game(), g, _V => g.position.to_fen());
        assert!(fen.contains(" w "), "{fen}");
        // In check there is nothing to pass.
        u.handle_line("position startpos moves e2e4 f7f6 d1h5");
        let said = run(&mut u, "pass");
        assert_eq!(said.len(), 1);
        assert!(said[0].starts_with("info string error: pass: "), "{said:?}");
    }

    #[test]
    fn review_reports_progress_and_a_json_result() {
        let said = run(
            &mut uci(),
            "review depth 6 chess startpos moves d2d4 e7e5 d4e5 d8g5 c1g5",
        );
        let progress: Vec<&String> = said
            .iter()
            .filter(|l| l.starts_with("review progress "))
            .collect();
        assert_eq!(progress.len(), 7, "{said:?}");
        assert_eq!(progress[6], "review progress 6 6");
        let last = said.last().unwrap();
        assert!(last.starts_with("review result {\"variant\":\"chess\""), "{last}");
        assert!(last.contains("\"san\":\"Qg5\""), "{last}");
        assert!(last.contains("\"judgement\":\"blunder\""), "{last}");
        assert!(last.contains("\"pgn\":\"[Annotator"), "{last}");
        assert!(!last.contains('\n'));
    }

    #[test]
    fn review_reads_pgn_and_refuses_bad_games() {
        let pgn = "[Variant \"Atomic\"]\n\n1. Nf3 f6 2. Ng5 { a comment } fxg5 *\n";
        let said = run(&mut uci(), &format!("review depth 4 pgn {pgn}"));
        let last = said.last().unwrap();
        assert!(
            last.starts_with("review result {\"variant\":\"atomic\""),
            "{last}"
        );
        assert!(last.contains("\"san\":\"fxg5\""), "{last}");
        let said = run(&mut uci(), "review depth 4 chess startpos moves e2e5");
        assert!(said.last().unwrap().starts_with("review error "), "{said:?}");
        let said = run(&mut uci(), "review depth x chess startpos");
        assert!(said.last().unwrap().starts_with("review error "), "{said:?}");
        let said = run(&mut uci(), "review");
        assert!(said.last().unwrap().starts_with("review error "), "{said:?}");
    }

    #[test]
    fn a_minesweeper_review_carries_each_gamble() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ?M?????M/M???????/????????/????M??? 4";
        let said = run(
            &mut uci(),
            &format!("review nodes 3000 minesweeper fen {start} moves e2e4 b10c8"),
        );
        // Two searches per move: the positions' and the moves' expectations.
        assert!(said.contains(&"review progress 5 5".to_string()), "{said:?}");
        let last = said.last().unwrap();
        assert!(
            last.starts_with("review result {\"variant\":\"minesweeper\""),
            "{last}"
        );
        assert!(
            last.contains("\"mine\":{\"chance\":0.125,\"hit\":true}"),
            "{last}"
        );
        assert!(last.contains("\"mine\":null"), "{last}");
    }

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_string("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u0001\"");
        assert_eq!(json_number(None), "null");
        assert_eq!(json_number(Some(f64::NAN)), "null");
        assert_eq!(json_number(Some(1.0)), "1.000");
    }
}
