//! AdamW (Loshchilov and Hutter, 2019: Adam with weight decay applied to the weights
//! directly, not through the gradient) and the learning-rate schedules.

use rayon::prelude::*;

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;
/// Weights updated by one task: large enough to amortise the task, small enough that
/// both cores share the 100 K weights of a hidden-128 network evenly.
const TASK_WEIGHTS: usize = 8192;

/// How the learning rate falls over a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Schedule {
    /// Multiplied by `gamma` every `every` epochs.
    Step {
        /// Epochs between two drops.
        every: u32,
        /// What each drop multiplies the rate by.
        gamma: f32,
    },
    /// From the base rate down to `final_rate` along half a cosine over the whole run.
    Cosine {
        /// The rate at the end of the run.
        final_rate: f32,
    },
}

impl Schedule {
    /// The rate of batch `batch` (from 0) of a run of `epochs` x `epoch_batches`.
    pub fn rate(self, base: f32, batch: u64, epoch_batches: u64, epochs: u32) -> f32 {
        match self {
            Schedule::Step { every, gamma } => {
                let drops = batch / epoch_batches / u64::from(every.max(1));
                base * gamma.powi(drops.min(i32::MAX as u64) as i32)
            }
            Schedule::Cosine { final_rate } => {
                let total = (epoch_batches * u64::from(epochs)).max(1);
                let done = (batch as f64 / total as f64).min(1.0);
                let cos = 0.5 * (1.0 + (std::f64::consts::PI * done).cos());
                final_rate + (base - final_rate) * cos as f32
            }
        }
    }
}

impl std::fmt::Display for Schedule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Schedule::Step { every, gamma } => write!(f, "x{gamma} every {every} epochs"),
            Schedule::Cosine { final_rate } => write!(f, "cosine down to {final_rate}"),
        }
    }
}

/// AdamW's moments and step count.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    /// First moment (running mean of the gradient), per weight.
    pub m: Vec<f32>,
    /// Second moment (running mean of the squared gradient), per weight.
    pub v: Vec<f32>,
    /// Steps taken (for the bias correction of the moments).
    pub steps: u64,
}

/// What one step applies.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// The learning rate.
    pub rate: f32,
    /// Decoupled weight decay (each step takes rate × decay × weight off a weight).
    pub weight_decay: f32,
    /// Multiplies the summed gradients (1 / batch size, for the mean).
    pub grad_scale: f32,
    /// Weights `0 .. clipped` are clipped to ±`clip` after the step.
    pub clipped: usize,
    /// The clipping bound.
    pub clip: f32,
}

impl AdamW {
    /// Zero moments for `len` weights.
    pub fn new(len: usize) -> AdamW {
        AdamW {
            m: vec![0.0; len],
            v: vec![0.0; len],
            steps: 0,
        }
    }

    /// One step on `weights` with the gradient summed over `grads` (one per worker, summed
    /// in their order so that the result does not depend on the scheduling).
    pub fn step(&mut self, weights: &mut [f32], grads: &[&[f32]], step: Step) {
        self.steps += 1;
        let t = self.steps.min(i32::MAX as u64) as i32;
        let m_correction = 1.0 / (1.0 - BETA1.powi(t));
        let v_correction = 1.0 / (1.0 - BETA2.powi(t));
        weights
            .par_chunks_mut(TASK_WEIGHTS)
            .zip(self.m.par_chunks_mut(TASK_WEIGHTS))
            .zip(self.v.par_chunks_mut(TASK_WEIGHTS))
            .enumerate()
            .for_each(|(task, ((w, m), v))| {
                let base = task * TASK_WEIGHTS;
                for j in 0..w.len() {
                    let i = base + j;
                    let g = grads.iter().map(|g| g[i]).sum::<f32>() * step.grad_scale;
                    m[j] = BETA1 * m[j] + (1.0 - BETA1) * g;
                    v[j] = BETA2 * v[j] + (1.0 - BETA2) * g * g;
                    let update = m[j] * m_correction / ((v[j] * v_correction).sqrt() + EPSILON);
                    let mut x = w[j] - step.rate * (update + step.weight_decay * w[j]);
                    if i < step.clipped {
                        x = x.clamp(-step.clip, step.clip);
                    }
                    w[j] = x;
                }
            });
    }
}
