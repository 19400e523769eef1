//! King danger from the attack on the king, after Stockfish's classical evaluation
//! (`evaluate.cpp`, `Evaluation::king()`, Stockfish 11-12): one danger index per king
//! that adds the attackers' count times their weight, their attacks next to the king,
//! the weak squares around it, and the checks the attacker can give, safe or not.
//! Stockfish charges `danger^2 / 4096`; here the index is bucketed
//! ([`idx::KING_ATTACK`], [`DANGER_STEP`] per bucket) so that the tuner fits the
//! curve, and the linear king-zone term ([`idx::KING_DANGER`]) stays beside it.
//!
//! Read by chess, king of the hill, three-check, atomic and minesweeper (their `Variant::EVAL_BLOCKS`;
//! atomic with its own weak and safe squares, [`danger_with`]), chess's games
//! against Fairy-Stockfish were lost to attacks on the castled king that this
//! index sees and the zone count did not.

use crate::eval::params::idx;
use crate::eval::{Accumulator, SideInfo};
use sapper_rules::bitboard::BitBoard;
use sapper_rules::geometry::Geometry;
use sapper_rules::position::{Bb, Position};
use sapper_rules::types::{Color, Role};
use sapper_rules::variant::Variant;

/// Weight of one attacker of the king zone by role, pawn..king (Stockfish's
/// `KingAttackWeights`; the index adds count times summed weight).
pub(crate) const ATTACKER_WEIGHT: [i32; 6] = [0, 81, 52, 44, 10, 0];
/// Danger per [`idx::KING_ATTACK`] bucket.
pub const DANGER_STEP: i32 = 200;
/// Buckets in [`idx::KING_ATTACK`].
pub const BUCKETS: usize = 16;

/// The danger index's weights, in Stockfish's internal units (`KingDangerParams`
/// and the `*SafeCheck` constants of `evaluate.cpp`).
#[derive(Clone, Copy, Debug)]
pub struct DangerWeights {
    /// Per attack of a piece on a square next to the king.
    pub ring_attack: i32,
    /// Per square of the king zone the attacker hits and the defender holds weakly
    /// (what "weakly" means is the variant's: see [`danger_with`]).
    pub weak_zone_square: i32,
    /// Per square from which the attacker could check, but not safely.
    pub unsafe_check: i32,
    /// A safe check by role, pawn..king (counted once per role).
    pub safe_check: [i32; 6],
    /// Taken off when the attacker has no queen: it rarely mates then.
    pub no_queen: i32,
}

/// Chess's weights (Stockfish 11's `KingDangerParams` for chess).
pub const CHESS: DangerWeights = DangerWeights {
    ring_attack: 69,
    weak_zone_square: 185,
    unsafe_check: 148,
    safe_check: [0, 790, 635, 1080, 780, 0],
    no_queen: 873,
};

/// The danger index to `us`'s king, in Stockfish's internal units (0 without an
/// attack; never negative), `None` without a king. `info` is what the evaluation's
/// piece loop learnt of each side.
pub fn danger<V: Variant>(pos: &Position<V>, info: &[SideInfo<Bb<V>>; 2], us: Color) -> Option<i32> {
    let (weak, safe) = weak_and_safe(pos, info, us);
    danger_with(pos, info, us, weak, safe, &CHESS)
}

/// Chess's `(weak, safe)` squares for [`danger_with`] around `us`'s king: attacked
/// squares the defender holds at most once, by its king or queen; and squares the
/// attacker may check from, empty of its own pieces and either undefended or weak
/// and attacked twice (Stockfish's `weak` and `safe`).
pub fn weak_and_safe<V: Variant>(
    pos: &Position<V>,
    info: &[SideInfo<Bb<V>>; 2],
    us: Color,
) -> (Bb<V>, Bb<V>) {
    let them = !us;
    let (u, t) = (&info[us.index()], &info[them.index()]);
    let (u_twice, t_twice) = (u.twice_with_pawns(), t.twice_with_pawns());
    let weak = t.all & !u_twice & (!u.all | u.king_ring() | u.by_role[Role::Queen.index()]);
    let safe = !pos.color(them) & (!u.all | (weak & t_twice));
    (weak, safe)
}

/// [`danger`] with the variant's own `weak` squares (attacked, and weakly held by
/// the defender), `safe` squares (where an attacker may check from) and `weights`.
pub fn danger_with<V: Variant>(
    pos: &Position<V>,
    info: &[SideInfo<Bb<V>>; 2],
    us: Color,
    weak: Bb<V>,
    safe: Bb<V>,
    weights: &DangerWeights,
) -> Option<i32> {
    type G<V> = <V as Variant>::G;
    let king = pos.king(us)?;
    let them = !us;
    let (u, t) = (&info[us.index()], &info[them.index()]);
    let occupied = pos.occupied();
    let rook_lines = G::<V>::rook_attacks(king, occupied);
    let bishop_lines = G::<V>::bishop_attacks(king, occupied);
    let by = |role: Role| t.by_role[role.index()];
    let safe_check = |role: Role| weights.safe_check[role.index()];
    let mut d = 0;
    let mut unsafe_checks = Bb::<V>::EMPTY;

    let rook_checks = rook_lines & by(Role::Rook) & safe;
    if rook_checks.any() {
        d += safe_check(Role::Rook);
    } else {
        unsafe_checks |= rook_lines & by(Role::Rook);
    }
    let queen_checks =
        (rook_lines | bishop_lines) & by(Role::Queen) & safe & !u.by_role[Role::Queen.index()] & !rook_checks;
    if queen_checks.any() {
        d += safe_check(Role::Queen);
    }
    let bishop_checks = bishop_lines & by(Role::Bishop) & safe & !queen_checks;
    if bishop_checks.any() {
        d += safe_check(Role::Bishop);
    } else {
        unsafe_checks |= bishop_lines & by(Role::Bishop);
    }
    let knight_checks = G::<V>::knight_attacks(king) & by(Role::Knight);
    if (knight_checks & safe).any() {
        d += safe_check(Role::Knight);
    } else {
        unsafe_checks |= knight_checks;
    }

    d += t.zone_attackers * t.zone_attack_weight
        + weights.ring_attack * t.ring_attacks
        + weights.weak_zone_square * (u.king_zone & weak).count() as i32
        + weights.unsafe_check * unsafe_checks.count() as i32;
    if pos.pieces(them, Role::Queen).is_empty() {
        d -= weights.no_queen;
    }
    Some(d.max(0))
}

/// Adds the [`idx::KING_ATTACK`] bucket of each king's [`danger`] to `acc`
/// (coefficient: the defending side's sign).
#[inline]
pub fn king_attack_terms<V: Variant, A: Accumulator>(
    pos: &Position<V>,
    info: &[SideInfo<Bb<V>>; 2],
    acc: &mut A,
) {
    for us in Color::ALL {
        if let Some(d) = danger(pos, info, us) {
            add_danger(d, us, acc);
        }
    }
}

/// Adds the [`idx::KING_ATTACK`] bucket of the danger index `d` (as [`danger`]
/// gives it, perhaps scaled by a variant) to `us`'s king.
#[inline]
pub fn add_danger<A: Accumulator>(d: i32, us: Color, acc: &mut A) {
    let bucket = ((d.max(0) / DANGER_STEP) as usize).min(BUCKETS - 1);
    acc.add(idx::KING_ATTACK + bucket, us.sign());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::coefficients;
    use sapper_rules::variant::Chess;

    /// The [`idx::KING_ATTACK`] coefficients of `fen`, buckets 0..16 (White +1,
    /// Black -1 in the same bucket cancel).
    fn buckets(fen: &str) -> Vec<i32> {
        let (pos, _) = Position::<Chess>::from_fen(fen).unwrap();
        let c = coefficients(&pos);
        (0..BUCKETS)
            .map(|b| {
                c.entries
                    .iter()
                    .find(|e| e.0 as usize == idx::KING_ATTACK + b)
                    .map_or(0, |e| e.1)
            })
            .collect()
    }

    #[test]
    fn a_safe_back_rank_check_without_a_queen() {
        // Re1+ is safe: 1080 - 873 (no queen) = 207, bucket 1. Black's king faces
        // pawns and a king only: 0.
        let b = buckets("4r1k1/8/8/8/8/8/5PPP/6K1 w - - 0 1");
        assert_eq!(b[1], 1);
        assert_eq!(b[0], -1);
        // A rook on a1 guards e1: the check is unsafe, 148 - 873 < 0.
        let b = buckets("4r1k1/8/8/8/8/8/5PPP/R5K1 w - - 0 1");
        assert!(b.iter().all(|&x| x == 0), "{b:?}");
    }

    #[test]
    fn queen_and_knight_on_the_castled_king() {
        // Knight g4 and queen h4 both hit f2 and h2: 2 attackers * (81 + 10) = 182,
        // four attacks next to the king 276, f2 and h2 held by the king alone
        // (weak) 370, and Qxf2+ or Qxh2+ is a safe queen check 780: 1608, bucket 8.
        let b = buckets("6k1/5ppp/8/8/6nq/8/5PPP/6K1 w - - 0 1");
        assert_eq!(b[8], 1, "{b:?}");
        assert_eq!(b[0], -1, "{b:?}");
    }
}
