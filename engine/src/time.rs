//! Time management: turns the UCI clock into a soft limit (do not start another
//! iteration after it) and a hard limit (abort the search at it).

use std::time::{Duration, Instant};

use crate::limits::Limits;

/// Moves assumed left in the game when the GUI does not say (sudden death).
const DEFAULT_MOVES_TO_GO: u32 = 25;
/// Share of the increment spent on this move.
const INCREMENT_SHARE: f64 = 0.75;
/// The soft limit never exceeds this share of the remaining time…
const SOFT_MAX_SHARE: f64 = 0.4;
/// …and the hard limit is this multiple of the soft one, within this share of the clock.
const HARD_SOFT_RATIO: f64 = 3.0;
const HARD_MAX_SHARE: f64 = 0.6;
/// After an iteration, do not start the next one past this share of the soft limit:
/// the next iteration usually costs more than all earlier ones together.
const NEXT_ITERATION_SHARE: f64 = 0.55;

/// Deadlines for one search.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl TimeManager {
    /// Deadlines from the limits, keeping `overhead` in reserve for the GUI and pipes.
    pub fn new(limits: &Limits, overhead: Duration) -> Self {
        let start = limits.started.unwrap_or_else(Instant::now);
        if let Some(movetime) = limits.movetime {
            let t = movetime
                .saturating_sub(overhead)
                .max(Duration::from_millis(1));
            // `movetime` asks for exactly this long: no early stop between iterations.
            return TimeManager {
                start,
                soft: None,
                hard: Some(t),
            };
        }
        let Some(time) = limits.time else {
            return TimeManager {
                start,
                soft: None,
                hard: None,
            };
        };
        let mtg = limits
            .movestogo
            .unwrap_or(DEFAULT_MOVES_TO_GO)
            .clamp(1, DEFAULT_MOVES_TO_GO);
        let left = time.saturating_sub(overhead).max(Duration::from_millis(1));
        let left_ms = left.as_secs_f64() * 1000.0;
        let inc_ms = limits.increment.as_secs_f64() * 1000.0;
        // With one move to the time control, nearly all of it may go into this move.
        let (soft_share, hard_share) = if mtg == 1 {
            (0.7, 0.85)
        } else {
            (SOFT_MAX_SHARE, HARD_MAX_SHARE)
        };
        let soft = (left_ms / f64::from(mtg) + inc_ms * INCREMENT_SHARE).min(left_ms * soft_share);
        let hard = (soft * HARD_SOFT_RATIO).min(left_ms * hard_share).max(soft);
        TimeManager {
            start,
            soft: Some(Duration::from_secs_f64(soft / 1000.0)),
            hard: Some(Duration::from_secs_f64(hard / 1000.0)),
        }
    }

    /// Restarts the clock (at `ponderhit`: our clock starts running only then).
    pub fn restart(&mut self) {
        self.start = Instant::now();
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// True if the search must stop now.
    pub fn hard_limit_reached(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// True if another iteration should not be started.
    pub fn soft_limit_reached(&self) -> bool {
        self.soft
            .is_some_and(|s| self.elapsed().as_secs_f64() >= s.as_secs_f64() * NEXT_ITERATION_SHARE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_stay_inside_the_clock() {
        for (time, inc, mtg) in [
            (60_000, 0, None),
            (100, 50, None),
            (5, 0, None),
            (1000, 0, Some(1)),
        ] {
            let limits = Limits {
                time: Some(Duration::from_millis(time)),
                increment: Duration::from_millis(inc),
                movestogo: mtg,
                ..Limits::default()
            };
            let tm = TimeManager::new(&limits, Duration::from_millis(10));
            let (soft, hard) = (tm.soft.unwrap(), tm.hard.unwrap());
            assert!(soft <= hard, "{time}+{inc}");
            assert!(
                hard < Duration::from_millis(time.max(2)),
                "{time}+{inc}: hard {hard:?}"
            );
        }
    }

    #[test]
    fn movetime_is_exact_less_overhead() {
        let limits = Limits {
            movetime: Some(Duration::from_millis(500)),
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, Duration::from_millis(10));
        assert_eq!(tm.hard, Some(Duration::from_millis(490)));
    }

    #[test]
    fn the_clock_runs_from_the_go() {
        // A `go movetime 100` read 200 ms ago is already out of time.
        let limits = Limits {
            movetime: Some(Duration::from_millis(100)),
            started: Instant::now().checked_sub(Duration::from_millis(200)),
            ..Limits::default()
        };
        assert!(limits.started.is_some());
        let tm = TimeManager::new(&limits, Duration::from_millis(10));
        assert!(tm.hard_limit_reached());
        assert!(tm.elapsed() >= Duration::from_millis(200));
    }
}
