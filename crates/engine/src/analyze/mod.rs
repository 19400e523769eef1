//! `sapper analyze`: searches one position and prints each iteration for a person
//! to follow (depth, score, nodes, time, and the principal variation in SAN), with a
//! progress line between iterations on a terminal ([`progress`]), and on request the
//! position as an SVG diagram with the best move ([`svg`]).

pub mod progress;
pub mod svg;

use crate::eval::default_params;
use crate::search::timeman::Limits;
use crate::search::SearchContext;
use crate::search::{score, IterationInfo, Reporter, SearchOptions, SearchResult, SearchShared, Searcher};
use crate::skill::Skill;
use crate::variant::EngineVariant;
use progress::Console;
use rand::rngs::StdRng;
use rand::SeedableRng;
use sapper_rules::game::{AnyGame, Game};
use sapper_rules::notation::{san, san_line, MoveError};
use sapper_rules::position::Position;
use sapper_rules::types::Color;
use sapper_rules::variant::{Outcome, Variant, VariantKind};
use sapper_rules::with_game;
use std::io::{self, Write};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{mpsc, Mutex, PoisonError};
use std::time::Instant;

/// Thinking time, milliseconds, when no depth, time or node limit is given: an
/// answer within seconds in every variant (minesweeper's depth 7 can take minutes).
pub const DEFAULT_MOVETIME_MS: u64 = 3000;

/// Legal moves listed after a bad `--moves` entry.
const LEGAL_MOVES_SHOWN: usize = 12;

/// What to analyse and for how long.
#[derive(Clone, Debug)]
pub struct AnalyzeRequest {
    /// The game to analyse (its current position).
    pub game: AnyGame,
    /// Search limits (depth, movetime, nodes).
    pub limits: Limits,
    /// Principal variations to show.
    pub multipv: usize,
    /// Transposition table size, MiB.
    pub hash_mib: usize,
    /// Playing level, 0-20 (see [`crate::skill`]).
    pub level: u8,
    /// Print scores from White's point of view instead of the side to move's.
    pub white_pov: bool,
    /// Redraw a progress line between iterations. Only for a terminal: the line is
    /// drawn with `\r`, which piped output must not get.
    pub progress: bool,
    /// Write the position with the best move as an SVG diagram here.
    pub svg: Option<std::path::PathBuf>,
    /// The game is [`pass_move`]'s: its position is the one before with the move
    /// passed, and its best move is reported as the threat.
    pub threat: bool,
}

/// `game` with the move passed to the other side (a null move), for `analyze
/// --threat`: the best move there is the threat, what the side not to move would
/// play if it could move again. The game's only position is the passed one, the
/// keys of the real game before it kept for repetitions.
///
/// # Errors
/// When the side to move is in check (passing would leave its king attacked, so no
/// threat is defined) or the game is over.
pub fn pass_move(game: &AnyGame) -> Result<AnyGame, String> {
    with_game!(game, g, _V => {
        let pos = &g.position;
        let side = side_name(pos.side_to_move());
        if pos.outcome().is_some() {
            return Err("--threat: the game is over, there is no move to pass".to_string());
        }
        if pos.in_check() {
            return Err(format!(
                "--threat: {side} is in check and cannot pass the move, so there is no threat to show (the check is the threat)"
            ));
        }
        let mut passed = *pos;
        passed.play_null();
        let mut keys = g.keys.clone();
        keys.push(pos.key());
        Ok(AnyGame::from(Game {
            start: passed,
            moves: Vec::new(),
            position: passed,
            keys,
        }))
    })
}

/// Builds the game to analyse: `fen` (the start position when `None`), then `moves`
/// as a person types them, separated by spaces: SAN (`e4 e5 Nf3`) or UCI
/// (`e2e4 e7e5`), move numbers (`1.`, `1...`, `2.Nf3`) allowed. Returns warnings
/// about repaired FEN fields.
///
/// # Errors
/// A message for a bad FEN, or one naming the first bad move with some legal moves.
pub fn build_game(
    variant: VariantKind,
    fen: Option<&str>,
    moves: &str,
) -> Result<(AnyGame, Vec<String>), String> {
    let (mut game, warnings) = AnyGame::from_spec(variant, fen, &[]).map_err(|e| e.to_string())?;
    let typed = moves
        .split_whitespace()
        .map(strip_move_number)
        .filter(|m| !m.is_empty());
    for (i, text) in typed.enumerate() {
        with_game!(&mut game, g, _V => {
            let before = g.position;
            g.play_typed(text).map_err(|e| bad_move(&before, i + 1, &e))?;
        });
    }
    Ok((game, warnings))
}

/// `12.Nf3` -> `Nf3`, `12...` -> `` (a move number alone), other text unchanged.
pub(crate) fn strip_move_number(token: &str) -> &str {
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    match token[digits..].trim_start_matches('.') {
        rest if digits > 0 && rest.len() < token.len() - digits => rest,
        _ => token,
    }
}

/// The message for move number `index` of `--moves`, refused in `pos`: the error,
/// and (unless the error lists candidates itself) some of the legal moves.
fn bad_move<V: Variant>(pos: &Position<V>, index: usize, error: &MoveError) -> String {
    let mut text = format!("--moves: move {index}: {error}");
    if matches!(error, MoveError::Ambiguous { .. } | MoveError::Undetermined(_)) {
        return text;
    }
    let mut legal: Vec<String> = pos.legal_moves().iter().map(|&m| san(pos, m)).collect();
    if legal.is_empty() {
        text.push_str(" (the game is over there)");
        return text;
    }
    legal.sort();
    let side = side_name(pos.side_to_move());
    let shown = legal.len().min(LEGAL_MOVES_SHOWN);
    text.push_str(&format!(
        "; {side} to move, legal moves: {}",
        legal[..shown].join(" ")
    ));
    if legal.len() > shown {
        text.push_str(&format!(" ... ({} in all)", legal.len()));
    }
    text.push_str(" (SAN like Nf3 or UCI like g1f3)");
    text
}

pub(crate) fn side_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// How a finished game ended, for a person: `White wins (checkmate)`.
fn result_text(outcome: Outcome, reason: &str) -> String {
    match outcome {
        Outcome::Decisive { winner } => format!("{} wins ({reason})", side_name(winner)),
        Outcome::Draw => format!("draw ({reason})"),
    }
}

/// The limits in words: `3000 ms`, `depth 12`, `depth 8 or 5000 nodes`.
pub fn limits_text(limits: &Limits) -> String {
    let mut parts = Vec::new();
    if let Some(d) = limits.depth {
        parts.push(format!("depth {d}"));
    }
    if let Some(ms) = limits.movetime {
        parts.push(format!("{ms} ms"));
    }
    if let Some(n) = limits.nodes {
        parts.push(format!("{n} nodes"));
    }
    if parts.is_empty() {
        "none (until the deepest depth)".to_string()
    } else {
        parts.join(" or ")
    }
}

/// The options of an analysis search with `multipv` lines: a forced move is searched
/// to the limit too (its line and score are what a person asked for), as
/// UCI_AnalyseMode does.
pub fn analysis_options(multipv: usize) -> SearchOptions {
    SearchOptions {
        multipv: multipv.max(1),
        analysis: true,
        ..SearchOptions::default()
    }
}

/// One search of `position` as `sapper analyze` runs it, and `sapper review` once
/// per position of a game: on the public position (the search never sees hidden
/// mines), `keys` being the keys of the positions before it (repetitions), with
/// `options` from [`analysis_options`].
pub fn search_position<V: EngineVariant>(
    searcher: &mut Searcher<V>,
    position: &Position<V>,
    keys: &[u64],
    limits: &Limits,
    options: &SearchOptions,
    ctx: &SearchContext,
    reporter: &mut dyn Reporter,
) -> SearchResult {
    let public = V::hide_private(position);
    searcher.search(&public, keys, limits, options, ctx, reporter)
}

/// The search's reporter: prints each iteration's lines through the console.
struct Printer<'a, 'w, V: EngineVariant> {
    game: &'a Game<V>,
    console: &'a Mutex<Console<'w>>,
    /// The depth now being searched (one more than the last reported), for the
    /// progress line.
    searching: &'a AtomicI32,
    /// 1 to print scores as the search gives them (side to move), -1 to flip them.
    sign: i32,
    /// Whether lines carry a `[k]` label (more than one principal variation).
    labelled: bool,
}

impl<V: EngineVariant> Reporter for Printer<'_, '_, V> {
    fn iteration(&mut self, info: &IterationInfo) {
        self.searching.store(info.depth + 1, Ordering::Relaxed);
        let line = san_line(&self.game.position, info.pv);
        let label = if self.labelled {
            format!("{:<5}", format!("[{}]", info.multipv))
        } else {
            String::new()
        };
        let mut console = self.console.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = console.line(format_args!(
            "{:>3}/{:<3} {label}{:>7} {:>11} {:>8.2}s  {}",
            info.depth,
            info.seldepth,
            score::human_from(info.score, self.sign < 0),
            info.nodes,
            info.elapsed.as_secs_f64(),
            line
        ));
    }
}

/// Runs the analysis, writing a header, one line per iteration and a summary to `out`
/// (and, with [`AnalyzeRequest::progress`], a progress line between iterations). A
/// finished game is named (who won, by what rule) instead of searched.
///
/// # Errors
/// Only I/O errors of `out`.
pub fn run(request: &AnalyzeRequest, out: &mut (dyn Write + Send)) -> io::Result<()> {
    with_game!(&request.game, g, _V => analyze(g, request, out))
}

fn analyze<V: EngineVariant>(
    g: &Game<V>,
    request: &AnalyzeRequest,
    out: &mut (dyn Write + Send),
) -> io::Result<()> {
    // The search never sees hidden mines (a full-information minesweeper FEN is
    // analysed as its public form, as over UCI with `Mine Knowledge` public).
    let public = V::hide_private(&g.position);
    let root = &public;
    writeln!(out, "Variant: {}", V::NAME)?;
    writeln!(out, "FEN:     {}", root.to_fen())?;
    if request.threat {
        writeln!(
            out,
            "Threat:  {} passes the move (a null move); {}'s best move here is the threat",
            side_name(!root.side_to_move()),
            side_name(root.side_to_move())
        )?;
    }
    let drawn_by_rule = match g.result() {
        // No move to search: checkmate, stalemate, an exploded king, a king on the hill.
        Some((outcome, reason)) if root.outcome().is_some() => {
            writeln!(out, "Game over: {}.", result_text(outcome, reason))?;
            return Ok(());
        }
        Some((_, reason)) => Some(reason),
        None => None,
    };
    let ctx = SearchContext::new(request.hash_mib, default_params(V::KIND));
    let shared: &SearchShared = &ctx.shared;
    let skill = Skill::new(request.level);
    let options = SearchOptions {
        mine_naivety: skill.mine_naivety(),
        searchmoves: skill.root_moves(root, Vec::new()),
        ..analysis_options(request.multipv.max(skill.multipv()))
    };
    let mut limits = request.limits.clone();
    if drawn_by_rule.is_some() && limits.depth.is_none() {
        // Every line scores 0: deeper iterations would only repeat the first (a bare
        // king against a bare king used to print 127 identical lines).
        limits.depth = Some(1);
    }
    if let Some(budget) = skill.node_limit() {
        limits.nodes = Some(limits.nodes.map_or(budget, |n| n.min(budget)));
    }
    let stm = side_name(root.side_to_move());
    // The search scores for the side to move; White's view flips Black's scores.
    let (sign, view, subject) = if request.white_pov {
        let sign = if root.side_to_move() == Color::Black {
            -1
        } else {
            1
        };
        (sign, "White's".to_string(), "White")
    } else {
        (1, format!("the side to move's ({stm}'s)"), "it")
    };
    writeln!(out, "Limit:   {}", limits_text(&limits))?;
    writeln!(
        out,
        "Scores:  pawns from {view} point of view; #n: {subject} mates in n moves, #-n: {subject} is mated in n"
    )?;
    if let Some(reason) = drawn_by_rule {
        writeln!(
            out,
            "The game is drawn by rule ({reason}): every line scores 0 (searched to depth 1 unless --depth says otherwise)."
        )?;
    }
    let labelled = options.multipv > 1;
    writeln!(
        out,
        "{:>7} {}{:>7} {:>11} {:>9}  principal variation",
        "dep/sel",
        if labelled { "line " } else { "" },
        "score",
        "nodes",
        "time"
    )?;

    let console = Mutex::new(Console::new(out));
    let searching = AtomicI32::new(1);
    let mut printer = Printer {
        game: g,
        console: &console,
        searching: &searching,
        sign,
        labelled,
    };
    let mut searcher = Searcher::<V>::new();
    let start = Instant::now();
    let mut result = std::thread::scope(|s| {
        let (done, ticks) = mpsc::channel::<()>();
        if request.progress {
            let (console, searching) = (&console, &searching);
            let moves = root.legal_moves().len();
            s.spawn(move || progress::tick(console, shared, moves, searching, start, ticks));
        }
        let result = search_position(
            &mut searcher,
            root,
            &g.keys,
            &limits,
            &options,
            &ctx,
            &mut printer,
        );
        // Dropping the sender ends the ticker, which the scope then joins.
        drop(done);
        result
    });
    let elapsed = start.elapsed();
    let out = console
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
        .finish()?;

    if skill.is_limited() {
        let mut rng = StdRng::seed_from_u64(root.key());
        if let Some(m) = skill.pick(&result.lines, &mut rng) {
            writeln!(
                out,
                "Level {}: plays {} among the lines above",
                skill.level(),
                san(root, m)
            )?;
            if let Some(&(_, s)) = result.lines.iter().find(|(lm, _)| *lm == m) {
                result.score = s;
            }
            result.best = m;
        }
    }
    if result.best.is_none() {
        // Not reached: a root without legal moves is a finished game, named above.
        writeln!(out, "No legal move.")?;
    } else {
        writeln!(
            out,
            "{} {} ({}), score {}, depth {}, {} nodes in {:.2}s",
            if request.threat { "threat" } else { "Best move:" },
            san(root, result.best),
            result.best,
            score::human_from(result.score, sign < 0),
            result.depth,
            result.nodes,
            elapsed.as_secs_f64()
        )?;
    }
    if let Some(path) = &request.svg {
        std::fs::write(path, svg::diagram(root, result.best))?;
        writeln!(out, "Diagram written to {}", path.display())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_are_stripped() {
        assert_eq!(strip_move_number("12.Nf3"), "Nf3");
        assert_eq!(strip_move_number("1."), "");
        assert_eq!(strip_move_number("3..."), "");
        assert_eq!(strip_move_number("7...e5"), "e5");
        assert_eq!(strip_move_number("e4"), "e4");
        assert_eq!(strip_move_number("e2e4"), "e2e4");
        // Not a move number: digits without a dot are left for the move parser.
        assert_eq!(strip_move_number("12"), "12");
    }

    #[test]
    fn limits_in_words() {
        let limits = Limits {
            depth: Some(8),
            nodes: Some(5000),
            ..Limits::default()
        };
        assert_eq!(limits_text(&limits), "depth 8 or 5000 nodes");
        let limits = Limits {
            movetime: Some(DEFAULT_MOVETIME_MS),
            ..Limits::default()
        };
        assert_eq!(limits_text(&limits), "3000 ms");
    }
}
