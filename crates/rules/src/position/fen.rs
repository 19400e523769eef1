//! Forsyth-Edwards Notation: parsing with typed errors, judged per variant, and writing.

use super::{back_rank, castling, Bb, Position};
use crate::bitboard::BitBoard;
use crate::geometry::Geometry;
use crate::types::{Color, Piece, Role, Square};
use crate::variant::Variant;
use std::fmt;

/// Why a FEN was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Too few or too many space-separated fields.
    FieldCount { found: usize, expected: &'static str },
    /// The placement field has the wrong number of ranks for the board.
    RankCount { found: usize, expected: u8 },
    /// A rank of the placement field does not cover exactly 8 files.
    RankLength { rank: u8 },
    /// A character in the placement field that is neither a piece nor a digit 1-8.
    BadPlacementChar(char),
    /// The side-to-move field is not `w` or `b`.
    BadSide(String),
    /// The castling field is not `-` or a set of distinct `KQkq` letters.
    BadCastling(String),
    /// The en-passant field is not `-` or a square of the board.
    BadEnPassantField(String),
    /// The en-passant square names no double push just made by the side not to move.
    ImpossibleEnPassant(Square),
    /// A move counter is not a number in range (the fullmove number starts at 1).
    BadMoveCounter(String),
    /// More than one king of a colour.
    TooManyKings(Color),
    /// A colour has no king, which the variant does not allow.
    MissingKing(Color),
    /// Neither side has a king.
    NoKings,
    /// A pawn on the first or last rank.
    PawnOnBackRank(Square),
    /// The kings stand next to each other (impossible outside atomic).
    KingsTouch,
    /// The side not to move is in check: the side to move could capture its king.
    OpponentInCheck,
    /// A variant-specific field is malformed or inconsistent (minesweeper's
    /// minefield and counter); the text says how.
    VariantField(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount { found, expected } => {
                write!(f, "expected {expected} fields, found {found}")
            }
            FenError::RankCount { found, expected } => {
                write!(f, "placement has {found} ranks, the board has {expected}")
            }
            FenError::RankLength { rank } => {
                write!(f, "rank {rank} of the placement does not have 8 files")
            }
            FenError::BadPlacementChar(c) => write!(f, "invalid character '{c}' in placement"),
            FenError::BadSide(s) => write!(f, "invalid side to move '{s}' (expected w or b)"),
            FenError::BadCastling(s) => write!(f, "invalid castling field '{s}'"),
            FenError::BadEnPassantField(s) => write!(f, "invalid en-passant field '{s}'"),
            FenError::ImpossibleEnPassant(sq) => {
                write!(f, "en-passant square {sq} does not follow a double pawn push")
            }
            FenError::BadMoveCounter(s) => write!(f, "invalid move counter '{s}'"),
            FenError::TooManyKings(c) => write!(f, "{c:?} has more than one king"),
            FenError::MissingKing(c) => write!(f, "{c:?} has no king"),
            FenError::NoKings => write!(f, "neither side has a king"),
            FenError::PawnOnBackRank(sq) => write!(f, "pawn on {sq}, a first or last rank"),
            FenError::KingsTouch => write!(f, "the kings stand next to each other"),
            FenError::OpponentInCheck => write!(f, "the side not to move is in check"),
            FenError::VariantField(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for FenError {}

/// Something in a FEN that was repaired rather than refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenWarning {
    /// A castling right whose king or rook is not on its home square was dropped
    /// (as Stockfish and python-chess do).
    DroppedCastlingRight(char),
    /// An en-passant square no pawn can capture on was dropped.
    DroppedEnPassant(Square),
}

impl fmt::Display for FenWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenWarning::DroppedCastlingRight(c) => write!(
                f,
                "castling right '{c}' dropped: king or rook is not on its home square"
            ),
            FenWarning::DroppedEnPassant(sq) => {
                write!(f, "en-passant square {sq} dropped: no pawn can capture there")
            }
        }
    }
}

const CASTLING_LETTERS: [(char, u8); 4] = [
    ('K', castling::WHITE_KING),
    ('Q', castling::WHITE_QUEEN),
    ('k', castling::BLACK_KING),
    ('q', castling::BLACK_QUEEN),
];

impl<V: Variant> Position<V> {
    /// Parses a FEN of this variant. Four to six fields for the 8x8 variants (missing
    /// move counters default to `0 1`); variants with extra fields need all of them.
    ///
    /// # Errors
    /// A [`FenError`] naming the first problem found. Repairs that a GUI would also
    /// make (dropping impossible castling rights) are returned as warnings instead.
    pub fn from_fen(fen: &str) -> Result<(Self, Vec<FenWarning>), FenError> {
        let all: Vec<&str> = fen.split_whitespace().collect();
        let (min, max, expected) = if V::EXTRA_FEN_FIELDS == 0 {
            (4, 6 + V::OPTIONAL_FEN_FIELDS, "4 to 6")
        } else {
            let n = 6 + V::EXTRA_FEN_FIELDS;
            (n, n, V::FEN_FIELDS_TEXT)
        };
        let count_error = FenError::FieldCount {
            found: all.len(),
            expected,
        };
        if all.len() < min || all.len() > max {
            return Err(count_error);
        }
        let (fields, own) = V::split_fen(&all)?;
        if fields.len() < 4 || fields.len() > 6 {
            return Err(count_error);
        }
        let mut warnings = Vec::new();
        let mut pos = Self::empty();
        pos.parse_placement(fields[0])?;
        pos.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::BadSide(other.to_string())),
        };
        let requested = parse_castling(fields[2])?;
        let ep = match fields[3] {
            "-" => None,
            s => Some(
                Square::parse(s, V::G::RANKS).ok_or_else(|| FenError::BadEnPassantField(s.to_string()))?,
            ),
        };
        pos.halfmove = match fields.get(4) {
            Some(s) => s.parse().map_err(|_| FenError::BadMoveCounter(s.to_string()))?,
            None => 0,
        };
        // The fullmove number starts at 1 (PGN standard, 16.1.3.6); 0 is refused as
        // shakmaty refuses it, in every variant alike.
        pos.fullmove = match fields.get(5) {
            Some(s) => s
                .parse::<u32>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| FenError::BadMoveCounter(s.to_string()))?,
            None => 1,
        };

        pos.validate_kings_and_pawns()?;
        pos.castling = pos.checked_castling(requested, &mut warnings);
        if let Some(sq) = ep {
            pos.validate_ep(sq)?;
            let capturers = V::G::pawn_attacks(!pos.side, sq) & pos.pieces(pos.side, Role::Pawn);
            if capturers.any() {
                pos.ep = Some(sq);
            } else {
                warnings.push(FenWarning::DroppedEnPassant(sq));
            }
        }
        // A finished game (an exploded king, a king on the hill) may leave the loser's
        // opponent "in check": positions reached by a winning move must read back.
        let finished = V::special_outcome(&pos).is_some();
        if let (Some(their_king), false) = (pos.king(!pos.side), finished) {
            if pos.attacks_for_king_safety(their_king, pos.side, pos.occupied()) {
                return Err(FenError::OpponentInCheck);
            }
        }
        V::parse_state(&mut pos, &own)?;
        pos.key = pos.compute_key();
        pos.update_check_info();
        Ok((pos, warnings))
    }

    fn parse_placement(&mut self, placement: &str) -> Result<(), FenError> {
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != V::G::RANKS as usize {
            return Err(FenError::RankCount {
                found: ranks.len(),
                expected: V::G::RANKS,
            });
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = V::G::RANKS - 1 - i as u8;
            let mut file = 0u8;
            for c in rank_text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if !(1..=8).contains(&d) {
                        return Err(FenError::BadPlacementChar(c));
                    }
                    file += d as u8;
                } else {
                    let piece = Piece::from_fen_char(c).ok_or(FenError::BadPlacementChar(c))?;
                    if file >= 8 {
                        return Err(FenError::RankLength { rank: rank + 1 });
                    }
                    self.put_piece(piece, Square::new(file, rank));
                    file += 1;
                }
                if file > 8 {
                    return Err(FenError::RankLength { rank: rank + 1 });
                }
            }
            if file != 8 {
                return Err(FenError::RankLength { rank: rank + 1 });
            }
        }
        Ok(())
    }

    fn validate_kings_and_pawns(&self) -> Result<(), FenError> {
        for color in Color::ALL {
            let kings = self.kings_of(color);
            if kings.more_than_one() {
                return Err(FenError::TooManyKings(color));
            }
        }
        match (self.king(Color::White), self.king(Color::Black)) {
            (None, None) => return Err(FenError::NoKings),
            (None, Some(_)) if !V::KING_MAY_BE_MISSING => return Err(FenError::MissingKing(Color::White)),
            (Some(_), None) if !V::KING_MAY_BE_MISSING => return Err(FenError::MissingKing(Color::Black)),
            _ => {}
        }
        let edges = Bb::<V>::rank(0) | Bb::<V>::rank(V::G::RANKS - 1);
        let misplaced = self.role(Role::Pawn) & edges;
        if misplaced.any() {
            return Err(FenError::PawnOnBackRank(misplaced.lsb()));
        }
        if !V::KINGS_MAY_TOUCH && self.kings_touch() {
            return Err(FenError::KingsTouch);
        }
        Ok(())
    }

    /// Keeps the requested rights whose king and rook stand on their home squares.
    fn checked_castling(&self, requested: u8, warnings: &mut Vec<FenWarning>) -> u8 {
        let mut rights = 0;
        for (letter, bit) in CASTLING_LETTERS {
            if requested & bit == 0 {
                continue;
            }
            let color = if letter.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let rank = back_rank::<V::G>(color);
            let rook_file = if letter.eq_ignore_ascii_case(&'k') { 7 } else { 0 };
            let king_home = self.piece_at(Square::new(4, rank)) == Some(Piece::new(color, Role::King));
            let rook_home =
                self.piece_at(Square::new(rook_file, rank)) == Some(Piece::new(color, Role::Rook));
            if king_home && rook_home {
                rights |= bit;
            } else {
                warnings.push(FenWarning::DroppedCastlingRight(letter));
            }
        }
        rights
    }

    fn validate_ep(&self, sq: Square) -> Result<(), FenError> {
        let impossible = Err(FenError::ImpossibleEnPassant(sq));
        if !V::EN_PASSANT {
            return impossible;
        }
        // The pawn of the side not to move went from `origin` over `sq` to `pushed`.
        let (ep_rank, origin, pushed) = match self.side {
            Color::White => (V::G::RANKS - 3, sq.offset(8), sq.offset(-8)),
            Color::Black => (2, sq.offset(-8), sq.offset(8)),
        };
        if sq.rank() != ep_rank
            || self.piece_at(sq).is_some()
            || self.piece_at(origin).is_some()
            || self.piece_at(pushed) != Some(Piece::new(!self.side, Role::Pawn))
        {
            return impossible;
        }
        Ok(())
    }

    /// Writes the FEN (with the variant's extra fields).
    pub fn to_fen(&self) -> String {
        let mut fen = String::with_capacity(96);
        for rank in (0..V::G::RANKS).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_at(Square::new(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(p.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push(' ');
        fen.push(self.side.fen_char());
        fen.push(' ');
        if self.castling == 0 {
            fen.push('-');
        }
        for (letter, bit) in CASTLING_LETTERS {
            if self.castling & bit != 0 {
                fen.push(letter);
            }
        }
        match self.ep {
            Some(sq) => fen.push_str(&format!(" {sq}")),
            None => fen.push_str(" -"),
        }
        V::write_state_before_clocks(self, &mut fen);
        fen.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        V::write_state(self, &mut fen);
        fen
    }
}

fn parse_castling(field: &str) -> Result<u8, FenError> {
    if field == "-" {
        return Ok(0);
    }
    let mut rights = 0;
    for c in field.chars() {
        let bit = CASTLING_LETTERS
            .iter()
            .find(|(l, _)| *l == c)
            .map(|(_, b)| *b)
            .ok_or_else(|| FenError::BadCastling(field.to_string()))?;
        if rights & bit != 0 {
            return Err(FenError::BadCastling(field.to_string()));
        }
        rights |= bit;
    }
    Ok(rights)
}
