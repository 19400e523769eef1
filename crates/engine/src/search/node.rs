//! The node searches: PVS alpha-beta (`negamax`), quiescence search, and
//! minesweeper's chance nodes.
//!
//! Techniques (Chess Programming Wiki names; values in the style of Stockfish and
//! other open engines, kept only where matches showed a gain, see CHANGELOG.md):
//! mate-distance pruning, transposition-table cut-offs, reverse futility pruning,
//! null-move pruning with a zugzwang guard, internal iterative reductions, late-move
//! pruning, futility pruning, history pruning, SEE pruning, check extensions,
//! singular extensions (with double and negative extensions and multi-cut),
//! late-move reductions (more at expected cut nodes and after a noisy hash move),
//! ProbCut, and delta pruning in quiescence. Variant care: in atomic a move that threatens to explode
//! the enemy king is never pruned or reduced; in king of the hill neither is a king
//! step toward a free hill square within two steps of it.

use super::check_test::CheckInfo;
use super::correction::{CorrectionHistory, Slots};
use super::ordering::{capture_index, is_noisy, piece_to, MovePicker, OrderContext, Previous};
use super::params as sp;
use super::score::{from_tt, is_mate, mate_in, mated_in, to_tt, INFINITE, MATE_BOUND, MAX_PLY, WIN_CLAMP};
use super::see::see_ge;
use super::tt::{Bound, TtHit};
use super::{Searcher, NO_EVAL, STACK_OFFSET};
use crate::search::{LateQuiets, VariantSearch};
use sapper_rules::bitboard::BitBoard;
use sapper_rules::movegen::GenType;
use sapper_rules::moves::{Move, MoveKind};
use sapper_rules::position::Position;
use sapper_rules::types::Role;
use sapper_rules::variant::{Outcome, Variant};
use smallvec::SmallVec;

const NULL_MOVE: bool = true;
const REVERSE_FUTILITY: bool = true;
const LATE_MOVE_REDUCTIONS: bool = true;
const FUTILITY: bool = true;
const LATE_MOVE_PRUNING: bool = true;
const INTERNAL_ITERATIVE_REDUCTIONS: bool = true;
const SEE_PRUNING: bool = true;
const SINGULAR_EXTENSIONS: bool = true;
const DELTA_PRUNING: bool = true;
const HISTORY_PRUNING: bool = true;
const PROBCUT: bool = true;

/// The depth a ProbCut result at `depth` is stored with (one ply more than its
/// verifying search, as Stockfish does); a stored bound at least this deep that stays
/// below the ProbCut beta makes the attempt pointless.
#[inline(always)]
fn probcut_stored_depth(depth: i32) -> i32 {
    depth - sp::probcut_reduction() + 1
}

/// Captured-piece values for delta pruning (centipawns, pawn..king).
const DELTA_VALUE: [i32; 6] = crate::values::EXCHANGE;

/// Delta pruning in quiescence: `Some(stand_pat + captured + margin)` when even
/// winning the captured piece of the capture `m` for free cannot bring it up to
/// `alpha`, so that it is skipped unless it gives check (then it may mate). Not in
/// atomic, where a capture's worth is its whole explosion, nor for a queen
/// promotion.
#[inline(always)]
fn delta_futility<V: Variant>(pos: &Position<V>, m: Move, stand_pat: i32, alpha: i32) -> Option<i32> {
    if !DELTA_PRUNING || !V::CAPTURE_WINS_ONLY_THE_VICTIM || m.kind() == MoveKind::PromoteQueen {
        return None;
    }
    let captured = pos
        .role_at(m.to())
        .map_or(DELTA_VALUE[0], |r| DELTA_VALUE[r.index()]);
    let futility = stand_pat + captured + sp::delta_margin();
    (futility <= alpha).then_some(futility)
}

/// Whether a move with mine probability `p` has two possible outcomes.
#[inline(always)]
pub(super) fn is_chance(p: f32) -> bool {
    p > 0.0 && p < 1.0
}

/// `pos` after `m`, whose outcome is certain: a mine when `p` is 1, none when 0.
#[inline(always)]
pub(super) fn play_certain<V: Variant>(pos: &Position<V>, m: Move, p: f32) -> Position<V> {
    let mut child = *pos;
    child.play_outcome(m, p >= 1.0);
    child
}

/// The score of a finished game for the side to move at `ply`.
fn outcome_score<V: Variant>(outcome: Outcome, pos: &Position<V>, ply: usize) -> i32 {
    match outcome {
        Outcome::Draw => 0,
        Outcome::Decisive { winner } if winner == pos.side_to_move() => mate_in(ply),
        Outcome::Decisive { .. } => mated_in(ply),
    }
}

/// The static evaluation `raw` refined by a stored search score: a lower bound
/// above it or an upper bound below it (or an exact score) is the better estimate.
/// Mate scores are left out (they say nothing of the position's standing).
#[inline(always)]
fn refine_eval(raw: i32, bound: Option<Bound>, score: Option<i32>) -> i32 {
    match (bound, score) {
        (Some(bound), Some(s)) if !is_mate(s) => match bound {
            Bound::Lower if s > raw => s,
            Bound::Upper if s < raw => s,
            Bound::Exact => s,
            _ => raw,
        },
        _ => raw,
    }
}

/// A move about to be searched from a node: its mine probability `p` and, when its
/// outcome is certain, the position after it (a chance move's two outcomes are
/// played by [`Searcher::chance`]).
pub(super) struct Candidate<'a, V: Variant> {
    pub m: Move,
    pub p: f32,
    pub child: Option<&'a Position<V>>,
}

impl<V: Variant> Clone for Candidate<'_, V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<V: Variant> Copy for Candidate<'_, V> {}

/// Whether the side to move has a piece other than king and pawns (null-move pruning
/// is unsound in the pawn endings where zugzwang is common).
fn has_non_pawn_material<V: Variant>(pos: &Position<V>) -> bool {
    let us = pos.color(pos.side_to_move());
    (us & !pos.role(Role::Pawn) & !pos.role(Role::King)).any()
}

impl<V: VariantSearch> Searcher<V> {
    /// Minesweeper: the probability that `m` ends on a mine, from the search's belief.
    #[inline(always)]
    pub(super) fn mine_probability(&mut self, pos: &Position<V>, m: Move) -> f32 {
        V::mine_probability(pos, m, self.belief.as_mut())
    }

    /// The (piece, destination) indices of the moves two plies and one ply back,
    /// when both were real moves (the continuation correction's index).
    #[inline(always)]
    fn previous_two(&self) -> Option<(usize, usize)> {
        let i = self.ply + STACK_OFFSET;
        Some((self.stack[i - 2].piece_to?, self.stack[i - 1].piece_to?))
    }

    /// `raw` (a static evaluation, centipawns) with the correction history's
    /// estimate of its error at `slots`, kept off the mate scores.
    #[inline(always)]
    fn corrected(&self, raw: i32, slots: &Slots) -> i32 {
        (raw + self.correction.value(slots)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// The moves before this node, for continuation history.
    #[inline(always)]
    fn previous(&self) -> Previous {
        let i = self.ply + STACK_OFFSET;
        Previous {
            one: self.stack[i - 1].piece_to,
            two: self.stack[i - 2].piece_to,
        }
    }

    /// Principal variation search at the node `self.ply` >= 1 plies below the root
    /// (the root is `search_root`).
    /// `cut_node` marks a non-PV node expected to fail high (Stockfish's `cutNode`:
    /// the first move of a non-PV node and every late move's reduced search are
    /// expected cut-offs; their children alternate), where late moves are reduced more.
    pub(super) fn negamax<const PV: bool>(
        &mut self,
        pos: &Position<V>,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        cut_node: bool,
    ) -> i32 {
        // Step 1. Initialize node: at the horizon, quiescence takes over.
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, true);
        }
        let ply = self.ply;
        // Step 2. Check for an aborted search and an immediate result (a game over
        // by a variant rule, a draw, the ply limit).
        if let Some(score) = self.enter_node(pos) {
            return score;
        }
        if self.is_draw(pos) {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.static_eval(pos);
        }
        // Step 3. Mate-distance pruning: no line from here can beat a shorter mate
        // found.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // Step 4. Transposition table lookup.
        let si = ply + STACK_OFFSET;
        let key = pos.key();
        // A singular-extension search: this position without one move. The table's
        // entry describes the position with it, so it neither cuts nor is written.
        let excluded = self.stack[si].excluded;
        let tt_hit = if excluded.is_some() {
            None
        } else {
            self.tt().probe(key)
        };
        let tt_move = tt_hit.map_or(Move::NONE, |h| h.mv);
        let tt_score = tt_hit.map(|h| from_tt(h.score, ply));
        // On a principal variation now or when the entry was stored (Stockfish's
        // `ttPv`); kept by the entry and the frame (a singular search inherits it).
        let tt_pv = if excluded.is_some() {
            self.stack[si].tt_pv
        } else {
            PV || tt_hit.is_some_and(|h| h.pv)
        };
        self.stack[si].tt_pv = tt_pv;
        if let (Some(hit), Some(s)) = (tt_hit, tt_score) {
            if !PV && hit.depth >= depth && hit.bound.cuts(s, alpha, beta) {
                return s;
            }
        }

        // Step 5. Static evaluation of the position.
        let in_check = pos.in_check();
        // A threat to win next move (a king one step from the hill) is answered as a
        // check: the static evaluation does not see it, so it must not prune.
        let threatened = !in_check && V::threatens_win(pos);
        // `raw_eval` is the static evaluation (what the table stores); `static_eval`
        // adds the correction history's estimate of its error here; `eval`, used by
        // the pruning below, is refined by a stored search score when its bound says
        // the true value lies beyond the evaluation.
        // In check there is no evaluation to correct, nor a correction to learn.
        let slots = (!in_check).then(|| CorrectionHistory::slots(pos, self.previous_two()));
        let (raw_eval, static_eval, eval) = if in_check {
            (NO_EVAL, NO_EVAL, NO_EVAL)
        } else if excluded.is_some() {
            // The same position as the search that called this one.
            let frame = &self.stack[si];
            (frame.raw_eval, frame.eval, frame.eval)
        } else {
            let raw = self.tt_or_static_eval(pos, tt_hit.map(|h| h.eval));
            let corrected = slots.as_ref().map_or(raw, |slots| self.corrected(raw, slots));
            (
                raw,
                corrected,
                refine_eval(corrected, tt_hit.map(|h| h.bound), tt_score),
            )
        };
        self.stack[si].eval = static_eval;
        self.stack[si].raw_eval = raw_eval;
        let improving =
            !in_check && self.stack[si - 2].eval != NO_EVAL && static_eval > self.stack[si - 2].eval;

        if !PV && !in_check && !threatened && !is_mate(beta) && excluded.is_none() {
            // Step 6. Reverse futility pruning: far above beta, a quiet move will not
            // fall below.
            if REVERSE_FUTILITY
                && depth <= sp::rfp_depth()
                && eval - sp::rfp_margin() * (depth - i32::from(improving)) >= beta
            {
                return eval;
            }
            // Step 7. Null-move pruning: if passing still fails high, a real move
            // will too.
            if NULL_MOVE
                && depth >= sp::nmp_min_depth()
                && eval >= beta
                && !self.stack[si - 1].null
                && has_non_pawn_material(pos)
            {
                let r = sp::nmp_base()
                    + depth / sp::nmp_depth_div()
                    + ((eval - beta) / sp::nmp_eval_div()).min(sp::nmp_eval_max());
                let mut child = *pos;
                child.play_null();
                self.tt().prefetch(child.key());
                self.stack[si].piece_to = None;
                self.stack[si].null = true;
                self.keys.push(key);
                let score = -self.negamax_child::<false>(&child, -beta, -beta + 1, depth - r, !cut_node);
                self.keys.pop();
                self.stack[si].null = false;
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }
        // Step 8. ProbCut (Buro 1995, in Stockfish's form): a capture whose reduced search
        // beats beta by a margin would almost surely beat beta at full depth.
        if PROBCUT
            && !PV
            && !in_check
            && !threatened
            && !is_mate(beta)
            && excluded.is_none()
            && depth >= sp::probcut_depth()
        {
            let probcut_beta = beta + sp::probcut_margin() - sp::probcut_improving() * i32::from(improving);
            let table_says_less = matches!((tt_hit, tt_score), (Some(h), Some(s)) if h.depth >= probcut_stored_depth(depth) && s < probcut_beta);
            if !table_says_less {
                if let Some(s) = self.probcut(pos, probcut_beta, eval, tt_move, depth, cut_node) {
                    return s;
                }
            }
        }
        // Step 9. Internal iterative reduction: without a hash move the ordering is poor;
        // search shallower now, deeper on the next iteration with its move.
        if INTERNAL_ITERATIVE_REDUCTIONS
            && tt_move.is_none()
            && depth >= sp::iir_depth()
            && excluded.is_none()
        {
            depth -= 1;
        }

        // Step 10. Loop through the moves in the staged picker's order until one
        // fails high.
        let prev = self.previous();
        let order = OrderContext {
            tt_move,
            killers: self.stack[si].killers,
            counter: self.histories.countermove(prev),
            prev,
        };
        let mut picker = MovePicker::new(pos, GenType::All, &order);
        let mut best_score = -INFINITE;
        let mut best_move = Move::NONE;
        let mut legal = 0usize;
        let mut quiets_tried: SmallVec<[usize; 64]> = SmallVec::new();
        let mut noisy_tried: SmallVec<[usize; 32]> = SmallVec::new();
        // `LateQuiets::AllButCritical` once late-move pruning has started.
        let mut skipping_quiets = false;
        let tt_noisy = tt_move.is_some() && is_noisy(pos, tt_move);
        self.stack[si + 1].killers = [Move::NONE; 2];
        self.keys.push(key);
        // Built at the first quiet move (a hash-move cut-off needs none).
        let mut check_info: Option<CheckInfo<V>> = None;
        while let Some(m) = picker.next_move(&self.histories) {
            if m == excluded
                || (skipping_quiets && !is_noisy(pos, m) && !V::is_critical(pos, m))
                || !pos.is_legal(m)
            {
                continue;
            }
            legal += 1;
            // The child's entry is fetched while pruning decides and the move is
            // made (`key_after` guesses; the prefetch once it is made covers misses).
            self.tt().prefetch(pos.key_after(m));
            let noisy = is_noisy(pos, m);
            let critical = V::is_critical(pos, m);
            let pt = piece_to(pos, m);
            let quiet_score = if noisy {
                0
            } else {
                self.histories.quiet_score(pos.side_to_move(), pt, prev)
            };

            // A move whose landing may hold a mine has two children (a chance node);
            // any other has one. A quiet move that may give check or threaten a win
            // is played now, so that pruning can spare it; any other is played once
            // pruning has let it through (`check_test` tells without playing).
            let p = self.mine_probability(pos, m);
            let mut child = (!noisy
                && !is_chance(p)
                && check_info
                    .get_or_insert_with(|| CheckInfo::new(pos))
                    .may_give_check(pos, m))
            .then(|| play_certain(pos, m, p));
            let gives_check = child.as_ref().is_some_and(|c| c.in_check());

            // Step 11. Pruning at shallow depth, once a move has secured a non-losing
            // score. Checks are
            // judged like captures (a quiet check may mate).
            if best_score > -MATE_BOUND && !critical {
                // A move that threatens to win next move is spared as a check is (but
                // not extended: a king can renew such a threat move after move). Asked
                // last, only of the quiet moves pruning could drop.
                if !noisy && !gives_check && !child.as_ref().is_some_and(|c| V::threatens_win(c)) {
                    let lmp_limit = (sp::lmp_base() + depth * depth) as usize / (2 - usize::from(improving));
                    if LATE_MOVE_PRUNING && !PV && depth <= sp::lmp_depth() && quiets_tried.len() >= lmp_limit
                    {
                        // Stockfish's moveCountPruning: later quiet moves go too,
                        // checks included, as far as the variant allows.
                        match V::LATE_QUIETS {
                            LateQuiets::All => picker.skip_quiets(),
                            LateQuiets::AllButCritical => skipping_quiets = true,
                            LateQuiets::Unforcing => {}
                        }
                        continue;
                    }
                    // Futility pruning: a quiet move cannot lift a position this far
                    // below alpha.
                    if FUTILITY
                        && !in_check
                        && !threatened
                        && depth <= sp::futility_depth()
                        && eval + sp::futility_base() + sp::futility_per_depth() * depth <= alpha
                    {
                        continue;
                    }
                    // History pruning: a quiet move that has kept failing here and
                    // after this previous move is not worth a shallow search.
                    if HISTORY_PRUNING
                        && !PV
                        && depth <= sp::history_pruning_depth()
                        && quiet_score < -sp::history_pruning_margin() * depth
                    {
                        continue;
                    }
                    if SEE_PRUNING
                        && depth <= sp::see_depth()
                        && !see_ge(pos, m, -sp::see_quiet_margin() * depth)
                    {
                        continue;
                    }
                } else if SEE_PRUNING
                    && depth <= sp::see_depth()
                    // A good capture passed SEE at 0, so at any threshold below.
                    && picker.last_see() != Some(true)
                    && !see_ge(pos, m, -sp::see_noisy_margin() * depth)
                {
                    continue;
                }
            }

            // The move will be searched: its child's table entry is fetched while
            // the extensions and reductions are decided.
            if child.is_none() && !is_chance(p) {
                child = Some(play_certain(pos, m, p));
            }
            let gives_check = gives_check || (noisy && child.as_ref().is_some_and(|c| c.in_check()));
            if let Some(c) = &child {
                self.tt().prefetch(c.key());
            }

            // Step 12. Extensions: checks, and singular extensions (Anantharaman,
            // Campbell and Nowatzyk 1988, in
            // Stockfish's form): when every other move fails well below the hash
            // move's stored score, the hash move is searched a ply deeper (two when
            // far below); when even the singular bound beats beta, several moves do
            // (multi-cut); when the stored score alone beats beta, one ply less.
            let mut extension = i32::from(gives_check);
            if let (true, Some(hit), Some(tt_s)) = (SINGULAR_EXTENSIONS && m == tt_move, tt_hit, tt_score) {
                if depth >= sp::singular_min_depth()
                    && excluded.is_none()
                    && hit.depth >= depth - sp::singular_tt_depth_margin()
                    && hit.bound != Bound::Upper
                    && !is_mate(tt_s)
                    && child.is_some()
                {
                    let singular_beta = tt_s - sp::singular_margin_per_depth() * depth;
                    self.stack[si].excluded = m;
                    self.keys.pop();
                    let s = self.negamax::<false>(
                        pos,
                        singular_beta - 1,
                        singular_beta,
                        (depth - 1) / 2,
                        cut_node,
                    );
                    self.keys.push(key);
                    self.stack[si].excluded = Move::NONE;
                    if self.stopped {
                        self.keys.pop();
                        return 0;
                    }
                    if s < singular_beta {
                        let doubles = self.stack[si].double_extensions;
                        extension = if !PV
                            && s < singular_beta - sp::double_extension_margin()
                            && i32::from(doubles) < sp::max_double_extensions()
                        {
                            2
                        } else {
                            1
                        };
                    } else if singular_beta >= beta {
                        self.keys.pop();
                        return singular_beta;
                    } else if tt_s >= beta {
                        extension = -1;
                    }
                }
            }
            self.stack[si + 1].double_extensions =
                self.stack[si].double_extensions + u8::from(extension >= 2);

            // Step 13. Search the move: the first in the full window, the others
            // reduced (Step 14) in a zero window, re-searched at full depth and then in
            // the full window while they beat alpha (PVS).
            self.stack[si].piece_to = Some(pt);
            let mv = Candidate {
                m,
                p,
                child: child.as_ref(),
            };
            let new_depth = depth - 1 + extension;
            let mut score;
            if legal == 1 {
                let cut = !PV && !cut_node;
                score = self.search_move::<PV>(pos, mv, alpha, beta, new_depth, cut);
            } else {
                // Step 14. Late-move reductions.
                let mut reduction = 0;
                if LATE_MOVE_REDUCTIONS
                    && depth >= sp::lmr_min_depth()
                    && !critical
                    && (!noisy || !picker.last_see_ge_zero(m))
                {
                    // In 1/1024 ply (Stockfish's units), so the history's
                    // adjustment is continuous; whole plies in the end.
                    const PLY: i32 = 1024;
                    let mut r = sp::lmr(depth, legal);
                    r -= PLY * i32::from(PV);
                    r -= PLY * sp::lmr_tt_pv() * i32::from(tt_pv && !PV);
                    r += PLY * i32::from(!improving);
                    r -=
                        PLY * i32::from(m == order.killers[0] || m == order.killers[1] || m == order.counter);
                    r -= PLY * i32::from(gives_check);
                    r -= quiet_score * PLY / sp::lmr_history_div();
                    r += PLY * sp::lmr_cut_node() * i32::from(cut_node);
                    r += PLY * i32::from(tt_noisy && !noisy);
                    reduction = r.div_euclid(PLY).clamp(0, new_depth - 1);
                }
                let reduced = new_depth - reduction;
                score =
                    self.search_move::<false>(pos, mv, alpha, alpha + 1, reduced, reduction > 0 || !cut_node);
                if score > alpha && reduction > 0 && !self.stopped {
                    // The reduced search's margin over the best score so far decides
                    // the full search's depth (Stockfish's doDeeper, doShallower).
                    let deeper = score > best_score + sp::lmr_deeper_margin() + 2 * new_depth;
                    let shallower = score < best_score + sp::lmr_shallower_margin();
                    let full = new_depth + i32::from(deeper) - i32::from(shallower);
                    if full > reduced {
                        score = self.search_move::<false>(pos, mv, alpha, alpha + 1, full, !cut_node);
                    }
                }
                if PV && score > alpha && score < beta && !self.stopped {
                    score = self.search_move::<true>(pos, mv, alpha, beta, new_depth, false);
                }
            }
            if self.stopped {
                self.keys.pop();
                return 0;
            }
            // Step 15. Check for a new best move; at a cut-off, update the killers
            // and the histories.
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if !noisy {
                            let killers = &mut self.stack[si].killers;
                            if killers[0] != m {
                                killers[1] = killers[0];
                                killers[0] = m;
                            }
                            let side = pos.side_to_move();
                            self.histories
                                .update_quiets(side, (m, pt), &quiets_tried, depth, prev);
                        }
                        let best = noisy.then(|| capture_index(pos, m));
                        self.histories.update_captures(best, &noisy_tried, depth);
                        break;
                    }
                }
            }
            if noisy {
                noisy_tried.push(capture_index(pos, m));
            } else {
                quiets_tried.push(pt);
            }
        }
        self.keys.pop();

        // Step 16. Check for mate and stalemate; store the result in the table.
        if legal == 0 {
            // Without its excluded move a position may have none left: that says
            // nothing of the position, only that the move is singular.
            if excluded.is_some() {
                return alpha;
            }
            return if in_check { mated_in(ply) } else { 0 };
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if PV && best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // The correction history learns how far the evaluation missed: not from a
        // capture's result (the evaluation cannot see material about to fall), nor
        // from a bound on the side the evaluation already lies (Stockfish's rule).
        let noisy_best = best_move.is_some() && is_noisy(pos, best_move);
        if let Some(slots) = slots.filter(|_| {
            !noisy_best
                && ((best_score < static_eval && best_score < beta)
                    || (best_score > static_eval && best_move.is_some()))
        }) {
            self.correction.update(&slots, best_score - static_eval, depth);
        }
        // In check there is no static evaluation: the entry says so (`NO_EVAL`).
        if excluded.is_none() {
            let entry = TtHit {
                mv: best_move,
                score: to_tt(best_score, ply),
                eval: raw_eval,
                depth,
                bound,
                pv: tt_pv,
            };
            self.tt().store(key, entry);
        }
        best_score
    }

    /// What every node does first, negamax and quiescence alike: count the node,
    /// empty its PV, poll the stop, note the selective depth. Returns the node's score
    /// when nothing is left to search: 0 once stopped, the variant's result when the
    /// game is over by a variant rule (atomic's exploded king, a king on the hill,
    /// three checks).
    #[inline(always)]
    fn enter_node(&mut self, pos: &Position<V>) -> Option<i32> {
        let ply = self.ply;
        self.nodes += 1;
        self.pv_len[ply] = ply;
        if self.poll_stop() {
            return Some(0);
        }
        self.seldepth = self.seldepth.max(ply);
        pos.special_outcome()
            .map(|outcome| outcome_score(outcome, pos, ply))
    }

    /// Quiescence search: captures and queen promotions (every move when in check;
    /// with `checks`, at its first ply, quiet checks too, so a quiet mate behind the
    /// horizon is not mistaken for a quiet position), with the static evaluation as a
    /// lower bound ("stand pat") and moves that lose material (SEE) skipped.
    pub(super) fn qsearch(&mut self, pos: &Position<V>, mut alpha: i32, beta: i32, checks: bool) -> i32 {
        // Step 1. Initialize node.
        let ply = self.ply;
        // Step 2. Check for an aborted search and an immediate result (a game over
        // by a variant rule, drawn material, the ply limit, a win next move).
        if let Some(score) = self.enter_node(pos) {
            return score;
        }
        if pos.is_drawn_material() {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.static_eval(pos);
        }
        if V::wins_next_move(pos) {
            return mate_in(ply + 1);
        }
        // Step 3. Transposition table lookup.
        let key = pos.key();
        let tt_hit = self.tt().probe(key);
        let tt_score = tt_hit.map(|h| from_tt(h.score, ply));
        if let (Some(hit), Some(s)) = (tt_hit, tt_score) {
            if hit.bound.cuts(s, alpha, beta) {
                return s;
            }
        }
        // Step 4. Static evaluation of the position: the stand pat, unless the side
        // to move must evade.
        let in_check = pos.in_check();
        // Answering a threat to win next move as a check (see `negamax`): every move,
        // and no stand pat. Only at quiescence's first ply: deeper, two kings next to
        // the hill could renew their threats move after move, to the ply limit.
        let evading = in_check || (checks && V::threatens_win(pos));
        let mut best_score = -INFINITE;
        let mut raw_eval = NO_EVAL;
        let mut stand_pat = -INFINITE;
        if !evading {
            raw_eval = self.tt_or_static_eval(pos, tt_hit.map(|h| h.eval));
            let slots = CorrectionHistory::slots(pos, self.previous_two());
            let corrected = self.corrected(raw_eval, &slots);
            stand_pat = refine_eval(corrected, tt_hit.map(|h| h.bound), tt_score);
            best_score = stand_pat;
            if best_score >= beta {
                return best_score;
            }
            alpha = alpha.max(best_score);
        }
        // Step 5. Loop through the moves: captures and queen promotions (all moves
        // when evading, quiet checks too at the first ply), SEE and delta pruned.
        let gen = if evading || checks {
            GenType::All
        } else {
            GenType::Noisy
        };
        let order = OrderContext {
            tt_move: tt_hit.map_or(Move::NONE, |h| h.mv),
            ..OrderContext::default()
        };
        let mut picker = MovePicker::new(pos, gen, &order);
        let mut check_info: Option<CheckInfo<V>> = None;
        let mut legal = 0;
        let mut best_move = Move::NONE;
        while let Some(m) = picker.next_move(&self.histories) {
            // A quiet move is searched here only if it checks: most do not, and the
            // test without playing (a superset) spares its legality test, its SEE
            // and copying the position. (Outside check a chance move is never
            // searched here.) Only an evading node counts its legal moves, and
            // there every move is tested.
            let quiet = !evading && !is_noisy(pos, m);
            if quiet
                && !check_info
                    .get_or_insert_with(|| CheckInfo::new(pos))
                    .may_give_check(pos, m)
            {
                continue;
            }
            if !pos.is_legal(m) {
                continue;
            }
            legal += 1;
            self.tt().prefetch(pos.key_after(m));
            if SEE_PRUNING && !evading && !picker.last_see_ge_zero(m) && !V::is_critical(pos, m) {
                continue;
            }
            // The continuation correction below reads the line's last two moves.
            self.stack[ply + STACK_OFFSET].piece_to = Some(piece_to(pos, m));
            let p = self.mine_probability(pos, m);
            let score = if is_chance(p) {
                if !in_check {
                    continue;
                }
                // Only check evasions onto fogged squares get here.
                self.chance::<false>(pos, Candidate { m, p, child: None }, alpha, beta, 0, false)
            } else {
                // A capture that delta pruning would drop is searched only if it
                // checks, told without playing where the test can.
                let futility = (!quiet && !evading)
                    .then(|| delta_futility(pos, m, stand_pat, alpha))
                    .flatten();
                if let Some(f) = futility.filter(|_| {
                    !check_info
                        .get_or_insert_with(|| CheckInfo::new(pos))
                        .may_give_check(pos, m)
                }) {
                    best_score = best_score.max(f);
                    continue;
                }
                let child = play_certain(pos, m, p);
                if quiet && !child.in_check() {
                    continue;
                }
                self.tt().prefetch(child.key());
                if let (Some(f), false) = (futility, child.in_check()) {
                    best_score = best_score.max(f);
                    continue;
                }
                -self.qsearch_child(&child, -beta, -alpha)
            };
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    best_move = m;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        // Step 6. Check for mate; store the result in the table.
        if legal == 0 && evading {
            return if in_check { mated_in(ply) } else { 0 };
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        // An evading node has no static evaluation: the entry says so (`NO_EVAL`), so
        // that the same position reached without the duty to evade (deeper in
        // quiescence, or in `negamax` under a hill threat) evaluates instead of
        // reading a 0 as its evaluation.
        let entry = TtHit {
            mv: best_move,
            score: to_tt(best_score, ply),
            eval: raw_eval,
            depth: 0,
            bound,
            pv: tt_hit.is_some_and(|h| h.pv),
        };
        self.tt().store(key, entry);
        best_score
    }

    /// The static evaluation of `pos`: the table's (`stored`) when it has one, else
    /// computed. An entry of a node in check or evading holds `NO_EVAL`.
    #[inline(always)]
    fn tt_or_static_eval(&mut self, pos: &Position<V>, stored: Option<i32>) -> i32 {
        match stored {
            Some(e) if e != NO_EVAL => e,
            _ => self.static_eval(pos),
        }
    }

    /// ProbCut's search at a non-PV node (see `negamax`): the captures whose SEE could
    /// reach `probcut_beta` from `eval`, each tried by quiescence and, if that holds,
    /// by a search `probcut_reduction` plies shallower in the zero window at
    /// `probcut_beta`. Returns the score of the first that holds (stored in the table
    /// as a lower bound), or `None`.
    fn probcut(
        &mut self,
        pos: &Position<V>,
        probcut_beta: i32,
        eval: i32,
        tt_move: Move,
        depth: i32,
        cut_node: bool,
    ) -> Option<i32> {
        let ply = self.ply;
        let si = ply + STACK_OFFSET;
        // The node's static evaluation, for the table entry (set by `negamax`).
        let raw_eval = self.stack[si].raw_eval;
        let key = pos.key();
        let order = OrderContext {
            tt_move,
            ..OrderContext::default()
        };
        let mut picker = MovePicker::new(pos, GenType::Noisy, &order);
        let probe_depth = depth - sp::probcut_reduction();
        while let Some(m) = picker.next_move(&self.histories) {
            if !pos.is_legal(m) || !see_ge(pos, m, probcut_beta - eval) {
                continue;
            }
            let p = self.mine_probability(pos, m);
            if is_chance(p) {
                continue;
            }
            let child = play_certain(pos, m, p);
            self.stack[si].piece_to = Some(piece_to(pos, m));
            self.keys.push(key);
            let mut s = -self.qsearch_child(&child, -probcut_beta, -probcut_beta + 1);
            if s >= probcut_beta && !self.stopped {
                s = -self.negamax_child::<false>(
                    &child,
                    -probcut_beta,
                    -probcut_beta + 1,
                    probe_depth,
                    !cut_node,
                );
            }
            self.keys.pop();
            if self.stopped {
                return Some(0);
            }
            if s >= probcut_beta {
                let entry = TtHit {
                    mv: m,
                    score: to_tt(s, ply),
                    eval: raw_eval,
                    depth: probcut_stored_depth(depth),
                    bound: Bound::Lower,
                    pv: self.stack[si].tt_pv,
                };
                self.tt().store(key, entry);
                return Some(s);
            }
        }
        None
    }

    /// The score of the move `mv` for the side to move at this node, searched to
    /// `depth` in the window (alpha, beta): a plain child search, or a chance node;
    /// `cut_node` is the child's node type (see `negamax`).
    /// The check extension of a chance move is decided per outcome.
    #[inline(always)]
    pub(super) fn search_move<const PV: bool>(
        &mut self,
        pos: &Position<V>,
        mv: Candidate<'_, V>,
        alpha: i32,
        beta: i32,
        depth: i32,
        cut_node: bool,
    ) -> i32 {
        match mv.child {
            Some(child) => -self.negamax_child::<PV>(child, -beta, -alpha, depth, cut_node),
            None => self.chance::<PV>(pos, mv, alpha, beta, depth, cut_node),
        }
    }

    /// [`Searcher::negamax`] of `child`, one ply below this node: the search stack's
    /// cursor (`ply`) moves down for the child's search and back.
    #[inline(always)]
    pub(super) fn negamax_child<const PV: bool>(
        &mut self,
        child: &Position<V>,
        alpha: i32,
        beta: i32,
        depth: i32,
        cut_node: bool,
    ) -> i32 {
        self.ply += 1;
        let score = self.negamax::<PV>(child, alpha, beta, depth, cut_node);
        self.ply -= 1;
        score
    }

    /// [`Searcher::qsearch`] of `child`, one ply below this node (quiet checks are
    /// tried at quiescence's first ply only).
    #[inline(always)]
    fn qsearch_child(&mut self, child: &Position<V>, alpha: i32, beta: i32) -> i32 {
        self.ply += 1;
        let score = self.qsearch(child, alpha, beta, false);
        self.ply -= 1;
        score
    }

    /// The value of a move whose landing square holds a mine with probability `p`
    /// (0 < p < 1): the probability-weighted average of its two outcomes
    /// (expectimax).
    ///
    /// The unlikely outcome is searched first, as a probe `chance_probe_reduction`
    /// plies shallower (Ballard's probing idea, "The *-Minimax Search Procedure for
    /// Trees Containing Chance Nodes", 1983, applied as a reduction); its score
    /// fixes the window of the likely outcome exactly: the average lies in
    /// (alpha, beta) if and only if the likely outcome's score lies in
    /// ((alpha - q v) / (1 - q), (beta - q v) / (1 - q)). A zero window stays
    /// (nearly) a zero window, so the likely outcome is searched like any other
    /// child. Before, both outcomes were searched to full depth and the first one
    /// with Star1's window, which the 20,000 cp bound on the other outcome made
    /// all but infinite: the effective branching factor was about 16.
    ///
    /// Each outcome's score is clamped to `WIN_CLAMP` before averaging; a mate is
    /// reported only when both outcomes are mates of the same sign.
    pub(super) fn chance<const PV: bool>(
        &mut self,
        pos: &Position<V>,
        mv: Candidate<'_, V>,
        alpha: i32,
        beta: i32,
        depth: i32,
        cut_node: bool,
    ) -> i32 {
        let win = WIN_CLAMP as f64;
        let (m, p) = (mv.m, mv.p as f64);
        // The unlikely outcome (a mine, mostly) and its probability `q`.
        let unlikely_mine = p <= 0.5;
        let q = if unlikely_mine { p } else { 1.0 - p };
        let extension = |c: &Position<V>| i32::from(c.in_check());

        let mut probe = *pos;
        probe.play_outcome(m, unlikely_mine);
        let probe_depth = (depth - sp::chance_probe_reduction()).max(0) + extension(&probe);
        let raw_probe = -self.negamax_child::<false>(&probe, -INFINITE, INFINITE, probe_depth, false);
        if self.stopped {
            return 0;
        }
        let v_probe = raw_probe.clamp(-WIN_CLAMP, WIN_CLAMP) as f64;
        // Star1 cut-offs: even the extreme scores of the likely outcome cannot
        // bring the average into the window.
        if q * v_probe + (1.0 - q) * win <= alpha as f64 {
            return (q * v_probe + (1.0 - q) * win).floor() as i32;
        }
        if q * v_probe - (1.0 - q) * win >= beta as f64 {
            return (q * v_probe - (1.0 - q) * win).ceil() as i32;
        }

        let lo = ((alpha as f64 - q * v_probe) / (1.0 - q)).floor().max(-win - 1.0) as i32;
        let hi = ((beta as f64 - q * v_probe) / (1.0 - q)).ceil().min(win + 1.0) as i32;
        let mut likely = *pos;
        likely.play_outcome(m, !unlikely_mine);
        let likely_depth = depth + extension(&likely);
        let raw_likely = -self.negamax_child::<PV>(&likely, -hi, -lo, likely_depth, cut_node);
        if self.stopped {
            return 0;
        }
        if raw_probe >= MATE_BOUND && raw_likely >= MATE_BOUND {
            return raw_probe.min(raw_likely);
        }
        if raw_probe <= -MATE_BOUND && raw_likely <= -MATE_BOUND {
            return raw_probe.max(raw_likely);
        }
        let v_likely = raw_likely.clamp(-WIN_CLAMP, WIN_CLAMP) as f64;
        (q * v_probe + (1.0 - q) * v_likely).round() as i32
    }
}
