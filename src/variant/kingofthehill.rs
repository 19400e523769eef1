//! King of the hill (RULES.md, section kingofthehill): a king reaching one of the
//! four centre squares wins. Its hooks: the outcome, the king steps search must not
//! prune, the one-move win quiescence must see, and the evaluation's hill terms (besides
//! chess's king danger and classical terms, `eval::king` and `eval::classical`).

use crate::bitboard::BitBoard;
use crate::eval::params::idx;
use crate::eval::{backward, classical, dilate, king, rear_span, Accumulator, SideInfo};
use crate::geometry::{Board8x8, Geometry};
use crate::moves::{Move, MoveKind};
use crate::position::{Bb, Position};
use crate::types::{Color, Role, Square};
use crate::variant::{Outcome, Variant, VariantKind};

/// King of the hill (RULES.md, section kingofthehill).
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
    type Belief = ();
    const NAME: &'static str = "kingofthehill";
    const KIND: VariantKind = VariantKind::KingOfTheHill;
    const SPECIAL_WIN: &'static str = "king on the hill";
    const PGN_VARIANT: Option<&'static str> = Some("King of the Hill");
    const EVAL_BLOCKS: &'static [&'static str] = classical::BLOCKS;

    #[inline(always)]
    fn special_outcome(pos: &Position<Self>) -> Option<Outcome> {
        // RULES.md kingofthehill 1 and 5: a king on the hill has won.
        let hill = hill();
        for color in Color::ALL {
            if (pos.kings_of(color) & hill).any() {
                return Some(Outcome::Decisive { winner: color });
            }
        }
        None
    }

    /// RULES.md kingofthehill 4: no insufficient-material draw.
    fn is_drawn_material(_pos: &Position<Self>) -> bool {
        false
    }

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

    #[inline(always)]
    fn eval_terms<A: Accumulator>(pos: &Position<Self>, info: &[SideInfo<Bb<Self>>; 2], acc: &mut A) {
        hill_terms(pos, info, acc);
        king::king_attack_terms(pos, info, acc);
        classical::classical_terms(pos, info, acc);
    }
}

/// King of the hill: weighted king distances, [`HILL_STEPS`] layers by Dial's
/// algorithm on bitboards. `cost[k]` holds the squares that take `k + 1` steps to
/// enter; squares in none of them cannot be entered. Returns `layers[d]`, the squares
/// first reached after `d` steps (`layers[0]` = the king).
#[inline]
fn hill_layers<B: BitBoard>(king: B, cost: &[B; 4]) -> [B; HILL_STEPS] {
    let mut layers = [B::EMPTY; HILL_STEPS];
    layers[0] = king;
    let mut reached = king;
    for d in 1..HILL_STEPS {
        let mut next = B::EMPTY;
        for (k, entering) in cost.iter().enumerate() {
            if d > k {
                next |= dilate(layers[d - 1 - k]) & *entering;
            }
        }
        layers[d] = next & !reached;
        reached |= next;
    }
    layers
}

/// Distances up to this are told apart; farther counts as [`HILL_STEPS`].
pub(crate) const HILL_STEPS: usize = 7;

/// King of the hill: the distance to each hill square, the race, control,
/// blockers and safe hill squares.
#[inline]
fn hill_terms<A: Accumulator>(
    pos: &Position<KingOfTheHill>,
    info: &[SideInfo<Bb<KingOfTheHill>>; 2],
    acc: &mut A,
) {
    let hill = hill();
    let mut dist = [HILL_STEPS; 2];
    let occupied = pos.occupied();
    for color in Color::ALL {
        let s = color.sign();
        let c = color.index();
        let kings = pos.kings_of(color);
        if kings.is_empty() {
            continue;
        }
        let enemy = &info[1 - c];
        let own_pawns = pos.pieces(color, Role::Pawn);
        let blocked = own_pawns & backward(color, occupied);
        let own = pos.color(color) & !kings;
        let heavy = enemy.pawn_attacks() | enemy.twice;
        let extra1 = enemy.all & !heavy;
        let passable = !blocked;
        // Extra steps: attacks (0-2) plus one for an own piece in the way.
        let cost = [
            passable & !own & !enemy.all,
            passable & ((own & !enemy.all) | (!own & extra1)),
            passable & ((own & extra1) | (!own & heavy)),
            passable & own & heavy,
        ];
        let layers = hill_layers(kings, &cost);
        let mut unreached = hill;
        for (d, layer) in layers.iter().enumerate() {
            let n = (*layer & hill).count() as i32;
            if n > 0 {
                dist[c] = dist[c].min(d);
                acc.add(idx::HILL_DISTANCE + d, s * n);
            }
            unreached &= !*layer;
        }
        acc.add(idx::HILL_DISTANCE + HILL_STEPS, s * unreached.count() as i32);
        acc.add(idx::HILL_CONTROL, s * (hill & info[c].all).count() as i32);
        acc.add(
            idx::HILL_BLOCKERS,
            s * (hill & pos.color(color) & !kings).count() as i32,
        );
        let defended = hill & pos.color(!color) & enemy.all;
        acc.add(idx::HILL_BLOCKERS + 1, s * defended.count() as i32);
        let safe = hill & rear_span(color, own_pawns) & !enemy.pawn_attacks();
        acc.add(idx::HILL_SAFE, s * safe.count() as i32);
    }
    if dist[0] < HILL_STEPS || dist[1] < HILL_STEPS {
        let stm = pos.side_to_move();
        let diff = dist[1 - stm.index()] as i32 - dist[stm.index()] as i32;
        acc.add(idx::HILL_RACE + (diff + 4).clamp(0, 8) as usize, stm.sign());
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
