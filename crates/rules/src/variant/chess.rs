//! Standard chess: every hook keeps its default (the evaluation's terms are the
//! engine's, `eval/chess.rs`).

use crate::geometry::Board8x8;
use crate::position::Position;
use crate::variant::{lone_minor_at_most, Variant, VariantKind};

/// Standard chess.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Chess;

impl Variant for Chess {
    type G = Board8x8;
    type State = ();
    const NAME: &'static str = "chess";
    const KIND: VariantKind = VariantKind::Chess;

    fn is_drawn_material(pos: &Position<Self>) -> bool {
        lone_minor_at_most(pos)
    }
}
