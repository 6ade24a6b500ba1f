//! The network's integer layers at a width fixed at compile time, and the loops that run
//! them.
//!
//! A file may declare any width up to [`MAX_HIDDEN`]; it runs at the smallest compiled
//! width that holds it ([`widths!`]), its extra neurons zero. A zero neuron has no
//! weight, sums to zero, and adds nothing to the output, so the padding is exact. With
//! the width a constant, every loop below has a known trip count over 64-byte aligned
//! arrays, and the compiler turns it into whole vector instructions (AVX2, AVX-512 or
//! SSE, whatever the build targets) with no remainder and no bounds checks.
//!
//! Accumulators are i16. [`Network::new`](super::Network::new) refuses a network whose
//! neurons could leave i16 on a legal position, so the sums here are exact; they wrap
//! rather than panic because an update adds and subtracts in whatever order is fastest,
//! and an intermediate value may leave i16 even when the result does not.

use std::sync::Arc;

use shakmaty::{Board as Pieces, Chess, Color, Position};

use super::accumulator::Stack;
use super::network::{MAX_HIDDEN, QA, QB, SCALE, feature_index, output_bucket};
use crate::board::Board;

/// One value per neuron, aligned to a cache line: every compiled width is a multiple of
/// 32 neurons (64 bytes), so that no vector load (32 bytes with AVX2, 64 with AVX-512)
/// straddles two lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub(crate) struct Neurons<const H: usize>(pub(crate) [i16; H]);

/// The first layer's output for both perspectives, before the activation, indexed by
/// the perspective's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Accumulator<const H: usize>([Neurons<H>; 2]);

impl<const H: usize> Accumulator<H> {
    /// An accumulator to be overwritten before it is read.
    pub(crate) fn zeroed() -> Self {
        Accumulator([Neurons([0; H]); 2])
    }

    /// The values of one perspective.
    #[inline]
    pub(crate) fn side(&self, perspective: Color) -> &Neurons<H> {
        &self.0[perspective as usize]
    }

    #[inline]
    pub(crate) fn side_mut(&mut self, perspective: Color) -> &mut Neurons<H> {
        &mut self.0[perspective as usize]
    }
}

/// A network's parameters laid out for width `H`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Weights<const H: usize> {
    /// The first layer's column of each input feature.
    columns: Vec<Neurons<H>>,
    bias: Neurons<H>,
    /// Per output bucket, the output weights of the side to move's half, then of the
    /// other side's.
    out: Vec<[Neurons<H>; 2]>,
    /// Per output bucket.
    out_bias: Vec<i32>,
    /// Whether every possible output sum fits i32 (see [`Weights::output`]).
    sums_fit_i32: bool,
}

impl<const H: usize> Weights<H> {
    /// A network's parameters, given as the file lays them out (see
    /// [`Network`](super::Network)), its neurons beyond its own width zero.
    fn new(
        hidden: usize,
        ft_weights: &[i16],
        ft_bias: &[i16],
        out_weights: &[i16],
        out_bias: &[i32],
    ) -> Self {
        let padded = |values: &[i16]| {
            let mut neurons = Neurons([0; H]);
            neurons.0[..hidden].copy_from_slice(values);
            neurons
        };
        let out = out_weights.chunks_exact(2 * hidden);
        // A bucket's output sum is Σ clamp(acc)² × w over both halves, each term at most
        // QA² × |w|; when every bucket's total fits i32, so does every partial sum, in
        // any order.
        let largest_sum = out
            .clone()
            .map(|bucket| {
                bucket
                    .iter()
                    .map(|&w| i64::from(QA * QA) * i64::from(w.unsigned_abs()))
                    .sum::<i64>()
            })
            .max()
            .unwrap_or(0);
        Weights {
            columns: ft_weights.chunks_exact(hidden).map(padded).collect(),
            bias: padded(ft_bias),
            out: out
                .map(|bucket| {
                    let (ours, theirs) = bucket.split_at(hidden);
                    [padded(ours), padded(theirs)]
                })
                .collect(),
            out_bias: out_bias.to_vec(),
            sums_fit_i32: largest_sum <= i64::from(i32::MAX),
        }
    }

    /// The first-layer column of input `feature`.
    #[inline]
    pub(crate) fn column(&self, feature: usize) -> &Neurons<H> {
        &self.columns[feature]
    }

    /// Sets `acc` to the first layer's output for `board`, from scratch.
    pub(crate) fn refresh(&self, board: &Pieces, acc: &mut Accumulator<H>) {
        for perspective in Color::ALL {
            let side = acc.side_mut(perspective);
            *side = self.bias;
            for (square, piece) in board {
                let column =
                    self.column(feature_index(perspective, piece.color, piece.role, square));
                for (a, &w) in side.0.iter_mut().zip(&column.0) {
                    *a = a.wrapping_add(w);
                }
            }
        }
    }

    /// The evaluation in centipawns from `side_to_move`'s view, given the accumulator of
    /// a position of `pieces` pieces: SCReLU on both halves, the side to move's first,
    /// then the output layer of the position's bucket, exactly as the format specifies.
    pub(crate) fn output(&self, acc: &Accumulator<H>, side_to_move: Color, pieces: usize) -> i32 {
        let bucket = output_bucket(pieces, self.out.len());
        let [our_weights, their_weights] = &self.out[bucket];
        let (ours, theirs) = (acc.side(side_to_move), acc.side(!side_to_move));
        let sum = if self.sums_fit_i32 {
            i64::from(
                screlu_dot::<i32, H>(ours, our_weights)
                    + screlu_dot::<i32, H>(theirs, their_weights),
            )
        } else {
            screlu_dot::<i64, H>(ours, our_weights) + screlu_dot::<i64, H>(theirs, their_weights)
        };
        let v = sum / i64::from(QA) + i64::from(self.out_bias[bucket]);
        // |v| < 2^37 (at most 2 × 4096 × 255² × 128 / 255 plus an i32), so `v * SCALE`
        // is exact in i64 and the quotient fits i32.
        (v * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }

    /// The evaluation of `pos` in centipawns from the side to move's view, from scratch.
    pub(crate) fn evaluate_full(&self, pos: &Chess) -> i32 {
        let mut acc = Accumulator::zeroed();
        self.refresh(pos.board(), &mut acc);
        self.output(&acc, pos.turn(), pos.board().occupied().count())
    }
}

/// `to = from + Σ on − Σ off`, neuron by neuron, in one pass: the accumulator of a child
/// position from its parent's and the columns of the pieces that came and went. With
/// the counts constant, the inner sums unroll and each neuron is loaded and stored once.
#[inline]
pub(crate) fn update<const H: usize, const ON: usize, const OFF: usize>(
    to: &mut Neurons<H>,
    from: &Neurons<H>,
    on: [&Neurons<H>; ON],
    off: [&Neurons<H>; OFF],
) {
    for i in 0..H {
        let mut v = from.0[i];
        for column in on {
            v = v.wrapping_add(column.0[i]);
        }
        for column in off {
            v = v.wrapping_sub(column.0[i]);
        }
        to.0[i] = v;
    }
}

/// `Σ clamp(acc[i], 0, QA)² × weights[i]`, summed in `T`: i32 where the network says its
/// sums fit, else i64. The clamped value times the weight fits i16 (the network's output
/// weights are within ±128, and 255 × 128 < 2^15), so it is computed there, and only
/// its product with the clamped value again is widened: the pattern of the x86
/// multiply-add instructions (`pmaddwd`), which the compiler picks for the i32 sum.
#[inline]
fn screlu_dot<T, const H: usize>(acc: &Neurons<H>, weights: &Neurons<H>) -> T
where
    T: From<i16> + std::ops::Mul<Output = T> + std::iter::Sum,
{
    acc.0
        .iter()
        .zip(&weights.0)
        .map(|(&a, &w)| {
            let v = a.clamp(0, QA as i16);
            T::from(v * w) * T::from(v)
        })
        .sum()
}

/// Declares the compiled widths, in increasing order, each a multiple of 32, the last
/// [`MAX_HIDDEN`]: the enums that hold a network's layers and a thread's accumulators
/// at one of them, and the dispatch from each to the code compiled for its width.
macro_rules! widths {
    ($($variant:ident = $width:literal),+) => {
        /// A network's layers at the compiled width that runs it.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub(crate) enum Layers {
            $(
                #[doc = concat!("Up to ", $width, " neurons.")]
                $variant(Arc<Weights<$width>>)
            ),+
        }

        /// One search thread's accumulators, at its network's compiled width.
        #[derive(Clone, Debug)]
        pub(crate) enum Stacks {
            $(
                #[doc = concat!("Up to ", $width, " neurons.")]
                $variant(Stack<$width>)
            ),+
        }

        impl Layers {
            /// A network's layers at the smallest compiled width that holds it (the
            /// arguments: see [`Weights::new`]).
            pub(crate) fn new(
                hidden: usize,
                ft_weights: &[i16],
                ft_bias: &[i16],
                out_weights: &[i16],
                out_bias: &[i32],
            ) -> Layers {
                $(
                    if hidden <= $width {
                        let weights =
                            Weights::new(hidden, ft_weights, ft_bias, out_weights, out_bias);
                        return Layers::$variant(Arc::new(weights));
                    }
                )+
                unreachable!("a network is at most MAX_HIDDEN wide, the largest compiled width")
            }

            /// See [`Weights::evaluate_full`].
            pub(crate) fn evaluate_full(&self, pos: &Chess) -> i32 {
                match self {
                    $(Layers::$variant(weights) => weights.evaluate_full(pos)),+
                }
            }

            /// An empty accumulator stack for these layers.
            pub(crate) fn stacks(&self) -> Stacks {
                match self {
                    $(
                        Layers::$variant(weights) => {
                            Stacks::$variant(Stack::new(Arc::clone(weights)))
                        }
                    ),+
                }
            }
        }

        impl Stacks {
            /// The evaluation of `board`'s current position, unclamped.
            #[inline]
            pub(crate) fn evaluate(&mut self, board: &Board) -> i32 {
                match self {
                    $(Stacks::$variant(stack) => stack.evaluate(board)),+
                }
            }

            /// The incremental accumulator of `board`'s current position, and the same
            /// computed from scratch: both perspectives, White's first.
            #[cfg(test)]
            pub(crate) fn incremental_and_fresh(&mut self, board: &Board) -> (Vec<i16>, Vec<i16>) {
                match self {
                    $(Stacks::$variant(stack) => stack.incremental_and_fresh(board)),+
                }
            }
        }

        // Whole cache lines, smallest first (the first that holds a file runs it), and
        // every file's width held.
        const _: () = {
            let widths = [$($width),+];
            let mut i = 0;
            while i < widths.len() {
                assert!(widths[i] % 32 == 0, "a compiled width is whole cache lines");
                assert!(i == 0 || widths[i - 1] < widths[i], "compiled widths increase");
                i += 1;
            }
            assert!(widths[widths.len() - 1] == MAX_HIDDEN, "the largest is MAX_HIDDEN");
        };
    };
}

// 128 and 256 are the widths trained now, 384 and 512 the next ones; the small widths
// keep tests and tiny experiments cheap, the large ones make every file readable.
widths!(
    N32 = 32,
    N64 = 64,
    N128 = 128,
    N256 = 256,
    N384 = 384,
    N512 = 512,
    N768 = 768,
    N1024 = 1024,
    N2048 = 2048,
    N4096 = 4096
);
