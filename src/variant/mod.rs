//! Variants as types.
//!
//! Each variant is a zero-sized type implementing [`Variant`]. Rule differences are
//! associated constants and hook methods with default bodies, so move generation,
//! search and evaluation are compiled once per variant and every rule test is
//! resolved at compile time (no run-time flags in the hot path). [`VariantKind`] names
//! a variant at the edges (UCI, command line) and picks the monomorphised code once.

pub mod atomic;

use crate::geometry::{Board8x8, Geometry};
use crate::minesweeper::belief::Belief;
use crate::movegen::GenType;
use crate::moves::{Move, MoveList};
use crate::position::{FenError, Position};
use crate::types::Color;
use crate::types::Piece;
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
pub trait Variant: 'static + Copy + Default + Debug + Send + Sync + Eq + Hash {
    /// The board this variant is played on.
    type G: Geometry;
    /// State beyond pieces, side, castling, en passant and clocks (minesweeper's
    /// minefield); `()` for variants that need none. Part of the position, copied
    /// with it.
    type State: Copy + Default + Debug + PartialEq + Eq + Send + Sync;

    /// The `UCI_Variant` name.
    const NAME: &'static str;
    /// The enum value naming this variant.
    const KIND: VariantKind;
    /// Atomic chess: captures explode, kings never capture, adjacent kings are safe.
    const EXPLOSIONS: bool = false;
    /// King of the hill: a king reaching d4, e4, d5 or e5 wins.
    const HILL: bool = false;
    /// Whether en passant exists.
    const EN_PASSANT: bool = true;
    /// Whether a pawn may promote to a knight, bishop or rook (else queen only).
    const UNDERPROMOTION: bool = true;
    /// Whether the 50-move rule applies (scored as a draw in search).
    const FIFTY_MOVE_RULE: bool = true;
    /// Whether a position may lack a king (atomic: the side without one has lost).
    const KING_MAY_BE_MISSING: bool = false;
    /// Whether kings may stand next to each other (atomic).
    const KINGS_MAY_TOUCH: bool = false;
    /// Minesweeper: hidden mines, fog, sapper actions, and moves whose outcome is
    /// uncertain (chance nodes in search).
    const MINES: bool = false;

    /// Number of FEN fields after the standard six (minesweeper: minefield, counter).
    /// When non-zero, a FEN must have exactly `6 + EXTRA_FEN_FIELDS` fields.
    const EXTRA_FEN_FIELDS: usize = 0;
    /// The field count as error messages state it, when `EXTRA_FEN_FIELDS > 0`.
    const FEN_FIELDS_TEXT: &'static str = "6";

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

    /// Parses the FEN fields after the standard six into `pos.state` (called after the
    /// pieces are placed and validated).
    ///
    /// # Errors
    /// [`FenError::VariantField`] when the fields are malformed or inconsistent.
    fn parse_state(_pos: &mut Position<Self>, _fields: &[&str]) -> Result<(), FenError> {
        Ok(())
    }

    /// Appends the extra FEN fields (each preceded by a space).
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

    /// The variant's own legality condition on a pseudo-legal move that already keeps
    /// the mover's king safe (minesweeper's rule 13).
    #[inline(always)]
    fn extra_legality(_pos: &Position<Self>, _m: Move) -> bool {
        true
    }

    /// Plays `m` on a position a GUI gave (`position ... moves`). A variant whose
    /// moves can have hidden outcomes refuses a move the position does not determine.
    ///
    /// # Errors
    /// The reason the move cannot be applied; `pos` is unchanged then.
    fn play_given(pos: &mut Position<Self>, m: Move) -> Result<(), String> {
        pos.play(m);
        Ok(())
    }

    /// The search's knowledge of hidden information at a root (minesweeper: the
    /// consistent mine layouts); `None` when nothing is hidden.
    fn new_belief(_root: &Position<Self>) -> Option<Belief> {
        None
    }

    /// The probability that `m` ends on a mine (minesweeper), 0 for moves whose
    /// outcome is certain to be safe and 1 for certain destruction. `belief` is the
    /// search's knowledge; without it, unknown squares count as safe.
    #[inline(always)]
    fn mine_probability(_pos: &Position<Self>, _m: Move, _belief: Option<&mut Belief>) -> f32 {
        0.0
    }

    /// The position as an engine may see it: hidden information removed (minesweeper:
    /// the undiscovered mines of a full-information position).
    fn hide_private(pos: &Position<Self>) -> Position<Self> {
        *pos
    }

    /// Undiscovered mines per square that may hold one (0 outside minesweeper).
    #[inline(always)]
    fn mine_density(_pos: &Position<Self>) -> f32 {
        0.0
    }

    /// What `d` shows on an empty square (minesweeper: fog, numbers, mines).
    fn square_marker(_pos: &Position<Self>, _sq: crate::types::Square) -> char {
        ' '
    }

    /// Lines `d` adds after the standard ones (minesweeper: counter, probabilities).
    fn describe_state(_pos: &Position<Self>) -> String {
        String::new()
    }

    /// Applies the variant's side effects of `m`, after the pieces moved and before
    /// the side to move changes (minesweeper: mines, fog, numbers). `mover` is the
    /// piece that moved; `mine` overrides whether the landing square held a mine, for
    /// searches that only know probabilities (`None`: use the position's own truth).
    #[inline(always)]
    fn after_move(_pos: &mut Position<Self>, _m: Move, _mover: Piece, _mine: Option<bool>) {}

    /// Whether the material left can never decide the game (scored as a draw; in
    /// atomic, RULES.md's automatic draw).
    fn is_drawn_material(pos: &Position<Self>) -> bool;
}

/// Standard chess.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Chess;

/// Atomic chess (RULES.md, section atomic).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Atomic;

/// King of the hill (RULES.md, section kingofthehill).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KingOfTheHill;

/// KvK, KvK+minor: no mate is possible (FIDE 5.2.2's commonest dead positions).
pub(crate) fn lone_minor_at_most<V: Variant>(pos: &Position<V>) -> bool {
    use crate::bitboard::BitBoard;
    use crate::types::Role;
    let majors_and_pawns = pos.role(Role::Pawn) | pos.role(Role::Rook) | pos.role(Role::Queen);
    majors_and_pawns.is_empty() && (pos.role(Role::Knight) | pos.role(Role::Bishop)).count() <= 1
}

impl Variant for Chess {
    type G = Board8x8;
    type State = ();
    const NAME: &'static str = "chess";
    const KIND: VariantKind = VariantKind::Chess;

    fn is_drawn_material(pos: &Position<Self>) -> bool {
        lone_minor_at_most(pos)
    }
}

impl Variant for Atomic {
    type G = Board8x8;
    type State = ();
    const NAME: &'static str = "atomic";
    const KIND: VariantKind = VariantKind::Atomic;
    const EXPLOSIONS: bool = true;
    const KING_MAY_BE_MISSING: bool = true;
    const KINGS_MAY_TOUCH: bool = true;

    #[inline(always)]
    fn special_outcome(pos: &Position<Self>) -> Option<Outcome> {
        // RULES.md atomic 9: the side without a king has lost.
        match (pos.king(Color::White), pos.king(Color::Black)) {
            (Some(_), Some(_)) => None,
            (None, Some(_)) => Some(Outcome::Decisive { winner: Color::Black }),
            (Some(_), None) => Some(Outcome::Decisive { winner: Color::White }),
            (None, None) => Some(Outcome::Draw),
        }
    }

    /// RULES.md atomic 10: KvK, KNvK, KBvK (stricter than lichess, which plays on).
    fn is_drawn_material(pos: &Position<Self>) -> bool {
        lone_minor_at_most(pos)
    }
}

impl Variant for KingOfTheHill {
    type G = Board8x8;
    type State = ();
    const NAME: &'static str = "kingofthehill";
    const KIND: VariantKind = VariantKind::KingOfTheHill;
    const HILL: bool = true;

    #[inline(always)]
    fn special_outcome(pos: &Position<Self>) -> Option<Outcome> {
        use crate::bitboard::BitBoard;
        // RULES.md kingofthehill 1 and 5: a king on the hill has won.
        let hill = crate::position::hill::<Board8x8>();
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
}

/// A variant named at run time: the `UCI_Variant` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum VariantKind {
    /// Standard chess.
    #[default]
    Chess,
    /// Atomic chess.
    Atomic,
    /// King of the hill.
    KingOfTheHill,
    /// Minesweeper chess (8x10 board, hidden mines).
    Minesweeper,
}

impl VariantKind {
    /// Every variant, in the order `UCI_Variant` lists them.
    pub const ALL: [VariantKind; 4] = [
        VariantKind::Chess,
        VariantKind::Atomic,
        VariantKind::KingOfTheHill,
        VariantKind::Minesweeper,
    ];

    /// The `UCI_Variant` name.
    pub const fn name(self) -> &'static str {
        match self {
            VariantKind::Chess => "chess",
            VariantKind::Atomic => "atomic",
            VariantKind::KingOfTheHill => "kingofthehill",
            VariantKind::Minesweeper => "minesweeper",
        }
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
        write!(
            f,
            "unknown variant '{}' (expected one of: chess, atomic, kingofthehill, minesweeper)",
            self.0
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
