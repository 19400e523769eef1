//! Atomic chess (docs/rules.md, section atomic): captures explode, kings never
//! capture, touching kings are safe, and a side without a king has lost. Its rules
//! are here, behind [`Atomic`]'s hooks: the blast and legality with explosions. The
//! engine crate adds the blast balance that replaces SEE and MVV-LVA, the moves the
//! search must not prune (`search/atomic.rs`) and the evaluation's blast terms
//! (`eval/atomic.rs`).

use crate::bitboard::BitBoard;
use crate::geometry::{Board8x8, Geometry};
use crate::movegen::GenType;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{Bb, Position};
use crate::types::{Color, Role, Square};
use crate::variant::{lone_minor_at_most, Outcome, Variant, VariantKind};

type G = Board8x8;

/// Atomic chess (docs/rules.md, section atomic).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Atomic;

/// The pieces of `occupied` a blast at `centre` destroys besides the capturer and the
/// captured piece: the non-pawns on the squares around `centre` (rule 2).
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

impl Variant for Atomic {
    type G = Board8x8;
    type State = ();
    const NAME: &'static str = "atomic";
    const KIND: VariantKind = VariantKind::Atomic;
    const KING_MAY_BE_MISSING: bool = true;
    const KINGS_MAY_TOUCH: bool = true;
    const KINGS_CAPTURE: bool = false;
    const CAPTURE_WINS_ONLY_THE_VICTIM: bool = false;
    const SPECIAL_WIN: &'static str = "king exploded";
    const PGN_VARIANT: Option<&'static str> = Some("Atomic");

    #[inline(always)]
    fn special_outcome(pos: &Position<Self>) -> Option<Outcome> {
        // docs/rules.md atomic 9: the side without a king has lost.
        match (pos.king(Color::White), pos.king(Color::Black)) {
            (Some(_), Some(_)) => None,
            (None, Some(_)) => Some(Outcome::Decisive { winner: Color::Black }),
            (Some(_), None) => Some(Outcome::Decisive { winner: Color::White }),
            (None, None) => Some(Outcome::Draw),
        }
    }

    /// docs/rules.md atomic 10: KvK, KNvK, KBvK (stricter than lichess, which plays on).
    fn is_drawn_material(pos: &Position<Self>) -> bool {
        lone_minor_at_most(pos)
    }

    /// Pseudo-legal moves, then a test of those that can be illegal: king steps,
    /// moves of pinned pieces, captures (explosions), and all moves in check.
    #[inline]
    fn generate_legal(pos: &Position<Self>, list: &mut MoveList) {
        let start = list.len();
        pos.generate(GenType::All, list);
        let us = pos.side_to_move();
        let them = pos.color(!us);
        let Some(king) = pos.king(us) else { return };
        let check = pos.in_check();
        // With many king steps, one map of the enemy's attacks (the king lifted) is
        // cheaper than a test per step.
        let danger = if !check && (G::king_attacks(king) & !pos.occupied()).count() > 3 {
            Some(pos.attacked_by(!us, pos.occupied().without(king)))
        } else {
            None
        };
        // A square next to the enemy king is never attacked (rule 5).
        let connected = pos.king(!us).map_or(Bb::<Self>::EMPTY, G::king_attacks);
        let mut i = start;
        while i < list.len() {
            let m = list[i];
            let king_step = m.from() == king && m.kind() != MoveKind::Castle;
            let legal = match danger {
                Some(danger) if king_step => !danger.has(m.to()) || connected.has(m.to()),
                _ if check
                    || king_step
                    || pos.pinned().has(m.from())
                    || m.kind() == MoveKind::EnPassant
                    || them.has(m.to()) =>
                {
                    pos.is_legal(m)
                }
                _ => true,
            };
            if legal {
                i += 1;
            } else {
                list.swap_remove(i);
            }
        }
    }

    /// Captures next to the own king would explode it (rule 4).
    #[inline(always)]
    fn forbidden_captures(pos: &Position<Self>) -> Bb<Self> {
        pos.king(pos.side_to_move())
            .map_or(Bb::<Self>::EMPTY, G::king_attacks)
    }

    /// A quiet move keeps the king safe if no enemy non-king attacks it afterwards;
    /// a capture if its blast spares the own king and either takes the enemy king or
    /// leaves the own one unattacked on the emptied board.
    #[inline(always)]
    fn keeps_king_safe(pos: &Position<Self>, m: Move) -> bool {
        let us = pos.side_to_move();
        let them = !us;
        let Some(king) = pos.king(us) else {
            return false;
        };
        let from = m.from();
        let to = m.to();
        let occupied = pos.occupied();
        match pos.captured_square(m) {
            None => {
                let after = occupied.without(from).with(to);
                let k = if from == king { to } else { king };
                !pos.attacks_for_king_safety(k, them, after)
            }
            Some(captured) => {
                // The destination is the victim's square or (en passant) empty.
                let blast = capture_blast(pos, m, captured);
                if blast.has(king) {
                    return false;
                }
                if (blast & pos.kings_of(them)).any() {
                    return true;
                }
                !pos.attacks_for_king_safety(king, them, occupied & !blast)
            }
        }
    }

    /// The capturer and the blast ring go; rights whose king or rook was blown up
    /// are lost.
    #[inline(always)]
    fn capture(pos: &mut Position<Self>, m: Move, mut rights: u8) -> Option<u8> {
        pos.remove_piece(m.from());
        for sq in blast_ring(pos, m.to(), pos.occupied()).squares() {
            pos.remove_piece(sq);
            rights &= !Position::<Self>::rights_lost_at(sq);
        }
        Some(rights)
    }
}
