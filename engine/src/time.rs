//! Time management: turns the UCI clock into a soft limit (do not start another
//! iteration after it) and a hard limit (abort the search at it).

use std::time::{Duration, Instant};

use crate::limits::Limits;
use crate::params::{
    TIME_ADAPT_DEPTH, TIME_HARD_MAX_PERCENT, TIME_HARD_SOFT_PERCENT, TIME_INCREMENT_PERCENT,
    TIME_MOVES_TO_GO, TIME_NEXT_ITERATION_PERCENT, TIME_NODES_BASE_PERCENT, TIME_NODES_MAX_PERCENT,
    TIME_NODES_MIN_PERCENT, TIME_NODES_SCALE_PERCENT, TIME_SCORE_DROP_CP, TIME_SCORE_MAX_PERCENT,
    TIME_SCORE_MIN_PERCENT, TIME_SINGLE_MOVE_PERCENT, TIME_SOFT_MAX_PERCENT,
    TIME_STABILITY_BASE_PERMILLE, TIME_STABILITY_MAX, TIME_STABILITY_STEP_PERMILLE,
};

/// The shares and scales of `engine::params` (`TIME_*`), given in percent.
fn percent(value: i32) -> f64 {
    f64::from(value) / 100.0
}

/// The best-move stability terms, given in thousandths.
fn permille(value: i32) -> f64 {
    f64::from(value) / 1000.0
}

/// Deadlines for one search.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// The soft limit's factor from what the search has seen so far (1 until adapted).
    scale: f64,
}

/// What one completed iteration tells the clock.
#[derive(Clone, Copy, Debug)]
pub struct IterationSummary {
    /// The depth the iteration completed.
    pub depth: i32,
    /// Iterations in a row, before this one, whose best move this one kept.
    pub stable_iterations: u32,
    /// The previous iteration's score minus this one's (positive: the score fell).
    pub score_drop: i32,
    /// Share of the root's nodes spent under the best move, in [0, 1].
    pub best_move_nodes: f64,
    /// Legal moves at the root.
    pub root_moves: usize,
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
                scale: 1.0,
            };
        }
        let Some(time) = limits.time else {
            return TimeManager {
                start,
                soft: None,
                hard: None,
                scale: 1.0,
            };
        };
        // The moves to the next control share the clock evenly, however many they are
        // (a cap would have the first moves of a 40-move period spend the shares of
        // the last), and each of them will lose the move overhead to latency: it is
        // kept in reserve for every one. The move before the control spends no larger
        // share of its clock than others: what it leaves carries over into the next
        // period, and at a fast control (40/4: about 100 ms on the clock then) a share
        // of 85 % left little more than the move overhead for the latency a loaded
        // machine adds.
        let mtg = limits.movestogo.unwrap_or(TIME_MOVES_TO_GO()).max(1);
        let reserve = overhead * limits.movestogo.map_or(1, |_| mtg);
        let left = time.saturating_sub(reserve).max(Duration::from_millis(1));
        let left_ms = left.as_secs_f64() * 1000.0;
        let inc_ms = limits.increment.as_secs_f64() * 1000.0;
        let soft = (left_ms / f64::from(mtg) + inc_ms * percent(TIME_INCREMENT_PERCENT()))
            .min(left_ms * percent(TIME_SOFT_MAX_PERCENT()));
        let hard = (soft * percent(TIME_HARD_SOFT_PERCENT()))
            .min(left_ms * percent(TIME_HARD_MAX_PERCENT()))
            .max(soft);
        TimeManager {
            start,
            soft: Some(Duration::from_secs_f64(soft / 1000.0)),
            hard: Some(Duration::from_secs_f64(hard / 1000.0)),
            scale: 1.0,
        }
    }

    /// Rescales the soft limit after an iteration: more time while the best move keeps
    /// changing, the score falls or another move draws much of the effort; less once
    /// one move has held for several iterations and took nearly every node. The hard
    /// limit stays as it is.
    pub fn adapt(&mut self, it: &IterationSummary) {
        if it.root_moves == 1 {
            self.scale = percent(TIME_SINGLE_MOVE_PERCENT());
            return;
        }
        if it.depth < TIME_ADAPT_DEPTH() {
            return;
        }
        let stable = f64::from(it.stable_iterations.min(TIME_STABILITY_MAX()));
        let stability = permille(TIME_STABILITY_BASE_PERMILLE())
            - permille(TIME_STABILITY_STEP_PERMILLE()) * stable;
        let score = (1.0 + f64::from(it.score_drop) / f64::from(TIME_SCORE_DROP_CP())).clamp(
            percent(TIME_SCORE_MIN_PERCENT()),
            percent(TIME_SCORE_MAX_PERCENT()),
        );
        let nodes = ((percent(TIME_NODES_BASE_PERCENT()) - it.best_move_nodes)
            * percent(TIME_NODES_SCALE_PERCENT()))
        .clamp(
            percent(TIME_NODES_MIN_PERCENT()),
            percent(TIME_NODES_MAX_PERCENT()),
        );
        self.scale = stability * score * nodes;
    }

    /// Restarts the clock (at `ponderhit`: our clock starts running only then).
    pub fn restart(&mut self) {
        self.start = Instant::now();
    }

    /// Time on our clock so far: since the `go` arrived, or since `ponderhit`.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// True if the search must stop now.
    pub fn hard_limit_reached(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// True if another iteration should not be started.
    pub fn soft_limit_reached(&self) -> bool {
        self.soft.is_some_and(|s| {
            self.elapsed().as_secs_f64()
                >= s.as_secs_f64() * percent(TIME_NEXT_ITERATION_PERCENT()) * self.scale
        })
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

    /// Plays out one period of 40 moves in `base` ms (40/60, 40/10, 40/4, 40/1), each
    /// move spending its soft limit. With `left` the clock less the move overhead of
    /// every move still to go, no soft limit exceeds an even share `left / mtg`, no hard
    /// limit TIME_HARD_SOFT_PERCENT even shares or TIME_HARD_MAX_PERCENT of `left` (`movestogo 1`
    /// included), and the clock reaches the control with time to spare.
    #[test]
    fn moves_to_go_share_the_clock_evenly() {
        let overhead = Duration::from_millis(10);
        for base in [60_000.0, 10_000.0, 4_000.0, 1_000.0] {
            let mut clock: f64 = base;
            for mtg in (1..=40u32).rev() {
                let limits = Limits {
                    time: Some(Duration::from_secs_f64(clock / 1000.0)),
                    movestogo: Some(mtg),
                    ..Limits::default()
                };
                let tm = TimeManager::new(&limits, overhead);
                let ms = |d: Option<Duration>| d.unwrap().as_secs_f64() * 1000.0;
                let (soft, hard) = (ms(tm.soft), ms(tm.hard));
                let left = clock - 10.0 * f64::from(mtg);
                let even = left / f64::from(mtg);
                let what = format!("40/{base} ms, {mtg} to go, {clock:.1} ms left");
                assert!(soft <= even + 1e-6, "{what}: soft {soft:.1} ms");
                assert!(
                    hard <= (even * percent(TIME_HARD_SOFT_PERCENT()))
                        .min(left * percent(TIME_HARD_MAX_PERCENT()))
                        + 1e-6,
                    "{what}: hard {hard:.1} ms"
                );
                clock -= soft;
            }
            assert!(clock > base / 100.0, "40/{base} ms: {clock:.1} ms left");
        }
    }

    fn summary(stable: u32, drop: i32, share: f64) -> IterationSummary {
        IterationSummary {
            depth: 10,
            stable_iterations: stable,
            score_drop: drop,
            best_move_nodes: share,
            root_moves: 30,
        }
    }

    #[test]
    fn the_soft_limit_follows_the_search_and_the_hard_one_stays() {
        let limits = Limits {
            time: Some(Duration::from_secs(10)),
            ..Limits::default()
        };
        let base = TimeManager::new(&limits, Duration::from_millis(10));
        let scaled = |it: IterationSummary| {
            let mut tm = base.clone();
            tm.adapt(&it);
            assert_eq!(tm.hard, base.hard);
            assert_eq!(tm.soft, base.soft);
            tm.scale
        };
        let settled = scaled(summary(6, 0, 0.95));
        let unsettled = scaled(summary(0, 0, 0.95));
        let falling = scaled(summary(6, 80, 0.95));
        let contested = scaled(summary(6, 0, 0.4));
        assert!(settled < 1.0, "{settled}");
        assert!(unsettled > settled && falling > settled && contested > settled);
        assert!(scaled(summary(0, 500, 0.0)) > 2.0);
        // Shallow iterations say too little; a single legal move says everything.
        let mut shallow = summary(0, 500, 0.0);
        shallow.depth = 2;
        assert_eq!(scaled(shallow), 1.0);
        let mut forced = summary(0, 0, 1.0);
        forced.root_moves = 1;
        assert!(scaled(forced) < 0.1);
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
