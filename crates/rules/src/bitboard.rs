//! Bitboards: one bit per square, bit `rank * 8 + file`.
//!
//! [`BitBoard`] is implemented by [`Bb64`] (8x8 boards, a `u64`) and [`Bb128`]
//! (the 8x10 minesweeper board, the low 80 bits of a `u128`). Code that must run on
//! both is generic over the trait; each instantiation compiles to plain integer
//! operations of its own width, so 8x8 code never pays for the wider board.

use crate::types::Square;
use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares on one board geometry.
///
/// `Not` complements within the board only: bits past the last rank stay clear, so
/// `!bb` never invents squares.
pub trait BitBoard:
    Copy
    + Eq
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// No squares.
    const EMPTY: Self;
    /// Every square of the board.
    const FULL: Self;
    /// Number of ranks (8 or 10).
    const RANKS: u8;

    /// The set holding one square.
    fn from_square(sq: Square) -> Self;
    /// Whether `sq` is in the set.
    fn has(self, sq: Square) -> bool;
    /// Number of squares in the set.
    fn count(self) -> u32;
    /// Whether the set is empty.
    fn is_empty(self) -> bool;
    /// Whether the set has at least two squares.
    fn more_than_one(self) -> bool;
    /// The lowest square; meaningless on an empty set.
    fn lsb(self) -> Square;
    /// The highest square; meaningless on an empty set.
    fn msb(self) -> Square;
    /// Every square one rank up (toward the last rank); squares on the last rank drop off.
    fn north(self) -> Self;
    /// Every square one rank down; squares on rank 1 drop off.
    fn south(self) -> Self;
    /// The raw bits widened to `u128`, for hashing and printing.
    fn to_u128(self) -> u128;
    /// The inverse of [`BitBoard::to_u128`]; bits outside the board are dropped.
    fn from_u128(bits: u128) -> Self;

    /// Whether the set has any square.
    #[inline(always)]
    fn any(self) -> bool {
        !self.is_empty()
    }

    /// Squares one file toward h (h-file squares drop off).
    #[inline(always)]
    fn east(self) -> Self {
        Self::from_u128((self.to_u128() << 1) & !file_mask_u128(0))
    }

    /// Squares one file toward a (a-file squares drop off).
    #[inline(always)]
    fn west(self) -> Self {
        Self::from_u128((self.to_u128() >> 1) & !file_mask_u128(7))
    }

    /// Removes and returns the lowest square; meaningless on an empty set.
    #[inline(always)]
    fn pop_lsb(&mut self) -> Square {
        let sq = self.lsb();
        *self = Self::from_u128(self.to_u128() & (self.to_u128().wrapping_sub(1)));
        sq
    }

    /// Iterates over the squares, lowest first.
    #[inline(always)]
    fn squares(self) -> Squares<Self> {
        Squares(self)
    }

    /// The set with `sq` added.
    #[inline(always)]
    fn with(self, sq: Square) -> Self {
        self | Self::from_square(sq)
    }

    /// The set with `sq` removed.
    #[inline(always)]
    fn without(self, sq: Square) -> Self {
        self & !Self::from_square(sq)
    }

    /// All squares of one file (0 = a).
    fn file(file: u8) -> Self {
        Self::from_u128(file_mask_u128(file))
    }

    /// All squares of one rank (0 = rank 1).
    fn rank(rank: u8) -> Self {
        if rank >= Self::RANKS {
            return Self::EMPTY;
        }
        Self::from_u128(0xffu128 << (8 * rank as u32))
    }
}

/// The squares of one file on a board of up to 16 ranks, as raw bits.
#[inline(always)]
const fn file_mask_u128(file: u8) -> u128 {
    0x0101_0101_0101_0101_0101_0101_0101_0101u128 << file
}

/// Iterator over the squares of a bitboard, lowest first.
pub struct Squares<B>(B);

impl<B: BitBoard> Iterator for Squares<B> {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0.is_empty() {
            None
        } else {
            Some(self.0.pop_lsb())
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

macro_rules! bitboard_type {
    ($(#[$doc:meta])* $name:ident, $int:ty, $ranks:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
        pub struct $name(pub $int);

        impl $name {
            const MASK: $int = if $ranks * 8 == <$int>::BITS {
                <$int>::MAX
            } else {
                (1 << ($ranks * 8)) - 1
            };
        }

        impl BitAnd for $name {
            type Output = Self;
            #[inline(always)]
            fn bitand(self, rhs: Self) -> Self {
                $name(self.0 & rhs.0)
            }
        }
        impl BitOr for $name {
            type Output = Self;
            #[inline(always)]
            fn bitor(self, rhs: Self) -> Self {
                $name(self.0 | rhs.0)
            }
        }
        impl BitXor for $name {
            type Output = Self;
            #[inline(always)]
            fn bitxor(self, rhs: Self) -> Self {
                $name(self.0 ^ rhs.0)
            }
        }
        impl Not for $name {
            type Output = Self;
            #[inline(always)]
            fn not(self) -> Self {
                $name(!self.0 & Self::MASK)
            }
        }
        impl BitAndAssign for $name {
            #[inline(always)]
            fn bitand_assign(&mut self, rhs: Self) {
                self.0 &= rhs.0;
            }
        }
        impl BitOrAssign for $name {
            #[inline(always)]
            fn bitor_assign(&mut self, rhs: Self) {
                self.0 |= rhs.0;
            }
        }
        impl BitXorAssign for $name {
            #[inline(always)]
            fn bitxor_assign(&mut self, rhs: Self) {
                self.0 ^= rhs.0;
            }
        }

        impl BitBoard for $name {
            const EMPTY: Self = $name(0);
            const FULL: Self = $name(Self::MASK);
            const RANKS: u8 = $ranks;

            #[inline(always)]
            fn from_square(sq: Square) -> Self {
                $name(1 << sq.0)
            }
            #[inline(always)]
            fn has(self, sq: Square) -> bool {
                (self.0 >> sq.0) & 1 != 0
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.0.count_ones()
            }
            #[inline(always)]
            fn is_empty(self) -> bool {
                self.0 == 0
            }
            #[inline(always)]
            fn more_than_one(self) -> bool {
                self.0 & self.0.wrapping_sub(1) != 0
            }
            #[inline(always)]
            fn lsb(self) -> Square {
                Square(self.0.trailing_zeros() as u8)
            }
            #[inline(always)]
            fn msb(self) -> Square {
                Square((<$int>::BITS - 1 - self.0.leading_zeros()) as u8)
            }
            #[inline(always)]
            fn pop_lsb(&mut self) -> Square {
                let sq = self.lsb();
                self.0 &= self.0.wrapping_sub(1);
                sq
            }
            #[inline(always)]
            fn north(self) -> Self {
                $name((self.0 << 8) & Self::MASK)
            }
            #[inline(always)]
            fn south(self) -> Self {
                $name(self.0 >> 8)
            }
            #[inline(always)]
            fn east(self) -> Self {
                $name((self.0 << 1) & !(file_mask_u128(0) as $int))
            }
            #[inline(always)]
            fn west(self) -> Self {
                $name((self.0 >> 1) & !(file_mask_u128(7) as $int))
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self.0 as u128
            }
            #[inline(always)]
            fn from_u128(bits: u128) -> Self {
                $name(bits as $int & Self::MASK)
            }
        }

        impl Debug for $name {
            /// Draws the board, last rank first, `x` for members.
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                writeln!(f, "{}({:#x})", stringify!($name), self.0)?;
                for rank in (0..$ranks).rev() {
                    for file in 0..8 {
                        let c = if self.has(Square::new(file, rank)) { 'x' } else { '.' };
                        write!(f, "{c}")?;
                    }
                    writeln!(f)?;
                }
                Ok(())
            }
        }
    };
}

bitboard_type!(
    /// Bitboard of an 8x8 board.
    Bb64,
    u64,
    8
);
bitboard_type!(
    /// Bitboard of the 8x10 minesweeper board (80 of the 128 bits are used).
    Bb128,
    u128,
    10
);

/// Builds a bitboard from a picture, last rank first: `x` marks a member, `.` an
/// empty square, whitespace is ignored. Handy in tests.
///
/// ```
/// use sapper_rules::bitboard::{BitBoard, Bb64, from_picture};
/// let bb: Bb64 = from_picture("
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . x . . .
///     . . . . . . . .
///     . . . . . . . .
///     x . . . . . . .");
/// assert_eq!(bb.count(), 2);
/// ```
pub fn from_picture<B: BitBoard>(picture: &str) -> B {
    let cells: Vec<bool> = picture
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c == 'x')
        .collect();
    assert_eq!(cells.len(), 8 * B::RANKS as usize, "picture size");
    let mut bb = B::EMPTY;
    for (i, &set) in cells.iter().enumerate() {
        if set {
            let rank = B::RANKS - 1 - (i / 8) as u8;
            bb |= B::from_square(Square::new((i % 8) as u8, rank));
        }
    }
    bb
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_drop_off_the_edges() {
        let h8 = Bb64::from_square(Square::new(7, 7));
        assert!(h8.east().is_empty());
        assert!(h8.north().is_empty());
        assert_eq!(h8.west(), Bb64::from_square(Square::new(6, 7)));
        let h10 = Bb128::from_square(Square::new(7, 9));
        assert!(h10.north().is_empty());
        assert!(h10.east().is_empty());
        assert_eq!(h10.south(), Bb128::from_square(Square::new(7, 8)));
        let a1 = Bb128::from_square(Square::new(0, 0));
        assert!(a1.west().is_empty());
        assert!(a1.south().is_empty());
    }

    #[test]
    fn complement_stays_on_the_board() {
        assert_eq!((!Bb128::EMPTY).count(), 80);
        assert_eq!((!Bb64::EMPTY).count(), 64);
        assert_eq!(Bb128::rank(9).count(), 8);
        assert!(Bb128::rank(10).is_empty());
        assert_eq!(Bb128::file(3).count(), 10);
    }

    #[test]
    fn iteration_and_scans() {
        let bb = Bb128::from_square(Square(3)) | Bb128::from_square(Square(79));
        assert_eq!(bb.squares().collect::<Vec<_>>(), vec![Square(3), Square(79)]);
        assert_eq!(bb.msb(), Square(79));
        assert!(bb.more_than_one());
        assert!(!Bb128::from_square(Square(79)).more_than_one());
    }
}
