//! `sapper play`: a person against Sapper in the terminal, at a chosen level.
//!
//! The board is printed after every move (minesweeper: fog, numbers, discovered mines
//! and the counter; never the hidden mines). The person types UCI moves. In
//! minesweeper the program holds the true layout, Sapper sees only what the person
//! sees.

use crate::eval::default_params;
use crate::game::{AnyGame, Game};
use crate::minesweeper::{random_layout, Minesweeper};
use crate::moves::Move;
use crate::notation::{parse_typed_move, san};
use crate::position::Position;
use crate::search::timeman::Limits;
use crate::search::tt::TranspositionTable;
use crate::search::{score, SearchOptions, SearchShared, Searcher, Silent};
use crate::skill::Skill;
use crate::types::Color;
use crate::uci::board_diagram;
use crate::variant::{Outcome, Variant, VariantKind};
use crate::with_game;
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::io::{BufRead, Write};
use std::sync::Arc;

/// What minesweeper's markers on empty squares mean (`board_diagram`).
const MINE_LEGEND: &str = "Legend: ? fog (may hide a mine)   - swept fog   * discovered mine   \
                           . cleared, no mine next to it   1-8 mines next to it";

/// How the game is set up.
#[derive(Clone, Debug)]
pub struct PlaySettings {
    /// The variant.
    pub variant: VariantKind,
    /// The person's colour.
    pub human: Color,
    /// Sapper's level, 0-20.
    pub level: u8,
    /// Sapper's thinking time per move, milliseconds.
    pub movetime: u64,
    /// Seed of the mine layout and of the weaker levels' choices.
    pub seed: u64,
    /// A starting FEN (minesweeper: the full-information form); the start position if `None`.
    pub fen: Option<String>,
}

/// Runs a game, reading moves from `input` and writing to `out`.
///
/// # Errors
/// A bad starting FEN, or I/O errors.
pub fn run(settings: &PlaySettings, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<(), String> {
    let mut rng = StdRng::seed_from_u64(settings.seed);
    let game = match (settings.variant, &settings.fen) {
        (VariantKind::Minesweeper, None) => AnyGame::Minesweeper(Game::new(
            Position::<Minesweeper>::start_with_layout(random_layout(&mut rng)),
        )),
        (variant, fen) => {
            AnyGame::from_spec(variant, fen.as_deref(), &[])
                .map_err(|e| e.to_string())?
                .0
        }
    };
    with_game!(game, g, V => play_game::<V>(g, settings, &mut rng, input, out))
}

fn play_game<V: Variant>(
    mut game: Game<V>,
    settings: &PlaySettings,
    rng: &mut StdRng,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<(), String>
where
    AnyGame: From<Game<V>>,
{
    let io = |e: std::io::Error| e.to_string();
    let skill = Skill::new(settings.level);
    let shared = SearchShared::new(Arc::new(TranspositionTable::new(64)));
    let mut searcher = Searcher::<V>::new();
    let params = default_params(V::KIND);
    writeln!(
        out,
        "Sapper {} at level {}. You play {}. Moves in SAN or UCI form (Nf3 or g1f3, e8=Q or e7e8q{}); 'moves' lists them, 'quit' ends.",
        V::NAME,
        skill.level(),
        if settings.human == Color::White { "White" } else { "Black" },
        if V::MINES { ", e4e4 saps the square in front of the pawn on e4" } else { "" }
    )
    .map_err(io)?;
    loop {
        let shown = public_view(&game);
        write!(out, "{}", board_diagram(&AnyGame::from(shown.clone()))).map_err(io)?;
        if V::MINES {
            writeln!(out, "{MINE_LEGEND}").map_err(io)?;
        }
        writeln!(out, "Fen: {}", shown.position.to_fen()).map_err(io)?;
        if let Some((outcome, reason)) = game.result() {
            let text = match outcome {
                Outcome::Draw => "Draw".to_string(),
                Outcome::Decisive { winner } if winner == settings.human => "You win".to_string(),
                Outcome::Decisive { .. } => "Sapper wins".to_string(),
            };
            writeln!(out, "{text} ({reason}).").map_err(io)?;
            return Ok(());
        }
        let before = game.position;
        let m = if game.position.side_to_move() == settings.human {
            match read_move(&game.position, input, out)? {
                Some(m) => m,
                None => return Ok(()),
            }
        } else {
            let public = V::hide_private(&game.position);
            let limits = Limits {
                movetime: Some(settings.movetime),
                nodes: skill.node_limit(),
                ..Limits::default()
            };
            let options = SearchOptions {
                multipv: skill.multipv(),
                ..SearchOptions::default()
            };
            let result = searcher.search(
                &public,
                &game.keys,
                &limits,
                &options,
                &shared,
                &params,
                &mut Silent,
            );
            let m = skill.pick(&result.lines, rng).unwrap_or(result.best);
            writeln!(
                out,
                "Sapper plays {} ({}), eval {}",
                san(&before, m),
                m,
                score::human(result.score)
            )
            .map_err(io)?;
            m
        };
        game.play(m);
        report_landing(&before, &game.position, m, out)?;
    }
}

/// What the person may see: the position without hidden information.
fn public_view<V: Variant>(game: &Game<V>) -> Game<V> {
    let mut shown = game.clone();
    shown.position = V::hide_private(&game.position);
    shown
}

/// Minesweeper: says when a piece was destroyed on landing.
fn report_landing<V: Variant>(
    before: &Position<V>,
    after: &Position<V>,
    m: Move,
    out: &mut dyn Write,
) -> Result<(), String> {
    if V::MINES
        && before.piece_at(m.from()).is_some()
        && after.piece_at(m.to()).is_none()
        && m.from() != m.to()
    {
        writeln!(out, "Boom! The piece landing on {} hit a mine.", m.to()).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Reads the person's move; `None` on `quit` or end of input.
fn read_move<V: Variant>(
    pos: &Position<V>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Option<Move>, String> {
    let io = |e: std::io::Error| e.to_string();
    loop {
        write!(out, "Your move: ").map_err(io)?;
        out.flush().map_err(io)?;
        let mut line = String::new();
        if input.read_line(&mut line).map_err(io)? == 0 {
            return Ok(None);
        }
        match line.trim() {
            "quit" | "exit" => return Ok(None),
            "moves" | "help" => {
                let list: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
                writeln!(out, "Legal moves: {}", list.join(" ")).map_err(io)?;
            }
            text => match parse_typed_move(pos, text) {
                Ok(m) => return Ok(Some(m)),
                Err(e) => writeln!(out, "{e}; type 'moves' for the list.").map_err(io)?,
            },
        }
    }
}
