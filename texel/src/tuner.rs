//! Fitting the weights: the sigmoid scale K first, then Adam on the mean squared error.
//!
//! The loss of a position is `(sigmoid(K · eval) − target)²` with
//! `target = λ · result + (1 − λ) · sigmoid(K · score)`: a blend of how the game ended and
//! what the search thought. K maps centipawns to an expected result; it is fitted once,
//! on the starting weights, against the game results alone (against a blend that
//! includes the search score, K → 0 would trivially fit the score part).
//!
//! Determinism: work is split into chunks of [`CHUNK`] positions whatever the number of
//! threads, each chunk sums its own gradient, and the chunk sums are added in chunk
//! order. Floating-point addition is not associative, so this fixed order is what makes
//! the output file the same byte for byte from run to run and on any thread count.

use std::ops::Range;

use rayon::prelude::*;

use crate::data::Dataset;
use crate::model::{self, sigmoid};

/// Positions per unit of parallel work.
pub const CHUNK: usize = 1024;
/// Adam's decay rates for the first and second moments, and its guard against division
/// by zero (the values of Kingma and Ba's paper).
const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPSILON: f64 = 1e-8;
/// K is searched in this interval (centipawn scale; typical values are near 0.005) ...
const K_RANGE: (f64, f64) = (0.0, 0.1);
/// ... until it is known to within this.
const K_TOLERANCE: f64 = 1e-9;

/// How to tune.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Weight of the game result in the target (1 − λ goes to the search score).
    pub lambda: f64,
    /// Adam's step size, in centipawns.
    pub learning_rate: f64,
    /// Positions per Adam step; an epoch is one pass over the data, batch by batch.
    pub batch_size: usize,
}

/// `range` cut into [`CHUNK`]-sized pieces.
fn chunks(range: Range<usize>) -> Vec<Range<usize>> {
    range
        .clone()
        .step_by(CHUNK)
        .map(|s| s..(s + CHUNK).min(range.end))
        .collect()
}

/// The sum of `f(i)` over `range`, in parallel but in a fixed order.
fn sum(range: Range<usize>, f: impl Fn(usize) -> f64 + Sync) -> f64 {
    let parts: Vec<f64> = chunks(range)
        .into_par_iter()
        .map(|c| c.map(&f).sum::<f64>())
        .collect();
    parts.into_iter().sum()
}

/// The K minimising the mean of `(sigmoid(K · eval) − target)²` over the (eval, target)
/// pairs, by golden-section search (the loss is unimodal in K for any sensible data).
pub fn fit_k(points: &[(f64, f64)]) -> f64 {
    let loss = |k: f64| {
        sum(0..points.len(), |i| {
            let (eval, target) = points[i];
            (sigmoid(k, eval) - target).powi(2)
        })
    };
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = K_RANGE;
    let mut c = b - ratio * (b - a);
    let mut d = a + ratio * (b - a);
    let (mut fc, mut fd) = (loss(c), loss(d));
    while b - a > K_TOLERANCE {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - ratio * (b - a);
            fc = loss(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + ratio * (b - a);
            fd = loss(d);
        }
    }
    (a + b) / 2.0
}

/// A tuning run: the data, the fitted K, the targets, the parameters and Adam's state.
pub struct Tuner<'a> {
    data: &'a Dataset,
    settings: Settings,
    k: f64,
    targets: Vec<f64>,
    params: Vec<f64>,
    /// Adam's running first and second moments, and its step count.
    m: Vec<f64>,
    v: Vec<f64>,
    steps: i32,
}

impl<'a> Tuner<'a> {
    /// Starts from `params`; fits K on them.
    pub fn new(data: &'a Dataset, settings: Settings, params: Vec<f64>) -> Tuner<'a> {
        let entries = data.entries();
        let points: Vec<(f64, f64)> = chunks(0..entries.len())
            .into_par_iter()
            .flat_map_iter(|c| {
                c.map(|i| {
                    let e = &entries[i];
                    let eval = model::evaluate(&params, e, data.features(e));
                    (eval, f64::from(e.result))
                })
                .collect::<Vec<_>>()
            })
            .collect();
        let k = fit_k(&points);
        let lambda = settings.lambda;
        let targets = entries
            .iter()
            .map(|e| lambda * f64::from(e.result) + (1.0 - lambda) * sigmoid(k, f64::from(e.score)))
            .collect();
        Tuner {
            data,
            settings,
            k,
            targets,
            m: vec![0.0; params.len()],
            v: vec![0.0; params.len()],
            params,
            steps: 0,
        }
    }

    /// The fitted sigmoid scale.
    pub fn k(&self) -> f64 {
        self.k
    }

    /// The current parameters.
    pub fn params(&self) -> &[f64] {
        &self.params
    }

    /// Mean loss over all the data under `params`.
    pub fn loss(&self, params: &[f64]) -> f64 {
        let entries = self.data.entries();
        let total = sum(0..entries.len(), |i| {
            let e = &entries[i];
            let eval = model::evaluate(params, e, self.data.features(e));
            (sigmoid(self.k, eval) - self.targets[i]).powi(2)
        });
        total / entries.len().max(1) as f64
    }

    /// One pass over the data, one Adam step per batch; returns the mean loss the
    /// batches had before their steps.
    pub fn epoch(&mut self) -> f64 {
        let n = self.data.len();
        let mut total = 0.0;
        for start in (0..n).step_by(self.settings.batch_size.max(1)) {
            let batch = start..(start + self.settings.batch_size).min(n);
            total += self.step(batch);
        }
        total / n.max(1) as f64
    }

    /// One Adam step on the positions in `batch`; returns their summed loss.
    fn step(&mut self, batch: Range<usize>) -> f64 {
        let size = batch.len() as f64;
        let entries = self.data.entries();
        let parts: Vec<(Vec<f64>, f64)> = chunks(batch)
            .into_par_iter()
            .map(|c| {
                let mut grad = vec![0.0; self.params.len()];
                let mut loss = 0.0;
                for i in c {
                    let e = &entries[i];
                    let features = self.data.features(e);
                    let (eval, eg_scale) = model::evaluate_with_scale(&self.params, e, features);
                    let p = sigmoid(self.k, eval);
                    let error = p - self.targets[i];
                    loss += error * error;
                    // d/d(eval) of (p − t)²: the sigmoid's slope is K·p·(1 − p).
                    let g = 2.0 * error * self.k * p * (1.0 - p);
                    model::add_gradient(&self.params, e, features, eg_scale, g, &mut grad);
                }
                (grad, loss)
            })
            .collect();

        let mut grad = vec![0.0; self.params.len()];
        let mut loss = 0.0;
        for (g, l) in parts {
            for (total, x) in grad.iter_mut().zip(g) {
                *total += x;
            }
            loss += l;
        }

        self.steps += 1;
        let (correct1, correct2) = (1.0 - BETA1.powi(self.steps), 1.0 - BETA2.powi(self.steps));
        let lr = self.settings.learning_rate;
        let state = self.params.iter_mut().zip(&mut self.m).zip(&mut self.v);
        for (((param, m), v), g) in state.zip(grad) {
            let g = g / size;
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *param -= lr * (*m / correct1) / ((*v / correct2).sqrt() + EPSILON);
        }
        loss
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::parse_line;
    use cutoff_engine::eval::features;

    #[test]
    fn fit_k_recovers_the_scale_of_exact_targets() {
        for k0 in [0.0035, 0.0061, 0.012] {
            let points: Vec<(f64, f64)> = (-400..=400)
                .step_by(7)
                .map(|e| (f64::from(e), sigmoid(k0, f64::from(e))))
                .collect();
            let k = fit_k(&points);
            assert!((k - k0).abs() < 1e-7, "fitted {k}, built with {k0}");
        }
    }

    #[test]
    fn fit_k_recovers_the_scale_of_game_results() {
        // At each score, 1000 games, sigmoid(k0 · score) of them won (rounded), the rest
        // lost: the fit lands within the rounding of those win counts.
        let k0 = 0.006;
        let mut points = Vec::new();
        for e in (-500..=500).step_by(25) {
            let wins = (1000.0 * sigmoid(k0, f64::from(e))).round() as usize;
            for g in 0..1000 {
                points.push((f64::from(e), if g < wins { 1.0 } else { 0.0 }));
            }
        }
        let k = fit_k(&points);
        assert!((k - k0).abs() < 2e-5, "fitted {k}, built with {k0}");
    }

    /// The repository's tactical EPD positions (castling rights dropped: some suites
    /// carry rights without their rook).
    fn epd_fens() -> Vec<String> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../epd/public/tactical");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        let mut fens = Vec::new();
        for file in files {
            for line in std::fs::read_to_string(file).unwrap().lines() {
                let f: Vec<&str> = line.split_whitespace().take(4).collect();
                if f.len() == 4 && !line.starts_with('#') && f[0].split('/').count() == 8 {
                    fens.push(format!("{} {} - {} 0 1", f[0], f[1], f[3]));
                }
            }
        }
        fens
    }

    /// The EPD positions and the positions of short random playouts from each: a few
    /// thousand varied positions, the same every run.
    fn playout_fens() -> Vec<String> {
        use shakmaty::fen::Fen;
        use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut fens = Vec::new();
        for fen in epd_fens() {
            let mut pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            for _ in 0..12 {
                fens.push(Fen::from_position(&pos, EnPassantMode::Legal).to_string());
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // xorshift64: deterministic and dependency-free.
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                pos.play_unchecked(moves[(state % moves.len() as u64) as usize]);
            }
        }
        fens
    }

    #[test]
    fn tuning_recovers_a_weight_the_labels_were_made_with() {
        // Label every position with the engine's own evaluation under weights that
        // differ in one place, tempo (which nothing else can stand in for), and start
        // the tuner from the engine's weights: it must find the labelling tempo again.
        // 30 cp above the engine's own tempo in both phases, whatever the committed
        // weights say, so that a retune does not move the test's footing.
        let truth = {
            let mut p = model::engine_params();
            p[2 * features::TEMPO] += 30.0;
            p[2 * features::TEMPO + 1] += 30.0;
            p
        };
        let mut data = Dataset::default();
        for fen in playout_fens() {
            let (mut entry, feats) = parse_line(&format!("{fen} | 0 | 0.5")).unwrap().unwrap();
            let score = model::evaluate(&truth, &entry, &feats);
            entry.score = score.round() as i32;
            entry.result = if score > 100.0 {
                1.0
            } else if score < -100.0 {
                0.0
            } else {
                0.5
            };
            data.push(entry, &feats);
        }
        assert_eq!(data.len(), 5058);
        let settings = Settings {
            lambda: 0.0,
            learning_rate: 0.25,
            batch_size: 256,
        };
        let mut tuner = Tuner::new(&data, settings, model::engine_params());
        let start = tuner.loss(tuner.params());
        for _ in 0..1200 {
            tuner.epoch();
        }
        let end = tuner.loss(tuner.params());
        let tempo = &tuner.params()[2 * features::TEMPO..2 * features::TEMPO + 2];
        // Starting 30 cp off in both phases, tempo ends within 2 cp of the labelling
        // value and the loss falls by more than 5× (with room to spare: how far it fell
        // with earlier weights is in docs/evaluation.md). A higher learning rate leaves a
        // higher noise floor: every Adam step moves all of the thousand-odd parameters,
        // and 5,058 positions pin them down only so far.
        let target = &truth[2 * features::TEMPO..2 * features::TEMPO + 2];
        assert!(end < start / 5.0, "loss {start} → {end}");
        assert!(
            (tempo[0] - target[0]).abs() < 2.0 && (tempo[1] - target[1]).abs() < 2.0,
            "{tempo:?} against {target:?}"
        );
    }

    #[test]
    fn tuning_does_not_depend_on_the_thread_count() {
        // Enough positions for several chunks a batch, so that threads have work to
        // split and sums to reorder if the order were not fixed.
        let mut data = Dataset::default();
        let fens = epd_fens();
        for (i, fen) in fens.iter().cycle().take(8 * fens.len()).enumerate() {
            let result = ["0.0", "0.5", "1.0"][i % 3];
            let line = format!("{fen} | {} | {result}", (i as i32 % 200) - 100);
            let (entry, feats) = parse_line(&line).unwrap().unwrap();
            data.push(entry, &feats);
        }
        let settings = Settings {
            lambda: 0.3,
            learning_rate: 2.0,
            batch_size: 3 * CHUNK,
        };
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let mut tuner = Tuner::new(&data, settings, model::engine_params());
                let losses: Vec<f64> = (0..3).map(|_| tuner.epoch()).collect();
                (tuner.k(), losses, tuner.params().to_vec())
            })
        };
        assert_eq!(run(1), run(3));
    }
}
