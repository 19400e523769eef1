//! Counting the results from engine 1's side: W/D/L, the pentanomial counts of
//! completed pairs (games finish out of order on several threads, so a pair's first
//! game waits for its partner), forfeits and terminations, and the pieces each
//! engine lost to mines.

use super::record::Termination;
use super::worker::GameReport;
use crate::stats::{self, Pentanomial};
use sapper_rules::types::Color;
use std::collections::{BTreeMap, HashMap};

/// Engine 1's tally.
#[derive(Default)]
pub(super) struct Tally {
    /// Games engine 1 won.
    pub(super) wins: u32,
    /// Games drawn.
    pub(super) draws: u32,
    /// Games engine 1 lost.
    pub(super) losses: u32,
    /// Per pair (from 0): engine 1's score in its two games.
    pairs: HashMap<u32, [Option<f64>; 2]>,
    /// Completed pairs by engine 1's points (0, 1/2, 1, 3/2, 2).
    pub(super) penta: Pentanomial,
    /// Per engine: forfeit termination -> count.
    pub(super) forfeits: [BTreeMap<Termination, u32>; 2],
    /// Every game's termination -> count.
    pub(super) terminations: BTreeMap<Termination, u32>,
    /// Per engine: pieces destroyed by mines.
    pub(super) mine_losses: [u32; 2],
    /// Per engine: games in which it lost a piece to a mine.
    pub(super) mine_loss_games: [u32; 2],
    /// Per engine: pieces destroyed on a mine discovered before the move.
    pub(super) mine_losses_in_sight: [u32; 2],
}

impl Tally {
    /// Adds a game; returns true when it completed a pair.
    pub(super) fn add(&mut self, report: &GameReport) -> bool {
        let r = &report.record;
        let engine1_color = if r.white_engine == 1 {
            Color::White
        } else {
            Color::Black
        };
        let score = r.result.score_for(engine1_color);
        match score {
            s if s > 0.75 => self.wins += 1,
            s if s < 0.25 => self.losses += 1,
            _ => self.draws += 1,
        }
        *self.terminations.entry(r.termination).or_default() += 1;
        for (idx, &lost) in report.mine_losses.iter().enumerate() {
            self.mine_losses[idx] += lost;
            self.mine_loss_games[idx] += u32::from(lost > 0);
            self.mine_losses_in_sight[idx] += report.mine_losses_in_sight[idx];
        }
        if let Some(idx) = report.forfeiter {
            *self.forfeits[idx].entry(r.termination).or_default() += 1;
        }
        let slot = self.pairs.entry(r.pair - 1).or_default();
        slot[((r.game - 1) % 2) as usize] = Some(score);
        if let [Some(a), Some(b)] = *slot {
            self.penta[stats::pair_bucket(a, b)] += 1;
            return true;
        }
        false
    }

    /// Games counted.
    pub(super) fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Games forfeited by either engine with termination `t`.
    pub(super) fn forfeit_total(&self, t: Termination) -> u32 {
        self.forfeits
            .iter()
            .map(|f| f.get(&t).copied().unwrap_or(0))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::record::{GameRecord, GameResult};

    #[test]
    fn the_tally_scores_pairs_from_engine_one_s_view() {
        let make = |game: u32, white_engine: u8, result: GameResult| GameReport {
            record: GameRecord {
                game,
                pair: game.div_ceil(2),
                white: String::new(),
                black: String::new(),
                white_engine,
                seed: 0,
                layout: vec![],
                start_fen: String::new(),
                moves: vec![],
                result,
                termination: Termination::Checkmate,
                detail: None,
                times_ms: vec![],
                max_plies: 400,
            },
            forfeiter: None,
            mine_losses: [game % 2, game / 2],
            mine_losses_in_sight: [game % 2, 0],
        };
        let mut t = Tally::default();
        // Engine 1 wins with White, then wins with Black: WW.
        assert!(!t.add(&make(1, 1, GameResult::WhiteWins)));
        assert!(t.add(&make(2, 2, GameResult::BlackWins)));
        // Engine 1 draws, then loses with Black: LD.
        assert!(!t.add(&make(4, 2, GameResult::WhiteWins)));
        assert!(t.add(&make(3, 1, GameResult::Draw)));
        assert_eq!((t.wins, t.draws, t.losses), (2, 1, 1));
        assert_eq!(t.penta, [0, 1, 0, 0, 1]);
        // Mine losses per engine: games 1-4 lost [1, 0], [0, 1], [1, 1], [0, 2].
        assert_eq!(t.mine_losses, [2, 4]);
        assert_eq!(t.mine_loss_games, [2, 3]);
        assert_eq!(t.mine_losses_in_sight, [2, 0]);
    }
}
