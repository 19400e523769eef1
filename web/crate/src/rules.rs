//! The rules as a page needs them to referee a game: legal moves, the position
//! after a move on the true mine layout, the public view, the game's end. The page
//! never reimplements them; it asks here (the same code the engine plays by).
//!
//! A request is one line, an answer is lines of `key value`:
//!
//! - `state <variant> <startpos | fen FEN> [moves M1 M2 ...]` (variant as in
//!   `UCI_Variant`, moves in UCI notation, the FEN in its full-information form for
//!   minesweeper) answers
//!   `fen` (the current position, full information), `public` (what both players
//!   see: the FEN to send the engine), `turn` (`w` or `b`), `legal` (the legal moves,
//!   UCI), `san` (the last move in SAN, if any), one `event` line per thing the last
//!   move did besides moving (an explosion, a mine hit, mines discovered), and
//!   `result` (`*`, or `1-0`, `0-1`, `1/2-1/2` followed by the reason).
//! - `layout` answers `fen` with the minesweeper start position with four mines
//!   drawn at random over the fog zone (docs/rules.md rule 2), full information.
//!
//! A request that cannot be answered gets one line `error <why>`.

use sapper_engine::play::move_events;
use sapper_rules::game::{AnyGame, Game};
use sapper_rules::notation::san;
use sapper_rules::position::Position;
use sapper_rules::types::Color;
use sapper_rules::variant::minesweeper::{random_layout, Minesweeper};
use sapper_rules::variant::{Outcome, Variant, VariantKind};
use sapper_rules::with_game;
use std::fmt::Write;
use std::str::FromStr;

/// Answers one request line (see the module documentation).
pub fn answer(request: &str) -> String {
    let tokens: Vec<&str> = request.split_whitespace().collect();
    let reply = match tokens.as_slice() {
        ["layout"] => Ok(layout(&mut rand::thread_rng())),
        ["state", variant, rest @ ..] => state(variant, rest),
        _ => Err(format!("unknown request '{}'", request.trim())),
    };
    reply.unwrap_or_else(|e| format!("error {e}\n"))
}

/// The `layout` answer: a random full-information minesweeper start.
fn layout(rng: &mut impl rand::Rng) -> String {
    let pos = Position::<Minesweeper>::start_with_layout(random_layout(rng));
    format!("fen {}\n", pos.to_fen())
}

/// The `state` answer for `variant` and the position spec in `rest`.
fn state(variant: &str, rest: &[&str]) -> Result<String, String> {
    let variant = VariantKind::from_str(variant).map_err(|e| e.to_string())?;
    let (fen, moves) = match rest {
        ["startpos", tail @ ..] => (None, tail),
        ["fen", tail @ ..] => {
            let end = tail.iter().position(|&t| t == "moves").unwrap_or(tail.len());
            (Some(tail[..end].join(" ")), &tail[end..])
        }
        _ => return Err("expected 'startpos' or 'fen FEN'".to_string()),
    };
    let moves = match moves {
        [] => &[][..],
        ["moves", list @ ..] => list,
        _ => return Err("expected 'moves' after the position".to_string()),
    };
    let (game, _) = AnyGame::from_spec(variant, fen.as_deref(), moves).map_err(|e| e.to_string())?;
    Ok(with_game!(&game, g, V => describe::<V>(g)))
}

/// Writes the `state` lines for `game`.
fn describe<V: Variant>(game: &Game<V>) -> String {
    let pos = &game.position;
    let mut out = String::new();
    let _ = writeln!(out, "fen {}", pos.to_fen());
    let _ = writeln!(out, "public {}", V::hide_private(pos).to_fen());
    let turn = if pos.side_to_move() == Color::White {
        "w"
    } else {
        "b"
    };
    let _ = writeln!(out, "turn {turn}");
    let legal: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    let _ = writeln!(out, "legal {}", legal.join(" "));
    if let Some(&last) = game.moves.last() {
        // Replay to the position before the last move (the game keeps only keys).
        let mut before = game.start;
        for &m in &game.moves[..game.moves.len() - 1] {
            before.play(m);
        }
        let _ = writeln!(out, "san {}", san(&before, last));
        for event in move_events(&before, pos, last) {
            let _ = writeln!(out, "event {event}");
        }
    }
    let result = match game.result() {
        None => "*".to_string(),
        Some((Outcome::Draw, why)) => format!("1/2-1/2 {why}"),
        Some((Outcome::Decisive { winner }, why)) => {
            let score = if winner == Color::White { "1-0" } else { "0-1" };
            format!("{score} {why}")
        }
    };
    let _ = writeln!(out, "result {result}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn field<'a>(answer: &'a str, key: &str) -> Vec<&'a str> {
        answer
            .lines()
            .filter_map(|l| l.strip_prefix(key).and_then(|r| r.strip_prefix(' ')))
            .collect()
    }

    #[test]
    fn state_lists_legal_moves_and_the_last_move() {
        let a = answer("state chess startpos moves e2e4");
        assert_eq!(field(&a, "turn"), ["b"]);
        assert_eq!(field(&a, "san"), ["e4"]);
        assert_eq!(field(&a, "legal")[0].split(' ').count(), 20);
        assert_eq!(field(&a, "result"), ["*"]);
    }

    #[test]
    fn state_announces_the_end() {
        let mate = answer("state chess startpos moves f2f3 e7e5 g2g4 d8h4");
        assert_eq!(field(&mate, "result"), ["0-1 checkmate"]);
        assert_eq!(field(&mate, "legal"), [""]);
        let hill = answer("state kingofthehill fen 8/8/8/8/8/4K3/8/k7 w - - 0 1 moves e3d4");
        assert_eq!(field(&hill, "result"), ["1-0 king on the hill"]);
        let boom = answer("state atomic startpos moves g1f3 a7a6 f3g5 a6a5 g5f7");
        assert_eq!(field(&boom, "result"), ["1-0 king exploded"]);
        assert!(field(&boom, "event")[0].starts_with("Explosion on f7"));
    }

    #[test]
    fn minesweeper_keeps_the_mines_out_of_the_public_fen() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ????????/?????M??/???M??M?/?M?????? 4";
        let a = answer(&format!("state minesweeper fen {start} moves e2e4"));
        assert!(field(&a, "fen")[0].contains('M'));
        assert!(!field(&a, "public")[0].contains('M'));
        // The layout request draws four mines.
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let fen = layout(&mut rng);
        assert_eq!(fen.matches('M').count(), 4);
        let a = answer(&format!("state minesweeper {}", fen.trim()));
        assert_eq!(field(&a, "result"), ["*"]);
    }

    #[test]
    fn bad_requests_are_errors() {
        assert!(answer("state chess startpos moves e2e5").starts_with("error "));
        assert!(answer("state shogi startpos").starts_with("error "));
        assert!(answer("").starts_with("error "));
        assert!(answer("state chess fen xyz").starts_with("error "));
    }
}
