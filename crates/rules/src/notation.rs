//! Move notation: reading UCI long algebraic moves and SAN, and writing SAN.

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
    /// SAN that names more than one legal move (`Nd2` with knights on b1 and f3),
    /// with the SAN of each.
    Ambiguous { text: String, candidates: Vec<String> },
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
            MoveError::Ambiguous { text, candidates } => {
                write!(f, "ambiguous move '{text}': {}", candidates.join(" or "))
            }
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
            // Queen-only variants accept a promotion without suffix (docs/rules.md, Notation).
            (Some(Role::Queen), None) => !V::UNDERPROMOTION,
            _ => false,
        }
    });
    found.ok_or_else(|| MoveError::Illegal(text.to_string()))
}

/// Reads a move as a person types it: UCI (`e2e4`, `e7e8q`, `e4e4` for a sapper
/// action) or SAN (see [`parse_san`]).
///
/// # Errors
/// [`MoveError`] when the text is neither form or names no single legal move.
pub fn parse_typed_move<V: Variant>(pos: &Position<V>, text: &str) -> Result<Move, MoveError> {
    match parse_uci_move(pos, text.trim()) {
        // Not UCI-shaped: SAN, or nothing at all (parse_san tells which).
        Err(MoveError::Malformed(_)) => parse_san(pos, text),
        other => other,
    }
}

/// The parts of a SAN move other than castling: `Nbxd2=Q` is a knight (`role`) from
/// file b (`from_file`) to d2 (`to`), promoting to a queen.
struct SanParts {
    role: Role,
    /// 0 = a.
    from_file: Option<u8>,
    /// 0 = rank 1.
    from_rank: Option<u8>,
    to: Square,
    promotion: Option<Role>,
}

/// What SAN text names: castling (true: king side) or a piece move.
enum SanShape {
    Castle { king_side: bool },
    Piece(SanParts),
}

/// Splits SAN into its parts; `None` when it does not have the shape of SAN. `text`
/// has no check, mate or annotation marks.
fn split_san<V: Variant>(text: &str) -> Option<SanShape> {
    match text {
        "O-O" | "0-0" => return Some(SanShape::Castle { king_side: true }),
        "O-O-O" | "0-0-0" => return Some(SanShape::Castle { king_side: false }),
        _ => {}
    }
    if !text.is_ascii() {
        return None;
    }
    // Promotion: `e8=Q`, also `e8Q` and `e8=q`.
    let (body, promotion) = match text.as_bytes() {
        [.., b'=', p] => (&text[..text.len() - 2], Some(*p as char)),
        [.., d, p] if d.is_ascii_digit() && b"QRBNqrbn".contains(p) => {
            (&text[..text.len() - 1], Some(*p as char))
        }
        _ => (text, None),
    };
    let promotion = match promotion.map(Role::from_char) {
        None => None,
        Some(Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen))) => Some(r),
        Some(_) => return None,
    };
    let (role, body) = match body.chars().next()? {
        c @ ('K' | 'Q' | 'R' | 'B' | 'N' | 'P') => (Role::from_char(c)?, &body[1..]),
        _ => (Role::Pawn, body),
    };
    // The destination is the last file letter and the rank digits after it.
    let digits = body.bytes().rev().take_while(u8::is_ascii_digit).count();
    let to_at = body.len().checked_sub(digits + 1)?;
    let to = Square::parse(&body[to_at..], V::G::RANKS)?;
    let (mut from_file, mut from_rank) = (None, None);
    let mut hint = body[..to_at]
        .chars()
        .filter(|&c| !matches!(c, 'x' | ':' | '-'))
        .peekable();
    while let Some(c) = hint.next() {
        match c {
            'a'..='h' if from_file.is_none() => from_file = Some(c as u8 - b'a'),
            '1'..='9' if from_rank.is_none() => {
                let mut rank = c as u8 - b'0';
                if let Some(d) = hint.next_if(char::is_ascii_digit) {
                    rank = rank * 10 + (d as u8 - b'0');
                }
                if rank > V::G::RANKS {
                    return None;
                }
                from_rank = Some(rank - 1);
            }
            _ => return None,
        }
    }
    Some(SanShape::Piece(SanParts {
        role,
        from_file,
        from_rank,
        to,
        promotion,
    }))
}

/// Reads a move in Standard Algebraic Notation and returns the legal move it names.
///
/// Lenient where people are: the `+`/`#` suffix and `!`/`?` marks are optional, the
/// `x` of a capture may be left out, more disambiguation than needed is accepted
/// (`Ngf3`), castling may be written with zeros (`0-0`) and a promotion without `=`
/// (`e8Q`). Minesweeper's sapper actions have no SAN; they are read as UCI
/// ([`parse_typed_move`]).
///
/// # Errors
/// [`MoveError::Malformed`] for text that is not SAN, [`MoveError::Illegal`] when no
/// legal move fits, [`MoveError::Ambiguous`] when several do (`e8` when any
/// promotion piece could be chosen).
pub fn parse_san<V: Variant>(pos: &Position<V>, text: &str) -> Result<Move, MoveError> {
    let trimmed = text.trim();
    let bare = trimmed.trim_end_matches(['+', '#', '!', '?']);
    let shape = split_san::<V>(bare).ok_or_else(|| MoveError::Malformed(trimmed.to_string()))?;
    let legal = pos.legal_moves();
    let fits: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| match &shape {
            SanShape::Castle { king_side } => {
                m.kind() == MoveKind::Castle && (m.to().file() > m.from().file()) == *king_side
            }
            SanShape::Piece(p) => {
                !matches!(m.kind(), MoveKind::Castle | MoveKind::Sapper)
                    && m.to() == p.to
                    && pos.role_at(m.from()) == Some(p.role)
                    && p.from_file.is_none_or(|f| m.from().file() == f)
                    && p.from_rank.is_none_or(|r| m.from().rank() == r)
                    && match (m.promotion_role(), p.promotion) {
                        (None, None) => true,
                        (Some(r), Some(want)) => r == want,
                        // A promotion without its piece fits each piece (ambiguous
                        // unless the variant promotes to a queen only).
                        (Some(_), None) => true,
                        (None, Some(_)) => false,
                    }
            }
        })
        .collect();
    match fits.as_slice() {
        [m] => Ok(*m),
        [] => Err(MoveError::Illegal(trimmed.to_string())),
        many => Err(MoveError::Ambiguous {
            text: trimmed.to_string(),
            candidates: many.iter().map(|&m| san(pos, m)).collect(),
        }),
    }
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
    use crate::variant::minesweeper::Minesweeper;
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

    /// The UCI form of the move SAN `text` names from `fen` (chess).
    fn san_to_uci(fen: &str, text: &str) -> Result<String, MoveError> {
        let (pos, _) = Position::<Chess>::from_fen(fen).unwrap();
        parse_typed_move(&pos, text).map(|m| m.to_string())
    }

    #[test]
    fn san_is_read_as_people_write_it() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(san_to_uci(start, "e4").unwrap(), "e2e4");
        assert_eq!(san_to_uci(start, "Nf3").unwrap(), "g1f3");
        assert_eq!(san_to_uci(start, "Ngf3!?").unwrap(), "g1f3");
        assert_eq!(san_to_uci(start, "Ng1-f3").unwrap(), "g1f3");
        assert_eq!(san_to_uci(start, "g1f3").unwrap(), "g1f3");
        let open = "r3k2r/pppq1ppp/2np1n2/2b1p3/2B1P1b1/2NP1N2/PPPQ1PPP/R3K2R w KQkq - 0 1";
        assert_eq!(san_to_uci(open, "O-O").unwrap(), "e1g1");
        assert_eq!(san_to_uci(open, "0-0-0").unwrap(), "e1c1");
        assert_eq!(san_to_uci(open, "Bxf7+").unwrap(), "c4f7");
        assert_eq!(san_to_uci(open, "Bf7").unwrap(), "c4f7");
        let capture = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
        assert_eq!(san_to_uci(capture, "exd5").unwrap(), "e4d5");
        assert_eq!(san_to_uci(capture, "ed5").unwrap(), "e4d5");
        let promote = "8/4P3/8/8/8/8/8/k6K w - - 0 1";
        assert_eq!(san_to_uci(promote, "e8=Q+").unwrap(), "e7e8q");
        assert_eq!(san_to_uci(promote, "e8N").unwrap(), "e7e8n");
        assert_eq!(san_to_uci(promote, "e8=q").unwrap(), "e7e8q");
    }

    #[test]
    fn bad_san_says_why() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(san_to_uci(start, "e5"), Err(MoveError::Illegal("e5".into())));
        assert_eq!(san_to_uci(start, "Nd4"), Err(MoveError::Illegal("Nd4".into())));
        assert_eq!(
            san_to_uci(start, "hello"),
            Err(MoveError::Malformed("hello".into()))
        );
        assert_eq!(
            san_to_uci(start, "e8=K"),
            Err(MoveError::Malformed("e8=K".into()))
        );
        assert_eq!(san_to_uci(start, "Ni3"), Err(MoveError::Malformed("Ni3".into())));
        // A lower-case b is a pawn's file, never a bishop.
        assert_eq!(san_to_uci(start, "bc4"), Err(MoveError::Illegal("bc4".into())));
        let knights = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
        assert_eq!(
            san_to_uci(knights, "Nd2"),
            Err(MoveError::Ambiguous {
                text: "Nd2".into(),
                candidates: vec!["Nbd2".into(), "Nfd2".into()]
            })
        );
        assert_eq!(san_to_uci(knights, "Nbd2").unwrap(), "b1d2");
        assert_eq!(san_to_uci(knights, "N1d2").unwrap(), "b1d2");
        let promote = "8/4P3/8/8/8/8/8/k6K w - - 0 1";
        assert!(matches!(
            san_to_uci(promote, "e8"),
            Err(MoveError::Ambiguous { .. })
        ));
    }

    #[test]
    fn san_reads_tenth_rank_squares_and_promotes_to_a_queen_without_suffix() {
        let (pos, _) = Position::<Minesweeper>::from_fen(
            "7k/3P4/8/8/8/8/8/8/8/4K3 w - - 0 1 00000000/00000000/00000000/00000000 0",
        )
        .unwrap();
        assert_eq!(parse_san(&pos, "d10").unwrap().to_string(), "d9d10q");
        assert_eq!(parse_san(&pos, "d10=Q").unwrap().to_string(), "d9d10q");
        assert_eq!(parse_san(&pos, "Kd2").unwrap().to_string(), "e1d2");
        assert_eq!(parse_san(&pos, "Ke1d2").unwrap().to_string(), "e1d2");
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
