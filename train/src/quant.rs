//! The float network rounded to the integers of the network file
//! (`cutoff_engine::nnue::network`, QA 255 / QB 64 / SCALE 400), and the trainer's own
//! integer forward pass over them, written from the specification apart from the
//! engine's, so that a test can hold the two to the same numbers.

use cutoff_engine::nnue::network::{Network, NetworkError, QA, QB, SCALE};
use cutoff_engine::nnue::output_bucket;

use crate::model::Params;
use crate::sample::Sample;

/// `w * scale` rounded; the trainer's clipping keeps it inside i16.
fn round_i16(w: f32, scale: i32) -> i16 {
    (w * scale as f32).round() as i16
}

/// The network file's integers for `params`.
pub fn quantise(params: &Params) -> Result<Network, NetworkError> {
    let layout = params.layout();
    let w = &params.weights;
    let scaled = |range: std::ops::Range<usize>, scale| {
        w[range].iter().map(|&x| round_i16(x, scale)).collect()
    };
    Network::new(
        params.hidden,
        scaled(0..layout.ft_bias(), QA),
        scaled(layout.ft_bias()..layout.out_weights(), QA),
        scaled(layout.out_weights()..layout.out_bias(), QB),
        w[layout.out_bias()..]
            .iter()
            .map(|&b| (b * (QA * QB) as f32).round() as i32)
            .collect(),
    )
}

/// The evaluation of `sample` by `net` in centipawns, side to move's view, in integers as
/// the specification says: accumulators summed from i16 columns (in i32), clamp to
/// [0, QA] squared times the output weight of the sample's bucket summed in i64, divided
/// by QA, the bucket's bias added, scaled to centipawns; every division truncates toward
/// zero.
pub fn eval(net: &Network, sample: &Sample) -> i32 {
    let h = net.hidden();
    let bucket = output_bucket(sample.pieces(), net.buckets());
    let out_weights = &net.out_weights()[bucket * 2 * h..][..2 * h];
    let mut sum: i64 = 0;
    for side in 0..2 {
        let mut acc: Vec<i32> = net.ft_bias().iter().map(|&b| i32::from(b)).collect();
        for &feature in sample.features(side) {
            let column = &net.ft_weights()[usize::from(feature) * h..][..h];
            for (a, &w) in acc.iter_mut().zip(column) {
                *a += i32::from(w);
            }
        }
        let half = &out_weights[side * h..(side + 1) * h];
        for (&a, &w) in acc.iter().zip(half) {
            let c = i64::from(a.clamp(0, QA));
            sum += c * c * i64::from(w);
        }
    }
    let v = sum / i64::from(QA) + i64::from(net.out_bias()[bucket]);
    (v * i64::from(SCALE) / i64::from(QA * QB)) as i32
}

/// The float weights of `net`, the start of a run that fine-tunes it (`--init`): the
/// inverse of [`quantise`], exact in that quantising them gives `net` back.
///
/// The run may be wider than the file and may split a one-bucket file into `buckets`
/// output buckets. Each bucket starts as a copy of the file's output layer, and each
/// neuron beyond the file's width starts with random first-layer weights (those of
/// [`Params::init`] with `seed`) and output weights of zero. So the network starts out
/// evaluating exactly as the file does, and the new neurons still get a gradient. A
/// narrower run, or a different count of buckets than a many-bucket file's, cannot keep
/// what the file learned, and is refused.
pub fn dequantise(
    net: &Network,
    hidden: usize,
    buckets: usize,
    seed: u64,
) -> Result<Params, String> {
    let from = net.hidden();
    if hidden < from {
        return Err(format!(
            "the run has {hidden} hidden neurons, fewer than the network's {from}"
        ));
    }
    if net.buckets() != 1 && net.buckets() != buckets {
        return Err(format!(
            "the network has {} output buckets, the run {buckets}; a run from a network \
             with buckets keeps their number",
            net.buckets()
        ));
    }
    let mut params = Params::init(hidden, buckets, seed);
    let layout = params.layout();
    let w = &mut params.weights;
    let unscale = |q: i16, scale: i32| f32::from(q) / scale as f32;
    for (feature, column) in net.ft_weights().chunks_exact(from).enumerate() {
        let row = &mut w[feature * hidden..][..from];
        for (x, &q) in row.iter_mut().zip(column) {
            *x = unscale(q, QA);
        }
    }
    for (x, &q) in w[layout.ft_bias()..][..from].iter_mut().zip(net.ft_bias()) {
        *x = unscale(q, QA);
    }
    for bucket in 0..buckets {
        let source = bucket.min(net.buckets() - 1);
        let file_out = &net.out_weights()[source * 2 * from..][..2 * from];
        let (out_start, bias) = layout.bucket(bucket);
        let out = &mut w[out_start..][..2 * hidden];
        out.fill(0.0);
        for (half, file_half) in out
            .chunks_exact_mut(hidden)
            .zip(file_out.chunks_exact(from))
        {
            for (x, &q) in half.iter_mut().zip(file_half) {
                *x = unscale(q, QB);
            }
        }
        w[bias] = net.out_bias()[source] as f32 / (QA * QB) as f32;
    }
    Ok(params)
}
