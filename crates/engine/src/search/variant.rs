//! What the search asks of a variant ([`VariantSearch`]); the impls are beside the
//! code they serve (`search/atomic.rs`, `search/kingofthehill.rs`,
//! `search/belief.rs`), the variants that need none here.

use crate::eval::VariantEval;
use sapper_rules::moves::Move;
use sapper_rules::position::Position;
use sapper_rules::types::Square;
use sapper_rules::variant::{Chess, ThreeCheck};

/// What late-move pruning drops once it has dropped a quiet move at a node.
/// Stockfish's moveCountPruning drops every later quiet move, checks included;
/// the variants whose quiet moves can win or threaten to cannot drop them all.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LateQuiets {
    /// Every later quiet move: the picker generates no more.
    All,
    /// Every later quiet move but the variant's critical ones
    /// ([`VariantSearch::is_critical`]), which the picker cannot tell.
    AllButCritical,
    /// Only those that neither check nor threaten a win, one at a time (three-check,
    /// where a check is a third of a win; minesweeper, not measured).
    Unforcing,
}

/// A variant's search hooks. Each has a default that changes nothing (chess), and
/// every one is called whatever the variant, so an override can never be skipped.
/// A variant the search plays has an evaluation, hence the supertrait.
pub trait VariantSearch: VariantEval {
    /// Whether `search::check_test::may_give_check` may tell that a
    /// quiet move gives no check without playing it: a move it clears neither
    /// checks nor threatens a win here. The search asks it of moves whose outcome
    /// is certain only, so it holds in minesweeper too: a piece destroyed on a
    /// mine checks nothing, and its leaving uncovers what a move would.
    const QUIET_CHECK_TEST: bool = true;

    /// The search's knowledge of hidden information below a root (minesweeper: the
    /// consistent mine layouts); `()` where nothing is hidden.
    type Belief: Send;

    /// The search's knowledge of hidden information at a root (minesweeper: the
    /// consistent mine layouts); `None` when nothing is hidden. `naivety` (0 to 1)
    /// blends it toward a learner's guess (`Belief::with_naivety`); 0 is exact.
    fn new_belief(_root: &Position<Self>, _naivety: f32) -> Option<Self::Belief> {
        None
    }

    /// The probability that `m` ends on a mine (minesweeper), 0 for moves whose
    /// outcome is certain to be safe and 1 for certain destruction. `belief` is the
    /// search's knowledge; without it, unknown squares count as safe.
    #[inline(always)]
    fn mine_probability(_pos: &Position<Self>, _m: Move, _belief: Option<&mut Self::Belief>) -> f32 {
        0.0
    }

    /// The material balance of `m` for SEE when the variant's captures are no
    /// exchange (atomic: the blast's balance); `None` for the swap algorithm.
    #[inline(always)]
    fn exchange_value(_pos: &Position<Self>, _m: Move) -> Option<i32> {
        None
    }

    /// Whether `m` passes every SEE threshold whatever it gives up (three-check:
    /// a check, a third of the game, is worth more than any piece). Asked only of
    /// moves whose exchange fails the threshold.
    #[inline(always)]
    fn passes_see(_pos: &Position<Self>, _m: Move) -> bool {
        false
    }

    /// The ordering gain of the capture `m` of the piece on `victim` when it is not
    /// MVV-LVA (atomic: the blast's balance); `None` for MVV-LVA.
    #[inline(always)]
    fn capture_order_gain(_pos: &Position<Self>, _m: Move, _victim: Square) -> Option<i32> {
        None
    }

    /// Whether `m`, a move that is not the king's, may leave the mover threatening
    /// to win next move ([`Variant::threatens_win`](sapper_rules::variant::Variant::threatens_win)
    /// of the position after it); `false` only when it surely does not. King of the
    /// hill: the mover's king stands next to the hill.
    #[inline(always)]
    fn may_threaten_win(_pos: &Position<Self>, _m: Move) -> bool {
        false
    }

    /// What late-move pruning drops once it starts ([`LateQuiets`]).
    const LATE_QUIETS: LateQuiets = LateQuiets::All;

    /// Sudden death's share of the clock for the first move, growing with the ply
    /// ([`timeman::budget`](super::timeman::budget)): chess's games are long, so
    /// their first moves get less than later ones.
    const OPENING_TIME_SHARE: f64 = super::timeman::OPENING_SHARE;

    /// Moves the search must never prune or reduce (atomic: threats to explode the
    /// king; king of the hill: king steps toward a free hill square).
    #[inline(always)]
    fn is_critical(_pos: &Position<Self>, _m: Move) -> bool {
        false
    }
}

impl VariantSearch for Chess {
    type Belief = ();
}

impl VariantSearch for ThreeCheck {
    type Belief = ();
    const LATE_QUIETS: LateQuiets = LateQuiets::Unforcing;

    /// Multi-Variant Stockfish's `Position::see_ge` in three-check (`position.cpp`,
    /// 2019): a move that gives check passes, so neither SEE pruning nor the
    /// picker's bad-capture stage holds back a sacrifice that checks.
    #[inline]
    fn passes_see(pos: &Position<Self>, m: Move) -> bool {
        pos.gives_check(m)
    }
}
