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
//!   `result` (`*`, or `1-0`, `0-1`, `1/2-1/2` followed by the reason); in
//!   minesweeper also `probabilities` (`a4=0.125000 b4=...`: the chance of a mine on
//!   each fogged, unswept square, from the public information only, as `d` prints
//!   them).
//! - `pgn` followed by a PGN text (newlines allowed; its first game) answers
//!   `variant` (the `UCI_Variant` name its `Variant` tag means), `fen` (its start
//!   position: the `FEN` tag or the variant's start), `moves` (its main line in UCI
//!   notation), `result` (the result token or tag, `*` without one) and one `tag
//!   NAME VALUE` line per tag pair.
//! - `layout` answers `fen` with the minesweeper start position with four mines
//!   drawn at random over the fog zone (docs/rules.md rule 2), full information.
//!
//! A request that cannot be answered gets one line `error <why>`.

use sapper_engine::display::VariantDisplay;
use sapper_engine::play::move_events;
use sapper_engine::review::pgn;
use sapper_rules::game::{AnyGame, Game};
use sapper_rules::notation::san;
use sapper_rules::position::Position;
use sapper_rules::types::Color;
use sapper_rules::variant::minesweeper::{random_layout, Minesweeper};
use sapper_rules::variant::{Outcome, VariantKind};
use sapper_rules::with_game;
use std::fmt::Write;
use std::str::FromStr;

/// Answers one request line (see the module documentation).
pub fn answer(request: &str) -> String {
    if let Some(text) = request.trim_start().strip_prefix("pgn") {
        return read_pgn(text).unwrap_or_else(|e| format!("error {}\n", e.replace('\n', " ")));
    }
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

/// The `pgn` answer for the PGN `text`.
fn read_pgn(text: &str) -> Result<String, String> {
    let game = pgn::read(text)?;
    let kind = pgn::variant_of(game.tag("Variant"))?;
    let fen = game.tag("FEN").filter(|f| !f.trim().is_empty());
    let (mut any, _) = AnyGame::from_spec(kind, fen, &[]).map_err(|e| format!("FEN tag: {e}"))?;
    let mut out = String::new();
    let _ = writeln!(out, "variant {}", kind.name());
    with_game!(&mut any, g, _V => {
        let _ = writeln!(out, "fen {}", g.start.to_fen());
        let mut uci = Vec::new();
        for (i, text) in game.moves.iter().enumerate() {
            let m = g
                .play_typed(text)
                .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
            uci.push(m.to_string());
        }
        let _ = writeln!(out, "moves {}", uci.join(" "));
        Ok::<(), String>(())
    })?;
    let result = game
        .result
        .clone()
        .or_else(|| game.tag("Result").map(str::to_string))
        .unwrap_or_else(|| "*".to_string());
    let _ = writeln!(out, "result {result}");
    for (name, value) in &game.tags {
        let _ = writeln!(out, "tag {name} {}", value.replace('\n', " "));
    }
    Ok(out)
}

/// Writes the `state` lines for `game`.
fn describe<V: VariantDisplay>(game: &Game<V>) -> String {
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
    if V::MINES {
        // `d`'s line, from the public position: nothing hidden leaks through it.
        let text = V::describe_state(&V::hide_private(pos));
        if let Some(line) = text.lines().find_map(|l| l.strip_prefix("Mine probabilities:")) {
            let _ = writeln!(out, "probabilities {}", line.trim());
        }
    }
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
    fn minesweeper_states_carry_the_public_mine_probabilities() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ????????/?????M??/???M??M?/?M?????? 4";
        let a = answer(&format!("state minesweeper fen {start}"));
        let probs = field(&a, "probabilities")[0];
        let squares: Vec<&str> = probs.split(' ').collect();
        assert_eq!(squares.len(), 32);
        // Every fogged square is equally likely before anything is revealed: 4/32.
        assert!(squares.iter().all(|s| s.ends_with("=0.125000")), "{probs}");
        assert!(field(&answer("state chess startpos"), "probabilities").is_empty());
    }

    #[test]
    fn pgn_gives_the_variant_start_and_moves() {
        let a = answer("pgn [Event \"x\"]\n[Variant \"King of the Hill\"]\n\n1. e4 e5 2. Nf3 {hi} Nc6 1-0\n");
        assert_eq!(field(&a, "variant"), ["kingofthehill"]);
        assert_eq!(field(&a, "moves"), ["e2e4 e7e5 g1f3 b8c6"]);
        assert_eq!(field(&a, "result"), ["1-0"]);
        assert_eq!(field(&a, "tag"), ["Event x", "Variant King of the Hill"]);
        assert!(field(&a, "fen")[0].starts_with("rnbqkbnr/pppppppp/"));
        assert!(answer("pgn 1. e4 e5 2. Ke3 *").starts_with("error move 3 (Ke3)"));
    }

    #[test]
    fn bad_requests_are_errors() {
        assert!(answer("state chess startpos moves e2e5").starts_with("error "));
        assert!(answer("state shogi startpos").starts_with("error "));
        assert!(answer("").starts_with("error "));
        assert!(answer("state chess fen xyz").starts_with("error "));
    }
}
