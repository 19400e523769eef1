//! Chess terms after Stockfish's classical evaluation (`evaluate.cpp` and
//! `pawns.cpp`, Stockfish 11-12): threats by the attacker's role, hanging and
//! restricted pieces, passed pawns' king distances and free paths, outposts and the
//! smaller piece terms (its phalanxes and backward pawns, whose weights are in
//! [`BLOCKS`] too, depend on the pawns alone and are [`super::pawns`]'s).
//! Stockfish's formulas are kept where they are linear; where it multiplies two
//! counts (space), the product is the coefficient. The weights are fitted (`sapper
//! tune`), not Stockfish's.
//!
//! Read by chess, king of the hill, three-check, atomic and minesweeper (their `Variant::EVAL_BLOCKS` start with [`BLOCKS`]):
//! other variants' files may leave the blocks out, and their evaluations never compute
//! them.

use crate::eval::params::idx;
use crate::eval::{
    backward, fill_forward, forward, pawn_attacks, rank8, rear_span, relative_rank, Accumulator, SideInfo,
};
use sapper_rules::bitboard::BitBoard;
use sapper_rules::geometry::Geometry;
use sapper_rules::position::{Bb, Position};
use sapper_rules::types::{Color, Role, Square};
use sapper_rules::variant::Variant;

/// The blocks of [`classical_terms`] and [`crate::eval::king`]'s `king_attack`,
/// followed by a variant's own (`classical_blocks!("three_check")`): a
/// `Variant::EVAL_BLOCKS` list.
macro_rules! classical_blocks {
    ($($own:literal),*) => {
        &[
            "king_attack",
            "threat_by_minor",
            "threat_by_rook",
            "threats_more",
            "passed_king",
            "passed_path",
            "pawn_phalanx",
            "pawn_backward",
            "piece_terms",
            $($own),*
        ]
    };
}
pub(crate) use classical_blocks;

/// The blocks a variant that adds [`classical_terms`] (and [`crate::eval::king`]'s
/// `king_attack`) reads: its `Variant::EVAL_BLOCKS`.
pub const BLOCKS: &[&str] = classical_blocks!();

/// [`idx::THREATS_MORE`] entries.
pub mod more {
    /// Weak enemy pieces the king attacks.
    pub const BY_KING: usize = 0;
    /// Weak enemy pieces left undefended, or defended once and attacked twice.
    pub const HANGING: usize = 1;
    /// Weak enemy pieces that only their queen defends.
    pub const WEAK_QUEEN_PROTECTION: usize = 2;
    /// Squares both sides attack that the enemy does not hold strongly: the enemy's
    /// pieces are restricted there.
    pub const RESTRICTED: usize = 3;
    /// Enemy pieces a safe pawn push would attack.
    pub const PAWN_PUSH: usize = 4;
    /// Safe squares from which a knight or (attacked twice) slider hits the lone
    /// enemy queen.
    pub const ON_QUEEN: usize = 5;
}

/// [`idx::PIECE_TERMS`] entries.
pub mod piece {
    /// Knights on an outpost (ranks 4-6, held by an own pawn, out of enemy pawns' reach).
    pub const KNIGHT_OUTPOST: usize = 0;
    /// Bishops on an outpost.
    pub const BISHOP_OUTPOST: usize = 1;
    /// Knights that can jump to an empty outpost.
    pub const KNIGHT_REACHES_OUTPOST: usize = 2;
    /// Knights and bishops right behind a pawn (either colour).
    pub const MINOR_BEHIND_PAWN: usize = 3;
    /// Own pawns on the squares of each bishop's colour.
    pub const BISHOP_PAWNS: usize = 4;
    /// Bishops that see both centre squares of a long diagonal through the pawns.
    pub const BISHOP_LONG_DIAGONAL: usize = 5;
    /// Rooks on a file with a queen.
    pub const ROOK_ON_QUEEN_FILE: usize = 6;
    /// Rooks on the seventh rank while the enemy king is on the eighth or enemy pawns
    /// on the seventh.
    pub const ROOK_ON_SEVENTH: usize = 7;
    /// Rooks with at most three safe squares on the king's side of the king.
    pub const TRAPPED_ROOK: usize = 8;
    /// The king's distance (in king moves) to its nearest own pawn.
    pub const KING_PAWN_DISTANCE: usize = 9;
    /// A king on a flank (its and the neighbouring files) without pawns.
    pub const PAWNLESS_FLANK: usize = 10;
    /// Space: safe squares of files c-f on ranks 2-4 (behind own pawns twice), times
    /// `(pieces - 3)^2 / 16` (Stockfish's weight, its blocked-pawn part left out).
    pub const SPACE: usize = 11;
}

/// Adds every term of this module for both sides to `acc` (White's point of view).
#[inline]
pub fn classical_terms<V: Variant, A: Accumulator>(
    pos: &Position<V>,
    info: &[SideInfo<Bb<V>>; 2],
    acc: &mut A,
) {
    // Space counts only with enough pieces on the board (Stockfish's threshold,
    // 12222 of 16604 at the start: 45 of 62 here, both sides' non-pawn material).
    let non_pawn_material: i32 = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .iter()
        .map(|&r| pos.role(r).count() as i32 * [0, 3, 3, 5, 9, 0][r.index()])
        .sum();
    let space = non_pawn_material >= 45;
    for color in Color::ALL {
        threats(pos, info, color, acc);
        passed_pawns(pos, info, color, acc);
        pieces(pos, info, color, space, acc);
    }
}

/// Threats by `color` (Stockfish's `Evaluation::threats`).
#[inline]
fn threats<V: Variant, A: Accumulator>(
    pos: &Position<V>,
    info: &[SideInfo<Bb<V>>; 2],
    color: Color,
    acc: &mut A,
) {
    let s = color.sign();
    let (us, them) = (&info[color.index()], &info[(!color).index()]);
    let occupied = pos.occupied();
    let their = pos.color(!color) & !pos.role(Role::King);
    let non_pawn = their & !pos.role(Role::Pawn);
    let (u2, t2) = (us.twice_with_pawns(), them.twice_with_pawns());
    let strongly_protected = them.pawn_attacks() | (t2 & !u2);
    let defended = non_pawn & strongly_protected;
    let weak = their & !strongly_protected & us.all;
    let minors = us.by_role[Role::Knight.index()] | us.by_role[Role::Bishop.index()];
    for sq in ((defended | weak) & minors).squares() {
        if let Some(role) = pos.role_at(sq) {
            acc.add(idx::THREAT_BY_MINOR + role.index(), s);
        }
    }
    for sq in (weak & us.by_role[Role::Rook.index()]).squares() {
        if let Some(role) = pos.role_at(sq) {
            acc.add(idx::THREAT_BY_ROOK + role.index(), s);
        }
    }
    let count = |b: Bb<V>| s * b.count() as i32;
    acc.add(idx::THREATS_MORE + more::BY_KING, count(weak & us.king_ring()));
    let hanging = weak & (!them.all | (non_pawn & u2));
    acc.add(idx::THREATS_MORE + more::HANGING, count(hanging));
    acc.add(
        idx::THREATS_MORE + more::WEAK_QUEEN_PROTECTION,
        count(weak & them.by_role[Role::Queen.index()]),
    );
    acc.add(
        idx::THREATS_MORE + more::RESTRICTED,
        count(them.all & !strongly_protected & us.all),
    );

    // Safe pawn pushes (one step, or two from the second rank) that attack a piece.
    let own_pawns = pos.pieces(color, Role::Pawn);
    let third = match color {
        Color::White => Bb::<V>::rank(2),
        Color::Black => Bb::<V>::rank(<V::G as Geometry>::RANKS - 3),
    };
    let mut push = forward(color, own_pawns) & !occupied;
    push |= forward(color, push & third) & !occupied;
    push &= !them.pawn_attacks() & (us.all | !them.all);
    acc.add(
        idx::THREATS_MORE + more::PAWN_PUSH,
        count(pawn_attacks(color, push) & non_pawn),
    );

    let queens = pos.pieces(!color, Role::Queen);
    if queens.any() && !queens.more_than_one() {
        let q = queens.lsb();
        let safe = !pos.color(color) & !them.pawn_attacks() & !strongly_protected;
        let knight = <V::G as Geometry>::knight_attacks(q) & us.by_role[Role::Knight.index()];
        let sliders = (<V::G as Geometry>::bishop_attacks(q, occupied) & us.by_role[Role::Bishop.index()])
            | (<V::G as Geometry>::rook_attacks(q, occupied) & us.by_role[Role::Rook.index()]);
        acc.add(
            idx::THREATS_MORE + more::ON_QUEEN,
            count((knight | (sliders & u2)) & safe),
        );
    }
}

/// Passed pawns' king distances and paths (Stockfish's `Evaluation::passed`).
#[inline]
fn passed_pawns<V: Variant, A: Accumulator>(
    pos: &Position<V>,
    info: &[SideInfo<Bb<V>>; 2],
    color: Color,
    acc: &mut A,
) {
    let s = color.sign();
    let them = &info[(!color).index()];
    let passed = info[color.index()].passed;
    if passed.is_empty() {
        return;
    }
    let (Some(our_king), Some(their_king)) = (pos.king(color), pos.king(!color)) else {
        return;
    };
    let occupied = pos.occupied();
    let unsafe_squares = them.all | pos.color(!color);
    for sq in passed.squares() {
        let r = rank8::<V::G>(sq, color);
        if !(3..7).contains(&r) {
            continue;
        }
        let block_bb = forward(color, Bb::<V>::from_square(sq));
        if block_bb.is_empty() {
            continue;
        }
        let block = block_bb.lsb();
        acc.add(idx::PASSED_KING + r, s * block.distance(their_king).min(5) as i32);
        acc.add(
            idx::PASSED_KING + 8 + r,
            s * block.distance(our_king).min(5) as i32,
        );
        if (block_bb & occupied).is_empty() {
            let path = fill_forward(color, block_bb);
            if (path & unsafe_squares).is_empty() {
                acc.add(idx::PASSED_PATH + r, s);
            } else if (block_bb & unsafe_squares).is_empty() {
                acc.add(idx::PASSED_PATH + 8 + r, s);
            }
        }
    }
}

/// Outposts, minor and rook placement, the king's pawn distance, and space when
/// `space` (enough material on the board).
#[inline]
fn pieces<V: Variant, A: Accumulator>(
    pos: &Position<V>,
    info: &[SideInfo<Bb<V>>; 2],
    color: Color,
    space: bool,
    acc: &mut A,
) {
    type G<V> = <V as Variant>::G;
    let s = color.sign();
    let (us, them) = (&info[color.index()], &info[(!color).index()]);
    let occupied = pos.occupied();
    let own_pawns = pos.pieces(color, Role::Pawn);
    let pawns = pos.role(Role::Pawn);
    let knights = pos.pieces(color, Role::Knight);
    let bishops = pos.pieces(color, Role::Bishop);
    let rank_of = |r: usize| match color {
        Color::White => Bb::<V>::rank(r as u8),
        Color::Black => Bb::<V>::rank(G::<V>::RANKS - 1 - r as u8),
    };
    let add = |acc: &mut A, i: usize, b: Bb<V>| acc.add(idx::PIECE_TERMS + i, s * b.count() as i32);

    // Outposts: out of reach of every enemy pawn's present and future attacks.
    let reach = fill_forward(!color, them.pawn_attacks());
    let outposts = (rank_of(3) | rank_of(4) | rank_of(5)) & us.pawn_attacks() & !reach;
    add(acc, piece::KNIGHT_OUTPOST, knights & outposts);
    add(acc, piece::BISHOP_OUTPOST, bishops & outposts);
    let free_outposts = outposts & !pos.color(color);
    let reaching = knights
        .squares()
        .filter(|&sq| (G::<V>::knight_attacks(sq) & free_outposts).any())
        .count() as i32;
    acc.add(idx::PIECE_TERMS + piece::KNIGHT_REACHES_OUTPOST, s * reaching);
    add(
        acc,
        piece::MINOR_BEHIND_PAWN,
        (knights | bishops) & backward(color, pawns),
    );

    let dark = Bb::<V>::from_u128(0xAA55_AA55_AA55_AA55_AA55_AA55_AA55_AA55);
    let mid = G::<V>::RANKS / 2;
    let center = [(3, mid - 1), (4, mid - 1), (3, mid), (4, mid)]
        .iter()
        .fold(Bb::<V>::EMPTY, |b, &(f, r)| b.with(Square::new(f, r)));
    for sq in bishops.squares() {
        let colour = if dark.has(sq) { dark } else { !dark };
        acc.add(
            idx::PIECE_TERMS + piece::BISHOP_PAWNS,
            s * (own_pawns & colour).count() as i32,
        );
        if (G::<V>::bishop_attacks(sq, pawns) & center).more_than_one() {
            acc.add(idx::PIECE_TERMS + piece::BISHOP_LONG_DIAGONAL, s);
        }
    }

    let their_king = pos.king(!color);
    let our_king = pos.king(color);
    let area = !pos.color(color) & !them.pawn_attacks();
    // The enemy's back rank and second rank (the eighth and seventh on 8x8).
    let last = G::<V>::RANKS as usize - 1;
    for sq in pos.pieces(color, Role::Rook).squares() {
        let file = Bb::<V>::file(sq.file());
        if (file & pos.role(Role::Queen)).any() {
            acc.add(idx::PIECE_TERMS + piece::ROOK_ON_QUEEN_FILE, s);
        }
        if relative_rank::<G<V>>(sq, color) == last - 1
            && (their_king.is_some_and(|k| relative_rank::<G<V>>(k, color) == last)
                || (pos.pieces(!color, Role::Pawn) & rank_of(last - 1)).any())
        {
            acc.add(idx::PIECE_TERMS + piece::ROOK_ON_SEVENTH, s);
        }
        if let Some(k) = our_king {
            let mobility = (G::<V>::rook_attacks(sq, occupied) & area).count();
            if mobility <= 3 && (k.file() < 4) == (sq.file() < k.file()) {
                acc.add(idx::PIECE_TERMS + piece::TRAPPED_ROOK, s);
            }
        }
    }

    if let Some(k) = our_king {
        if own_pawns.any() {
            acc.add(
                idx::PIECE_TERMS + piece::KING_PAWN_DISTANCE,
                s * nearest_distance::<V>(k, own_pawns),
            );
        }
        let f = k.file();
        let mut flank = Bb::<V>::file(f);
        if f > 0 {
            flank |= Bb::<V>::file(f - 1);
        }
        if f + 1 < 8 {
            flank |= Bb::<V>::file(f + 1);
        }
        if (flank & pawns).is_empty() {
            acc.add(idx::PIECE_TERMS + piece::PAWNLESS_FLANK, s);
        }
    }

    // Space (Stockfish's `Evaluation::space`).
    if space {
        let files = Bb::<V>::file(2) | Bb::<V>::file(3) | Bb::<V>::file(4) | Bb::<V>::file(5);
        let zone = files & (rank_of(1) | rank_of(2) | rank_of(3));
        let safe = zone & !own_pawns & !them.pawn_attacks();
        let behind = rear_span(color, own_pawns);
        let bonus = safe.count() as i32 + (behind & safe & !them.all).count() as i32;
        let weight = (pos.color(color).count() as i32 - 3).max(0);
        acc.add(idx::PIECE_TERMS + piece::SPACE, s * bonus * weight * weight / 16);
    }
}

/// The king distance (Chebyshev) from `from` to the nearest square of `targets`,
/// which is not empty: the square's neighbourhood is grown a ring at a time until
/// it meets `targets` (the nearest pawn is usually a step or two away, where a
/// distance per pawn costs a pass over all of them).
#[inline]
fn nearest_distance<V: Variant>(from: Square, targets: Bb<V>) -> i32 {
    debug_assert!(targets.any());
    let mut reach = Bb::<V>::from_square(from);
    let mut d = 0;
    while (reach & targets).is_empty() {
        reach |= reach.east() | reach.west();
        reach |= reach.north() | reach.south();
        d += 1;
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::coefficients;
    use crate::eval::VariantEval;
    use sapper_rules::variant::{Chess, Minesweeper};

    /// The coefficient of weight `index` in `fen` (White's point of view), chess.
    fn coef(fen: &str, index: usize) -> i32 {
        coef_in::<Chess>(fen, index)
    }

    /// The coefficient of weight `index` in `fen` of variant `V`.
    fn coef_in<V: VariantEval>(fen: &str, index: usize) -> i32 {
        let (pos, _) = Position::<V>::from_fen(fen).unwrap();
        let c = coefficients(&pos);
        c.entries
            .iter()
            .find(|e| e.0 as usize == index)
            .map_or(0, |e| e.1)
    }

    /// The ring-growing distance equals the least distance over the targets, on
    /// both boards, for every square and sparse to dense random target sets.
    fn nearest_distance_is_the_least<V: Variant>() {
        let ranks = <V::G as Geometry>::RANKS;
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..400 {
            let mut bits = (u128::from(next()) << 64) | u128::from(next());
            for _ in 0..round % 4 {
                bits &= (u128::from(next()) << 64) | u128::from(next());
            }
            let targets = Bb::<V>::from_u128(bits) & !Bb::<V>::EMPTY;
            if targets.is_empty() {
                continue;
            }
            for file in 0..8 {
                for rank in 0..ranks {
                    let from = Square::new(file, rank);
                    let least = targets.squares().map(|t| from.distance(t)).min().unwrap();
                    assert_eq!(nearest_distance::<V>(from, targets), least as i32, "{from:?}");
                }
            }
        }
    }

    #[test]
    fn nearest_distance_grows_rings_correctly() {
        nearest_distance_is_the_least::<Chess>();
        nearest_distance_is_the_least::<Minesweeper>();
    }

    #[test]
    fn a_rook_hits_a_hanging_knight() {
        // Ra1 attacks the knight on a5, which nothing of Black's defends.
        let fen = "4k3/8/8/n7/8/8/8/R3K3 w - - 0 1";
        assert_eq!(coef(fen, idx::THREAT_BY_ROOK + Role::Knight.index()), 1);
        assert_eq!(coef(fen, idx::THREATS_MORE + more::HANGING), 1);
        // Defended by a pawn on b6 it is neither weak nor hanging.
        let fen = "4k3/8/1p6/n7/8/8/8/R3K3 w - - 0 1";
        assert_eq!(coef(fen, idx::THREAT_BY_ROOK + Role::Knight.index()), 0);
        assert_eq!(coef(fen, idx::THREATS_MORE + more::HANGING), 0);
    }

    #[test]
    fn passed_pawn_king_distances_and_free_path() {
        // d6 is on relative rank 5; the square in front, d7, is 3 king moves from
        // Black's king on a8 and 2 from White's on e5; d7 and d8 are empty and
        // unattacked.
        let fen = "k7/8/3P4/4K3/8/8/8/8 w - - 0 1";
        assert_eq!(coef(fen, idx::PASSED_KING + 5), 3);
        assert_eq!(coef(fen, idx::PASSED_KING + 8 + 5), 2);
        assert_eq!(coef(fen, idx::PASSED_PATH + 5), 1);
        // With Black's king on c8 guarding d7 the path is neither free nor safe.
        let fen = "2k5/8/3P4/4K3/8/8/8/8 w - - 0 1";
        assert_eq!(coef(fen, idx::PASSED_PATH + 5), 0);
        assert_eq!(coef(fen, idx::PASSED_PATH + 8 + 5), 0);
    }

    #[test]
    fn backward_pawn_behind_its_neighbour_with_a_guarded_stop_square() {
        // e3 has no own pawn beside or behind it on the d- or f-file and Black's d5
        // pawn guards e4; d4 is supported from behind by e3; Black's d5 is isolated.
        let fen = "4k3/8/8/3p4/3P4/4P3/8/4K3 w - - 0 1";
        assert_eq!(coef(fen, idx::PAWN_BACKWARD), 1);
        // Without Black's pawn nothing guards e4.
        let fen = "4k3/8/8/8/3P4/4P3/8/4K3 w - - 0 1";
        assert_eq!(coef(fen, idx::PAWN_BACKWARD), 0);
    }

    #[test]
    fn knight_outpost_needs_a_pawn_and_no_enemy_pawn_reach() {
        let fen = "4k3/7p/8/3N4/4P3/8/8/4K3 w - - 0 1";
        assert_eq!(coef(fen, idx::PIECE_TERMS + piece::KNIGHT_OUTPOST), 1);
        // A Black pawn on c7 can still drive it away from c6.
        let fen = "4k3/2p4p/8/3N4/4P3/8/8/4K3 w - - 0 1";
        assert_eq!(coef(fen, idx::PIECE_TERMS + piece::KNIGHT_OUTPOST), 0);
    }

    #[test]
    fn the_ten_rank_board_keeps_by_rank_terms_in_their_blocks() {
        // Minesweeper's 8x10 board: White's g9-h9 phalanx stands on relative rank 8,
        // the 8-rank block's 6 (both edges kept); the rook on a9 is on the enemy's
        // second rank with the enemy king on its back rank.
        let fen = "4k3/R5PP/8/8/8/8/8/8/8/4K3 w - - 0 1 \
                   ????????/????????/????????/???????? 4";
        let coef = |index: usize| coef_in::<Minesweeper>(fen, index);
        assert_eq!(coef(idx::PAWN_PHALANX + 6), 2);
        assert_eq!(coef(idx::PIECE_TERMS + piece::ROOK_ON_SEVENTH), 1);
        // Nothing spills into the next block: no backward pawn here.
        assert_eq!(coef(idx::PAWN_BACKWARD), 0);
    }
}
