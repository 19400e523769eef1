//! Time management: how long to think, from the clock the GUI sends.
//!
//! Two budgets per move, in the style of the strongest engines (Stockfish's
//! `timeman.cpp`, Ethereal, Weiss; our own constants):
//! - the *optimum*: the time a move of average difficulty deserves. After each
//!   completed iteration the search compares the time used with the optimum scaled
//!   by how settled the search is ([`TimeManager::soft_expired`]): more when the best
//!   move keeps changing or the score is falling, less when one move has taken nearly
//!   all the effort and stayed best.
//! - the *maximum*: a hard deadline checked inside the search (it stops
//!   mid-iteration). It never exceeds 80% of the remaining clock, less `Move
//!   Overhead`, so no move can lose on time.
//!
//! Both come from the clock as if `movestogo` (or, in sudden death, a horizon of
//! [`HORIZON`] moves) remained, counting the increments still to come.

use crate::host::Instant;
use sapper_rules::types::Color;
use std::time::Duration;

/// Moves assumed to remain in sudden death (no `movestogo`), and the most a
/// `movestogo` is taken to mean.
pub const HORIZON: u64 = 50;

/// Share of the scaled optimum after which no new iteration starts (see
/// [`TimeManager::soft_expired`]): on average a move then uses about the optimum.
pub const NEXT_ITERATION_SHARE: f64 = 0.6;

/// What `go` asked for. Times in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Remaining clock time of White and Black.
    pub time: [Option<u64>; 2],
    /// Increment per move of White and Black.
    pub inc: [u64; 2],
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Think exactly this long.
    pub movetime: Option<u64>,
    /// Maximum depth, plies.
    pub depth: Option<i32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Search for a mate in at most this many moves.
    pub mate: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder: search until `ponderhit` (then on the clock) or `stop`.
    pub ponder: bool,
}

impl Limits {
    /// Whether any clock-based limit is set.
    pub fn has_clock(&self) -> bool {
        self.time.iter().any(Option::is_some) || self.movetime.is_some()
    }
}

/// The optimum and maximum time of one search.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    optimum: Option<Duration>,
    maximum: Option<Duration>,
}

impl TimeManager {
    /// Plans the search of `side` at game ply `ply` (0 at the start position, +1 per
    /// half-move) under `limits`, keeping `overhead_ms` per move in reserve.
    /// `opening_share` is the variant's sudden-death share at ply 0 ([`budget`]).
    pub fn new(
        limits: &Limits,
        side: Color,
        ply: u32,
        overhead_ms: u64,
        opening_share: f64,
        start: Instant,
    ) -> TimeManager {
        let (optimum, maximum) = if let Some(mt) = limits.movetime {
            // Use all of it: no optimum, so iterations go on until the deadline.
            (None, Some(mt.saturating_sub(overhead_ms).max(1)))
        } else if let Some(time) = limits.time[side.index()] {
            let inc = limits.inc[side.index()];
            let (opt, max) = budget(time, inc, limits.movestogo, ply, overhead_ms, opening_share);
            (Some(opt), Some(max))
        } else {
            (None, None)
        };
        TimeManager {
            start,
            optimum: optimum.map(Duration::from_millis),
            maximum: maximum.map(Duration::from_millis),
        }
    }

    /// Restarts the clock (on `ponderhit`: our time starts running now).
    pub fn restart(&mut self, now: Instant) {
        self.start = now;
    }

    /// Time since the search (or the ponderhit) started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the maximum has passed: stop now, even mid-iteration.
    pub fn hard_expired(&self) -> bool {
        self.maximum.is_some_and(|h| self.elapsed() >= h)
    }

    /// Whether, after a completed iteration, the search should play its move rather
    /// than start another: the optimum times `scale` (from [`TimeScale`]) would be
    /// overrun. The next iteration takes about as long as all before it together
    /// (an effective branching factor near 2), so none starts after
    /// [`NEXT_ITERATION_SHARE`] of the budget; one that does start and runs long is
    /// cut by the maximum, and the search keeps the best move it found by then.
    pub fn soft_expired(&self, scale: f64) -> bool {
        self.optimum
            .is_some_and(|s| self.elapsed().as_secs_f64() >= s.as_secs_f64() * scale * NEXT_ITERATION_SHARE)
    }

    /// The optimum, if the clock is used.
    pub fn optimum(&self) -> Option<Duration> {
        self.optimum
    }

    /// The maximum, if there is a deadline.
    pub fn maximum(&self) -> Option<Duration> {
        self.maximum
    }
}

/// Sudden death's share of the clock at ply 0 for a variant whose games are as long
/// as chess's ([`VariantSearch::OPENING_TIME_SHARE`](super::VariantSearch::OPENING_TIME_SHARE)'s
/// default).
pub const OPENING_SHARE: f64 = 0.018;
/// Sudden death's share of the clock at ply 0 for a variant whose games are short
/// and decided early (atomic, king of the hill): Multi-Variant Stockfish plans
/// atomic's clock over 29 moves, where chess's horizon is 50.
pub const SHORT_GAME_OPENING_SHARE: f64 = 0.028;
/// Sudden death's share grows by this much a ply up to [`LATE_SHARE`].
const SHARE_PER_PLY: f64 = 0.00034;
/// The most sudden death's share grows to (reached at ply 80 from [`OPENING_SHARE`]).
const LATE_SHARE: f64 = OPENING_SHARE + 80.0 * SHARE_PER_PLY;

/// Optimum and maximum (milliseconds, both at least 1) for a move with `time` on the
/// clock, `inc` per move, `movestogo` moves to the control and game ply `ply`.
///
/// The clock is spread over the moves still to come, `movestogo` or [`HORIZON`]:
/// `left = time + inc * (moves - 1) - overhead * (moves + 2)`. In sudden death the
/// share of `left` grows with the game ply (early moves matter less and the game may
/// be long; later the horizon really shortens), from `opening_share` at ply 0 (1.8%,
/// [`OPENING_SHARE`], for chess) by 0.034% a ply to at most about 4.5%, and never
/// above a fifth of the clock. The maximum allows a move up to five times the
/// optimum (fewer with few moves to go) within 80% of the clock.
pub fn budget(
    time: u64,
    inc: u64,
    movestogo: Option<u32>,
    ply: u32,
    overhead: u64,
    opening_share: f64,
) -> (u64, u64) {
    let moves = movestogo.map_or(HORIZON, |m| (m as u64).clamp(1, HORIZON));
    let time_f = time as f64;
    let left = (time_f + (inc * (moves - 1)) as f64 - (overhead * (moves + 2)) as f64).max(1.0);
    let ply = ply.min(400) as f64;
    let (share, stretch) = match movestogo {
        None => (
            (opening_share + SHARE_PER_PLY * ply)
                .min(LATE_SHARE.max(opening_share))
                .min(0.2 * time_f / left),
            5.0,
        ),
        Some(_) => {
            let m = moves as f64;
            (
                ((1.0 + ply / 120.0) / (m + 1.0)).min(0.85 * time_f / left),
                (1.5 + 0.1 * m).min(5.0),
            )
        }
    };
    let optimum = (share * left).max(1.0);
    let maximum = (0.8 * time_f - overhead as f64).min(stretch * optimum).max(1.0);
    (optimum.min(maximum) as u64, maximum as u64)
}

/// How settled a search is after an iteration, as a factor on the optimum.
///
/// Three signals, each the standard one: best-move instability (Stockfish's
/// `bestMoveChanges`, halved every iteration so recent changes weigh most), a falling
/// score (against the previous iteration and the previous move's search), and the
/// share of the nodes the best move took (Ethereal's and Weiss's "node time
/// management": a move that took nearly all the effort is clear).
#[derive(Clone, Copy, Debug, Default)]
pub struct TimeScale {
    /// Decayed count of best-move changes at the root.
    pub changes: f64,
    /// Score lost since the previous iteration, centipawns (negative if it rose).
    pub iteration_drop: i32,
    /// Score lost since the search for the previous move, centipawns.
    pub move_drop: i32,
    /// Share of the last iteration's root nodes spent on its best move, 0..=1.
    pub best_share: f64,
    /// Depth of the last completed iteration.
    pub depth: i32,
}

impl TimeScale {
    /// The factor on the optimum, between 0.35 and 3.
    pub fn factor(&self) -> f64 {
        let instability = 1.0 + 1.6 * self.changes;
        let drop = self.iteration_drop.clamp(-100, 200) as f64 * 0.004
            + self.move_drop.clamp(-100, 200) as f64 * 0.002;
        let falling = (1.0 + drop).clamp(0.6, 1.7);
        let effort = if self.depth >= 8 {
            0.5 + 1.5 * (1.0 - self.best_share.clamp(0.0, 1.0))
        } else {
            1.0
        };
        (instability * falling * effort).clamp(0.35, 3.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(time: u64, inc: u64, movestogo: Option<u32>) -> Limits {
        Limits {
            time: [Some(time), Some(time)],
            inc: [inc, inc],
            movestogo,
            ..Limits::default()
        }
    }

    #[test]
    fn budgets_stay_inside_the_clock() {
        for (time, inc, mtg) in [
            (5_000, 50, None),
            (100, 0, None),
            (20, 0, Some(1)),
            (60_000, 0, Some(40)),
        ] {
            for ply in [0, 30, 80, 300] {
                let (opt, max) = budget(time, inc, mtg, ply, 10, OPENING_SHARE);
                assert!(
                    1 <= opt && opt <= max,
                    "{time}+{inc} {mtg:?} ply {ply}: {opt} {max}"
                );
                assert!(max as f64 <= (0.8 * time as f64).max(1.0), "{time}: max {max}");
            }
        }
        // Almost no time left: still a positive budget below what remains.
        let tm = TimeManager::new(
            &clock(20, 0, None),
            Color::White,
            10,
            30,
            OPENING_SHARE,
            Instant::now(),
        );
        assert_eq!(tm.maximum().unwrap().as_millis(), 1);
    }

    #[test]
    fn sudden_death_spends_more_as_the_game_goes_on() {
        let (early, _) = budget(5_000, 50, None, 0, 10, OPENING_SHARE);
        let (late, _) = budget(5_000, 50, None, 60, 10, OPENING_SHARE);
        assert!(early < late, "{early} {late}");
        // 5s+0.05s: a typical game of 60 moves uses most of the clock, not a quarter.
        let (opt, max) = budget(5_000, 50, None, 20, 10, OPENING_SHARE);
        assert!((100..=300).contains(&opt), "optimum {opt}");
        assert!(max >= 3 * opt, "maximum {max}");
    }

    #[test]
    fn a_larger_opening_share_spends_more_early_and_the_same_late() {
        let atomic = SHORT_GAME_OPENING_SHARE;
        for (time, inc) in [(5_000, 50), (60_000, 0), (300, 0)] {
            let (chess_early, _) = budget(time, inc, None, 0, 10, OPENING_SHARE);
            let (atomic_early, max) = budget(time, inc, None, 0, 10, atomic);
            assert!(
                atomic_early >= chess_early && atomic_early <= max,
                "{time}: {chess_early} {atomic_early}"
            );
            let (chess_late, _) = budget(time, inc, None, 120, 10, OPENING_SHARE);
            let (atomic_late, _) = budget(time, inc, None, 120, 10, atomic);
            assert_eq!(chess_late, atomic_late, "{time}");
        }
        let (chess_early, _) = budget(5_000, 50, None, 0, 10, OPENING_SHARE);
        let (atomic_early, _) = budget(5_000, 50, None, 0, 10, atomic);
        assert!(
            atomic_early as f64 >= 1.4 * chess_early as f64,
            "{chess_early} {atomic_early}"
        );
    }

    #[test]
    fn the_last_move_before_the_control_uses_most_of_the_clock() {
        let (opt, max) = budget(10_000, 0, Some(1), 40, 10, OPENING_SHARE);
        assert!(opt >= 4_000, "optimum {opt}");
        assert!(max <= 8_000, "maximum {max}");
        let (opt40, _) = budget(10_000, 0, Some(40), 40, 10, OPENING_SHARE);
        assert!(opt40 < opt / 10, "{opt40}");
    }

    #[test]
    fn increment_adds_time() {
        let (without, _) = budget(5_000, 0, None, 20, 10, OPENING_SHARE);
        let (with, _) = budget(5_000, 100, None, 20, 10, OPENING_SHARE);
        assert!(with > without, "{without} {with}");
    }

    #[test]
    fn movetime_is_exact_minus_overhead() {
        let limits = Limits {
            movetime: Some(1_000),
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, Color::Black, 0, 10, OPENING_SHARE, Instant::now());
        assert_eq!(tm.maximum().unwrap().as_millis(), 990);
        assert!(tm.optimum().is_none());
    }

    #[test]
    fn unsettled_searches_get_more_time() {
        let settled = TimeScale {
            best_share: 0.95,
            depth: 12,
            ..TimeScale::default()
        };
        let changing = TimeScale {
            changes: 1.5,
            ..settled
        };
        let falling = TimeScale {
            iteration_drop: 80,
            move_drop: 120,
            ..settled
        };
        let split = TimeScale {
            best_share: 0.3,
            ..settled
        };
        assert!(settled.factor() < 1.0, "{}", settled.factor());
        for other in [changing, falling, split] {
            assert!(other.factor() > settled.factor() * 1.5, "{other:?}");
        }
        assert!(TimeScale::default().factor() <= 3.0);
    }
}
