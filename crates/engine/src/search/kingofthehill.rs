//! What the search must know of king of the hill: king steps toward a free hill
//! square are never pruned or reduced.

use crate::search::VariantSearch;
use sapper_rules::bitboard::BitBoard;
use sapper_rules::moves::Move;
use sapper_rules::position::Position;
use sapper_rules::types::{Role, Square};
use sapper_rules::variant::kingofthehill::hill;
use sapper_rules::variant::KingOfTheHill;

impl VariantSearch for KingOfTheHill {
    type Belief = ();

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
}
