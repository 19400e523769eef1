//! Piece values outside the tuned evaluation: centipawns, indexed by [`Role::index`]
//! (pawn, knight, bishop, rook, queen, king).
//!
//! The three tables differ on purpose, because each serves a different question:
//!
//! * [`EXCHANGE`]: how much material a capture wins. Static exchange evaluation and
//!   delta pruning compare it with margins set in these units (SEE thresholds, the
//!   delta margin), so the values sit near the tuned middlegame material of
//!   `nets/chess-*.eval`.
//! * [`ORDERING`]: which capture to try first. Only the order matters (MVV-LVA:
//!   `victim * 8 - attacker`; in atomic the blast balance); the search's node counts
//!   (`bench`) depend on these exact numbers, so they stay as the ordering was tuned.
//! * [`BLAST`]: the fixed values that define an evaluation feature, atomic's best
//!   blast in buckets of 100 (`eval::params`, `atomic_blast_gain`). The tuned weights
//!   in `nets/atomic-*.eval` were fitted to buckets of these values: changing them
//!   changes the feature itself and needs a retune, not an edit here.
//!
//! The king's value is 0 in every table: it is never exchanged (a capture that takes
//! it ends the game and is scored as such by the caller).

use sapper_rules::bitboard::BitBoard;
use sapper_rules::position::{Bb, Position};
use sapper_rules::types::{Color, Role};
use sapper_rules::variant::Variant;

/// Material won by captures, for SEE and delta pruning.
pub const EXCHANGE: [i32; 6] = [100, 320, 330, 500, 950, 0];

/// Capture order (MVV-LVA and the atomic blast balance in move ordering).
pub const ORDERING: [i32; 6] = [100, 300, 320, 500, 900, 0];

/// The atomic best-blast feature of the evaluation (fixed, not tuned).
pub const BLAST: [i32; 6] = [100, 250, 250, 400, 800, 0];

/// The value of `color`'s pieces in `set` by `table`, kings excluded.
#[inline(always)]
pub fn material_in<V: Variant>(pos: &Position<V>, set: Bb<V>, color: Color, table: &[i32; 6]) -> i32 {
    Role::ALL[..5]
        .iter()
        .map(|&r| table[r.index()] * (set & pos.pieces(color, r)).count() as i32)
        .sum()
}
