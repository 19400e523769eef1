//! Three-check's evaluation: chess's ([`king`] danger and the [`classical`] terms)
//! with three-check's own king danger (Multi-Variant Stockfish's weights; every
//! check counts once the attacker has given one, safe or not), scaled by the checks
//! the attacker has given, the checks each side has given, and the material
//! imbalance ([`imbalance`]; Multi-Variant Stockfish keeps tables of its own for
//! the variant, with a bishop pair worth more than a knight).

use crate::eval::params::idx;
use crate::eval::{classical, imbalance, king, Accumulator, SideInfo, VariantEval};
use sapper_rules::position::{Bb, Position};
use sapper_rules::types::Color;
use sapper_rules::variant::threecheck::CHECKS_TO_WIN;
use sapper_rules::variant::ThreeCheck;

/// The king danger index's scale by the checks the attacker has given (0, 1, 2), in
/// 1/256: every check brings the loss nearer, so an attack weighs more than in chess,
/// and more still with one check left. Multi-Variant Stockfish's
/// `ThreeCheckKSFactors` (`evaluate.cpp`, 2019), 573, 581 and 856.
const DANGER_SCALE: [i32; 3] = [573, 581, 856];

/// The danger index's weights in three-check: Multi-Variant Stockfish's
/// `KingDangerParams` for it (`evaluate.cpp`, 2019: 85 per attack next to the king,
/// 136 per weak zone square, 106 per unsafe check, 613 off without a queen; the
/// safe checks as chess's). Checks end the game, so attacks next to the king and
/// unsafe checks weigh less than in chess and the queen's absence less.
const THREE_CHECK_DANGER: king::DangerWeights = king::DangerWeights {
    ring_attack: 85,
    weak_zone_square: 136,
    unsafe_check: 106,
    no_queen: 613,
    ..king::CHESS
};

/// The danger of `us`'s king: [`king::danger`] with [`THREE_CHECK_DANGER`], and once
/// the attacker has given a check (`attacker_checks` > 0), every check square not
/// holding one of its own pieces counts as a safe check: a check that loses the
/// checking piece still brings the third nearer (Multi-Variant Stockfish's `safe =
/// ~pos.pieces(Them)` in three-check).
fn danger(
    pos: &Position<ThreeCheck>,
    info: &[SideInfo<Bb<ThreeCheck>>; 2],
    us: Color,
    attacker_checks: usize,
) -> Option<i32> {
    let (weak, chess_safe) = king::weak_and_safe(pos, info, us);
    let safe = if attacker_checks > 0 {
        !pos.color(!us)
    } else {
        chess_safe
    };
    king::danger_with(pos, info, us, weak, safe, &THREE_CHECK_DANGER)
}

impl VariantEval for ThreeCheck {
    const EVAL_BLOCKS: &'static [&'static str] = classical::classical_blocks!("three_check", "imbalance");

    /// Multi-Variant Stockfish's `KingAttackWeights` for three-check: knight 115,
    /// bishop 64, rook 62, queen 35 (chess 81, 52, 44, 10).
    const KING_ATTACKER_WEIGHT: [i32; 6] = [0, 115, 64, 62, 35, 0];

    /// Chess's terms, the king danger scaled by `DANGER_SCALE`, and the checks each
    /// side has given, by remaining checks (`three_check` block: index 0 with three
    /// left, 1 with two, 2 with one): the bonus grows as a side nears its third check,
    /// which the other side's evaluation feels as danger.
    #[inline(always)]
    fn eval_terms<A: Accumulator>(pos: &Position<Self>, info: &[SideInfo<Bb<Self>>; 2], acc: &mut A) {
        // Checks given by each side, 0..=2 (a side with none left has won).
        let given = pos
            .state()
            .remaining
            .map(|left| (CHECKS_TO_WIN - left.clamp(1, CHECKS_TO_WIN)) as usize);
        for us in Color::ALL {
            let attacker_checks = given[(!us).index()];
            if let Some(d) = danger(pos, info, us, attacker_checks) {
                king::add_danger(d * DANGER_SCALE[attacker_checks] / 256, us, acc);
            }
        }
        classical::classical_terms(pos, info, acc);
        for color in Color::ALL {
            acc.add(idx::THREE_CHECK + given[color.index()], color.sign());
        }
        imbalance::imbalance_terms(pos, acc);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sapper_rules::variant::VariantKind;

    fn pos(fen: &str) -> Position<ThreeCheck> {
        Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}")).0
    }

    /// The [`idx::KING_ATTACK`] bucket that White's king's danger falls in.
    fn white_king_bucket(fen: &str) -> usize {
        let c = crate::eval::coefficients(&pos(fen));
        (0..crate::eval::king::BUCKETS)
            .find(|&b| {
                c.entries
                    .iter()
                    .any(|e| e.0 as usize == idx::KING_ATTACK + b && e.1 > 0)
            })
            .expect("White's king has a bucket")
    }

    #[test]
    fn king_danger_grows_with_the_checks_given() {
        // Knight g4 and queen h4 on the castled king: two attackers times (115 + 35),
        // four attacks next to the king (85 each), f2 and h2 weak (136 each) and the
        // safe queen check (780): 1692, scaled by 573/256 before Black's first check
        // (3787, bucket 18, capped at the last, 15).
        let attack =
            |checks: &str| white_king_bucket(&format!("6k1/5ppp/8/8/6nq/8/5PPP/6K1 w - - {checks} 0 1"));
        let fresh = attack("3+3");
        assert_eq!(fresh, crate::eval::king::BUCKETS - 1);
        // Black has given no check in either: White's own checks do not change it.
        assert_eq!(attack("1+3"), fresh);
        // A lone queen on h4 (about 518 in chess, bucket 2): scaled up by Black's
        // checks given.
        let queen =
            |checks: &str| white_king_bucket(&format!("6k1/5ppp/8/8/7q/8/5PPP/6K1 w - - {checks} 0 1"));
        assert!(queen("3+1") > queen("3+3"), "{} {}", queen("3+1"), queen("3+3"));
    }

    #[test]
    fn once_a_check_is_given_a_guarded_check_counts_as_safe() {
        // Black's Re1+ is guarded by White's rook on a1: an unsafe check (106) before
        // Black's first check, less the missing queen (613): 0, bucket 0. After one,
        // it counts as a safe rook check: 1080 - 613 = 467, scaled by 581/256: 1059,
        // bucket 5.
        let fen = |checks: &str| format!("4r1k1/8/8/8/8/8/5PPP/R5K1 w - - {checks} 0 1");
        // Both kings in bucket 0: their coefficients cancel.
        let fresh = crate::eval::coefficients(&pos(&fen("3+3")));
        assert!(fresh
            .entries
            .iter()
            .all(|e| !(idx::KING_ATTACK..idx::KING_ATTACK + king::BUCKETS).contains(&(e.0 as usize))));
        assert_eq!(white_king_bucket(&fen("3+2")), 5);
    }

    #[test]
    fn the_evaluation_rewards_checks_given() {
        let params = crate::eval::default_params(VariantKind::ThreeCheck);
        let fresh = pos("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 3+3 2 3");
        let ahead = pos("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 1+3 2 3");
        let behind = pos("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 3+2 2 3");
        let e = |p: &Position<ThreeCheck>| crate::eval::evaluate_linear(p, &params);
        assert!(e(&ahead) > e(&fresh) + 300, "{} {}", e(&ahead), e(&fresh));
        assert!(e(&behind) < e(&fresh) - 50, "{} {}", e(&behind), e(&fresh));
    }
}
