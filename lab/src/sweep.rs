//! Sweeps: the rows over many positions and a range of depths, summarised per row and
//! depth, which is what shows a growth rate rather than one count.
//!
//! Each position is searched by every row at every depth, each search from a cleared
//! table (see [`crate::run`]). A search that reaches the node budget is *censored*: its
//! count is known only to be above the budget, so the row is not run deeper on that
//! position (it would cost more still). Summaries are quantiles over positions in which a
//! censored count sorts above every finished one; a quantile that falls on a censored
//! count is unknown (`None`) rather than a guess, so a median is reported as long as
//! fewer than half the positions went over budget.

use std::ops::RangeInclusive;

use rayon::prelude::*;

use super::minimal::{knuth_moore_nodes, uniform_nodes};
use super::{Algorithm, Game, Settings, run};

/// One search of one position to one depth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cell {
    /// The value the search returned.
    pub value: i32,
    /// Interior nodes and leaves (for the minimal tree: the size of the proof).
    pub nodes: u64,
    /// Time the search took.
    pub seconds: f64,
}

/// Every search of one position.
#[derive(Clone, Debug)]
pub struct PositionResult {
    /// The position's name (its EPD id, or the seed of a synthetic tree).
    pub name: String,
    /// Legal moves at the root: the position's own branching factor in the formulas.
    pub branching: usize,
    /// `cells[d][a]` for the sweep's d-th depth and a-th row; `None` over budget (or not
    /// run, a shallower depth having gone over budget).
    pub cells: Vec<Vec<Option<Cell>>>,
}

/// Quartiles over positions (min, 25 %, median, 75 %, max); `None` where the quantile
/// falls on a count over budget.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Quartiles {
    /// The smallest.
    pub min: Option<f64>,
    /// The 25th percentile.
    pub q1: Option<f64>,
    /// The 50th percentile.
    pub median: Option<f64>,
    /// The 75th percentile.
    pub q3: Option<f64>,
    /// The largest.
    pub max: Option<f64>,
}

impl Quartiles {
    /// Quartiles of `values`, `None` standing for "above every number here" (over
    /// budget). Between two ranks a quantile is interpolated linearly; next to a
    /// censored rank it is unknown. `values` must not be empty.
    pub fn of(values: &[Option<f64>]) -> Quartiles {
        let mut known: Vec<f64> = values.iter().flatten().copied().collect();
        known.sort_by(f64::total_cmp);
        let n = values.len();
        let at = |q: f64| {
            let h = q * (n - 1) as f64;
            let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
            // Ranks at or past `known.len()` are censored.
            let hi_value = *known.get(hi)?;
            let lo_value = known[lo];
            Some(lo_value + (hi_value - lo_value) * (h - lo as f64))
        };
        Quartiles {
            min: at(0.0),
            q1: at(0.25),
            median: at(0.5),
            q3: at(0.75),
            max: at(1.0),
        }
    }
}

/// One row at one depth, over every position.
#[derive(Clone, Debug)]
pub struct Summary {
    /// The row.
    pub algorithm: Algorithm,
    /// The depth in plies.
    pub depth: u32,
    /// Positions searched.
    pub positions: usize,
    /// Positions on which the row went over the node budget.
    pub over_budget: usize,
    /// Nodes over the positions.
    pub nodes: Quartiles,
    /// Effective branching factor: median nodes^(1/depth).
    pub ebf: Option<f64>,
    /// Nodes over the position's own minimal tree, over the positions whose minimal tree
    /// was found within the budget, if that is at least half of them (`None` without the
    /// minimal-tree row or such a half).
    pub vs_minimal: Option<Quartiles>,
    /// Nodes over the Knuth–Moore minimal tree of a uniform tree with the position's
    /// root branching factor ([`knuth_moore_nodes`]).
    pub vs_formula: Quartiles,
}

/// The uniform-tree formulas at one depth, each the median over positions of the
/// formula with the position's root branching factor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reference {
    /// The depth in plies.
    pub depth: u32,
    /// Every node of the uniform tree (minimax): 1 + N + … + N^D.
    pub uniform: f64,
    /// Every node of its Knuth–Moore minimal tree.
    pub knuth_moore: f64,
}

/// Each row's nodes as a fraction of plain alpha-beta's, at one depth: the median over
/// positions of the per-position ratio (`None` where it falls over budget).
#[derive(Clone, Debug)]
pub struct Savings {
    /// The depth of the comparison.
    pub depth: u32,
    /// Each other row's median ratio.
    pub ratios: Vec<(Algorithm, Option<f64>)>,
}

/// A whole sweep.
#[derive(Clone, Debug)]
pub struct Report {
    /// What was searched, for titles ("50 middlegame positions", "uniform trees, N = 4").
    pub title: String,
    /// The depths searched, in order.
    pub depths: Vec<u32>,
    /// The rows searched, in order.
    pub algorithms: Vec<Algorithm>,
    /// The node budget of every row but the engine's (`u64::MAX`: none).
    pub node_budget: u64,
    /// Every position's counts.
    pub positions: Vec<PositionResult>,
    /// `summaries[d][a]`, as `cells`.
    pub summaries: Vec<Vec<Summary>>,
    /// The uniform-tree formulas at each depth.
    pub references: Vec<Reference>,
    /// Against plain alpha-beta at the deepest depth at which it stayed within the budget
    /// on every position (`None` without such a depth or without the alpha-beta row).
    pub savings: Option<Savings>,
}

/// Runs `algorithms` on `count` positions at every depth of `depths`, positions in
/// parallel. `game(i, depth)` is the i-th position as searched to `depth` (synthetic trees
/// are built for their depth; chess positions do not depend on it) with its name.
/// `progress` is called as each position finishes.
pub fn sweep<G, F>(
    title: &str,
    count: usize,
    game: F,
    algorithms: &[Algorithm],
    depths: RangeInclusive<u32>,
    settings: &Settings,
    progress: &(dyn Fn(&PositionResult) + Sync),
) -> Report
where
    G: Game,
    F: Fn(usize, u32) -> (String, G) + Sync,
{
    let depths: Vec<u32> = depths.collect();
    let algorithms: Vec<Algorithm> = algorithms
        .iter()
        .copied()
        .filter(|a| a.runs_on::<G>())
        .collect();
    let positions: Vec<PositionResult> = (0..count)
        .into_par_iter()
        .map(|i| {
            let result = search_position(i, &game, &algorithms, &depths, settings);
            progress(&result);
            result
        })
        .collect();
    summarise(title, depths, algorithms, settings.node_budget, positions)
}

/// Every row at every depth on the i-th position.
fn search_position<G: Game>(
    i: usize,
    game: &impl Fn(usize, u32) -> (String, G),
    algorithms: &[Algorithm],
    depths: &[u32],
    settings: &Settings,
) -> PositionResult {
    let (name, first) = game(i, depths[0]);
    let branching = first.moves().len();
    let mut censored = vec![false; algorithms.len()];
    let mut cells = Vec::with_capacity(depths.len());
    for &depth in depths {
        let (_, position) = game(i, depth);
        let settings = Settings {
            depth,
            // B* has no depth of its own: its probes look as deep as the other rows.
            bstar_probe: depth.saturating_sub(1),
            ..*settings
        };
        let row: Vec<Option<Cell>> = algorithms
            .iter()
            .zip(censored.iter_mut())
            .map(|(&algorithm, censored)| {
                if *censored {
                    return None;
                }
                let r = run(&position, algorithm, &settings)?;
                *censored = r.over_budget;
                (!r.over_budget).then(|| Cell {
                    value: r.value,
                    nodes: r.stats.total(),
                    seconds: r.elapsed.as_secs_f64(),
                })
            })
            .collect();
        cells.push(row);
    }
    PositionResult {
        name,
        branching,
        cells,
    }
}

/// The median of finite numbers (`values` not empty).
fn median(values: impl Iterator<Item = f64>) -> f64 {
    let values: Vec<Option<f64>> = values.map(Some).collect();
    Quartiles::of(&values)
        .median
        .expect("finite values have a median")
}

/// Summaries, references and savings of the searched positions.
pub fn summarise(
    title: &str,
    depths: Vec<u32>,
    algorithms: Vec<Algorithm>,
    node_budget: u64,
    positions: Vec<PositionResult>,
) -> Report {
    let minimal = algorithms.iter().position(|&a| a == Algorithm::MinimalTree);
    let nodes = |p: &PositionResult, d: usize, a: usize| p.cells[d][a].map(|c| c.nodes as f64);
    let summaries: Vec<Vec<Summary>> = depths
        .iter()
        .enumerate()
        .map(|(d, &depth)| {
            algorithms
                .iter()
                .enumerate()
                .map(|(a, &algorithm)| {
                    let counts: Vec<Option<f64>> =
                        positions.iter().map(|p| nodes(p, d, a)).collect();
                    let node_quartiles = Quartiles::of(&counts);
                    let vs_minimal: Vec<Option<f64>> = positions
                        .iter()
                        .filter_map(|p| {
                            let floor = nodes(p, d, minimal?)?;
                            Some(nodes(p, d, a).map(|n| n / floor))
                        })
                        .collect();
                    let vs_formula: Vec<Option<f64>> = positions
                        .iter()
                        .map(|p| {
                            let formula = knuth_moore_nodes(p.branching as f64, depth);
                            nodes(p, d, a).map(|n| n / formula)
                        })
                        .collect();
                    Summary {
                        algorithm,
                        depth,
                        positions: positions.len(),
                        over_budget: counts.iter().filter(|c| c.is_none()).count(),
                        nodes: node_quartiles,
                        ebf: node_quartiles
                            .median
                            .map(|m| m.powf(1.0 / f64::from(depth))),
                        vs_minimal: (2 * vs_minimal.len() >= positions.len().max(1))
                            .then(|| Quartiles::of(&vs_minimal)),
                        vs_formula: Quartiles::of(&vs_formula),
                    }
                })
                .collect()
        })
        .collect();
    let references = depths
        .iter()
        .map(|&depth| {
            let formula = |f: fn(f64, u32) -> f64| {
                median(positions.iter().map(|p| f(p.branching as f64, depth)))
            };
            Reference {
                depth,
                uniform: formula(uniform_nodes),
                knuth_moore: formula(knuth_moore_nodes),
            }
        })
        .collect();
    let savings = savings(&depths, &algorithms, &positions);
    Report {
        title: title.to_string(),
        depths,
        algorithms,
        node_budget,
        positions,
        summaries,
        references,
        savings,
    }
}

/// Every row against plain alpha-beta at the deepest depth where alpha-beta finished on
/// every position.
fn savings(
    depths: &[u32],
    algorithms: &[Algorithm],
    positions: &[PositionResult],
) -> Option<Savings> {
    let base = algorithms.iter().position(|&a| a == Algorithm::AlphaBeta)?;
    let d = (0..depths.len())
        .rev()
        .find(|&d| positions.iter().all(|p| p.cells[d][base].is_some()))?;
    let ratios = algorithms
        .iter()
        .enumerate()
        .filter(|&(a, _)| a != base)
        .map(|(a, &algorithm)| {
            let ratios: Vec<Option<f64>> = positions
                .iter()
                .map(|p| {
                    let base = p.cells[d][base]?.nodes as f64;
                    p.cells[d][a].map(|c| c.nodes as f64 / base)
                })
                .collect();
            (algorithm, Quartiles::of(&ratios).median)
        })
        .collect();
    Some(Savings {
        depth: depths[d],
        ratios,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lab_quartiles_interpolate_and_respect_censoring() {
        let q = Quartiles::of(&[Some(4.0), Some(1.0), Some(3.0), Some(2.0), Some(5.0)]);
        assert_eq!(
            q,
            Quartiles {
                min: Some(1.0),
                q1: Some(2.0),
                median: Some(3.0),
                q3: Some(4.0),
                max: Some(5.0)
            }
        );
        assert_eq!(Quartiles::of(&[Some(1.0), Some(2.0)]).median, Some(1.5));
        // Two of five over budget: the median is still the third smallest.
        let q = Quartiles::of(&[None, Some(1.0), Some(3.0), None, Some(2.0)]);
        assert_eq!((q.median, q.q3, q.max), (Some(3.0), None, None));
        // Two of four: the median lies between a known count and a censored one.
        assert_eq!(
            Quartiles::of(&[None, Some(1.0), None, Some(2.0)]).median,
            None
        );
    }
}
