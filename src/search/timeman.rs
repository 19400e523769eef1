//! Time management: how long to think, from the clock the GUI sends.
//!
//! Two limits: the *soft* limit is checked between iterations (no new iteration
//! starts once it is likely to be exceeded), the *hard* limit inside the search (it
//! stops mid-iteration). Both leave `Move Overhead` for the GUI's and the pipe's lag.

use crate::types::Color;
use std::time::{Duration, Instant};

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

/// Soft and hard deadlines for one search.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl TimeManager {
    /// Plans the search of `side` under `limits`, keeping `overhead_ms` in reserve.
    pub fn new(limits: &Limits, side: Color, overhead_ms: u64, start: Instant) -> TimeManager {
        let (soft, hard) = if let Some(mt) = limits.movetime {
            // Use all of it: no soft limit, so iterations go on until the hard one.
            (None, Some(mt.saturating_sub(overhead_ms).max(1)))
        } else if let Some(remaining) = limits.time[side.index()] {
            let inc = limits.inc[side.index()];
            let available = remaining.saturating_sub(overhead_ms).max(1);
            // Sudden death: plan for 30 more moves; with movestogo, for those (plus a
            // margin so the last move before the control is not starved).
            let moves_left = limits.movestogo.map_or(30, |m| m.clamp(1, 50) as u64 + 1);
            let base = available / moves_left + inc * 3 / 4;
            let hard = (available * 2 / 5).min(base * 4).max(1);
            let soft = (base * 3 / 5).max(1).min(hard);
            (Some(soft), Some(hard))
        } else {
            (None, None)
        };
        TimeManager {
            start,
            soft: soft.map(Duration::from_millis),
            hard: hard.map(Duration::from_millis),
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

    /// Whether the hard limit has passed: stop now.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// Whether to start no new iteration: the next one takes roughly as long as all
    /// before it together, so one started after half the soft limit would overrun it.
    /// `scale` adjusts the soft limit (above 1 when the best move is unstable).
    pub fn soft_expired(&self, scale: f64) -> bool {
        self.soft
            .is_some_and(|s| self.elapsed().as_secs_f64() >= s.as_secs_f64() * scale * 0.5)
    }

    /// The soft limit, if the clock is used.
    pub fn soft_limit(&self) -> Option<Duration> {
        self.soft
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_stay_inside_the_clock() {
        let limits = Limits {
            time: [Some(5_000), Some(5_000)],
            inc: [50, 50],
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, Color::White, 30, Instant::now());
        let soft = tm.soft.unwrap().as_millis();
        let hard = tm.hard.unwrap().as_millis();
        assert!(soft <= hard && hard <= 5_000 * 2 / 5, "soft {soft} hard {hard}");
        assert!(soft >= 50, "soft {soft}");
        // Almost no time left: still a positive budget below what remains.
        let limits = Limits {
            time: [Some(20), Some(20)],
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, Color::White, 30, Instant::now());
        assert_eq!(tm.hard.unwrap().as_millis(), 1);
    }

    #[test]
    fn movetime_is_exact_minus_overhead() {
        let limits = Limits {
            movetime: Some(1_000),
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, Color::Black, 10, Instant::now());
        assert_eq!(tm.hard.unwrap().as_millis(), 990);
        assert!(tm.soft.is_none());
    }
}
