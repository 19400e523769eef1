//! Board geometries: how pieces attack on an 8x8 or an 8x10 board.
//!
//! A [`Geometry`] bundles a bitboard type with its attack tables. Leaper tables,
//! rays, `between` and `line` are computed at compile time by `const fn`s shared by
//! both geometries. Sliding attacks use magic bitboards on 8x8 (their tables built at
//! compile time too, so a lookup has no first-use check); on 8x10, where a `u128`
//! multiply would cost more, a byte table for ranks and hyperbola quintessence (a
//! subtraction each way, the board mirrored by a byte swap) for files and diagonals.

use crate::bitboard::{Bb128, Bb64, BitBoard};
mod magic;
use crate::types::{Color, Square};
use std::fmt::Debug;

/// A board shape and its attack tables. Implemented by [`Board8x8`] and [`Board8x10`].
pub trait Geometry: 'static + Copy + Default + Debug + Send + Sync {
    /// The bitboard type of this board.
    type BB: BitBoard;
    /// Number of ranks (the board always has 8 files).
    const RANKS: u8;
    /// Number of squares, `8 * RANKS`.
    const SQUARES: usize;
    /// A byte per square (`[u8; SQUARES]`): the position's mailbox, sized by the
    /// board so that 8x8 positions do not carry 8x10's 80 bytes.
    type Mailbox: Copy + Eq + Debug + Send + Sync + AsRef<[u8]> + AsMut<[u8]>;
    /// A mailbox with every square set to `byte`.
    fn mailbox_filled(byte: u8) -> Self::Mailbox;

    /// Squares a pawn of `color` on `sq` attacks.
    fn pawn_attacks(color: Color, sq: Square) -> Self::BB;
    /// Squares a knight on `sq` attacks.
    fn knight_attacks(sq: Square) -> Self::BB;
    /// Squares a king on `sq` attacks.
    fn king_attacks(sq: Square) -> Self::BB;
    /// Squares a bishop on `sq` attacks, given the occupied squares.
    fn bishop_attacks(sq: Square, occupied: Self::BB) -> Self::BB;
    /// Squares a rook on `sq` attacks, given the occupied squares.
    fn rook_attacks(sq: Square, occupied: Self::BB) -> Self::BB;
    /// Squares strictly between `a` and `b` when they share a rank, file or diagonal;
    /// empty otherwise.
    fn between(a: Square, b: Square) -> Self::BB;
    /// The whole rank, file or diagonal through `a` and `b` (both included) when they
    /// are aligned; empty otherwise.
    fn line(a: Square, b: Square) -> Self::BB;

    /// Squares a bishop on `sq` attacks on an empty board (pins and snipers).
    #[inline(always)]
    fn bishop_rays(sq: Square) -> Self::BB {
        Self::bishop_attacks(sq, Self::BB::EMPTY)
    }
    /// Squares a rook on `sq` attacks on an empty board (pins and snipers).
    #[inline(always)]
    fn rook_rays(sq: Square) -> Self::BB {
        Self::rook_attacks(sq, Self::BB::EMPTY)
    }

    /// Squares a queen on `sq` attacks, given the occupied squares.
    #[inline(always)]
    fn queen_attacks(sq: Square, occupied: Self::BB) -> Self::BB {
        Self::bishop_attacks(sq, occupied) | Self::rook_attacks(sq, occupied)
    }

    /// Whether `sq` is on this board.
    #[inline(always)]
    fn contains(sq: Square) -> bool {
        (sq.0 as usize) < Self::SQUARES
    }
}

/// The 8x8 board of chess, atomic and king of the hill (`u64` bitboards).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board8x8;

/// The 8x10 board of minesweeper chess (`u128` bitboards, 80 squares).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board8x10;

// ---------------------------------------------------------------------------
// Compile-time tables, computed as u128 for up to 10 ranks and narrowed for 8x8.

const MAX_SQ: usize = 80;

const KNIGHT_DELTAS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_DELTAS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
/// The eight ray directions as (file, rank) steps; the first four are rook
/// directions, the last four bishop directions.
pub(crate) const RAY_DIRS: [(i8, i8); 8] = [
    (1, 0),
    (0, 1),
    (-1, 0),
    (0, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
    (1, -1),
];

const fn on_board(file: i8, rank: i8, ranks: u8) -> bool {
    file >= 0 && file < 8 && rank >= 0 && rank < ranks as i8
}

const fn leaper_table(ranks: u8, deltas: &[(i8, i8)]) -> [u128; MAX_SQ] {
    let mut table = [0u128; MAX_SQ];
    let mut sq = 0;
    while sq < 8 * ranks as usize {
        let (f, r) = ((sq % 8) as i8, (sq / 8) as i8);
        let mut i = 0;
        while i < deltas.len() {
            let (nf, nr) = (f + deltas[i].0, r + deltas[i].1);
            if on_board(nf, nr, ranks) {
                table[sq] |= 1u128 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

const fn pawn_table(ranks: u8) -> [[u128; MAX_SQ]; 2] {
    [
        leaper_table(ranks, &[(1, 1), (-1, 1)]),
        leaper_table(ranks, &[(1, -1), (-1, -1)]),
    ]
}

/// The ray from `sq` in direction `dir`, blocked by `occupied` (the blocker included).
pub(crate) const fn slide(sq: usize, dir: (i8, i8), occupied: u128, ranks: u8) -> u128 {
    let mut result = 0u128;
    let (mut f, mut r) = ((sq % 8) as i8 + dir.0, (sq / 8) as i8 + dir.1);
    while on_board(f, r, ranks) {
        let bit = 1u128 << (r * 8 + f);
        result |= bit;
        if occupied & bit != 0 {
            break;
        }
        f += dir.0;
        r += dir.1;
    }
    result
}

const fn ray_table(ranks: u8) -> [[u128; MAX_SQ]; 8] {
    let mut table = [[0u128; MAX_SQ]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 8 * ranks as usize {
            table[d][sq] = slide(sq, RAY_DIRS[d], 0, ranks);
            sq += 1;
        }
        d += 1;
    }
    table
}

/// `(between, line)` tables for every pair of squares.
const fn between_and_line(ranks: u8) -> ([[u128; MAX_SQ]; MAX_SQ], [[u128; MAX_SQ]; MAX_SQ]) {
    let rays = ray_table(ranks);
    let mut between = [[0u128; MAX_SQ]; MAX_SQ];
    let mut line = [[0u128; MAX_SQ]; MAX_SQ];
    let n = 8 * ranks as usize;
    let mut a = 0;
    while a < n {
        let mut d = 0;
        while d < 8 {
            let ray = rays[d][a];
            let opposite = rays[(d + 2) % 4 + (d / 4) * 4][a];
            let mut b = 0;
            while b < n {
                if ray & (1u128 << b) != 0 {
                    between[a][b] = ray & !rays[d][b] & !(1u128 << b);
                    line[a][b] = ray | opposite | (1u128 << a);
                }
                b += 1;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

const fn narrow(table: &[u128; MAX_SQ]) -> [u64; 64] {
    let mut out = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        out[i] = table[i] as u64;
        i += 1;
    }
    out
}

const fn narrow2(table: &[[u128; MAX_SQ]; MAX_SQ]) -> [[u64; 64]; 64] {
    let mut out = [[0u64; 64]; 64];
    let mut i = 0;
    while i < 64 {
        out[i] = narrow(&table[i]);
        i += 1;
    }
    out
}

const KNIGHT_10: [u128; MAX_SQ] = leaper_table(10, &KNIGHT_DELTAS);
const KING_10: [u128; MAX_SQ] = leaper_table(10, &KING_DELTAS);
const PAWN_10: [[u128; MAX_SQ]; 2] = pawn_table(10);
const RAYS_10: [[u128; MAX_SQ]; 8] = ray_table(10);
const BETWEEN_LINE_10: ([[u128; MAX_SQ]; MAX_SQ], [[u128; MAX_SQ]; MAX_SQ]) = between_and_line(10);
static BETWEEN_10: [[u128; MAX_SQ]; MAX_SQ] = BETWEEN_LINE_10.0;
static LINE_10: [[u128; MAX_SQ]; MAX_SQ] = BETWEEN_LINE_10.1;

static KNIGHT_8: [u64; 64] = narrow(&leaper_table(8, &KNIGHT_DELTAS));
static KING_8: [u64; 64] = narrow(&leaper_table(8, &KING_DELTAS));
static PAWN_8: [[u64; 64]; 2] = {
    let t = pawn_table(8);
    [narrow(&t[0]), narrow(&t[1])]
};
const BETWEEN_LINE_8: ([[u128; MAX_SQ]; MAX_SQ], [[u128; MAX_SQ]; MAX_SQ]) = between_and_line(8);
static BETWEEN_8: [[u64; 64]; 64] = narrow2(&BETWEEN_LINE_8.0);
static LINE_8: [[u64; 64]; 64] = narrow2(&BETWEEN_LINE_8.1);

impl Geometry for Board8x8 {
    type BB = Bb64;
    const RANKS: u8 = 8;
    const SQUARES: usize = 64;
    type Mailbox = [u8; 64];

    #[inline(always)]
    fn mailbox_filled(byte: u8) -> [u8; 64] {
        [byte; 64]
    }

    #[inline(always)]
    fn pawn_attacks(color: Color, sq: Square) -> Bb64 {
        Bb64(PAWN_8[color.index()][sq.index()])
    }
    #[inline(always)]
    fn knight_attacks(sq: Square) -> Bb64 {
        Bb64(KNIGHT_8[sq.index()])
    }
    #[inline(always)]
    fn king_attacks(sq: Square) -> Bb64 {
        Bb64(KING_8[sq.index()])
    }
    #[inline(always)]
    fn bishop_attacks(sq: Square, occupied: Bb64) -> Bb64 {
        Bb64(magic::bishop_attacks(sq.index(), occupied.0))
    }
    #[inline(always)]
    fn rook_attacks(sq: Square, occupied: Bb64) -> Bb64 {
        Bb64(magic::rook_attacks(sq.index(), occupied.0))
    }
    #[inline(always)]
    fn between(a: Square, b: Square) -> Bb64 {
        Bb64(BETWEEN_8[a.index()][b.index()])
    }
    #[inline(always)]
    fn line(a: Square, b: Square) -> Bb64 {
        Bb64(LINE_8[a.index()][b.index()])
    }
}

/// Per 8x10 square, the file, diagonal and anti-diagonal through it, the square
/// itself excluded (the lines of [`line_attacks_10`]).
const LINES_10: [[u128; MAX_SQ]; 3] = {
    let mut lines = [[0u128; MAX_SQ]; 3];
    let mut sq = 0;
    while sq < MAX_SQ {
        lines[0][sq] = RAYS_10[1][sq] | RAYS_10[3][sq];
        lines[1][sq] = RAYS_10[4][sq] | RAYS_10[6][sq];
        lines[2][sq] = RAYS_10[5][sq] | RAYS_10[7][sq];
        sq += 1;
    }
    lines
};

/// Per 8x10 square, the bishop's and the rook's attacks on an empty board.
const EMPTY_BOARD_10: [[u128; MAX_SQ]; 2] = {
    let mut t = [[0u128; MAX_SQ]; 2];
    let mut sq = 0;
    while sq < MAX_SQ {
        t[0][sq] = LINES_10[1][sq] | LINES_10[2][sq];
        t[1][sq] = LINES_10[0][sq] | RAYS_10[0][sq] | RAYS_10[2][sq];
        sq += 1;
    }
    t
};

/// `RANK_ATTACKS[file][occupancy]`: the squares a rook on `file` attacks along its
/// rank, given the rank's 8 occupancy bits (both as bytes, file a the lowest bit).
static RANK_ATTACKS: [[u8; 256]; 8] = {
    let mut table = [[0u8; 256]; 8];
    let mut file = 0;
    while file < 8 {
        let mut occ = 0;
        while occ < 256 {
            table[file][occ] = slide(file, RAY_DIRS[0], occ as u128, 1) as u8
                | slide(file, RAY_DIRS[2], occ as u128, 1) as u8;
            occ += 1;
        }
        file += 1;
    }
    table
};

/// Attacks along one file or diagonal `line` (without the slider's square `bit`)
/// by hyperbola quintessence (Gerd Isenberg, chessprogramming.org): `o - 2s` flips
/// the squares from the slider up to its first blocker above, and the same in the
/// rank-mirrored board (a byte swap: each byte is a rank, and the line has one
/// square per rank) the squares below. No branch and no blocker scan; the
/// wrapping arithmetic is exact when a doubled square leaves the `u128` (nothing
/// lies beyond it on the line).
#[inline(always)]
fn line_attacks_10(bit: u128, occupied: u128, line: u128) -> u128 {
    let o = occupied & line;
    let forward = o.wrapping_sub(bit << 1);
    let reverse = o.swap_bytes().wrapping_sub(bit.swap_bytes() << 1).swap_bytes();
    (forward ^ reverse) & line
}

/// Rank attacks on 8x10 from the byte table.
#[inline(always)]
fn rank_attacks_10(sq: Square, occupied: u128) -> u128 {
    let shift = 8 * (sq.index() / 8);
    let occ = (occupied >> shift) as u8;
    (RANK_ATTACKS[sq.index() % 8][occ as usize] as u128) << shift
}

impl Geometry for Board8x10 {
    type BB = Bb128;
    const RANKS: u8 = 10;
    const SQUARES: usize = 80;
    type Mailbox = [u8; 80];

    #[inline(always)]
    fn mailbox_filled(byte: u8) -> [u8; 80] {
        [byte; 80]
    }

    #[inline(always)]
    fn pawn_attacks(color: Color, sq: Square) -> Bb128 {
        Bb128(PAWN_10[color.index()][sq.index()])
    }
    #[inline(always)]
    fn knight_attacks(sq: Square) -> Bb128 {
        Bb128(KNIGHT_10[sq.index()])
    }
    #[inline(always)]
    fn king_attacks(sq: Square) -> Bb128 {
        Bb128(KING_10[sq.index()])
    }
    #[inline(always)]
    fn bishop_attacks(sq: Square, occupied: Bb128) -> Bb128 {
        let bit = 1u128 << sq.index();
        Bb128(
            line_attacks_10(bit, occupied.0, LINES_10[1][sq.index()])
                | line_attacks_10(bit, occupied.0, LINES_10[2][sq.index()]),
        )
    }
    #[inline(always)]
    fn rook_attacks(sq: Square, occupied: Bb128) -> Bb128 {
        Bb128(
            line_attacks_10(1u128 << sq.index(), occupied.0, LINES_10[0][sq.index()])
                | rank_attacks_10(sq, occupied.0),
        )
    }
    #[inline(always)]
    fn bishop_rays(sq: Square) -> Bb128 {
        Bb128(EMPTY_BOARD_10[0][sq.index()])
    }
    #[inline(always)]
    fn rook_rays(sq: Square) -> Bb128 {
        Bb128(EMPTY_BOARD_10[1][sq.index()])
    }
    #[inline(always)]
    fn between(a: Square, b: Square) -> Bb128 {
        Bb128(BETWEEN_10[a.index()][b.index()])
    }
    #[inline(always)]
    fn line(a: Square, b: Square) -> Bb128 {
        Bb128(LINE_10[a.index()][b.index()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Reference sliding attacks by walking rays one square at a time.
    fn reference(sq: Square, occupied: u128, ranks: u8, dirs: &[usize]) -> u128 {
        dirs.iter()
            .map(|&d| slide(sq.index(), RAY_DIRS[d], occupied, ranks))
            .fold(0, |a, b| a | b)
    }

    /// The mailbox has one byte per square of its own board: an 8x8 position does not
    /// carry the 16 extra bytes of the 8x10 board.
    #[test]
    fn mailbox_is_sized_by_the_board() {
        assert_eq!(
            std::mem::size_of::<<Board8x8 as Geometry>::Mailbox>(),
            Board8x8::SQUARES
        );
        assert_eq!(
            std::mem::size_of::<<Board8x10 as Geometry>::Mailbox>(),
            Board8x10::SQUARES
        );
        assert_eq!(Board8x8::mailbox_filled(3).as_ref().len(), 64);
        assert!(Board8x10::mailbox_filled(3).as_ref().iter().all(|&b| b == 3));
    }

    #[test]
    fn sliders_match_ray_walking_on_both_boards() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for _ in 0..20_000 {
            let occ: u128 = rng.gen::<u128>() & rng.gen::<u128>();
            let sq8 = Square(rng.gen_range(0..64));
            let o8 = Bb64(occ as u64);
            assert_eq!(
                Board8x8::rook_attacks(sq8, o8).0 as u128,
                reference(sq8, occ as u64 as u128, 8, &[0, 1, 2, 3])
            );
            assert_eq!(
                Board8x8::bishop_attacks(sq8, o8).0 as u128,
                reference(sq8, occ as u64 as u128, 8, &[4, 5, 6, 7])
            );
            let sq10 = Square(rng.gen_range(0..80));
            let o10 = Bb128::from_u128(occ);
            assert_eq!(
                Board8x10::rook_attacks(sq10, o10).0,
                reference(sq10, o10.0, 10, &[0, 1, 2, 3])
            );
            assert_eq!(
                Board8x10::bishop_attacks(sq10, o10).0,
                reference(sq10, o10.0, 10, &[4, 5, 6, 7])
            );
        }
    }

    #[test]
    fn empty_board_rays_are_the_attacks_on_an_empty_board() {
        for sq in (0..64).map(Square) {
            assert_eq!(
                Board8x8::bishop_rays(sq),
                Board8x8::bishop_attacks(sq, Bb64::EMPTY)
            );
            assert_eq!(Board8x8::rook_rays(sq), Board8x8::rook_attacks(sq, Bb64::EMPTY));
        }
        for sq in (0..80).map(Square) {
            let empty = Bb128::EMPTY;
            assert_eq!(Board8x10::bishop_rays(sq).0, reference(sq, 0, 10, &[4, 5, 6, 7]));
            assert_eq!(Board8x10::rook_rays(sq).0, reference(sq, 0, 10, &[0, 1, 2, 3]));
            assert_eq!(Board8x10::rook_rays(sq), Board8x10::rook_attacks(sq, empty));
        }
    }

    #[test]
    fn leapers_and_lines() {
        let e4 = Square::new(4, 3);
        assert_eq!(Board8x8::knight_attacks(e4).count(), 8);
        assert_eq!(Board8x8::king_attacks(Square(0)).count(), 3);
        assert_eq!(Board8x10::king_attacks(Square::new(7, 9)).count(), 3);
        assert_eq!(Board8x10::knight_attacks(Square::new(0, 9)).count(), 2);
        let a1 = Square(0);
        let h8 = Square(63);
        assert_eq!(Board8x8::between(a1, h8).count(), 6);
        assert_eq!(Board8x8::line(a1, e4).count(), 0);
        assert_eq!(Board8x8::line(a1, Square::new(3, 3)).count(), 8);
        assert_eq!(Board8x10::line(a1, Square::new(0, 5)).count(), 10);
        assert_eq!(Board8x10::between(a1, Square::new(0, 9)).count(), 8);
        assert_eq!(
            Board8x8::pawn_attacks(Color::White, e4),
            Bb64::from_square(Square::new(3, 4)) | Bb64::from_square(Square::new(5, 4))
        );
    }
}
