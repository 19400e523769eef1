//! What the search knows of the mines below a public root (see
//! `docs/minesweeper-search.md`).
//!
//! The root's consistent layouts are kept in factored form (inference.rs: frontier
//! assignments times subsets of the free squares), so a conditioning is counted
//! per frontier assignment with binomials, never by a pass over up to 35,960
//! layouts. Below the root
//! the search learns only the outcomes of its own chance moves: a mine found on a
//! landing square, or none. The probability of a mine on a square is the share of
//! root layouts, among those agreeing with every outcome on the line, that mine it:
//! the root posterior conditioned on the line. Numbers revealed below the root are
//! not modelled (the search cannot know them); by the law of total probability the
//! conditioned posterior is their expectation, so the estimate is unbiased.

use crate::search::{LateQuiets, VariantSearch};
use sapper_rules::bitboard::BitBoard;
use sapper_rules::moves::{Move, MoveKind};
use sapper_rules::position::Position;
use sapper_rules::types::Role;
use sapper_rules::variant::minesweeper::inference::{binomial, factored_layouts};
use sapper_rules::variant::minesweeper::{zone_index, MineState, Minesweeper, ZONE_SIZE};

/// The chance nodes' questions: which moves land on a possible mine, and how likely.
impl VariantSearch for Minesweeper {
    type Belief = Belief;
    const LATE_QUIETS: LateQuiets = LateQuiets::Unforcing;

    fn new_belief(root: &Position<Self>, naivety: f32) -> Option<Self::Belief> {
        (!root.state().full).then(|| Belief::new(root.state()).with_naivety(naivety))
    }

    fn mine_probability(pos: &Position<Self>, m: Move, belief: Option<&mut Self::Belief>) -> f32 {
        if matches!(m.kind(), MoveKind::Sapper | MoveKind::Castle) {
            return 0.0;
        }
        let Some(i) = zone_index(m.to()) else {
            return 0.0;
        };
        if pos.occupied().has(m.to()) || pos.role_at(m.from()) == Some(Role::King) {
            return 0.0;
        }
        let st = pos.state();
        let bit = 1u32 << i;
        if st.full {
            return if st.mines & bit != 0 { 1.0 } else { 0.0 };
        }
        if st.discovered & bit != 0 {
            return 1.0;
        }
        if (st.fog & !st.swept | st.unseen) & !st.known_empty() & bit == 0 {
            return 0.0;
        }
        belief.map_or(0.0, |b| b.probability(st, i))
    }
}

/// One conditioning's probabilities, in a direct-mapped cache slot.
#[derive(Clone, Copy, Debug)]
struct Slot {
    /// `(found_mine, found_safe)`, or `None` while the slot is empty.
    key: Option<(u32, u32)>,
    /// The mine probability of each zone square under that conditioning.
    probability: [f32; ZONE_SIZE],
}

const EMPTY_SLOT: Slot = Slot {
    key: None,
    probability: [0.0; ZONE_SIZE],
};

/// The share of a mine's risk the most naive learner (level 0) overlooks; see
/// [`Belief::with_naivety`].
pub const CARELESSNESS: f32 = 0.5;

/// Slots of the cache (a power of two). A miss costs one pass over the root's
/// frontier assignments.
const SLOTS: usize = 1 << 12;

/// The root's layouts and a cache of conditioned probabilities.
#[derive(Clone, Debug)]
pub struct Belief {
    /// The root's consistent frontier assignments: (frontier mines, mines left for
    /// the free squares).
    leaves: Vec<(u32, u32)>,
    /// The root's free squares: fogged, unswept, next to no revealed number.
    free: u32,
    slots: Vec<Slot>,
    /// The slot of the last lookup: the moves of one node share their conditioning.
    last: usize,
    /// How far the probabilities lean from the exact posterior to the learner's
    /// guess, 0 (exact) to 1 (the guess alone); see [`Belief::with_naivety`].
    naivety: f32,
    /// The learner's guess for every unknown square at the root: undiscovered mines
    /// over fogged, unswept, undiscovered squares.
    uniform: f32,
}

impl Belief {
    /// The belief at a public root.
    pub fn new(root: &MineState) -> Belief {
        let field = root.public_field();
        let (leaves, free) = factored_layouts(&field);
        let unknown = (field.unknown & !field.discovered).count_ones();
        let undiscovered = u32::from(field.counter).saturating_sub(field.discovered.count_ones());
        Belief {
            leaves,
            free,
            slots: vec![EMPTY_SLOT; SLOTS],
            last: 0,
            naivety: 0.0,
            uniform: if unknown == 0 {
                0.0
            } else {
                (undiscovered as f32 / unknown as f32).min(1.0)
            },
        }
    }

    /// The belief of a learner (weaker `Skill Level`s, `skill::Skill::mine_naivety`).
    /// A player learning the game makes two mistakes with the fog, and `naivety`
    /// (clamped to 0..=1; 0 is the exact belief) sets both: they do not yet read
    /// what the numbers say, so each unknown square's probability is moved from the
    /// exact posterior toward `u`, the mines left spread evenly over the unknown
    /// squares at the root, by the share `naivety`; and they take less care than
    /// the risk deserves, so that probability is then scaled by
    /// `1 - naivety * CARELESSNESS`. A mine is hit only where one can be, so the
    /// learner's losses fall on risky squares in proportion to their risk, never on
    /// a proven-safe square; what is in plain sight (a discovered mine, a square out
    /// of the fog or swept) stays certain, as `mine_probability` decides those
    /// before asking the belief.
    pub fn with_naivety(mut self, naivety: f32) -> Belief {
        self.naivety = naivety.clamp(0.0, 1.0);
        self
    }

    /// Number of consistent layouts at the root.
    pub fn root_layouts(&self) -> u64 {
        let n = self.free.count_ones();
        self.leaves.iter().map(|&(_, rest)| binomial(n, rest)).sum()
    }

    /// The probability that zone square `i` holds a mine at a node whose line found
    /// mines on `st.found_mine` and none on `st.found_safe`.
    #[inline]
    pub fn probability(&mut self, st: &MineState, i: usize) -> f32 {
        let key = (st.found_mine, st.found_safe);
        if self.slots[self.last].key != Some(key) {
            self.last = slot_index(key);
            if self.slots[self.last].key != Some(key) {
                self.slots[self.last] = self.conditioned(key);
            }
        }
        let exact = self.slots[self.last].probability[i];
        if self.naivety > 0.0 {
            (exact + self.naivety * (self.uniform - exact)) * (1.0 - self.naivety * CARELESSNESS)
        } else {
            exact
        }
    }

    /// The per-square mine probabilities among the root layouts that mine every
    /// square of `found_mine` and none of `found_safe` (0 where none agrees).
    ///
    /// Per frontier assignment `(a, rest)`: it must agree with the outcomes on the
    /// frontier; on the free squares, the `f` found mines take `f` of its `rest`
    /// mines and the found-safe squares drop out, leaving `C(n', rest - f)` ways
    /// over the `n'` open free squares, each of which is mined in
    /// `C(n' - 1, rest - f - 1)` of them.
    fn conditioned(&self, (found_mine, found_safe): (u32, u32)) -> Slot {
        let free = self.free;
        let free_mine = found_mine & free;
        let open = free & !found_mine & !found_safe;
        let n = open.count_ones();
        let forced = free_mine.count_ones();
        let (frontier_mine, frontier_safe) = (found_mine & !free, found_safe & !free);
        let mut count = 0u64;
        let mut per_open = 0u64;
        let mut mines = [0u64; ZONE_SIZE];
        for &(a, rest) in &self.leaves {
            if a & frontier_mine != frontier_mine || a & frontier_safe != 0 || rest < forced {
                continue;
            }
            let left = rest - forced;
            let ways = binomial(n, left);
            if ways == 0 {
                continue;
            }
            count += ways;
            if left >= 1 {
                per_open += binomial(n - 1, left - 1);
            }
            let mut bits = a | free_mine;
            while bits != 0 {
                mines[bits.trailing_zeros() as usize] += ways;
                bits &= bits - 1;
            }
        }
        let mut bits = open;
        while bits != 0 {
            mines[bits.trailing_zeros() as usize] = per_open;
            bits &= bits - 1;
        }
        let mut slot = Slot {
            key: Some((found_mine, found_safe)),
            probability: [0.0; ZONE_SIZE],
        };
        if count > 0 {
            for (p, &k) in slot.probability.iter_mut().zip(&mines) {
                *p = (k as f64 / count as f64) as f32;
            }
        }
        slot
    }
}

/// A multiplicative hash of a conditioning to a slot.
#[inline(always)]
fn slot_index((found_mine, found_safe): (u32, u32)) -> usize {
    let x = (u64::from(found_mine) << 32 | u64::from(found_safe)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (x >> (64 - SLOTS.trailing_zeros())) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use sapper_rules::notation::parse_uci_move;
    use sapper_rules::position::Position;
    use sapper_rules::variant::minesweeper::inference::layouts;
    use sapper_rules::variant::minesweeper::public::{to_public, with_layout};
    use sapper_rules::variant::minesweeper::{zone_index, zone_square, Minesweeper};

    /// The search's estimate below the root must equal the expectation of the exact
    /// posterior over what the landing reveals (law of total probability): average
    /// the exact inference after the move over every consistent layout with the
    /// same outcome, and compare square by square.
    fn check_estimate(public_fen: &str, mv: &str) {
        let (root, _) = Position::<Minesweeper>::from_fen(public_fen).unwrap();
        let m = parse_uci_move(&root, mv).unwrap();
        let target = zone_index(m.to()).unwrap();
        let mut belief = Belief::new(root.state());
        assert!(belief.root_layouts() > 0);
        for mine in [false, true] {
            let mut estimate_pos = root;
            estimate_pos.play_outcome(m, mine);
            let mut sums = [0f64; ZONE_SIZE];
            let mut count = 0usize;
            for layout in layouts(&root.state().public_field()) {
                if (layout & (1 << target) != 0) != mine {
                    continue;
                }
                let mut full = with_layout(&root, layout);
                full.play(m);
                let exact = to_public(&full).mine_inference();
                assert!(exact.layouts > 0);
                for (i, sum) in sums.iter_mut().enumerate() {
                    *sum += exact.probability(i);
                }
                count += 1;
            }
            assert!(count > 0);
            for (i, sum) in sums.iter().enumerate() {
                if i == target {
                    continue; // the landing square itself is cleared either way
                }
                let expected = sum / count as f64;
                let got = belief.probability(estimate_pos.state(), i) as f64;
                assert!(
                    (expected - got).abs() < 1e-5,
                    "{public_fen} {mv} mine={mine} {}: exact average {expected}, estimate {got}",
                    zone_square(i)
                );
            }
        }
    }

    #[test]
    fn estimate_below_root_is_the_expected_exact_posterior() {
        // No information yet: a double push into the fog.
        check_estimate(
            "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ????????/????????/????????/???????? 4",
            "e2e4",
        );
        // A knight jumps into the fog next to a revealed number, and away from it.
        let fen = "r1bqkbnr/pppppppp/2n5/8/8/8/8/2N5/PPPPPPPP/R1BQKBNR w KQkq - 4 3 ????????/????????/????????/?1?????? 4";
        check_estimate(fen, "c3b5");
        check_estimate(fen, "c3e4");
    }

    /// A learner's belief is the exact one moved toward the even spread of the mines
    /// left and scaled down by its carelessness: squares next to a revealed 0
    /// (proven safe) become risky, the others meet at the spread; naivety 0 changes
    /// nothing.
    #[test]
    fn naive_belief_leans_toward_the_even_spread() {
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ????????/????????/??1?????/?0?????? 4";
        let (root, _) = Position::<Minesweeper>::from_fen(fen).unwrap();
        let st = *root.state();
        let unknown = st.fog & !st.swept & !st.known_empty() & !st.discovered;
        let spread = 4.0 / unknown.count_ones() as f32;
        let scale = |naivety: f32| 1.0 - naivety * CARELESSNESS;
        let mut exact = Belief::new(&st);
        let mut none = Belief::new(&st).with_naivety(0.0);
        let mut half = Belief::new(&st).with_naivety(0.5);
        let mut full = Belief::new(&st).with_naivety(7.0); // clamped to 1
        let mut proven_safe = 0;
        for i in (0..ZONE_SIZE).filter(|i| unknown & (1 << i) != 0) {
            let p = exact.probability(&st, i);
            if p == 0.0 {
                proven_safe += 1;
            }
            assert_eq!(none.probability(&st, i), p);
            assert!(
                (half.probability(&st, i) - (p + spread) / 2.0 * scale(0.5)).abs() < 1e-6,
                "{i}"
            );
            assert!(
                (full.probability(&st, i) - spread * scale(1.0)).abs() < 1e-6,
                "{i}"
            );
        }
        assert!(proven_safe >= 3, "the revealed 0 proves its neighbours safe");
    }

    /// The factored count must equal a plain pass over the enumerated layouts,
    /// for conditionings on frontier and free squares alike.
    #[test]
    fn factored_conditioning_matches_enumeration() {
        use rand::{Rng, SeedableRng};
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ????????/????????/????????/???????? 4",
            "r1bqkbnr/pppppppp/2n5/8/8/8/8/2N5/PPPPPPPP/R1BQKBNR w KQkq - 4 3 ????????/????????/????????/?1?????? 4",
            "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ????????/????????/??1?????/?1??2??? 4",
            "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ????????/???0????/??1?????/?1??2??? 4",
            "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ????????/????????/?2??????/??1?1??? 3",
        ];
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for fen in fens {
            let (root, _) = Position::<Minesweeper>::from_fen(fen).unwrap();
            let all = layouts(&root.state().public_field());
            let mut belief = Belief::new(root.state());
            assert_eq!(belief.root_layouts(), all.len() as u64, "{fen}");
            let unknown = root.state().fog & !root.state().swept;
            for _ in 0..200 {
                let (mut found_mine, mut found_safe) = (0u32, 0u32);
                for i in 0..ZONE_SIZE {
                    if unknown & (1 << i) != 0 {
                        match rng.gen_range(0..12) {
                            0 => found_mine |= 1 << i,
                            1 | 2 => found_safe |= 1 << i,
                            _ => {}
                        }
                    }
                }
                let agreeing: Vec<u32> = all
                    .iter()
                    .copied()
                    .filter(|&l| l & found_mine == found_mine && l & found_safe == 0)
                    .collect();
                let mut st = *root.state();
                st.found_mine = found_mine;
                st.found_safe = found_safe;
                for i in 0..ZONE_SIZE {
                    let expected = if agreeing.is_empty() {
                        0.0
                    } else {
                        agreeing.iter().filter(|&&l| l & (1 << i) != 0).count() as f64 / agreeing.len() as f64
                    };
                    let got = belief.probability(&st, i) as f64;
                    assert!((expected - got).abs() < 1e-6, "{fen} {i}: {expected} vs {got}");
                }
            }
        }
    }
}
