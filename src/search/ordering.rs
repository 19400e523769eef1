//! Move ordering: the move picker and the statistics it sorts by.
//!
//! Order: the transposition-table move; captures and queen promotions by expected
//! gain (MVV-LVA in chess, the blast balance in atomic), those losing material by
//! SEE after the quiet moves; the two killer moves of the ply and the countermove
//! of the previous move; then quiet moves by history (Schaeffer's history heuristic)
//! plus continuation histories one and two plies back (as in Stockfish). Captures of
//! about equal gain are ordered by capture history (as in Stockfish). Moves are
//! scored once and picked by selection, so an early cut-off costs no full sort.

use crate::bitboard::BitBoard;
use crate::movegen::GenType;
use crate::moves::{Move, MoveKind, MoveList, MAX_MOVES};
use crate::position::Position;
use crate::search::see::see_ge;
use crate::types::Color;
use crate::values::ORDERING;
use crate::variant::Variant;
use arrayvec::ArrayVec;

const TT_MOVE: i32 = 1 << 30;
const GOOD_NOISY: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
const COUNTER: i32 = KILLER - 2;
const BAD_NOISY: i32 = -(1 << 28);
/// A noisy move's gain (centipawns) is multiplied by this before its capture history
/// (at most +-[`HISTORY_MAX`]) is added.
const NOISY_GAIN_SCALE: i32 = 16;
/// History scores stay within +-HISTORY_MAX.
pub const HISTORY_MAX: i32 = 16_384;

/// Index of a (piece, destination) pair: `piece * 80 + to`, below [`PIECE_TO`].
pub const PIECE_TO: usize = 12 * 80;

/// The (piece, destination) index of `m` in `pos` (before it is played).
#[inline(always)]
pub fn piece_to<V: Variant>(pos: &Position<V>, m: Move) -> usize {
    pos.piece_at(m.from()).map_or(0, |p| p.index()) * 80 + m.to().index()
}

/// Adds `bonus` with gravity, so a score saturates at +-[`HISTORY_MAX`] and old
/// information fades.
#[inline(always)]
fn gravity(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let v = *entry as i32;
    *entry = (v + bonus - v * bonus.abs() / HISTORY_MAX) as i16;
}

/// The search's move-ordering statistics.
pub struct Histories {
    /// Butterfly-style history by side to move and (piece, destination).
    quiet: Box<[[i16; PIECE_TO]; 2]>,
    /// The quiet move that refuted each (piece, destination) last.
    counter: Box<[Move; PIECE_TO]>,
    /// Continuation history: score of a (piece, destination) after a previous one.
    continuation: Vec<i16>,
    /// Capture history (as in Stockfish): score of a noisy move by (piece,
    /// destination) and captured role, index [`capture_index`].
    capture: Vec<i16>,
}

/// Slots per (piece, destination) in the capture history: the captured role, or the
/// last slot for a promotion that captures nothing.
const CAPTURE_SLOTS: usize = 7;

/// The capture-history index of noisy `m` in `pos` (before it is played).
#[inline(always)]
pub fn capture_index<V: Variant>(pos: &Position<V>, m: Move) -> usize {
    let victim = pos
        .captured_square(m)
        .and_then(|sq| pos.role_at(sq))
        .map_or(CAPTURE_SLOTS - 1, |r| r.index());
    piece_to(pos, m) * CAPTURE_SLOTS + victim
}

impl Default for Histories {
    fn default() -> Self {
        Histories {
            quiet: Box::new([[0; PIECE_TO]; 2]),
            counter: Box::new([Move::NONE; PIECE_TO]),
            continuation: vec![0; PIECE_TO * PIECE_TO],
            capture: vec![0; PIECE_TO * CAPTURE_SLOTS],
        }
    }
}

/// The previous moves a node's ordering looks at: (piece, destination) indices of the
/// moves one and two plies back, if real moves.
#[derive(Clone, Copy, Debug, Default)]
pub struct Previous {
    /// One ply back.
    pub one: Option<usize>,
    /// Two plies back.
    pub two: Option<usize>,
}

impl Histories {
    /// Forgets everything (`ucinewgame`).
    pub fn clear(&mut self) {
        *self.quiet = [[0; PIECE_TO]; 2];
        *self.counter = [Move::NONE; PIECE_TO];
        self.continuation.iter_mut().for_each(|v| *v = 0);
        self.capture.iter_mut().for_each(|v| *v = 0);
    }

    /// The capture-history score of a noisy move (index from [`capture_index`]).
    #[inline(always)]
    pub fn capture_score(&self, index: usize) -> i32 {
        self.capture[index] as i32
    }

    /// After a cut-off: rewards the noisy `best` (a capture-history index) if the
    /// cut-off was a noisy move's, and punishes the noisy moves tried before it, by
    /// the same depth-scaled amount as quiet moves get.
    pub fn update_captures(&mut self, best: Option<usize>, tried: &[usize], depth: i32) {
        let bonus = history_bonus(depth);
        if let Some(i) = best {
            gravity(&mut self.capture[i], bonus);
        }
        for &i in tried {
            gravity(&mut self.capture[i], -bonus);
        }
    }

    /// The ordering score of quiet `pt` (a piece-to index) for `side` after `prev`.
    #[inline(always)]
    pub fn quiet_score(&self, side: Color, pt: usize, prev: Previous) -> i32 {
        let mut s = self.quiet[side.index()][pt] as i32;
        if let Some(p) = prev.one {
            s += self.continuation[p * PIECE_TO + pt] as i32;
        }
        if let Some(p) = prev.two {
            s += self.continuation[p * PIECE_TO + pt] as i32;
        }
        s
    }

    /// The countermove of the previous move.
    #[inline(always)]
    pub fn countermove(&self, prev: Previous) -> Move {
        prev.one.map_or(Move::NONE, |p| self.counter[p])
    }

    /// Rewards the quiet `best` that caused a cut-off and punishes the quiets tried
    /// before it (piece-to indices), by `depth`-scaled amounts.
    pub fn update_quiets(
        &mut self,
        side: Color,
        best: (Move, usize),
        tried: &[usize],
        depth: i32,
        prev: Previous,
    ) {
        let bonus = history_bonus(depth);
        self.apply(side, best.1, bonus, prev);
        for &pt in tried {
            self.apply(side, pt, -bonus, prev);
        }
        if let Some(p) = prev.one {
            self.counter[p] = best.0;
        }
    }

    fn apply(&mut self, side: Color, pt: usize, bonus: i32, prev: Previous) {
        gravity(&mut self.quiet[side.index()][pt], bonus);
        for p in [prev.one, prev.two].into_iter().flatten() {
            gravity(&mut self.continuation[p * PIECE_TO + pt], bonus);
        }
    }
}

/// The history bonus of a cut-off at `depth` (plies).
#[inline(always)]
fn history_bonus(depth: i32) -> i32 {
    (depth * depth * super::params::history_bonus_mul()).min(super::params::history_bonus_max())
}

/// The expected material gain of the noisy move `m` (centipawns, for ordering).
#[inline]
pub fn noisy_gain<V: Variant>(pos: &Position<V>, m: Move) -> i32 {
    let promo = m
        .promotion_role()
        .map_or(0, |r| ORDERING[r.index()] - ORDERING[0]);
    let Some(victim_sq) = pos.captured_square(m) else {
        return promo;
    };
    if let Some(gain) = V::capture_order_gain(pos, m, victim_sq) {
        return gain;
    }
    let victim = pos.role_at(victim_sq).map_or(0, |r| ORDERING[r.index()]);
    let attacker = pos.role_at(m.from()).map_or(0, |r| r.index() as i32);
    victim * 8 - attacker + promo
}

/// What the picker needs to know about the node besides the position.
#[derive(Clone, Copy, Debug, Default)]
pub struct OrderContext {
    /// The transposition table's move.
    pub tt_move: Move,
    /// The ply's killer moves.
    pub killers: [Move; 2],
    /// The countermove of the previous move.
    pub counter: Move,
    /// The previous moves, for continuation history.
    pub prev: Previous,
}

/// Yields pseudo-legal moves best first. The caller tests legality.
pub struct MovePicker {
    moves: MoveList,
    scores: ArrayVec<i32, MAX_MOVES>,
    next: usize,
}

impl MovePicker {
    /// Scores the moves of type `gen` in `pos`.
    pub fn new<V: Variant>(
        pos: &Position<V>,
        gen: GenType,
        ctx: &OrderContext,
        histories: &Histories,
    ) -> MovePicker {
        let mut moves = MoveList::new();
        pos.generate(gen, &mut moves);
        let side = pos.side_to_move();
        let mut scores = ArrayVec::new();
        for &m in moves.iter() {
            scores.push({
                if m == ctx.tt_move {
                    TT_MOVE
                } else if is_noisy(pos, m) {
                    // The gain dominates; the capture history orders captures
                    // of about equal gain.
                    let gain = noisy_gain(pos, m) * NOISY_GAIN_SCALE
                        + histories.capture_score(capture_index(pos, m));
                    if see_ge(pos, m, 0) {
                        GOOD_NOISY + gain
                    } else {
                        BAD_NOISY + gain
                    }
                } else if m == ctx.killers[0] {
                    KILLER + 1
                } else if m == ctx.killers[1] {
                    KILLER
                } else if m == ctx.counter {
                    COUNTER
                } else if m.promotion_role().is_some() {
                    // Underpromotions: almost never right.
                    BAD_NOISY - 1
                } else {
                    histories.quiet_score(side, piece_to(pos, m), ctx.prev)
                }
            });
        }
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
        // The first of the highest scores, in two passes that the compiler turns
        // into vector code (the maximum, then where it first is): a single pass
        // keeping the index of the best so far is a chain of dependent compares.
        let rest = &self.scores[self.next..];
        let top = rest.iter().copied().fold(i32::MIN, i32::max);
        let best = self.next + rest.iter().position(|&s| s == top).unwrap_or(0);
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
