//! Material imbalance: the second-degree polynomial in the piece counts of Tord
//! Romstad, as Stockfish's `material.cpp` (versions 4-11) and Multi-Variant
//! Stockfish's per-variant tables have it. A piece's worth depends on what else is
//! on the board (a knight gains with pawns, a second rook adds less than the
//! first), which the linear material term cannot say.
//!
//! The block [`idx::IMBALANCE`] holds one weight per pair of piece kinds, where the
//! kinds are the bishop pair (1 with two bishops or more, else 0) and pawn to queen:
//! - `[0..20)`: our kind `a` with our kind `b`, `b <= a`, `a` from pawn on
//!   (Stockfish's `QuadraticOurs`; the pair with itself is the `bishop_pair`
//!   block), at `tri(a) + b - 1` with `tri(a) = a (a + 1) / 2`;
//! - `[20..35)`: our kind `a` with their kind `b`, `b < a` (`QuadraticTheirs`;
//!   its diagonal cancels between the two sides), at `20 + tri(a - 1) + b`.
//!
//! Each weight's coefficient is White's product minus Black's, so the term is
//! Stockfish's `imbalance<WHITE> - imbalance<BLACK>`. The weights are centipawns per
//! unit of the product, fitted by `sapper tune` (Stockfish's tables, divided by 16
//! and converted from its units, would be the same kind of number).

use crate::eval::params::idx;
use crate::eval::Accumulator;
use sapper_rules::bitboard::BitBoard;
use sapper_rules::position::Position;
use sapper_rules::types::{Color, Role};
use sapper_rules::variant::Variant;

/// Kinds counted: the bishop pair, then pawn, knight, bishop, rook, queen.
const KINDS: usize = 6;

/// Weights in [`idx::IMBALANCE`]: 20 of our pairs, 15 of ours against theirs.
pub const LEN: usize = 35;

/// Index of our kinds `a` and `b` (`1 <= a`, `b <= a`) in the block.
pub const fn ours(a: usize, b: usize) -> usize {
    a * (a + 1) / 2 + b - 1
}

/// Index of our kind `a` against their kind `b` (`b < a`) in the block.
pub const fn theirs(a: usize, b: usize) -> usize {
    20 + a * (a - 1) / 2 + b
}

/// Entries in an [`ImbalanceTable`] (a power of two): 1,024 of 16 bytes.
const TABLE_SIZE: usize = 1 << 10;

/// The counts of the kinds for `color`: `[pair, pawns, knights, bishops, rooks, queens]`.
#[inline(always)]
pub(crate) fn counts<V: Variant>(pos: &Position<V>, color: Color) -> [i32; KINDS] {
    let n = |r: Role| pos.pieces(color, r).count() as i32;
    let bishops = n(Role::Bishop);
    [
        i32::from(bishops >= 2),
        n(Role::Pawn),
        n(Role::Knight),
        bishops,
        n(Role::Rook),
        n(Role::Queen),
    ]
}

/// Adds the imbalance's coefficients of `pos` to `acc` (White's point of view).
#[inline]
pub fn imbalance_terms<V: Variant, A: Accumulator>(pos: &Position<V>, acc: &mut A) {
    acc.imbalance(counts(pos, Color::White), counts(pos, Color::Black));
}

/// Adds the imbalance's coefficients of White's counts `w` and Black's `b`
/// ([`counts`]) to `acc`.
#[inline]
pub(crate) fn terms_of_counts<A: Accumulator>(w: [i32; KINDS], b: [i32; KINDS], acc: &mut A) {
    // Every coefficient is a difference of the two sides' products: none without
    // a difference in material (most positions a search meets).
    if w == b {
        return;
    }
    for a in 1..KINDS {
        for k in 0..=a {
            let c = w[a] * w[k] - b[a] * b[k];
            if c != 0 {
                acc.add(idx::IMBALANCE + ours(a, k), c);
            }
        }
        for k in 0..a {
            let c = w[a] * b[k] - b[a] * w[k];
            if c != 0 {
                acc.add(idx::IMBALANCE + theirs(a, k), c);
            }
        }
    }
}

/// The key of the counts `w` and `b` ([`counts`]): pawns to queens, five bits each
/// (a side has at most 16 pieces), both sides; exact, and never 0 (an empty entry).
#[inline(always)]
pub(crate) fn key(w: [i32; KINDS], b: [i32; KINDS]) -> u64 {
    w[1..].iter().chain(&b[1..]).fold(1, |k, &n| (k << 5) | n as u64)
}

/// Imbalance sums by material: the packed `[mg, eg]` sum ([`super::params::pack`])
/// of the counts' terms under one set of parameters, direct-mapped by [`key`]
/// (Stockfish's `Material::Table`). Empty it whenever the parameters may change.
pub struct ImbalanceTable {
    entries: Vec<(u64, i64)>,
}

impl Default for ImbalanceTable {
    fn default() -> Self {
        ImbalanceTable {
            entries: vec![(0, 0); TABLE_SIZE],
        }
    }
}

impl ImbalanceTable {
    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.entries.fill((0, 0));
    }

    #[inline(always)]
    fn index(key: u64) -> usize {
        // The key's bits mixed (Fibonacci hashing): its low bits alone are Black's
        // queens and rooks.
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - TABLE_SIZE.trailing_zeros())) as usize
    }

    /// The packed sum stored for `key`, if any.
    #[inline(always)]
    pub(crate) fn get(&self, key: u64) -> Option<i64> {
        let (k, packed) = self.entries[Self::index(key)];
        (k == key).then_some(packed)
    }

    /// Stores the packed sum of `key`.
    #[inline(always)]
    pub(crate) fn put(&mut self, key: u64, packed: i64) {
        self.entries[Self::index(key)] = (key, packed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::params::block_of;
    use crate::eval::Tracer;
    use sapper_rules::variant::Atomic;

    #[test]
    fn indices_fill_the_block_once() {
        let mut seen = [false; LEN];
        for a in 1..KINDS {
            for k in 0..=a {
                assert!(!std::mem::replace(&mut seen[ours(a, k)], true));
            }
            for k in 0..a {
                assert!(!std::mem::replace(&mut seen[theirs(a, k)], true));
            }
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(block_of(idx::IMBALANCE).len, LEN);
    }

    fn coefficients(fen: &str) -> Vec<(usize, i32)> {
        let (pos, _) = Position::<Atomic>::from_fen(fen).unwrap();
        let mut acc = Tracer::default();
        imbalance_terms(&pos, &mut acc);
        // `finish` sorts by index: the block's offsets come out in order.
        acc.finish()
            .into_iter()
            .map(|(i, c)| (i as usize - idx::IMBALANCE, c))
            .collect()
    }

    #[test]
    fn equal_material_has_no_imbalance() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert!(coefficients(start).is_empty());
    }

    #[test]
    fn a_knight_for_three_pawns_counts_each_pair() {
        // White: king, knight; Black: king, three pawns.
        let c = coefficients("4k3/ppp5/8/8/8/8/8/4KN2 w - - 0 1");
        let pawn = 1;
        let knight = 2;
        assert_eq!(
            c,
            vec![
                (ours(pawn, pawn), -9),
                (ours(knight, knight), 1),
                (theirs(knight, pawn), 3),
            ]
        );
    }
}
