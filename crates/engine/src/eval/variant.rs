//! What the evaluation asks of a variant ([`VariantEval`]); the impls are beside the
//! terms they add (`eval/chess.rs`, `eval/atomic.rs`, ...).

use crate::eval::{king, Accumulator, SideInfo};
use sapper_rules::position::{Bb, Position};
use sapper_rules::variant::Variant;
// `eval/params.rs` (compiled into build.rs as well) imports the kind from here.
pub use sapper_rules::variant::VariantKind;
use sapper_rules::with_variant;

/// A variant's evaluation hooks. Each has a default that adds nothing, and every
/// one is called whatever the variant, so an override can never be skipped and an
/// empty default costs nothing once the code is monomorphised.
pub trait VariantEval: Variant {
    /// The blocks of the parameter schema ([`SCHEMA`](crate::eval::params::SCHEMA))
    /// that only this variant's evaluation reads (three-check: `three_check`). This
    /// variant's parameter files must give them; other variants' files may leave
    /// them out ([`VariantKindEval::may_omit_block`]).
    const EVAL_BLOCKS: &'static [&'static str] = &[];

    /// Weight of one attacker of the enemy king zone by role, pawn..king, in the king
    /// danger index ([`king`]; Stockfish's `KingAttackWeights`): chess's unless the
    /// variant's own differ (three-check).
    const KING_ATTACKER_WEIGHT: [i32; 6] = king::ATTACKER_WEIGHT;

    /// Adds the variant's evaluation terms to `acc`, White's point of view, after
    /// the chess terms (`info`: what the piece loop learnt of each side).
    #[inline(always)]
    fn eval_terms<A: Accumulator>(_pos: &Position<Self>, _info: &[SideInfo<Bb<Self>>; 2], _acc: &mut A) {}

    /// The score of a known endgame the linear evaluation misjudges, centipawns for
    /// the side to move (atomic against a bare king); `None` otherwise.
    #[inline(always)]
    fn known_endgame(_pos: &Position<Self>) -> Option<i32> {
        None
    }
}

/// What the evaluation's parameter files know of a [`VariantKind`].
pub trait VariantKindEval: Copy {
    /// The parameter-file blocks only this variant's evaluation reads: the type's
    /// [`VariantEval::EVAL_BLOCKS`].
    fn eval_blocks(self) -> &'static [&'static str];

    /// Whether this variant's parameter files may leave out block `name` (read as
    /// zeros): a block that another variant's evaluation owns
    /// ([`VariantEval::EVAL_BLOCKS`]) and this one's does not. Such a block was added
    /// after the other variants' files were written; they stay valid and keep their
    /// content hashes.
    fn may_omit_block(self, name: &str) -> bool;
}

impl VariantKindEval for VariantKind {
    fn eval_blocks(self) -> &'static [&'static str] {
        with_variant!(self, V => <V as VariantEval>::EVAL_BLOCKS)
    }

    fn may_omit_block(self, name: &str) -> bool {
        !self.eval_blocks().contains(&name)
            && VariantKind::ALL.iter().any(|v| v.eval_blocks().contains(&name))
    }
}
