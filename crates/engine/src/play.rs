//! `sapper play`: a person against Sapper in the terminal, at a chosen level.
//!
//! The board is printed after every move with the moves so far (minesweeper: fog,
//! numbers, discovered mines, the counter and each fogged square's mine probability;
//! never the hidden mines), and what a move did besides moving is said in words:
//! the pieces an atomic explosion removed, a mine that destroyed a piece, mines a
//! landing discovered, what a sapper action found. The person types SAN or UCI
//! moves; `pgn [FILE]` prints or writes the game so far, and `--pgn FILE` writes it
//! when the game ends. In minesweeper the program holds the true layout, Sapper sees
//! only what the person sees.

use crate::display::board_diagram;
use crate::eval::default_params;
use crate::search::timeman::Limits;
use crate::search::SearchContext;
use crate::search::{score, SearchOptions, Searcher, Silent};
use crate::skill::Skill;
use crate::variant::EngineVariant;
use rand::rngs::StdRng;
use rand::SeedableRng;
use sapper_rules::bitboard::BitBoard;
use sapper_rules::game::{AnyGame, Game};
use sapper_rules::moves::{Move, MoveKind};
use sapper_rules::notation::{parse_typed_move, san, san_line};
use sapper_rules::position::Position;
use sapper_rules::result::GameResult;
use sapper_rules::types::{Color, Piece, Role};
use sapper_rules::variant::minesweeper::{
    random_layout, sapped_square, zone_index, zone_square, Minesweeper, ZONE_SIZE,
};
use sapper_rules::variant::{Outcome, Variant, VariantKind};
use sapper_rules::with_game;
use std::any::Any;
use std::io::{BufRead, Write};

/// What minesweeper's markers on empty squares mean (`board_diagram`), two lines
/// that fit an 80-column terminal.
const MINE_LEGEND: &str =
    "Legend: ? fog (may hide a mine)   - swept fog (no mine)   * discovered mine\n        \
                           . cleared, no mine next to it   1-8 cleared, mines next to it";

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
    /// Where to write the game's PGN when it ends (or the person quits).
    pub pgn: Option<std::path::PathBuf>,
}

/// A seed from the system clock (nanoseconds since 1970), for a new mine layout in
/// every game a person starts without `--seed`.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
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

fn play_game<V: EngineVariant>(
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
    let ctx = SearchContext::new(64, default_params(V::KIND));
    let mut searcher = Searcher::<V>::new();
    let intro = format!(
        "Sapper {} at level {}. You play {}: upper case letters are White's pieces, lower case Black's. Moves in SAN or UCI form (Nf3 or g1f3, e8=Q or e7e8q{}); 'moves' lists them, 'pgn [FILE]' prints or writes the game, 'quit' ends.",
        V::NAME,
        skill.level(),
        if settings.human == Color::White { "White" } else { "Black" },
        if V::MINES { ", e4e4 saps the square in front of the pawn on e4" } else { "" }
    );
    writeln!(out, "{}", wrap(&intro, WIDTH)).map_err(io)?;
    let names = if settings.human == Color::White {
        ("You".to_string(), format!("Sapper level {}", skill.level()))
    } else {
        (format!("Sapper level {}", skill.level()), "You".to_string())
    };
    loop {
        let shown = public_view(&game);
        write!(out, "{}", board_diagram(&AnyGame::from(shown.clone()))).map_err(io)?;
        if V::MINES {
            writeln!(out, "{MINE_LEGEND}").map_err(io)?;
            if let Some(public) = (&shown.position as &dyn Any).downcast_ref::<Position<Minesweeper>>() {
                writeln!(out, "{}", mines_left(public.state())).map_err(io)?;
                write!(out, "{}", probability_grid(public)).map_err(io)?;
            }
        }
        writeln!(out, "Fen: {}", shown.position.to_fen()).map_err(io)?;
        if !game.moves.is_empty() {
            writeln!(out, "Moves: {}", san_line(&game.start, &game.moves)).map_err(io)?;
        }
        let result = game.result();
        if let Some((outcome, reason)) = result {
            let text = match outcome {
                Outcome::Draw => "Draw".to_string(),
                Outcome::Decisive { winner } if winner == settings.human => "You win".to_string(),
                Outcome::Decisive { .. } => "Sapper wins".to_string(),
            };
            writeln!(out, "Game over: {text} ({reason}).").map_err(io)?;
        }
        let finished = result.is_some();
        if !finished {
            let stm = game.position.side_to_move();
            let who = if stm == settings.human {
                "you"
            } else {
                "Sapper is thinking"
            };
            writeln!(out, "{} to move ({who}).", color_name(stm)).map_err(io)?;
        }
        let m = if finished {
            None
        } else if game.position.side_to_move() == settings.human {
            read_move(&game, &names, input, out)?
        } else {
            let public = V::hide_private(&game.position);
            let limits = Limits {
                movetime: Some(settings.movetime),
                nodes: skill.node_limit(),
                ..Limits::default()
            };
            let options = SearchOptions {
                multipv: skill.multipv(),
                mine_naivety: skill.mine_naivety(),
                searchmoves: skill.root_moves(&public, Vec::new()),
                ..SearchOptions::default()
            };
            let result = searcher.search(&public, &game.keys, &limits, &options, &ctx, &mut Silent);
            let m = skill.pick(&result.lines, rng).unwrap_or(result.best);
            writeln!(
                out,
                "Sapper plays {} ({}); {}.",
                san(&game.position, m),
                m,
                evaluation_words(result.score)
            )
            .map_err(io)?;
            Some(m)
        };
        let Some(m) = m else {
            if let Some(path) = &settings.pgn {
                std::fs::write(path, pgn(&game, &names)).map_err(|e| format!("{}: {e}", path.display()))?;
                writeln!(out, "PGN written to {}.", path.display()).map_err(io)?;
            } else if !game.moves.is_empty() {
                writeln!(out, "(--pgn FILE writes a game's PGN when it ends.)").map_err(io)?;
            }
            if V::MINES && settings.fen.is_none() {
                // Told only now: the seed gives the layout away.
                writeln!(
                    out,
                    "Mine layout seed {}: --seed {} plays this layout again.",
                    settings.seed, settings.seed
                )
                .map_err(io)?;
            }
            return Ok(());
        };
        let before = game.position;
        game.play(m);
        for line in move_events(&before, &game.position, m) {
            writeln!(out, "{}", wrap(&line, WIDTH)).map_err(io)?;
        }
    }
}

/// What the person may see: the position without hidden information.
fn public_view<V: Variant>(game: &Game<V>) -> Game<V> {
    let mut shown = game.clone();
    shown.position = V::hide_private(&game.position);
    shown
}

/// What `m` did besides moving a piece, one sentence per event: the pieces an
/// atomic explosion removed; in minesweeper a mine that destroyed the landing
/// piece, mines the landing discovered, what a sapper action found, the fog lifting
/// once every mine is found (docs/rules.md minesweeper 4, 5, 7, 11).
pub fn move_events<V: Variant + 'static>(before: &Position<V>, after: &Position<V>, m: Move) -> Vec<String> {
    let mut events = Vec::new();
    let captured = before.piece_at(m.to()).is_some() || m.kind() == MoveKind::EnPassant;
    if !V::CAPTURE_WINS_ONLY_THE_VICTIM && captured {
        // The capturing piece first (it stood on its origin square), then the others
        // on their squares: the captured piece and its neighbours (docs/rules.md atomic 1).
        let mut gone = Vec::new();
        if let Some(p) = before.piece_at(m.from()) {
            gone.push(format!("the capturing {} (from {})", piece_name(p), m.from()));
        }
        let removed = before.occupied() & !after.occupied();
        gone.extend(
            removed
                .squares()
                .filter(|&sq| sq != m.from())
                .filter_map(|sq| before.piece_at(sq).map(|p| format!("{} ({sq})", piece_name(p)))),
        );
        events.push(format!("Explosion on {} removes {}.", m.to(), gone.join(", ")));
    }
    let (Some(b), Some(a)) = (
        (before as &dyn Any).downcast_ref::<Position<Minesweeper>>(),
        (after as &dyn Any).downcast_ref::<Position<Minesweeper>>(),
    ) else {
        return events;
    };
    let (bs, st) = (b.state(), a.state());
    if m.kind() == MoveKind::Sapper {
        let front = sapped_square(m.from(), b.side_to_move());
        let text = match zone_index(front) {
            Some(i) if bs.mines().is_some_and(|mines| mines & 1 << i != 0) => {
                format!(
                    "The sapper on {} found a mine on {front} and removed it ({} left).",
                    m.from(),
                    st.counter()
                )
            }
            Some(_) => format!("The sapper on {} swept {front}: no mine there.", m.from()),
            None => format!("The sapper on {} swept {front}, outside the minefield.", m.from()),
        };
        events.push(text);
    } else if b.piece_at(m.from()).is_some() && a.piece_at(m.to()).is_none() {
        let piece = b.piece_at(m.from()).map_or_else(String::new, piece_name);
        events.push(format!(
            "Boom! The {piece} landing on {} hit a mine and is destroyed ({} mines left).",
            m.to(),
            st.counter()
        ));
    }
    let found = st.discovered() & !bs.discovered();
    if found != 0 {
        let squares: Vec<String> = (0..ZONE_SIZE)
            .filter(|i| found & 1 << i != 0)
            .map(|i| zone_square(i).to_string())
            .collect();
        let noun = if squares.len() == 1 { "Mine" } else { "Mines" };
        // A landing lifts the fog from its square's ring (docs/rules.md minesweeper 4).
        let around = if m.kind() == MoveKind::Sapper {
            String::new()
        } else {
            format!(", in the fog lifted around {}", m.to())
        };
        events.push(format!("{noun} discovered on {}{around}.", squares.join(", ")));
    }
    if bs.fog() != 0 && st.fog() == 0 {
        events.push("Every mine on the board is found: the fog lifts.".to_string());
    }
    events
}

/// Sapper's verdict on its move in words. The search scores from the side to move's
/// point of view, which is Sapper's; a mate score is a won or lost game in every
/// variant (checkmate, an exploded king, a king on the hill).
fn evaluation_words(score: i32) -> String {
    let moves = |n: i32| {
        if n == 1 {
            "1 move".to_string()
        } else {
            format!("{n} moves")
        }
    };
    match score::mate_moves(score) {
        Some(n) if score > 0 => format!("it expects to win in {}", moves(n)),
        Some(n) => format!("it expects to lose in {}", moves(-n)),
        None => format!("its evaluation: {} pawns for Sapper", score::human(score)),
    }
}

/// The width text is wrapped to: an 80-column terminal.
const WIDTH: usize = 80;

/// `text` wrapped at spaces into lines of at most `width` characters (a longer word
/// stays whole on its own line).
fn wrap(text: &str, width: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines.join("\n")
}

/// "White", "Black".
fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The mine counter in words: `Mines on the board: 4 (1 discovered, 3 hidden).`
/// The counter counts discovered mines too (docs/rules.md minesweeper 3).
fn mines_left(st: &sapper_rules::variant::minesweeper::MineState) -> String {
    let discovered = st.discovered().count_ones();
    let hidden = u32::from(st.counter()).saturating_sub(discovered);
    format!(
        "Mines on the board: {} ({discovered} discovered, {hidden} hidden in the fog).",
        st.counter()
    )
}

/// "white knight", "black pawn".
fn piece_name(p: Piece) -> String {
    let color = if p.color == Color::White { "white" } else { "black" };
    let role = match p.role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    };
    format!("{color} {role}")
}

/// Minesweeper: each fogged square's mine probability in percent (exact inference
/// on the public position, docs/rules.md minesweeper 15), laid out like the board's fog
/// zone (ranks 7 to 4); `-` swept fog, `*` a discovered mine, `.` revealed.
fn probability_grid(public: &Position<Minesweeper>) -> String {
    let st = public.state();
    if st.fog() == 0 {
        return String::new();
    }
    let inference = public.mine_inference();
    let mut s = String::from("Mine probability on the fog, percent (. not fog, - swept, * mine):\n");
    for row in (0..4).rev() {
        s.push_str(&format!("  {:>2}", row + 4));
        for file in 0..8 {
            let i = row * 8 + file;
            let bit = 1u32 << i;
            let cell = if st.discovered() & bit != 0 {
                "*".to_string()
            } else if st.fog() & bit == 0 {
                ".".to_string()
            } else if st.swept() & bit != 0 {
                "-".to_string()
            } else {
                format!("{:.0}", 100.0 * inference.probability(i))
            };
            s.push_str(&format!(" {cell:>3}"));
        }
        s.push('\n');
    }
    s.push_str("       a   b   c   d   e   f   g   h\n");
    s
}

/// The game so far as PGN (the variant named in a `Variant` tag as lichess does;
/// minesweeper's start FEN with its layout, which is public once the game is over).
fn pgn<V: Variant>(game: &Game<V>, (white, black): &(String, String)) -> String {
    let finished = game.result();
    let result = match finished {
        Some((Outcome::Draw, _)) => GameResult::Draw.as_str(),
        Some((Outcome::Decisive { winner }, _)) => GameResult::win_for(winner).as_str(),
        None => "*",
    };
    let mut s = format!(
        "[Event \"sapper play\"]\n[Site \"?\"]\n[Date \"{}\"]\n[Round \"-\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n",
        pgn_date(std::time::SystemTime::now())
    );
    if let Some(name) = V::PGN_VARIANT {
        s.push_str(&format!("[Variant \"{name}\"]\n"));
    }
    let start_fen = game.start.to_fen();
    if start_fen != V::start_fen() {
        s.push_str(&format!("[SetUp \"1\"]\n[FEN \"{start_fen}\"]\n"));
    }
    if let Some((_, reason)) = finished {
        s.push_str(&format!("[Termination \"{reason}\"]\n"));
    }
    let moves = san_line(&game.start, &game.moves);
    s.push('\n');
    s.push_str(&moves);
    if !moves.is_empty() {
        s.push(' ');
    }
    s.push_str(result);
    s.push('\n');
    s
}

/// A PGN date (`YYYY.MM.DD`, UTC) from the system clock (days to a civil date by
/// Howard Hinnant's `civil_from_days`).
fn pgn_date(now: std::time::SystemTime) -> String {
    let Ok(since) = now.duration_since(std::time::UNIX_EPOCH) else {
        return "????.??.??".to_string();
    };
    let z = (since.as_secs() / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// Reads the person's move; `None` on `quit` or end of input. `pgn` prints the game
/// so far, `pgn FILE` writes it.
fn read_move<V: Variant>(
    game: &Game<V>,
    names: &(String, String),
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Option<Move>, String> {
    let io = |e: std::io::Error| e.to_string();
    let pos = &game.position;
    loop {
        write!(out, "Your move: ").map_err(io)?;
        out.flush().map_err(io)?;
        let mut line = String::new();
        if input.read_line(&mut line).map_err(io)? == 0 {
            // End of input: no newline was typed after the prompt.
            writeln!(out).map_err(io)?;
            return Ok(None);
        }
        let text = line.trim();
        match text.split_whitespace().collect::<Vec<_>>().as_slice() {
            ["quit"] | ["exit"] => return Ok(None),
            ["moves"] | ["help"] => {
                let list: Vec<String> = pos.legal_moves().iter().map(|&m| san(pos, m)).collect();
                writeln!(out, "Legal moves: {}", list.join(" ")).map_err(io)?;
            }
            ["pgn"] => write!(out, "{}", pgn(game, names)).map_err(io)?,
            ["pgn", path] => match std::fs::write(path, pgn(game, names)) {
                Ok(()) => writeln!(out, "PGN written to {path}.").map_err(io)?,
                Err(e) => writeln!(out, "Cannot write {path}: {e}").map_err(io)?,
            },
            _ => match parse_typed_move(pos, text) {
                Ok(m) => return Ok(Some(m)),
                Err(e) => writeln!(out, "{e}; type 'moves' for the list.").map_err(io)?,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_wraps_at_spaces_within_the_width() {
        let text = "Explosion on f2 removes the capturing black bishop (from c5), white king (e1)";
        let wrapped = wrap(text, 30);
        assert!(wrapped.lines().all(|l| l.chars().count() <= 30), "{wrapped}");
        assert_eq!(wrapped.replace('\n', " "), text);
        assert_eq!(wrap("short", 30), "short");
        // A word longer than the width is kept whole.
        assert_eq!(wrap("a abcdefghij b", 5), "a\nabcdefghij\nb");
    }

    #[test]
    fn sapper_says_its_evaluation_from_its_own_side() {
        use crate::search::score::{mate_in, mated_in};
        assert_eq!(evaluation_words(54), "its evaluation: +0.54 pawns for Sapper");
        assert_eq!(evaluation_words(mate_in(1)), "it expects to win in 1 move");
        assert_eq!(evaluation_words(mate_in(5)), "it expects to win in 3 moves");
        assert_eq!(evaluation_words(mated_in(4)), "it expects to lose in 2 moves");
    }

    #[test]
    fn pgn_dates_are_civil_dates() {
        let at = |secs| pgn_date(std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs));
        assert_eq!(at(0), "1970.01.01");
        assert_eq!(at(951_782_400), "2000.02.29");
        assert_eq!(at(1_796_083_200), "2026.12.01");
    }
}
