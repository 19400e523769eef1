//! Moves and move lists.
//!
//! A [`Move`] packs origin, destination and kind into 17 bits of a `u32` so that it
//! fits a transposition-table word on both board sizes (80 squares need 7 bits
//! each). Captures are not flagged: the board says what stands on the destination.

use crate::types::{Role, Square};
use arrayvec::ArrayVec;
use std::fmt;

/// What a move does besides going from one square to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Any ordinary move or capture, double pawn pushes included.
    Normal = 0,
    /// Castling, written king origin to king destination (`e1g1`).
    Castle = 1,
    /// En-passant capture.
    EnPassant = 2,
    /// Minesweeper's sapper action: the pawn stays and clears the square in front.
    Sapper = 3,
    /// Promotion to a knight.
    PromoteKnight = 4,
    /// Promotion to a bishop.
    PromoteBishop = 5,
    /// Promotion to a rook.
    PromoteRook = 6,
    /// Promotion to a queen.
    PromoteQueen = 7,
}

/// A move: origin (bits 0-6), destination (bits 7-13), [`MoveKind`] (bits 14-16).
/// [`Move::NONE`] (all zero) stands for "no move".
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u32);

impl Move {
    /// The absent move.
    pub const NONE: Move = Move(0);

    /// Builds a move.
    #[inline(always)]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(from.0 as u32 | (to.0 as u32) << 7 | (kind as u32) << 14)
    }

    /// An ordinary move.
    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move::new(from, to, MoveKind::Normal)
    }

    /// A promotion to `role` (knight, bishop, rook or queen).
    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, role: Role) -> Move {
        let kind = match role {
            Role::Knight => MoveKind::PromoteKnight,
            Role::Bishop => MoveKind::PromoteBishop,
            Role::Rook => MoveKind::PromoteRook,
            _ => MoveKind::PromoteQueen,
        };
        Move::new(from, to, kind)
    }

    /// Origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square((self.0 & 0x7f) as u8)
    }

    /// Destination square (the king's, for castling).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square(((self.0 >> 7) & 0x7f) as u8)
    }

    /// The move's kind.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match (self.0 >> 14) & 7 {
            0 => MoveKind::Normal,
            1 => MoveKind::Castle,
            2 => MoveKind::EnPassant,
            3 => MoveKind::Sapper,
            4 => MoveKind::PromoteKnight,
            5 => MoveKind::PromoteBishop,
            6 => MoveKind::PromoteRook,
            _ => MoveKind::PromoteQueen,
        }
    }

    /// The promotion piece, if this is a promotion.
    #[inline(always)]
    pub const fn promotion_role(self) -> Option<Role> {
        match self.kind() {
            MoveKind::PromoteKnight => Some(Role::Knight),
            MoveKind::PromoteBishop => Some(Role::Bishop),
            MoveKind::PromoteRook => Some(Role::Rook),
            MoveKind::PromoteQueen => Some(Role::Queen),
            _ => None,
        }
    }

    /// The square of the pawn an en-passant capture takes: beside the origin, on the
    /// destination's file (meaningful for [`MoveKind::EnPassant`] only).
    #[inline(always)]
    pub const fn en_passant_victim(self) -> Square {
        Square::new(self.to().file(), self.from().rank())
    }

    /// Whether this is [`Move::NONE`].
    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// Whether this is a real move.
    #[inline(always)]
    pub const fn is_some(self) -> bool {
        self.0 != 0
    }

    /// The raw 17-bit encoding (for transposition-table entries and history indices).
    #[inline(always)]
    pub const fn raw(self) -> u32 {
        self.0
    }

    /// The inverse of [`Move::raw`]; the caller must check the move before playing it.
    #[inline(always)]
    pub const fn from_raw(raw: u32) -> Move {
        Move(raw & 0x1_ffff)
    }
}

impl fmt::Display for Move {
    /// UCI long algebraic notation (`e2e4`, `e7e8q`, `e1g1`, `e4e4` for a sapper
    /// action); `0000` for [`Move::NONE`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            return write!(f, "0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(role) = self.promotion_role() {
            write!(f, "{}", role.char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Capacity of a [`MoveList`]: above the pseudo-legal moves of any position on
/// either board (nine queens and all other pieces of one side reach about 370).
pub const MAX_MOVES: usize = 512;

/// A list of moves on the stack (an `ArrayVec`: no heap, and no zeroing of its
/// capacity when created, which measured a tenth of perft time).
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips_on_80_squares() {
        for from in 0..80u8 {
            for to in [0u8, 37, 79] {
                for kind in [MoveKind::Normal, MoveKind::Sapper, MoveKind::PromoteQueen] {
                    let m = Move::new(Square(from), Square(to), kind);
                    assert_eq!((m.from(), m.to(), m.kind()), (Square(from), Square(to), kind));
                    assert_eq!(Move::from_raw(m.raw()), m);
                }
            }
        }
        assert_eq!(
            Move::promotion(Square(76), Square(79), Role::Queen).to_string(),
            "e10h10q"
        );
    }
}
