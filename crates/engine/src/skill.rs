//! Playing strength below the maximum, for a game site's selectable difficulty.
//!
//! A weaker level searches fewer nodes and looks at several moves (MultiPV); it then
//! picks among them at random with weights `exp((score - best) / T)` (a softmax over
//! centipawns). The temperature `T` grows as the level drops, and moves more than
//! `MARGIN` below the best are never picked, so even low levels make plausible moves
//! rather than random blunders; the node budget limits how far they see. This follows
//! Stockfish's idea (MultiPV plus a score-weighted random choice) with a simpler
//! weighting.
//!
//! In minesweeper a weaker level also errs with the fog as a learner does
//! ([`Skill::mine_naivety`], [`Skill::root_moves`]): it misjudges the risk of
//! fogged squares, but never walks onto a mine in plain sight.
//!
//! [`Variety`] (UCI `Opening Variety`, off by default) varies full-strength play in
//! the opening: the engine searches [`VARIETY_LINES`] lines and picks among those
//! within [`VARIETY_MARGIN`] of the best, with the same softmax at a temperature of
//! [`VARIETY_TEMPERATURE`], so that games against it do not repeat while no move
//! costs more than a few centipawns on average.

use crate::search::VariantSearch;
use rand::Rng;
use sapper_rules::moves::Move;
use sapper_rules::position::Position;

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

/// Opening variety applies up to this full move number (the first ten moves of
/// each side, where games branch and engines' books usually end).
pub const VARIETY_MOVES: u32 = 10;

/// Lines searched for opening variety.
pub const VARIETY_LINES: usize = 3;

/// The largest deficit, centipawns, a varied move may have: about a tenth of a pawn
/// either way is noise in an opening evaluation, a quarter of a pawn the edge of it.
pub const VARIETY_MARGIN: i32 = 25;

/// The softmax temperature of opening variety, centipawns: a move 10 cp worse is
/// picked e^-1 = 0.37 times as often as the best, one 25 cp worse 0.08 times, so the
/// expected cost of a varied move is a few centipawns (see the tests).
pub const VARIETY_TEMPERATURE: f64 = 10.0;

/// Opening variety (UCI `Opening Variety`): at full strength, a random choice among
/// near-equal moves in the first [`VARIETY_MOVES`] moves. Weakened levels vary
/// anyway ([`Skill::pick`], whose temperature is at least as high), so it is only
/// applied at level 20. It never applies to analysis (`UCI_AnalyseMode`, `go
/// infinite`, `go ponder`, `go mate`, `searchmoves`), to `bench`, nor to a position
/// where a line scores a mate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Variety {
    /// The option's value.
    pub enabled: bool,
}

impl Variety {
    /// Whether a search from a position with full move number `fullmove` by a
    /// player of `skill` varies, the search being no analysis.
    pub fn applies(&self, skill: Skill, fullmove: u32) -> bool {
        self.enabled && !skill.is_limited() && fullmove <= VARIETY_MOVES
    }

    /// Picks a move among `lines` (root moves with scores, best first): the best
    /// move or one within [`VARIETY_MARGIN`], weighted `exp((score - best) /
    /// VARIETY_TEMPERATURE)`. A mate score anywhere among the lines keeps the best
    /// move.
    pub fn pick(&self, lines: &[(Move, i32)], rng: &mut impl Rng) -> Option<Move> {
        let &(best_move, best) = lines.first()?;
        if lines.iter().any(|&(_, s)| crate::search::score::is_mate(s)) {
            return Some(best_move);
        }
        let weights: Vec<f64> = lines
            .iter()
            .map(|&(_, s)| {
                if best - s > VARIETY_MARGIN {
                    0.0
                } else {
                    ((s - best) as f64 / VARIETY_TEMPERATURE).exp()
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

    /// Minesweeper: how far a level's mine probabilities lean from the exact
    /// posterior toward a learner's guess (the mines left spread evenly over the
    /// fog; `search::belief::Belief::with_naivety`): 0 at level 20, 0.05 at level
    /// 19, rising by 0.05 a level to 1 at level 0. A learner does not yet read what
    /// the numbers say, so weaker levels step onto squares the numbers warn of (and
    /// lose pieces to mines) more often, and distrust squares they prove safe, as
    /// people learning the game do; a mine in plain sight is never taken for safe.
    pub fn mine_naivety(&self) -> f32 {
        f32::from(MAX_LEVEL - self.level) / f32::from(MAX_LEVEL)
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

    /// The root moves a level searches, given the caller's `searchmoves` (empty
    /// for all). Minesweeper: below level 20, a move that lands a piece on a mine in
    /// plain sight (a discovered one, or one the search was told of with `Mine
    /// Knowledge` full) is left out unless every move does: a learner walks into
    /// mines it cannot see (`search::belief::Belief::with_naivety`), not onto one it
    /// can. Without this, level 0 lost more than one pawn a game to pushes onto
    /// discovered mines, which its 50-node search can rank first. Returns
    /// `searchmoves` itself when nothing is left out.
    pub fn root_moves<V: VariantSearch>(&self, pos: &Position<V>, searchmoves: Vec<Move>) -> Vec<Move> {
        if !self.is_limited() || !V::MINES {
            return searchmoves;
        }
        let candidates: Vec<Move> = if searchmoves.is_empty() {
            pos.legal_moves().iter().copied().collect()
        } else {
            searchmoves.clone()
        };
        let kept: Vec<Move> = candidates
            .iter()
            .copied()
            .filter(|&m| V::mine_probability(pos, m, None) < 1.0)
            .collect();
        if kept.is_empty() || kept.len() == candidates.len() {
            searchmoves
        } else {
            kept
        }
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
    use sapper_rules::notation::parse_uci_move;
    use sapper_rules::types::Square;
    use sapper_rules::variant::minesweeper::Minesweeper;
    use sapper_rules::variant::Chess;

    #[test]
    fn mine_naivety_falls_from_the_learner_to_the_exact_belief() {
        assert_eq!(Skill::new(0).mine_naivety(), 1.0);
        assert_eq!(Skill::new(MAX_LEVEL).mine_naivety(), 0.0);
        for level in 1..=MAX_LEVEL {
            assert!(Skill::new(level).mine_naivety() < Skill::new(level - 1).mine_naivety());
        }
    }

    /// Below level 20 a move onto a discovered mine is not searched, unless every
    /// move is one; level 20, and chess, keep every move.
    #[test]
    fn weak_levels_never_walk_onto_a_mine_in_plain_sight() {
        // A discovered mine on e5 (fog row 5, `*`), in front of the pawn on e4.
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3 ????????/????????/????*???/???111?? 4";
        let (pos, _) = Position::<Minesweeper>::from_fen(fen).unwrap();
        let onto_mine = parse_uci_move(&pos, "e4e5").unwrap();
        assert_eq!(Minesweeper::mine_probability(&pos, onto_mine, None), 1.0);
        let all = pos.legal_moves().len();
        let weak = Skill::new(0).root_moves(&pos, Vec::new());
        assert_eq!(weak.len(), all - 1);
        assert!(!weak.contains(&onto_mine));
        assert!(Skill::new(MAX_LEVEL).root_moves(&pos, Vec::new()).is_empty());
        let other = parse_uci_move(&pos, "g1f3").unwrap();
        assert_eq!(
            Skill::new(5).root_moves(&pos, vec![onto_mine, other]),
            vec![other]
        );
        assert_eq!(Skill::new(5).root_moves(&pos, vec![onto_mine]), vec![onto_mine]);
        assert!(Skill::new(0)
            .root_moves(&Position::<Chess>::startpos(), Vec::new())
            .is_empty());
    }

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
    fn variety_picks_only_near_equal_moves_and_costs_little() {
        let best = Move::normal(Square(12), Square(28));
        let near = Move::normal(Square(11), Square(27));
        let edge = Move::normal(Square(6), Square(21));
        let worse = Move::normal(Square(1), Square(18));
        let lines = [
            (best, 30),
            (near, 25),
            (edge, 30 - VARIETY_MARGIN),
            (worse, 30 - VARIETY_MARGIN - 1),
        ];
        let variety = Variety { enabled: true };
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let mut counts = [0usize; 4];
        let mut cost = 0;
        for _ in 0..10_000 {
            let m = variety.pick(&lines, &mut rng).unwrap();
            let i = lines.iter().position(|&(l, _)| l == m).unwrap();
            counts[i] += 1;
            cost += 30 - lines[i].1;
        }
        assert_eq!(counts[3], 0, "{counts:?}");
        assert!(counts[1] > 2_000 && counts[2] > 100, "{counts:?}");
        assert!(counts[0] > counts[1] && counts[1] > counts[2], "{counts:?}");
        // The expected cost of the choice: a few centipawns.
        assert!(cost < 10_000 * 5, "{cost}");
        // A mate among the lines: the best move, always.
        let mate = [
            (best, crate::search::score::MATE - 3),
            (near, crate::search::score::MATE - 5),
        ];
        assert!((0..100).all(|_| variety.pick(&mate, &mut rng) == Some(best)));
    }

    #[test]
    fn variety_applies_at_full_strength_in_the_opening_when_enabled() {
        let on = Variety { enabled: true };
        assert!(on.applies(Skill::new(20), 1));
        assert!(on.applies(Skill::new(20), VARIETY_MOVES));
        assert!(!on.applies(Skill::new(20), VARIETY_MOVES + 1));
        assert!(!on.applies(Skill::new(19), 1));
        assert!(!Variety::default().applies(Skill::new(20), 1));
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
