//! Move ordering: the move picker and the statistics it sorts by.
//!
//! Order: the transposition-table move, captures and queen promotions by expected gain
//! (MVV-LVA in chess; in atomic, the material balance of the explosion), the two
//! killer moves of the ply, then quiet moves by history score. Moves are scored once
//! and picked by selection, so a cut-off early in the list costs no full sort.

use crate::bitboard::BitBoard;
use crate::geometry::Geometry;
use crate::movegen::GenType;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::types::{Color, Role};
use crate::variant::Variant;
use smallvec::SmallVec;

/// Piece values for ordering only (centipawns, pawn..king).
const ORDER_VALUE: [i32; 6] = [100, 300, 320, 500, 900, 0];

const TT_MOVE: i32 = 1 << 30;
const NOISY: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
/// History scores stay within +-HISTORY_MAX.
pub const HISTORY_MAX: i32 = 16_384;

/// Quiet-move history: how often a piece moving to a square caused a cut-off
/// (Schaeffer's history heuristic), indexed by piece (0..12) and destination.
pub struct History {
    table: Box<[[i32; 80]; 12]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            table: Box::new([[0; 80]; 12]),
        }
    }
}

impl History {
    /// The score of moving `piece_index` to square index `to`.
    #[inline(always)]
    pub fn get(&self, piece_index: usize, to: usize) -> i32 {
        self.table[piece_index][to]
    }

    /// Adds `bonus` (negative for a malus) with gravity, so scores saturate at
    /// +-[`HISTORY_MAX`] and old information fades.
    #[inline(always)]
    pub fn update(&mut self, piece_index: usize, to: usize, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let entry = &mut self.table[piece_index][to];
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    /// Forgets everything (`ucinewgame`).
    pub fn clear(&mut self) {
        *self.table = [[0; 80]; 12];
    }
}

/// The expected material gain of the noisy move `m` (centipawns, for ordering).
#[inline]
pub fn noisy_gain<V: Variant>(pos: &Position<V>, m: Move) -> i32 {
    let us = pos.side_to_move();
    let promo = m
        .promotion_role()
        .map_or(0, |r| ORDER_VALUE[r.index()] - ORDER_VALUE[0]);
    let victim_sq = match m.kind() {
        MoveKind::EnPassant => Some(crate::types::Square::new(m.to().file(), m.from().rank())),
        _ if pos.color(!us).has(m.to()) => Some(m.to()),
        _ => None,
    };
    let Some(victim_sq) = victim_sq else {
        return promo;
    };
    if V::EXPLOSIONS {
        let occupied = pos.occupied();
        let blast = (V::G::king_attacks(m.to()) & occupied & !pos.role(Role::Pawn))
            .with(m.from())
            .with(victim_sq);
        if (blast & pos.pieces(!us, Role::King)).any() {
            return 100_000;
        }
        return side_value(pos, blast, !us) - side_value(pos, blast, us);
    }
    let victim = pos.role_at(victim_sq).map_or(0, |r| ORDER_VALUE[r.index()]);
    let attacker = pos.role_at(m.from()).map_or(0, |r| r.index() as i32);
    victim * 8 - attacker + promo
}

fn side_value<V: Variant>(pos: &Position<V>, set: crate::position::Bb<V>, color: Color) -> i32 {
    Role::ALL[..5]
        .iter()
        .map(|&r| ORDER_VALUE[r.index()] * (set & pos.pieces(color, r)).count() as i32)
        .sum()
}

/// Yields pseudo-legal moves best first. The caller tests legality.
pub struct MovePicker {
    moves: MoveList,
    scores: SmallVec<[i32; 256]>,
    next: usize,
}

impl MovePicker {
    /// Scores the moves of type `gen` in `pos`.
    pub fn new<V: Variant>(
        pos: &Position<V>,
        gen: GenType,
        tt_move: Move,
        killers: [Move; 2],
        history: &History,
    ) -> MovePicker {
        let mut moves = MoveList::new();
        pos.generate(gen, &mut moves);
        let scores = moves
            .iter()
            .map(|&m| {
                if m == tt_move {
                    TT_MOVE
                } else if is_noisy(pos, m) {
                    NOISY + noisy_gain(pos, m)
                } else if m == killers[0] {
                    KILLER + 1
                } else if m == killers[1] {
                    KILLER
                } else if m.promotion_role().is_some() {
                    // Underpromotions: almost never right.
                    -HISTORY_MAX - 1
                } else {
                    let piece = pos.piece_at(m.from()).map_or(0, |p| p.index());
                    history.get(piece, m.to().index())
                }
            })
            .collect();
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    /// The best remaining move, or `None` when all were returned.
    #[inline]
    pub fn next_move(&mut self) -> Option<Move> {
        if self.next >= self.moves.len() {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..self.moves.len() {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }
}

/// Whether `m` is a capture or a queen promotion (quiescence search's moves).
#[inline(always)]
pub fn is_noisy<V: Variant>(pos: &Position<V>, m: Move) -> bool {
    m.kind() == MoveKind::EnPassant
        || m.kind() == MoveKind::PromoteQueen
        || pos.color(!pos.side_to_move()).has(m.to())
}
