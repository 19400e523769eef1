//! Move notation: reading UCI long algebraic moves and writing SAN.

use crate::geometry::Geometry;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::types::{Role, Square};
use crate::variant::{Outcome, Variant};
use std::fmt;

/// Why a UCI move was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not of the form `<square><square>[promotion]`.
    Malformed(String),
    /// Well formed, but not a legal move here.
    Illegal(String),
    /// A promotion letter this variant does not allow (minesweeper: queen only).
    BadPromotion(String),
    /// Legal, but its outcome depends on hidden information the position does not
    /// give (minesweeper from a public FEN); the GUI must send the next position.
    Undetermined(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed(s) => write!(f, "malformed move '{s}'"),
            MoveError::Illegal(s) => write!(f, "illegal move '{s}'"),
            MoveError::BadPromotion(s) => {
                write!(f, "move '{s}': this variant promotes to a queen only")
            }
            MoveError::Undetermined(s) => write!(f, "move {s}"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Splits `e7e8q` / `e9e10` into origin, destination and promotion letter. Squares
/// have one or two rank digits, so every split is tried; a trailing character counts
/// only as a promotion letter (never as a stray rank digit).
fn split_uci<V: Variant>(text: &str) -> Option<(Square, Square, Option<char>)> {
    if !text.is_ascii() || text.len() < 4 {
        return None;
    }
    for from_len in [2, 3] {
        let Some(from) = text.get(..from_len).and_then(|s| Square::parse(s, V::G::RANKS)) else {
            continue;
        };
        let rest = &text[from_len..];
        for to_len in [2, 3] {
            let Some(to) = rest.get(..to_len).and_then(|s| Square::parse(s, V::G::RANKS)) else {
                continue;
            };
            let mut tail = rest[to_len..].chars();
            match (tail.next(), tail.next()) {
                (None, _) => return Some((from, to, None)),
                (Some(c), None) if c.is_ascii_alphabetic() => return Some((from, to, Some(c))),
                _ => {}
            }
        }
    }
    None
}

/// Reads a UCI move and returns the legal move it names.
///
/// Accepts castling as the king's two-square move (`e1g1`) or as king-takes-rook
/// (`e1h1`, as Chess960-minded GUIs write it), and in variants without
/// underpromotion a promotion with no suffix.
///
/// # Errors
/// [`MoveError`] when the text is malformed or names no legal move.
pub fn parse_uci_move<V: Variant>(pos: &Position<V>, text: &str) -> Result<Move, MoveError> {
    let (from, to, promo) = split_uci::<V>(text).ok_or_else(|| MoveError::Malformed(text.to_string()))?;
    let promo_role = match promo {
        None => None,
        Some(c) => match Role::from_char(c) {
            Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) if c.is_ascii_lowercase() => {
                if !V::UNDERPROMOTION && r != Role::Queen {
                    return Err(MoveError::BadPromotion(text.to_string()));
                }
                Some(r)
            }
            _ => return Err(MoveError::Malformed(text.to_string())),
        },
    };
    let legal = pos.legal_moves();
    let found = legal.iter().copied().find(|m| {
        if m.from() != from {
            return false;
        }
        let same_to = m.to() == to || (m.kind() == MoveKind::Castle && castle_rook_square(*m) == to);
        if !same_to {
            return false;
        }
        match (m.promotion_role(), promo_role) {
            (None, None) => true,
            (Some(r), Some(p)) => r == p,
            // Queen-only variants accept a promotion without suffix (RULES.md, Notation).
            (Some(Role::Queen), None) => !V::UNDERPROMOTION,
            _ => false,
        }
    });
    found.ok_or_else(|| MoveError::Illegal(text.to_string()))
}

/// The rook's origin for a castling move.
fn castle_rook_square(m: Move) -> Square {
    let file = if m.to().file() > m.from().file() { 7 } else { 0 };
    Square::new(file, m.from().rank())
}

/// Writes `m`, legal in `pos`, in Standard Algebraic Notation (`Nf3`, `exd5`,
/// `O-O`, `e8=Q+`, `Qh7#`). A minesweeper sapper action is written as its UCI form
/// (`e4e4`), since SAN has no symbol for it.
pub fn san<V: Variant>(pos: &Position<V>, m: Move) -> String {
    let mut out = String::new();
    let Some(piece) = pos.piece_at(m.from()) else {
        return m.to_string();
    };
    match m.kind() {
        MoveKind::Castle => {
            out.push_str(if m.to().file() > m.from().file() {
                "O-O"
            } else {
                "O-O-O"
            });
        }
        MoveKind::Sapper => out.push_str(&m.to_string()),
        _ => {
            let capture = m.kind() == MoveKind::EnPassant || pos.piece_at(m.to()).is_some();
            match piece.role.san_char() {
                None => {
                    if capture {
                        out.push((b'a' + m.from().file()) as char);
                    }
                }
                Some(letter) => {
                    out.push(letter);
                    out.push_str(&disambiguation(pos, m, piece.role));
                }
            }
            if capture {
                out.push('x');
            }
            out.push_str(&m.to().to_string());
            if let Some(role) = m.promotion_role() {
                out.push('=');
                out.push(role.char().to_ascii_uppercase());
            }
        }
    }
    let mut after = *pos;
    after.play(m);
    match after.outcome() {
        Some(Outcome::Decisive { .. }) => out.push('#'),
        _ if after.in_check() => out.push('+'),
        _ => {}
    }
    out
}

/// The file, rank or square needed to tell `m` apart from other legal moves of the
/// same piece type to the same square.
fn disambiguation<V: Variant>(pos: &Position<V>, m: Move, role: Role) -> String {
    let rivals: Vec<Square> = pos
        .legal_moves()
        .iter()
        .filter(|o| {
            o.to() == m.to()
                && o.from() != m.from()
                && o.kind() != MoveKind::Castle
                && pos.role_at(o.from()) == Some(role)
        })
        .map(|o| o.from())
        .collect();
    if rivals.is_empty() {
        return String::new();
    }
    let from = m.from();
    let file = (b'a' + from.file()) as char;
    if rivals.iter().all(|s| s.file() != from.file()) {
        file.to_string()
    } else if rivals.iter().all(|s| s.rank() != from.rank()) {
        (from.rank() + 1).to_string()
    } else {
        from.to_string()
    }
}

/// Writes a line of moves from `pos` in SAN with move numbers (`12. Nf3 Nc6 13. O-O`).
/// Stops early if a move is not legal.
pub fn san_line<V: Variant>(pos: &Position<V>, moves: &[Move]) -> String {
    let mut out = String::new();
    let mut p = *pos;
    for (i, &m) in moves.iter().enumerate() {
        if !p.legal_moves().contains(&m) {
            break;
        }
        let white = p.side_to_move() == crate::types::Color::White;
        if white {
            out.push_str(&format!("{}. ", p.fullmove_number()));
        } else if i == 0 {
            out.push_str(&format!("{}... ", p.fullmove_number()));
        }
        out.push_str(&san(&p, m));
        out.push(' ');
        p.play(m);
    }
    out.pop();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minesweeper::Minesweeper;
    use crate::variant::Chess;

    #[test]
    fn ten_rank_squares_split_correctly() {
        let sq = |s| Square::parse(s, 10).unwrap();
        assert_eq!(
            split_uci::<Minesweeper>("e10g10"),
            Some((sq("e10"), sq("g10"), None))
        );
        assert_eq!(
            split_uci::<Minesweeper>("d1d10"),
            Some((sq("d1"), sq("d10"), None))
        );
        assert_eq!(
            split_uci::<Minesweeper>("e9e10q"),
            Some((sq("e9"), sq("e10"), Some('q')))
        );
        assert_eq!(
            split_uci::<Minesweeper>("a10a9"),
            Some((sq("a10"), sq("a9"), None))
        );
        assert_eq!(split_uci::<Chess>("e7e8q"), Some((sq("e7"), sq("e8"), Some('q'))));
        assert_eq!(split_uci::<Chess>("e7e80"), None);
        assert_eq!(split_uci::<Chess>("e1g10"), None);
    }

    #[test]
    fn black_castles_on_the_tenth_rank() {
        let (pos, _) = Position::<Minesweeper>::from_fen(
            "r3k2r/8/8/8/8/8/8/8/8/4K3 b kq - 0 1 00000000/00000000/00000000/00000000 0",
        )
        .unwrap();
        let m = parse_uci_move(&pos, "e10g10").unwrap();
        assert_eq!(m.kind(), MoveKind::Castle);
        assert_eq!(san(&pos, m), "O-O");
    }
}
