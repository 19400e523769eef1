//! Atomic chess's evaluation terms: king blast threats, the best blast, pieces next
//! to the own king, connected kings (after Fairy-Stockfish's explosion-threat
//! term), and the known endgames against a bare king.

use crate::eval::params::idx;
use crate::eval::{endgame, Accumulator, SideInfo, VariantEval};
use crate::values::{material_in, BLAST};
use sapper_rules::bitboard::BitBoard;
use sapper_rules::position::{Bb, Position};
use sapper_rules::types::{Color, Role};
use sapper_rules::variant::atomic::blast_ring;
use sapper_rules::variant::Atomic;

impl VariantEval for Atomic {
    // Added after the other variants' parameter files, which leave it out.
    const EVAL_BLOCKS: &'static [&'static str] = &["atomic_threats"];

    #[inline(always)]
    fn eval_terms<A: Accumulator>(pos: &Position<Self>, info: &[SideInfo<Bb<Self>>; 2], acc: &mut A) {
        atomic_terms(pos, info, acc);
    }

    #[inline(always)]
    fn known_endgame(pos: &Position<Self>) -> Option<i32> {
        endgame::atomic_against_bare_king(pos)
    }
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
