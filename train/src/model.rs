//! The float network the trainer fits: 768 inputs -> `hidden` per perspective (shared
//! weights) -> 2 x `hidden` concatenated -> 1 of `buckets` outputs, the one the
//! position's piece count selects, SCReLU (the network file's format).
//!
//! The first layer is never multiplied as a matrix: a position has at most 32 active
//! features a side, so the forward pass adds their rows of the feature weights and the
//! backward pass adds the accumulator's gradient back into the same rows only.

use cutoff_engine::nnue::output_bucket;
use cutoff_engine::rng::Rng;

use crate::sample::Sample;

pub use cutoff_engine::nnue::network::INPUTS;

/// Network output times `SCALE` is the evaluation in centipawns (the network file's).
pub const SCALE: f32 = cutoff_engine::nnue::network::SCALE as f32;
/// Every weight but the output bias is clipped to this after each step, so that the
/// quantised weights fit: feature weights x QA stay far from the i16 limit even summed over
/// 32 features, output weights x QB stay within ±127 (network file format).
pub const WEIGHT_CLIP: f32 = 1.98;

/// SCReLU: clamp(x, 0, 1)².
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// All of the network's float weights in one vector, so that the optimiser, the gradient
/// and the checkpoint treat them alike: feature weights `[INPUTS][hidden]` (feature-major,
/// as in the file), feature bias `[hidden]`, output weights `[buckets][2 * hidden]` (in
/// each bucket the side to move's half first), output biases `[buckets]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// Neurons per perspective.
    pub hidden: usize,
    /// Output buckets.
    pub buckets: usize,
    /// Every weight, laid out as [`Layout`] says.
    pub weights: Vec<f32>,
}

/// Where each block of weights starts in [`Params::weights`] (and in a gradient).
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// Neurons per perspective.
    pub hidden: usize,
    /// Output buckets.
    pub buckets: usize,
}

impl Layout {
    /// Where the feature bias starts.
    pub fn ft_bias(self) -> usize {
        INPUTS * self.hidden
    }

    /// Where the output weights start.
    pub fn out_weights(self) -> usize {
        self.ft_bias() + self.hidden
    }

    /// Where the output biases start (they end the weights).
    pub fn out_bias(self) -> usize {
        self.out_weights() + self.buckets * 2 * self.hidden
    }

    /// Weights in all.
    pub fn size(self) -> usize {
        self.out_bias() + self.buckets
    }

    /// Where output bucket `bucket`'s `2 * hidden` weights start, and where its bias is.
    pub fn bucket(self, bucket: usize) -> (usize, usize) {
        (
            self.out_weights() + bucket * 2 * self.hidden,
            self.out_bias() + bucket,
        )
    }
}

/// Per-thread buffers of one forward and backward pass, reused across positions.
pub struct Scratch {
    acc: [Vec<f32>; 2],
    delta: Vec<f32>,
}

impl Scratch {
    /// Buffers for a network of `hidden` neurons per perspective.
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            acc: [vec![0.0; hidden], vec![0.0; hidden]],
            delta: vec![0.0; hidden],
        }
    }
}

/// Adds `row` to `acc` element by element (the compiler vectorises it).
fn add_row(acc: &mut [f32], row: &[f32]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a += w;
    }
}

impl Params {
    /// Random weights from `seed`: uniform within ±1/√fan-in per layer, so that the
    /// accumulators of a typical position start inside SCReLU's bend. Biases start at 0.
    pub fn init(hidden: usize, buckets: usize, seed: u64) -> Params {
        let layout = Layout { hidden, buckets };
        let mut rng = Rng::new(seed);
        let mut uniform = |bound: f32| {
            // 24 random bits give a float in [0, 1) exactly.
            let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * unit - 1.0) * bound
        };
        let mut weights = vec![0.0; layout.size()];
        let ft_bound = 1.0 / (INPUTS as f32).sqrt();
        for w in &mut weights[..layout.ft_bias()] {
            *w = uniform(ft_bound);
        }
        let out_bound = 1.0 / ((2 * hidden) as f32).sqrt();
        for w in &mut weights[layout.out_weights()..layout.out_bias()] {
            *w = uniform(out_bound);
        }
        Params {
            hidden,
            buckets,
            weights,
        }
    }

    /// Where each block of the weights starts.
    pub fn layout(&self) -> Layout {
        Layout {
            hidden: self.hidden,
            buckets: self.buckets,
        }
    }

    /// Where `sample`'s output bucket's weights start, and where its bias is.
    fn bucket_of(&self, sample: &Sample) -> (usize, usize) {
        self.layout()
            .bucket(output_bucket(sample.pieces(), self.buckets))
    }

    fn row(&self, feature: u16) -> &[f32] {
        let start = usize::from(feature) * self.hidden;
        &self.weights[start..start + self.hidden]
    }

    /// The raw output (centipawns / [`SCALE`]) for the side to move, leaving the
    /// accumulators in `scratch` for [`Params::backward`].
    pub fn forward(&self, sample: &Sample, scratch: &mut Scratch) -> f32 {
        let layout = self.layout();
        let h = self.hidden;
        let ft_bias = &self.weights[layout.ft_bias()..layout.out_weights()];
        let (out, bias) = self.bucket_of(sample);
        let out = &self.weights[out..out + 2 * h];
        let mut y = self.weights[bias];
        for (side, acc) in scratch.acc.iter_mut().enumerate() {
            acc.copy_from_slice(ft_bias);
            for &feature in sample.features(side) {
                add_row(acc, self.row(feature));
            }
            let half = &out[side * h..(side + 1) * h];
            y += acc
                .iter()
                .zip(half)
                .map(|(&a, &w)| screlu(a) * w)
                .sum::<f32>();
        }
        y
    }

    /// Adds to `grad` the gradient of the loss given its derivative `dy` with respect to
    /// the output of the last [`Params::forward`] on `sample`.
    pub fn backward(&self, sample: &Sample, scratch: &mut Scratch, dy: f32, grad: &mut [f32]) {
        let layout = self.layout();
        let h = self.hidden;
        let (out_at, bias_at) = self.bucket_of(sample);
        let out = &self.weights[out_at..out_at + 2 * h];
        grad[bias_at] += dy;
        let (ft_grad, rest) = grad.split_at_mut(layout.ft_bias());
        let (bias_grad, rest) = rest.split_at_mut(h);
        let out_grad = &mut rest[out_at - layout.out_weights()..][..2 * h];
        for (side, acc) in scratch.acc.iter().enumerate() {
            let half = &out[side * h..(side + 1) * h];
            let half_grad = &mut out_grad[side * h..(side + 1) * h];
            for i in 0..h {
                let a = acc[i];
                half_grad[i] += dy * screlu(a);
                // SCReLU's slope is 2x inside (0, 1) and 0 outside.
                scratch.delta[i] = if a > 0.0 && a < 1.0 {
                    2.0 * a * dy * half[i]
                } else {
                    0.0
                };
            }
            add_row(bias_grad, &scratch.delta);
            for &feature in sample.features(side) {
                let start = usize::from(feature) * h;
                add_row(&mut ft_grad[start..start + h], &scratch.delta);
            }
        }
    }

    /// The evaluation in centipawns, side to move's view (a convenience for tests and
    /// reports; training uses [`Params::forward`]).
    pub fn eval_cp(&self, sample: &Sample) -> f32 {
        self.forward(sample, &mut Scratch::new(self.hidden)) * SCALE
    }
}

#[cfg(test)]
mod tests {
    use cutoff_engine::data::{Outcome, PackedPosition};
    use shakmaty::{Chess, Position};

    use super::*;

    /// The backward pass agrees with central differences of the forward pass, on every
    /// kind of weight (an active feature's row, the biases, both output halves of every
    /// bucket: the position's own and, untouched, the others).
    #[test]
    fn gradient_matches_finite_differences() {
        const HIDDEN: usize = 4;
        const STEP: f32 = 1e-3;
        const TOLERANCE: f32 = 2e-3;
        let mut pos = Chess::default();
        for uci in ["e2e4", "d7d5", "e4d5", "g8f6"] {
            let m = uci
                .parse::<shakmaty::uci::UciMove>()
                .unwrap()
                .to_move(&pos)
                .unwrap();
            pos.play_unchecked(m);
        }
        let sample = Sample::new(&PackedPosition::pack(&pos, 0, Outcome::Draw));
        for buckets in [1, 4] {
            let mut params = Params::init(HIDDEN, buckets, 3);
            // Biases that put some neurons inside SCReLU's bend and some outside.
            let layout = params.layout();
            for (i, b) in params.weights[layout.ft_bias()..layout.out_weights()]
                .iter_mut()
                .enumerate()
            {
                *b = [0.3, 0.6, -0.5, 0.45][i];
            }
            let mut scratch = Scratch::new(HIDDEN);
            params.forward(&sample, &mut scratch);
            let mut grad = vec![0.0; layout.size()];
            params.backward(&sample, &mut scratch, 1.0, &mut grad);
            let feature = usize::from(sample.features(1)[3]);
            let checked =
                (feature * HIDDEN..(feature + 1) * HIDDEN).chain(layout.ft_bias()..layout.size());
            for i in checked {
                let at = |delta: f32| {
                    let mut p = params.clone();
                    p.weights[i] += delta;
                    p.forward(&sample, &mut Scratch::new(HIDDEN))
                };
                let numeric = (at(STEP) - at(-STEP)) / (2.0 * STEP);
                assert!(
                    (numeric - grad[i]).abs() < TOLERANCE,
                    "weight {i}: backward {} numeric {numeric}",
                    grad[i]
                );
            }
            assert!(grad.iter().any(|&g| g != 0.0));
        }
    }
}
