//! Minesweeper chess against a slow, separately written reference implementation.
//!
//! # The reference
//!
//! [`reference`] implements minesweeper chess from `docs/rules.md` alone, with plain arrays
//! and simple loops: the board is `[[Option<(Color, Kind)>; 8]; 10]`, the minefield is
//! one [`reference::Cell`] and one mine flag per square. It never calls Sapper's move
//! generator, position or inference code. It covers FEN parsing and writing (both
//! minefield forms), piece moves on 8x10 (double pushes from rank 2 / 9, no en
//! passant, queen-only promotion, castling), check, rule 13 judged on public
//! information, the sapper action, landing effects (reveal ring, destruction, the
//! king's silent removal), numbers recomputed from the current mines, discovered
//! mines that keep acting, the global fog lift, and public-information inference by
//! brute force: every subset of the fogged unswept squares of size
//! `counter - discovered` is enumerated and kept when every revealed number equals
//! the count of mines on that square's neighbours.
//!
//! # Positions
//!
//! Every random choice comes from a seeded `StdRng` and is made by the reference, so
//! the positions depend only on the rules and the seeds.
//!
//! - [`differential_playouts_from_start`]: random playouts (about 1,300 distinct
//!   sampled positions) from the full-information start position with four random
//!   mines on ranks 4-7, moves chosen by the reference (from its legal moves sorted by
//!   UCI code, with a style that biases the choice: exploring the fog, attacking,
//!   pushing pawns, or uniform; sapper actions in front of a mine, promotions and
//!   castling favoured) and played in both implementations side by side. Positions
//!   with fog, and checks, are sampled more often.
//! - [`differential_generated_positions`]: 1,000 random FENs written directly
//!   (minefields with revealed areas, discovered and swept squares, counters from 0 to
//!   4, fog already lifted; piece layouts shaped to give checks along lines across the
//!   fog with pieces that can interpose there, pinned sliders with fog on the pin
//!   line, pawns facing fogged squares (sapper actions onto fog only happen from such
//!   FENs), almost finished minefields, promotions), each followed by a short playout
//!   (about 4,000 distinct sampled positions in all). Rule 13 comes mostly from here.
//! - Hand-made positions for each rule (above all rule 13) with hand-computed
//!   expectations, in [`hand_made_positions`].
//!
//! # What is compared (zero mismatches allowed)
//!
//! - At every playout node: the legal move sets (UCI codes), and after every move
//!   the full FEN and the public FEN.
//! - At every sampled position: FEN round trips in both forms (parse, write back),
//!   the public FEN, perft 1, 2 and 3 (on every sample), the FEN of every child, the
//!   legal moves of the public form (legality is judged on public information, so
//!   they must equal the full form's), and the exact inference of the public form:
//!   Sapper's `mine_inference()` (layout count and per-square mine layouts) against
//!   the brute force (also `mine_inference()` of the full-information position).
//!
//!   A sampled position whose fog has lifted has no `M` left, so its FEN is a public
//!   form; Sapper's `Position::play` on a public position follows the search's
//!   semantics (squares revealed below the root stay unknown), so the children of
//!   such positions are played with `Variant::play_given` (the rules' "moves after a
//!   public FEN"), which equals `play` on full-information positions.
//! - A malformed-FEN corpus that both implementations must refuse.
//!
//! Mismatches are collected and the test fails at the end with the whole list. Feature
//! counters make sure the samples contain the subtle cases (rule 13 refusals and
//! proofs of safety, fog lifts, sapper actions on fog, promotions, ...).
//!
//! One Sapper bug found while writing this file is outside the reference's scope
//! (search semantics below a public root) and is kept as an ignored test asserting
//! the correct behaviour: [`known_bug_public_play_keeps_stale_numbers`].
//!
//! Run time: about 35 s for the file with `cargo test --release` on 2 cores (the two
//! differential tests run in parallel, about 5,700 sampled positions in all).

// The reference is written with plain index loops over the board on purpose.
#![allow(clippy::needless_range_loop)]

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use reference::{in_zone, Cell, Color, Kind, MoveKind, RMove, RPos};
use sapper_rules::perft::perft;
use sapper_rules::position::Position;
use sapper_rules::variant::minesweeper::Minesweeper;
use sapper_rules::variant::Variant;
use std::collections::HashSet;

type SPos = Position<Minesweeper>;

/// Mismatches printed in full; the rest are counted.
const PRINT_LIMIT: usize = 60;

mod reference {
    //! Minesweeper chess from docs/rules.md, the slow and obvious way.

    use std::cell::RefCell;
    use std::collections::HashMap;

    #[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
    pub enum Color {
        White,
        Black,
    }

    impl Color {
        pub fn other(self) -> Color {
            match self {
                Color::White => Color::Black,
                Color::Black => Color::White,
            }
        }

        /// The rank step of this colour's pawns.
        pub fn forward(self) -> i32 {
            match self {
                Color::White => 1,
                Color::Black => -1,
            }
        }
    }

    #[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
    pub enum Kind {
        Pawn,
        Knight,
        Bishop,
        Rook,
        Queen,
        King,
    }

    pub type Piece = (Color, Kind);
    /// (rank index 0..10, file index 0..8): a1 = (0, 0), h10 = (9, 7).
    pub type Sq = (usize, usize);
    pub type Board = [[Option<Piece>; 8]; 10];

    /// What a square of the fog zone shows. Squares outside the zone are `Shown`.
    #[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
    pub enum Cell {
        /// Fogged, not swept (`?`, or `M` when it holds a mine in the full form).
        Fogged,
        /// Fogged, known mine-free (`-`).
        Swept,
        /// Revealed, showing a number.
        Shown,
        /// Revealed mine (`*`).
        Discovered,
    }

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub enum MoveKind {
        Normal,
        Promotion,
        Castle,
        Sapper,
    }

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub struct RMove {
        pub from: Sq,
        pub to: Sq,
        pub kind: MoveKind,
    }

    impl RMove {
        pub fn uci(&self) -> String {
            let mut s = format!("{}{}", square_name(self.from), square_name(self.to));
            if self.kind == MoveKind::Promotion {
                s.push('q');
            }
            s
        }
    }

    pub fn square_name(sq: Sq) -> String {
        format!("{}{}", (b'a' + sq.1 as u8) as char, sq.0 + 1)
    }

    /// Ranks 4-7.
    pub fn in_zone(sq: Sq) -> bool {
        sq.0 >= 3 && sq.0 <= 6
    }

    /// Fog-zone index: a4 = 0, h4 = 7, a5 = 8, ..., h7 = 31.
    pub fn zone_index(sq: Sq) -> usize {
        (sq.0 - 3) * 8 + sq.1
    }

    pub fn zone_square(i: usize) -> Sq {
        (i / 8 + 3, i % 8)
    }

    pub fn offset(sq: Sq, dr: i32, df: i32) -> Option<Sq> {
        let r = sq.0 as i32 + dr;
        let f = sq.1 as i32 + df;
        if (0..10).contains(&r) && (0..8).contains(&f) {
            Some((r as usize, f as usize))
        } else {
            None
        }
    }

    const KNIGHT: [(i32, i32); 8] = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    const KING: [(i32, i32); 8] = [
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
        (0, -1),
        (1, -1),
    ];
    const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

    /// The up-to-eight squares around `sq`.
    pub fn neighbours(sq: Sq) -> impl Iterator<Item = Sq> {
        KING.into_iter().filter_map(move |(dr, df)| offset(sq, dr, df))
    }

    /// Whether a piece of colour `by` attacks `sq` on `board`.
    pub fn attacked(board: &Board, sq: Sq, by: Color) -> bool {
        let at = |s: Sq| board[s.0][s.1];
        // A pawn of `by` attacks diagonally forward, so it stands one rank behind.
        for df in [-1, 1] {
            if let Some(s) = offset(sq, -by.forward(), df) {
                if at(s) == Some((by, Kind::Pawn)) {
                    return true;
                }
            }
        }
        for (dr, df) in KNIGHT {
            if let Some(s) = offset(sq, dr, df) {
                if at(s) == Some((by, Kind::Knight)) {
                    return true;
                }
            }
        }
        for (dr, df) in KING {
            if let Some(s) = offset(sq, dr, df) {
                if at(s) == Some((by, Kind::King)) {
                    return true;
                }
            }
        }
        for (dirs, slider) in [(ORTHOGONAL, Kind::Rook), (DIAGONAL, Kind::Bishop)] {
            for (dr, df) in dirs {
                let mut cur = sq;
                while let Some(s) = offset(cur, dr, df) {
                    if let Some(piece) = at(s) {
                        if piece == (by, slider) || piece == (by, Kind::Queen) {
                            return true;
                        }
                        break;
                    }
                    cur = s;
                }
            }
        }
        false
    }

    pub fn find_king(board: &Board, color: Color) -> Option<Sq> {
        for r in 0..10 {
            for f in 0..8 {
                if board[r][f] == Some((color, Kind::King)) {
                    return Some((r, f));
                }
            }
        }
        None
    }

    /// Whether `color`'s king stands attacked on `board`.
    pub fn king_attacked(board: &Board, color: Color) -> bool {
        match find_king(board, color) {
            Some(k) => attacked(board, k, color.other()),
            None => false,
        }
    }

    /// Exact public inference.
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub struct RInference {
        pub layouts: u64,
        pub mine_layouts: [u64; 32],
    }

    /// Brute force over every layout. `codes[i]` describes zone square `i`: 0-8 a
    /// revealed number, 9 a discovered mine, 10 fogged, 11 swept.
    pub fn brute_force(codes: &[u8; 32], counter: u32) -> RInference {
        let mut result = RInference {
            layouts: 0,
            mine_layouts: [0; 32],
        };
        let unknown: Vec<usize> = (0..32).filter(|&i| codes[i] == 10).collect();
        let discovered: Vec<usize> = (0..32).filter(|&i| codes[i] == 9).collect();
        if (counter as usize) < discovered.len() {
            return result;
        }
        let hidden = counter as usize - discovered.len();
        let shown: Vec<(usize, Vec<usize>)> = (0..32)
            .filter(|&i| codes[i] <= 8)
            .map(|i| {
                let around = neighbours(zone_square(i))
                    .filter(|&s| in_zone(s))
                    .map(zone_index)
                    .collect();
                (codes[i] as usize, around)
            })
            .collect();
        let mut mined = [false; 32];
        for &i in &discovered {
            mined[i] = true;
        }
        visit(&unknown, 0, hidden, &mut mined, &shown, &mut result);
        for &i in &discovered {
            result.mine_layouts[i] = result.layouts;
        }
        result
    }

    /// Chooses `left` more mines among `unknown[start..]`; at each complete layout,
    /// keeps it if every revealed number matches.
    fn visit(
        unknown: &[usize],
        start: usize,
        left: usize,
        mined: &mut [bool; 32],
        shown: &[(usize, Vec<usize>)],
        result: &mut RInference,
    ) {
        if left == 0 {
            for (number, around) in shown {
                let count = around.iter().filter(|&&j| mined[j]).count();
                if count != *number {
                    return;
                }
            }
            result.layouts += 1;
            for &i in unknown {
                if mined[i] {
                    result.mine_layouts[i] += 1;
                }
            }
            return;
        }
        for j in start..unknown.len() {
            mined[unknown[j]] = true;
            visit(unknown, j + 1, left - 1, mined, shown, result);
            mined[unknown[j]] = false;
        }
    }

    thread_local! {
        static MEMO: RefCell<HashMap<([u8; 32], u32), RInference>> = RefCell::new(HashMap::new());
    }

    /// A position of minesweeper chess.
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub struct RPos {
        pub board: Board,
        pub side: Color,
        /// K, Q, k, q.
        pub castling: [bool; 4],
        pub halfmove: u32,
        pub fullmove: u32,
        pub cell: [[Cell; 8]; 10],
        /// Where the mines are: all of them when `full`, else the discovered ones.
        pub mine: [[bool; 8]; 10],
        /// The numbers as given by a public-form FEN.
        pub given: [[u8; 8]; 10],
        pub counter: u32,
        /// Whether every mine is known (a full-form FEN, or no fog left).
        pub full: bool,
    }

    fn piece_char(p: Piece) -> char {
        let c = match p.1 {
            Kind::Pawn => 'p',
            Kind::Knight => 'n',
            Kind::Bishop => 'b',
            Kind::Rook => 'r',
            Kind::Queen => 'q',
            Kind::King => 'k',
        };
        if p.0 == Color::White {
            c.to_ascii_uppercase()
        } else {
            c
        }
    }

    fn piece_from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let kind = match c.to_ascii_lowercase() {
            'p' => Kind::Pawn,
            'n' => Kind::Knight,
            'b' => Kind::Bishop,
            'r' => Kind::Rook,
            'q' => Kind::Queen,
            'k' => Kind::King,
            _ => return None,
        };
        Some((color, kind))
    }

    const CASTLING_LETTERS: [char; 4] = ['K', 'Q', 'k', 'q'];

    impl RPos {
        pub fn empty() -> RPos {
            RPos {
                board: [[None; 8]; 10],
                side: Color::White,
                castling: [false; 4],
                halfmove: 0,
                fullmove: 1,
                cell: [[Cell::Shown; 8]; 10],
                mine: [[false; 8]; 10],
                given: [[0; 8]; 10],
                counter: 0,
                full: true,
            }
        }

        pub fn at(&self, sq: Sq) -> Option<Piece> {
            self.board[sq.0][sq.1]
        }

        pub fn cell_at(&self, sq: Sq) -> Cell {
            self.cell[sq.0][sq.1]
        }

        /// The number a revealed square shows: the mines on its neighbours now.
        pub fn number(&self, sq: Sq) -> u8 {
            if self.full {
                neighbours(sq).filter(|s| self.mine[s.0][s.1]).count() as u8
            } else {
                self.given[sq.0][sq.1]
            }
        }

        pub fn has_fog(&self) -> bool {
            (3..7).any(|r| (0..8).any(|f| matches!(self.cell[r][f], Cell::Fogged | Cell::Swept)))
        }

        pub fn in_check(&self) -> bool {
            king_attacked(&self.board, self.side)
        }

        /// Parses a FEN (docs/rules.md, Notation), refusing what the rules refuse.
        pub fn parse(fen: &str) -> Result<RPos, String> {
            let fields: Vec<&str> = fen.split_whitespace().collect();
            if fields.len() != 8 {
                return Err(format!("{} fields, expected 8", fields.len()));
            }
            let mut pos = RPos::empty();
            let ranks: Vec<&str> = fields[0].split('/').collect();
            if ranks.len() != 10 {
                return Err(format!("{} ranks, expected 10", ranks.len()));
            }
            for (k, text) in ranks.iter().enumerate() {
                let r = 9 - k;
                let mut f = 0usize;
                for ch in text.chars() {
                    if let Some(d) = ch.to_digit(10) {
                        if d == 0 || d > 8 {
                            return Err(format!("bad digit {ch}"));
                        }
                        f += d as usize;
                    } else {
                        let piece = piece_from_char(ch).ok_or(format!("bad piece {ch}"))?;
                        if f >= 8 {
                            return Err("rank too long".into());
                        }
                        pos.board[r][f] = Some(piece);
                        f += 1;
                    }
                    if f > 8 {
                        return Err("rank too long".into());
                    }
                }
                if f != 8 {
                    return Err("rank too short".into());
                }
            }
            pos.side = match fields[1] {
                "w" => Color::White,
                "b" => Color::Black,
                other => return Err(format!("bad side {other}")),
            };
            if fields[2] != "-" {
                for ch in fields[2].chars() {
                    let i = CASTLING_LETTERS
                        .iter()
                        .position(|&l| l == ch)
                        .ok_or(format!("bad castling {ch}"))?;
                    if pos.castling[i] {
                        return Err("repeated castling letter".into());
                    }
                    pos.castling[i] = true;
                }
            }
            if fields[3] != "-" {
                return Err("minesweeper has no en passant".into());
            }
            pos.halfmove = fields[4].parse().map_err(|_| "bad halfmove clock")?;
            pos.fullmove = fields[5].parse::<u32>().map_err(|_| "bad move number")?.max(1);

            let rows: Vec<&str> = fields[6].split('/').collect();
            if rows.len() != 4 {
                return Err(format!("minefield has {} ranks", rows.len()));
            }
            for (k, row) in rows.iter().enumerate() {
                let r = 6 - k; // rank 7 first
                let chars: Vec<char> = row.chars().collect();
                if chars.len() != 8 {
                    return Err(format!("minefield rank {} has {} characters", r + 1, chars.len()));
                }
                for (f, &ch) in chars.iter().enumerate() {
                    match ch {
                        '?' => pos.cell[r][f] = Cell::Fogged,
                        '-' => pos.cell[r][f] = Cell::Swept,
                        'M' => {
                            pos.cell[r][f] = Cell::Fogged;
                            pos.mine[r][f] = true;
                        }
                        '*' => {
                            pos.cell[r][f] = Cell::Discovered;
                            pos.mine[r][f] = true;
                        }
                        '0'..='8' => {
                            pos.cell[r][f] = Cell::Shown;
                            pos.given[r][f] = ch as u8 - b'0';
                        }
                        _ => return Err(format!("bad minefield character {ch}")),
                    }
                }
            }
            pos.counter = match fields[7] {
                "0" => 0,
                "1" => 1,
                "2" => 2,
                "3" => 3,
                "4" => 4,
                other => return Err(format!("bad counter {other}")),
            };
            pos.full = fields[6].contains('M');

            // Kings and pawns, as in chess.
            for color in [Color::White, Color::Black] {
                let kings = (0..10)
                    .flat_map(|r| (0..8).map(move |f| (r, f)))
                    .filter(|&s| pos.at(s) == Some((color, Kind::King)))
                    .count();
                if kings != 1 {
                    return Err(format!("{color:?} has {kings} kings"));
                }
            }
            let wk = find_king(&pos.board, Color::White).unwrap();
            let bk = find_king(&pos.board, Color::Black).unwrap();
            if wk.0.abs_diff(bk.0) <= 1 && wk.1.abs_diff(bk.1) <= 1 {
                return Err("kings touch".into());
            }
            for f in 0..8 {
                for r in [0, 9] {
                    if matches!(pos.board[r][f], Some((_, Kind::Pawn))) {
                        return Err("pawn on a back rank".into());
                    }
                }
            }
            if king_attacked(&pos.board, pos.side.other()) {
                return Err("the side not to move is in check".into());
            }
            // Castling rights need king and rook at home (dropped otherwise, as Sapper
            // does with a warning; the generated FENs never need it).
            for (i, (home, rook_file, color)) in [
                (0, 7, Color::White),
                (0, 0, Color::White),
                (9, 7, Color::Black),
                (9, 0, Color::Black),
            ]
            .into_iter()
            .enumerate()
            {
                if pos.board[home][4] != Some((color, Kind::King))
                    || pos.board[home][rook_file] != Some((color, Kind::Rook))
                {
                    pos.castling[i] = false;
                }
            }

            // The minefield.
            for r in 0..10 {
                for f in 0..8 {
                    if pos.board[r][f].is_some() && pos.cell[r][f] != Cell::Shown {
                        return Err(format!(
                            "piece on the unrevealed or mined square {}",
                            square_name((r, f))
                        ));
                    }
                }
            }
            let discovered = (3..7)
                .flat_map(|r| (0..8).map(move |f| (r, f)))
                .filter(|&s| pos.cell_at(s) == Cell::Discovered)
                .count() as u32;
            if pos.has_fog() && pos.counter == discovered {
                return Err("fog remains although every mine is discovered".into());
            }
            if pos.full {
                let marked = (3..7)
                    .flat_map(|r| (0..8).map(move |f| (r, f)))
                    .filter(|&s| pos.mine[s.0][s.1])
                    .count() as u32;
                if marked != pos.counter {
                    return Err(format!("counter {} but {marked} mines", pos.counter));
                }
                for r in 3..7 {
                    for f in 0..8 {
                        if pos.cell[r][f] == Cell::Shown && pos.given[r][f] != pos.number((r, f)) {
                            return Err(format!("wrong number on {}", square_name((r, f))));
                        }
                    }
                }
            } else {
                if pos.inference().layouts == 0 {
                    return Err("no consistent mine layout".into());
                }
                if !pos.has_fog() {
                    // Nothing hidden: every mine is a discovered one.
                    pos.full = true;
                }
            }
            Ok(pos)
        }

        fn write(&self, full_form: bool) -> String {
            let mut s = String::new();
            for r in (0..10).rev() {
                let mut empty = 0;
                for f in 0..8 {
                    match self.board[r][f] {
                        Some(p) => {
                            if empty > 0 {
                                s.push_str(&empty.to_string());
                                empty = 0;
                            }
                            s.push(piece_char(p));
                        }
                        None => empty += 1,
                    }
                }
                if empty > 0 {
                    s.push_str(&empty.to_string());
                }
                if r > 0 {
                    s.push('/');
                }
            }
            s.push_str(if self.side == Color::White { " w " } else { " b " });
            let rights: String = (0..4)
                .filter(|&i| self.castling[i])
                .map(|i| CASTLING_LETTERS[i])
                .collect();
            s.push_str(if rights.is_empty() { "-" } else { &rights });
            s.push_str(&format!(" - {} {} ", self.halfmove, self.fullmove));
            for r in (3..7).rev() {
                for f in 0..8 {
                    s.push(match self.cell[r][f] {
                        Cell::Fogged if full_form && self.full && self.mine[r][f] => 'M',
                        Cell::Fogged => '?',
                        Cell::Swept => '-',
                        Cell::Discovered => '*',
                        Cell::Shown => (b'0' + self.number((r, f))) as char,
                    });
                }
                if r > 3 {
                    s.push('/');
                }
            }
            s.push_str(&format!(" {}", self.counter));
            s
        }

        /// The FEN in the form the position has (full when the mines are known).
        pub fn fen(&self) -> String {
            self.write(true)
        }

        /// The FEN with the public minefield only.
        pub fn public_fen(&self) -> String {
            self.write(false)
        }

        /// The public minefield, coded for [`brute_force`].
        pub fn public_codes(&self) -> [u8; 32] {
            let mut codes = [0u8; 32];
            for i in 0..32 {
                let sq = zone_square(i);
                codes[i] = match self.cell_at(sq) {
                    Cell::Shown => self.number(sq),
                    Cell::Discovered => 9,
                    Cell::Fogged => 10,
                    Cell::Swept => 11,
                };
            }
            codes
        }

        /// Exact inference on the public information (memoised).
        pub fn inference(&self) -> RInference {
            let key = (self.public_codes(), self.counter);
            if let Some(hit) = MEMO.with(|m| m.borrow().get(&key).copied()) {
                return hit;
            }
            let result = brute_force(&key.0, key.1);
            MEMO.with(|m| m.borrow_mut().insert(key, result));
            result
        }

        /// Rule 13: a discovered mine, or a fogged unswept square that a consistent
        /// layout mines.
        pub fn may_hold_mine(&self, sq: Sq) -> bool {
            if !in_zone(sq) {
                return false;
            }
            match self.cell_at(sq) {
                Cell::Discovered => true,
                Cell::Fogged => self.inference().mine_layouts[zone_index(sq)] > 0,
                Cell::Swept | Cell::Shown => false,
            }
        }

        /// King safety with the king placed on `sq` instead of its home square
        /// (castling: the squares it passes and lands on).
        fn castling_square_attacked(&self, home: usize, sq: Sq) -> bool {
            let mut b = self.board;
            b[home][4] = None;
            b[sq.0][sq.1] = Some((self.side, Kind::King));
            attacked(&b, sq, self.side.other())
        }

        /// Every move by the pieces' movement rules (castling only when legal, sapper
        /// actions for every pawn).
        pub fn pseudo_moves(&self) -> Vec<RMove> {
            let us = self.side;
            let mut out = Vec::new();
            let last = if us == Color::White { 9 } else { 0 };
            let start = if us == Color::White { 1 } else { 8 };
            for r in 0..10 {
                for f in 0..8 {
                    let Some((color, kind)) = self.board[r][f] else {
                        continue;
                    };
                    if color != us {
                        continue;
                    }
                    let from = (r, f);
                    let mut add = |to: Sq| {
                        out.push(RMove {
                            from,
                            to,
                            kind: MoveKind::Normal,
                        })
                    };
                    match kind {
                        Kind::Pawn => {
                            let mut pawn_targets = Vec::new();
                            if let Some(one) = offset(from, us.forward(), 0) {
                                if self.at(one).is_none() {
                                    pawn_targets.push(one);
                                    if r == start {
                                        if let Some(two) = offset(from, 2 * us.forward(), 0) {
                                            if self.at(two).is_none() {
                                                pawn_targets.push(two);
                                            }
                                        }
                                    }
                                }
                            }
                            for df in [-1, 1] {
                                if let Some(t) = offset(from, us.forward(), df) {
                                    if matches!(self.at(t), Some((c, _)) if c != us) {
                                        pawn_targets.push(t);
                                    }
                                }
                            }
                            for to in pawn_targets {
                                let kind = if to.0 == last {
                                    MoveKind::Promotion
                                } else {
                                    MoveKind::Normal
                                };
                                out.push(RMove { from, to, kind });
                            }
                            out.push(RMove {
                                from,
                                to: from,
                                kind: MoveKind::Sapper,
                            });
                        }
                        Kind::Knight | Kind::King => {
                            let steps = if kind == Kind::Knight { KNIGHT } else { KING };
                            for (dr, df) in steps {
                                if let Some(to) = offset(from, dr, df) {
                                    if !matches!(self.at(to), Some((c, _)) if c == us) {
                                        add(to);
                                    }
                                }
                            }
                        }
                        Kind::Bishop | Kind::Rook | Kind::Queen => {
                            let orthogonal: &[(i32, i32)] =
                                if kind == Kind::Bishop { &[] } else { &ORTHOGONAL };
                            let diagonal: &[(i32, i32)] = if kind == Kind::Rook { &[] } else { &DIAGONAL };
                            for &(dr, df) in orthogonal.iter().chain(diagonal) {
                                let mut cur = from;
                                while let Some(to) = offset(cur, dr, df) {
                                    match self.at(to) {
                                        None => add(to),
                                        Some((c, _)) => {
                                            if c != us {
                                                add(to);
                                            }
                                            break;
                                        }
                                    }
                                    cur = to;
                                }
                            }
                        }
                    }
                }
            }
            // Castling: king on e1/e10 not in check, corridor empty, the squares the
            // king passes and lands on not attacked.
            let home = if us == Color::White { 0 } else { 9 };
            let (short, long) = if us == Color::White { (0, 1) } else { (2, 3) };
            if self.board[home][4] == Some((us, Kind::King)) && !self.in_check() {
                if self.castling[short]
                    && self.board[home][7] == Some((us, Kind::Rook))
                    && self.board[home][5].is_none()
                    && self.board[home][6].is_none()
                    && !self.castling_square_attacked(home, (home, 5))
                    && !self.castling_square_attacked(home, (home, 6))
                {
                    out.push(RMove {
                        from: (home, 4),
                        to: (home, 6),
                        kind: MoveKind::Castle,
                    });
                }
                if self.castling[long]
                    && self.board[home][0] == Some((us, Kind::Rook))
                    && (1..4).all(|f| self.board[home][f].is_none())
                    && !self.castling_square_attacked(home, (home, 3))
                    && !self.castling_square_attacked(home, (home, 2))
                {
                    out.push(RMove {
                        from: (home, 4),
                        to: (home, 2),
                        kind: MoveKind::Castle,
                    });
                }
            }
            out
        }

        /// Whether the move leaves the mover's king safe (chess legality; the piece
        /// arrives).
        pub fn chess_legal(&self, m: &RMove) -> bool {
            let mut b = self.board;
            let piece = b[m.from.0][m.from.1];
            b[m.from.0][m.from.1] = None;
            b[m.to.0][m.to.1] = piece;
            !king_attacked(&b, self.side)
        }

        /// Whether a non-king, non-capturing move into the zone would leave the king in
        /// check were the piece destroyed on landing (so rule 13 decides it).
        pub fn rule13_applies(&self, m: &RMove) -> bool {
            if m.kind != MoveKind::Normal || !in_zone(m.to) || self.at(m.to).is_some() {
                return false;
            }
            if matches!(self.at(m.from), Some((_, Kind::King))) {
                return false;
            }
            let mut b = self.board;
            b[m.from.0][m.from.1] = None;
            king_attacked(&b, self.side)
        }

        /// Whether a move of [`RPos::pseudo_moves`] is legal; `in_check` says whether
        /// the side to move is in check.
        pub fn is_legal(&self, m: &RMove, in_check: bool) -> bool {
            match m.kind {
                MoveKind::Castle => true,
                MoveKind::Sapper => !in_check,
                MoveKind::Normal | MoveKind::Promotion => {
                    self.chess_legal(m) && !(self.rule13_applies(m) && self.may_hold_mine(m.to))
                }
            }
        }

        /// The legal moves, in generation order.
        pub fn legal_unsorted(&self) -> Vec<RMove> {
            let in_check = self.in_check();
            let mut moves = self.pseudo_moves();
            moves.retain(|m| self.is_legal(m, in_check));
            moves
        }

        /// The legal moves, sorted by UCI code.
        pub fn legal_moves(&self) -> Vec<RMove> {
            let mut moves = self.legal_unsorted();
            moves.sort_by_key(|m| m.uci());
            moves
        }

        fn lose_rights_at(&mut self, sq: Sq) {
            match sq {
                (0, 4) => {
                    self.castling[0] = false;
                    self.castling[1] = false;
                }
                (0, 7) => self.castling[0] = false,
                (0, 0) => self.castling[1] = false,
                (9, 4) => {
                    self.castling[2] = false;
                    self.castling[3] = false;
                }
                (9, 7) => self.castling[2] = false,
                (9, 0) => self.castling[3] = false,
                _ => {}
            }
        }

        /// Plays a legal move; the outcome follows the true mines.
        pub fn play(&self, m: &RMove) -> RPos {
            assert!(
                self.full,
                "the reference plays only positions whose mines are known"
            );
            let mut p = *self;
            let us = self.side;
            let piece = self.at(m.from).expect("a piece to move");
            p.halfmove += 1;
            if us == Color::Black {
                p.fullmove += 1;
            }
            match m.kind {
                MoveKind::Sapper => {
                    p.halfmove = 0;
                    if let Some(front) = offset(m.from, us.forward(), 0) {
                        if in_zone(front) {
                            let (r, f) = front;
                            if p.mine[r][f] {
                                p.mine[r][f] = false;
                                p.counter -= 1;
                            }
                            p.cell[r][f] = match p.cell[r][f] {
                                Cell::Fogged | Cell::Swept => Cell::Swept,
                                Cell::Discovered | Cell::Shown => Cell::Shown,
                            };
                        }
                    }
                }
                MoveKind::Castle => {
                    let home = m.from.0;
                    let (rook_from, rook_to) = if m.to.1 == 6 { (7, 5) } else { (0, 3) };
                    p.board[home][4] = None;
                    p.board[home][rook_from] = None;
                    p.board[home][m.to.1] = Some((us, Kind::King));
                    p.board[home][rook_to] = Some((us, Kind::Rook));
                    p.lose_rights_at((home, 4));
                    // Both land on the back rank: outside the zone, and its ring
                    // reaches rank 2 / 9 only.
                }
                MoveKind::Normal | MoveKind::Promotion => {
                    if self.at(m.to).is_some() || piece.1 == Kind::Pawn {
                        p.halfmove = 0;
                    }
                    p.board[m.from.0][m.from.1] = None;
                    p.board[m.to.0][m.to.1] = Some(if m.kind == MoveKind::Promotion {
                        (us, Kind::Queen)
                    } else {
                        piece
                    });
                    p.lose_rights_at(m.from);
                    p.lose_rights_at(m.to);
                    let (r, f) = m.to;
                    if in_zone(m.to) {
                        if p.mine[r][f] {
                            // Rule 9 (king: silently removed) and rule 10 (others:
                            // destroyed with the mine).
                            p.mine[r][f] = false;
                            p.counter -= 1;
                            if piece.1 != Kind::King {
                                p.board[r][f] = None;
                            }
                        }
                        p.cell[r][f] = Cell::Shown;
                    }
                    // Rule 4: the ring around the landing square.
                    for s in neighbours(m.to) {
                        if in_zone(s) && matches!(p.cell_at(s), Cell::Fogged | Cell::Swept) {
                            p.cell[s.0][s.1] = if p.mine[s.0][s.1] {
                                Cell::Discovered
                            } else {
                                Cell::Shown
                            };
                        }
                    }
                }
            }
            // Rule 7: every mine on the board discovered -> the fog lifts.
            let hidden = (3..7).any(|r| (0..8).any(|f| p.mine[r][f] && p.cell[r][f] != Cell::Discovered));
            if !hidden {
                for r in 3..7 {
                    for f in 0..8 {
                        if matches!(p.cell[r][f], Cell::Fogged | Cell::Swept) {
                            p.cell[r][f] = Cell::Shown;
                        }
                    }
                }
            }
            p.side = us.other();
            p
        }

        pub fn perft(&self, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            let moves = self.legal_unsorted();
            if depth == 1 {
                return moves.len() as u64;
            }
            moves.iter().map(|m| self.play(m).perft(depth - 1)).sum()
        }
    }
}

// ---------------------------------------------------------------------------------
// Comparison machinery
// ---------------------------------------------------------------------------------

fn sapper_moves(pos: &SPos) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

fn ref_moves(pos: &RPos) -> Vec<String> {
    pos.legal_moves().iter().map(|m| m.uci()).collect()
}

/// Plays the move with UCI code `uci` in Sapper (through the rules-level entry point,
/// which for a full-information position is `play`).
fn sapper_play(pos: &SPos, uci: &str) -> Option<SPos> {
    let m = pos.legal_moves().into_iter().find(|m| m.to_string() == uci)?;
    let mut next = *pos;
    if pos.state().mines().is_some() {
        next.play(m);
    } else {
        Minesweeper::play_given(&mut next, m).ok()?;
    }
    Some(next)
}

#[derive(Default, Debug)]
struct Features {
    nodes: usize,
    samples: usize,
    with_numbers: usize,
    with_discovered: usize,
    with_swept: usize,
    fog_lifted_samples: usize,
    in_check: usize,
    /// Nodes where a move was refused by rule 13 only, while in check (interposition).
    interposition_refused: usize,
    /// ... while not in check (a pinned piece along its pin line), by a slider.
    pinned_slider_refused: usize,
    /// Nodes where a move onto a fogged unswept square needed rule 13 and was legal
    /// because no consistent layout mines it, with a revealed 0 next to it.
    proved_safe_by_zero: usize,
    /// ... proved safe otherwise (by the counter and the numbers together).
    proved_safe_otherwise: usize,
    /// Nodes where a rule-13 move onto a swept square was legal.
    swept_landing_allowed: usize,
    fog_lifts: usize,
    promotions: usize,
    sapper_on_fog: usize,
    sapper_removed_mine: usize,
    destroyed: usize,
    king_removed_mine: usize,
    perft3: usize,
    inference_layouts_max: u64,
}

#[derive(Default)]
struct Checker {
    mismatches: Vec<String>,
    f: Features,
}

impl Checker {
    fn fail(&mut self, what: String) {
        self.mismatches.push(what);
    }

    /// Compares the legal move sets of one node.
    fn compare_moves(&mut self, r: &RPos, s: &SPos, context: &str) -> bool {
        let ours = ref_moves(r);
        let theirs = sapper_moves(s);
        if ours == theirs {
            return true;
        }
        let only_ref: Vec<&String> = ours.iter().filter(|m| !theirs.contains(m)).collect();
        let only_sapper: Vec<&String> = theirs.iter().filter(|m| !ours.contains(m)).collect();
        self.fail(format!(
            "legal moves differ ({context}) in {}: only reference {only_ref:?}, only sapper {only_sapper:?}",
            r.fen()
        ));
        false
    }

    /// Counts the rule-13 situations of a node.
    fn note_node(&mut self, r: &RPos) {
        self.f.nodes += 1;
        let in_check = r.in_check();
        let (mut refused_check, mut refused_pin, mut zero, mut other, mut swept) =
            (false, false, false, false, false);
        for m in r.pseudo_moves() {
            if m.kind != MoveKind::Normal || !r.chess_legal(&m) || !r.rule13_applies(&m) {
                continue;
            }
            let cell = r.cell_at(m.to);
            if r.may_hold_mine(m.to) {
                if in_check {
                    refused_check = true;
                } else if matches!(r.at(m.from), Some((_, Kind::Bishop | Kind::Rook | Kind::Queen))) {
                    refused_pin = true;
                }
            } else if cell == Cell::Fogged {
                let by_zero = reference::neighbours(m.to)
                    .any(|s| in_zone(s) && r.cell_at(s) == Cell::Shown && r.number(s) == 0);
                if by_zero {
                    zero = true;
                } else {
                    other = true;
                }
            } else if cell == Cell::Swept {
                swept = true;
            }
        }
        self.f.interposition_refused += refused_check as usize;
        self.f.pinned_slider_refused += refused_pin as usize;
        self.f.proved_safe_by_zero += zero as usize;
        self.f.proved_safe_otherwise += other as usize;
        self.f.swept_landing_allowed += swept as usize;
    }

    /// Counts what a move did.
    fn note_move(&mut self, before: &RPos, m: &RMove, after: &RPos) {
        match m.kind {
            MoveKind::Promotion => self.f.promotions += 1,
            MoveKind::Sapper => {
                let front = reference::offset(m.from, before.side.forward(), 0).unwrap();
                if in_zone(front) && matches!(before.cell_at(front), Cell::Fogged | Cell::Swept) {
                    self.f.sapper_on_fog += 1;
                }
                if after.counter < before.counter {
                    self.f.sapper_removed_mine += 1;
                }
            }
            _ => {
                if after.counter < before.counter {
                    if matches!(before.at(m.from), Some((_, Kind::King))) {
                        self.f.king_removed_mine += 1;
                    } else {
                        self.f.destroyed += 1;
                    }
                }
            }
        }
        if before.has_fog() && !after.has_fog() {
            self.f.fog_lifts += 1;
        }
    }

    fn finish(self, name: &str) -> Features {
        println!("{name}: {:#?}", self.f);
        if !self.mismatches.is_empty() {
            let mut text = format!("{name}: {} mismatches:\n", self.mismatches.len());
            for m in self.mismatches.iter().take(PRINT_LIMIT) {
                text.push_str(m);
                text.push('\n');
            }
            if self.mismatches.len() > PRINT_LIMIT {
                text.push_str(&format!("... and {} more\n", self.mismatches.len() - PRINT_LIMIT));
            }
            panic!("{text}");
        }
        self.f
    }
}

/// The full checks of one sampled position, given by its full-form FEN.
fn check_sample(chk: &mut Checker, fen: &str) {
    chk.f.samples += 1;
    let r = match RPos::parse(fen) {
        Ok(r) => r,
        Err(e) => {
            chk.fail(format!("reference refuses {fen}: {e}"));
            return;
        }
    };
    let s = match SPos::from_fen(fen) {
        Ok((s, warnings)) => {
            if !warnings.is_empty() {
                chk.fail(format!("sapper warns on {fen}: {warnings:?}"));
            }
            s
        }
        Err(e) => {
            chk.fail(format!("sapper refuses {fen}: {e}"));
            return;
        }
    };
    // Features.
    let zone: Vec<(usize, usize)> = (3..7).flat_map(|r| (0..8).map(move |f| (r, f))).collect();
    if zone
        .iter()
        .any(|&q| r.cell_at(q) == Cell::Shown && r.number(q) > 0)
    {
        chk.f.with_numbers += 1;
    }
    if zone.iter().any(|&q| r.cell_at(q) == Cell::Discovered) {
        chk.f.with_discovered += 1;
    }
    if zone.iter().any(|&q| r.cell_at(q) == Cell::Swept) {
        chk.f.with_swept += 1;
    }
    if !r.has_fog() {
        chk.f.fog_lifted_samples += 1;
    }
    if r.in_check() {
        chk.f.in_check += 1;
    }

    // Round trips.
    if r.fen() != fen {
        chk.fail(format!("reference round trip: {fen} -> {}", r.fen()));
    }
    if s.to_fen() != fen {
        chk.fail(format!("sapper round trip: {fen} -> {}", s.to_fen()));
    }

    // The public form and its inference.
    let public = r.public_fen();
    if s.to_public_fen() != public {
        chk.fail(format!(
            "public FEN of {fen}: reference {public}, sapper {}",
            s.to_public_fen()
        ));
    }
    match (RPos::parse(&public), SPos::from_fen(&public)) {
        (Ok(rp), Ok((sp, _))) => {
            if rp.public_fen() != public {
                chk.fail(format!(
                    "reference public round trip: {public} -> {}",
                    rp.public_fen()
                ));
            }
            if sp.to_fen() != public {
                chk.fail(format!("sapper public round trip: {public} -> {}", sp.to_fen()));
            }
            let ri = rp.inference();
            chk.f.inference_layouts_max = chk.f.inference_layouts_max.max(ri.layouts);
            for (what, si) in [("public", sp.mine_inference()), ("full", s.mine_inference())] {
                if si.layouts != ri.layouts || si.mine_layouts != ri.mine_layouts {
                    chk.fail(format!(
                        "inference ({what} position) of {public}: reference {} layouts {:?}, sapper {} layouts {:?}",
                        ri.layouts, ri.mine_layouts, si.layouts, si.mine_layouts
                    ));
                }
            }
            if ri.layouts == 0 {
                chk.fail(format!("no layout for the public form {public}"));
            }
            // Legality is judged on public information only.
            chk.compare_moves(&rp, &sp, "public form");
            if ref_moves(&rp) != ref_moves(&r) {
                chk.fail(format!(
                    "reference: public and full forms of {fen} have different moves"
                ));
            }
        }
        (a, b) => chk.fail(format!(
            "public form {public} refused: reference {:?}, sapper {:?}",
            a.err(),
            b.err()
        )),
    }

    // Moves, perft and the children.
    if !chk.compare_moves(&r, &s, "sample") {
        return;
    }
    for d in 2..=3 {
        let a = r.perft(d);
        let b = perft(&s, d);
        if a != b {
            chk.fail(format!("perft {d} of {fen}: reference {a}, sapper {b}"));
        }
    }
    chk.f.perft3 += 1;
    for m in r.legal_moves() {
        let child = r.play(&m);
        match sapper_play(&s, &m.uci()) {
            Some(sc) => {
                if sc.to_fen() != child.fen() {
                    chk.fail(format!(
                        "FEN after {} from {fen}: reference {}, sapper {}",
                        m.uci(),
                        child.fen(),
                        sc.to_fen()
                    ));
                }
            }
            None => chk.fail(format!("sapper cannot play {} in {fen}", m.uci())),
        }
    }
}

// ---------------------------------------------------------------------------------
// Position generation
// ---------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug)]
enum Style {
    Uniform,
    Explorer,
    Attacker,
    Pusher,
}

const STYLES: [Style; 6] = [
    Style::Explorer,
    Style::Explorer,
    Style::Attacker,
    Style::Attacker,
    Style::Pusher,
    Style::Uniform,
];

fn weight(r: &RPos, m: &RMove, style: Style) -> f64 {
    let mut w = 1.0;
    match m.kind {
        MoveKind::Sapper => {
            let front = reference::offset(m.from, r.side.forward(), 0).unwrap();
            return match in_zone(front).then(|| r.cell_at(front)) {
                Some(Cell::Discovered) => 30.0,
                Some(Cell::Fogged) => 12.0,
                _ => 0.1,
            };
        }
        MoveKind::Promotion => return 60.0,
        MoveKind::Castle => return 4.0,
        MoveKind::Normal => {}
    }
    let capture = r.at(m.to).is_some();
    let cell = in_zone(m.to).then(|| r.cell_at(m.to));
    match cell {
        Some(Cell::Fogged) => {
            w *= if matches!(style, Style::Explorer) {
                5.0
            } else {
                2.0
            }
        }
        Some(Cell::Swept) => w *= 3.0,
        Some(Cell::Discovered) => w *= 4.0,
        _ => {}
    }
    let pawn = matches!(r.at(m.from), Some((_, Kind::Pawn)));
    match style {
        Style::Attacker => {
            if capture {
                w *= 4.0;
            }
            if r.play(m).in_check() {
                w *= 10.0;
            }
        }
        Style::Pusher => {
            if pawn {
                w *= 5.0;
            }
        }
        Style::Explorer => {
            if capture {
                w *= 2.0;
            }
        }
        Style::Uniform => {}
    }
    w
}

fn pick(rng: &mut StdRng, r: &RPos, moves: &[RMove], style: Style) -> RMove {
    let weights: Vec<f64> = moves.iter().map(|m| weight(r, m, style)).collect();
    let total: f64 = weights.iter().sum();
    let mut x = rng.gen::<f64>() * total;
    for (m, w) in moves.iter().zip(&weights) {
        if x < *w {
            return *m;
        }
        x -= w;
    }
    *moves.last().unwrap()
}

/// Plays a random game from `start` in both implementations, comparing as it goes;
/// pushes sampled FENs (new ones only) to `samples`.
#[allow(clippy::too_many_arguments)]
fn playout(
    chk: &mut Checker,
    rng: &mut StdRng,
    start: &str,
    style: Style,
    max_plies: usize,
    sample_p: f64,
    samples: &mut Vec<String>,
    seen: &mut HashSet<String>,
) {
    let (Ok(mut r), Ok((mut s, _))) = (RPos::parse(start), SPos::from_fen(start)) else {
        chk.fail(format!("playout start refused: {start}"));
        return;
    };
    let mut line: Vec<String> = Vec::new();
    let mut take = |fen: String, samples: &mut Vec<String>| {
        if seen.insert(fen.clone()) {
            samples.push(fen);
        }
    };
    for _ in 0..max_plies {
        let moves = r.legal_moves();
        chk.compare_moves(&r, &s, &format!("playout from {start} after {}", line.join(" ")));
        chk.note_node(&r);
        if moves.is_empty() {
            break;
        }
        // Positions with fog are the interesting ones: sample them more.
        // (and checks, for rule 13).
        let p = match (r.has_fog(), r.in_check()) {
            (true, true) => 1.0,
            (true, false) => sample_p,
            (false, _) => sample_p / 4.0,
        };
        if rng.gen_bool(p) {
            take(r.fen(), samples);
        }
        let m = pick(rng, &r, &moves, style);
        let uci = m.uci();
        let next = r.play(&m);
        chk.note_move(&r, &m, &next);
        let Some(next_s) = sapper_play(&s, &uci) else {
            chk.fail(format!("sapper refuses {uci} in {}", r.fen()));
            return;
        };
        line.push(uci.clone());
        if next_s.to_fen() != next.fen() || next_s.to_public_fen() != next.public_fen() {
            chk.fail(format!(
                "FEN after {uci} from {}: reference {} (public {}), sapper {} (public {})",
                r.fen(),
                next.fen(),
                next.public_fen(),
                next_s.to_fen(),
                next_s.to_public_fen()
            ));
            return;
        }
        r = next;
        s = next_s;
    }
    take(r.fen(), samples);
}

/// The full-information start position with four random mines on ranks 4-7.
fn random_start(rng: &mut StdRng) -> String {
    let mut field = ['?'; 32];
    let mut placed = 0;
    while placed < 4 {
        let i = rng.gen_range(0..32);
        if field[i] == '?' {
            field[i] = 'M';
            placed += 1;
        }
    }
    let ranks: Vec<String> = (0..4)
        .rev()
        .map(|zr| field[zr * 8..zr * 8 + 8].iter().collect())
        .collect();
    format!(
        "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 {} 4",
        ranks.join("/")
    )
}

#[derive(Clone, Copy, Debug)]
enum Shape {
    Sparse,
    LineCheck,
    Pin,
    PawnsAtFog,
    NearLift,
    Promotion,
}

const SHAPES: [Shape; 10] = [
    Shape::Sparse,
    Shape::LineCheck,
    Shape::LineCheck,
    Shape::LineCheck,
    Shape::Pin,
    Shape::Pin,
    Shape::Pin,
    Shape::PawnsAtFog,
    Shape::NearLift,
    Shape::Promotion,
];

/// A random full-form FEN with a random minefield (revealed areas, discovered and
/// swept squares) and a piece layout of the given shape; `None` if the attempt came
/// out invalid.
fn try_random_fen(rng: &mut StdRng, shape: Shape) -> Option<String> {
    let mut p = RPos::empty();
    let zone: Vec<(usize, usize)> = (3..7).flat_map(|r| (0..8).map(move |f| (r, f))).collect();
    // The minefield.
    let counter = match shape {
        Shape::NearLift => rng.gen_range(1..=4),
        Shape::LineCheck | Shape::Pin => [4, 4, 4, 3, 2][rng.gen_range(0..5)],
        _ => [4, 4, 4, 4, 4, 3, 3, 2, 1, 0][rng.gen_range(0..10)],
    };
    let mut mines = Vec::new();
    while mines.len() < counter {
        let q = zone[rng.gen_range(0..32)];
        if !mines.contains(&q) {
            mines.push(q);
        }
    }
    for &q in &zone {
        p.cell[q.0][q.1] = Cell::Fogged;
    }
    for &q in &mines {
        p.mine[q.0][q.1] = true;
    }
    p.counter = counter as u32;
    let mut revealed = [[false; 8]; 10];
    let centres = match shape {
        Shape::NearLift => rng.gen_range(2..=6),
        Shape::LineCheck | Shape::Pin => rng.gen_range(0..=2),
        _ => rng.gen_range(0..=3),
    };
    for _ in 0..centres {
        let c = (rng.gen_range(2..=7), rng.gen_range(0..8));
        revealed[c.0][c.1] = true;
        for q in reference::neighbours(c) {
            revealed[q.0][q.1] = true;
        }
    }
    let single = rng.gen_range(0.0..0.08);
    for &q in &zone {
        if rng.gen_bool(single) {
            revealed[q.0][q.1] = true;
        }
    }
    if let Shape::NearLift = shape {
        // Every mine but one discovered.
        for &q in &mines[1..] {
            revealed[q.0][q.1] = true;
        }
    }
    let sweep = if rng.gen_bool(0.5) {
        rng.gen_range(0.05..0.3)
    } else {
        0.0
    };
    for &q in &zone {
        if revealed[q.0][q.1] {
            p.cell[q.0][q.1] = if p.mine[q.0][q.1] {
                Cell::Discovered
            } else {
                Cell::Shown
            };
        } else if !p.mine[q.0][q.1] && rng.gen_bool(sweep) {
            p.cell[q.0][q.1] = Cell::Swept;
        }
    }
    if zone
        .iter()
        .all(|q| !p.mine[q.0][q.1] || p.cell_at(*q) == Cell::Discovered)
    {
        for &q in &zone {
            if matches!(p.cell_at(q), Cell::Fogged | Cell::Swept) {
                p.cell[q.0][q.1] = Cell::Shown;
            }
        }
    }

    // The pieces.
    let all: Vec<(usize, usize)> = (0..10).flat_map(|r| (0..8).map(move |f| (r, f))).collect();
    let mut reserved = [[false; 8]; 10];
    let free = |p: &RPos, reserved: &[[bool; 8]; 10], q: (usize, usize)| {
        p.at(q).is_none() && p.cell_at(q) == Cell::Shown && !reserved[q.0][q.1]
    };
    let random_free = |rng: &mut StdRng, p: &RPos, reserved: &[[bool; 8]; 10]| -> Option<(usize, usize)> {
        for _ in 0..200 {
            let q = all[rng.gen_range(0..80)];
            if free(p, reserved, q) {
                return Some(q);
            }
        }
        None
    };
    let us = if rng.gen_bool(0.5) {
        Color::White
    } else {
        Color::Black
    };
    let them = us.other();
    p.side = us;
    let king_sq = random_free(rng, &p, &reserved)?;
    p.board[king_sq.0][king_sq.1] = Some((us, Kind::King));
    let dirs: [(i32, i32); 8] = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];
    match shape {
        Shape::LineCheck | Shape::Pin => {
            let (dr, df) = dirs[rng.gen_range(0..8)];
            let mut line = Vec::new();
            let mut cur = king_sq;
            while let Some(q) = reference::offset(cur, dr, df) {
                line.push(q);
                cur = q;
            }
            if line.len() < 3 {
                return None;
            }
            let diagonal = dr != 0 && df != 0;
            let slider = |rng: &mut StdRng| match (diagonal, rng.gen_bool(0.35)) {
                (_, true) => Kind::Queen,
                (true, false) => Kind::Bishop,
                (false, false) => Kind::Rook,
            };
            let attacker_at = rng.gen_range(2..line.len());
            let a = line[attacker_at];
            if !free(&p, &reserved, a) {
                return None;
            }
            p.board[a.0][a.1] = Some((them, slider(rng)));
            let mut first_empty = 0;
            if let Shape::Pin = shape {
                // Our slider somewhere between, with the zone between it and the
                // attacker.
                let at = rng.gen_range(0..attacker_at.min(3));
                let q = line[at];
                if !free(&p, &reserved, q) {
                    return None;
                }
                let kind = if rng.gen_bool(0.8) {
                    slider(rng)
                } else {
                    [Kind::Knight, Kind::Pawn][rng.gen_range(0..2)]
                };
                if kind == Kind::Pawn && (q.0 == 0 || q.0 == 9) {
                    return None;
                }
                p.board[q.0][q.1] = Some((us, kind));
                first_empty = at + 1;
                for q in &line[..at] {
                    reserved[q.0][q.1] = true;
                }
            }
            if !line[first_empty..attacker_at].iter().any(|&q| in_zone(q)) {
                return None;
            }
            for q in &line[first_empty..attacker_at] {
                reserved[q.0][q.1] = true;
            }
            if let Shape::LineCheck = shape {
                // Pieces that can interpose on the zone squares of the line.
                let mut targets: Vec<(usize, usize)> = line[first_empty..attacker_at]
                    .iter()
                    .copied()
                    .filter(|&q| in_zone(q))
                    .collect();
                if rng.gen_bool(0.8) {
                    targets.retain(|&q| p.cell_at(q) != Cell::Shown);
                }
                let mut helpers = Vec::new();
                for &q in &all {
                    if !free(&p, &reserved, q) {
                        continue;
                    }
                    for kind in [Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen, Kind::Pawn] {
                        if kind == Kind::Pawn && (q.0 == 0 || q.0 == 9) {
                            continue;
                        }
                        let mut probe = p;
                        probe.board[q.0][q.1] = Some((us, kind));
                        if probe
                            .pseudo_moves()
                            .iter()
                            .any(|m| m.from == q && m.kind == MoveKind::Normal && targets.contains(&m.to))
                        {
                            helpers.push((q, kind));
                        }
                    }
                }
                for _ in 0..rng.gen_range(1..=3) {
                    if helpers.is_empty() {
                        break;
                    }
                    let (q, kind) = helpers[rng.gen_range(0..helpers.len())];
                    if free(&p, &reserved, q) {
                        p.board[q.0][q.1] = Some((us, kind));
                    }
                }
            }
        }
        Shape::PawnsAtFog => {
            for color in [us, them] {
                for _ in 0..rng.gen_range(1..=4) {
                    // A pawn whose front square is fogged, swept or a discovered mine.
                    let candidates: Vec<(usize, usize)> = all
                        .iter()
                        .copied()
                        .filter(|&q| q.0 > 0 && q.0 < 9 && free(&p, &reserved, q))
                        .filter(|&q| {
                            reference::offset(q, color.forward(), 0)
                                .is_some_and(|front| in_zone(front) && p.cell_at(front) != Cell::Shown)
                        })
                        .collect();
                    if candidates.is_empty() {
                        break;
                    }
                    let q = candidates[rng.gen_range(0..candidates.len())];
                    p.board[q.0][q.1] = Some((color, Kind::Pawn));
                }
            }
        }
        Shape::Promotion => {
            for (color, rank) in [(Color::White, 8), (Color::Black, 1)] {
                for _ in 0..rng.gen_range(1..=3) {
                    let q = (rank, rng.gen_range(0..8));
                    if free(&p, &reserved, q) {
                        p.board[q.0][q.1] = Some((color, Kind::Pawn));
                    }
                }
            }
        }
        Shape::Sparse | Shape::NearLift => {}
    }
    // Their king, away from ours.
    let mut their_king = None;
    for _ in 0..50 {
        let q = random_free(rng, &p, &reserved)?;
        if q.0.abs_diff(king_sq.0) > 1 || q.1.abs_diff(king_sq.1) > 1 {
            their_king = Some(q);
            break;
        }
    }
    let tk = their_king?;
    p.board[tk.0][tk.1] = Some((them, Kind::King));
    // More pieces.
    let extra_max = match shape {
        Shape::NearLift => 8,
        Shape::LineCheck | Shape::Pin => 5,
        _ => 6,
    };
    for color in [us, them] {
        for _ in 0..rng.gen_range(0..=extra_max) {
            let kind = [
                Kind::Pawn,
                Kind::Pawn,
                Kind::Pawn,
                Kind::Knight,
                Kind::Knight,
                Kind::Bishop,
                Kind::Rook,
                Kind::Queen,
            ][rng.gen_range(0..8)];
            let Some(q) = random_free(rng, &p, &reserved) else {
                break;
            };
            if kind == Kind::Pawn && (q.0 == 0 || q.0 == 9) {
                continue;
            }
            p.board[q.0][q.1] = Some((color, kind));
        }
    }
    // Castling where king and rook stand at home.
    for (i, (home, rook_file, color)) in [
        (0, 7, Color::White),
        (0, 0, Color::White),
        (9, 7, Color::Black),
        (9, 0, Color::Black),
    ]
    .into_iter()
    .enumerate()
    {
        p.castling[i] = p.board[home][4] == Some((color, Kind::King))
            && p.board[home][rook_file] == Some((color, Kind::Rook))
            && rng.gen_bool(0.8);
    }
    p.halfmove = rng.gen_range(0..30);
    p.fullmove = rng.gen_range(1..60);
    if reference::king_attacked(&p.board, them) {
        return None;
    }
    if let Shape::LineCheck = shape {
        if !p.in_check() {
            return None;
        }
    }
    Some(p.fen())
}

fn random_fen(rng: &mut StdRng, shape: Shape) -> String {
    loop {
        if let Some(fen) = try_random_fen(rng, shape) {
            if RPos::parse(&fen).is_ok() {
                return fen;
            }
        }
    }
}

// ---------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------

/// Playouts from the full-information start position with random mine layouts.
#[test]
fn differential_playouts_from_start() {
    let mut rng = StdRng::seed_from_u64(0x5a99e7);
    let mut chk = Checker::default();
    let mut samples = Vec::new();
    let mut seen = HashSet::new();
    let target = 1_300;
    let mut game = 0;
    while samples.len() < target {
        let start = random_start(&mut rng);
        let style = STYLES[game % STYLES.len()];
        let plies = rng.gen_range(20..120);
        playout(
            &mut chk,
            &mut rng,
            &start,
            style,
            plies,
            0.12,
            &mut samples,
            &mut seen,
        );
        game += 1;
    }
    for fen in &samples {
        check_sample(&mut chk, fen);
    }
    let f = chk.finish("playouts from the start");
    assert!(f.samples >= target);
    assert!(f.with_numbers >= 300, "too few positions with numbers");
    assert!(
        f.with_discovered >= 100,
        "too few positions with discovered mines"
    );
    assert!(f.destroyed >= 50, "too few pieces destroyed by mines");
    assert!(f.fog_lifts >= 10, "too few fog lifts");
    assert!(f.fog_lifted_samples >= 50, "too few positions after the fog lift");
    assert!(f.promotions >= 10, "too few promotions");
    assert!(
        f.sapper_removed_mine >= 10,
        "too few sapper actions removing a mine"
    );
    assert!(f.in_check >= 50, "too few checks");
    // Checks across the fog are rare from the start position; the generated
    // positions cover rule 13 in bulk.
    assert!(f.interposition_refused >= 2, "too few refused interpositions");
    assert!(
        f.proved_safe_by_zero + f.proved_safe_otherwise >= 1,
        "too few proofs of safety"
    );
}

/// Random FENs (revealed areas, swept squares, checks across the fog, pins, pawns
/// facing the fog, nearly cleared minefields, promotions), each followed by a short
/// playout.
#[test]
fn differential_generated_positions() {
    let mut rng = StdRng::seed_from_u64(0xf0e5);
    let mut chk = Checker::default();
    let mut samples = Vec::new();
    let mut seen = HashSet::new();
    let fens = 1_000;
    for i in 0..fens {
        let shape = SHAPES[i % SHAPES.len()];
        let fen = random_fen(&mut rng, shape);
        if seen.insert(fen.clone()) {
            samples.push(fen.clone());
        }
        let style = STYLES[i % STYLES.len()];
        let plies = rng.gen_range(2..30);
        playout(
            &mut chk,
            &mut rng,
            &fen,
            style,
            plies,
            0.15,
            &mut samples,
            &mut seen,
        );
    }
    for fen in &samples {
        check_sample(&mut chk, fen);
    }
    let f = chk.finish("generated positions");
    assert!(f.samples >= 1_500);
    assert!(f.with_numbers >= 300, "too few positions with numbers");
    assert!(
        f.with_discovered >= 200,
        "too few positions with discovered mines"
    );
    assert!(f.with_swept >= 200, "too few positions with swept squares");
    assert!(f.in_check >= 200, "too few checks");
    assert!(f.interposition_refused >= 100, "too few refused interpositions");
    assert!(
        f.pinned_slider_refused >= 50,
        "too few refused pinned-slider moves"
    );
    assert!(f.proved_safe_by_zero >= 20, "too few squares proved safe by a 0");
    assert!(
        f.proved_safe_otherwise >= 5,
        "too few squares proved safe by counting"
    );
    assert!(
        f.swept_landing_allowed >= 20,
        "too few rule-13 landings on swept squares"
    );
    assert!(f.fog_lifts >= 20, "too few fog lifts");
    assert!(f.sapper_on_fog >= 50, "too few sapper actions on fogged squares");
    assert!(f.promotions >= 50, "too few promotions");
    assert!(f.king_removed_mine >= 5, "too few mines removed by a king");
}

// ---------------------------------------------------------------------------------
// Hand-made positions
// ---------------------------------------------------------------------------------

struct Hand<'a> {
    chk: &'a mut Checker,
}

impl Hand<'_> {
    /// Both implementations accept `fen`, agree on its moves, and have every move of
    /// `present` and none of `absent`.
    fn moves(&mut self, name: &str, fen: &str, present: &[&str], absent: &[&str]) {
        let (r, s) = match (RPos::parse(fen), SPos::from_fen(fen)) {
            (Ok(r), Ok((s, _))) => (r, s),
            (a, b) => {
                self.chk.fail(format!(
                    "{name}: {fen} refused: reference {:?}, sapper {:?}",
                    a.err(),
                    b.err()
                ));
                return;
            }
        };
        self.chk.compare_moves(&r, &s, name);
        for (who, list) in [("reference", ref_moves(&r)), ("sapper", sapper_moves(&s))] {
            for m in present {
                if !list.iter().any(|x| x == m) {
                    self.chk
                        .fail(format!("{name}: {who} lacks {m} in {fen} (has {list:?})"));
                }
            }
            for m in absent {
                if list.iter().any(|x| x == m) {
                    self.chk.fail(format!("{name}: {who} allows {m} in {fen}"));
                }
            }
        }
    }

    /// After `mv` from `fen`, both implementations write `expected`.
    fn after(&mut self, name: &str, fen: &str, mv: &str, expected: &str) {
        let (r, s) = match (RPos::parse(fen), SPos::from_fen(fen)) {
            (Ok(r), Ok((s, _))) => (r, s),
            (a, b) => {
                self.chk.fail(format!(
                    "{name}: {fen} refused: reference {:?}, sapper {:?}",
                    a.err(),
                    b.err()
                ));
                return;
            }
        };
        match r.legal_moves().into_iter().find(|m| m.uci() == mv) {
            Some(m) => {
                let got = r.play(&m).fen();
                if got != expected {
                    self.chk.fail(format!(
                        "{name}: reference after {mv}: {got}, expected {expected}"
                    ));
                }
            }
            None => self.chk.fail(format!("{name}: reference lacks {mv} in {fen}")),
        }
        match sapper_play(&s, mv) {
            Some(sc) => {
                if sc.to_fen() != expected {
                    self.chk.fail(format!(
                        "{name}: sapper after {mv}: {}, expected {expected}",
                        sc.to_fen()
                    ));
                }
            }
            None => self.chk.fail(format!("{name}: sapper lacks {mv} in {fen}")),
        }
    }

    /// The public form of `fen` has `layouts` consistent layouts and the given mine
    /// layout counts on the named squares, in both implementations.
    fn inference(&mut self, name: &str, fen: &str, layouts: u64, squares: &[(&str, u64)]) {
        let (r, s) = match (RPos::parse(fen), SPos::from_fen(fen)) {
            (Ok(r), Ok((s, _))) => (r, s),
            (a, b) => {
                self.chk.fail(format!(
                    "{name}: {fen} refused: reference {:?}, sapper {:?}",
                    a.err(),
                    b.err()
                ));
                return;
            }
        };
        let ri = r.inference();
        let si = s.mine_inference();
        for (who, got_layouts, got) in [
            ("reference", ri.layouts, ri.mine_layouts),
            ("sapper", si.layouts, si.mine_layouts),
        ] {
            if got_layouts != layouts {
                self.chk.fail(format!(
                    "{name}: {who} counts {got_layouts} layouts, expected {layouts}"
                ));
            }
            for &(sq, n) in squares {
                let b = sq.as_bytes();
                let file = (b[0] - b'a') as usize;
                let rank: usize = sq[1..].parse().unwrap();
                let i = (rank - 4) * 8 + file;
                if got[i] != n {
                    self.chk.fail(format!(
                        "{name}: {who} has {} layouts with a mine on {sq}, expected {n}",
                        got[i]
                    ));
                }
            }
        }
    }
}

/// Hand-made positions with hand-computed expectations, one or more per rule.
#[test]
fn hand_made_positions() {
    let mut chk = Checker::default();
    let mut h = Hand { chk: &mut chk };
    // --- Rule 13: interposing against a check. -------------------------------------
    // The rook on e10 checks along the e-file; e4-e7 are fogged and may hold a mine.
    h.moves(
        "interposition on a possibly mined square",
        "k3r3/8/8/8/8/8/8/2N5/7P/4K3 w - - 0 1 M??????M/M??????M/????????/???????? 4",
        &["c3e2", "e1d1", "e1d2", "e1f1", "e1f2"],
        &["c3e4", "h2h2", "h2h3", "e1e2"],
    );
    // The same with b4, c4, d4 revealed showing 0: e4 (next to d4) is proved safe.
    h.moves(
        "interposition on a square proved safe by a 0",
        "k3r3/8/8/8/8/8/8/2N5/7P/4K3 w - - 0 1 M??????M/M??????M/????????/?000???? 4",
        &["c3e2", "c3e4"],
        &["h2h2"],
    );
    // Counter 1 and g6 = 1 with h7 its only fogged neighbour: the mine is on h7, so
    // every other fogged square (c4 among them) is proved safe by counting.
    let counted = "k1r5/8/8/8/8/8/8/4N3/8/2K5 w - - 0 1 ?????01M/?????011/?????000/???????? 1";
    h.moves(
        "interposition proved safe by counting",
        counted,
        &["e3c2", "e3c4"],
        &[],
    );
    h.inference(
        "inference, one forced mine",
        counted,
        1,
        &[("h7", 1), ("c4", 0), ("a4", 0)],
    );
    // A second mine anywhere on the 16 fogged squares not proved safe: c4 may hold it.
    let counted2 = "k1r5/8/8/8/8/8/8/4N3/8/2K5 w - - 0 1 ?????01M/?????011/M????000/???????? 2";
    h.moves(
        "interposition, one mine left free",
        counted2,
        &["e3c2"],
        &["e3c4"],
    );
    h.inference(
        "inference, one forced and one free mine",
        counted2,
        16,
        &[
            ("h7", 16),
            ("c4", 1),
            ("a5", 1),
            ("e4", 0),
            ("e7", 0),
            ("h4", 0),
            ("g6", 0),
        ],
    );
    // A swept square is known mine-free.
    h.moves(
        "interposition on a swept square",
        "k1r5/8/8/8/8/8/8/4N3/8/2K5 w - - 0 1 M??????M/M??????M/????????/??-????? 4",
        &["e3c2", "e3c4"],
        &[],
    );
    // A discovered mine: the interposing knight would be destroyed.
    h.moves(
        "interposition on a discovered mine",
        "k3r3/8/8/8/8/8/8/3N4/8/4K3 w - - 0 1 M??????M/????????/????*???/M??????? 4",
        &["e1d1", "e1d2", "e1f1", "e1f2"],
        &["d3e5", "d3f4"],
    );
    // Not in check, a knight may land on a discovered mine: destroyed with the mine;
    // the ring is revealed (no cascade) and the numbers count the remaining mines.
    let destroy = "k7/8/8/8/8/8/8/3N4/8/4K3 w - - 3 10 M??????M/????????/????*???/M??????? 4";
    h.moves(
        "landing on a discovered mine is legal",
        destroy,
        &["d3e5", "d3f4"],
        &[],
    );
    h.after(
        "destroyed on a discovered mine",
        destroy,
        "d3e5",
        "k7/8/8/8/8/8/8/8/8/4K3 b - - 4 10 M??????M/???000??/???000??/M??000?? 3",
    );
    // --- Rule 13: pinned pieces. ----------------------------------------------------
    h.moves(
        "pinned rook along its pin line",
        "k3r3/8/8/8/8/8/8/4R3/7P/4K3 w - - 0 1 M??????M/M??????M/????????/???????? 4",
        &["e3e2", "e3e8", "e3e9", "e3e10", "h2h2", "h2h3", "h2h4"],
        &["e3e4", "e3e5", "e3e6", "e3e7", "e3d3", "e3f3"],
    );
    h.moves(
        "pinned bishop along its pin line",
        "k7/8/7q/8/8/8/8/2B5/8/K7 w - - 0 1 M??????M/M??????M/????????/???????? 4",
        &["c3b2", "c3h8"],
        &["c3d4", "c3e5", "c3f6", "c3g7", "c3b4", "c3d2"],
    );
    h.moves(
        "pinned bishop, one square of the line proved safe",
        "k7/8/7q/8/8/8/8/2B5/8/K7 w - - 0 1 M??????M/M??????M/????????/??0????? 4",
        &["c3b2", "c3h8", "c3d4"],
        &["c3e5", "c3f6", "c3g7"],
    );
    h.moves(
        "pinned pawn pushing onto the fog",
        "k3r3/8/8/8/8/8/8/8/4P3/4K3 w - - 0 1 M??????M/M??????M/????????/???????? 4",
        &["e2e3", "e2e2"],
        &["e2e4"],
    );
    // --- Kings. ----------------------------------------------------------------------
    // A king may step on fogged squares (rule 13 is for other pieces) ...
    let king_fog = "4k3/8/8/8/8/8/8/3K4/8/8 w - - 0 1 M??????M/M???????/????????/????M??? 4";
    h.moves(
        "king onto fogged squares",
        king_fog,
        &["d3c4", "d3d4", "d3e4"],
        &[],
    );
    // ... and removes a mine silently (rule 9).
    h.after(
        "king removes a fogged mine",
        king_fog,
        "d3e4",
        "4k3/8/8/8/8/8/4K3/8/8/8 b - - 1 1 M??????M/M???????/???000??/???000?? 3",
    );
    h.after(
        "king removes a discovered mine",
        "4k3/8/8/8/8/8/8/3K4/8/8 w - - 0 1 M???????/????????/????????/??01*??? 2",
        "d3e4",
        "4k3/8/8/8/8/8/4K3/8/8/8 b - - 1 1 M???????/????????/???000??/??0000?? 1",
    );
    // --- Rule 10: a pawn's double push onto a mine. -------------------------------
    h.after(
        "pawn destroyed by a double push",
        "4k3/8/8/8/8/8/8/8/4P3/4K3 w - - 7 1 M??????M/M???????/????????/????M??? 4",
        "e2e4",
        "4k3/8/8/8/8/8/8/8/8/4K3 b - - 0 1 M??????M/M???????/???000??/???000?? 3",
    );
    // --- Rule 11: the sapper action. -------------------------------------------------
    // Removes a discovered mine in front; numbers drop (rule 5).
    h.after(
        "sapper action on a discovered mine",
        "4k3/8/8/8/8/8/4P3/8/8/4K3 w - - 5 20 M??????M/????????/????*???/M???1??? 4",
        "e4e4",
        "4k3/8/8/8/8/8/4P3/8/8/4K3 b - - 0 20 M??????M/????????/????0???/M???0??? 3",
    );
    // Removes a fogged mine: the square is swept, the counter drops.
    h.after(
        "sapper action on a fogged mine",
        "4k3/8/8/8/8/8/8/4P3/8/4K3 w - - 0 1 M??????M/M???????/????????/????M??? 4",
        "e3e3",
        "4k3/8/8/8/8/8/8/4P3/8/4K3 b - - 0 1 M??????M/M???????/????????/????-??? 3",
    );
    // On a fogged square without a mine: swept, counter unchanged.
    h.after(
        "sapper action on a fogged empty square",
        "4k3/8/8/8/8/8/8/4P3/8/4K3 w - - 9 1 M??????M/M???????/????????/?M?????? 4",
        "e3e3",
        "4k3/8/8/8/8/8/8/4P3/8/4K3 b - - 0 1 M??????M/M???????/????????/?M??-??? 4",
    );
    // Removing the last undiscovered mine lifts the fog (rule 7).
    h.after(
        "sapper action lifts the fog",
        "4k3/8/8/8/8/8/8/4P3/8/4K3 w - - 0 1 *???????/????????/????????/????M??? 2",
        "e3e3",
        "4k3/8/8/8/8/8/8/4P3/8/4K3 b - - 0 1 *1000000/11000000/00000000/00000000 1",
    );
    // Available to every pawn when not in check, whatever is in front; never in check.
    h.moves(
        "sapper actions out of check",
        "4k3/8/8/8/8/8/8/4N3/4P2P/4K3 w - - 0 1 M??????M/M??????M/????????/???????? 4",
        &["e2e2", "h2h2"],
        &[],
    );
    h.moves(
        "no sapper action in check",
        "4k3/8/8/8/8/8/8/8/3P3P/r3K3 w - - 0 1 M??????M/M??????M/????????/???????? 4",
        &["e1e2", "e1f2"],
        &["d2d2", "h2h2"],
    );
    // --- Rules 4 and 7: reveal and fog lift by landing. --------------------------
    h.after(
        "landing reveals the last mine: the fog lifts",
        "4k3/8/8/8/8/8/6N1/8/8/4K3 w - - 0 1 ???????M/????????/????????/??????0? 1",
        "g4h6",
        "4k3/8/8/8/7N/8/8/8/8/4K3 b - - 1 1 0000001*/00000011/00000000/00000000 1",
    );
    h.after(
        "destroyed on the last mine: the fog lifts",
        "4k3/8/8/8/8/8/6N1/8/8/4K3 w - - 0 1 ????????/???????M/????????/??????0? 1",
        "g4h6",
        "4k3/8/8/8/8/8/8/8/8/4K3 b - - 1 1 00000000/00000000/00000000/00000000 0",
    );
    // A rook slides over a discovered mine unharmed (rule 10: only the landing counts).
    h.after(
        "sliding over a discovered mine",
        "4k3/8/8/8/8/R7/8/8/8/4K3 w - - 0 1 M???????/????????/0001*100/???????? 2",
        "a5h5",
        "4k3/8/8/8/8/7R/8/8/8/4K3 b - - 1 1 M???????/??????00/0001*100/??????00 2",
    );
    // --- Rule 12: promotion and castling. --------------------------------------------
    h.moves(
        "promotion to a queen only",
        "k7/4P3/8/8/8/8/8/8/8/4K3 w - - 0 1 M??????M/M??????M/????????/???????? 4",
        &["e9e10q", "e9e9"],
        &["e9e10", "e9e10n", "e9e10r", "e9e10b"],
    );
    h.after(
        "black promotes",
        "4k3/8/8/8/8/8/8/8/3p4/7K b - - 0 30 M??????M/M??????M/????????/???????? 4",
        "d2d1q",
        "4k3/8/8/8/8/8/8/8/8/3q3K w - - 0 31 M??????M/M??????M/????????/???????? 4",
    );
    h.moves(
        "castling: short through an attacked square refused, long allowed",
        "4kr2/8/8/8/8/8/8/8/8/R3K2R w KQ - 0 1 M??????M/M??????M/????????/???????? 4",
        &["e1c1", "e1d1", "e1d2"],
        &["e1g1", "e1f1", "e1f2"],
    );
    h.after(
        "castling long",
        "4kr2/8/8/8/8/8/8/8/8/R3K2R w KQ - 0 1 M??????M/M??????M/????????/???????? 4",
        "e1c1",
        "4kr2/8/8/8/8/8/8/8/8/2KR3R b - - 1 1 M??????M/M??????M/????????/???????? 4",
    );
    h.moves(
        "black castling",
        "r3k2r/8/8/8/8/8/8/8/8/3RK3 b kq - 0 1 M??????M/M??????M/????????/???????? 4",
        &["e10g10"],
        &["e10c10"],
    );
    // --- Inference on the public start position. ------------------------------------
    h.inference(
        "no information",
        "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ????????/????????/????????/???????? 4",
        35_960,
        &[("a4", 4_495), ("h7", 4_495)],
    );
    chk.finish("hand-made positions");
}

/// FENs both implementations must refuse.
#[test]
fn malformed_fens_are_refused() {
    let board = "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let valid = [
        format!("{board} M??????M/????????/????????/M??????M 4"),
        format!("{board} ????????/????????/????????/???????? 4"),
        format!("{board} ????????/????????/????????/???????? 3"),
        format!("{board} M??????M/????????/????????/M1?????M 4"),
        // The en-passant cases below without their en-passant square.
        "rnbqkbnr/pppppppp/8/8/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 ????????/????????/???000??/???000?? 4".into(),
    ];
    let corpus: Vec<(&str, String)> = vec![
        ("minefield rank too short", format!("{board} M??????/????????/????????/M??????M 3")),
        ("minefield rank too long", format!("{board} M??????M?/????????/????????/M??????M 4")),
        ("three minefield ranks", format!("{board} M??????M/????????/M??????M 3")),
        ("five minefield ranks", format!("{board} M??????M/????????/????????/????????/M??????M 4")),
        ("bad minefield character", format!("{board} M??????X/????????/????????/M??????M 3")),
        ("lowercase mine", format!("{board} m??????M/????????/????????/M??????M 3")),
        ("digit 9", format!("{board} ????????/????????/????????/9??????? 4")),
        ("counter below the M count", format!("{board} M??????M/????????/????????/M??????M 3")),
        ("counter above the M count", format!("{board} M??????M/????????/????????/M??????? 4")),
        ("counter 5", format!("{board} ????????/????????/????????/???????? 5")),
        ("counter 5 with five mines", format!("{board} M??????M/????????/????????/M??M???M 5")),
        ("counter not a number", format!("{board} ????????/????????/????????/???????? x")),
        ("negative counter", format!("{board} ????????/????????/????????/???????? -1")),
        ("digit disagrees with the mines", format!("{board} M??????M/????????/????????/M2?????M 4")),
        ("zero next to a mine", format!("{board} M??????M/????????/????????/M0?????M 4")),
        ("public: number beyond the counter", format!("{board} ????????/????????/????????/?5?????? 4")),
        ("public: an 8", format!("{board} ????????/????????/?8??????/???????? 4")),
        ("public: two ones, one mine", format!("{board} ????????/????????/????????/1??????1 1")),
        ("public: more discovered than the counter", format!("{board} *???????/*???????/????????/???????? 1")),
        (
            "piece on a fogged square",
            "rnbqkbnr/pppppppp/8/8/8/4N3/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1 ????????/????????/????????/???????? 4".into(),
        ),
        (
            "piece on a swept square",
            "rnbqkbnr/pppppppp/8/8/8/4N3/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1 ????????/????????/????-???/???????? 4".into(),
        ),
        (
            "piece on an M square",
            "rnbqkbnr/pppppppp/8/8/8/4N3/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1 M???????/????????/????M???/???????M 3".into(),
        ),
        (
            "piece on a discovered mine",
            "rnbqkbnr/pppppppp/8/8/8/4N3/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1 ????????/????????/????*???/???????? 4".into(),
        ),
        ("fog with every mine discovered", format!("{board} *???????/????????/????????/???????? 1")),
        ("fog with two mines, both discovered", format!("{board} *??????*/????????/????????/???????? 2")),
        ("fog with counter 0", format!("{board} ????????/????????/????????/???????? 0")),
        (
            "en-passant square",
            "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1 ????????/????????/????????/???????? 4".into(),
        ),
        (
            "en-passant square after a double push",
            "rnbqkbnr/pppppppp/8/8/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 ????????/????????/???000??/???000?? 4".into(),
        ),
        ("seven fields", format!("{board} ????????/????????/????????/????????")),
        ("nine fields", format!("{board} ????????/????????/????????/???????? 4 4")),
        ("six fields", board.to_string()),
        (
            "eight ranks",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ????????/????????/????????/???????? 4".into(),
        ),
    ];
    let mut chk = Checker::default();
    for fen in &valid {
        match (RPos::parse(fen), SPos::from_fen(fen)) {
            (Ok(r), Ok((s, _))) => {
                if r.fen() != *fen || s.to_fen() != *fen {
                    chk.fail(format!(
                        "round trip of {fen}: reference {}, sapper {}",
                        r.fen(),
                        s.to_fen()
                    ));
                }
            }
            (a, b) => chk.fail(format!("valid {fen} refused: {:?} {:?}", a.err(), b.err())),
        }
    }
    for (name, fen) in &corpus {
        if let Ok(r) = RPos::parse(fen) {
            chk.fail(format!("{name}: the reference accepts {fen} as {}", r.fen()));
        }
        if let Ok((s, _)) = SPos::from_fen(fen) {
            chk.fail(format!("{name}: sapper accepts {fen} as {}", s.to_fen()));
        }
    }
    chk.finish("malformed FENs");
}

/// KNOWN BUG, found while writing this file: on a public-form position (no `M`: what
/// the engine is given, and what its search plays on), `Position::play` removes a
/// discovered mine (a piece destroyed on it, a king stepping on it, a sapper action)
/// without updating the numbers: `MineState::remove_mine` recounts them only in
/// full-information positions. The neighbours keep counting the removed mine, which
/// breaks rule 5, and the square itself keeps the number 0 it was parsed with
/// although its real number may depend on hidden mines. The inference below such a
/// move then contradicts itself (0 layouts), and rule 13, which asks it whether a
/// fogged square may hold a mine, lets illegal moves through. Un-ignore once fixed.
#[test]

fn known_bug_public_play_keeps_stale_numbers() {
    let mut errors = Vec::new();
    // 1. A sapper action removes the discovered mine on e5: e4 must now show 0 (its
    //    other neighbours are known mine-free), e5 must not claim a number, and the
    //    layouts stay consistent.
    let fen = "4k3/8/8/8/8/8/4P3/8/8/4K3 w - - 5 20 ????????/????????/????*???/????1??? 4";
    let (pos, _) = SPos::from_fen(fen).unwrap();
    match sapper_play_search(&pos, "e4e4") {
        Some(after) => {
            if after.state().number(4) != Some(0) {
                errors.push(format!(
                    "after e4e4 in {fen}, e4 shows {:?}, expected 0 ({})",
                    after.state().number(4),
                    after.to_fen()
                ));
            }
            // e5's own number depends on the hidden mines (d6, e6, f6 are fogged):
            // it is not known, so it may not be claimed.
            if after.state().number(12).is_some() {
                errors.push(format!(
                    "after e4e4 in {fen}, e5 claims the number {:?}, which depends on the hidden mines ({})",
                    after.state().number(12),
                    after.to_fen()
                ));
            }
            if after.mine_inference().layouts == 0 {
                errors.push(format!(
                    "after e4e4 in {fen}, no layout is consistent ({})",
                    after.to_fen()
                ));
            }
        }
        None => errors.push(format!("e4e4 not legal in {fen}")),
    }
    // 2. The knight on e8 is destroyed on the discovered mine f6, which opens the
    //    e-file: black is in check from the rook on e1. g5 must drop from 1 to 0. e4
    //    is fogged and a consistent layout mines it (with a mine on e4, e5 shows 1
    //    once revealed, and the knight's d6e4 is refused in that full-information
    //    position), so d6e4 may not interpose.
    let fen = "4k3/8/4N3/8/3n4/8/8/8/8/K3R3 w - - 0 1 ????????/???0?*?-/??????1-/?????--- 4";
    let full = "4k3/8/4N3/8/3n4/8/8/8/8/K3R3 w - - 0 1 MM??????/???0?*?-/??????1-/????M--- 4";
    let (pos, _) = SPos::from_fen(fen).unwrap();
    let (full_pos, _) = SPos::from_fen(full).unwrap();
    let full_after = sapper_play_search(&full_pos, "e8f6").unwrap();
    assert!(!sapper_moves(&full_after).contains(&"d6e4".to_string()));
    match sapper_play_search(&pos, "e8f6") {
        Some(after) => {
            if after.state().number(14) != Some(0) {
                errors.push(format!(
                    "after e8f6 in {fen}, g5 shows {:?}, expected 0 ({})",
                    after.state().number(14),
                    after.to_fen()
                ));
            }
            if after.mine_inference().layouts == 0 {
                errors.push(format!(
                    "after e8f6 in {fen}, no layout is consistent ({})",
                    after.to_fen()
                ));
            }
            if sapper_moves(&after).contains(&"d6e4".to_string()) {
                errors.push(format!(
                    "after e8f6 in {fen}, d6e4 interposes on the fogged e4 that may hold a mine ({})",
                    after.to_fen()
                ));
            }
        }
        None => errors.push(format!("e8f6 not legal in {fen}")),
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// Plays `uci` with `Position::play` (the search's move, also on public positions).
fn sapper_play_search(pos: &SPos, uci: &str) -> Option<SPos> {
    let m = pos.legal_moves().into_iter().find(|m| m.to_string() == uci)?;
    let mut next = *pos;
    next.play(m);
    Some(next)
}
