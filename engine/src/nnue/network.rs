//! The network, its file format and its quantised forward pass.
//!
//! The format is specified once, for this reader and for the trainer that writes it: 768
//! inputs (colour relative to the perspective × role × square, flipped vertically for
//! Black's perspective) → `H` hidden per perspective with shared weights → SCReLU → the
//! two halves concatenated, the side to move's first → 1 output. Weights are quantised
//! to i16 with [`QA`] (first layer) and [`QB`] (output layer); the output is scaled to
//! centipawns by [`SCALE`]. A file is a 64-byte little-endian header (magic, version,
//! shape, quantisation, payload size and an FNV-1a checksum of the payload) followed by
//! the payload: the first layer's weights feature-major, its biases, the output weights
//! and the output bias.

use std::fmt;
use std::io::Read;
use std::path::Path;

use shakmaty::{Board, Chess, Color, Position, Role, Square};

/// Inputs of the first layer: 2 colours × 6 roles × 64 squares.
pub const INPUTS: usize = 768;
/// Quantisation of the first layer (weights and biases are `round(w * QA)`); also the
/// upper clamp of SCReLU on the accumulator.
pub const QA: i32 = 255;
/// Quantisation of the output weights (`round(w * QB)`).
pub const QB: i32 = 64;
/// The network's output `y` is `y * SCALE` centipawns.
pub const SCALE: i32 = 400;
/// The version of the file format this reader reads and [`Network::to_bytes`] writes.
pub const FORMAT_VERSION: u32 = 1;
/// The first bytes of every network file.
pub const MAGIC: [u8; 8] = *b"CUTOFFNN";
/// Size of the file header.
pub const HEADER_BYTES: usize = 64;
/// The activation code for SCReLU, `clamp(x, 0, 1)^2`: the only one this reader runs.
pub const ACTIVATION_SCRELU: u32 = 1;
/// The largest hidden size a file may declare: anything bigger is a corrupt header,
/// not a network anyone trained for this engine.
pub const MAX_HIDDEN: usize = 4096;

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

/// FNV-1a, 64-bit, over `bytes`.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(FNV_OFFSET, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(FNV_PRIME)
    })
}

/// Payload size in bytes of a network with `hidden` neurons per perspective.
fn payload_bytes(hidden: usize) -> usize {
    2 * (INPUTS * hidden + hidden + 2 * hidden) + 4
}

/// The first layer's output for both perspectives, before the activation: White's `H`
/// values, then Black's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// i32, so that any file's weights sum exactly: a trained network stays far inside
    /// i16, but a malformed one must not wrap.
    values: Vec<i32>,
}

impl Accumulator {
    /// The values of one perspective.
    #[inline]
    pub fn side(&self, perspective: Color) -> &[i32] {
        let hidden = self.values.len() / 2;
        match perspective {
            Color::White => &self.values[..hidden],
            Color::Black => &self.values[hidden..],
        }
    }

    #[inline]
    pub(crate) fn side_mut(&mut self, perspective: Color) -> &mut [i32] {
        let hidden = self.values.len() / 2;
        match perspective {
            Color::White => &mut self.values[..hidden],
            Color::Black => &mut self.values[hidden..],
        }
    }
}

/// A quantised network: 768 → `hidden` ×2 perspectives → 1, SCReLU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    /// `[INPUTS][hidden]`: the `hidden` weights of feature 0, then feature 1, …
    ft_weights: Vec<i16>,
    /// `[hidden]`.
    ft_bias: Vec<i16>,
    /// `[2 * hidden]`: the side to move's half, then the other side's.
    out_weights: Vec<i16>,
    out_bias: i32,
    /// Whether the output layer's sum fits i32 whatever the position (true for every
    /// trained network: |out weight| <= 127 and H <= 128 keep it below 2^31), so that
    /// it can be summed in the faster i32 lanes; otherwise it is summed in i64.
    sums_fit_i32: bool,
}

impl Network {
    /// A network from its quantised parts; refused unless `hidden` is in
    /// `1..=MAX_HIDDEN` and every part has the size `hidden` gives it.
    pub fn new(
        hidden: usize,
        ft_weights: Vec<i16>,
        ft_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: i32,
    ) -> Result<Network, NetworkError> {
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(NetworkError(format!(
                "hidden size {hidden} outside 1..={MAX_HIDDEN}"
            )));
        }
        for (name, len, expected) in [
            ("first-layer weights", ft_weights.len(), INPUTS * hidden),
            ("first-layer biases", ft_bias.len(), hidden),
            ("output weights", out_weights.len(), 2 * hidden),
        ] {
            if len != expected {
                return Err(NetworkError(format!(
                    "{name}: {len} values, hidden size {hidden} needs {expected}"
                )));
            }
        }
        let largest_weight = out_weights
            .iter()
            .map(|w| i64::from(w.unsigned_abs()))
            .max()
            .unwrap_or(0);
        let largest_sum = 2 * hidden as i64 * i64::from(QA * QA) * largest_weight;
        Ok(Network {
            hidden,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
            sums_fit_i32: largest_sum <= i64::from(i32::MAX),
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

    /// The output weights (`[2 * hidden]`, the side to move's half first).
    pub fn out_weights(&self) -> &[i16] {
        &self.out_weights
    }

    /// The output bias, quantised by `QA * QB`.
    pub fn out_bias(&self) -> i32 {
        self.out_bias
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
        let version = u32_at(8);
        if version != FORMAT_VERSION {
            return err(format!(
                "network file version {version}, this engine reads version {FORMAT_VERSION}"
            ));
        }
        let expected_fields = [
            ("header size", 12, HEADER_BYTES as u32),
            ("inputs", 16, INPUTS as u32),
            ("activation", 24, ACTIVATION_SCRELU),
            ("QA", 28, QA as u32),
            ("QB", 32, QB as u32),
            ("scale", 36, SCALE as u32),
        ];
        for (name, at, expected) in expected_fields {
            let found = u32_at(at);
            if found != expected {
                return err(format!(
                    "network file header: {name} is {found}, expected {expected}"
                ));
            }
        }
        let hidden = u32_at(20) as usize;
        if hidden == 0 || hidden > MAX_HIDDEN {
            return err(format!(
                "network file header: hidden size {hidden} outside 1..={MAX_HIDDEN}"
            ));
        }
        let declared = u64_at(40);
        let expected = payload_bytes(hidden);
        if declared != expected as u64 {
            return err(format!(
                "network file header: payload of {declared} bytes, hidden size {hidden} needs {expected}"
            ));
        }
        if header[56..64].iter().any(|&b| b != 0) {
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
        if checksum != u64_at(48) {
            return err(format!(
                "network file checksum mismatch: header says {:#018x}, payload gives {checksum:#018x}",
                u64_at(48)
            ));
        }
        let (values, out_bias) = payload.split_at(payload.len() - 4);
        let mut values = values
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| values.by_ref().take(n).collect::<Vec<i16>>();
        let ft_weights = take(INPUTS * hidden);
        let ft_bias = take(hidden);
        let out_weights = take(2 * hidden);
        let out_bias = i32::from_le_bytes(out_bias.try_into().expect("four bytes"));
        Network::new(hidden, ft_weights, ft_bias, out_weights, out_bias)
    }

    /// Reads a network file. A file larger than any valid network is refused before it
    /// is read whole.
    pub fn load(path: &Path) -> Result<Network, NetworkError> {
        let cannot =
            |e: std::io::Error| NetworkError(format!("cannot read {}: {e}", path.display()));
        let largest = HEADER_BYTES + payload_bytes(MAX_HIDDEN);
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

    /// The network as a file: header, then payload (see the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut payload = Vec::with_capacity(payload_bytes(self.hidden));
        for v in self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(&self.out_weights)
        {
            payload.extend_from_slice(&v.to_le_bytes());
        }
        payload.extend_from_slice(&self.out_bias.to_le_bytes());
        let mut bytes = Vec::with_capacity(HEADER_BYTES + payload.len());
        bytes.extend_from_slice(&MAGIC);
        for field in [
            FORMAT_VERSION,
            HEADER_BYTES as u32,
            INPUTS as u32,
            self.hidden as u32,
            ACTIVATION_SCRELU,
            QA as u32,
            QB as u32,
            SCALE as u32,
        ] {
            bytes.extend_from_slice(&field.to_le_bytes());
        }
        bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        bytes.extend_from_slice(&[0; 8]);
        bytes.extend_from_slice(&payload);
        bytes
    }

    /// The first-layer weights of one input.
    #[inline]
    pub(crate) fn column(&self, feature: usize) -> &[i16] {
        &self.ft_weights[feature * self.hidden..(feature + 1) * self.hidden]
    }

    /// An accumulator holding the biases alone (an empty board).
    pub fn empty_accumulator(&self) -> Accumulator {
        let side = self.ft_bias.iter().map(|&b| i32::from(b));
        Accumulator {
            values: side.clone().chain(side).collect(),
        }
    }

    /// Sets `acc` to the first layer's output for `board`, from scratch.
    pub fn refresh(&self, board: &Board, acc: &mut Accumulator) {
        if acc.values.len() != 2 * self.hidden {
            *acc = self.empty_accumulator();
        } else {
            for perspective in Color::ALL {
                for (v, &b) in acc.side_mut(perspective).iter_mut().zip(&self.ft_bias) {
                    *v = i32::from(b);
                }
            }
        }
        for (square, piece) in board {
            for perspective in Color::ALL {
                let feature = feature_index(perspective, piece.color, piece.role, square);
                add_column(acc.side_mut(perspective), self.column(feature));
            }
        }
    }

    /// The evaluation in centipawns from `side_to_move`'s view, given the accumulator of
    /// the position: SCReLU on both halves, the side to move's first, then the output
    /// layer, all in integers exactly as the format specifies.
    pub fn output(&self, acc: &Accumulator, side_to_move: Color) -> i32 {
        let (ours, theirs) = self.out_weights.split_at(self.hidden);
        let (ours_acc, theirs_acc) = (acc.side(side_to_move), acc.side(!side_to_move));
        let sum = if self.sums_fit_i32 {
            i64::from(screlu_dot::<i32>(ours_acc, ours) + screlu_dot::<i32>(theirs_acc, theirs))
        } else {
            screlu_dot::<i64>(ours_acc, ours) + screlu_dot::<i64>(theirs_acc, theirs)
        };
        let v = sum / i64::from(QA) + i64::from(self.out_bias);
        // For any file |v| < 2^37 (at most 2 * 4096 * 255 * 32768 plus an i32), so
        // `v * SCALE` is exact in i64 and the quotient fits i32.
        (v * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }

    /// The evaluation of `pos` in centipawns from the side to move's view, computed from
    /// scratch (the search updates accumulators incrementally instead).
    pub fn evaluate_full(&self, pos: &Chess) -> i32 {
        let mut acc = self.empty_accumulator();
        self.refresh(pos.board(), &mut acc);
        self.output(&acc, pos.turn())
    }
}

/// `acc += column`, element by element (a loop the compiler vectorises).
#[inline]
pub(crate) fn add_column(acc: &mut [i32], column: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(column) {
        *a += i32::from(w);
    }
}

/// `acc -= column`, element by element.
#[inline]
pub(crate) fn sub_column(acc: &mut [i32], column: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(column) {
        *a -= i32::from(w);
    }
}

/// `Σ clamp(acc[i], 0, QA)^2 * weights[i]`, summed in `T` (i64 always exact; i32 where
/// the network says its sums fit). Each product fits i32: at most 255² × 32768 < 2^31.
#[inline]
fn screlu_dot<T: From<i32> + std::iter::Sum>(acc: &[i32], weights: &[i16]) -> T {
    acc.iter()
        .zip(weights)
        .map(|(&a, &w)| {
            let c = a.clamp(0, QA);
            T::from(c * c * i32::from(w))
        })
        .sum()
}
