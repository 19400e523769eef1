//! What the search must know of atomic chess: a capture is no exchange but a blast,
//! so SEE and MVV-LVA give way to the blast's balance, and the moves that threaten to
//! explode the king are never pruned or reduced.

use crate::search::see::promotion_gain;
use crate::search::{LateQuiets, VariantSearch};
use crate::values::{material_in, EXCHANGE, ORDERING};
use sapper_rules::bitboard::BitBoard;
use sapper_rules::geometry::{Board8x8, Geometry};
use sapper_rules::moves::Move;
use sapper_rules::position::{Bb, Position};
use sapper_rules::types::{Color, Role, Square};
use sapper_rules::variant::atomic::{blast_ring, capture_blast};
use sapper_rules::variant::Atomic;

type G = Board8x8;

/// Value of exploding the enemy king, for SEE: more than any material.
const KING_BLAST: i32 = 20_000;
/// Ordering gain of a capture that explodes the enemy king: before any other.
const KING_BLAST_ORDER: i32 = 100_000;

impl VariantSearch for Atomic {
    type Belief = ();
    const LATE_QUIETS: LateQuiets = LateQuiets::AllButCritical;
    /// Atomic games are short and decided early: the specialist plans its clock
    /// over 29 moves here, 50 elsewhere (Multi-Variant Stockfish's `MoveHorizon`),
    /// and spent about 0.24 s a move in the first 20 plies of 5s+0.05s games
    /// where Sapper spent 0.16 s.
    const OPENING_TIME_SHARE: f64 = crate::search::timeman::SHORT_GAME_OPENING_SHARE;

    /// No exchange: a capture explodes at once, so its value is the balance of the
    /// blast. A multi-variant fork once lost over 150 Elo in atomic by pruning with
    /// chess SEE here.
    #[inline(always)]
    fn exchange_value(pos: &Position<Self>, m: Move) -> Option<i32> {
        Some(atomic_see(pos, m))
    }

    #[inline(always)]
    fn capture_order_gain(pos: &Position<Self>, m: Move, victim: Square) -> Option<i32> {
        let us = pos.side_to_move();
        let blast = capture_blast(pos, m, victim);
        if (blast & pos.pieces(!us, Role::King)).any() {
            return Some(KING_BLAST_ORDER);
        }
        Some(material_in(pos, blast, !us, &ORDERING) - material_in(pos, blast, us, &ORDERING))
    }

    /// A move after which the moved piece attacks an enemy piece next to the enemy
    /// king (a capture there would explode the king).
    #[inline(always)]
    fn is_critical(pos: &Position<Self>, m: Move) -> bool {
        let us = pos.side_to_move();
        let (Some(their_king), Some(role)) = (pos.king(!us), pos.role_at(m.from())) else {
            return false;
        };
        if role == Role::King {
            return false;
        }
        let role = m.promotion_role().unwrap_or(role);
        let after = pos.occupied().without(m.from()).with(m.to());
        let reach = match role {
            Role::Pawn => G::pawn_attacks(us, m.to()),
            Role::Knight => G::knight_attacks(m.to()),
            Role::Bishop => G::bishop_attacks(m.to(), after),
            Role::Rook => G::rook_attacks(m.to(), after),
            _ => G::queen_attacks(m.to(), after),
        };
        let our_king_zone = pos.king(us).map_or(Bb::<Atomic>::EMPTY, G::king_attacks);
        let targets = G::king_attacks(their_king) & pos.color(!us) & !our_king_zone;
        (reach & targets).any()
    }
}

/// The blast balance of `m` in atomic, from the mover's point of view.
fn atomic_see(pos: &Position<Atomic>, m: Move) -> i32 {
    let us = pos.side_to_move();
    let to = m.to();
    let occupied = pos.occupied();
    match pos.captured_square(m) {
        Some(victim) => blast_balance(pos, capture_blast(pos, m, victim), us),
        None => {
            // A quiet move: the enemy may capture the piece where it lands. Its best
            // blast there, with the piece moved, is what the move risks.
            let after = occupied.without(m.from()).with(to);
            let attackers = pos.attackers_to(to, after) & pos.color(!us) & !pos.role(Role::King) & after;
            if attackers.is_empty() {
                return promotion_gain(m);
            }
            let mover = pos.role_at(m.from()).map_or(0, |r| EXCHANGE[r.index()]);
            let mut worst = 0;
            for attacker in attackers.squares() {
                let blast = blast_ring(pos, to, after).with(attacker).without(m.from());
                // Our moved piece is destroyed as the victim; other pieces by the blast.
                let theirs = -blast_balance(pos, blast, us) + mover;
                worst = worst.max(theirs);
            }
            promotion_gain(m) - worst
        }
    }
}

/// Enemy value minus own value among the pieces in `blast` (from `us`'s view).
fn blast_balance(pos: &Position<Atomic>, blast: Bb<Atomic>, us: Color) -> i32 {
    if (blast & pos.pieces(!us, Role::King)).any() {
        return KING_BLAST;
    }
    if (blast & pos.pieces(us, Role::King)).any() {
        return -KING_BLAST;
    }
    material_in(pos, blast, !us, &EXCHANGE) - material_in(pos, blast, us, &EXCHANGE)
}
