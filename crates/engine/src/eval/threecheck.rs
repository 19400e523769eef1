//! Three-check's evaluation: chess's ([`king`] danger and the [`classical`] terms)
//! with the king danger scaled by the checks the attacker has given, and the checks
//! each side has given.

use crate::eval::params::idx;
use crate::eval::{classical, king, Accumulator, SideInfo, VariantEval};
use sapper_rules::position::{Bb, Position};
use sapper_rules::types::Color;
use sapper_rules::variant::threecheck::CHECKS_TO_WIN;
use sapper_rules::variant::ThreeCheck;

/// The king danger index's scale by the checks the attacker has given (0, 1, 2), in
/// 1/256: every check brings the loss nearer, so an attack weighs more than in chess,
/// and more still with one check left. Multi-Variant Stockfish's
/// `ThreeCheckKSFactors` (`evaluate.cpp`, 2019), 573, 581 and 856.
const DANGER_SCALE: [i32; 3] = [573, 581, 856];

impl VariantEval for ThreeCheck {
    const EVAL_BLOCKS: &'static [&'static str] = classical::classical_blocks!("three_check");

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
            if let Some(d) = king::danger(pos, info, us) {
                king::add_danger(d * DANGER_SCALE[given[(!us).index()]] / 256, us, acc);
            }
        }
        classical::classical_terms(pos, info, acc);
        for color in Color::ALL {
            acc.add(idx::THREE_CHECK + given[color.index()], color.sign());
        }
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
        // Knight g4 and queen h4 on the castled king: danger 1608 in chess (bucket 8,
        // see king.rs), scaled by 573/256 before Black's first check (3599, bucket
        // 17, capped at the last, 15).
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
