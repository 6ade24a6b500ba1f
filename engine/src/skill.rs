//! Playing below full strength: one internal *level* that `Skill Level` and `UCI_Elo` both
//! map onto, and the pure rule that picks a move among the MultiPV lines of a weakened
//! search.
//!
//! A weakened engine plays worse in two ways that a human opponent recognises as plausible
//! rather than absurd:
//! - it sees less: the search stops deepening once a node budget is spent, a budget that
//!   halves every [`LEVELS_PER_HALVING`] levels down from [`NODES_AT_TOP`];
//! - it judges less sharply: it searches at least [`Strength::lines`] MultiPV lines
//!   ([`SKILL_LINES`], fewer near the top) and adds to each line's score a random bonus
//!   below the level's *noise*, then plays the line with the highest sum. A line that
//!   scores `noise` or more below the best can never win, so the noise is also the cap on
//!   what a move may throw away: a few centipawns near the top, about a minor piece
//!   ([`NOISE_AT_BOTTOM`]) at level 0.
//!
//! Mates are never played carelessly: when the best line mates, it is played (a weakened
//! engine may fail to *see* a mate because of its budget, but never declines one it has
//! seen; mate in one is always seen, since depth 1 always completes); a line that gets
//! mated scores far below any noise, so it is never chosen while a better line exists.
//!
//! The randomness comes from a seeded [`Rng`](crate::rng::Rng), so that a given seed always gives the same
//! choice (the searcher seeds it from the position key and its search count).

use crate::rng::Rng;
use crate::score::is_mate;

/// Full strength; levels below it weaken the engine (Stockfish's `Skill Level` scale).
pub const TOP_LEVEL: i64 = 20;

/// A weakened engine searches at least this many MultiPV lines to choose from, up to
/// level [`LINES_FADE_FROM`].
pub const SKILL_LINES: usize = 4;
/// Above this level a weakened engine weighs one line fewer a level (3 at level 18, 2 at
/// 19). Every extra line costs the search depth, which the top levels should keep: with two
/// lines level 19 plays within the calibration's error of full strength (docs/strength.md).
pub const LINES_FADE_FROM: f64 = 17.0;

/// The node budget just below full strength; it halves every `LEVELS_PER_HALVING` levels,
/// so level 0 gets `NODES_AT_TOP / 2^(20 / LEVELS_PER_HALVING)` nodes (1024 nodes).
pub const NODES_AT_TOP: f64 = 1_048_576.0;
/// Levels over which the node budget halves (see [`NODES_AT_TOP`]).
pub const LEVELS_PER_HALVING: f64 = 2.0;

/// The noise (and so the most a chosen move may lose, in centipawns) at level 0; it falls
/// linearly to 0 at full strength.
pub const NOISE_AT_BOTTOM: f64 = 300.0;

/// `UCI_Elo` calibration: the Elo measured at each level, in increasing order
/// (docs/strength.md, "Calibration": 100 games a level at 10+0.1 against Stockfish 15.1
/// limited to a known `UCI_Elo`, with the network, rounded to 10; each figure is good to
/// about ±60–90 Elo). `UCI_Elo` interpolates linearly between these points, and its
/// advertised range is from the first Elo to the last (level 19); full strength, level
/// 20, lies above it and is reached by turning `UCI_LimitStrength` off.
pub const ELO_AT_LEVEL: &[(i64, f64)] = &[
    (1460, 0.0),
    (1730, 5.0),
    (1860, 10.0),
    (2100, 15.0),
    (2330, 17.0),
    (2580, 18.0),
    (2660, 19.0),
];

/// The lowest `UCI_Elo` the calibration covers.
pub const ELO_MIN: i64 = ELO_AT_LEVEL[0].0;
/// The highest `UCI_Elo` the calibration covers.
pub const ELO_MAX: i64 = ELO_AT_LEVEL[ELO_AT_LEVEL.len() - 1].0;

/// A strength below full: a level in [0, 20).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    level: f64,
}

impl Strength {
    /// From Stockfish's `Skill Level` (0..=20): None at 20, full strength.
    pub fn from_skill_level(skill: i64) -> Option<Strength> {
        (skill < TOP_LEVEL).then(|| Strength {
            level: skill.clamp(0, TOP_LEVEL) as f64,
        })
    }

    /// From `UCI_Elo`, clamped to [`ELO_MIN`, `ELO_MAX`] and interpolated in
    /// [`ELO_AT_LEVEL`].
    pub fn from_elo(elo: i64) -> Strength {
        let elo = elo.clamp(ELO_MIN, ELO_MAX);
        let level =
            ELO_AT_LEVEL
                .windows(2)
                .find(|w| elo <= w[1].0)
                .map_or(ELO_AT_LEVEL[0].1, |w| {
                    let ((e0, l0), (e1, l1)) = (w[0], w[1]);
                    l0 + (l1 - l0) * (elo - e0) as f64 / (e1 - e0) as f64
                });
        Strength { level }
    }

    /// The level, in [0, 20).
    pub fn level(&self) -> f64 {
        self.level
    }

    /// How many MultiPV lines the search weighs at least: [`SKILL_LINES`] up to level
    /// [`LINES_FADE_FROM`], then one fewer for each whole level above it (never below 2,
    /// since levels stay under 20).
    pub fn lines(&self) -> usize {
        let fewer = (self.level - LINES_FADE_FROM).max(0.0).floor() as usize;
        SKILL_LINES - fewer
    }

    /// Iterative deepening stops starting new iterations once this many nodes are spent.
    pub fn node_budget(&self) -> u64 {
        let halvings = (TOP_LEVEL as f64 - self.level) / LEVELS_PER_HALVING;
        (NODES_AT_TOP / halvings.exp2()) as u64
    }

    /// The largest random bonus a line may get, in centipawns; at least 1.
    pub fn noise(&self) -> i32 {
        let weakness = (TOP_LEVEL as f64 - self.level) / TOP_LEVEL as f64;
        ((NOISE_AT_BOTTOM * weakness) as i32).max(1)
    }

    /// Picks one of the lines, given their scores best first; returns its index.
    /// The best line when it mates or is mated, or when only one line exists.
    pub fn pick(&self, scores: &[i32], rng: &mut Rng) -> usize {
        let Some(&best) = scores.first() else {
            return 0;
        };
        if is_mate(best) {
            return 0;
        }
        let noise = self.noise();
        scores
            .iter()
            .enumerate()
            .filter(|&(_, &score)| best - score < noise)
            // Modulo: its bias is far below a centipawn's worth (noise ≥ 1).
            .map(|(i, &score)| (score + (rng.next_u64() % noise as u64) as i32, i))
            // Ties go to the better line.
            .max_by_key(|&(value, i)| (value, std::cmp::Reverse(i)))
            .map_or(0, |(_, i)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{MATE, mated_in};

    #[test]
    fn skill_level_20_is_full_strength_and_levels_map_directly() {
        assert_eq!(Strength::from_skill_level(20), None);
        assert_eq!(Strength::from_skill_level(0).map(|s| s.level()), Some(0.0));
        assert_eq!(
            Strength::from_skill_level(13).map(|s| s.level()),
            Some(13.0)
        );
    }

    #[test]
    fn the_calibration_increases_in_elo_and_level() {
        for w in ELO_AT_LEVEL.windows(2) {
            assert!(w[0].0 < w[1].0 && w[0].1 < w[1].1, "{w:?}");
        }
        assert!(
            ELO_AT_LEVEL
                .iter()
                .all(|&(_, level)| level < TOP_LEVEL as f64)
        );
    }

    #[test]
    fn elo_interpolates_between_calibration_points_and_clamps() {
        let (e0, l0) = ELO_AT_LEVEL[0];
        let (e1, l1) = ELO_AT_LEVEL[1];
        assert_eq!(Strength::from_elo(e0).level(), l0);
        assert_eq!(Strength::from_elo(e0 - 500).level(), l0);
        assert_eq!(
            Strength::from_elo(ELO_MAX + 500).level(),
            ELO_AT_LEVEL.last().unwrap().1
        );
        let mid = Strength::from_elo((e0 + e1) / 2).level();
        assert!((mid - (l0 + l1) / 2.0).abs() < 0.01, "{mid}");
        assert!(Strength::from_elo(ELO_MAX).level() < TOP_LEVEL as f64);
    }

    #[test]
    fn budget_and_noise_shrink_towards_full_strength() {
        let at = |l| Strength::from_skill_level(l).unwrap();
        assert_eq!(at(0).node_budget(), 1024);
        assert_eq!(at(10).node_budget(), 32768);
        assert_eq!(at(18).node_budget(), 524_288);
        assert_eq!(at(0).noise(), 300);
        assert_eq!(at(10).noise(), 150);
        assert_eq!(at(19).noise(), 15);
    }

    #[test]
    fn lines_fade_only_above_level_17() {
        let lines = |l| Strength::from_skill_level(l).unwrap().lines();
        assert_eq!([0, 10, 17, 18, 19].map(lines), [4, 4, 4, 3, 2]);
        assert_eq!(Strength { level: 17.99 }.lines(), 4);
        assert_eq!(Strength { level: 19.99 }.lines(), 2);
    }

    #[test]
    fn pick_never_throws_away_more_than_the_noise() {
        let weak = Strength::from_skill_level(0).unwrap();
        let mut rng = Rng::new(1);
        let mut picked = [0; 4];
        for _ in 0..1000 {
            picked[weak.pick(&[50, 20, -100, -400], &mut rng)] += 1;
        }
        // -400 is 450 below the best, beyond level 0's noise of 300: never chosen.
        assert_eq!(picked[3], 0);
        assert_eq!(picked, [589, 361, 50, 0]);
    }

    #[test]
    fn mates_found_are_played_and_mated_lines_avoided() {
        let weak = Strength::from_skill_level(0).unwrap();
        let mut rng = Rng::new(7);
        for _ in 0..100 {
            assert_eq!(weak.pick(&[MATE - 3, MATE - 5, 200, 0], &mut rng), 0);
            assert_ne!(
                weak.pick(&[-50, -60, mated_in(2), mated_in(4)], &mut rng),
                2
            );
            assert_eq!(weak.pick(&[mated_in(6), mated_in(2)], &mut rng), 0);
        }
        assert_eq!(weak.pick(&[10], &mut rng), 0);
        assert_eq!(weak.pick(&[], &mut rng), 0);
    }

    #[test]
    fn the_same_seed_gives_the_same_choices() {
        let s = Strength::from_skill_level(5).unwrap();
        let run = |seed| {
            let mut rng = Rng::new(seed);
            (0..50)
                .map(|_| s.pick(&[30, 25, 10, 0], &mut rng))
                .collect::<Vec<_>>()
        };
        assert_eq!(run(42), run(42));
        assert_ne!(run(42), run(43));
    }
}
