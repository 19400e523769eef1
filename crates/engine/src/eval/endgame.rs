//! Known endgames that the linear evaluation misjudges, scored by rule.
//!
//! Atomic against a bare king (the knowledge Fairy-Stockfish's atomic endgame
//! evaluation encodes; our own scores): a bare king can only be mated, never blown
//! up, and while it stands next to the enemy king it cannot even be checked (a
//! capture next to one's own king would explode it, docs/rules.md atomic 5). So
//! - king and knight, bishop or rook against king, and king and two knights, are
//!   draws;
//! - king and queen against king is a draw while the kings touch or the defender,
//!   to move, can step next to the attacking king; otherwise the queen may win;
//! - king and pawn against king is a draw once the defending king reaches the
//!   attacking one;
//! - a major piece and one more piece, or three minors that can cover both square
//!   colours, win: the defending king is driven to the edge while the attacking king
//!   keeps its distance.

use crate::eval::VariantEval;
use sapper_rules::bitboard::BitBoard;
use sapper_rules::geometry::Geometry;
use sapper_rules::position::{Bb, Position};
use sapper_rules::types::{Color, Role, Square};
use sapper_rules::variant::Variant;

/// A won known endgame scores this much above the usual terms, centipawns: clear of
/// any material balance the linear evaluation gives, clear of mate scores.
const KNOWN_WIN: i32 = 1_000;

/// The score of `pos` for the side to move, centipawns, when it is a known endgame;
/// `None` otherwise (then the linear evaluation applies).
#[inline]
pub fn known<V: VariantEval>(pos: &Position<V>) -> Option<i32> {
    V::known_endgame(pos)
}

pub(crate) fn atomic_against_bare_king<V: Variant>(pos: &Position<V>) -> Option<i32> {
    let non_king = |c: Color| pos.color(c) & !pos.role(Role::King);
    let strong = match (
        non_king(Color::White).is_empty(),
        non_king(Color::Black).is_empty(),
    ) {
        (false, true) => Color::White,
        (true, false) => Color::Black,
        _ => return None,
    };
    let weak = !strong;
    let (sk, wk) = (pos.king(strong)?, pos.king(weak)?);
    let count = |role: Role| pos.pieces(strong, role).count() as i32;
    let (pawns, knights, bishops) = (count(Role::Pawn), count(Role::Knight), count(Role::Bishop));
    let (rooks, queens) = (count(Role::Rook), count(Role::Queen));
    let minors = knights + bishops;
    let majors = rooks + queens;
    let distance = i32::from(sk.distance(wk));
    let strong_to_move = pos.side_to_move() == strong;
    // Drive the defender to the edge, keep the kings apart.
    let drive = 20 * (6 - centrality(wk)) + 10 * distance;

    let value = if pawns == 0 {
        let both_colours = {
            let light = light_squares::<V>();
            let b = pos.pieces(strong, Role::Bishop);
            (b & light).any() && (b & !light).any()
        };
        let enough = (majors >= 1 && majors + minors >= 2) || (minors >= 3 && (knights >= 2 || both_colours));
        if enough {
            KNOWN_WIN + 300 * minors + 500 * rooks + 900 * queens + drive
        } else if queens == 1 && minors == 0 && rooks == 0 {
            let can_connect =
                !strong_to_move && (V::G::king_attacks(sk) & V::G::king_attacks(wk) & !pos.occupied()).any();
            if distance == 1 || can_connect {
                0
            } else if distance >= if strong_to_move { 3 } else { 4 } {
                KNOWN_WIN + drive
            } else {
                drive
            }
        } else {
            // A lone rook or minor, or two minors that cannot mate: a draw.
            0
        }
    } else if pawns == 1 && minors + majors == 0 {
        if distance <= if strong_to_move { 1 } else { 2 } {
            0
        } else {
            let pawn = pos.pieces(strong, Role::Pawn).squares().next()?;
            let rank = match strong {
                Color::White => i32::from(pawn.rank()),
                Color::Black => i32::from(V::G::RANKS - 1 - pawn.rank()),
            };
            100 + 20 * (rank - 1) + 10 * distance
        }
    } else {
        return None;
    };
    Some(if strong_to_move { value } else { -value })
}

/// 0 on the edge to 6 in the centre of an 8x8 board: files plus ranks from the edge.
fn centrality(sq: Square) -> i32 {
    let f = i32::from(sq.file().min(7 - sq.file()));
    let r = i32::from(sq.rank().min(7u8.saturating_sub(sq.rank())));
    f + r
}

/// The light squares (b1, a2, ...).
fn light_squares<V: Variant>() -> Bb<V> {
    let mut b = Bb::<V>::EMPTY;
    for rank in 0..V::G::RANKS {
        for file in 0..8u8 {
            if (file + rank) % 2 == 1 {
                b = b.with(Square::new(file, rank));
            }
        }
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use sapper_rules::variant::{Atomic, Chess};

    fn score(fen: &str) -> Option<i32> {
        let (pos, _) = Position::<Atomic>::from_fen(fen).unwrap();
        known(&pos)
    }

    #[test]
    fn lone_rook_and_minors_are_draws() {
        assert_eq!(score("8/8/8/3k4/8/8/8/R3K3 w - - 0 1"), Some(0));
        assert_eq!(score("8/8/8/3k4/8/8/8/NN2K3 b - - 0 1"), Some(0));
    }

    #[test]
    fn queen_against_king_depends_on_the_kings() {
        // Kings touching: a draw whoever moves.
        assert_eq!(score("8/8/8/3k4/4K3/8/8/Q7 w - - 0 1"), Some(0));
        // Black to move can step next to White's king (Kd4 or Ke4 touches e3): a draw.
        assert_eq!(score("8/8/8/3k4/8/4K3/8/Q7 b - - 0 1"), Some(0));
        // Far apart with the queen's side to move: a win, scored for the side to move.
        let w = score("k7/8/8/8/8/8/8/1Q4K1 w - - 0 1").unwrap();
        assert!(w > KNOWN_WIN, "{w}");
        assert_eq!(score("k7/8/8/8/8/8/8/1Q4K1 b - - 0 1"), Some(-w));
        // Close but not touching, the queen's side to move: no known win yet.
        let near = score("8/8/8/3k4/8/3K4/8/Q7 w - - 0 1").unwrap();
        assert!((0..KNOWN_WIN).contains(&near), "{near}");
    }

    #[test]
    fn enough_material_wins_for_either_colour() {
        let white = score("8/8/8/3k4/8/8/8/RN2K3 w - - 0 1").unwrap();
        assert!(white > KNOWN_WIN, "{white}");
        let black = score("rn2k3/8/8/8/3K4/8/8/8 w - - 0 1").unwrap();
        assert!(black < -KNOWN_WIN, "{black}");
        // Three minors with two knights win; two bishops of one colour and a bishop of
        // the same colour do not.
        assert!(score("8/8/8/3k4/8/8/8/NNB1K3 w - - 0 1").unwrap() > KNOWN_WIN);
        assert_eq!(score("8/8/8/3k4/8/8/8/B1B1K1B1 w - - 0 1"), Some(0));
    }

    #[test]
    fn pawn_against_king_is_drawn_when_the_kings_meet() {
        assert_eq!(score("8/8/8/8/3k4/4K3/4P3/8 w - - 0 1"), Some(0));
        let far = score("7k/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        assert!(far > 100, "{far}");
        // With more on the board the linear evaluation decides.
        assert_eq!(score("7k/8/8/8/8/8/4PP2/4K3 w - - 0 1"), None);
        assert_eq!(score("7k/7p/8/8/8/8/4P3/4K3 w - - 0 1"), None);
    }

    #[test]
    fn other_variants_have_no_known_endgames_here() {
        let (pos, _) = Position::<Chess>::from_fen("8/8/8/3k4/8/8/8/R3K3 w - - 0 1").unwrap();
        assert_eq!(known(&pos), None);
    }
}
