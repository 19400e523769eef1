//! Alpha-beta search: iterative deepening with aspiration windows over a principal
//! variation search (PVS), with a transposition table, quiescence search, pruning
//! and reductions (`node.rs`), and chance nodes for minesweeper.
//!
//! The search knows nothing of UCI: it reports through the [`Reporter`] trait, which
//! the UCI loop, the `analyze` command and `bench` implement. It is generic over the
//! variant, so every rule test inside it is resolved at compile time.

mod atomic;
pub mod belief;
mod check_test;
pub mod correction;
mod eval_cache;
mod kingofthehill;
mod large_pages;
mod node;
pub mod ordering;
pub mod params;
pub mod score;
pub mod see;
pub mod timeman;
pub mod tt;
mod variant;

pub use variant::{LateQuiets, VariantSearch};

use crate::eval::nnue::AccumulatorStack;
use crate::eval::params::EvalParams;
use crate::eval::{endgame, evaluate_linear_with, EvalTables};
use crate::host::Instant;
use correction::CorrectionHistory;
use eval_cache::EvalCache;
use ordering::{Histories, MovePicker, OrderContext};
use sapper_rules::movegen::GenType;
use sapper_rules::moves::Move;
use sapper_rules::position::Position;
use sapper_rules::variant::{Outcome, Variant};
use score::{is_mate, mate_in, mated_in, INFINITE, MAX_PLY};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use timeman::{Limits, TimeManager, TimeScale};
use tt::TranspositionTable;

/// State shared by the threads of one search and the thread that controls it.
pub struct SearchShared {
    /// The transposition table.
    pub tt: Arc<TranspositionTable>,
    /// Set to stop the search as soon as possible (`stop`, `quit`).
    pub stop: AtomicBool,
    /// True while pondering; cleared by `ponderhit`, which starts our clock.
    pub pondering: AtomicBool,
    /// Nodes searched by all threads (each adds its count every 1024 nodes).
    pub nodes: AtomicU64,
    /// The root move the main thread is searching: its 1-based number in the root's
    /// order in the high 32 bits, `Move::raw` in the low (0: none yet). Read by
    /// `analyze`'s progress line, as UCI's `currmove` and `currmovenumber` tell.
    current: AtomicU64,
}

impl SearchShared {
    /// Shared state around `tt`, not stopped, not pondering.
    pub fn new(tt: Arc<TranspositionTable>) -> SearchShared {
        SearchShared {
            tt,
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            current: AtomicU64::new(0),
        }
    }

    /// Records that the main thread now searches root move `m`, the `number`-th.
    pub fn set_current_move(&self, m: Move, number: usize) {
        self.current
            .store(((number as u64) << 32) | u64::from(m.raw()), Ordering::Relaxed);
    }

    /// The root move the main thread is searching and its 1-based number, if any.
    pub fn current_move(&self) -> Option<(Move, usize)> {
        let v = self.current.load(Ordering::Relaxed);
        (v != 0).then(|| (Move::from_raw(v as u32), (v >> 32) as usize))
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
    /// Minesweeper, weaker levels: how far the mine probabilities lean toward a
    /// learner's guess, 0 (exact) to 1 (`skill::Skill::mine_naivety`).
    pub mine_naivety: f32,
    /// 0 for the main thread; helper threads of Lazy SMP count from 1. Helpers report
    /// nothing, leave the clock to the main thread and stop when it stops.
    pub thread: usize,
    /// Analysis (UCI_AnalyseMode): search even a forced move until the limit.
    pub analysis: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            multipv: 1,
            move_overhead: 10,
            searchmoves: Vec::new(),
            mine_chance: true,
            mine_naivety: 0.0,
            thread: 0,
            analysis: false,
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
    /// Nodes spent below this move in this search (for time management).
    nodes: u64,
}

/// What the search remembers about each ply of the current line.
#[derive(Clone, Copy, Debug)]
struct Frame {
    /// Static evaluation (side to move) with its correction ([`correction`]), or
    /// `NO_EVAL` in check.
    eval: i32,
    /// The static evaluation before correction (what the table stores).
    raw_eval: i32,
    /// (piece, destination) index of the move played from this ply, `None` for a
    /// null move.
    piece_to: Option<usize>,
    /// Killer moves: quiet moves that caused cut-offs at this ply.
    killers: [Move; 2],
    /// Whether the move played from this ply was a null move.
    null: bool,
    /// The move a singular-extension search at this ply leaves out, or `Move::NONE`.
    excluded: Move,
    /// Double extensions on the line down to this ply (bounded, so the search ends).
    double_extensions: u8,
    /// Whether the node is or was on a principal variation (Stockfish's `ttPv`).
    tt_pv: bool,
}

/// Marks a frame whose side to move was in check (no static evaluation).
const NO_EVAL: i32 = -INFINITE;

impl Default for Frame {
    fn default() -> Self {
        Frame {
            eval: NO_EVAL,
            raw_eval: NO_EVAL,
            piece_to: None,
            killers: [Move::NONE; 2],
            null: false,
            excluded: Move::NONE,
            double_extensions: 0,
            tt_pv: false,
        }
    }
}

/// Frames before ply 0, so `ply - 2` never underflows.
const STACK_OFFSET: usize = 2;

/// One search thread's state: histories, the search stack, principal variations.
/// Keep it between searches of a game (it learns); [`Searcher::clear`] on
/// `ucinewgame`.
pub struct Searcher<V: VariantSearch> {
    histories: Histories,
    correction: CorrectionHistory,
    /// Static evaluations of this thread's search, by key.
    eval_cache: EvalCache,
    /// Sums of the evaluation's pawn-structure and imbalance terms under this
    /// search's parameters.
    eval_tables: EvalTables,
    stack: Box<[Frame; MAX_PLY + STACK_OFFSET + 2]>,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    keys: Vec<u64>,
    nodes: u64,
    seldepth: usize,
    node_limit: u64,
    time: TimeManager,
    stopped: bool,
    was_pondering: bool,
    /// Whether this is a Lazy SMP helper thread.
    helper: bool,
    /// Whether the GUI analyses rather than plays.
    analysis: bool,
    /// Nodes already added to the shared count.
    flushed: u64,
    belief: Option<V::Belief>,
    /// Best-move changes at the root, decayed by half each iteration.
    best_changes: f64,
    /// The score of the previous search (the previous move of the game), for
    /// time management.
    previous_score: Option<i32>,
    /// The network's accumulators along the current line.
    nnue: AccumulatorStack,
    /// The ply of the node being searched: the search stack's cursor (Stockfish's
    /// `ss->ply`). `negamax_child` and `qsearch_child` move it down and back.
    ply: usize,
    /// The running search's context (`None` between searches, so that no table or
    /// parameters outlive the search that was given them).
    ctx: Option<SearchContext>,
    _variant: std::marker::PhantomData<V>,
}

impl<V: VariantSearch> Default for Searcher<V> {
    fn default() -> Self {
        Self::new()
    }
}

/// What one search shares with its caller and its helper threads: the stop flag,
/// node count and transposition table ([`SearchShared`]), and the evaluation's
/// parameters (and network).
#[derive(Clone)]
pub struct SearchContext {
    /// The state shared by the threads of the search.
    pub shared: Arc<SearchShared>,
    /// The evaluation's parameters, with the network if there is one.
    pub params: Arc<EvalParams>,
}

impl SearchContext {
    /// A context for one search with a new transposition table of `hash_mib` MiB.
    pub fn new(hash_mib: usize, params: Arc<EvalParams>) -> SearchContext {
        SearchContext {
            shared: Arc::new(SearchShared::new(Arc::new(TranspositionTable::new(hash_mib)))),
            params,
        }
    }
}

/// Depth from which iterations start with an aspiration window.
const ASPIRATION_DEPTH: i32 = 4;

impl<V: VariantSearch> Searcher<V> {
    /// A searcher with empty statistics.
    pub fn new() -> Searcher<V> {
        Searcher {
            histories: Histories::default(),
            correction: CorrectionHistory::default(),
            eval_cache: EvalCache::default(),
            eval_tables: EvalTables::default(),
            stack: Box::new([Frame::default(); MAX_PLY + STACK_OFFSET + 2]),
            pv: Box::new([[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            keys: Vec::with_capacity(1024),
            nodes: 0,
            seldepth: 0,
            node_limit: u64::MAX,
            time: TimeManager::new(
                &Limits::default(),
                sapper_rules::types::Color::White,
                0,
                0,
                V::OPENING_TIME_SHARE,
                Instant::now(),
            ),
            stopped: false,
            was_pondering: false,
            helper: false,
            analysis: false,
            flushed: 0,
            belief: None,
            best_changes: 0.0,
            previous_score: None,
            nnue: AccumulatorStack::new(MAX_PLY + STACK_OFFSET),
            ply: 0,
            ctx: None,
            _variant: std::marker::PhantomData,
        }
    }

    /// Forgets what earlier searches learned (`ucinewgame`).
    pub fn clear(&mut self) {
        self.histories.clear();
        self.correction.clear();
        self.previous_score = None;
        *self.stack = [Frame::default(); MAX_PLY + STACK_OFFSET + 2];
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
        ctx: &SearchContext,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        self.ctx = Some(ctx.clone());
        let result = self.search_with_context(root, game_keys, limits, options, reporter);
        self.ctx = None;
        result
    }

    /// [`Searcher::search`] once `self.ctx` is set.
    fn search_with_context(
        &mut self,
        root: &Position<V>,
        game_keys: &[u64],
        limits: &Limits,
        options: &SearchOptions,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        let ctx = self.ctx.clone().expect("search sets the context");
        let shared: &SearchShared = &ctx.shared;
        let start = Instant::now();
        let game_ply = 2 * root.fullmove_number().saturating_sub(1) + root.side_to_move().index() as u32;
        self.time = TimeManager::new(
            limits,
            root.side_to_move(),
            game_ply,
            options.move_overhead,
            V::OPENING_TIME_SHARE,
            start,
        );
        self.best_changes = 0.0;
        self.nodes = 0;
        self.flushed = 0;
        self.helper = options.thread > 0;
        self.analysis = options.analysis;
        self.seldepth = 0;
        self.stopped = false;
        self.was_pondering = shared.pondering.load(Ordering::Relaxed);
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.keys.clear();
        self.keys.extend_from_slice(game_keys);
        for frame in self.stack.iter_mut() {
            *frame = Frame {
                killers: frame.killers,
                ..Frame::default()
            };
        }
        // The network or the parameters may have changed since the last search.
        self.nnue.clear();
        self.eval_cache.clear();
        self.eval_tables.clear();
        self.belief = if options.mine_chance {
            V::new_belief(root, options.mine_naivety)
        } else {
            None
        };
        shared.tt.new_search();
        self.ply = 0;

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
            self.wait_for_stop(limits, shared);
            return result;
        }
        // A root drawn by rule (dead material, the 50-move rule, a third repetition)
        // still gets a move, but its score is a draw (UCI.md).
        let root_draw =
            root.is_drawn_material() || root.is_fifty_move_draw() || is_threefold(root, game_keys);
        let mut completed: Option<Vec<RootMove>> = None;
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 1)
            .clamp(1, MAX_PLY as i32 - 1);
        let lines = options.multipv.clamp(1, root_moves.len());
        let mut previous = vec![0; lines];
        let mut last_score: Option<i32> = None;
        let mut last_started = 0;
        for depth in 1..=max_depth {
            // Lazy SMP: odd helpers search one ply deeper, so threads spread over depths.
            let depth = (depth + (options.thread % 2) as i32).min(max_depth);
            last_started = depth;
            self.best_changes *= 0.5;
            for (pv_idx, &prev) in previous.iter().enumerate() {
                self.aspiration(root, depth, pv_idx, prev, &mut root_moves);
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            if root_draw {
                root_moves.iter_mut().for_each(|rm| rm.score = 0);
            }
            result.depth = depth;
            for (prev, rm) in previous.iter_mut().zip(&root_moves) {
                *prev = rm.score;
            }
            if !self.helper {
                self.report(reporter, depth, &root_moves[..lines], start, shared);
            }
            let best = &root_moves[0];
            let root_nodes: u64 = root_moves.iter().map(|rm| rm.nodes).sum();
            let scale = TimeScale {
                changes: self.best_changes,
                iteration_drop: last_score.map_or(0, |s| s - best.score),
                move_drop: self.previous_score.map_or(0, |s| s - best.score),
                best_share: best.nodes as f64 / root_nodes.max(1) as f64,
                depth,
            };
            last_score = Some(best.score);
            completed = Some(root_moves.clone());
            if self.stopped
                || (!self.helper && self.iteration_limit_reached(limits, &root_moves, lines, &scale))
            {
                break;
            }
        }
        self.wait_for_stop(limits, shared);
        // An interrupted iteration counts only if it found a new best move with a
        // score; otherwise the last completed iteration decides.
        let interrupted_best = root_moves[0].score > -INFINITE;
        let (root_moves, partial) = match completed {
            Some(done) if !(interrupted_best && root_moves[0].mv != done[0].mv) => (done, false),
            done => {
                // Moves the cut-short iteration did not reach have no score (they sort
                // last); they must not become lines, or a weakened level would pick an
                // unsearched move as if it scored a draw.
                let scored = root_moves.iter().filter(|rm| rm.score > -INFINITE).count();
                root_moves.truncate(scored.max(1));
                for rm in root_moves
                    .iter_mut()
                    .filter(|rm| rm.score == -INFINITE || root_draw)
                {
                    rm.score = 0;
                }
                // MultiPV lines the cut-short iteration did not reach keep their last
                // completed search (as Stockfish reports them), so the lines shown
                // still name `lines` different first moves: a GUI keeps each
                // multipv number's latest line, and a line left over from the
                // previous depth could repeat the new best move.
                for rm in done.into_iter().flatten() {
                    if root_moves.len() >= lines {
                        break;
                    }
                    if !root_moves.iter().any(|r| r.mv == rm.mv) {
                        root_moves.push(rm);
                    }
                }
                (root_moves, true)
            }
        };
        let shown = lines.min(root_moves.len());
        if partial && !self.helper {
            // The move played comes from the cut-short iteration (or no iteration
            // finished): report its line, so `bestmove` is the first move of the last
            // principal variation printed.
            self.report(reporter, last_started.max(1), &root_moves[..shown], start, shared);
        } else if last_started > result.depth && !self.helper {
            // Stopped inside an iteration that changed nothing: the last completed
            // lines again, with the nodes and time at the stop (as Stockfish prints
            // its interrupted iteration), so that a GUI's last node count and speed
            // cover the whole search rather than its last completed depth.
            self.report(reporter, result.depth, &root_moves[..shown], start, shared);
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
        result.nodes = self.total_nodes(shared);
        if !is_mate(best.score) {
            self.previous_score = Some(best.score);
        }
        result.ponder = match best.pv.get(1) {
            Some(&m) => m,
            None => self.ponder_from_tt(root, best.mv, shared),
        };
        result
    }

    /// Reports `lines` (root moves, best first) as the principal variations of an
    /// iteration of `depth` plies.
    fn report(
        &self,
        reporter: &mut dyn Reporter,
        depth: i32,
        lines: &[RootMove],
        start: Instant,
        shared: &SearchShared,
    ) {
        let nodes = self.total_nodes(shared);
        for (i, rm) in lines.iter().enumerate() {
            reporter.iteration(&IterationInfo {
                depth,
                seldepth: self.seldepth,
                multipv: i + 1,
                score: rm.score,
                nodes,
                elapsed: start.elapsed(),
                hashfull: shared.tt.hashfull(),
                pv: &rm.pv,
            });
        }
    }

    /// `infinite` and pondering must not answer before `stop` / `ponderhit`.
    fn wait_for_stop(&self, limits: &Limits, shared: &SearchShared) {
        while !self.helper
            && (limits.infinite || shared.pondering.load(Ordering::Relaxed))
            && !shared.stop.load(Ordering::Relaxed)
            && !crate::host::stop_requested()
        {
            crate::host::sleep(Duration::from_millis(1));
        }
    }

    /// The legal root moves, restricted to `searchmoves`, in move-ordering order.
    fn root_moves(
        &self,
        root: &Position<V>,
        options: &SearchOptions,
        shared: &SearchShared,
    ) -> Vec<RootMove> {
        let legal = root.legal_moves();
        let order = OrderContext {
            tt_move: shared.tt.probe(root.key()).map_or(Move::NONE, |h| h.mv),
            ..OrderContext::default()
        };
        let mut picker = MovePicker::new(root, GenType::All, &order);
        let mut moves = Vec::with_capacity(legal.len());
        while let Some(mv) = picker.next_move(&self.histories) {
            if legal.contains(&mv) && (options.searchmoves.is_empty() || options.searchmoves.contains(&mv)) {
                moves.push(RootMove {
                    mv,
                    score: -INFINITE,
                    pv: vec![mv],
                    nodes: 0,
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
    fn iteration_limit_reached(
        &self,
        limits: &Limits,
        rms: &[RootMove],
        lines: usize,
        scale: &TimeScale,
    ) -> bool {
        let best = rms[0].score;
        if let Some(moves) = limits.mate {
            if best >= mate_in(2 * moves as usize) {
                return true;
            }
        }
        if self.was_pondering || limits.infinite {
            return false;
        }
        // A forced move needs no thought when the clock runs (unless analysing).
        if rms.len() == 1 && lines == 1 && limits.has_clock() && !self.analysis {
            return true;
        }
        self.time.soft_expired(scale.factor())
    }

    /// Searches line `pv_idx` at `depth`, first with a narrow window around the
    /// previous iteration's score, widening it on failure.
    fn aspiration(
        &mut self,
        root: &Position<V>,
        depth: i32,
        pv_idx: usize,
        previous: i32,
        rms: &mut [RootMove],
    ) {
        let mut delta = params::aspiration_delta();
        let (mut alpha, mut beta) = if depth >= ASPIRATION_DEPTH && !is_mate(previous) {
            (
                (previous - delta).max(-INFINITE),
                (previous + delta).min(INFINITE),
            )
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            self.search_root(root, depth, pv_idx, alpha, beta, rms);
            if self.stopped {
                return;
            }
            let score = rms[pv_idx].score;
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
            } else {
                return;
            }
            delta += delta / 2;
        }
    }

    /// Searches root moves `pv_idx..` at `depth` in the window (alpha, beta) and sorts
    /// them by score (moves that failed low keep -INFINITE, so the order of the
    /// previous iteration survives among them).
    fn search_root(
        &mut self,
        root: &Position<V>,
        depth: i32,
        pv_idx: usize,
        mut alpha: i32,
        beta: i32,
        rms: &mut [RootMove],
    ) {
        for rm in rms[pv_idx..].iter_mut() {
            rm.score = -INFINITE;
        }
        self.keys.push(root.key());
        for (k, rm) in rms[pv_idx..].iter_mut().enumerate() {
            let first = k == 0;
            let m = rm.mv;
            if !self.helper {
                self.shared().set_current_move(m, pv_idx + k + 1);
            }
            let nodes_before = self.nodes;
            self.stack[STACK_OFFSET].piece_to = Some(ordering::piece_to(root, m));
            let p = self.mine_probability(root, m);
            // A chance move's outcomes are played inside `chance`.
            let child = (!node::is_chance(p)).then(|| node::play_certain(root, m, p));
            let mv = node::Candidate {
                m,
                p,
                child: child.as_ref(),
            };
            let new_depth = depth - 1 + i32::from(mv.child.is_some_and(|c| c.in_check()));
            let mut score;
            if first {
                score = self.search_move::<true>(root, mv, alpha, beta, new_depth, false);
            } else {
                score = self.search_move::<false>(root, mv, alpha, alpha + 1, new_depth, true);
                if score > alpha && !self.stopped {
                    score = self.search_move::<true>(root, mv, alpha, beta, new_depth, false);
                }
            }
            rm.nodes += self.nodes - nodes_before;
            if self.stopped {
                break;
            }
            if first || score > alpha {
                if !first && pv_idx == 0 {
                    self.best_changes += 1.0;
                }
                rm.score = score;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(&self.pv[1][1..self.pv_len[1]]);
                alpha = alpha.max(score);
                if score >= beta {
                    break;
                }
            }
        }
        self.keys.pop();
        rms[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
    }

    /// The running search's shared state.
    #[inline(always)]
    fn shared(&self) -> &SearchShared {
        &self.ctx.as_ref().expect("set for the search").shared
    }

    /// The running search's transposition table.
    #[inline(always)]
    fn tt(&self) -> &TranspositionTable {
        &self.shared().tt
    }

    /// Checks the stop flag, the clock and the node limit every 1024 nodes.
    #[inline(always)]
    fn poll_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes >= self.node_limit {
            self.stopped = true;
            return true;
        }
        if self.nodes & 1023 == 0 {
            let shared = &self.ctx.as_ref().expect("set for the search").shared;
            shared
                .nodes
                .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
            self.flushed = self.nodes;
            if shared.stop.load(Ordering::Relaxed) || crate::host::stop_requested() {
                self.stopped = true;
            } else if self.helper || shared.pondering.load(Ordering::Relaxed) {
                // Helpers leave the clock to the main thread; pondering is not on it yet.
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

    /// Nodes searched by all threads so far.
    fn total_nodes(&self, shared: &SearchShared) -> u64 {
        shared.nodes.load(Ordering::Relaxed) + self.nodes - self.flushed
    }

    /// The static evaluation of `pos`, the node at this ply, for the side to move,
    /// centipawns: known endgames, else the network through this thread's
    /// accumulators where the parameters hold one for this board (plus the linear
    /// evaluation for a residual network), else the linear evaluation.
    #[inline]
    fn static_eval(&mut self, pos: &Position<V>) -> i32 {
        if let Some(known) = endgame::known(pos) {
            return known;
        }
        let params = &self.ctx.as_ref().expect("set for the search").params;
        let key = pos.key();
        let mut linear = || {
            self.eval_cache.get(key).unwrap_or_else(|| {
                let eval = evaluate_linear_with(pos, params, &mut self.eval_tables);
                self.eval_cache.put(key, eval);
                eval
            })
        };
        match params.nnue.as_deref() {
            // The network's accumulators are updated along the line: no cache for
            // them; a residual network's base, the evaluation, is cached as usual.
            Some(net) if crate::eval::nnue::supports::<V>() => {
                let base = if net.residual { linear() } else { 0 };
                self.nnue.evaluate(net, pos, self.ply) + base
            }
            _ => linear(),
        }
    }

    /// Whether the position (below the root) is drawn by rule: repetition, the
    /// 50-move rule, or material that cannot win.
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

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }
}

/// Whether `pos` occurs for the third time: twice among the earlier positions of the
/// game since the last irreversible move (`keys`, oldest first).
fn is_threefold<V: Variant>(pos: &Position<V>, keys: &[u64]) -> bool {
    let reach = (pos.halfmove_clock() as usize).min(keys.len());
    keys[keys.len() - reach..]
        .iter()
        .filter(|&&k| k == pos.key())
        .count()
        >= 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::default_params;
    use sapper_rules::game::AnyGame;
    use sapper_rules::variant::VariantKind;
    use sapper_rules::with_game;

    /// Records each multipv number's latest first move, as a GUI keeps its lines.
    #[derive(Default)]
    struct LatestLines(std::collections::BTreeMap<usize, Move>);

    impl Reporter for LatestLines {
        fn iteration(&mut self, info: &IterationInfo) {
            if let Some(&m) = info.pv.first() {
                self.0.insert(info.multipv, m);
            }
        }
    }

    /// A weakened level chooses among `SearchResult::lines`, so every line must carry a
    /// score the search really found: when a node limit cuts an iteration short, an
    /// unsearched move must not appear scored as a draw.
    #[test]
    fn multipv_lines_under_node_limits_carry_searched_scores() {
        // (variant, FEN, whether every move loses at least 3 pawns for the side to move)
        let positions = [
            (VariantKind::Chess, "3qk3/8/8/8/8/8/3PPP2/4K3 w - - 0 1", true),
            (VariantKind::Chess, "4k3/ppp5/8/8/8/8/8/R2QK2R b K - 0 1", true),
            (
                VariantKind::Chess,
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                false,
            ),
            (
                VariantKind::Atomic,
                "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1",
                false,
            ),
            (
                VariantKind::KingOfTheHill,
                "rnb2b1r/ppp2ppp/3k4/8/1PKp1pn1/3Pq3/PBP1P2P/RN1Q1B1R w - - 4 12",
                false,
            ),
        ];
        for (variant, fen, lost) in positions {
            let (game, _) = AnyGame::from_spec(variant, Some(fen), &[]).unwrap();
            let params = default_params(variant);
            for nodes in (40..3000).step_by(37) {
                let ctx = SearchContext::new(1, Arc::clone(&params));
                let limits = Limits {
                    nodes: Some(nodes),
                    ..Limits::default()
                };
                let options = SearchOptions {
                    multipv: 4,
                    ..SearchOptions::default()
                };
                let mut latest = LatestLines::default();
                with_game!(&game, g, V => {
                    let result = Searcher::<V>::new()
                        .search(&g.position, &g.keys, &limits, &options, &ctx, &mut latest);
                    assert_eq!(result.lines[0].0, result.best, "{fen} at {nodes} nodes");
                    // What a GUI shows, each multipv number's latest line, names
                    // different first moves, as the result's lines do.
                    let firsts: std::collections::HashSet<Move> = latest.0.values().copied().collect();
                    assert_eq!(firsts.len(), latest.0.len(), "{fen} at {nodes} nodes: {:?}", latest.0);
                    let moves: std::collections::HashSet<Move> = result.lines.iter().map(|l| l.0).collect();
                    assert_eq!(moves.len(), result.lines.len(), "{fen} at {nodes} nodes");
                    assert!((1..=4).contains(&result.lines.len()), "{fen} at {nodes} nodes");
                    if lost {
                        assert!(
                            result.lines.iter().all(|&(_, s)| s < -300),
                            "{fen} at {nodes} nodes: {:?}",
                            result.lines
                        );
                    }
                });
            }
        }
    }
}
