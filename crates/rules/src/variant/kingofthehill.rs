//! King of the hill (docs/rules.md, section kingofthehill): a king reaching one of
//! the four centre squares wins. Its hooks: the outcome, the one-move win quiescence
//! must see and the threat of it. The engine crate adds the king steps the search must
//! not prune (`search/kingofthehill.rs`) and the evaluation's hill terms
//! (`eval/kingofthehill.rs`).

use crate::bitboard::BitBoard;
use crate::geometry::{Board8x8, Geometry};
use crate::moves::{Move, MoveKind};
use crate::position::{Bb, Position};
use crate::types::{Color, Square};
use crate::variant::{Outcome, Variant, VariantKind};

/// King of the hill (docs/rules.md, section kingofthehill).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KingOfTheHill;

/// The four hill squares d4, e4, d5, e5.
#[inline(always)]
pub fn hill() -> Bb<KingOfTheHill> {
    [(3, 3), (4, 3), (3, 4), (4, 4)]
        .into_iter()
        .fold(Bb::<KingOfTheHill>::EMPTY, |bb, (f, r)| {
            bb.with(Square::new(f, r))
        })
}

impl Variant for KingOfTheHill {
    type G = Board8x8;
    type State = ();
    const NAME: &'static str = "kingofthehill";
    const KIND: VariantKind = VariantKind::KingOfTheHill;
    const SPECIAL_WIN: &'static str = "king on the hill";
    const PGN_VARIANT: Option<&'static str> = Some("King of the Hill");

    #[inline(always)]
    fn special_outcome(pos: &Position<Self>) -> Option<Outcome> {
        // docs/rules.md kingofthehill 1 and 5: a king on the hill has won.
        let hill = hill();
        for color in Color::ALL {
            if (pos.kings_of(color) & hill).any() {
                return Some(Outcome::Decisive { winner: color });
            }
        }
        None
    }

    /// docs/rules.md kingofthehill 4: no insufficient-material draw.
    fn is_drawn_material(_pos: &Position<Self>) -> bool {
        false
    }

    /// The side to move's king can step onto the hill now.
    #[inline(always)]
    fn wins_next_move(pos: &Position<Self>) -> bool {
        let Some(king) = pos.king(pos.side_to_move()) else {
            return false;
        };
        let targets = Board8x8::king_attacks(king) & hill() & !pos.color(pos.side_to_move());
        targets
            .squares()
            .any(|sq| pos.is_legal(Move::new(king, sq, MoveKind::Normal)))
    }

    /// The other king can step onto the hill: a free or enemy-held hill square
    /// next to it that the side to move does not attack.
    #[inline(always)]
    fn threatens_win(pos: &Position<Self>) -> bool {
        let us = pos.side_to_move();
        let Some(king) = pos.king(!us) else {
            return false;
        };
        let targets = Board8x8::king_attacks(king) & hill() & !pos.color(!us);
        if targets.is_empty() {
            return false;
        }
        let occupied = pos.occupied().without(king);
        targets
            .squares()
            .any(|sq| !pos.attacks_for_king_safety(sq, us, occupied))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position<KingOfTheHill> {
        Position::from_fen(fen).unwrap().0
    }

    #[test]
    fn a_king_next_to_a_free_hill_square_threatens_to_win() {
        // Black's king on c6 can step onto d5; White is to move and must answer.
        let p = pos("8/8/2k5/8/8/8/8/K7 w - - 0 1");
        assert!(KingOfTheHill::threatens_win(&p));
        assert!(!KingOfTheHill::wins_next_move(&p));
        // The same position with Black to move: the threat is the win itself.
        let p = pos("8/8/2k5/8/8/8/8/K7 b - - 0 1");
        assert!(KingOfTheHill::wins_next_move(&p));
        assert!(!KingOfTheHill::threatens_win(&p));
        // A rook on the d-file guards d5: no threat.
        assert!(!KingOfTheHill::threatens_win(&pos(
            "8/8/2k5/8/8/8/8/K2R4 w - - 0 1"
        )));
        // A black piece on d5 blocks the step.
        assert!(!KingOfTheHill::threatens_win(&pos(
            "8/8/2k5/3n4/8/8/8/K7 w - - 0 1"
        )));
        // A white piece there can be taken.
        assert!(KingOfTheHill::threatens_win(&pos(
            "8/8/2k5/3N4/8/8/8/K7 w - - 0 1"
        )));
    }

    #[test]
    fn every_hill_square_in_reach_must_be_guarded() {
        // The king on c5 reaches d4 and d5: the knight on e2 guards d4, the one on
        // e3 guards d5.
        assert!(!KingOfTheHill::threatens_win(&pos(
            "8/8/8/2k5/8/4N3/4N3/K7 w - - 0 1"
        )));
        assert!(KingOfTheHill::threatens_win(&pos(
            "8/8/8/2k5/8/8/4N3/K7 w - - 0 1"
        )));
        assert!(KingOfTheHill::threatens_win(&pos(
            "8/8/8/2k5/8/4N3/8/K7 w - - 0 1"
        )));
    }
}
