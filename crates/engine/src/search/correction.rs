//! Correction history: the static evaluation corrected by how far it missed the
//! search's results in similar positions (Stockfish 16-17's `correction_value`).
//!
//! Four kinds of similarity, each a table of `i16` entries kept with gravity in
//! `[-LIMIT, LIMIT]` by the side to move: the pawn structure (with the variant's
//! state, which the evaluation also reads: three-check's checks, minesweeper's
//! minefield), the minor pieces, each side's non-pawn pieces, and the previous two
//! moves (continuation). A position's entries are found by hashing the pieces that
//! define the similarity, so the position carries no extra keys. After a search
//! whose result was not a capture's, the gap between the result and the corrected
//! evaluation, scaled by depth, moves every entry of the position toward it.
//!
//! The weights are Stockfish 17.0's, rescaled from its internal units (about 208 a
//! pawn) to centipawns.

use super::ordering::PIECE_TO;
use sapper_rules::bitboard::BitBoard;
use sapper_rules::position::Position;
use sapper_rules::types::{Color, Role};
use sapper_rules::variant::Variant;
use sapper_rules::zobrist::splitmix64;

/// Entries per side in each hashed table (a power of two).
const SIZE: usize = 1 << 14;
/// Entries stay within `+-LIMIT` (Stockfish's `CORRECTION_HISTORY_LIMIT`).
const LIMIT: i32 = 1024;
/// The weights of the pawn, minor, non-pawn (each side) and continuation entries,
/// in units of 1/`SCALE` centipawn.
const PAWN_WEIGHT: i32 = 6995;
const MINOR_WEIGHT: i32 = 6593;
const NON_PAWN_WEIGHT: i32 = 7753;
const CONTINUATION_WEIGHT: i32 = 6049;
/// 131072 in Stockfish's units; twice that in centipawns.
const SCALE: i32 = 262_144;

/// The tables. Keep them between the searches of a game (they learn); [`clear`]
/// on `ucinewgame`.
///
/// [`clear`]: CorrectionHistory::clear
pub struct CorrectionHistory {
    pawn: Vec<i16>,
    minor: Vec<i16>,
    /// Indexed by the side whose pieces are hashed, then as the others.
    non_pawn: [Vec<i16>; 2],
    /// By the (piece, destination) of the moves two plies and one ply back.
    continuation: Vec<i16>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            pawn: vec![0; 2 * SIZE],
            minor: vec![0; 2 * SIZE],
            non_pawn: [vec![0; 2 * SIZE], vec![0; 2 * SIZE]],
            continuation: vec![0; PIECE_TO * PIECE_TO],
        }
    }
}

/// Where a position's entries are (indices into the tables).
#[derive(Clone, Copy, Debug)]
pub struct Slots {
    pawn: usize,
    minor: usize,
    non_pawn: [usize; 2],
    continuation: Option<usize>,
}

/// A 64-bit fold of a bitboard (the 8x10 board's high bits rotated in).
#[inline(always)]
fn fold<B: BitBoard>(bb: B) -> u64 {
    let bits = bb.to_u128();
    (bits as u64) ^ ((bits >> 64) as u64).rotate_left(23)
}

/// Hashes bitboards in order.
#[inline(always)]
fn hash(parts: &[u64]) -> u64 {
    parts.iter().fold(0, |h, &p| splitmix64(h ^ p))
}

/// `key`'s entry for the side to move `us`.
#[inline(always)]
fn slot(key: u64, us: Color) -> usize {
    us.index() * SIZE + (key as usize & (SIZE - 1))
}

impl CorrectionHistory {
    /// Forgets everything (`ucinewgame`).
    pub fn clear(&mut self) {
        let [white, black] = &mut self.non_pawn;
        for table in [
            &mut self.pawn,
            &mut self.minor,
            white,
            black,
            &mut self.continuation,
        ] {
            table.iter_mut().for_each(|v| *v = 0);
        }
    }

    /// The entries of `pos`; `previous` are the (piece, destination) indices of the
    /// moves two plies and one ply back, when both were real moves.
    #[inline]
    pub fn slots<V: Variant>(pos: &Position<V>, previous: Option<(usize, usize)>) -> Slots {
        let us = pos.side_to_move();
        let pawns = pos.role(Role::Pawn);
        let white = pos.color(Color::White);
        let pawn_key = hash(&[fold(pawns & white), fold(pawns & !white), V::state_key(pos)]);
        let minors = pos.role(Role::Knight) | pos.role(Role::Bishop) | pos.role(Role::King);
        let minor_key = hash(&[
            fold(minors & white),
            fold(minors & !white),
            fold(pos.role(Role::Knight)),
        ]);
        let non_pawn = |c: Color| {
            let ours = |r: Role| fold(pos.pieces(c, r));
            let key = hash(&[
                ours(Role::Knight),
                ours(Role::Bishop),
                ours(Role::Rook),
                ours(Role::Queen),
                ours(Role::King),
            ]);
            slot(key, us)
        };
        Slots {
            pawn: slot(pawn_key, us),
            minor: slot(minor_key, us),
            non_pawn: [non_pawn(Color::White), non_pawn(Color::Black)],
            continuation: previous.map(|(two, one)| two * PIECE_TO + one),
        }
    }

    /// The correction of the static evaluation at `slots`, centipawns.
    #[inline]
    pub fn value(&self, slots: &Slots) -> i32 {
        let cont = slots.continuation.map_or(0, |i| self.continuation[i] as i32);
        let sum = PAWN_WEIGHT * self.pawn[slots.pawn] as i32
            + MINOR_WEIGHT * self.minor[slots.minor] as i32
            + NON_PAWN_WEIGHT
                * (self.non_pawn[0][slots.non_pawn[0]] as i32 + self.non_pawn[1][slots.non_pawn[1]] as i32)
            + CONTINUATION_WEIGHT * cont;
        sum / SCALE
    }

    /// Moves the entries at `slots` toward a search result `gap` centipawns above
    /// the corrected evaluation, found at `depth` (Stockfish's weights per table).
    pub fn update(&mut self, slots: &Slots, gap: i32, depth: i32) {
        // Stockfish's `(bestValue - staticEval) * depth / 8` in its units: twice ours.
        let bonus = (gap * depth / 4).clamp(-LIMIT / 4, LIMIT / 4);
        gravity(&mut self.pawn[slots.pawn], bonus);
        gravity(&mut self.minor[slots.minor], bonus * 145 / 128);
        for side in 0..2 {
            gravity(&mut self.non_pawn[side][slots.non_pawn[side]], bonus * 165 / 128);
        }
        if let Some(i) = slots.continuation {
            gravity(&mut self.continuation[i], bonus * 137 / 128);
        }
    }
}

/// Adds `bonus` so that the entry saturates at `+-LIMIT` and old values fade.
#[inline(always)]
fn gravity(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-LIMIT, LIMIT);
    let v = *entry as i32;
    *entry = (v + bonus - v * bonus.abs() / LIMIT) as i16;
}

#[cfg(test)]
mod tests {
    use super::*;
    use sapper_rules::variant::Chess;

    fn pos(fen: &str) -> Position<Chess> {
        Position::from_fen(fen).unwrap().0
    }

    #[test]
    fn results_above_the_evaluation_raise_the_correction_to_a_limit() {
        let p = pos("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        let slots = CorrectionHistory::slots(&p, Some((5, 9)));
        let mut h = CorrectionHistory::default();
        assert_eq!(h.value(&slots), 0);
        for _ in 0..200 {
            h.update(&slots, 300, 10);
        }
        let up = h.value(&slots);
        // Every table saturated: the weights' sum times the limit.
        let most = (PAWN_WEIGHT + MINOR_WEIGHT + 2 * NON_PAWN_WEIGHT + CONTINUATION_WEIGHT) * LIMIT / SCALE;
        assert!(up > 0 && up <= most, "{up} {most}");
        for _ in 0..400 {
            h.update(&slots, -300, 10);
        }
        assert!(h.value(&slots) < 0);
    }

    #[test]
    fn positions_that_share_a_pawn_structure_share_its_entry() {
        let a = pos("4k3/pp6/8/8/8/8/PP6/4K2R w - - 0 1");
        let b = pos("4k3/pp6/8/8/8/8/PP6/4KR2 w - - 0 1");
        let c = pos("4k3/p7/1p6/8/8/8/PP6/4K2R w - - 0 1");
        let (sa, sb, sc) = (
            CorrectionHistory::slots(&a, None),
            CorrectionHistory::slots(&b, None),
            CorrectionHistory::slots(&c, None),
        );
        assert_eq!(sa.pawn, sb.pawn);
        assert_ne!(sa.non_pawn[0], sb.non_pawn[0]);
        assert_eq!(sa.non_pawn[1], sb.non_pawn[1]);
        assert_ne!(sa.pawn, sc.pawn);
    }
}
