//! What the search knows of the mines below a public root (see
//! `docs/minesweeper-search.md`).
//!
//! The root's consistent layouts are enumerated once (at most 35,960). Below the root
//! the search learns only the outcomes of its own chance moves: a mine found on a
//! landing square, or none. The probability of a mine on a square is the share of
//! root layouts, among those agreeing with every outcome on the line, that mine it:
//! the root posterior conditioned on the line. Numbers revealed below the root are
//! not modelled (the search cannot know them); by the law of total probability the
//! conditioned posterior is their expectation, so the estimate is unbiased.

use super::inference::layouts;
use super::{MineState, ZONE_SIZE};
use std::collections::HashMap;

/// Per-square mine counts among the layouts that agree with a line's outcomes.
#[derive(Clone, Copy, Debug)]
struct Marginals {
    layouts: u32,
    mines: [u32; ZONE_SIZE],
}

/// The root's layouts and a cache of conditioned marginals.
#[derive(Clone, Debug, Default)]
pub struct Belief {
    layouts: Vec<u32>,
    cache: HashMap<(u32, u32), Marginals>,
}

/// Conditionings kept before the cache is emptied (bounds memory; entries are cheap
/// to recompute).
const CACHE_LIMIT: usize = 1 << 16;

impl Belief {
    /// The belief at a public root.
    pub fn new(root: &MineState) -> Belief {
        Belief {
            layouts: layouts(&root.public_field()),
            cache: HashMap::new(),
        }
    }

    /// Number of consistent layouts at the root.
    pub fn root_layouts(&self) -> usize {
        self.layouts.len()
    }

    /// The probability that zone square `i` holds a mine at a node whose line found
    /// mines on `st.found_mine` and none on `st.found_safe`.
    pub fn probability(&mut self, st: &MineState, i: usize) -> f32 {
        let key = (st.found_mine, st.found_safe);
        if self.cache.len() >= CACHE_LIMIT {
            self.cache.clear();
        }
        let layouts = &self.layouts;
        let m = self
            .cache
            .entry(key)
            .or_insert_with(|| marginals(layouts, key.0, key.1));
        if m.layouts == 0 {
            0.0
        } else {
            m.mines[i] as f32 / m.layouts as f32
        }
    }
}

fn marginals(layouts: &[u32], found_mine: u32, found_safe: u32) -> Marginals {
    let mut m = Marginals {
        layouts: 0,
        mines: [0; ZONE_SIZE],
    };
    for &l in layouts {
        if l & found_mine == found_mine && l & found_safe == 0 {
            m.layouts += 1;
            let mut bits = l;
            while bits != 0 {
                m.mines[bits.trailing_zeros() as usize] += 1;
                bits &= bits - 1;
            }
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minesweeper::public::{to_public, with_layout};
    use crate::minesweeper::{zone_index, zone_square, Minesweeper};
    use crate::notation::parse_uci_move;
    use crate::position::Position;

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
            for &layout in &belief.layouts.clone() {
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
}
