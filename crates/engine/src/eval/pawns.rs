//! The pawn structure: the evaluation's terms that depend on the pawns alone, and a
//! table of their sums by the pawns' key (Stockfish's `Pawns::Table`, from
//! `pawns.cpp`; Crafty's pawn hash before it).
//!
//! The pawns change at few moves, so a search meets few structures: nearly every
//! evaluation finds its structure's terms already summed. The terms are the pawns'
//! piece-square entries, doubled, isolated, supported and passed pawns (by rank),
//! phalanxes and backward pawns; what else reads the pawns (passed pawns' king
//! distances, the king's shield, threats) depends on other pieces too and is
//! computed at every evaluation. A table's sums are `coefficient * weight` under one
//! set of parameters: empty it whenever they may have changed.

use crate::eval::params::idx;
use crate::eval::{backward, fill_forward, pawn_attacks, rank8, rear_span, table_index, Accumulator};
use sapper_rules::bitboard::BitBoard;
use sapper_rules::position::{Bb, Position};
use sapper_rules::types::{Color, Role};
use sapper_rules::variant::Variant;
use sapper_rules::zobrist::splitmix64;

/// Entries in a [`PawnTable`] (a power of two): 1,024 of 48 bytes, 48 KiB. A search
/// meets few structures; 8,192 entries ran no faster (the table left the
/// processor's near caches) in timed searches.
const SIZE: usize = 1 << 10;

/// What the evaluation's later terms read of the structure: each side's passed
/// pawns (indexed by [`Color::index`]).
pub type Passed<V> = [Bb<V>; 2];

/// Adds the pawn-structure terms of `pos` to `acc` (White's point of view) and
/// returns each side's passed pawns.
#[inline]
pub fn terms<V: Variant, A: Accumulator>(pos: &Position<V>, acc: &mut A) -> Passed<V> {
    let mut passed = [Bb::<V>::EMPTY; 2];
    let pawns = [Color::White, Color::Black].map(|c| pos.pieces(c, Role::Pawn));
    let attacks = [
        pawn_attacks(Color::White, pawns[0]),
        pawn_attacks(Color::Black, pawns[1]),
    ];
    for color in Color::ALL {
        let s = color.sign();
        let c = color.index();
        let own = pawns[c];
        let theirs = pawns[1 - c];
        for sq in own.squares() {
            acc.add(idx::PST_PAWN + table_index::<V::G>(sq, color), s);
        }

        let doubled = own & rear_span(color, own);
        acc.add(idx::PAWN_DOUBLED, s * doubled.count() as i32);
        let files = fill_forward(color, fill_forward(!color, own));
        let isolated = own & !(files.east() | files.west());
        acc.add(idx::PAWN_ISOLATED, s * isolated.count() as i32);
        let supported = own & attacks[c];
        acc.add(idx::PAWN_SUPPORTED, s * supported.count() as i32);
        let stoppers = theirs | theirs.east() | theirs.west();
        passed[c] = own & !rear_span(color, stoppers) & !doubled;
        for sq in passed[c].squares() {
            acc.add(idx::PAWN_PASSED + (table_index::<V::G>(sq, color) >> 3), s);
        }

        // Phalanxes and backward pawns: no own pawn beside or behind on a
        // neighbouring file, and the stop square attacked or blocked by an enemy
        // pawn; isolated pawns are counted as isolated.
        for sq in (own & (own.east() | own.west())).squares() {
            acc.add(idx::PAWN_PHALANX + rank8::<V::G>(sq, color), s);
        }
        let span = fill_forward(color, own);
        let supportable = span.east() | span.west();
        let stop_hit = backward(color, attacks[1 - c] | theirs);
        let backward_pawns = own & !supportable & !isolated & stop_hit;
        acc.add(idx::PAWN_BACKWARD, s * backward_pawns.count() as i32);
    }
    passed
}

/// The key of `pos`'s pawns: both sides' pawn bitboards hashed (every bit of an 8x10
/// board's, high half included).
#[inline(always)]
pub fn key<V: Variant>(pos: &Position<V>) -> u64 {
    let half = |c: Color| {
        let bits = pos.pieces(c, Role::Pawn).to_u128();
        splitmix64(bits as u64 ^ splitmix64((bits >> 64) as u64))
    };
    splitmix64(half(Color::White) ^ half(Color::Black).rotate_left(32))
}

/// One structure's terms: their packed `[mg, eg]` sum ([`super::params::pack`]) and
/// the passed pawns, as `u128` so that one table serves both board sizes.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    packed: i64,
    passed: [u128; 2],
}

/// Pawn-structure sums by pawn key, direct-mapped (a new entry replaces the old one
/// at its index). One per search thread ([`super::EvalTables`]).
pub struct PawnTable {
    entries: Vec<Entry>,
}

impl Default for PawnTable {
    fn default() -> Self {
        PawnTable {
            entries: vec![Entry::default(); SIZE],
        }
    }
}

impl PawnTable {
    /// Forgets every entry: at the start of a search, whose evaluation parameters
    /// may not be the last search's.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }

    /// The packed sum and passed pawns stored for `key`, if any.
    #[inline(always)]
    pub(crate) fn get<V: Variant>(&self, key: u64) -> Option<(i64, Passed<V>)> {
        let e = &self.entries[key as usize & (SIZE - 1)];
        // An empty entry has key 0: a structure whose key is 0 is computed each time.
        (e.key == key && key != 0).then(|| (e.packed, e.passed.map(Bb::<V>::from_u128)))
    }

    /// Stores the packed sum and passed pawns of the structure `key`.
    #[inline(always)]
    pub(crate) fn put<V: Variant>(&mut self, key: u64, packed: i64, passed: Passed<V>) {
        self.entries[key as usize & (SIZE - 1)] = Entry {
            key,
            packed,
            passed: passed.map(|b| b.to_u128()),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sapper_rules::variant::Minesweeper;

    #[test]
    fn an_8x10_boards_high_squares_change_the_key() {
        // A white pawn on a9 (bit 64) or on h3 (bit 23): a fold of the board's two
        // halves into 64 bits with a rotation by 23 would give both the same key.
        let fog = "????????/????????/????????/???????? 4";
        let keys: Vec<u64> = [
            "4k3/P7/8/8/8/8/8/8/8/4K3",
            "4k3/8/8/8/8/8/8/7P/8/4K3",
            "4k3/8/8/8/8/8/8/8/8/4K3",
        ]
        .iter()
        .map(|board| {
            let fen = format!("{board} w - - 0 1 {fog}");
            key(&Position::<Minesweeper>::from_fen(&fen).unwrap().0)
        })
        .collect();
        assert!(
            keys[0] != keys[1] && keys[1] != keys[2] && keys[0] != keys[2],
            "{keys:x?}"
        );
    }
}
