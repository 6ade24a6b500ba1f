//! The evaluation's features as one flat, indexed list.
//!
//! Every linear term of the evaluation is a (middlegame, endgame) weight times an integer
//! count. The weights are kept in named tables in [`super::weights`] (a generated file);
//! this module lays those tables end to end, in the order of [`GROUPS`], as [`WEIGHTS`],
//! and names each table's first index. The evaluation, its trace and the tuner all address
//! a weight by that one index, so they cannot disagree about what a feature means.
//!
//! The one nonlinear term, king danger, is not in this list: see [`super::king`].

use super::tapered::Score;
use super::weights as w;

/// The rows of the evaluation breakdown shown by the UCI `eval` command; each feature
/// table counts towards one of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// Material and piece-square tables.
    Material,
    /// Safe squares attacked by knights, bishops, rooks and queens.
    Mobility,
    /// Doubled, isolated and backward pawns.
    Pawns,
    /// Passed pawns: rank, free path, king proximity.
    PassedPawns,
    /// Pawn shield and attacks on the king zone.
    KingSafety,
    /// Bishops on both square colours.
    BishopPair,
    /// Rooks on open and half-open files.
    Rooks,
    /// Knights and bishops on outposts or behind a pawn.
    Minors,
    /// Enemy pieces attacked by pawns, minors and rooks; hanging pieces.
    Threats,
    /// Bonus for the side to move.
    Tempo,
}

impl Term {
    /// Number of terms.
    pub const COUNT: usize = 10;
    /// All terms, in display order.
    pub const ALL: [Term; Term::COUNT] = [
        Term::Material,
        Term::Mobility,
        Term::Pawns,
        Term::PassedPawns,
        Term::KingSafety,
        Term::BishopPair,
        Term::Rooks,
        Term::Minors,
        Term::Threats,
        Term::Tempo,
    ];

    /// Human-readable name of the term.
    pub const fn name(self) -> &'static str {
        match self {
            Term::Material => "Material+PST",
            Term::Mobility => "Mobility",
            Term::Pawns => "Pawns",
            Term::PassedPawns => "Passed pawns",
            Term::KingSafety => "King safety",
            Term::BishopPair => "Bishop pair",
            Term::Rooks => "Rooks/open files",
            Term::Minors => "Minor pieces",
            Term::Threats => "Threats",
            Term::Tempo => "Tempo",
        }
    }
}

/// One named table of weights, as it appears in the generated weights file.
pub struct Group {
    /// Name of the constant in `weights.rs`.
    pub name: &'static str,
    /// Doc comment written above the constant (one line).
    pub doc: &'static str,
    /// The breakdown row of the `eval` command this table counts towards.
    pub term: Term,
    /// Index of the table's first weight in [`WEIGHTS`].
    pub offset: usize,
    /// The weights themselves.
    pub weights: &'static [Score],
    /// Whether the constant is a single pair rather than an array.
    pub scalar: bool,
}

// First index of each table. Each offset is the previous one plus the previous table's
// length, so lengths can never be miscounted; a compile-time check below makes sure
// `GROUPS` lists the tables in this same order.
/// Where `weights::MATERIAL` starts.
pub const MATERIAL: usize = 0;
/// Piece-square tables, one per role from pawn to king, 64 squares each.
pub const PST: usize = MATERIAL + w::MATERIAL.len();
const KNIGHT_PST: usize = PST + 64;
const BISHOP_PST: usize = KNIGHT_PST + 64;
const ROOK_PST: usize = BISHOP_PST + 64;
const QUEEN_PST: usize = ROOK_PST + 64;
const KING_PST: usize = QUEEN_PST + 64;
/// Where `weights::KNIGHT_MOBILITY` starts.
pub const KNIGHT_MOBILITY: usize = KING_PST + 64;
/// Where `weights::BISHOP_MOBILITY` starts.
pub const BISHOP_MOBILITY: usize = KNIGHT_MOBILITY + w::KNIGHT_MOBILITY.len();
/// Where `weights::ROOK_MOBILITY` starts.
pub const ROOK_MOBILITY: usize = BISHOP_MOBILITY + w::BISHOP_MOBILITY.len();
/// Where `weights::QUEEN_MOBILITY` starts.
pub const QUEEN_MOBILITY: usize = ROOK_MOBILITY + w::ROOK_MOBILITY.len();
/// Where `weights::DOUBLED_PAWN` starts.
pub const DOUBLED_PAWN: usize = QUEEN_MOBILITY + w::QUEEN_MOBILITY.len();
/// Where `weights::ISOLATED_PAWN` starts.
pub const ISOLATED_PAWN: usize = DOUBLED_PAWN + 1;
/// Where `weights::BACKWARD_PAWN` starts.
pub const BACKWARD_PAWN: usize = ISOLATED_PAWN + 1;
/// Where `weights::PAWN_PHALANX` starts.
pub const PAWN_PHALANX: usize = BACKWARD_PAWN + 1;
/// Where `weights::PAWN_SUPPORTED` starts.
pub const PAWN_SUPPORTED: usize = PAWN_PHALANX + w::PAWN_PHALANX.len();
/// Where `weights::PASSED_PAWN` starts.
pub const PASSED_PAWN: usize = PAWN_SUPPORTED + w::PAWN_SUPPORTED.len();
/// Where `weights::PASSED_FREE_PATH` starts.
pub const PASSED_FREE_PATH: usize = PASSED_PAWN + w::PASSED_PAWN.len();
/// Where `weights::PASSED_THEIR_KING` starts.
pub const PASSED_THEIR_KING: usize = PASSED_FREE_PATH + w::PASSED_FREE_PATH.len();
/// Where `weights::PASSED_OUR_KING` starts.
pub const PASSED_OUR_KING: usize = PASSED_THEIR_KING + w::PASSED_THEIR_KING.len();
/// Where `weights::PASSED_SAFE_PATH` starts.
pub const PASSED_SAFE_PATH: usize = PASSED_OUR_KING + w::PASSED_OUR_KING.len();
/// Where `weights::KING_SHIELD_NEAR` starts.
pub const KING_SHIELD_NEAR: usize = PASSED_SAFE_PATH + w::PASSED_SAFE_PATH.len();
/// Where `weights::KING_SHIELD_FAR` starts.
pub const KING_SHIELD_FAR: usize = KING_SHIELD_NEAR + 1;
/// Where `weights::KING_SHIELD_MISSING` starts.
pub const KING_SHIELD_MISSING: usize = KING_SHIELD_FAR + 1;
/// Where `weights::KING_OPEN_FILE` starts.
pub const KING_OPEN_FILE: usize = KING_SHIELD_MISSING + 1;
/// Where `weights::PAWN_STORM` starts.
pub const PAWN_STORM: usize = KING_OPEN_FILE + 1;
/// Where `weights::KING_PAWN_DISTANCE` starts.
pub const KING_PAWN_DISTANCE: usize = PAWN_STORM + w::PAWN_STORM.len();
/// Where `weights::BISHOP_PAIR` starts.
pub const BISHOP_PAIR: usize = KING_PAWN_DISTANCE + w::KING_PAWN_DISTANCE.len();
/// Where `weights::ROOK_OPEN_FILE` starts.
pub const ROOK_OPEN_FILE: usize = BISHOP_PAIR + 1;
/// Where `weights::ROOK_HALF_OPEN_FILE` starts.
pub const ROOK_HALF_OPEN_FILE: usize = ROOK_OPEN_FILE + 1;
/// Where `weights::ROOK_ON_SEVENTH` starts.
pub const ROOK_ON_SEVENTH: usize = ROOK_HALF_OPEN_FILE + 1;
/// Where `weights::KNIGHT_OUTPOST` starts.
pub const KNIGHT_OUTPOST: usize = ROOK_ON_SEVENTH + 1;
/// Where `weights::BISHOP_OUTPOST` starts.
pub const BISHOP_OUTPOST: usize = KNIGHT_OUTPOST + 1;
/// Where `weights::MINOR_BEHIND_PAWN` starts.
pub const MINOR_BEHIND_PAWN: usize = BISHOP_OUTPOST + 1;
/// Where `weights::BISHOP_PAWNS` starts.
pub const BISHOP_PAWNS: usize = MINOR_BEHIND_PAWN + 1;
/// Where `weights::BISHOP_RAMMED_PAWNS` starts.
pub const BISHOP_RAMMED_PAWNS: usize = BISHOP_PAWNS + 1;
/// Where `weights::THREAT_BY_PAWN` starts.
pub const THREAT_BY_PAWN: usize = BISHOP_RAMMED_PAWNS + 1;
/// Where `weights::THREAT_BY_MINOR` starts.
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + w::THREAT_BY_PAWN.len();
/// Where `weights::THREAT_BY_ROOK` starts.
pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + w::THREAT_BY_MINOR.len();
/// Where `weights::HANGING` starts.
pub const HANGING: usize = THREAT_BY_ROOK + w::THREAT_BY_ROOK.len();
/// Where `weights::THREAT_BY_PAWN_PUSH` starts.
pub const THREAT_BY_PAWN_PUSH: usize = HANGING + 1;
/// Where `weights::TEMPO` starts.
pub const TEMPO: usize = THREAT_BY_PAWN_PUSH + 1;
/// Number of linear features.
pub const COUNT: usize = TEMPO + 1;

const fn table(
    name: &'static str,
    doc: &'static str,
    term: Term,
    offset: usize,
    weights: &'static [Score],
) -> Group {
    Group {
        name,
        doc,
        term,
        offset,
        weights,
        scalar: false,
    }
}

const fn pair(
    name: &'static str,
    doc: &'static str,
    term: Term,
    offset: usize,
    weight: &'static Score,
) -> Group {
    Group {
        name,
        doc,
        term,
        offset,
        weights: std::slice::from_ref(weight),
        scalar: true,
    }
}

/// Every table of linear weights, in index order.
pub const GROUPS: [Group; 42] = [
    table(
        "MATERIAL",
        "Material per role: pawn, knight, bishop, rook, queen.",
        Term::Material,
        MATERIAL,
        &w::MATERIAL,
    ),
    table(
        "PAWN_PST",
        "Pawn by square from its own side (a1 first, h8 last; Black's squares are mirrored).",
        Term::Material,
        PST,
        &w::PAWN_PST,
    ),
    table(
        "KNIGHT_PST",
        "Knight by square from its own side.",
        Term::Material,
        KNIGHT_PST,
        &w::KNIGHT_PST,
    ),
    table(
        "BISHOP_PST",
        "Bishop by square from its own side.",
        Term::Material,
        BISHOP_PST,
        &w::BISHOP_PST,
    ),
    table(
        "ROOK_PST",
        "Rook by square from its own side.",
        Term::Material,
        ROOK_PST,
        &w::ROOK_PST,
    ),
    table(
        "QUEEN_PST",
        "Queen by square from its own side.",
        Term::Material,
        QUEEN_PST,
        &w::QUEEN_PST,
    ),
    table(
        "KING_PST",
        "King by square from its own side.",
        Term::Material,
        KING_PST,
        &w::KING_PST,
    ),
    table(
        "KNIGHT_MOBILITY",
        "Knight by number of safe squares attacked.",
        Term::Mobility,
        KNIGHT_MOBILITY,
        &w::KNIGHT_MOBILITY,
    ),
    table(
        "BISHOP_MOBILITY",
        "Bishop by number of safe squares attacked.",
        Term::Mobility,
        BISHOP_MOBILITY,
        &w::BISHOP_MOBILITY,
    ),
    table(
        "ROOK_MOBILITY",
        "Rook by number of safe squares attacked.",
        Term::Mobility,
        ROOK_MOBILITY,
        &w::ROOK_MOBILITY,
    ),
    table(
        "QUEEN_MOBILITY",
        "Queen by number of safe squares attacked.",
        Term::Mobility,
        QUEEN_MOBILITY,
        &w::QUEEN_MOBILITY,
    ),
    pair(
        "DOUBLED_PAWN",
        "A pawn with another pawn of its own colour in front of it on the same file.",
        Term::Pawns,
        DOUBLED_PAWN,
        &w::DOUBLED_PAWN,
    ),
    pair(
        "ISOLATED_PAWN",
        "A pawn with no pawns of its own colour on the adjacent files.",
        Term::Pawns,
        ISOLATED_PAWN,
        &w::ISOLATED_PAWN,
    ),
    pair(
        "BACKWARD_PAWN",
        "A pawn behind all its neighbours whose stop square an enemy pawn guards.",
        Term::Pawns,
        BACKWARD_PAWN,
        &w::BACKWARD_PAWN,
    ),
    table(
        "PAWN_PHALANX",
        "A pawn with an own pawn beside it on the same rank, by relative rank.",
        Term::Pawns,
        PAWN_PHALANX,
        &w::PAWN_PHALANX,
    ),
    table(
        "PAWN_SUPPORTED",
        "A pawn defended by an own pawn, by relative rank.",
        Term::Pawns,
        PAWN_SUPPORTED,
        &w::PAWN_SUPPORTED,
    ),
    table(
        "PASSED_PAWN",
        "Passed pawn by relative rank.",
        Term::PassedPawns,
        PASSED_PAWN,
        &w::PASSED_PAWN,
    ),
    table(
        "PASSED_FREE_PATH",
        "Passed pawn with no piece on the squares in front of it, by relative rank.",
        Term::PassedPawns,
        PASSED_FREE_PATH,
        &w::PASSED_FREE_PATH,
    ),
    table(
        "PASSED_THEIR_KING",
        "Per step from the enemy king to a passed pawn's stop square, by relative rank.",
        Term::PassedPawns,
        PASSED_THEIR_KING,
        &w::PASSED_THEIR_KING,
    ),
    table(
        "PASSED_OUR_KING",
        "Per step from our king to a passed pawn's stop square, by relative rank.",
        Term::PassedPawns,
        PASSED_OUR_KING,
        &w::PASSED_OUR_KING,
    ),
    table(
        "PASSED_SAFE_PATH",
        "Passed pawn whose squares to promotion no enemy piece occupies or attacks, by relative rank.",
        Term::PassedPawns,
        PASSED_SAFE_PATH,
        &w::PASSED_SAFE_PATH,
    ),
    pair(
        "KING_SHIELD_NEAR",
        "Own pawn directly in front of the king, on its file or an adjacent one.",
        Term::KingSafety,
        KING_SHIELD_NEAR,
        &w::KING_SHIELD_NEAR,
    ),
    pair(
        "KING_SHIELD_FAR",
        "Own pawn two squares in front of the king.",
        Term::KingSafety,
        KING_SHIELD_FAR,
        &w::KING_SHIELD_FAR,
    ),
    pair(
        "KING_SHIELD_MISSING",
        "A shield file with no own pawn within two squares in front of the king.",
        Term::KingSafety,
        KING_SHIELD_MISSING,
        &w::KING_SHIELD_MISSING,
    ),
    pair(
        "KING_OPEN_FILE",
        "A shield file with no pawns of either colour.",
        Term::KingSafety,
        KING_OPEN_FILE,
        &w::KING_OPEN_FILE,
    ),
    table(
        "PAWN_STORM",
        "Nearest enemy pawn on a shield file, by how many ranks it stands in front of the king.",
        Term::KingSafety,
        PAWN_STORM,
        &w::PAWN_STORM,
    ),
    table(
        "KING_PAWN_DISTANCE",
        "King by its distance in king steps to the nearest pawn of either colour (none: no count).",
        Term::KingSafety,
        KING_PAWN_DISTANCE,
        &w::KING_PAWN_DISTANCE,
    ),
    pair(
        "BISHOP_PAIR",
        "Bishops on both square colours.",
        Term::BishopPair,
        BISHOP_PAIR,
        &w::BISHOP_PAIR,
    ),
    pair(
        "ROOK_OPEN_FILE",
        "Rook on a file without pawns.",
        Term::Rooks,
        ROOK_OPEN_FILE,
        &w::ROOK_OPEN_FILE,
    ),
    pair(
        "ROOK_HALF_OPEN_FILE",
        "Rook on a file without own pawns but with enemy pawns.",
        Term::Rooks,
        ROOK_HALF_OPEN_FILE,
        &w::ROOK_HALF_OPEN_FILE,
    ),
    pair(
        "ROOK_ON_SEVENTH",
        "Rook on the seventh rank with the enemy king on the eighth or enemy pawns on the seventh.",
        Term::Rooks,
        ROOK_ON_SEVENTH,
        &w::ROOK_ON_SEVENTH,
    ),
    pair(
        "KNIGHT_OUTPOST",
        "Knight on relative rank 4 to 6, defended by a pawn, out of reach of enemy pawns.",
        Term::Minors,
        KNIGHT_OUTPOST,
        &w::KNIGHT_OUTPOST,
    ),
    pair(
        "BISHOP_OUTPOST",
        "Bishop on relative rank 4 to 6, defended by a pawn, out of reach of enemy pawns.",
        Term::Minors,
        BISHOP_OUTPOST,
        &w::BISHOP_OUTPOST,
    ),
    pair(
        "MINOR_BEHIND_PAWN",
        "Knight or bishop with a pawn (of either colour) directly in front of it.",
        Term::Minors,
        MINOR_BEHIND_PAWN,
        &w::MINOR_BEHIND_PAWN,
    ),
    pair(
        "BISHOP_PAWNS",
        "Per own pawn on the squares of a bishop's colour, for each bishop.",
        Term::Minors,
        BISHOP_PAWNS,
        &w::BISHOP_PAWNS,
    ),
    pair(
        "BISHOP_RAMMED_PAWNS",
        "Per own pawn on a bishop's colour blocked by an enemy pawn in front, for each bishop.",
        Term::Minors,
        BISHOP_RAMMED_PAWNS,
        &w::BISHOP_RAMMED_PAWNS,
    ),
    table(
        "THREAT_BY_PAWN",
        "Enemy piece attacked by a pawn, by its role: knight, bishop, rook, queen.",
        Term::Threats,
        THREAT_BY_PAWN,
        &w::THREAT_BY_PAWN,
    ),
    table(
        "THREAT_BY_MINOR",
        "Enemy piece attacked by a knight or bishop, by its role: pawn to queen.",
        Term::Threats,
        THREAT_BY_MINOR,
        &w::THREAT_BY_MINOR,
    ),
    table(
        "THREAT_BY_ROOK",
        "Enemy piece attacked by a rook, by its role: pawn to queen.",
        Term::Threats,
        THREAT_BY_ROOK,
        &w::THREAT_BY_ROOK,
    ),
    pair(
        "HANGING",
        "Enemy piece (not pawn or king) attacked and not defended at all.",
        Term::Threats,
        HANGING,
        &w::HANGING,
    ),
    pair(
        "THREAT_BY_PAWN_PUSH",
        "Enemy piece (not pawn or king) a pawn would attack after a safe push.",
        Term::Threats,
        THREAT_BY_PAWN_PUSH,
        &w::THREAT_BY_PAWN_PUSH,
    ),
    pair(
        "TEMPO",
        "Bonus for the side to move.",
        Term::Tempo,
        TEMPO,
        &w::TEMPO,
    ),
];

/// `GROUPS` lists the tables contiguously, in offset order, and covers every feature.
const fn groups_are_contiguous() -> bool {
    let mut next = 0;
    let mut i = 0;
    while i < GROUPS.len() {
        if GROUPS[i].offset != next {
            return false;
        }
        next += GROUPS[i].weights.len();
        i += 1;
    }
    next == COUNT
}
const _: () = assert!(groups_are_contiguous());

const fn flatten() -> [Score; COUNT] {
    let mut out = [Score::ZERO; COUNT];
    let mut g = 0;
    while g < GROUPS.len() {
        let group = &GROUPS[g];
        let mut i = 0;
        while i < group.weights.len() {
            out[group.offset + i] = group.weights[i];
            i += 1;
        }
        g += 1;
    }
    out
}

/// Every linear weight, indexed by feature.
pub const WEIGHTS: [Score; COUNT] = flatten();

/// The table a feature belongs to.
pub fn group_of(feature: usize) -> &'static Group {
    let g = GROUPS.partition_point(|g| g.offset <= feature);
    &GROUPS[g - 1]
}
