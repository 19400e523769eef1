//! Three-check (lichess rules): chess, and a side that gives its third check wins.
//!
//! A check is counted when a move gives check, whoever's piece gives it (a
//! discovered check counts; double check counts once). The remaining checks are part
//! of the position ([`Checks`]) and of its key, so positions that differ only in the
//! checks given never share a hash entry or count as repetitions of each other.
//!
//! FEN: python-chess and shakmaty write the remaining checks of White and Black as
//! a field after the en-passant square, `... w KQkq - 3+3 0 1`; lichess's older form
//! gives the checks *given* as a last field, `... w KQkq - 0 1 +0+0`. Both are read,
//! the first is written; a FEN without either starts at `3+3`.
//!
//! Drawn material: a side with only its king can never check, so only bare kings are
//! a draw (as in python-chess and shakmaty: any other piece can still give check).

use crate::bitboard::BitBoard;
use crate::geometry::Board8x8;
use crate::position::{FenError, Position};
use crate::types::{Color, Role};
use crate::variant::{Outcome, Variant, VariantKind};
use crate::zobrist::splitmix64;

/// Checks a side must give to win.
pub const CHECKS_TO_WIN: u8 = 3;

/// Three-check (lichess's `3check`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ThreeCheck;

/// The checks each side still has to give, indexed by [`Color::index`]; 0 means
/// that side has won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checks {
    /// Remaining checks of White and Black, each 0..=3.
    pub remaining: [u8; 2],
}

impl Default for Checks {
    fn default() -> Self {
        Checks {
            remaining: [CHECKS_TO_WIN; 2],
        }
    }
}

/// Zobrist key of `color` having `remaining` checks left (0 for the start's 3, so
/// that a three-check position without checks given keys like its chess twin).
const fn checks_key(color: Color, remaining: u8) -> u64 {
    if remaining == CHECKS_TO_WIN {
        return 0;
    }
    splitmix64(0x3c4e_c4ec_0000 + 8 * color.index() as u64 + remaining as u64)
}

fn field_error(text: String) -> FenError {
    FenError::VariantField(text)
}

/// Parses `W+B` (remaining checks) or, with `given`, `+W+B` (checks given).
fn parse_checks(field: &str, given: bool) -> Result<Checks, FenError> {
    let bad = || {
        field_error(format!(
            "invalid checks field '{field}' (expected like 3+3 or +0+0)"
        ))
    };
    let body = if given {
        field.strip_prefix('+').ok_or_else(bad)?
    } else {
        field
    };
    let (w, b) = body.split_once('+').ok_or_else(bad)?;
    let mut remaining = [0u8; 2];
    for (slot, text) in remaining.iter_mut().zip([w, b]) {
        let n: u8 = text.parse().map_err(|_| bad())?;
        if n > CHECKS_TO_WIN {
            return Err(bad());
        }
        *slot = if given { CHECKS_TO_WIN - n } else { n };
    }
    if remaining == [0, 0] {
        return Err(field_error(format!(
            "checks field '{field}': both sides cannot have won"
        )));
    }
    Ok(Checks { remaining })
}

impl Variant for ThreeCheck {
    type G = Board8x8;
    type State = Checks;
    const NAME: &'static str = "3check";
    const KIND: VariantKind = VariantKind::ThreeCheck;
    const SPECIAL_WIN: &'static str = "third check";
    const PGN_VARIANT: Option<&'static str> = Some("Three-check");
    const OPTIONAL_FEN_FIELDS: usize = 1;

    fn start_fen() -> &'static str {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1"
    }

    /// The side with no checks left has won.
    #[inline(always)]
    fn special_outcome(pos: &Position<Self>) -> Option<Outcome> {
        let remaining = pos.state().remaining;
        Color::ALL
            .into_iter()
            .find(|c| remaining[c.index()] == 0)
            .map(|winner| Outcome::Decisive { winner })
    }

    /// Takes the checks field out of the standard ones: `W+B` after the en-passant
    /// field, or lichess's `+W+B` after the clocks.
    fn split_fen<'a>(fields: &[&'a str]) -> Result<(Vec<&'a str>, Vec<&'a str>), FenError> {
        let mut standard = fields.to_vec();
        let mut own = Vec::new();
        if standard.len() >= 7 && standard[6].starts_with('+') {
            own.push(standard.remove(6));
        } else if standard.len() >= 5 && standard[4].contains('+') {
            own.push(standard.remove(4));
        }
        Ok((standard, own))
    }

    fn parse_state(pos: &mut Position<Self>, fields: &[&str]) -> Result<(), FenError> {
        let checks = match fields.first() {
            Some(f) => parse_checks(f, f.starts_with('+'))?,
            None => Checks::default(),
        };
        pos.replace_state(checks);
        Ok(())
    }

    /// `W+B` before the clocks, as python-chess and shakmaty write it.
    fn write_state_before_clocks(pos: &Position<Self>, out: &mut String) {
        let [w, b] = pos.state().remaining;
        out.push_str(&format!(" {w}+{b}"));
    }

    #[inline(always)]
    fn state_key(pos: &Position<Self>) -> u64 {
        let [w, b] = pos.state().remaining;
        checks_key(Color::White, w) ^ checks_key(Color::Black, b)
    }

    /// A move that left the opponent in check counts for its mover.
    #[inline(always)]
    fn after_turn(pos: &mut Position<Self>) {
        if pos.in_check() {
            let mover = !pos.side_to_move();
            let mut checks = *pos.state();
            let left = &mut checks.remaining[mover.index()];
            *left = left.saturating_sub(1);
            pos.replace_state(checks);
        }
    }

    /// Bare kings: neither side can ever check.
    fn is_drawn_material(pos: &Position<Self>) -> bool {
        (pos.occupied() & !pos.role(Role::King)).is_empty()
    }

    /// The side to move needs one more check and has a legal move that gives it.
    #[inline]
    fn wins_next_move(pos: &Position<Self>) -> bool {
        if pos.state().remaining[pos.side_to_move().index()] != 1 {
            return false;
        }
        pos.legal_moves().iter().any(|&m| pos.gives_check(m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn pos(fen: &str) -> Position<ThreeCheck> {
        Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}")).0
    }

    #[test]
    fn fen_checks_field_in_both_notations() {
        let start = Position::<ThreeCheck>::startpos();
        assert_eq!(start.state().remaining, [3, 3]);
        assert_eq!(start.to_fen(), ThreeCheck::start_fen());
        // python-chess / shakmaty: remaining checks before the clocks.
        let p = pos("4k3/8/8/8/8/8/8/4K2R w K - 1+2 5 9");
        assert_eq!(p.state().remaining, [1, 2]);
        assert_eq!((p.halfmove_clock(), p.fullmove_number()), (5, 9));
        assert_eq!(p.to_fen(), "4k3/8/8/8/8/8/8/4K2R w K - 1+2 5 9");
        // lichess: checks given, after the clocks.
        let q = pos("4k3/8/8/8/8/8/8/4K2R w K - 5 9 +2+1");
        assert_eq!(q.state().remaining, [1, 2]);
        assert_eq!(q.key(), p.key());
        // No field: three each; a chess FEN is a three-check start.
        assert_eq!(pos("4k3/8/8/8/8/8/8/4K2R w K - 5 9").state().remaining, [3, 3]);
        assert_eq!(pos("4k3/8/8/8/8/8/8/4K2R w K -").state().remaining, [3, 3]);
    }

    #[test]
    fn bad_checks_fields_are_refused() {
        for fen in [
            "4k3/8/8/8/8/8/8/4K2R w K - 4+3 0 1",
            "4k3/8/8/8/8/8/8/4K2R w K - 0+0 0 1",
            "4k3/8/8/8/8/8/8/4K2R w K - 1+x 0 1",
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1 +4+0",
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1 extra",
        ] {
            assert!(Position::<ThreeCheck>::from_fen(fen).is_err(), "{fen}");
        }
    }

    #[test]
    fn a_move_that_gives_check_counts_and_the_third_wins() {
        let line = ["e2e4", "e7e5", "d1h5", "b8c6", "h5f7", "e8f7", "f1c4", "d7d5"];
        let (mut game, _) = Game::<ThreeCheck>::from_spec(None, &line).unwrap();
        assert_eq!(game.position.state().remaining, [1, 3]);
        assert!(game.result().is_none());
        let before = game.position;
        game.play_uci("c4d5").unwrap();
        assert_eq!(game.position.state().remaining, [0, 3]);
        assert_eq!(
            game.position.outcome(),
            Some(Outcome::Decisive { winner: Color::White })
        );
        assert_eq!(game.result().map(|r| r.1), Some("third check"));
        assert!(game.position.legal_moves().is_empty());
        // The checks are in the key, and a quiet move keeps them.
        assert_ne!(game.position.key(), before.key());
        assert_eq!(game.position.key(), game.position.compute_key());
        assert!(ThreeCheck::wins_next_move(&before));
    }

    #[test]
    fn only_bare_kings_are_drawn() {
        assert!(pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1").is_drawn_material());
        assert!(!pos("4k3/8/8/8/8/8/8/4KN2 w - - 0 1").is_drawn_material());
    }
}
