//! Standard chess: every hook keeps its default but the evaluation's, which adds
//! king danger from the attack on the king (`eval::king`) and the terms after
//! Stockfish's classical evaluation (`eval::classical`).

use crate::eval::{classical, king, Accumulator, SideInfo};
use crate::geometry::Board8x8;
use crate::position::{Bb, Position};
use crate::variant::{lone_minor_at_most, Variant, VariantKind};

/// Standard chess.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Chess;

impl Variant for Chess {
    type G = Board8x8;
    type State = ();
    type Belief = ();
    const NAME: &'static str = "chess";
    const KIND: VariantKind = VariantKind::Chess;
    const EVAL_BLOCKS: &'static [&'static str] = classical::BLOCKS;

    fn is_drawn_material(pos: &Position<Self>) -> bool {
        lone_minor_at_most(pos)
    }

    #[inline(always)]
    fn eval_terms<A: Accumulator>(pos: &Position<Self>, info: &[SideInfo<Bb<Self>>; 2], acc: &mut A) {
        king::king_attack_terms(pos, info, acc);
        classical::classical_terms(pos, info, acc);
    }
}
