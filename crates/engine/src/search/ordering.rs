//! Move ordering: the move picker and the statistics it sorts by.
//!
//! Order: the transposition-table move; captures and queen promotions by expected
//! gain (MVV-LVA in chess, the blast balance in atomic), those losing material by
//! SEE after the quiet moves; the two killer moves of the ply and the countermove
//! of the previous move; then quiet moves by history (Schaeffer's history heuristic)
//! plus continuation histories one and two plies back (as in Stockfish). Captures of
//! about equal gain are ordered by capture history (as in Stockfish). Underpromotions
//! that capture nothing come last. The picker works in stages, as Stockfish's
//! `movepick.cpp` does: the hash move is returned before any move is generated (it is
//! checked with `Position::is_pseudo_legal`), noisy moves are generated and scored
//! only after it, quiet moves only after the killers and the countermove, and a
//! stage's moves are picked by selection, so an early cut-off costs no full sort.

use crate::search::see::see_ge;
use crate::search::VariantSearch;
use crate::values::ORDERING;
use arrayvec::ArrayVec;
use sapper_rules::bitboard::BitBoard;
use sapper_rules::movegen::GenType;
use sapper_rules::moves::{Move, MoveKind, MoveList, MAX_MOVES};
use sapper_rules::position::Position;
use sapper_rules::types::Color;
use sapper_rules::variant::Variant;

/// The score of a non-capturing underpromotion among the quiet moves: below every
/// history score, so they come after the quiet moves (and, being kept for their own
/// stage, after the noisy moves that lose material).
const UNDERPROMOTION: i32 = i32::MIN;
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
pub fn noisy_gain<V: VariantSearch>(pos: &Position<V>, m: Move) -> i32 {
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

/// The picker's stages, in order (Stockfish's `movepick.cpp` has the same plan).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The transposition table's move, before anything is generated.
    TtMove,
    /// Generate and score the noisy moves.
    GenerateNoisy,
    /// Noisy moves by gain; those that fail SEE are put aside for [`Stage::BadNoisy`].
    GoodNoisy,
    /// The first killer, then the second, then the countermove.
    Killer0,
    Killer1,
    Counter,
    /// Generate and score the quiet moves.
    GenerateQuiet,
    /// Quiet moves by history, until only underpromotions are left.
    Quiet,
    /// The noisy moves that failed SEE, by gain.
    BadNoisy,
    /// Non-capturing underpromotions (almost never right).
    Underpromotions,
    Done,
}

/// Yields pseudo-legal moves best first, in stages, generating each kind of move only
/// when it is reached (a cut-off by the hash move costs no generation at all):
/// the transposition-table move, good noisy moves (SEE >= 0, or the variant's
/// exchange rule), the killers and the countermove, quiet moves, noisy moves that
/// lose material, underpromotions. A move is returned once; the caller tests
/// legality. The order is that of one score per move (the constants above):
/// scores are computed when a stage is reached, so histories updated by the searches
/// of earlier moves count.
pub struct MovePicker<'a, V: VariantSearch> {
    pos: &'a Position<V>,
    ctx: OrderContext,
    /// Noisy moves only (quiescence, ProbCut).
    noisy_only: bool,
    skip_quiets: bool,
    stage: Stage,
    /// The transposition-table move, if it was returned.
    tt_move: Move,
    /// Noisy moves in `[0, noisy_end)`, quiet ones after; the noisy moves that failed
    /// SEE are moved to `[0, bad_end)` (slots already returned) as they are met.
    moves: MoveList,
    scores: ArrayVec<i32, MAX_MOVES>,
    next: usize,
    bad_end: usize,
    bad_next: usize,
    noisy_end: usize,
}

impl<'a, V: VariantSearch> MovePicker<'a, V> {
    /// A picker over the moves of `pos` of type `gen`: [`GenType::All`] (every stage)
    /// or [`GenType::Noisy`] (the hash move if noisy, then the noisy stages).
    pub fn new(pos: &'a Position<V>, gen: GenType, ctx: &OrderContext) -> MovePicker<'a, V> {
        debug_assert!(gen != GenType::Quiet, "the picker has no quiet-only mode");
        MovePicker {
            pos,
            ctx: *ctx,
            noisy_only: gen == GenType::Noisy,
            skip_quiets: false,
            stage: Stage::TtMove,
            tt_move: Move::NONE,
            moves: MoveList::new(),
            scores: ArrayVec::new(),
            next: 0,
            bad_end: 0,
            bad_next: 0,
            noisy_end: 0,
        }
    }

    /// From now on, no quiet move (killers, countermove and underpromotions
    /// included) is returned, and quiet moves not generated yet never are
    /// (Stockfish's `skipQuiets`). Noisy moves still come.
    #[inline]
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// What the picker learned of the move it returned last: `Some(true)` if
    /// `see_ge(pos, m, 0)` holds (a good noisy move), `Some(false)` if it fails (a
    /// bad noisy move), `None` if SEE was not computed. Pruning reads it instead of
    /// computing SEE a second time.
    #[inline(always)]
    pub fn last_see(&self) -> Option<bool> {
        match self.stage {
            Stage::GoodNoisy => Some(true),
            Stage::BadNoisy => Some(false),
            _ => None,
        }
    }

    /// `see_ge(pos, m, 0)` for `m`, the move returned last: what the picker found,
    /// else computed.
    #[inline(always)]
    pub fn last_see_ge_zero(&self, m: Move) -> bool {
        self.last_see().unwrap_or_else(|| see_ge(self.pos, m, 0))
    }

    /// The best remaining move, or `None` when all were returned; `histories` scores
    /// the moves of a stage when it is reached.
    pub fn next_move(&mut self, histories: &Histories) -> Option<Move> {
        // Most calls come in the quiet stage, between two of its moves: answered
        // before the stages' jump table, whose indirect branch was mispredicted
        // about twice a node.
        if self.stage == Stage::Quiet {
            if let Some(m) = self.next_quiet() {
                return Some(m);
            }
            self.stage = Stage::BadNoisy;
        }
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenerateNoisy;
                    let m = self.ctx.tt_move;
                    if m.is_some()
                        && self.pos.is_pseudo_legal(m)
                        && (!self.noisy_only || is_noisy(self.pos, m))
                    {
                        self.tt_move = m;
                        return Some(m);
                    }
                }
                Stage::GenerateNoisy => {
                    self.generate_noisy(histories);
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => {
                    while self.next < self.noisy_end {
                        let i = self.select(self.next, self.noisy_end);
                        let m = self.moves[i];
                        if see_ge(self.pos, m, 0) {
                            return Some(m);
                        }
                        self.moves[self.bad_end] = m;
                        self.scores[self.bad_end] = self.scores[i];
                        self.bad_end += 1;
                    }
                    self.stage = if self.noisy_only {
                        Stage::BadNoisy
                    } else {
                        Stage::Killer0
                    };
                }
                Stage::Killer0 | Stage::Killer1 | Stage::Counter => {
                    let (m, earlier): (Move, &[Move]) = match self.stage {
                        Stage::Killer0 => (self.ctx.killers[0], &[]),
                        Stage::Killer1 => (self.ctx.killers[1], &self.ctx.killers[..1]),
                        _ => (self.ctx.counter, &self.ctx.killers[..]),
                    };
                    let fresh = m.is_some() && m != self.tt_move && !earlier.contains(&m);
                    self.stage = match self.stage {
                        Stage::Killer0 => Stage::Killer1,
                        Stage::Killer1 => Stage::Counter,
                        _ => Stage::GenerateQuiet,
                    };
                    if fresh && !self.skip_quiets && self.pos.is_pseudo_legal(m) && !is_noisy(self.pos, m) {
                        return Some(m);
                    }
                }
                Stage::GenerateQuiet => {
                    if !self.skip_quiets {
                        self.generate_quiet(histories);
                    }
                    self.stage = Stage::Quiet;
                }
                Stage::Quiet => {
                    if let Some(m) = self.next_quiet() {
                        return Some(m);
                    }
                    self.stage = Stage::BadNoisy;
                }
                Stage::BadNoisy => {
                    if self.bad_next < self.bad_end {
                        self.bad_next += 1;
                        return Some(self.moves[self.bad_next - 1]);
                    }
                    self.stage = if self.noisy_only {
                        Stage::Done
                    } else {
                        Stage::Underpromotions
                    };
                }
                Stage::Underpromotions => {
                    if !self.skip_quiets && self.next < self.moves.len() {
                        self.next += 1;
                        return Some(self.moves[self.next - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    /// The quiet stage's next move, or `None` when it is over: quiet moves skipped,
    /// or only underpromotions left (they come last, in their own stage).
    #[inline(always)]
    fn next_quiet(&mut self) -> Option<Move> {
        if !self.skip_quiets && self.next < self.moves.len() {
            let i = self.select(self.next, self.moves.len());
            if self.scores[i] > UNDERPROMOTION {
                return Some(self.moves[i]);
            }
            self.next -= 1;
        }
        None
    }

    /// Moves the best-scored move of `[from, to)` to `from` and steps past it
    /// (selection: an early cut-off costs no full sort); returns its index, `from`.
    /// Ties go to the earliest, as before the picker had stages.
    #[inline(always)]
    fn select(&mut self, from: usize, to: usize) -> usize {
        // The first of the highest scores in one pass with no early exit: each
        // score is widened to `i64` with its position, inverted, in the low 16 bits
        // (below `MAX_MOVES`), so the maximum key is the highest score at its first
        // position, and the maximum vectorizes. The search for where the top score
        // first was mispredicted its exit at about every call (a third of the
        // minesweeper search's mispredicted branches).
        const _: () = assert!(MAX_MOVES <= 0xFFFF);
        let range = &self.scores[from..to];
        let key = range
            .iter()
            .enumerate()
            .map(|(j, &s)| (i64::from(s) << 16) | (0xFFFF - j as i64))
            .fold(i64::MIN, i64::max);
        let best = from + (0xFFFF - (key & 0xFFFF)) as usize;
        self.moves.swap(from, best);
        self.scores.swap(from, best);
        self.next = from + 1;
        from
    }

    /// Generates the noisy moves but the hash move and scores them by gain. Out of
    /// line: inlined, its registers made every call of [`Self::next_move`] save and
    /// restore them.
    #[inline(never)]
    fn generate_noisy(&mut self, histories: &Histories) {
        let pos = self.pos;
        pos.generate(GenType::Noisy, &mut self.moves);
        self.moves.retain(|m| *m != self.tt_move);
        for &m in self.moves.iter() {
            // The gain dominates; the capture history orders captures of about
            // equal gain.
            let gain = noisy_gain(pos, m) * NOISY_GAIN_SCALE + histories.capture_score(capture_index(pos, m));
            self.scores.push(gain);
        }
        self.noisy_end = self.moves.len();
    }

    /// Generates the quiet moves but those already returned (hash move, killers,
    /// countermove) after the noisy ones and scores them by history. Out of line,
    /// as [`Self::generate_noisy`].
    #[inline(never)]
    fn generate_quiet(&mut self, histories: &Histories) {
        let pos = self.pos;
        let start = self.moves.len();
        pos.generate(GenType::Quiet, &mut self.moves);
        let returned = [
            self.tt_move,
            self.ctx.killers[0],
            self.ctx.killers[1],
            self.ctx.counter,
        ];
        let mut i = start;
        while i < self.moves.len() {
            if returned.contains(&self.moves[i]) {
                self.moves.swap_remove(i);
            } else {
                i += 1;
            }
        }
        let side = pos.side_to_move();
        for &m in &self.moves[start..] {
            self.scores.push(if m.promotion_role().is_some() {
                UNDERPROMOTION
            } else {
                histories.quiet_score(side, piece_to(pos, m), self.ctx.prev)
            });
        }
        self.next = start;
    }
}

/// Whether `m` is a capture or a queen promotion (quiescence search's moves).
#[inline(always)]
pub fn is_noisy<V: Variant>(pos: &Position<V>, m: Move) -> bool {
    m.kind() == MoveKind::EnPassant
        || m.kind() == MoveKind::PromoteQueen
        || pos.color(!pos.side_to_move()).has(m.to())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sapper_rules::variant::minesweeper::Minesweeper;
    use sapper_rules::variant::{Atomic, Chess};

    // The one-score picker's keys (before the picker had stages): the order the
    // staged picker must reproduce.
    const TT_MOVE: i32 = 1 << 30;
    const GOOD_NOISY: i32 = 1 << 28;
    const KILLER: i32 = 1 << 27;
    const COUNTER: i32 = KILLER - 2;
    const BAD_NOISY: i32 = -(1 << 28);

    fn reference_key<V: VariantSearch>(pos: &Position<V>, m: Move, ctx: &OrderContext, h: &Histories) -> i32 {
        if m == ctx.tt_move {
            TT_MOVE
        } else if is_noisy(pos, m) {
            let gain = noisy_gain(pos, m) * NOISY_GAIN_SCALE + h.capture_score(capture_index(pos, m));
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
            BAD_NOISY - 1
        } else {
            h.quiet_score(pos.side_to_move(), piece_to(pos, m), ctx.prev)
        }
    }

    /// A small LCG, so the test's choices depend only on the seed.
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self) -> usize {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) as usize
        }
        fn history(&mut self) -> i16 {
            // In i32: 2 * HISTORY_MAX does not fit an i16.
            ((self.next() % (2 * HISTORY_MAX as usize + 1)) as i32 - HISTORY_MAX) as i16
        }
    }

    fn random_histories(rng: &mut Lcg) -> Histories {
        let mut h = Histories::default();
        for side in h.quiet.iter_mut() {
            side.iter_mut().for_each(|v| *v = rng.history());
        }
        h.continuation.iter_mut().for_each(|v| *v = rng.history());
        // Coarse capture histories, so that equal gains with equal histories (ties)
        // occur too.
        h.capture
            .iter_mut()
            .for_each(|v| *v = rng.history() / 4096 * 4096);
        h
    }

    fn pick_all<V: VariantSearch>(
        pos: &Position<V>,
        gen: GenType,
        ctx: &OrderContext,
        h: &Histories,
    ) -> Vec<Move> {
        let mut picker = MovePicker::new(pos, gen, ctx);
        std::iter::from_fn(|| picker.next_move(h)).collect()
    }

    /// For many contexts (hash move, killers and countermove drawn from this
    /// position's moves, another position's moves, or none), the staged picker
    /// returns each generated move once, and in the one-score picker's key order.
    fn staged_order_equals_keys<V: VariantSearch>(fens: &[&str], seed: u64) {
        let positions: Vec<Position<V>> = fens.iter().map(|f| Position::from_fen(f).unwrap().0).collect();
        let mut rng = Lcg(seed);
        let h = random_histories(&mut rng);
        let mut foreign = MoveList::new();
        for p in &positions {
            p.generate(GenType::All, &mut foreign);
            foreign.truncate(MAX_MOVES / 2);
        }
        let mut cases = 0;
        for pos in &positions {
            let mut own = MoveList::new();
            pos.generate(GenType::All, &mut own);
            for _ in 0..200 {
                let draw = |rng: &mut Lcg| match rng.next() % 3 {
                    0 => Move::NONE,
                    1 => own[rng.next() % own.len()],
                    _ => foreign[rng.next() % foreign.len()],
                };
                let ctx = OrderContext {
                    tt_move: draw(&mut rng),
                    killers: [draw(&mut rng), draw(&mut rng)],
                    counter: draw(&mut rng),
                    prev: Previous {
                        one: Some(rng.next() % PIECE_TO),
                        two: rng.next().is_multiple_of(2).then(|| rng.next() % PIECE_TO),
                    },
                };
                for gen in [GenType::All, GenType::Noisy] {
                    let mut expected = MoveList::new();
                    pos.generate(gen, &mut expected);
                    let picked = pick_all(pos, gen, &ctx, &h);
                    let mut a: Vec<u32> = picked.iter().map(|m| m.raw()).collect();
                    let mut b: Vec<u32> = expected.iter().map(|m| m.raw()).collect();
                    a.sort_unstable();
                    b.sort_unstable();
                    assert_eq!(a, b, "{} {gen:?} {ctx:?}: not each move once", pos.to_fen());
                    let keys: Vec<i32> = picked.iter().map(|&m| reference_key(pos, m, &ctx, &h)).collect();
                    assert!(
                        keys.windows(2).all(|w| w[0] >= w[1]),
                        "{} {gen:?} {ctx:?}: keys out of order {keys:?}",
                        pos.to_fen()
                    );
                    cases += 1;
                }
            }
        }
        assert!(cases >= 400);
    }

    #[test]
    fn staged_picker_keeps_the_key_order_chess() {
        staged_order_equals_keys::<Chess>(
            &[
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
                "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
                "r3k2r/8/8/8/3pPp2/8/8/R3K1RR b KQkq e3 0 1",
                "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
                "8/8/8/2k5/2pP4/8/B7/4K3 b - d3 0 3",
            ],
            1,
        );
    }

    #[test]
    fn staged_picker_keeps_the_key_order_atomic() {
        staged_order_equals_keys::<Atomic>(
            &[
                "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1",
                "r4b1r/2kb1N2/p2Bpnp1/8/2Pp3p/1P1PPP2/P5PP/R3K2R b KQ - 0 1",
                "rnbqk2r/pp1p2pp/2p3Nn/5p2/1b2P1PP/8/PPP2P2/R1BQKB1R w KQkq - 0 1",
            ],
            2,
        );
    }

    #[test]
    fn staged_picker_keeps_the_key_order_minesweeper() {
        staged_order_equals_keys::<Minesweeper>(
            &[
                "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ????????/?M????M?/M??????M/???????? 4",
                "k3r3/8/8/8/8/8/8/2N5/7P/4K3 w - - 0 1 M??????M/M??????M/????????/?000???? 4",
            ],
            3,
        );
    }

    /// Once told to skip quiet moves, the picker returns only noisy ones, and every
    /// noisy move not returned yet still comes.
    #[test]
    fn skip_quiets_keeps_the_noisy_moves() {
        let pos = Position::<Chess>::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap()
        .0;
        let h = random_histories(&mut Lcg(4));
        let noisy: Vec<Move> = pick_all(&pos, GenType::Noisy, &OrderContext::default(), &h);
        assert!(noisy.len() >= 8);
        for after in 0..60 {
            let mut picker = MovePicker::new(&pos, GenType::All, &OrderContext::default());
            let mut seen = Vec::new();
            for _ in 0..after {
                seen.extend(picker.next_move(&h));
            }
            picker.skip_quiets();
            let rest: Vec<Move> = std::iter::from_fn(|| picker.next_move(&h)).collect();
            assert!(
                rest.iter().all(|&m| is_noisy(&pos, m)),
                "after {after}: a quiet move came"
            );
            for m in &noisy {
                assert!(seen.contains(m) || rest.contains(m), "after {after}: {m} lost");
            }
        }
    }
}
