//! `sapper analyze`: searches one position and prints each iteration for a person
//! to follow (depth, score, nodes, time, and the principal variation in SAN).

use crate::eval::default_params;
use crate::game::{AnyGame, Game};
use crate::notation::{san, san_line};
use crate::search::timeman::Limits;
use crate::search::tt::TranspositionTable;
use crate::search::{score, IterationInfo, Reporter, SearchOptions, SearchShared, Searcher};
use crate::variant::Variant;
use crate::with_game;
use std::io::Write;
use std::sync::Arc;

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
}

struct Printer<'w, V: Variant> {
    game: &'w Game<V>,
    out: &'w mut dyn Write,
}

impl<V: Variant> Reporter for Printer<'_, V> {
    fn iteration(&mut self, info: &IterationInfo) {
        let line = san_line(&self.game.position, info.pv);
        let multipv = if info.multipv > 1 {
            format!("#{} ", info.multipv)
        } else {
            String::new()
        };
        let _ = writeln!(
            self.out,
            "{:>3}/{:<3} {multipv}{:>7} {:>11} {:>8.2}s  {}",
            info.depth,
            info.seldepth,
            score::human(info.score),
            info.nodes,
            info.elapsed.as_secs_f64(),
            line
        );
    }
}

/// Runs the analysis, writing a header, one line per iteration and a summary to `out`.
///
/// # Errors
/// Only I/O errors of `out`.
pub fn run(request: &AnalyzeRequest, out: &mut dyn Write) -> std::io::Result<()> {
    let shared = SearchShared::new(Arc::new(TranspositionTable::new(request.hash_mib)));
    let options = SearchOptions {
        multipv: request.multipv,
        ..SearchOptions::default()
    };
    with_game!(&request.game, g, V => {
        let params = default_params(V::KIND);
        writeln!(out, "Variant: {}", V::NAME)?;
        writeln!(out, "FEN:     {}", g.position.to_fen())?;
        writeln!(out, "depth/sel   score       nodes     time  principal variation")?;
        let mut printer = Printer { game: g, out: &mut *out };
        let mut searcher = Searcher::<V>::new();
        let result = searcher.search(&g.position, &g.keys, &request.limits, &options, &shared, &params, &mut printer);
        if result.best.is_none() {
            writeln!(out, "No legal move: the game is over ({}).", score::human(result.score))?;
        } else {
            writeln!(
                out,
                "Best move: {} ({}), score {}, depth {}, {} nodes",
                san(&g.position, result.best),
                result.best,
                score::human(result.score),
                result.depth,
                result.nodes
            )?;
        }
    });
    Ok(())
}
