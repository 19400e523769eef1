//! Atomic chess (RULES.md, section atomic): captures explode, kings never capture,
//! touching kings are safe, and a side without a king has lost. Everything the
//! layers below need to know of it is here, behind [`Atomic`]'s hooks: the blast,
//! legality with explosions, the blast balance that replaces SEE and MVV-LVA, the
//! moves search must not prune, and the evaluation's blast terms.

use crate::bitboard::BitBoard;
use crate::eval::params::idx;
use crate::eval::{endgame, Accumulator, SideInfo};
use crate::geometry::{Board8x8, Geometry};
use crate::movegen::GenType;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{Bb, Position};
use crate::search::see::promotion_gain;
use crate::types::{Color, Role, Square};
use crate::values::{material_in, BLAST, EXCHANGE, ORDERING};
use crate::variant::{lone_minor_at_most, Outcome, Variant, VariantKind};

type G = Board8x8;

/// Value of exploding the enemy king, for SEE: more than any material.
const KING_BLAST: i32 = 20_000;
/// Ordering gain of a capture that explodes the enemy king: before any other.
const KING_BLAST_ORDER: i32 = 100_000;

/// Atomic chess (RULES.md, section atomic).
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
    type Belief = ();
    const NAME: &'static str = "atomic";
    const KIND: VariantKind = VariantKind::Atomic;
    // Added after the other variants' parameter files, which leave it out.
    const EVAL_BLOCKS: &'static [&'static str] = &["atomic_threats"];
    const KING_MAY_BE_MISSING: bool = true;
    const KINGS_MAY_TOUCH: bool = true;
    const KINGS_CAPTURE: bool = false;
    const CAPTURE_WINS_ONLY_THE_VICTIM: bool = false;
    const SPECIAL_WIN: &'static str = "king exploded";
    const PGN_VARIANT: Option<&'static str> = Some("Atomic");

    #[inline(always)]
    fn special_outcome(pos: &Position<Self>) -> Option<Outcome> {
        // RULES.md atomic 9: the side without a king has lost.
        match (pos.king(Color::White), pos.king(Color::Black)) {
            (Some(_), Some(_)) => None,
            (None, Some(_)) => Some(Outcome::Decisive { winner: Color::Black }),
            (Some(_), None) => Some(Outcome::Decisive { winner: Color::White }),
            (None, None) => Some(Outcome::Draw),
        }
    }

    /// RULES.md atomic 10: KvK, KNvK, KBvK (stricter than lichess, which plays on).
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

    #[inline(always)]
    fn eval_terms<A: Accumulator>(pos: &Position<Self>, info: &[SideInfo<Bb<Self>>; 2], acc: &mut A) {
        atomic_terms(pos, info, acc);
    }

    #[inline(always)]
    fn known_endgame(pos: &Position<Self>) -> Option<i32> {
        endgame::atomic_against_bare_king(pos)
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

/// Atomic: king blast threats, the best blast, pieces next to the own king, and
/// connected kings.
#[inline]
fn atomic_terms<A: Accumulator>(pos: &Position<Atomic>, info: &[SideInfo<Bb<Atomic>>; 2], acc: &mut A) {
    // Without both kings the game is over (a king exploded): no blast terms.
    if pos.kings_of(Color::White).is_empty() || pos.kings_of(Color::Black).is_empty() {
        return;
    }
    let stm = pos.side_to_move();
    let kings = pos.role(Role::King);
    for color in Color::ALL {
        let s = color.sign();
        let c = color.index();
        let other = (color != stm) as usize;
        let ring = info[c].king_ring();
        // Captures next to our own king would explode it: never legal.
        let allowed = info[c].non_king & !ring;
        let their_ring = info[1 - c].king_ring();
        let targets = pos.color(!color) & !kings & allowed;
        let threats = (targets & their_ring).count() as usize;
        acc.add(idx::ATOMIC_KING_BLAST + other, s * threats as i32);
        for (k, n) in [2, 3].into_iter().enumerate() {
            if threats >= n {
                acc.add(idx::ATOMIC_THREATS + 2 * other + k, s);
            }
        }
        // The defender's king zone under attack against its safe squares (empty or
        // the king's own, not attacked: an atomic king never captures): a king with nowhere to go is mated or blown
        // up by a threat the defender could otherwise step away from.
        let zone = info[1 - c].king_zone;
        let attacked = (zone & info[c].all).count() as usize;
        let safe = (zone & !info[c].all & !(pos.occupied() & !kings)).count() as usize;
        let danger = (2 * attacked / (safe + 1)).min(7);
        acc.add(idx::ATOMIC_THREATS + 4 + danger, s);

        let mut best = 0;
        for t in (targets & !their_ring).squares() {
            let blast = blast_ring(pos, t, pos.occupied()) & !kings;
            let mut gain = BLAST[pos.role_at(t).map_or(0, Role::index)];
            for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
                let r = role.index();
                gain += BLAST[r] * (blast & pos.pieces(!color, role)).count() as i32;
                gain -= BLAST[r] * (blast & pos.pieces(color, role)).count() as i32;
            }
            let capturer = (0..5).find(|&r| info[c].by_role[r].has(t)).unwrap_or(0);
            gain -= BLAST[capturer];
            best = best.max(gain);
        }
        if best > 0 {
            let bucket = (best / 100).min(7) as usize;
            acc.add(idx::ATOMIC_BLAST_GAIN + 8 * other + bucket, s);
        }

        for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            let n = (ring & pos.pieces(color, role)).count() as i32;
            acc.add(idx::ATOMIC_KING_NEIGHBOURS + role.index(), s * n);
        }
    }
    if pos.kings_touch() {
        let all = pos.occupied();
        let diff = material_in(pos, all, Color::White, &BLAST) - material_in(pos, all, Color::Black, &BLAST);
        acc.add(idx::ATOMIC_KINGS_TOUCH, -diff.signum());
    }
}
