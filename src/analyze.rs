//! `sapper analyze`: searches one position and prints each iteration for a person
//! to follow (depth, score, nodes, time, and the principal variation in SAN).

use crate::eval::default_params;
use crate::game::{AnyGame, Game};
use crate::notation::{san, san_line};
use crate::search::timeman::Limits;
use crate::search::tt::TranspositionTable;
use crate::search::{score, IterationInfo, Reporter, SearchOptions, SearchShared, Searcher};
use crate::skill::Skill;
use crate::variant::Variant;
use crate::with_game;
use rand::rngs::StdRng;
use rand::SeedableRng;
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
    /// Playing level, 0-20 (see [`crate::skill`]).
    pub level: u8,
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
    let skill = Skill::new(request.level);
    let options = SearchOptions {
        multipv: request.multipv.max(skill.multipv()),
        ..SearchOptions::default()
    };
    let mut limits = request.limits.clone();
    if let Some(budget) = skill.node_limit() {
        limits.nodes = Some(limits.nodes.map_or(budget, |n| n.min(budget)));
    }
    with_game!(&request.game, g, V => {
        let params = default_params(V::KIND);
        writeln!(out, "Variant: {}", V::NAME)?;
        writeln!(out, "FEN:     {}", g.position.to_fen())?;
        writeln!(out, "depth/sel   score       nodes     time  principal variation")?;
        let mut printer = Printer { game: g, out: &mut *out };
        let mut searcher = Searcher::<V>::new();
        let mut result = searcher.search(&g.position, &g.keys, &limits, &options, &shared, &params, &mut printer);
        if skill.is_limited() {
            let mut rng = StdRng::seed_from_u64(g.position.key());
            if let Some(m) = skill.pick(&result.lines, &mut rng) {
                writeln!(out, "Level {}: plays {} among the lines above", skill.level(), san(&g.position, m))?;
                if let Some(&(_, s)) = result.lines.iter().find(|(lm, _)| *lm == m) {
                    result.score = s;
                }
                result.best = m;
            }
        }
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
