//! Alpha-beta search: iterative deepening over a principal variation search (PVS)
//! with a transposition table and quiescence search.
//!
//! The search knows nothing of UCI: it reports through the [`Reporter`] trait, which
//! the UCI loop, the `analyze` command and `bench` implement. It is generic over the
//! variant, so every rule test inside it is resolved at compile time.

pub mod ordering;
pub mod score;
pub mod timeman;
pub mod tt;

use crate::bitboard::BitBoard;
use crate::eval::{evaluate, params::EvalParams};
use crate::geometry::Geometry;
use crate::minesweeper::belief::Belief;
use crate::movegen::GenType;
use crate::moves::{Move, MoveList};
use crate::position::{hill, Position};
use crate::variant::{Outcome, Variant};
use ordering::{is_noisy, History, MovePicker};
use score::{from_tt, mate_in, mated_in, to_tt, INFINITE, MATE_BOUND, MAX_PLY, WIN_CLAMP};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use timeman::{Limits, TimeManager};
use tt::{Bound, TranspositionTable};

/// State shared by the threads of one search and the thread that controls it.
pub struct SearchShared {
    /// The transposition table.
    pub tt: Arc<TranspositionTable>,
    /// Set to stop the search as soon as possible (`stop`, `quit`).
    pub stop: AtomicBool,
    /// True while pondering; cleared by `ponderhit`, which starts our clock.
    pub pondering: AtomicBool,
}

impl SearchShared {
    /// Shared state around `tt`, not stopped, not pondering.
    pub fn new(tt: Arc<TranspositionTable>) -> SearchShared {
        SearchShared {
            tt,
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
        }
    }
}

/// Options of one search besides its limits.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Number of principal variations to report (UCI `MultiPV`), at least 1.
    pub multipv: usize,
    /// Milliseconds kept in reserve for communication lag (UCI `Move Overhead`).
    pub move_overhead: u64,
    /// Restrict the root to these moves (UCI `searchmoves`); empty means all.
    pub searchmoves: Vec<Move>,
    /// Minesweeper: weigh moves onto possibly mined squares by their mine probability
    /// (chance nodes). Off, unknown squares count as safe.
    pub mine_chance: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            multipv: 1,
            move_overhead: 10,
            searchmoves: Vec::new(),
            mine_chance: true,
        }
    }
}

/// One line of search output: a completed iteration's principal variation.
#[derive(Clone, Debug)]
pub struct IterationInfo<'a> {
    /// Nominal depth, plies.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// 1-based index of this line among the `MultiPV` lines.
    pub multipv: usize,
    /// Score of the line for the side to move (see [`score`]).
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Transposition-table use, per mille.
    pub hashfull: u32,
    /// The principal variation, root move first.
    pub pv: &'a [Move],
}

/// Receives the search's progress. Every method has an empty default.
pub trait Reporter {
    /// Called for each line of each completed iteration.
    fn iteration(&mut self, _info: &IterationInfo) {}
}

/// A reporter that ignores everything (bench, tests).
pub struct Silent;

impl Reporter for Silent {}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play; [`Move::NONE`] only when the root has no legal move.
    pub best: Move,
    /// The expected reply, if known (for pondering).
    pub ponder: Move,
    /// Score of `best` for the side to move.
    pub score: i32,
    /// Depth of the last completed iteration.
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// The root moves of the `MultiPV` lines with their scores, best first (from the
    /// last completed iteration).
    pub lines: Vec<(Move, i32)>,
}

#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    score: i32,
    pv: Vec<Move>,
}

/// One search thread's state: histories, killers, principal variations. Keep it
/// between searches of a game (it learns); [`Searcher::clear`] on `ucinewgame`.
pub struct Searcher<V: Variant> {
    history: History,
    killers: Box<[[Move; 2]; MAX_PLY + 1]>,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    keys: Vec<u64>,
    nodes: u64,
    seldepth: usize,
    node_limit: u64,
    time: TimeManager,
    stopped: bool,
    was_pondering: bool,
    belief: Option<Belief>,
    _variant: std::marker::PhantomData<V>,
}

impl<V: Variant> Default for Searcher<V> {
    fn default() -> Self {
        Self::new()
    }
}

/// Per-node context: the things every node needs and the search threads through.
struct Ctx<'a> {
    shared: &'a SearchShared,
    params: &'a EvalParams,
}

impl<V: Variant> Searcher<V> {
    /// A searcher with empty statistics.
    pub fn new() -> Searcher<V> {
        Searcher {
            history: History::default(),
            killers: Box::new([[Move::NONE; 2]; MAX_PLY + 1]),
            pv: Box::new([[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            keys: Vec::with_capacity(1024),
            nodes: 0,
            seldepth: 0,
            node_limit: u64::MAX,
            time: TimeManager::new(&Limits::default(), crate::types::Color::White, 0, Instant::now()),
            stopped: false,
            was_pondering: false,
            belief: None,
            _variant: std::marker::PhantomData,
        }
    }

    /// Forgets what earlier searches learned (`ucinewgame`).
    pub fn clear(&mut self) {
        self.history.clear();
        *self.killers = [[Move::NONE; 2]; MAX_PLY + 1];
    }

    /// Searches `root`, whose game so far passed through the positions with keys
    /// `game_keys` (oldest first, `root` excluded; used to detect repetitions).
    /// Returns when a limit is reached or `shared.stop` is set; with `infinite` or
    /// while pondering, not before `stop` or `ponderhit`.
    pub fn search(
        &mut self,
        root: &Position<V>,
        game_keys: &[u64],
        limits: &Limits,
        options: &SearchOptions,
        shared: &SearchShared,
        params: &EvalParams,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        let start = Instant::now();
        self.time = TimeManager::new(limits, root.side_to_move(), options.move_overhead, start);
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.was_pondering = shared.pondering.load(Ordering::Relaxed);
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.keys.clear();
        self.keys.extend_from_slice(game_keys);
        self.belief = if options.mine_chance {
            V::new_belief(root)
        } else {
            None
        };
        shared.tt.new_search();
        let ctx = Ctx { shared, params };

        let mut root_moves = self.root_moves(root, options, shared);
        let mut result = SearchResult {
            best: root_moves.first().map_or(Move::NONE, |r| r.mv),
            ponder: Move::NONE,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
            lines: Vec::new(),
        };
        if root_moves.is_empty() {
            // No legal move: report the result of the finished game (UCI.md).
            result.score = match root.outcome() {
                Some(Outcome::Decisive { winner }) if winner == root.side_to_move() => mate_in(0),
                Some(Outcome::Decisive { .. }) => mated_in(0),
                _ => 0,
            };
            return result;
        }
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 1)
            .clamp(1, MAX_PLY as i32 - 1);
        let lines = options.multipv.clamp(1, root_moves.len());
        for depth in 1..=max_depth {
            for pv_idx in 0..lines {
                self.search_root(root, depth, pv_idx, &mut root_moves, &ctx);
                if self.stopped {
                    break;
                }
            }
            if self.stopped && depth > 1 {
                break;
            }
            result.depth = depth;
            for (i, rm) in root_moves.iter().take(lines).enumerate() {
                reporter.iteration(&IterationInfo {
                    depth,
                    seldepth: self.seldepth,
                    multipv: i + 1,
                    score: rm.score,
                    nodes: self.nodes,
                    elapsed: start.elapsed(),
                    hashfull: shared.tt.hashfull(),
                    pv: &rm.pv,
                });
            }
            if self.stopped || self.iteration_limit_reached(limits, &root_moves, lines) {
                break;
            }
        }
        // `infinite` and pondering must not answer before `stop` / `ponderhit`.
        while (limits.infinite || shared.pondering.load(Ordering::Relaxed))
            && !shared.stop.load(Ordering::Relaxed)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        let best = &root_moves[0];
        result.best = best.mv;
        result.score = best.score;
        result.pv = best.pv.clone();
        result.lines = root_moves
            .iter()
            .take(lines)
            .map(|rm| (rm.mv, rm.score))
            .collect();
        result.nodes = self.nodes;
        result.ponder = match best.pv.get(1) {
            Some(&m) => m,
            None => self.ponder_from_tt(root, best.mv, shared),
        };
        result
    }

    /// The legal root moves, restricted to `searchmoves`, in move-ordering order.
    fn root_moves(
        &self,
        root: &Position<V>,
        options: &SearchOptions,
        shared: &SearchShared,
    ) -> Vec<RootMove> {
        let legal = root.legal_moves();
        let tt_move = shared.tt.probe(root.key()).map_or(Move::NONE, |h| h.mv);
        let mut picker = MovePicker::new(root, GenType::All, tt_move, [Move::NONE; 2], &self.history);
        let mut moves = Vec::with_capacity(legal.len());
        while let Some(mv) = picker.next_move() {
            if legal.contains(&mv) && (options.searchmoves.is_empty() || options.searchmoves.contains(&mv)) {
                moves.push(RootMove {
                    mv,
                    score: -INFINITE,
                    pv: vec![mv],
                });
            }
        }
        moves
    }

    fn ponder_from_tt(&self, root: &Position<V>, best: Move, shared: &SearchShared) -> Move {
        let mut after = *root;
        after.play(best);
        match shared.tt.probe(after.key()) {
            Some(hit) if after.legal_moves().contains(&hit.mv) => hit.mv,
            _ => Move::NONE,
        }
    }

    /// Whether a completed iteration satisfied the limits (mate found, time used).
    fn iteration_limit_reached(&self, limits: &Limits, rms: &[RootMove], lines: usize) -> bool {
        let best = rms[0].score;
        if let Some(moves) = limits.mate {
            if best >= mate_in(2 * moves as usize) {
                return true;
            }
        }
        if self.was_pondering || limits.infinite {
            return false;
        }
        // A forced move needs no thought when the clock runs.
        if rms.len() == 1 && lines == 1 && limits.has_clock() {
            return true;
        }
        self.time.soft_expired(1.0)
    }

    /// Searches root moves `pv_idx..` at `depth` with a full window and sorts them.
    fn search_root(
        &mut self,
        root: &Position<V>,
        depth: i32,
        pv_idx: usize,
        rms: &mut [RootMove],
        ctx: &Ctx,
    ) {
        let mut alpha = -INFINITE;
        let beta = INFINITE;
        for rm in rms[pv_idx..].iter_mut() {
            rm.score = -INFINITE;
        }
        self.keys.push(root.key());
        for i in pv_idx..rms.len() {
            let m = rms[i].mv;
            let p = self.mine_probability(root, m);
            let mut score;
            if is_chance(p) {
                score = self.chance::<true>(root, m, p, alpha, beta, depth - 1, 0, ctx);
            } else {
                let child = play_certain(root, m, p);
                let new_depth = depth - 1 + i32::from(child.in_check());
                if i == pv_idx {
                    score = -self.negamax::<true>(&child, -beta, -alpha, new_depth, 1, ctx);
                } else {
                    score = -self.negamax::<false>(&child, -alpha - 1, -alpha, new_depth, 1, ctx);
                    if score > alpha && !self.stopped {
                        score = -self.negamax::<true>(&child, -beta, -alpha, new_depth, 1, ctx);
                    }
                }
            }
            if self.stopped {
                break;
            }
            if i == pv_idx || score > alpha {
                rms[i].score = score;
                rms[i].pv.clear();
                rms[i].pv.push(m);
                rms[i].pv.extend_from_slice(&self.pv[1][1..self.pv_len[1]]);
                alpha = alpha.max(score);
            }
        }
        self.keys.pop();
        rms[pv_idx..].sort_by(|a, b| b.score.cmp(&a.score));
    }

    /// Checks the stop flag, the clock and the node limit every 1024 nodes.
    #[inline(always)]
    fn poll_stop(&mut self, shared: &SearchShared) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes >= self.node_limit {
            self.stopped = true;
            return true;
        }
        if self.nodes & 1023 == 0 {
            if shared.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            } else if shared.pondering.load(Ordering::Relaxed) {
                // Not on the clock yet.
            } else {
                if self.was_pondering {
                    // `ponderhit`: our clock started just now.
                    self.was_pondering = false;
                    self.time.restart(Instant::now());
                }
                if self.time.hard_expired() {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }

    /// Whether the position at `ply` (> 0) is drawn by rule: repetition, the 50-move
    /// rule, or material that cannot win.
    fn is_draw(&self, pos: &Position<V>) -> bool {
        if pos.is_drawn_material() {
            return true;
        }
        if pos.is_fifty_move_draw() && (!pos.in_check() || pos.has_legal_move()) {
            return true;
        }
        // Same side to move: 2, 4, ... plies back, no further than the last
        // irreversible move. A single repetition counts, as the opponent may claim.
        let key = pos.key();
        let n = self.keys.len();
        let reach = (pos.halfmove_clock() as usize).min(n);
        let mut back = 2;
        while back <= reach {
            if self.keys[n - back] == key {
                return true;
            }
            back += 2;
        }
        false
    }

    fn negamax<const PV: bool>(
        &mut self,
        pos: &Position<V>,
        mut alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        ctx: &Ctx,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, ctx);
        }
        self.nodes += 1;
        self.pv_len[ply] = ply;
        if self.poll_stop(ctx.shared) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(outcome) = pos.special_outcome() {
            return outcome_score(outcome, pos, ply);
        }
        if self.is_draw(pos) {
            return 0;
        }
        if ply >= MAX_PLY {
            return evaluate(pos, ctx.params);
        }

        let key = pos.key();
        let tt_hit = ctx.shared.tt.probe(key);
        let tt_move = tt_hit.map_or(Move::NONE, |h| h.mv);
        if let Some(hit) = tt_hit {
            if !PV && hit.depth >= depth {
                let s = from_tt(hit.score, ply);
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }

        let in_check = pos.in_check();
        let mut picker = MovePicker::new(pos, GenType::All, tt_move, self.killers[ply], &self.history);
        let mut best_score = -INFINITE;
        let mut best_move = Move::NONE;
        let mut legal = 0;
        let mut quiets_tried = MoveList::new();
        self.keys.push(key);
        while let Some(m) = picker.next_move() {
            if !pos.is_legal(m) {
                continue;
            }
            legal += 1;
            let p = self.mine_probability(pos, m);
            let mut score;
            if is_chance(p) {
                score = self.chance::<PV>(pos, m, p, alpha, beta, depth - 1, ply, ctx);
            } else {
                let child = play_certain(pos, m, p);
                let new_depth = depth - 1 + i32::from(child.in_check());
                if legal == 1 {
                    score = -self.negamax::<PV>(&child, -beta, -alpha, new_depth, ply + 1, ctx);
                } else {
                    score = -self.negamax::<false>(&child, -alpha - 1, -alpha, new_depth, ply + 1, ctx);
                    if PV && score > alpha && score < beta && !self.stopped {
                        score = -self.negamax::<true>(&child, -beta, -alpha, new_depth, ply + 1, ctx);
                    }
                }
            }
            if self.stopped {
                self.keys.pop();
                return 0;
            }
            let quiet = !is_noisy(pos, m);
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if quiet {
                            self.reward_quiet(pos, m, &quiets_tried, depth, ply);
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(m);
            }
        }
        self.keys.pop();

        if legal == 0 {
            return if in_check { mated_in(ply) } else { 0 };
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        ctx.shared
            .tt
            .store(key, best_move, to_tt(best_score, ply), 0, depth, bound);
        best_score
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    fn reward_quiet(&mut self, pos: &Position<V>, m: Move, tried: &[Move], depth: i32, ply: usize) {
        if self.killers[ply][0] != m {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = m;
        }
        let bonus = (depth * depth).min(1200);
        let piece = |mv: Move| pos.piece_at(mv.from()).map_or(0, |p| p.index());
        self.history.update(piece(m), m.to().index(), bonus);
        for &q in tried {
            self.history.update(piece(q), q.to().index(), -bonus);
        }
    }

    /// Quiescence search: captures and queen promotions only (every move when in
    /// check), with the static evaluation as a lower bound ("stand pat").
    fn qsearch(&mut self, pos: &Position<V>, mut alpha: i32, beta: i32, ply: usize, ctx: &Ctx) -> i32 {
        self.nodes += 1;
        self.pv_len[ply] = ply;
        if self.poll_stop(ctx.shared) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(outcome) = pos.special_outcome() {
            return outcome_score(outcome, pos, ply);
        }
        if pos.is_drawn_material() {
            return 0;
        }
        if ply >= MAX_PLY {
            return evaluate(pos, ctx.params);
        }
        if V::HILL && self.can_reach_hill(pos) {
            return mate_in(ply + 1);
        }
        let in_check = pos.in_check();
        let mut best_score = -INFINITE;
        if !in_check {
            best_score = evaluate(pos, ctx.params);
            if best_score >= beta {
                return best_score;
            }
            alpha = alpha.max(best_score);
        }
        let gen = if in_check { GenType::All } else { GenType::Noisy };
        let tt_move = ctx.shared.tt.probe(pos.key()).map_or(Move::NONE, |h| h.mv);
        let mut picker = MovePicker::new(pos, gen, tt_move, [Move::NONE; 2], &self.history);
        let mut legal = 0;
        while let Some(m) = picker.next_move() {
            if !pos.is_legal(m) {
                continue;
            }
            legal += 1;
            let p = self.mine_probability(pos, m);
            let score = if is_chance(p) {
                // Only check evasions onto fogged squares get here.
                self.chance::<false>(pos, m, p, alpha, beta, 0, ply, ctx)
            } else {
                -self.qsearch(&play_certain(pos, m, p), -beta, -alpha, ply + 1, ctx)
            };
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && legal == 0 {
            return mated_in(ply);
        }
        best_score
    }

    /// Minesweeper: the probability that `m` ends on a mine, from the search's belief.
    #[inline(always)]
    fn mine_probability(&mut self, pos: &Position<V>, m: Move) -> f32 {
        if V::MINES {
            V::mine_probability(pos, m, self.belief.as_mut())
        } else {
            0.0
        }
    }

    /// The value of a move whose landing square holds a mine with probability `p`
    /// (0 < p < 1): the probability-weighted average of its two outcomes, searched
    /// with Ballard's Star1 pruning (Ballard 1983; Hauk, Buro and Schaeffer,
    /// "Rediscovering *-Minimax Search", 2004). Each outcome's score lies in
    /// [-WIN_CLAMP, WIN_CLAMP] once mate scores are clamped, which bounds what the
    /// unsearched outcome can add; windows and cut-offs follow from those bounds.
    /// A mate is reported only when both outcomes are mates of the same sign.
    #[allow(clippy::too_many_arguments)]
    fn chance<const PV: bool>(
        &mut self,
        pos: &Position<V>,
        m: Move,
        p: f32,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        ctx: &Ctx,
    ) -> i32 {
        let (alpha, beta, win) = (alpha as f64, beta as f64, WIN_CLAMP as f64);
        let p = p as f64;
        // The likelier outcome first: it narrows the window of the other one most.
        let outcomes = if p > 0.5 {
            [(p, true), (1.0 - p, false)]
        } else {
            [(1.0 - p, false), (p, true)]
        };
        let mut sum = 0.0;
        let mut rest = 1.0;
        let mut raw = [0i32; 2];
        for (k, &(prob, mine)) in outcomes.iter().enumerate() {
            rest -= prob;
            let lo = ((alpha - sum - rest * win) / prob).floor().max(-win - 1.0) as i32;
            let hi = ((beta - sum + rest * win) / prob).ceil().min(win + 1.0) as i32;
            let mut child = *pos;
            child.play_outcome(m, mine);
            let new_depth = depth + i32::from(child.in_check());
            let v = -self.negamax::<PV>(&child, -hi, -lo, new_depth, ply + 1, ctx);
            if self.stopped {
                return 0;
            }
            raw[k] = v;
            sum += prob * v.clamp(-WIN_CLAMP, WIN_CLAMP) as f64;
            if sum + rest * win <= alpha {
                return (sum + rest * win).floor() as i32;
            }
            if sum - rest * win >= beta {
                return (sum - rest * win).ceil() as i32;
            }
        }
        if raw.iter().all(|&v| v >= MATE_BOUND) {
            return raw[0].min(raw[1]);
        }
        if raw.iter().all(|&v| v <= -MATE_BOUND) {
            return raw[0].max(raw[1]);
        }
        sum.round() as i32
    }

    /// King of the hill: whether the side to move's king can step onto the hill now.
    fn can_reach_hill(&self, pos: &Position<V>) -> bool {
        let Some(king) = pos.king(pos.side_to_move()) else {
            return false;
        };
        let targets = V::G::king_attacks(king) & hill::<V::G>() & !pos.color(pos.side_to_move());
        targets.squares().any(|sq| pos.is_legal(Move::normal(king, sq)))
    }
}

/// The score of a finished game for the side to move at `ply`.
fn outcome_score<V: Variant>(outcome: Outcome, pos: &Position<V>, ply: usize) -> i32 {
    match outcome {
        Outcome::Draw => 0,
        Outcome::Decisive { winner } if winner == pos.side_to_move() => mate_in(ply),
        Outcome::Decisive { .. } => mated_in(ply),
    }
}

/// Whether a move with mine probability `p` has two possible outcomes.
#[inline(always)]
fn is_chance(p: f32) -> bool {
    p > 0.0 && p < 1.0
}

/// `pos` after `m`, whose outcome is certain: a mine when `p` is 1, none when 0.
#[inline(always)]
fn play_certain<V: Variant>(pos: &Position<V>, m: Move, p: f32) -> Position<V> {
    let mut child = *pos;
    if V::MINES {
        child.play_outcome(m, p >= 1.0);
    } else {
        child.play(m);
    }
    child
}
