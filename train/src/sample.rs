//! One training position as the network sees it: the active features of each
//! perspective (side to move first) and the labels from the side to move's view.

use cutoff_engine::nnue::network::feature_index;
use shakmaty::Color;

use cutoff_engine::data::PackedPosition;

/// The logistic function.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// A position has at most 32 pieces, so at most 32 active features a perspective.
pub const MAX_FEATURES: usize = 32;

/// A training position: its active features from both perspectives and its targets.
#[derive(Clone, Debug)]
pub struct Sample {
    features: [[u16; MAX_FEATURES]; 2],
    len: u8,
    /// The search score in centipawns, side to move's view.
    pub score: i16,
    /// The game's points for the side to move: 1, 0.5 or 0.
    pub result: f32,
}

impl Sample {
    /// The sample of a packed record, seen from its side to move.
    pub fn new(record: &PackedPosition) -> Sample {
        let stm = record.turn();
        let mut features = [[0; MAX_FEATURES]; 2];
        let mut len = 0;
        // A checked record has at most 32 pieces; `take` keeps an unchecked one in bounds.
        for (square, piece) in record.pieces().take(MAX_FEATURES) {
            for (side, perspective) in [stm, !stm].into_iter().enumerate() {
                // Below 768: fits u16, which halves the sample's size.
                features[side][len] =
                    feature_index(perspective, piece.color, piece.role, square) as u16;
            }
            len += 1;
        }
        let white_points = record.outcome().white_points() as f32;
        let (score, result) = match stm {
            Color::White => (record.white_score(), white_points),
            Color::Black => (record.white_score().saturating_neg(), 1.0 - white_points),
        };
        Sample {
            features,
            len: len as u8,
            score,
            result,
        }
    }

    /// The active features of perspective `side` (0: the side to move, 1: the other).
    pub fn features(&self, side: usize) -> &[u16] {
        &self.features[side][..usize::from(self.len)]
    }

    /// Pieces on the board, kings included (one active feature each).
    pub fn pieces(&self) -> usize {
        usize::from(self.len)
    }

    /// The training target: `wdl` parts game result, the rest the search score through the
    /// same sigmoid as the prediction.
    pub fn target(&self, wdl: f32, eval_scale: f32) -> f32 {
        wdl * self.result + (1.0 - wdl) * sigmoid(f32::from(self.score) / eval_scale)
    }
}
