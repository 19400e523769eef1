//! Standard chess's evaluation terms: king danger from the attack on the king
//! ([`king`]) and the terms after Stockfish's classical evaluation ([`classical`]).

use crate::eval::{classical, king, Accumulator, SideInfo, VariantEval};
use sapper_rules::position::{Bb, Position};
use sapper_rules::variant::Chess;

impl VariantEval for Chess {
    const EVAL_BLOCKS: &'static [&'static str] = classical::BLOCKS;

    #[inline(always)]
    fn eval_terms<A: Accumulator>(pos: &Position<Self>, info: &[SideInfo<Bb<Self>>; 2], acc: &mut A) {
        king::king_attack_terms(pos, info, acc);
        classical::classical_terms(pos, info, acc);
    }
}
