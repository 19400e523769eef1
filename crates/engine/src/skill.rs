//! Playing strength below the maximum, for a game site's selectable difficulty.
//!
//! A weaker level searches fewer nodes and looks at several moves (MultiPV); it then
//! picks among them at random with weights `exp((score - best) / T)` (a softmax over
//! centipawns). The temperature `T` grows as the level drops, and moves more than
//! `MARGIN` below the best are never picked, so even low levels make plausible moves
//! rather than random blunders; the node budget limits how far they see. This follows
//! Stockfish's idea (MultiPV plus a score-weighted random choice) with a simpler
//! weighting.

use rand::Rng;
use sapper_rules::moves::Move;

/// The strongest level: full search, best move.
pub const MAX_LEVEL: u8 = 20;

/// The chess Elo of levels 0 to 19 (level 20 is unlimited) on Stockfish's own
/// `UCI_Elo` scale: the self-play ladder of `scripts/ladder.py` (each level against
/// the one below, 60 games per step), stretched and offset by a least-squares fit to
/// four matches against Stockfish 15.1 with `UCI_LimitStrength` (level 8 and 14
/// against 1350, 14 against 1700, 20 against 2200; 200,000 nodes per move), rounded to
/// 5. docs/difficulty.md has the figures; below 1350, Stockfish's lowest setting, the
/// values are extrapolated.
pub const ELO_OF_LEVEL: [u32; MAX_LEVEL as usize] = [
    910, 985, 1025, 1085, 1105, 1150, 1185, 1200, 1205, 1210, 1240, 1295, 1360, 1395, 1460, 1510, 1570, 1655,
    1750, 1865,
];

/// Lowest `UCI_Elo`.
pub const ELO_MIN: u32 = ELO_OF_LEVEL[0];
/// Highest `UCI_Elo` (level 19).
pub const ELO_MAX: u32 = ELO_OF_LEVEL[MAX_LEVEL as usize - 1];

/// Lines searched below the maximum level.
const LINES: usize = 4;

/// The largest deficit a weakened move may have, centipawns.
const MARGIN: i32 = 300;

/// A playing level from 0 (weakest) to [`MAX_LEVEL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    level: u8,
}

impl Default for Skill {
    fn default() -> Self {
        Skill { level: MAX_LEVEL }
    }
}

impl Skill {
    /// The skill of `level` (clamped to 0..=20).
    pub fn new(level: u8) -> Skill {
        Skill {
            level: level.min(MAX_LEVEL),
        }
    }

    /// The highest level whose Elo does not exceed `elo` (UCI_LimitStrength).
    pub fn from_elo(elo: u32) -> Skill {
        let level = ELO_OF_LEVEL.iter().rposition(|&e| e <= elo).unwrap_or(0);
        Skill::new(level as u8)
    }

    /// The level.
    pub fn level(&self) -> u8 {
        self.level
    }

    /// Whether play is weakened at all.
    pub fn is_limited(&self) -> bool {
        self.level < MAX_LEVEL
    }

    /// The node budget per move: 50 nodes at level 0, times 1.5 per level
    /// (about 111,000 at level 19); unlimited at level 20.
    pub fn node_limit(&self) -> Option<u64> {
        self.is_limited()
            .then(|| (50.0 * 1.5f64.powi(self.level as i32)).round() as u64)
    }

    /// Principal variations to search.
    pub fn multipv(&self) -> usize {
        if self.is_limited() {
            LINES
        } else {
            1
        }
    }

    /// Softmax temperature in centipawns: 200 at level 0 down to 10 at level 19.
    fn temperature(&self) -> f64 {
        10.0 + 190.0 * (MAX_LEVEL - 1 - self.level.min(MAX_LEVEL - 1)) as f64 / (MAX_LEVEL - 1) as f64
    }

    /// Picks a move from `lines` (root moves with scores, best first).
    pub fn pick(&self, lines: &[(Move, i32)], rng: &mut impl Rng) -> Option<Move> {
        let &(best_move, best) = lines.first()?;
        if !self.is_limited() {
            return Some(best_move);
        }
        let t = self.temperature();
        let weights: Vec<f64> = lines
            .iter()
            .map(|&(_, s)| {
                if best - s > MARGIN {
                    0.0
                } else {
                    ((s - best) as f64 / t).exp()
                }
            })
            .collect();
        let total: f64 = weights.iter().sum();
        let mut x = rng.gen::<f64>() * total;
        for (&(m, _), w) in lines.iter().zip(&weights) {
            if x < *w {
                return Some(m);
            }
            x -= w;
        }
        Some(best_move)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use sapper_rules::types::Square;

    #[test]
    fn full_strength_always_plays_the_best_move() {
        let a = Move::normal(Square(12), Square(28));
        let b = Move::normal(Square(6), Square(21));
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        for _ in 0..100 {
            assert_eq!(Skill::new(20).pick(&[(a, 10), (b, 9)], &mut rng), Some(a));
        }
    }

    #[test]
    fn weak_levels_vary_but_never_blunder_past_the_margin() {
        let good = Move::normal(Square(12), Square(28));
        let close = Move::normal(Square(6), Square(21));
        let blunder = Move::normal(Square(3), Square(39));
        let lines = [(good, 50), (close, 20), (blunder, 50 - MARGIN - 1)];
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut picked_close = 0;
        for _ in 0..1000 {
            let m = Skill::new(0).pick(&lines, &mut rng).unwrap();
            assert_ne!(m, blunder);
            picked_close += usize::from(m == close);
        }
        assert!(picked_close > 100, "{picked_close}");
    }

    #[test]
    fn elo_maps_to_levels_monotonically() {
        assert_eq!(Skill::from_elo(ELO_MIN).level(), 0);
        assert_eq!(Skill::from_elo(ELO_MAX).level(), MAX_LEVEL - 1);
        assert!(ELO_OF_LEVEL.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(Skill::from_elo(ELO_OF_LEVEL[7] + 1).level(), 7);
    }

    #[test]
    fn budgets_grow_with_the_level() {
        let budgets: Vec<u64> = (0..20).map(|l| Skill::new(l).node_limit().unwrap()).collect();
        assert!(budgets.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(Skill::new(20).node_limit(), None);
    }
}
