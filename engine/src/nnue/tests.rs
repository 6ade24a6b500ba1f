//! Tests of the network format and the forward pass.

use std::sync::Arc;

use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, Role, Square, fen::Fen};

use super::network::{HEADER_BYTES, MAX_HIDDEN, MAX_PIECES, fnv1a};
use super::*;
use crate::board::Board;
use crate::rng::Rng;
use crate::score::EVAL_LIMIT;

/// A deterministic pseudo-random network shaped like a freshly initialised one: first
/// layer weights uniform in ±32 (±0.125 before quantisation), biases in 0..64 so that
/// most neurons start active, output weights in ±32 (±0.5), output bias 0.
pub(crate) fn random_network(hidden: usize, seed: u64) -> Network {
    network_in_ranges(hidden, 1, seed, [(-32, 32), (0, 63), (-32, 32)])
}

/// [`random_network`] with `buckets` output buckets, their biases in ±4,000 (±100 cp)
/// so that a wrong bucket shows in the evaluation.
fn random_bucketed_network(hidden: usize, buckets: usize, seed: u64) -> Network {
    network_in_ranges(hidden, buckets, seed, [(-32, 32), (0, 63), (-32, 32)])
}

/// A pseudo-random network at the edges of what the engine runs: first-layer weights in
/// ±1000 and biases in ±767, so that 32 pieces can take a neuron to ±32,767 and updates
/// pass through values beyond i16, and output weights in ±128.
fn extreme_network(hidden: usize, buckets: usize, seed: u64) -> Network {
    network_in_ranges(
        hidden,
        buckets,
        seed,
        [(-1000, 1000), (-767, 767), (-128, 128)],
    )
}

/// A network with first-layer weights, biases and output weights uniform in the
/// given inclusive ranges; the output bias 0 with one bucket, else uniform in ±4,000.
fn network_in_ranges(hidden: usize, buckets: usize, seed: u64, ranges: [(i16, i16); 3]) -> Network {
    let mut rng = Rng::new(seed);
    let mut uniform = |(low, high): (i16, i16), n: usize| -> Vec<i16> {
        let span = (high - low + 1) as usize;
        (0..n).map(|_| low + rng.below(span) as i16).collect()
    };
    let ft_weights = uniform(ranges[0], INPUTS * hidden);
    let ft_bias = uniform(ranges[1], hidden);
    let out_weights = uniform(ranges[2], buckets * 2 * hidden);
    let out_bias = match buckets {
        1 => vec![0],
        _ => uniform((-4000, 4000), buckets)
            .into_iter()
            .map(i32::from)
            .collect(),
    };
    Network::new(hidden, ft_weights, ft_bias, out_weights, out_bias)
        .expect("a network the engine runs")
}

/// The output bucket as the format words it, counted out rather than computed: the
/// pieces from 2 to 32 dealt out to the buckets in spans of ⌈32 / buckets⌉.
fn reference_bucket(pieces: usize, buckets: usize) -> usize {
    let span = (1..=32).find(|span| span * buckets >= 32).unwrap();
    let mut bucket = 0;
    let mut first = 2;
    while pieces >= first + span && bucket + 1 < buckets {
        bucket += 1;
        first += span;
    }
    bucket
}

/// The evaluation as the format specifies it, in plain scalar integers wide enough for
/// any file (i32 accumulators, an i64 output sum), apart from the engine's layout and
/// loops: what every build of the engine, vectorised for any CPU or not, must equal.
fn reference_evaluation(net: &Network, pos: &Chess) -> i32 {
    let h = net.hidden();
    let accumulator = |perspective: Color| -> Vec<i32> {
        let mut acc: Vec<i32> = net.ft_bias().iter().map(|&b| i32::from(b)).collect();
        for (square, piece) in pos.board() {
            let feature = feature_index(perspective, piece.color, piece.role, square);
            for (a, &w) in acc.iter_mut().zip(&net.ft_weights()[feature * h..][..h]) {
                *a += i32::from(w);
            }
        }
        acc
    };
    let bucket = reference_bucket(pos.board().occupied().count(), net.buckets());
    let (ours, theirs) = net.out_weights()[bucket * 2 * h..][..2 * h].split_at(h);
    let mut sum = 0i64;
    for (acc, weights) in [
        (accumulator(pos.turn()), ours),
        (accumulator(!pos.turn()), theirs),
    ] {
        for (&a, &w) in acc.iter().zip(weights) {
            let c = i64::from(a.clamp(0, QA));
            sum += c * c * i64::from(w);
        }
    }
    let v = sum / i64::from(QA) + i64::from(net.out_bias()[bucket]);
    (v * i64::from(SCALE) / i64::from(QA * QB)) as i32
}

fn chess(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Chess960)
        .unwrap()
}

/// The position with colours swapped and the board flipped vertically.
fn mirrored(pos: &Chess) -> Chess {
    pos.to_setup(EnPassantMode::Legal)
        .into_mirrored()
        .position(CastlingMode::Chess960)
        .unwrap()
}

#[test]
fn feature_indices_follow_the_format() {
    let a2 = Square::A2;
    assert_eq!(feature_index(Color::White, Color::White, Role::Pawn, a2), 8);
    // Black sees the white pawn as an enemy pawn on a7.
    assert_eq!(
        feature_index(Color::Black, Color::White, Role::Pawn, a2),
        6 * 64 + 48
    );
    assert_eq!(
        feature_index(Color::White, Color::Black, Role::King, Square::H8),
        767
    );
    assert_eq!(
        feature_index(Color::Black, Color::Black, Role::King, Square::E8),
        5 * 64 + 4
    );
}

#[test]
fn output_buckets_split_the_piece_counts_evenly() {
    let eight: Vec<usize> = (2..=32).map(|pieces| output_bucket(pieces, 8)).collect();
    assert_eq!(
        eight,
        [
            0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7,
            7, 7
        ]
    );
    for buckets in 1..=MAX_BUCKETS {
        for pieces in 2..=32 {
            assert_eq!(
                output_bucket(pieces, buckets),
                reference_bucket(pieces, buckets),
                "{pieces} pieces, {buckets} buckets"
            );
        }
        assert_eq!(output_bucket(32, buckets), buckets - 1, "{buckets}");
    }
}

#[test]
fn round_trip_keeps_every_value() {
    let net = random_network(16, 7);
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), HEADER_BYTES + 2 * (768 * 16 + 16 + 32) + 4);
    assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
    let bucketed = random_bucketed_network(16, 8, 7);
    let bytes = bucketed.to_bytes();
    assert_eq!(
        bytes.len(),
        HEADER_BYTES + 2 * (768 * 16 + 16 + 8 * 32) + 4 * 8
    );
    assert_eq!(Network::from_bytes(&bytes).unwrap(), bucketed);
}

/// A network of several buckets is version 2 with the count at byte 56; its payload
/// ends with the buckets' output weights, then their biases as i32.
#[test]
fn bucketed_header_and_payload_are_laid_out_as_specified() {
    let net = random_bucketed_network(32, 8, 5);
    let bytes = net.to_bytes();
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!(
        (8..40).step_by(4).map(u32_at).collect::<Vec<_>>(),
        [2, 64, 768, 32, 1, 255, 64, 400]
    );
    assert_eq!(u32_at(56), 8);
    assert_eq!(bytes[60..64], [0; 4]);
    let biases: Vec<i32> = bytes[bytes.len() - 32..]
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(biases, net.out_bias());
    let last_weight_at = bytes.len() - 32 - 2;
    assert_eq!(
        i16::from_le_bytes(
            bytes[last_weight_at..last_weight_at + 2]
                .try_into()
                .unwrap()
        ),
        *net.out_weights().last().unwrap()
    );
}

#[test]
fn header_is_laid_out_as_specified() {
    let bytes = random_network(128, 1).to_bytes();
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!(&bytes[..8], b"CUTOFFNN");
    assert_eq!(
        (8..40).step_by(4).map(u32_at).collect::<Vec<_>>(),
        [1, 64, 768, 128, 1, 255, 64, 400]
    );
    let payload = u64::from_le_bytes(bytes[40..48].try_into().unwrap());
    assert_eq!(payload, 197_380);
    assert_eq!(bytes.len(), 64 + 197_380);
    assert_eq!(bytes[56..64], [0; 8]);
}

/// The checksum is FNV-1a, 64-bit (published test vectors), over the payload.
#[test]
fn checksum_is_fnv1a_of_the_payload() {
    assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    let bytes = random_network(1, 3).to_bytes();
    let stored = u64::from_le_bytes(bytes[48..56].try_into().unwrap());
    assert_eq!(stored, fnv1a(&bytes[HEADER_BYTES..]));
}

fn refusal(bytes: &[u8]) -> String {
    Network::from_bytes(bytes).unwrap_err().0
}

/// Writes `value` at `at` and fixes nothing else.
fn with_u32(mut bytes: Vec<u8>, at: usize, value: u32) -> Vec<u8> {
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
    bytes
}

#[test]
fn malformed_files_are_refused_with_a_reason() {
    let good = random_network(4, 11).to_bytes();
    assert_eq!(
        refusal(&good[..10]),
        "truncated network file: 10 bytes, the header alone is 64"
    );
    let mut wrong_magic = good.clone();
    wrong_magic[0] = b'X';
    assert_eq!(
        refusal(&wrong_magic),
        "not a Cutoff network file (wrong magic)"
    );
    assert_eq!(
        refusal(&with_u32(good.clone(), 8, 3)),
        "network file version 3, this engine reads versions 1 to 2"
    );
    assert_eq!(
        refusal(&with_u32(good.clone(), 8, 0)),
        "network file version 0, this engine reads versions 1 to 2"
    );
    // Version 1 keeps the bucket count's bytes zero.
    assert_eq!(
        refusal(&with_u32(good.clone(), 56, 2)),
        "network file header: reserved bytes are not zero"
    );
    let bucketed = random_bucketed_network(4, 2, 11).to_bytes();
    for buckets in [0, 9] {
        assert_eq!(
            refusal(&with_u32(bucketed.clone(), 56, buckets)),
            format!("network file header: {buckets} output buckets, outside 1..=8")
        );
    }
    // Three buckets with the payload of two: the declared payload size disagrees.
    assert_eq!(
        refusal(&with_u32(bucketed.clone(), 56, 3)),
        "network file header: payload of 6192 bytes, hidden size 4 and 3 output bucket(s) \
         need 6212"
    );
    // A one-bucket network written as version 2 reads as the same network.
    let as_version_2 = with_u32(with_u32(good.clone(), 8, 2), 56, 1);
    assert_eq!(
        Network::from_bytes(&as_version_2).unwrap(),
        Network::from_bytes(&good).unwrap()
    );
    for (at, name, expected) in [
        (12, "header size", 64),
        (16, "inputs", 768),
        (24, "activation", 1),
        (28, "QA", 255),
        (32, "QB", 64),
        (36, "scale", 400),
    ] {
        assert_eq!(
            refusal(&with_u32(good.clone(), at, 999)),
            format!("network file header: {name} is 999, expected {expected}")
        );
    }
    assert_eq!(
        refusal(&with_u32(good.clone(), 20, 0)),
        "network file header: hidden size 0 outside 1..=4096"
    );
    assert_eq!(
        refusal(&with_u32(good.clone(), 20, MAX_HIDDEN as u32 + 1)),
        "network file header: hidden size 4097 outside 1..=4096"
    );
    // Hidden 5 with the payload of hidden 4: the declared payload size disagrees.
    assert_eq!(
        refusal(&with_u32(good.clone(), 20, 5)),
        "network file header: payload of 6172 bytes, hidden size 5 and 1 output bucket(s) \
         need 7714"
    );
    let mut reserved = good.clone();
    reserved[60] = 1;
    assert_eq!(
        refusal(&reserved),
        "network file header: reserved bytes are not zero"
    );
    assert_eq!(
        refusal(&good[..good.len() - 1]),
        "truncated network payload: 6171 bytes, expected 6172"
    );
    let mut extra = good.clone();
    extra.push(0);
    assert_eq!(
        refusal(&extra),
        "trailing bytes after network payload: 6173 bytes, expected 6172"
    );
    let mut flipped = good.clone();
    *flipped.last_mut().unwrap() ^= 1;
    assert!(
        refusal(&flipped).starts_with("network file checksum mismatch: header says 0x"),
        "{}",
        refusal(&flipped)
    );
}

/// Every prefix of a file and every single-byte change to its header is either read or
/// refused: nothing panics.
#[test]
fn no_input_panics() {
    for good in [
        random_network(1, 5).to_bytes(),
        random_bucketed_network(1, 3, 5).to_bytes(),
    ] {
        for len in 0..good.len() {
            assert!(Network::from_bytes(&good[..len]).is_err());
        }
        for at in 0..HEADER_BYTES {
            for value in [0, 1, 2, 0x7f, 0x80, 0xff] {
                let mut bytes = good.clone();
                bytes[at] = value;
                let _ = Network::from_bytes(&bytes);
            }
        }
    }
}

#[test]
fn parts_of_the_wrong_size_are_refused() {
    let err = Network::new(2, vec![0; 768 * 2], vec![0; 2], vec![0; 3], vec![0]).unwrap_err();
    assert_eq!(
        err.0,
        "output weights: 3 values, hidden size 2 and 1 output bucket(s) need 4"
    );
    let err = Network::new(2, vec![0; 10], vec![0; 2], vec![0; 4], vec![0]).unwrap_err();
    assert_eq!(
        err.0,
        "first-layer weights: 10 values, hidden size 2 and 1 output bucket(s) need 1536"
    );
    let err = Network::new(2, vec![0; 768 * 2], vec![0; 2], vec![0; 4], vec![0; 2]).unwrap_err();
    assert_eq!(
        err.0,
        "output weights: 4 values, hidden size 2 and 2 output bucket(s) need 8"
    );
    for buckets in [0, 9] {
        let err =
            Network::new(2, vec![0; 1536], vec![0; 2], vec![0; 4], vec![0; buckets]).unwrap_err();
        assert_eq!(err.0, format!("{buckets} output buckets, outside 1..=8"));
    }
    assert!(Network::new(0, vec![], vec![], vec![], vec![0]).is_err());
}

/// A two-neuron network on kings and a rook, its output worked out by hand:
/// White's accumulator [10+100+200-30, -20+50+300+40] = [280, 370] clamps to [255, 255];
/// Black's [10-30-50+100, -20+40+0+50] = [30, 70].
#[test]
fn tiny_network_gives_the_value_worked_out_by_hand() {
    let hidden = 2;
    let mut ft_weights = vec![0; INPUTS * hidden];
    let mut set = |feature: usize, column: [i16; 2]| {
        ft_weights[feature * hidden..(feature + 1) * hidden].copy_from_slice(&column);
    };
    set(5 * 64 + 4, [100, 50]); // own king on e1 (e8 for Black)
    set(11 * 64 + 60, [-30, 40]); // enemy king on e8 (e1 for Black)
    set(3 * 64 + 7, [200, 300]); // own rook on h1
    set(9 * 64 + 63, [-50, 0]); // enemy rook on h8 (h1 for Black)
    let net = |out_bias| {
        Network::new(
            hidden,
            ft_weights.clone(),
            vec![10, -20],
            vec![64, -32, 16, 127],
            vec![out_bias],
        )
        .unwrap()
    };
    // White to move: sum = 255²·64 − 255²·32 + 30²·16 + 70²·127 = 2,717,500;
    // v = 2,717,500 / 255 + 1000 = 11,656; cp = 11,656 · 400 / 16,320 = 285.
    let white = chess("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
    assert_eq!(net(1000).evaluate_full(&white), 285);
    // Black to move: sum = 30²·64 − 70²·32 + 255²·16 + 255²·127 = 9,199,375;
    // v = 36,075 + 1000 = 37,075; cp = 908.
    let black = chess("4k3/8/8/8/8/8/8/4K2R b - - 0 1");
    assert_eq!(net(1000).evaluate_full(&black), 908);
    // Divisions truncate toward zero: v = 10,656 − 20,000 = −9,344 gives −229.02 → −229.
    assert_eq!(net(-20_000).evaluate_full(&white), -229);
}

/// Output sums too large for i32 are summed exactly in i64: every neuron at 255 (biases
/// alone) and every output weight 128 give 512 × 255² × 128 / 255 = 16,711,680, times
/// 400 / 16,320 = 409,600 cp. At 128 neurons the same sum fits i32 and takes the other
/// path, to the same value per neuron.
#[test]
fn largest_output_sums_stay_exact() {
    let network = |hidden: usize, w: i16| {
        Network::new(
            hidden,
            vec![0; INPUTS * hidden],
            vec![255; hidden],
            vec![w; 2 * hidden],
            vec![0],
        )
        .unwrap()
    };
    let pos = Chess::default();
    assert_eq!(network(256, 128).evaluate_full(&pos), 409_600);
    assert_eq!(network(256, -128).evaluate_full(&pos), -409_600);
    assert_eq!(network(128, 128).evaluate_full(&pos), 204_800);
    assert_eq!(network(128, -128).evaluate_full(&pos), -204_800);
}

/// The engine's integer types bound what it runs: an output weight beyond ±128, or a
/// neuron whose bias and 32 largest weights could leave i16, is refused.
#[test]
fn networks_beyond_the_integer_types_are_refused() {
    let hidden = 4;
    let mut out_weights = vec![128; 2 * hidden];
    let network = |ft_weights: Vec<i16>, ft_bias: Vec<i16>, out_weights: Vec<i16>| {
        Network::new(hidden, ft_weights, ft_bias, out_weights, vec![0])
    };
    assert!(
        network(
            vec![0; INPUTS * hidden],
            vec![0; hidden],
            out_weights.clone()
        )
        .is_ok()
    );
    out_weights[5] = -129;
    assert_eq!(
        network(vec![0; INPUTS * hidden], vec![0; hidden], out_weights)
            .unwrap_err()
            .0,
        "output weight 5 is -129, outside ±128: the engine multiplies it by an activation \
         of up to 255 in i16"
    );
    // Neuron 2: 32 weights of −1000 among smaller ones and a bias of 767 reach 32,767,
    // the most i16 holds; a bias of 768 reaches one more.
    let mut ft_weights = vec![0; INPUTS * hidden];
    for feature in 0..INPUTS {
        ft_weights[feature * hidden + 2] = if feature % 20 == 0 { -1000 } else { 999 };
    }
    let mut ft_bias = vec![0; hidden];
    ft_bias[2] = 767;
    let out_weights = vec![1; 2 * hidden];
    assert!(network(ft_weights.clone(), ft_bias.clone(), out_weights.clone()).is_ok());
    ft_bias[2] = -768;
    assert_eq!(
        network(ft_weights, ft_bias, out_weights).unwrap_err().0,
        "neuron 2 could reach 32768 on a position of 32 pieces, beyond the engine's i16 \
         accumulators"
    );
}

/// Scaling the output layer: by 1 the same bytes; by 2 twice every evaluation (up to the
/// two truncating divisions of the forward pass), with the first layer untouched; halves
/// round to even; factors that leave the engine's range, or are no factor, are refused.
#[test]
fn scaling_the_output_layer_scales_the_evaluation() {
    let net = random_bucketed_network(32, 4, 41);
    assert_eq!(
        net.with_output_scaled(1.0).unwrap().to_bytes(),
        net.to_bytes()
    );
    let doubled = net.with_output_scaled(2.0).unwrap();
    assert_eq!(doubled.ft_weights(), net.ft_weights());
    assert_eq!(doubled.ft_bias(), net.ft_bias());
    let mut nonzero = 0;
    for fen in STANDARD_FENS {
        let pos = chess(fen);
        let (single, double) = (net.evaluate_full(&pos), doubled.evaluate_full(&pos));
        assert!(
            (double - 2 * single).abs() <= 2,
            "{fen}: {single} then {double}"
        );
        nonzero += usize::from(single.abs() > 10);
    }
    assert!(
        nonzero > STANDARD_FENS.len() / 2,
        "too few evaluations away from 0"
    );

    let halves = Network::new(1, vec![0; INPUTS], vec![0], vec![5, 3], vec![-5]).unwrap();
    let halved = halves.with_output_scaled(0.5).unwrap();
    assert_eq!(halved.out_weights(), [2, 2]);
    assert_eq!(halved.out_bias(), [-2]);

    // random_bucketed_network's output weights reach ±32: × 4.5 passes ±128.
    let refusal = net.with_output_scaled(4.5).unwrap_err().0;
    assert!(refusal.contains(" times 4.5 is "), "{refusal}");
    assert!(refusal.contains(", outside ±128: the engine"), "{refusal}");
    for factor in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert_eq!(
            net.with_output_scaled(factor).unwrap_err().0,
            format!("scale factor {factor}: must be a finite number above 0")
        );
    }
    let big_bias = Network::new(1, vec![0; INPUTS], vec![0], vec![0, 0], vec![i32::MAX]).unwrap();
    assert!(
        big_bias
            .with_output_scaled(1.5)
            .unwrap_err()
            .0
            .contains("beyond i32")
    );
}

#[test]
fn mirrored_position_scores_the_same_for_the_side_to_move() {
    let net = random_network(32, 99);
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ] {
        let pos = chess(fen);
        let score = net.evaluate_full(&pos);
        assert_eq!(net.evaluate_full(&mirrored(&pos)), score, "{fen}");
        assert_ne!(score, 0, "{fen}: a zero score would prove nothing");
    }
}

/// Counts of the move kinds a random walk played and of the piece counts it evaluated,
/// to show the walk covered them.
#[derive(Default, Debug)]
struct Covered {
    captures: usize,
    en_passant: usize,
    promotions: usize,
    castles_short: usize,
    castles_long: usize,
    null_moves: usize,
    evaluations: usize,
    /// The piece counts of the positions evaluated, one bit each.
    piece_counts: u64,
}

impl Covered {
    /// Whether every one of `buckets` output buckets had a position evaluated.
    fn every_bucket(&self, buckets: usize) -> bool {
        (0..buckets).all(|bucket| {
            (0..=MAX_PIECES).any(|pieces| {
                self.piece_counts & (1 << pieces) != 0 && output_bucket(pieces, buckets) == bucket
            })
        })
    }
}

/// A random legal move, one of the rarer kinds (castling, en passant, promotion,
/// capture) half of the time when there is one, so that short games play them all.
fn random_move(board: &Board, rng: &mut Rng) -> Option<Move> {
    let moves = board.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let special: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| m.is_capture() || m.is_promotion() || m.is_castle())
        .collect();
    if !special.is_empty() && rng.below(2) == 0 {
        return Some(special[rng.below(special.len())]);
    }
    Some(moves[rng.below(moves.len())])
}

/// Checks the incremental accumulator of the current position against a refresh, and
/// the evaluation, incremental and from scratch, against the scalar reference.
fn check_accumulator(board: &Board, stack: &mut AccumulatorStack, covered: &mut Covered) {
    let (incremental, fresh) = stack.incremental_and_fresh(board);
    assert_eq!(incremental, fresh, "{}", board.fen());
    let network = Arc::clone(stack.network());
    let expected = reference_evaluation(&network, board.pos());
    assert_eq!(
        network.evaluate_full(board.pos()),
        expected,
        "{}",
        board.fen()
    );
    assert_eq!(
        stack.evaluate(board),
        expected.clamp(-EVAL_LIMIT, EVAL_LIMIT),
        "{}",
        board.fen()
    );
    covered.evaluations += 1;
    covered.piece_counts |= 1 << board.pos().board().occupied().count();
}

fn record(board: &Board, m: Move, covered: &mut Covered) {
    match m {
        Move::EnPassant { .. } => covered.en_passant += 1,
        Move::Castle { king, rook } if king < rook => covered.castles_short += 1,
        Move::Castle { .. } => covered.castles_long += 1,
        _ => {}
    }
    covered.captures += usize::from(m.is_capture());
    covered.promotions += usize::from(m.is_promotion());
    debug_assert!(board.pos().is_legal(m));
}

/// Random games walked like a search: along the game line, side branches are made,
/// evaluated and taken back, null moves are tried, and positions are evaluated only now
/// and then (so that the stack replays several moves at once, or refreshes after a long
/// gap). After each evaluation the incremental accumulator must equal a refresh.
fn walk_random_games(
    network: Network,
    fens: &[&str],
    chess960: bool,
    games_per_fen: usize,
    seed: u64,
) -> Covered {
    let network = Arc::new(network);
    let mut rng = Rng::new(seed);
    let mut covered = Covered::default();
    for fen in fens {
        for _ in 0..games_per_fen {
            let mut board = Board::from_fen(fen, chess960).unwrap();
            let mut stack = AccumulatorStack::new(Arc::clone(&network));
            let mut line = 0;
            while line < 160 {
                // A side branch of up to three moves, evaluated at its end.
                let mut branch = 0;
                for _ in 0..rng.below(4) {
                    let Some(m) = random_move(&board, &mut rng) else {
                        break;
                    };
                    record(&board, m, &mut covered);
                    board.make(m);
                    branch += 1;
                }
                if !board.in_check() && rng.below(4) == 0 {
                    board.make_null();
                    covered.null_moves += 1;
                    branch += 1;
                }
                check_accumulator(&board, &mut stack, &mut covered);
                for _ in 0..branch {
                    board.unmake();
                }
                let Some(m) = random_move(&board, &mut rng) else {
                    break;
                };
                record(&board, m, &mut covered);
                board.make(m);
                line += 1;
                // Most positions of the line are evaluated, some only much later.
                if rng.below(8) != 0 || line % 20 == 0 {
                    check_accumulator(&board, &mut stack, &mut covered);
                }
            }
        }
    }
    covered
}

/// Starting points of the random games: every kind of move within a few plies.
const STANDARD_FENS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbqkb1r/pp1p1ppp/5n2/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 4",
];

#[test]
fn incremental_accumulator_equals_a_refresh_in_random_games() {
    let covered = walk_random_games(random_network(16, 1), &STANDARD_FENS, false, 6, 1);
    assert!(covered.en_passant > 0, "{covered:?}");
    assert!(covered.promotions > 0, "{covered:?}");
    assert!(covered.castles_short > 0, "{covered:?}");
    assert!(covered.castles_long > 0, "{covered:?}");
    assert!(covered.null_moves > 0, "{covered:?}");
    assert!(covered.captures > 100, "{covered:?}");
    assert!(covered.evaluations > 2000, "{covered:?}");
}

/// Chess960 castling moves the king onto the rook's square or the rook onto the king's
/// (here, among others, king f1 and rook g1 trade places).
#[test]
fn incremental_accumulator_equals_a_refresh_in_chess960_games() {
    let covered = walk_random_games(
        random_network(16, 2),
        &[
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
            "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
            "1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 9",
            "4k3/8/8/8/8/8/8/rR3KR1 w GB - 0 1",
        ],
        true,
        6,
        2,
    );
    assert!(covered.castles_short > 0, "{covered:?}");
    assert!(covered.castles_long > 0, "{covered:?}");
    assert!(covered.evaluations > 2000, "{covered:?}");
}

/// Every width the engine is trained at (128, 256), the next ones (384, 512), and widths
/// that run padded to a compiled one, with weights both typical and at the edges of the
/// integer types: incremental and from-scratch evaluations equal the scalar reference.
#[test]
fn every_width_evaluates_as_the_reference() {
    for (hidden, seed) in [
        (128, 3),
        (256, 4),
        (384, 5),
        (512, 6),
        (1, 7),
        (100, 8),
        (700, 9),
    ] {
        for network in [
            random_network(hidden, seed),
            extreme_network(hidden, 1, seed),
        ] {
            let covered = walk_random_games(network, &STANDARD_FENS[..2], false, 1, seed);
            assert!(covered.evaluations > 200, "{hidden}: {covered:?}");
        }
    }
}

/// Networks with output buckets, at the widths trained and at the edges of the integer
/// types, along games that run from 32 pieces into endgames of a few (so that every
/// bucket is used): incremental and from-scratch evaluations equal the reference.
#[test]
fn bucketed_networks_evaluate_as_the_reference() {
    for (hidden, buckets, seed) in [(256, 8, 31), (128, 8, 32), (64, 3, 33), (100, 5, 34)] {
        for network in [
            random_bucketed_network(hidden, buckets, seed),
            extreme_network(hidden, buckets, seed),
        ] {
            let covered = walk_random_games(network, &STANDARD_FENS, false, 1, seed);
            assert!(covered.evaluations > 400, "{hidden}: {covered:?}");
            assert!(covered.every_bucket(buckets), "{hidden}: {covered:?}");
        }
    }
}

/// A bucket's bias reaches exactly the positions of its piece counts: with every weight
/// zero, the evaluation is the bias of the position's bucket.
#[test]
fn the_bucket_is_chosen_by_the_pieces_on_the_board() {
    // A bias b gives b × 400 / 16,320 centipawns: 4,080 × (k + 1) gives 100 × (k + 1).
    let biases: Vec<i32> = (0..8).map(|k| 4080 * (k + 1)).collect();
    let net = Network::new(8, vec![0; INPUTS * 8], vec![0; 8], vec![0; 8 * 16], biases).unwrap();
    for (fen, pieces) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 2),
        ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", 4),
        ("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1", 5),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            32,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq - 0 1",
            31,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBN1 w Qkq - 0 1",
            30,
        ),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPP2/RNBQKBN1 w Qkq - 0 1", 29),
    ] {
        let pos = chess(fen);
        assert_eq!(pos.board().occupied().count(), pieces, "{fen}");
        let bucket = (pieces - 2) / 4;
        assert_eq!(net.evaluate_full(&pos), 100 * (bucket as i32 + 1), "{fen}");
    }
}

#[test]
fn embedded_network_reads() {
    let net = embedded();
    assert_eq!(net.to_bytes(), EMBEDDED);
    assert_eq!(
        net.hidden(),
        128,
        "engine/nets/README.md describes a network of 128"
    );
}

#[test]
fn files_are_read_or_refused_with_their_path() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let good = dir.join("good.nnue");
    let net = random_network(8, 21);
    std::fs::write(&good, net.to_bytes()).unwrap();
    assert_eq!(Network::load(&good).unwrap(), net);
    let truncated = dir.join("truncated.nnue");
    std::fs::write(&truncated, &net.to_bytes()[..100]).unwrap();
    assert_eq!(
        Network::load(&truncated).unwrap_err().0,
        format!(
            "{}: truncated network payload: 36 bytes, expected 12340",
            truncated.display()
        )
    );
    let missing = dir.join("missing.nnue");
    let err = Network::load(&missing).unwrap_err().0;
    assert!(
        err.starts_with(&format!("cannot read {}: ", missing.display())),
        "{err}"
    );
}

/// The search evaluates with the network it is given, on every thread, and with the
/// hand-crafted evaluation again once the network is taken away. A network that scores
/// every position +100 for the side to move (output bias 4080 × 400 / 16,320) makes a
/// one-ply search of the quiet start position worth −100: each reply leaves the opponent
/// to move at +100.
#[test]
fn search_evaluates_with_the_network_it_is_given() {
    use crate::limits::Limits;
    use crate::search::{SearchOptions, Searcher};
    let constant =
        Network::new(8, vec![0; INPUTS * 8], vec![0; 8], vec![0; 16], vec![4080]).unwrap();
    assert_eq!(constant.evaluate_full(&Chess::default()), 100);
    let board = Board::default();
    let limits = Limits::depth(1);
    let mut searcher = Searcher::new(1).unwrap();
    let hand_crafted = searcher
        .search(&board, &limits, &SearchOptions::default(), &mut |_| {})
        .score;
    assert_ne!(hand_crafted, -100);
    searcher.set_network(Some(Arc::new(constant)));
    for threads in [1, 2] {
        let options = SearchOptions {
            threads,
            ..SearchOptions::default()
        };
        let result = searcher.search(&board, &limits, &options, &mut |_| {});
        assert_eq!(result.score, -100, "{threads} threads");
    }
    searcher.set_network(None);
    let again = searcher
        .search(&board, &limits, &SearchOptions::default(), &mut |_| {})
        .score;
    assert_eq!(again, hand_crafted);
}
