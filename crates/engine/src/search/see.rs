//! Static exchange evaluation (SEE): the material a capture sequence on one square
//! wins, both sides always recapturing with their least valuable attacker and
//! free to stop (the swap algorithm, Chess Programming Wiki "SEE - The Swap
//! Algorithm").
//!
//! In atomic there is no exchange: a capture explodes at once, so its value is the
//! balance of the blast (enemy pieces destroyed minus own pieces destroyed, the
//! capturer included; the enemy king counts as winning outright). A quiet move in
//! atomic is judged by the enemy's best blast on its destination. A multi-variant
//! fork once lost over 150 Elo in atomic by pruning with chess SEE there.

use crate::search::VariantSearch;
use crate::values::EXCHANGE;
use sapper_rules::bitboard::BitBoard;
use sapper_rules::geometry::Geometry;
use sapper_rules::moves::{Move, MoveKind};
use sapper_rules::position::Position;
use sapper_rules::types::Role;
use sapper_rules::variant::Variant;

/// Piece values for SEE, centipawns (pawn..king): [`crate::values::EXCHANGE`].
pub const SEE_VALUE: [i32; 6] = EXCHANGE;

/// Whether the exchange started by `m` gains at least `threshold` centipawns.
pub fn see_ge<V: VariantSearch>(pos: &Position<V>, m: Move, threshold: i32) -> bool {
    exchange_ge(pos, m, threshold) || V::passes_see(pos, m)
}

/// Whether the exchange's material alone gains at least `threshold` centipawns.
#[inline]
fn exchange_ge<V: VariantSearch>(pos: &Position<V>, m: Move, threshold: i32) -> bool {
    if matches!(m.kind(), MoveKind::Castle | MoveKind::Sapper) {
        return 0 >= threshold;
    }
    if let Some(value) = V::exchange_value(pos, m) {
        return value >= threshold;
    }
    swap_ge(pos, m, threshold)
}

/// What promoting gains, in [`SEE_VALUE`] units.
pub(crate) fn promotion_gain(m: Move) -> i32 {
    m.promotion_role()
        .map_or(0, |r| SEE_VALUE[r.index()] - SEE_VALUE[Role::Pawn.index()])
}

/// The swap algorithm with x-rays, as a threshold test.
fn swap_ge<V: Variant>(pos: &Position<V>, m: Move, threshold: i32) -> bool {
    let from = m.from();
    let to = m.to();
    let captured = match m.kind() {
        MoveKind::EnPassant => SEE_VALUE[Role::Pawn.index()],
        _ => pos.role_at(to).map_or(0, |r| SEE_VALUE[r.index()]),
    };
    let mut swap = captured + promotion_gain(m) - threshold;
    if swap < 0 {
        return false;
    }
    let moving = match m.promotion_role() {
        Some(r) => SEE_VALUE[r.index()],
        None => pos.role_at(from).map_or(0, |r| SEE_VALUE[r.index()]),
    };
    swap = moving - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = pos.occupied().without(from).without(to);
    if m.kind() == MoveKind::EnPassant {
        occupied = occupied.without(m.en_passant_victim());
    }
    let bishops = pos.role(Role::Bishop) | pos.role(Role::Queen);
    let rooks = pos.role(Role::Rook) | pos.role(Role::Queen);
    let mut attackers = pos.attackers_to(to, occupied) & occupied;
    let mut side = !pos.side_to_move();
    let mut result = true;
    loop {
        let mine = attackers & pos.color(side);
        if mine.is_empty() {
            break;
        }
        result = !result;
        // Least valuable attacker.
        let Some((role, sq)) = Role::ALL
            .iter()
            .find_map(|&r| (mine & pos.role(r)).squares().next().map(|sq| (r, sq)))
        else {
            break;
        };
        if role == Role::King {
            // The king may only capture last: if the other side still attacks, it cannot.
            return if (attackers & pos.color(!side)).any() {
                !result
            } else {
                result
            };
        }
        swap = SEE_VALUE[role.index()] - swap;
        if swap < result as i32 {
            break;
        }
        occupied = occupied.without(sq);
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= V::G::bishop_attacks(to, occupied) & bishops;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= V::G::rook_attacks(to, occupied) & rooks;
        }
        attackers &= occupied;
        side = !side;
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use sapper_rules::notation::parse_uci_move;
    use sapper_rules::variant::{Atomic, Chess, ThreeCheck};

    fn see<V: VariantSearch>(fen: &str, mv: &str, threshold: i32) -> bool {
        let (pos, _) = Position::<V>::from_fen(fen).unwrap();
        let m = parse_uci_move(&pos, mv).unwrap();
        see_ge(&pos, m, threshold)
    }

    #[test]
    fn chess_exchanges() {
        // Rxe5 wins a pawn (no defender).
        let fen = "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1";
        assert!(see::<Chess>(fen, "e1e5", 100));
        assert!(!see::<Chess>(fen, "e1e5", 101));
        // Nxe5 into a defended pawn with the queen behind: loses the knight for a pawn.
        let fen = "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1";
        assert!(see::<Chess>(fen, "d3e5", -220));
        assert!(!see::<Chess>(fen, "d3e5", 0));
    }

    #[test]
    fn three_check_checks_pass_any_threshold() {
        // Ra8+ puts the rook where the knight on b6 takes it: a lost rook in chess,
        // a third of the game in three-check. Ra7 loses it without a check.
        let fen = "4k3/8/1n6/8/8/8/8/R3K3 w - - 0 1";
        assert!(!see::<Chess>(fen, "a1a8", 0));
        let fen = "4k3/8/1n6/8/8/8/8/R3K3 w - - 3+3 0 1";
        assert!(see::<ThreeCheck>(fen, "a1a8", 0));
        assert!(see::<ThreeCheck>(fen, "a1a8", 900));
        assert!(!see::<ThreeCheck>(
            "4k3/8/8/1n6/8/8/8/R3K3 w - - 3+3 0 1",
            "a1a7",
            0
        ));
    }

    #[test]
    fn atomic_blasts_replace_exchanges() {
        // Nxd7 explodes next to the king on e8: winning outright.
        let fen = "4k3/3p4/1N6/8/8/8/8/4K3 w - - 0 1";
        assert!(see::<Atomic>(fen, "b6d7", 10_000));
        // Qxd5 blows up the queen for a pawn (and the knight next to it).
        let fen = "4k3/8/8/2np4/8/8/8/3QK3 w - - 0 1";
        assert!(!see::<Atomic>(fen, "d1d5", 0));
        assert!(see::<Atomic>(fen, "d1d5", 100 + 320 - 950));
    }
}
