//! Variants as types.
//!
//! Each variant is a zero-sized type implementing [`Variant`]. Rule differences are
//! associated constants and hook methods with default bodies, so move generation,
//! search and evaluation are compiled once per variant and every rule test is
//! resolved at compile time (no run-time flags in the hot path). [`VariantKind`] names
//! a variant at the edges (UCI, command line) and picks the monomorphised code once.
//!
//! The trait holds the rules alone. What the evaluation and the search must know of
//! a variant are traits of the engine crate over this one (`VariantEval`,
//! `VariantSearch`), implemented beside the code that calls them.
//!
//! The registration list ([`for_each_variant!`](crate::for_each_variant) below) is
//! the one place that names every variant: `VariantKind`, `AnyGame` and the dispatch
//! macros [`with_variant!`](crate::with_variant) and [`with_game!`](crate::with_game)
//! are built from it (`docs/architecture.md`, "Adding a variant").

mod registry;

pub mod atomic;
mod chess;
pub mod kingofthehill;
pub mod minesweeper;
pub mod threecheck;

pub use atomic::Atomic;
pub use chess::Chess;
pub use kingofthehill::KingOfTheHill;
pub use minesweeper::Minesweeper;
pub use threecheck::ThreeCheck;

use crate::bitboard::BitBoard;
use crate::geometry::Geometry;
use crate::movegen::GenType;
use crate::moves::{Move, MoveList};
use crate::position::{Bb, FenError, Position};
use crate::types::{Color, Piece};
use std::fmt::{self, Debug};
use std::hash::Hash;
use std::str::FromStr;

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `winner` won (checkmate, exploded king, king on the hill).
    Decisive { winner: Color },
    /// Stalemate or a draw by rule.
    Draw,
}

/// A rule set. See `docs/architecture.md` for how a new variant plugs in.
///
/// Every hook is called by the layers below (movegen, position, evaluation, search)
/// whatever the variant: a default body that does nothing costs nothing once the
/// code is monomorphised, and a new variant's override can never be skipped.
pub trait Variant: 'static + Copy + Default + Debug + Send + Sync + Eq + Hash {
    /// The board this variant is played on.
    type G: Geometry;
    /// State beyond pieces, side, castling, en passant and clocks (minesweeper's
    /// minefield, three-check's checks); `()` for variants that need none. Part of
    /// the position, copied with it.
    type State: Copy + Default + Debug + PartialEq + Eq + Send + Sync;

    /// The `UCI_Variant` name.
    const NAME: &'static str;
    /// The enum value naming this variant.
    const KIND: VariantKind;
    /// Whether en passant exists.
    const EN_PASSANT: bool = true;
    /// Whether a pawn may promote to a knight, bishop or rook (else queen only).
    const UNDERPROMOTION: bool = true;
    /// Whether the 50-move rule applies (scored as a draw in search).
    const FIFTY_MOVE_RULE: bool = true;
    /// Whether a position may lack a king (atomic: the side without one has lost).
    const KING_MAY_BE_MISSING: bool = false;
    /// Whether kings may stand next to each other (atomic); then a square next to a
    /// side's own king is never attacked by that side, and touching kings give no check.
    const KINGS_MAY_TOUCH: bool = false;
    /// Whether kings capture, and so attack the squares around them (not in atomic).
    const KINGS_CAPTURE: bool = true;
    /// Whether a capture wins only the captured piece, as delta pruning assumes
    /// (not in atomic, where the blast takes more).
    const CAPTURE_WINS_ONLY_THE_VICTIM: bool = true;
    /// Whether [`Variant::extra_legality`] can refuse a check evasion that keeps the
    /// king safe (minesweeper's rule 13): then every evasion is tested.
    const EVASIONS_NEED_EXTRA_TEST: bool = false;
    /// Hidden mines, fog and sapper actions (minesweeper). Read only by the tools
    /// above the engine (`play`, `datagen`); the engine's layers use the hooks.
    const MINES: bool = false;
    /// How `d`, `play` and game records name a win by [`Variant::special_outcome`].
    const SPECIAL_WIN: &'static str = "special rule";
    /// The PGN `Variant` tag's value (`None` for standard chess, which has none).
    const PGN_VARIANT: Option<&'static str> = None;

    /// Number of FEN fields after the standard six (minesweeper: minefield, counter).
    /// When non-zero, a FEN must have exactly `6 + EXTRA_FEN_FIELDS` fields.
    const EXTRA_FEN_FIELDS: usize = 0;
    /// The field count as error messages state it, when `EXTRA_FEN_FIELDS > 0`.
    const FEN_FIELDS_TEXT: &'static str = "6";
    /// Variant fields a FEN may add to the standard four to six (three-check: the
    /// checks), when `EXTRA_FEN_FIELDS` is 0.
    const OPTIONAL_FEN_FIELDS: usize = 0;

    /// The start position's FEN.
    fn start_fen() -> &'static str {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    }

    /// A result that follows from the placement alone, before any move is generated
    /// (an exploded king, a king on the hill). `None` for ongoing positions.
    #[inline(always)]
    fn special_outcome(_pos: &Position<Self>) -> Option<Outcome> {
        None
    }

    /// Splits a FEN's fields into the standard ones (placement to fullmove number,
    /// at most six) and the variant's own, which [`Variant::parse_state`] reads. The
    /// default takes the variant's fields from after the sixth (minesweeper).
    ///
    /// # Errors
    /// [`FenError::VariantField`] when the variant's fields cannot be told apart.
    fn split_fen<'a>(fields: &[&'a str]) -> Result<(Vec<&'a str>, Vec<&'a str>), FenError> {
        let n = fields.len().min(6);
        Ok((fields[..n].to_vec(), fields[n..].to_vec()))
    }

    /// Parses the variant's FEN fields (from [`Variant::split_fen`]) into
    /// `pos.state`, called after the pieces are placed and validated.
    ///
    /// # Errors
    /// [`FenError::VariantField`] when the fields are malformed or inconsistent.
    fn parse_state(_pos: &mut Position<Self>, _fields: &[&str]) -> Result<(), FenError> {
        Ok(())
    }

    /// Appends variant fields that come before the move clocks, each preceded by a
    /// space (three-check's remaining checks).
    fn write_state_before_clocks(_pos: &Position<Self>, _out: &mut String) {}

    /// Appends the extra FEN fields after the clocks (each preceded by a space).
    fn write_state(_pos: &Position<Self>, _out: &mut String) {}

    /// The zobrist component of `pos.state`.
    #[inline(always)]
    fn state_key(_pos: &Position<Self>) -> u64 {
        0
    }

    /// Appends the variant's extra pseudo-legal moves (minesweeper's sapper actions)
    /// for generation type `gen`.
    #[inline(always)]
    fn generate_extra(_pos: &Position<Self>, _gen: GenType, _list: &mut MoveList) {}

    /// Whether `m` is one of [`Variant::generate_extra`]'s moves for
    /// [`GenType::All`] (part of [`Position::is_pseudo_legal`]). The default looks the
    /// move up in that list; a variant with extra moves answers directly.
    #[inline(always)]
    fn is_extra_pseudo_legal(pos: &Position<Self>, m: Move) -> bool {
        let mut list = MoveList::new();
        Self::generate_extra(pos, GenType::All, &mut list);
        list.contains(&m)
    }

    /// Appends every legal move to `list` (the position's special outcome already
    /// tested). The default is chess's generator with evasions; atomic tests
    /// explosions instead.
    #[inline(always)]
    fn generate_legal(pos: &Position<Self>, list: &mut MoveList) {
        pos.generate_legal_standard(list);
    }

    /// Squares the side to move may never capture on (atomic: next to its own king,
    /// whose explosion would take it, rule 4); excluded at generation.
    #[inline(always)]
    fn forbidden_captures(_pos: &Position<Self>) -> Bb<Self> {
        Bb::<Self>::EMPTY
    }

    /// Whether the pseudo-legal, non-castling move `m` leaves the mover's king safe.
    /// The default is chess's pin and check test; atomic also looks at the blast.
    #[inline(always)]
    fn keeps_king_safe(pos: &Position<Self>, m: Move) -> bool {
        pos.keeps_king_safe_standard(m)
    }

    /// The variant's own legality condition on a pseudo-legal move that already keeps
    /// the mover's king safe (minesweeper's rule 13).
    #[inline(always)]
    fn extra_legality(_pos: &Position<Self>, _m: Move) -> bool {
        true
    }

    /// Does the whole of the capture `m` when the variant's captures do more than
    /// take the victim, which is already removed, before the capturer moves (atomic:
    /// the capturer and the ring around `m.to()` explode). Returns the castling
    /// rights left from `rights`, or `None` to move the capturer as in chess.
    #[inline(always)]
    fn capture(_pos: &mut Position<Self>, _m: Move, _rights: u8) -> Option<u8> {
        None
    }

    /// Applies the variant's side effects of `m`, after the pieces moved and before
    /// the side to move changes (minesweeper: mines, fog, numbers). `mover` is the
    /// piece that moved; `mine` overrides whether the landing square held a mine, for
    /// searches that only know probabilities (`None`: use the position's own truth).
    #[inline(always)]
    fn after_move(_pos: &mut Position<Self>, _m: Move, _mover: Piece, _mine: Option<bool>) {}

    /// Called last in making a move, with the side to move changed and its checkers
    /// known (three-check counts the check a move gave).
    #[inline(always)]
    fn after_turn(_pos: &mut Position<Self>) {}

    /// Plays `m` on a position a GUI gave (`position ... moves`). A variant whose
    /// moves can have hidden outcomes refuses a move the position does not determine.
    ///
    /// # Errors
    /// The reason the move cannot be applied; `pos` is unchanged then.
    fn play_given(pos: &mut Position<Self>, m: Move) -> Result<(), String> {
        pos.play(m);
        Ok(())
    }

    /// Whether the material left can never decide the game (scored as a draw; in
    /// atomic, docs/rules.md's automatic draw).
    fn is_drawn_material(pos: &Position<Self>) -> bool;

    // ---- what the search asks of the rules ---------------------------------------------

    /// Whether the side to move wins with its next move by a rule that quiescence
    /// would not see (king of the hill: a legal king step onto the hill).
    #[inline(always)]
    fn wins_next_move(_pos: &Position<Self>) -> bool {
        false
    }

    /// Whether the side *not* to move would win with its next move by the rule of
    /// [`Variant::wins_next_move`] (king of the hill: its king has a legal step onto
    /// the hill). The search treats such a threat as a check: the side to move must
    /// answer it, so neither a stand pat nor pruning by the static evaluation is
    /// sound. Asked only when the side to move is not in check.
    #[inline(always)]
    fn threatens_win(_pos: &Position<Self>) -> bool {
        false
    }

    // ---- hidden information ---------------------------------------------------------------

    /// The position as an engine may see it: hidden information removed (minesweeper:
    /// the undiscovered mines of a full-information position).
    fn hide_private(pos: &Position<Self>) -> Position<Self> {
        *pos
    }
}

/// KvK, KvK+minor: no mate is possible (FIDE 5.2.2's commonest dead positions).
pub fn lone_minor_at_most<V: Variant>(pos: &Position<V>) -> bool {
    use crate::bitboard::BitBoard;
    use crate::types::Role;
    let majors_and_pawns = pos.role(Role::Pawn) | pos.role(Role::Rook) | pos.role(Role::Queen);
    majors_and_pawns.is_empty() && (pos.role(Role::Knight) | pos.role(Role::Bishop)).count() <= 1
}

/// The registration list: one line per variant, `Kind = code => Type,` with the
/// line's doc comment. Hands the lines to the macro `$callback` (with the call's
/// other tokens first, in parentheses): `registry.rs` builds `VariantKind`,
/// [`with_variant!`](crate::with_variant) and [`with_game!`](crate::with_game) so,
/// and `game.rs` builds `AnyGame`. The order is `UCI_Variant`'s; a code, stored in
/// network files and `datagen` records, is never changed or reused.
#[macro_export]
macro_rules! for_each_variant {
    (($($callback:tt)*) $($extra:tt)*) => {
        $($callback)*! {
            ($($extra)*)
            /// Standard chess.
            Chess = 0 => $crate::variant::Chess,
            /// Atomic chess.
            Atomic = 1 => $crate::variant::Atomic,
            /// King of the hill.
            KingOfTheHill = 2 => $crate::variant::KingOfTheHill,
            /// Minesweeper chess (8x10 board, hidden mines).
            Minesweeper = 3 => $crate::variant::Minesweeper,
            /// Three-check (lichess's `3check`).
            ThreeCheck = 4 => $crate::variant::ThreeCheck,
        }
    };
}

crate::for_each_variant!((crate::__define_variant_kind));

impl Default for VariantKind {
    /// Standard chess, the list's first line.
    fn default() -> Self {
        VariantKind::ALL[0]
    }
}

impl fmt::Display for VariantKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of parsing an unknown variant name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = VariantKind::ALL.iter().map(|v| v.name()).collect();
        write!(
            f,
            "unknown variant '{}' (expected one of: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for VariantKind {
    type Err = UnknownVariant;

    /// Parses a `UCI_Variant` value exactly (UCI combo values are case-sensitive).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        VariantKind::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}
