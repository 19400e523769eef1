//! Atomic chess's blast (RULES.md atomic 2): a capture removes the capturer, the
//! captured piece and every piece other than a pawn on the eight squares around the
//! capture square.

use crate::bitboard::BitBoard;
use crate::geometry::Geometry;
use crate::moves::Move;
use crate::position::{Bb, Position};
use crate::types::{Role, Square};
use crate::variant::Variant;

/// The pieces of `occupied` a blast at `centre` destroys besides the capturer and the
/// captured piece: the non-pawns on the squares around `centre`.
#[inline(always)]
pub fn blast_ring<V: Variant>(pos: &Position<V>, centre: Square, occupied: Bb<V>) -> Bb<V> {
    V::G::king_attacks(centre) & occupied & !pos.role(Role::Pawn)
}

/// Every square the capture `m` empties: the ring around its destination, the
/// capturer's origin and `victim`, the captured piece's square (`m.to()` or the
/// en-passant victim).
#[inline(always)]
pub fn capture_blast<V: Variant>(pos: &Position<V>, m: Move, victim: Square) -> Bb<V> {
    blast_ring(pos, m.to(), pos.occupied())
        .with(m.from())
        .with(victim)
}
