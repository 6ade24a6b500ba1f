//! The network, its file format and its quantised forward pass.
//!
//! The format is specified once, for this reader and for the trainer that writes it: 768
//! inputs (colour relative to the perspective × role × square, flipped vertically for
//! Black's perspective) → `H` hidden per perspective with shared weights → SCReLU → the
//! two halves concatenated, the side to move's first → 1 output, taken from one of `B`
//! *output buckets*: `B` sets of output weights and bias, of which a position uses the
//! one its number of pieces selects ([`output_bucket`]), so that the last layer can weigh
//! the same features differently in the opening and in the endgame. Weights are quantised
//! to i16 with [`QA`] (first layer) and [`QB`] (output layer); the output is scaled to
//! centipawns by [`SCALE`].
//!
//! A file is a 64-byte little-endian header followed by the payload. Header: magic (8
//! bytes), then u32s: version, header size, inputs, hidden size, activation, QA, QB,
//! scale; then u64s: payload size and its FNV-1a checksum; then the u32 number of output
//! buckets (version 2; version 1 has one bucket and zero there) and 4 reserved zero
//! bytes. Payload: the first layer's weights feature-major, its biases, the output
//! weights bucket by bucket (each `2H`, the side to move's half first), then the output
//! biases as i32, one a bucket. A one-bucket network is written as version 1, byte for
//! byte what engines before output buckets read.

use std::fmt;
use std::io::Read;
use std::path::Path;

use shakmaty::{Chess, Color, Role, Square};

use super::layers::Layers;

/// Inputs of the first layer: 2 colours × 6 roles × 64 squares.
pub const INPUTS: usize = 768;
/// Quantisation of the first layer (weights and biases are `round(w * QA)`); also the
/// upper clamp of SCReLU on the accumulator.
pub const QA: i32 = 255;
/// Quantisation of the output weights (`round(w * QB)`).
pub const QB: i32 = 64;
/// The network's output `y` is `y * SCALE` centipawns.
pub const SCALE: i32 = 400;
/// The newest version of the file format: this reader reads it and version 1 (one
/// output bucket); [`Network::to_bytes`] writes the oldest that holds the network.
pub const FORMAT_VERSION: u32 = 2;
/// The most output buckets a file may declare: one per four pieces on the board.
pub const MAX_BUCKETS: usize = 8;
/// The first bytes of every network file.
pub const MAGIC: [u8; 8] = *b"CUTOFFNN";
/// Size of the file header.
pub const HEADER_BYTES: usize = 64;
/// The activation code for SCReLU, `clamp(x, 0, 1)^2`: the only one this reader runs.
pub const ACTIVATION_SCRELU: u32 = 1;
/// The largest hidden size a file may declare: anything bigger is a corrupt header,
/// not a network anyone trained for this engine.
pub const MAX_HIDDEN: usize = 4096;
/// The largest output weight, in magnitude, the engine runs: an activation (up to
/// [`QA`]) times the weight must fit i16 (255 × 128 = 32,640).
pub const MAX_OUT_WEIGHT: u16 = 128;
/// The most pieces on a legal position (shakmaty refuses more): the most inputs active
/// at once, which bounds the accumulators.
pub const MAX_PIECES: usize = 32;

/// Where each header field starts (the magic at 0): the layout the reader and the writer
/// share.
mod field {
    pub const VERSION: usize = 8;
    pub const HEADER_SIZE: usize = 12;
    pub const INPUTS: usize = 16;
    pub const HIDDEN: usize = 20;
    pub const ACTIVATION: usize = 24;
    pub const QA: usize = 28;
    pub const QB: usize = 32;
    pub const SCALE: usize = 36;
    pub const PAYLOAD_SIZE: usize = 40;
    pub const CHECKSUM: usize = 48;
    pub const BUCKETS: usize = 56;
    /// Four zero bytes to the end of the header.
    pub const RESERVED: usize = 60;
}

/// FNV-1a (64-bit) offset basis and prime: the payload checksum.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// Why network bytes or parts were refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetworkError(pub String);

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NetworkError {}

/// The input index of a piece of colour `piece_color` and role `role` on `square`, seen
/// from `perspective`: the perspective's own pieces come first, and Black sees the board
/// flipped vertically, so both sides see their own position the same way.
#[inline]
pub fn feature_index(perspective: Color, piece_color: Color, role: Role, square: Square) -> usize {
    let side = usize::from(piece_color != perspective);
    // shakmaty numbers roles from 1 (pawn) to 6 (king); the format from 0.
    let role = role as usize - 1;
    let square = match perspective {
        Color::White => square as usize,
        Color::Black => square as usize ^ 56,
    };
    (side * 6 + role) * 64 + square
}

/// The output bucket of a position with `pieces` pieces (kings included) in a network
/// of `buckets` buckets: the 2 to 32 pieces a position may hold split into `buckets`
/// equal spans, the fewest pieces in bucket 0 (with 8: 2–5 pieces in bucket 0, 30–32 in
/// bucket 7). The trainer selects by the same function.
#[inline]
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    let span = MAX_PIECES.div_ceil(buckets);
    (pieces.saturating_sub(2) / span).min(buckets - 1)
}

/// FNV-1a, 64-bit, over `bytes`.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(FNV_OFFSET, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(FNV_PRIME)
    })
}

/// Payload size in bytes of a network with `hidden` neurons per perspective and
/// `buckets` output buckets.
fn payload_bytes(hidden: usize, buckets: usize) -> usize {
    2 * (INPUTS * hidden + hidden + buckets * 2 * hidden) + 4 * buckets
}

/// A quantised network: 768 → `hidden` ×2 perspectives → 1 of `buckets`, SCReLU. It keeps the
/// parameters as the file lays them out (for the trainer and for writing), and the same
/// laid out for the engine's compiled width (`layers::Layers`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    /// `[INPUTS][hidden]`: the `hidden` weights of feature 0, then feature 1, …
    ft_weights: Vec<i16>,
    /// `[hidden]`.
    ft_bias: Vec<i16>,
    /// `[buckets][2 * hidden]`: in each bucket the side to move's half, then the other
    /// side's.
    out_weights: Vec<i16>,
    /// `[buckets]`.
    out_bias: Vec<i32>,
    layers: Layers,
}

impl Network {
    /// A network from its quantised parts, with as many output buckets as output biases;
    /// refused unless `hidden` is in `1..=MAX_HIDDEN`, the buckets in
    /// `1..=MAX_BUCKETS`, every part has the size these give it, and the engine's integer
    /// types hold every sum exactly: output weights within ±[`MAX_OUT_WEIGHT`] and no
    /// neuron able to leave i16 (see `accumulator_reach`).
    pub fn new(
        hidden: usize,
        ft_weights: Vec<i16>,
        ft_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: Vec<i32>,
    ) -> Result<Network, NetworkError> {
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(NetworkError(format!(
                "hidden size {hidden} outside 1..={MAX_HIDDEN}"
            )));
        }
        let buckets = out_bias.len();
        if buckets == 0 || buckets > MAX_BUCKETS {
            return Err(NetworkError(format!(
                "{buckets} output buckets, outside 1..={MAX_BUCKETS}"
            )));
        }
        for (name, len, expected) in [
            ("first-layer weights", ft_weights.len(), INPUTS * hidden),
            ("first-layer biases", ft_bias.len(), hidden),
            ("output weights", out_weights.len(), buckets * 2 * hidden),
        ] {
            if len != expected {
                return Err(NetworkError(format!(
                    "{name}: {len} values, hidden size {hidden} and {buckets} output \
                     bucket(s) need {expected}"
                )));
            }
        }
        if let Some((i, w)) = out_weights
            .iter()
            .enumerate()
            .find(|&(_, w)| w.unsigned_abs() > MAX_OUT_WEIGHT)
        {
            return Err(NetworkError(format!(
                "output weight {i} is {w}, outside ±{MAX_OUT_WEIGHT}: the engine multiplies it \
                 by an activation of up to {QA} in i16"
            )));
        }
        if let Some((neuron, reach)) = (0..hidden)
            .map(|neuron| {
                (
                    neuron,
                    accumulator_reach(neuron, hidden, &ft_weights, &ft_bias),
                )
            })
            .find(|&(_, reach)| reach > i32::from(i16::MAX))
        {
            return Err(NetworkError(format!(
                "neuron {neuron} could reach {reach} on a position of {MAX_PIECES} pieces, \
                 beyond the engine's i16 accumulators"
            )));
        }
        let layers = Layers::new(hidden, &ft_weights, &ft_bias, &out_weights, &out_bias);
        Ok(Network {
            hidden,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
            layers,
        })
    }

    /// Neurons per perspective.
    #[inline]
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The first layer's weights, feature-major (`[INPUTS][hidden]`).
    pub fn ft_weights(&self) -> &[i16] {
        &self.ft_weights
    }

    /// The first layer's biases (`[hidden]`).
    pub fn ft_bias(&self) -> &[i16] {
        &self.ft_bias
    }

    /// Output buckets.
    #[inline]
    pub fn buckets(&self) -> usize {
        self.out_bias.len()
    }

    /// The output weights (`[buckets][2 * hidden]`, in each bucket the side to move's
    /// half first).
    pub fn out_weights(&self) -> &[i16] {
        &self.out_weights
    }

    /// The output biases, one a bucket, quantised by `QA * QB`.
    pub fn out_bias(&self) -> &[i32] {
        &self.out_bias
    }

    /// Reads a network file, checking every header field, the size and the checksum.
    /// Never panics: any byte string is either a network or an error saying what is
    /// wrong with it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let err = |msg: String| Err(NetworkError(msg));
        // The magic first: a short file of something else is that, not a truncated network.
        if bytes.len() >= MAGIC.len() && bytes[..MAGIC.len()] != MAGIC {
            return err("not a Cutoff network file (wrong magic)".to_string());
        }
        if bytes.len() < HEADER_BYTES {
            return err(format!(
                "truncated network file: {} bytes, the header alone is {HEADER_BYTES}",
                bytes.len()
            ));
        }
        let (header, payload) = bytes.split_at(HEADER_BYTES);
        let u32_at =
            |at: usize| u32::from_le_bytes(header[at..at + 4].try_into().expect("four bytes"));
        let u64_at =
            |at: usize| u64::from_le_bytes(header[at..at + 8].try_into().expect("eight bytes"));
        let version = u32_at(field::VERSION);
        if version == 0 || version > FORMAT_VERSION {
            return err(format!(
                "network file version {version}, this engine reads versions 1 to {FORMAT_VERSION}"
            ));
        }
        let expected_fields = [
            ("header size", field::HEADER_SIZE, HEADER_BYTES as u32),
            ("inputs", field::INPUTS, INPUTS as u32),
            ("activation", field::ACTIVATION, ACTIVATION_SCRELU),
            ("QA", field::QA, QA as u32),
            ("QB", field::QB, QB as u32),
            ("scale", field::SCALE, SCALE as u32),
        ];
        for (name, at, expected) in expected_fields {
            let found = u32_at(at);
            if found != expected {
                return err(format!(
                    "network file header: {name} is {found}, expected {expected}"
                ));
            }
        }
        let hidden = u32_at(field::HIDDEN) as usize;
        if hidden == 0 || hidden > MAX_HIDDEN {
            return err(format!(
                "network file header: hidden size {hidden} outside 1..={MAX_HIDDEN}"
            ));
        }
        // Version 1 keeps the bucket field zero: one bucket.
        let buckets = match (version, u32_at(field::BUCKETS) as usize) {
            (1, 0) => 1,
            (1, _) => return err("network file header: reserved bytes are not zero".to_string()),
            (_, buckets @ 1..=MAX_BUCKETS) => buckets,
            (_, buckets) => {
                return err(format!(
                    "network file header: {buckets} output buckets, outside 1..={MAX_BUCKETS}"
                ));
            }
        };
        let declared = u64_at(field::PAYLOAD_SIZE);
        let expected = payload_bytes(hidden, buckets);
        if declared != expected as u64 {
            return err(format!(
                "network file header: payload of {declared} bytes, hidden size {hidden} and \
                 {buckets} output bucket(s) need {expected}"
            ));
        }
        if header[field::RESERVED..].iter().any(|&b| b != 0) {
            return err("network file header: reserved bytes are not zero".to_string());
        }
        if payload.len() != expected {
            let what = if payload.len() < expected {
                "truncated"
            } else {
                "trailing bytes after"
            };
            return err(format!(
                "{what} network payload: {} bytes, expected {expected}",
                payload.len()
            ));
        }
        let checksum = fnv1a(payload);
        let declared_checksum = u64_at(field::CHECKSUM);
        if checksum != declared_checksum {
            return err(format!(
                "network file checksum mismatch: header says {declared_checksum:#018x}, payload \
                 gives {checksum:#018x}"
            ));
        }
        let (values, out_bias) = payload.split_at(payload.len() - 4 * buckets);
        let mut values = values
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| values.by_ref().take(n).collect::<Vec<i16>>();
        let ft_weights = take(INPUTS * hidden);
        let ft_bias = take(hidden);
        let out_weights = take(buckets * 2 * hidden);
        let out_bias = out_bias
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes(c.try_into().expect("four bytes")))
            .collect();
        Network::new(hidden, ft_weights, ft_bias, out_weights, out_bias)
    }

    /// Reads a network file. A file larger than any valid network is refused before it
    /// is read whole.
    pub fn load(path: &Path) -> Result<Network, NetworkError> {
        let cannot =
            |e: std::io::Error| NetworkError(format!("cannot read {}: {e}", path.display()));
        let largest = HEADER_BYTES + payload_bytes(MAX_HIDDEN, MAX_BUCKETS);
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .map_err(cannot)?
            .take(largest as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(cannot)?;
        if bytes.len() > largest {
            return Err(NetworkError(format!(
                "{} is larger than any network file ({largest} bytes at most)",
                path.display()
            )));
        }
        Network::from_bytes(&bytes).map_err(|e| NetworkError(format!("{}: {e}", path.display())))
    }

    /// The network as a file: header, then payload (see the module documentation), as
    /// version 1 when it has one output bucket, so that older engines read it too.
    pub fn to_bytes(&self) -> Vec<u8> {
        let buckets = self.buckets();
        let mut payload = Vec::with_capacity(payload_bytes(self.hidden, buckets));
        for v in self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(&self.out_weights)
        {
            payload.extend_from_slice(&v.to_le_bytes());
        }
        for b in &self.out_bias {
            payload.extend_from_slice(&b.to_le_bytes());
        }
        let (version, bucket_field) = match buckets {
            1 => (1, 0),
            _ => (FORMAT_VERSION, buckets as u32),
        };
        // Every byte not written below (the reserved ones) stays zero.
        let mut header = [0u8; HEADER_BYTES];
        header[..MAGIC.len()].copy_from_slice(&MAGIC);
        let mut put = |at: usize, bytes: &[u8]| header[at..at + bytes.len()].copy_from_slice(bytes);
        put(field::VERSION, &version.to_le_bytes());
        put(field::HEADER_SIZE, &(HEADER_BYTES as u32).to_le_bytes());
        put(field::INPUTS, &(INPUTS as u32).to_le_bytes());
        put(field::HIDDEN, &(self.hidden as u32).to_le_bytes());
        put(field::ACTIVATION, &ACTIVATION_SCRELU.to_le_bytes());
        put(field::QA, &(QA as u32).to_le_bytes());
        put(field::QB, &(QB as u32).to_le_bytes());
        put(field::SCALE, &(SCALE as u32).to_le_bytes());
        put(field::PAYLOAD_SIZE, &(payload.len() as u64).to_le_bytes());
        put(field::CHECKSUM, &fnv1a(&payload).to_le_bytes());
        put(field::BUCKETS, &bucket_field.to_le_bytes());
        let mut bytes = Vec::with_capacity(HEADER_BYTES + payload.len());
        bytes.extend_from_slice(&header);
        bytes.extend_from_slice(&payload);
        bytes
    }

    /// The evaluation of `pos` in centipawns from the side to move's view, computed from
    /// scratch (the search updates accumulators incrementally instead).
    pub fn evaluate_full(&self, pos: &Chess) -> i32 {
        self.layers.evaluate_full(pos)
    }

    /// The same network with its output layer (every output weight and bias) multiplied
    /// by `factor`, each rounded to the nearest integer, ties to even: its evaluations are
    /// `factor` times these, up to that rounding. The first layer is untouched, so the
    /// network ranks positions as before; what changes is how bold its centipawns are.
    /// Refused where a scaled value leaves what the engine runs (output weights within
    /// ±[`MAX_OUT_WEIGHT`], biases in i32) or `factor` is not a finite positive number.
    pub fn with_output_scaled(&self, factor: f64) -> Result<Network, NetworkError> {
        if !(factor.is_finite() && factor > 0.0) {
            return Err(NetworkError(format!(
                "scale factor {factor}: must be a finite number above 0"
            )));
        }
        let scaled = |value: f64| (value * factor).round_ties_even();
        let out_weights = self
            .out_weights
            .iter()
            .enumerate()
            .map(|(i, &w)| {
                let v = scaled(f64::from(w));
                if v.abs() <= f64::from(MAX_OUT_WEIGHT) {
                    Ok(v as i16)
                } else {
                    Err(NetworkError(format!(
                        "output weight {i}, {w}, times {factor} is {v}, outside \
                         ±{MAX_OUT_WEIGHT}: the engine multiplies it by an activation of up \
                         to {QA} in i16"
                    )))
                }
            })
            .collect::<Result<Vec<i16>, NetworkError>>()?;
        if out_weights.iter().all(|&w| w == 0) && self.out_weights.iter().any(|&w| w != 0) {
            return Err(NetworkError(format!(
                "times {factor} every output weight rounds to 0: the network would score \
                 every position alike"
            )));
        }
        let out_bias = self
            .out_bias
            .iter()
            .map(|&b| {
                let v = scaled(f64::from(b));
                if (f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(&v) {
                    Ok(v as i32)
                } else {
                    Err(NetworkError(format!(
                        "output bias {b} times {factor} is beyond i32"
                    )))
                }
            })
            .collect::<Result<Vec<i32>, NetworkError>>()?;
        Network::new(
            self.hidden,
            self.ft_weights.clone(),
            self.ft_bias.clone(),
            out_weights,
            out_bias,
        )
    }

    /// The parameters laid out for the engine's compiled width.
    pub(crate) fn layers(&self) -> &Layers {
        &self.layers
    }
}

/// The most `neuron`'s accumulator can stray from zero on a position: its bias plus its
/// [`MAX_PIECES`] weights largest in magnitude, all with one sign. A legal position has
/// at most that many pieces, each one input, so no sum the engine forms (a position's,
/// or one on the way to it from the bias) goes further.
fn accumulator_reach(neuron: usize, hidden: usize, ft_weights: &[i16], ft_bias: &[i16]) -> i32 {
    let mut magnitudes: Vec<u16> = ft_weights
        .iter()
        .skip(neuron)
        .step_by(hidden)
        .map(|w| w.unsigned_abs())
        .collect();
    // The MAX_PIECES largest first, in linear time: a 4096-wide file loads at once.
    magnitudes.select_nth_unstable_by(MAX_PIECES - 1, |a, b| b.cmp(a));
    let largest: i32 = magnitudes[..MAX_PIECES].iter().map(|&m| i32::from(m)).sum();
    i32::from(ft_bias[neuron].unsigned_abs()) + largest
}
