//! Atomic chess's evaluation terms: king blast threats, the best blast, every
//! winning blast, pieces next to the own king (own and enemy), connected kings
//! (after Fairy-Stockfish's explosion-threat term and Multi-Variant Stockfish's
//! `ThreatByBlast`), king danger with atomic's weak and safe squares, chess's
//! classical terms, the material imbalance (`eval::imbalance`), and the known
//! endgames against a bare king.

use crate::eval::king::{self, DangerWeights};
use crate::eval::params::idx;
use crate::eval::{classical, endgame, imbalance, Accumulator, SideInfo, VariantEval};
use crate::values::{material_in, BLAST};
use sapper_rules::bitboard::BitBoard;
use sapper_rules::position::{Bb, Position};
use sapper_rules::types::{Color, Role};
use sapper_rules::variant::atomic::blast_ring;
use sapper_rules::variant::Atomic;

/// King danger's weights in atomic: Multi-Variant Stockfish's `KingDangerParams`
/// for atomic (`evaluate.cpp`, 2019): attacks next to the king weigh four times
/// chess's, since any of them may become a blast; a queenless attack is less hopeless.
const ATOMIC_DANGER: DangerWeights = DangerWeights {
    ring_attack: 274,
    weak_zone_square: 166,
    unsafe_check: 146,
    no_queen: 654,
    ..king::CHESS
};

impl VariantEval for Atomic {
    // Added after the other variants' parameter files, which leave them out.
    const EVAL_BLOCKS: &'static [&'static str] =
        classical::classical_blocks!("atomic_threats", "atomic_more", "imbalance");

    #[inline(always)]
    fn eval_terms<A: Accumulator>(pos: &Position<Self>, info: &[SideInfo<Bb<Self>>; 2], acc: &mut A) {
        atomic_terms(pos, info, acc);
        // Without both kings the game is over: no king danger.
        if pos.kings_of(Color::White).any() && pos.kings_of(Color::Black).any() {
            for us in Color::ALL {
                if let Some(d) = atomic_danger(pos, info, us) {
                    king::add_danger(d, us, acc);
                }
            }
        }
        classical::classical_terms(pos, info, acc);
        imbalance::imbalance_terms(pos, acc);
    }

    #[inline(always)]
    fn known_endgame(pos: &Position<Self>) -> Option<i32> {
        endgame::atomic_against_bare_king(pos)
    }
}

/// The king danger index to `us`'s king ([`king::danger_with`]) with atomic's
/// squares, as Multi-Variant Stockfish reads them: a square is weak when the
/// attacker's pieces hit it and none of the defender's do (a king defends nothing:
/// it cannot capture), and an attacker may check from any square without a piece of
/// its own that the defender does not occupy or that the attacker hits twice (a
/// checking piece taken next to the king explodes it only if the capture is legal).
fn atomic_danger(pos: &Position<Atomic>, info: &[SideInfo<Bb<Atomic>>; 2], us: Color) -> Option<i32> {
    let them = !us;
    let (u, t) = (&info[us.index()], &info[them.index()]);
    let weak = t.non_king & !u.non_king;
    let safe = !pos.color(them) & (!pos.color(us) | t.twice_with_pawns());
    king::danger_with(pos, info, us, weak, safe, &ATOMIC_DANGER)
}

/// Atomic: king blast threats, the best blast, every winning blast, pieces next to
/// the own king, and connected kings.
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

        // Multi-Variant Stockfish's `ThreatByBlast`: every capture whose blast
        // takes more pieces than it costs (the capturer included), counted by
        // pieces; a queen or king in the blast counts twice, our queen in it or a
        // target only our queen hits once costs one more.
        // One pass over the targets, which also finds the best blast away from
        // the defender's king (the king threats above count those).
        let our_queen = info[c].by_role[Role::Queen.index()];
        let mut winning = 0;
        let mut best = 0;
        for t in targets.squares() {
            let ring_t = blast_ring(pos, t, pos.occupied());
            let blast = ring_t.with(t);
            let mut n =
                (blast & pos.color(!color)).count() as i32 - (blast & pos.color(color)).count() as i32 - 1;
            if (blast & (pos.pieces(!color, Role::Queen) | pos.pieces(!color, Role::King))).any() {
                n += 1;
            }
            if (blast & pos.pieces(color, Role::Queen)).any() || (our_queen.has(t) && !info[c].twice.has(t)) {
                n -= 1;
            }
            winning += n.max(0);

            if their_ring.has(t) {
                continue;
            }
            let blast = ring_t & !kings;
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
        acc.add(idx::ATOMIC_MORE + other, s * winning);
        // Enemy pieces next to our king: we cannot take them (the blast would take
        // our king), and they shield their side's captures there.
        let guests = (ring & pos.color(!color) & !kings).count() as i32;
        acc.add(idx::ATOMIC_MORE + 2, s * guests);

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

#[cfg(test)]
mod tests {
    use crate::eval::coefficients;
    use crate::eval::params::idx;
    use sapper_rules::position::Position;
    use sapper_rules::variant::Atomic;

    /// The coefficient of weight `index` in `fen`'s evaluation (White's view).
    fn coef(fen: &str, index: usize) -> i32 {
        let (pos, _) = Position::<Atomic>::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        coefficients(&pos)
            .entries
            .iter()
            .find(|e| e.0 as usize == index)
            .map_or(0, |e| e.1)
    }

    #[test]
    fn every_winning_blast_counts_its_pieces() {
        // Nxd5 takes the pawn, the queen on c6 and the rook on e6 for the knight:
        // 3 - 0 - 1 = 2, and one more for the queen. Black's Rxe3 takes the knight
        // for the rook: 1 - 0 - 1 = 0, nothing.
        let fen = "7k/8/2q1r3/3p4/8/4N3/8/K7 w - - 0 1";
        assert_eq!(coef(fen, idx::ATOMIC_MORE), 3);
        assert_eq!(coef(fen, idx::ATOMIC_MORE + 1), 0);
        // The same with Black to move: White's count moves to the other side's slot.
        let fen = "7k/8/2q1r3/3p4/8/4N3/8/K7 b - - 0 1";
        assert_eq!(coef(fen, idx::ATOMIC_MORE), 0);
        assert_eq!(coef(fen, idx::ATOMIC_MORE + 1), 3);
    }

    #[test]
    fn enemy_pieces_next_to_the_king_count_for_their_side() {
        // White's knight on d7 stands next to Black's king: Black cannot take it.
        assert_eq!(coef("4k3/3N4/8/8/8/8/8/4K3 w - - 0 1", idx::ATOMIC_MORE + 2), -1);
        assert_eq!(coef("4k3/8/8/3N4/8/8/8/4K3 w - - 0 1", idx::ATOMIC_MORE + 2), 0);
    }

    #[test]
    fn king_danger_reads_atomic_squares() {
        // Knight g4 and queen h4 on the castled king: two attackers 2 * (81 + 10) =
        // 182, four attacks next to the king 4 * 274, f2 and h2 hit by Black and
        // held by no White piece (a king defends nothing) 2 * 166, Qxf2 or Qxh2 a
        // safe queen check 780: 2390, bucket 11 (chess reads 1608, bucket 8).
        let fen = "6k1/5ppp/8/8/6nq/8/5PPP/6K1 w - - 0 1";
        assert_eq!(coef(fen, idx::KING_ATTACK + 11), 1);
        assert_eq!(coef(fen, idx::KING_ATTACK), -1);
    }
}
