//! What the search must know of king of the hill: king steps toward a free hill
//! square are never pruned or reduced, and any move of a side whose king stands next
//! to the hill may leave a threat to win.

use crate::search::{LateQuiets, VariantSearch};
use sapper_rules::bitboard::BitBoard;
use sapper_rules::geometry::{Board8x8, Geometry};
use sapper_rules::moves::Move;
use sapper_rules::position::Position;
use sapper_rules::types::{Role, Square};
use sapper_rules::variant::kingofthehill::hill;
use sapper_rules::variant::KingOfTheHill;

impl VariantSearch for KingOfTheHill {
    type Belief = ();
    const LATE_QUIETS: LateQuiets = LateQuiets::AllButCritical;

    /// As atomic's: king of the hill's games are short too (a king can reach the
    /// hill in a middlegame). With chess's share Sapper spent 0.20 s a move over the
    /// first 20 plies of 5s+0.05s games, and fell 2 plies behind the specialist's
    /// depth from ply 40; with this one, 0.25 s (+31 Elo at 5s+0.05s, CHANGELOG).
    const OPENING_TIME_SHARE: f64 = crate::search::timeman::SHORT_GAME_OPENING_SHARE;

    /// A king step toward a free hill square when the king is within two steps of it.
    #[inline(always)]
    fn is_critical(pos: &Position<Self>, m: Move) -> bool {
        let us = pos.side_to_move();
        if pos.role_at(m.from()) != Some(Role::King) {
            return false;
        }
        let free = hill() & !pos.color(us);
        let distance = |sq: Square| free.squares().map(|h| sq.distance(h)).min().unwrap_or(8);
        let now = distance(m.from());
        now <= 2 && distance(m.to()) < now
    }

    /// The mover's king stands next to a hill square: after any move the king may
    /// still (or, with a path cleared, newly) threaten to step onto it.
    #[inline(always)]
    fn may_threaten_win(pos: &Position<Self>, _m: Move) -> bool {
        pos.king(pos.side_to_move())
            .is_some_and(|k| (Board8x8::king_attacks(k) & hill()).any())
    }
}
