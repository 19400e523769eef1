//! A game in progress: start position, moves played, and the keys of every position
//! passed through (for repetition detection); and [`AnyGame`], which names the
//! variant at run time so the layers above pick the monomorphised code once.

use crate::moves::Move;
use crate::notation::{parse_typed_move, parse_uci_move, MoveError};
use crate::position::{FenError, Position};
use crate::variant::{Outcome, Variant, VariantKind};
use crate::with_variant;
use std::fmt;

/// A game of variant `V`.
#[derive(Clone, Debug)]
pub struct Game<V: Variant> {
    /// The position the game (or the `position` command) started from.
    pub start: Position<V>,
    /// Moves played since `start`.
    pub moves: Vec<Move>,
    /// The current position.
    pub position: Position<V>,
    /// Keys of the positions before the current one, oldest first.
    pub keys: Vec<u64>,
}

impl<V: Variant> Game<V> {
    /// A game starting at `start`.
    pub fn new(start: Position<V>) -> Game<V> {
        Game {
            start,
            moves: Vec::new(),
            position: start,
            keys: Vec::new(),
        }
    }

    /// Plays `m`, which must be legal.
    pub fn play(&mut self, m: Move) {
        self.keys.push(self.position.key());
        self.position.play(m);
        self.moves.push(m);
    }

    /// Parses and plays a UCI move.
    ///
    /// # Errors
    /// [`MoveError`] when the move is malformed or illegal; the game is unchanged.
    pub fn play_uci(&mut self, text: &str) -> Result<Move, MoveError> {
        let m = parse_uci_move(&self.position, text)?;
        self.play_parsed(m, text)
    }

    /// Parses and plays a move as a person types it: UCI or SAN (see
    /// [`parse_typed_move`]).
    ///
    /// # Errors
    /// [`MoveError`] when the move is malformed, illegal or ambiguous; the game is
    /// unchanged.
    pub fn play_typed(&mut self, text: &str) -> Result<Move, MoveError> {
        let m = parse_typed_move(&self.position, text)?;
        self.play_parsed(m, text)
    }

    /// Plays the legal move `m` read from `text`, unless its outcome depends on
    /// hidden information the position lacks.
    fn play_parsed(&mut self, m: Move, text: &str) -> Result<Move, MoveError> {
        let mut next = self.position;
        V::play_given(&mut next, m).map_err(|why| MoveError::Undetermined(format!("{text}: {why}")))?;
        self.keys.push(self.position.key());
        self.position = next;
        self.moves.push(m);
        Ok(m)
    }

    /// Builds a game from a `position` command's parts: a FEN (or the start position
    /// when `None`) and UCI moves. Returns warnings about repaired FEN fields.
    ///
    /// # Errors
    /// [`PositionError`] for a bad FEN or the first bad move.
    pub fn from_spec(fen: Option<&str>, moves: &[&str]) -> Result<(Game<V>, Vec<String>), PositionError> {
        let (start, warnings) = match fen {
            Some(f) => Position::<V>::from_fen(f).map_err(PositionError::Fen)?,
            None => (Position::<V>::startpos(), Vec::new()),
        };
        let mut game = Game::new(start);
        for (i, text) in moves.iter().enumerate() {
            game.play_uci(text).map_err(|e| PositionError::Move {
                index: i + 1,
                error: e,
            })?;
        }
        Ok((game, warnings.iter().map(ToString::to_string).collect()))
    }

    /// The result if the game is over, with the reason: checkmate, stalemate, an
    /// exploded king, a king on the hill, or a draw a player may claim or that the
    /// rules declare (threefold repetition, the 50-move rule, dead material).
    pub fn result(&self) -> Option<(Outcome, &'static str)> {
        let pos = &self.position;
        if let Some(outcome) = pos.outcome() {
            let reason = match outcome {
                Outcome::Draw => "stalemate",
                Outcome::Decisive { .. } if pos.special_outcome().is_some() => V::SPECIAL_WIN,
                Outcome::Decisive { .. } => "checkmate",
            };
            return Some((outcome, reason));
        }
        if pos.is_drawn_material() {
            return Some((Outcome::Draw, "insufficient material"));
        }
        if self.is_threefold() {
            return Some((Outcome::Draw, "threefold repetition"));
        }
        if pos.is_fifty_move_draw() {
            return Some((Outcome::Draw, "50-move rule"));
        }
        None
    }

    /// Whether the current position repeats an earlier one for the third time.
    pub fn is_threefold(&self) -> bool {
        let key = self.position.key();
        let reach = (self.position.halfmove_clock() as usize).min(self.keys.len());
        let earlier = self.keys[self.keys.len() - reach..]
            .iter()
            .filter(|&&k| k == key)
            .count();
        earlier >= 2
    }
}

/// Why a `position` command was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The FEN is invalid.
    Fen(FenError),
    /// Move number `index` (1-based) of the `moves` list is invalid.
    Move { index: usize, error: MoveError },
    /// This build cannot play the variant yet.
    Unsupported(VariantKind),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Fen(e) => write!(f, "invalid FEN: {e}"),
            PositionError::Move { index, error } => write!(f, "move {index}: {error}"),
            PositionError::Unsupported(v) => write!(f, "variant {v} is not supported yet"),
        }
    }
}

impl std::error::Error for PositionError {}

// `AnyGame` (one arm per line of the registration list in `variant/mod.rs`) and
// its `From<Game<V>>` conversions.
macro_rules! any_game {
    (() $( $(#[$attr:meta])* $Kind:ident = $code:literal => $V:ty, )+) => {
        /// A game of whichever variant was selected. The minesweeper arm is larger
        /// (its minefield state); an engine holds one `AnyGame`, so boxing would buy
        /// nothing. [`with_game!`](crate::with_game) runs generic code on the game
        /// inside.
        #[derive(Clone, Debug)]
        #[allow(clippy::large_enum_variant)]
        pub enum AnyGame {
            $( $(#[$attr])* $Kind(Game<$V>), )+
        }

        $(
            impl From<Game<$V>> for AnyGame {
                fn from(g: Game<$V>) -> AnyGame {
                    AnyGame::$Kind(g)
                }
            }
        )+
    };
}

crate::for_each_variant!((any_game));

/// Runs `$body` with `$g` bound to the `Game<V>` inside an
/// [`AnyGame`](crate::game::AnyGame), and the type `$V` to its variant, so that
/// generic code is instantiated once per variant: `with_game!(game, g, V => ...)`.
#[macro_export]
macro_rules! with_game {
    ($game:expr, $g:ident, $V:ident => $body:expr) => {
        $crate::for_each_variant!(($crate::__with_game_arms) ($game) $g $V ($body))
    };
}

/// The `match` of [`with_game!`], one arm per line of the list.
#[doc(hidden)]
#[macro_export]
macro_rules! __with_game_arms {
    ((($game:expr) $g:ident $V:ident ($body:expr)) $( $(#[$attr:meta])* $Kind:ident = $code:literal => $ty:ty, )+) => {
        match $game {
            $(
                $crate::game::AnyGame::$Kind($g) => {
                    #[allow(dead_code)]
                    type $V = $ty;
                    $body
                }
            )+
        }
    };
}

impl AnyGame {
    /// A new game of `variant` from its start position.
    ///
    /// # Errors
    /// [`PositionError::Unsupported`] for a variant this build cannot play.
    pub fn new(variant: VariantKind) -> Result<AnyGame, PositionError> {
        Self::from_spec(variant, None, &[]).map(|(g, _)| g)
    }

    /// Builds a game of `variant`; see [`Game::from_spec`].
    ///
    /// # Errors
    /// [`PositionError`] for a bad FEN or move.
    pub fn from_spec(
        variant: VariantKind,
        fen: Option<&str>,
        moves: &[&str],
    ) -> Result<(AnyGame, Vec<String>), PositionError> {
        with_variant!(variant, V => {
            let (g, w) = Game::<V>::from_spec(fen, moves)?;
            Ok((AnyGame::from(g), w))
        })
    }

    /// The variant being played.
    pub fn variant(&self) -> VariantKind {
        with_game!(self, _g, V => V::KIND)
    }

    /// The current position's FEN.
    pub fn fen(&self) -> String {
        with_game!(self, g, _V => g.position.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Chess;

    #[test]
    fn threefold_counts_positions_with_the_same_side_to_move() {
        let moves = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"];
        let (game, _) = Game::<Chess>::from_spec(None, &moves[..4]).unwrap();
        assert!(!game.is_threefold());
        let (game, _) = Game::<Chess>::from_spec(None, &moves).unwrap();
        assert!(game.is_threefold());
    }

    #[test]
    fn a_bad_move_names_its_index() {
        let err = Game::<Chess>::from_spec(None, &["e2e4", "e2e4"]).unwrap_err();
        assert!(matches!(err, PositionError::Move { index: 2, .. }));
    }
}
