//! The evaluation replayed with real-valued weights, and its gradient.
//!
//! Parameters are one flat vector: the middlegame and endgame weight of every linear
//! feature, interleaved (`2 * feature` and `2 * feature + 1`), then the four king-danger
//! attack-unit weights (knight, bishop, rook, queen). With integer weights the replay is
//! the engine's evaluation up to the rounding of its integer divisions (taper and king
//! danger), which tests check stays within a centipawn or two.

use cutoff_engine::eval::{
    KING_DANGER_DIVISOR, KING_DANGER_EG_DIVISOR, KING_DANGER_MAX, KING_UNITS, MAX_PHASE,
    SCALE_NORMAL, Score, features, weights,
};

use crate::data::Entry;

/// Number of linear features.
pub const LINEAR: usize = features::COUNT;
/// Index of the first king-danger attack-unit weight.
pub const KING_ATTACK: usize = 2 * LINEAR;
/// Number of parameters.
pub const COUNT: usize = KING_ATTACK + KING_UNITS;

/// Integer weights as parameters.
pub fn params_of(linear: &[Score], king_attack: &[i32; KING_UNITS]) -> Vec<f64> {
    let mut p = Vec::with_capacity(COUNT);
    for w in linear {
        p.push(f64::from(w.mg));
        p.push(f64::from(w.eg));
    }
    p.extend(king_attack.map(f64::from));
    p
}

/// The weights the engine was built with, as parameters: the tuner's starting point.
pub fn engine_params() -> Vec<f64> {
    params_of(&features::WEIGHTS, &weights::KING_ATTACK_WEIGHT)
}

/// Parameters rounded to the engine's integer weights: the linear pairs and the
/// king-danger attack-unit weights.
pub fn rounded(params: &[f64]) -> (Vec<Score>, [i32; KING_UNITS]) {
    let round = |x: f64| x.round() as i32;
    let linear = (0..LINEAR)
        .map(|i| Score {
            mg: round(params[2 * i]),
            eg: round(params[2 * i + 1]),
        })
        .collect();
    let king = std::array::from_fn(|r| round(params[KING_ATTACK + r]));
    (linear, king)
}

/// The logistic curve mapping a White-view score to White's expected result.
#[inline]
pub fn sigmoid(k: f64, score: f64) -> f64 {
    1.0 / (1.0 + (-k * score).exp())
}

/// King danger for one side: the middlegame penalty and its derivative with respect to
/// the attack units. Smooth except at the cap, which the engine applies the same way.
#[inline]
fn danger(params: &[f64], hits: &[u8; KING_UNITS]) -> (f64, f64, [f64; KING_UNITS]) {
    let h = hits.map(f64::from);
    let units: f64 = (0..KING_UNITS)
        .map(|r| params[KING_ATTACK + r] * h[r])
        .sum();
    let raw = units * units / f64::from(KING_DANGER_DIVISOR);
    if raw < f64::from(KING_DANGER_MAX) {
        (raw, 2.0 * units / f64::from(KING_DANGER_DIVISOR), h)
    } else {
        (f64::from(KING_DANGER_MAX), 0.0, h)
    }
}

/// The sides whose king danger counts, with the sign it takes in White's view.
#[inline]
fn dangers(entry: &Entry) -> impl Iterator<Item = (f64, &[u8; KING_UNITS])> {
    // `king_inputs` is indexed by colour: Black = 0, White = 1. Danger to White's king
    // lowers White's score.
    [(1.0, 0), (-1.0, 1)]
        .into_iter()
        .filter_map(|(sign, c)| entry.king_inputs[c].as_ref().map(|h| (sign, h)))
}

/// The middlegame and endgame sums of `entry` from White's view under `params`, before
/// the endgame scale and the taper.
fn parts(params: &[f64], entry: &Entry, features: &[(u16, i16)]) -> (f64, f64) {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, n) in features {
        let n = f64::from(n);
        mg += params[2 * i as usize] * n;
        eg += params[2 * i as usize + 1] * n;
    }
    for (sign, hits) in dangers(entry) {
        let (d, _, _) = danger(params, hits);
        mg += sign * d;
        eg += sign * d / f64::from(KING_DANGER_EG_DIVISOR);
    }
    (mg, eg)
}

/// The endgame scale as a fraction, for the side an endgame sum of `eg` favours (White
/// when it is zero, as in the engine).
#[inline]
fn scale(entry: &Entry, eg: f64) -> f64 {
    let favoured = usize::from(eg >= 0.0); // Black = 0, White = 1
    f64::from(entry.scales[favoured]) / f64::from(SCALE_NORMAL)
}

/// The evaluation of `entry` from White's view under `params`, and the endgame scale it
/// applied (a fraction), which [`add_gradient`] takes so as not to sum the features again.
pub fn evaluate_with_scale(params: &[f64], entry: &Entry, features: &[(u16, i16)]) -> (f64, f64) {
    let (mg, eg) = parts(params, entry, features);
    let eg_scale = scale(entry, eg);
    let phase = f64::from(entry.phase);
    let max = f64::from(MAX_PHASE);
    ((mg * phase + eg * eg_scale * (max - phase)) / max, eg_scale)
}

/// The evaluation of `entry` from White's view under `params`.
pub fn evaluate(params: &[f64], entry: &Entry, features: &[(u16, i16)]) -> f64 {
    evaluate_with_scale(params, entry, features).0
}

/// Adds `g` times the gradient of [`evaluate`] with respect to the parameters to `grad`;
/// `eg_scale` is the endgame scale [`evaluate_with_scale`] applied under `params`.
pub fn add_gradient(
    params: &[f64],
    entry: &Entry,
    features: &[(u16, i16)],
    eg_scale: f64,
    g: f64,
    grad: &mut [f64],
) {
    // The scale is a step function of the endgame sum's sign: constant almost everywhere,
    // so it enters the gradient as a factor.
    let max = f64::from(MAX_PHASE);
    let mg_share = g * f64::from(entry.phase) / max;
    let eg_share = g * eg_scale * (max - f64::from(entry.phase)) / max;
    for &(i, n) in features {
        let n = f64::from(n);
        grad[2 * i as usize] += mg_share * n;
        grad[2 * i as usize + 1] += eg_share * n;
    }
    for (sign, hits) in dangers(entry) {
        let (_, slope, h) = danger(params, hits);
        // The penalty enters the middlegame whole and the endgame divided.
        let share = sign * slope * (mg_share + eg_share / f64::from(KING_DANGER_EG_DIVISOR));
        for (r, h) in h.iter().enumerate() {
            grad[KING_ATTACK + r] += share * h;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::parse_line;

    #[test]
    fn rounded_engine_params_are_the_engine_weights() {
        let (linear, king) = rounded(&engine_params());
        assert_eq!(linear, features::WEIGHTS.to_vec());
        assert_eq!(king, weights::KING_ATTACK_WEIGHT);
    }

    #[test]
    fn replay_matches_the_engine_evaluation() {
        let params = engine_params();
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "6k1/5ppp/7Q/6N1/8/8/5PPP/6K1 b - - 0 1",
            "6k1/5ppp/2Q5/4N3/8/8/5PPP/3R2K1 w - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            // Endgame scales: opposite-coloured bishops, a rook ending on one wing.
            "2b1k3/p7/8/8/8/8/PP6/2B1K3 w - - 0 1",
            "r5k1/5pp1/8/8/8/8/5PPP/R5K1 b - - 0 1",
        ];
        for fen in fens {
            let (entry, feats) = parse_line(&format!("{fen} | 0 | 0.5")).unwrap().unwrap();
            let pos = cutoff_engine::board::Board::from_fen(fen, false).unwrap();
            let white = cutoff_engine::eval::trace(pos.pos()).total_white();
            let replay = evaluate(&params, &entry, &feats);
            assert!(
                (replay - f64::from(white)).abs() < 2.0,
                "{fen}: {replay} vs {white}"
            );
        }
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let fen = "6k1/5ppp/2Q5/4N3/8/8/5PPP/3R2K1 w - - 0 1";
        let (entry, feats) = parse_line(&format!("{fen} | 0 | 0.5")).unwrap().unwrap();
        assert!(
            entry.king_inputs[0].is_some(),
            "Black's king should be under attack"
        );
        let params = engine_params();
        let mut grad = vec![0.0; COUNT];
        let (_, eg_scale) = evaluate_with_scale(&params, &entry, &feats);
        add_gradient(&params, &entry, &feats, eg_scale, 1.0, &mut grad);
        let probe = [
            2 * features::TEMPO,
            2 * features::TEMPO + 1,
            KING_ATTACK,
            KING_ATTACK + 3,
        ];
        for i in probe {
            let mut p = params.clone();
            p[i] += 0.5;
            let up = evaluate(&p, &entry, &feats);
            p[i] -= 1.0;
            let down = evaluate(&p, &entry, &feats);
            let numeric = up - down;
            assert!(
                (numeric - grad[i]).abs() < 1e-6,
                "param {i}: {numeric} vs {}",
                grad[i]
            );
        }
        assert!(
            grad[KING_ATTACK + 3] > 0.0,
            "a stronger queen attack favours White"
        );
    }

    #[test]
    fn gradient_carries_the_endgame_scale() {
        // Opposite-coloured bishops, White a pawn up: the endgame part counts half.
        let fen = "2b1k3/p7/8/8/8/8/PP6/2B1K3 w - - 0 1";
        let (entry, feats) = parse_line(&format!("{fen} | 0 | 0.5")).unwrap().unwrap();
        assert_eq!(entry.scales[1], 64);
        let params = engine_params();
        let mut grad = vec![0.0; COUNT];
        let (_, eg_scale) = evaluate_with_scale(&params, &entry, &feats);
        add_gradient(&params, &entry, &feats, eg_scale, 1.0, &mut grad);
        let i = 2 * features::TEMPO + 1;
        let mut p = params.clone();
        p[i] += 0.5;
        let up = evaluate(&p, &entry, &feats);
        p[i] -= 1.0;
        let down = evaluate(&p, &entry, &feats);
        assert!(
            (up - down - grad[i]).abs() < 1e-6,
            "{} vs {}",
            up - down,
            grad[i]
        );
        let unscaled = (f64::from(MAX_PHASE) - f64::from(entry.phase)) / f64::from(MAX_PHASE);
        assert!((grad[i] - unscaled / 2.0).abs() < 1e-9, "{}", grad[i]);
    }
}
