//! Basic vocabulary shared by every layer: colours, piece roles, pieces and squares.
//!
//! Squares are numbered rank-major with 8 files on every board we support
//! (`index = rank * 8 + file`, a1 = 0), so an 8x8 and an 8x10 board share square
//! numbering, file masks and names; only the number of ranks differs.

use std::fmt;
use std::ops::Not;

/// The side to move or the owner of a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black: the index used by per-colour arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `+1` for White, `-1` for Black: turns a White-relative score into a side-relative one.
    #[inline(always)]
    pub const fn sign(self) -> i32 {
        1 - 2 * (self as i32)
    }

    /// The FEN letter of the side to move (`w` or `b`).
    pub const fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// What a piece is, independent of its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl Role {
    /// All roles in index order.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// 0..6 in the order Pawn, Knight, Bishop, Rook, Queen, King.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The inverse of [`Role::index`]; `None` above 5.
    #[inline(always)]
    pub const fn from_index(i: usize) -> Option<Role> {
        match i {
            0 => Some(Role::Pawn),
            1 => Some(Role::Knight),
            2 => Some(Role::Bishop),
            3 => Some(Role::Rook),
            4 => Some(Role::Queen),
            5 => Some(Role::King),
            _ => None,
        }
    }

    /// Lower-case FEN/UCI letter (`p n b r q k`).
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// Upper-case SAN letter; empty for pawns.
    pub const fn san_char(self) -> Option<char> {
        match self {
            Role::Pawn => None,
            Role::Knight => Some('N'),
            Role::Bishop => Some('B'),
            Role::Rook => Some('R'),
            Role::Queen => Some('Q'),
            Role::King => Some('K'),
        }
    }

    /// Parses a letter of either case.
    pub fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_lowercase() {
            'p' => Some(Role::Pawn),
            'n' => Some(Role::Knight),
            'b' => Some(Role::Bishop),
            'r' => Some(Role::Rook),
            'q' => Some(Role::Queen),
            'k' => Some(Role::King),
            _ => None,
        }
    }
}

/// A coloured piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    /// Builds a piece.
    #[inline(always)]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// 0..12: `color * 6 + role`, the index of per-piece tables (zobrist keys, PSTs).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.color as usize * 6 + self.role as usize
    }

    /// The FEN letter: upper case for White.
    pub const fn fen_char(self) -> char {
        let c = self.role.char();
        match self.color {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// Parses a FEN letter.
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let role = Role::from_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(color, role))
    }
}

/// A square index `rank * 8 + file` (a1 = 0, h1 = 7, a2 = 8, ...). Valid squares
/// depend on the board geometry (0..64 on 8x8, 0..80 on 8x10).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Square(pub u8);

impl Square {
    /// Builds a square from a file (0 = a) and a rank (0 = rank 1).
    #[inline(always)]
    pub const fn new(file: u8, rank: u8) -> Square {
        Square(rank * 8 + file)
    }

    /// The file, 0 (a) to 7 (h).
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// The rank, 0 (rank 1) upward.
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The index for arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square `delta` ranks up (positive) or down, on the same file; no bounds check.
    #[inline(always)]
    pub const fn offset(self, delta: i8) -> Square {
        Square((self.0 as i8 + delta) as u8)
    }

    /// The larger of the file and rank distances (king steps between the squares).
    pub const fn distance(self, other: Square) -> u8 {
        let df = self.file().abs_diff(other.file());
        let dr = self.rank().abs_diff(other.rank());
        if df > dr {
            df
        } else {
            dr
        }
    }

    /// Parses a name such as `e4` or `h10`; `ranks` bounds the rank number.
    pub fn parse(s: &str, ranks: u8) -> Option<Square> {
        let mut chars = s.chars();
        let f = chars.next()?;
        if !('a'..='h').contains(&f) {
            return None;
        }
        let rest = chars.as_str();
        if rest.is_empty() || rest.len() > 2 || !rest.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if rest.starts_with('0') {
            return None;
        }
        let r: u8 = rest.parse().ok()?;
        if r == 0 || r > ranks {
            return None;
        }
        Some(Square::new(f as u8 - b'a', r - 1))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip_on_ten_ranks() {
        for i in 0..80u8 {
            let sq = Square(i);
            assert_eq!(Square::parse(&sq.to_string(), 10), Some(sq));
        }
        assert_eq!(Square::parse("h10", 8), None);
        assert_eq!(Square::parse("e0", 8), None);
        assert_eq!(Square::parse("e04", 10), None);
        assert_eq!(Square::parse("i1", 8), None);
        assert_eq!(Square::parse("e", 8), None);
    }

    #[test]
    fn piece_letters_round_trip() {
        for c in "PNBRQKpnbrqk".chars() {
            assert_eq!(Piece::from_fen_char(c).unwrap().fen_char(), c);
        }
        assert_eq!(Piece::from_fen_char('x'), None);
    }
}
