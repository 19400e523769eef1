//! Three-check's evaluation terms: the checks each side has given.

use crate::eval::params::idx;
use crate::eval::{Accumulator, SideInfo, VariantEval};
use sapper_rules::position::{Bb, Position};
use sapper_rules::types::Color;
use sapper_rules::variant::threecheck::CHECKS_TO_WIN;
use sapper_rules::variant::ThreeCheck;

impl VariantEval for ThreeCheck {
    // Added after the other variants' parameter files, which leave it out.
    const EVAL_BLOCKS: &'static [&'static str] = &["three_check"];

    /// The checks each side has given, by remaining checks (`three_check` block:
    /// index 0 with three left, 1 with two, 2 with one): the bonus grows as a side
    /// nears its third check, which the other side's evaluation feels as danger.
    #[inline(always)]
    fn eval_terms<A: Accumulator>(pos: &Position<Self>, _info: &[SideInfo<Bb<Self>>; 2], acc: &mut A) {
        for color in Color::ALL {
            let left = pos.state().remaining[color.index()].clamp(1, CHECKS_TO_WIN);
            acc.add(idx::THREE_CHECK + (CHECKS_TO_WIN - left) as usize, color.sign());
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
