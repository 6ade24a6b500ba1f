//! Hand-crafted, tapered static evaluation.
//!
//! Every term is a pair of scores, one for the middlegame (mg) and one for the endgame
//! (eg). The two sums are blended by a game phase computed from the non-pawn material on
//! the board (knight = bishop = 1, rook = 2, queen = 4; 24 = all pieces on, 0 = pawn
//! endgame). Each term is written once for a [`Color`] and mirrored for Black through
//! relative squares and ranks, so the evaluation is colour symmetric by construction.
//!
//! Terms: material and piece-square tables, mobility, pawn structure (doubled, isolated,
//! backward), passed pawns (rank, free path, king proximity), king safety (pawn shield
//! and weighted attacks on the king zone), bishop pair, rooks on open and half-open files,
//! and a tempo bonus for the side to move.
//!
//! [`evaluate`] and [`trace`] share a single code path: the evaluation is generic over a
//! `Tracer` that is told about every term. [`evaluate`] uses a no-op tracer (no allocation,
//! no formatting); [`trace`] records the breakdown into an [`EvalTrace`].

use std::fmt;
use std::ops::{Add, AddAssign, Neg, Sub};

use shakmaty::{Bitboard, Chess, Color, Position, Role, Square, attacks};

// ---------------------------------------------------------------------------------------
// Parameters. Pairs are (middlegame, endgame) in centipawns.
// ---------------------------------------------------------------------------------------

/// Game-phase weight per role (pawn, knight, bishop, rook, queen, king).
pub const PHASE_WEIGHTS: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// Game phase with all pieces on the board; the phase is clamped to this value.
pub const MAX_PHASE: i32 = 24;

/// Material values per role (pawn, knight, bishop, rook, queen, king).
pub const MATERIAL: [(i32, i32); 6] = [
    (100, 120),
    (320, 300),
    (330, 320),
    (480, 530),
    (950, 980),
    (0, 0),
];

// Piece-square parameters. Tables are generated from these at compile time. `CENTRE_*`
// arrays are indexed by the centrality of a file or rank (0 = edge, 3 = centre) and
// applied once for the file and once for the rank; `*_RANK` arrays by relative rank
// (0 = own back rank); `*_FILE` arrays by file (0 = a-file).

/// Pawn advancement by relative rank.
const PAWN_RANK: [(i32, i32); 8] = [
    (0, 0),
    (0, 0),
    (0, -4),
    (4, 0),
    (10, 6),
    (20, 14),
    (35, 24),
    (0, 0),
];
/// Bonus for central pawns that have left their starting square (3rd to 5th rank).
const PAWN_CENTRE_FILE: [(i32, i32); 8] = [
    (0, 0),
    (0, 0),
    (4, 0),
    (12, 0),
    (12, 0),
    (4, 0),
    (0, 0),
    (0, 0),
];
/// Knight centralisation, per axis.
const CENTRE_KNIGHT: [(i32, i32); 4] = [(-15, -18), (-4, -5), (4, 4), (8, 9)];
/// Knights like to be developed and advanced, but not stranded on the last rank.
const KNIGHT_RANK: [(i32, i32); 8] = [
    (-6, 0),
    (0, 0),
    (2, 0),
    (6, 2),
    (10, 4),
    (12, 4),
    (6, 0),
    (-5, -4),
];
/// Bishop centralisation, per axis.
const CENTRE_BISHOP: [(i32, i32); 4] = [(-8, -10), (-2, -3), (3, 3), (6, 6)];
/// Undeveloped bishops on the back rank are penalised.
const BISHOP_RANK: [(i32, i32); 8] = [
    (-8, 0),
    (2, 0),
    (4, 0),
    (4, 0),
    (4, 0),
    (2, 0),
    (0, 0),
    (-4, 0),
];
/// Bishop on one of the two long diagonals.
const BISHOP_LONG_DIAGONAL: (i32, i32) = (8, 4);
/// Rooks prefer central files (for the middlegame).
const ROOK_FILE: [(i32, i32); 8] = [
    (-4, 0),
    (-2, 0),
    (2, 0),
    (5, 0),
    (5, 0),
    (2, 0),
    (-2, 0),
    (-4, 0),
];
/// Rooks on the 7th rank attack pawns and confine the king.
const ROOK_RANK: [(i32, i32); 8] = [
    (0, -2),
    (-2, -2),
    (-4, -2),
    (-4, 0),
    (-2, 2),
    (2, 4),
    (16, 12),
    (8, 6),
];
/// Queen centralisation, per axis (mostly an endgame matter).
const CENTRE_QUEEN: [(i32, i32); 4] = [(-4, -10), (0, -2), (2, 4), (3, 8)];
/// Early queen excursions are mildly discouraged.
const QUEEN_RANK: [(i32, i32); 8] = [
    (0, -6),
    (2, -2),
    (1, 0),
    (0, 2),
    (0, 4),
    (-2, 4),
    (-4, 2),
    (-6, 0),
];
/// Middlegame king: safest in a corner, behind its pawns.
const KING_FILE: [(i32, i32); 8] = [
    (18, 0),
    (26, 0),
    (8, 0),
    (-10, 0),
    (-10, 0),
    (8, 0),
    (26, 0),
    (18, 0),
];
/// Middlegame king: every step off the back rank costs.
const KING_RANK: [(i32, i32); 8] = [
    (0, 0),
    (-18, 0),
    (-40, 0),
    (-55, 0),
    (-65, 0),
    (-70, 0),
    (-70, 0),
    (-70, 0),
];
/// Endgame king centralisation, per axis.
const CENTRE_KING: [(i32, i32); 4] = [(0, -28), (0, -8), (0, 6), (0, 14)];

/// Mobility of a knight by number of safe squares attacked.
pub const KNIGHT_MOBILITY: [(i32, i32); 9] = [
    (-28, -32),
    (-16, -22),
    (-6, -10),
    (0, -2),
    (4, 4),
    (8, 8),
    (12, 11),
    (15, 13),
    (17, 14),
];
/// Mobility of a bishop by number of safe squares attacked.
pub const BISHOP_MOBILITY: [(i32, i32); 14] = [
    (-25, -35),
    (-15, -22),
    (-6, -12),
    (0, -4),
    (4, 2),
    (8, 7),
    (11, 11),
    (14, 14),
    (16, 17),
    (18, 19),
    (20, 21),
    (22, 22),
    (23, 23),
    (24, 24),
];
/// Mobility of a rook by number of safe squares attacked.
pub const ROOK_MOBILITY: [(i32, i32); 15] = [
    (-20, -40),
    (-13, -28),
    (-8, -18),
    (-4, -10),
    (-1, -4),
    (1, 2),
    (3, 7),
    (5, 12),
    (7, 16),
    (9, 20),
    (10, 23),
    (11, 26),
    (12, 28),
    (13, 30),
    (14, 31),
];
/// Mobility of a queen by number of safe squares attacked.
pub const QUEEN_MOBILITY: [(i32, i32); 28] = [
    (-15, -30),
    (-11, -24),
    (-8, -18),
    (-6, -13),
    (-4, -9),
    (-2, -6),
    (-1, -3),
    (0, 0),
    (1, 2),
    (2, 4),
    (3, 6),
    (4, 8),
    (5, 10),
    (6, 12),
    (7, 14),
    (8, 16),
    (9, 18),
    (10, 19),
    (10, 20),
    (11, 21),
    (11, 22),
    (12, 23),
    (12, 24),
    (13, 25),
    (13, 25),
    (14, 26),
    (14, 26),
    (15, 27),
];

/// A pawn with another pawn of its own colour in front of it on the same file.
pub const DOUBLED_PAWN: (i32, i32) = (-8, -18);
/// A pawn with no pawns of its own colour on the adjacent files.
pub const ISOLATED_PAWN: (i32, i32) = (-10, -14);
/// A pawn whose neighbours have all advanced past it and whose stop square is guarded
/// by an enemy pawn.
pub const BACKWARD_PAWN: (i32, i32) = (-6, -10);
/// Passed pawn by relative rank.
pub const PASSED_PAWN: [(i32, i32); 8] = [
    (0, 0),
    (2, 8),
    (4, 12),
    (10, 22),
    (22, 40),
    (40, 70),
    (65, 110),
    (0, 0),
];
/// Extra for a passed pawn with no piece at all on the squares in front of it.
pub const PASSED_FREE_PATH: [(i32, i32); 8] = [
    (0, 0),
    (0, 2),
    (0, 4),
    (2, 8),
    (5, 14),
    (10, 24),
    (15, 38),
    (0, 0),
];
/// How much king distances to a passed pawn's stop square matter, by relative rank.
pub const PASSED_KING_RANK_WEIGHT: [i32; 8] = [0, 0, 0, 1, 2, 3, 4, 0];
/// Endgame bonus per step the enemy king is away from the stop square (times weight).
pub const PASSED_THEIR_KING_DISTANCE: i32 = 4;
/// Endgame penalty per step our king is away from the stop square (times weight).
pub const PASSED_OUR_KING_DISTANCE: i32 = 2;

/// Own pawn directly in front of the king (on the king's file or an adjacent one).
pub const KING_SHIELD_NEAR: (i32, i32) = (14, 0);
/// Own pawn two squares in front of the king.
pub const KING_SHIELD_FAR: (i32, i32) = (7, 0);
/// No own pawn within two squares in front of the king on a shield file.
pub const KING_SHIELD_MISSING: (i32, i32) = (-14, 0);
/// A shield file with no pawns of either colour.
pub const KING_OPEN_FILE: (i32, i32) = (-12, 0);
/// Weight of one attacked king-zone square, per attacking role.
pub const KING_ATTACK_WEIGHT: [i32; 6] = [0, 2, 2, 3, 5, 0];
/// Fewer attackers than this on the king zone count as no danger.
pub const KING_DANGER_MIN_ATTACKERS: i32 = 2;
/// Middlegame king danger penalty is `weight² / KING_DANGER_DIVISOR` ...
pub const KING_DANGER_DIVISOR: i32 = 4;
/// ... capped at this value ...
pub const KING_DANGER_MAX: i32 = 500;
/// ... and the endgame penalty is the middlegame one divided by this.
pub const KING_DANGER_EG_DIVISOR: i32 = 8;

/// Bishops on both square colours.
pub const BISHOP_PAIR: (i32, i32) = (28, 50);
/// Rook on a file without pawns.
pub const ROOK_OPEN_FILE: (i32, i32) = (24, 8);
/// Rook on a file without own pawns but with enemy pawns.
pub const ROOK_HALF_OPEN_FILE: (i32, i32) = (12, 6);
/// Bonus for the side to move.
pub const TEMPO: (i32, i32) = (18, 8);

// ---------------------------------------------------------------------------------------
// Precomputed tables.
// ---------------------------------------------------------------------------------------

const FILE_A: u64 = 0x0101_0101_0101_0101;

const fn file_mask(file: usize) -> u64 {
    FILE_A << file
}

const fn adjacent_files_mask(file: usize) -> u64 {
    let west = if file > 0 { file_mask(file - 1) } else { 0 };
    let east = if file < 7 { file_mask(file + 1) } else { 0 };
    west | east
}

/// All squares on ranks strictly in front of `rank` (absolute rank index) from the
/// point of view of the given colour (`white`).
const fn ranks_ahead(white: bool, rank: usize) -> u64 {
    if white {
        if rank >= 7 {
            0
        } else {
            !0u64 << (8 * (rank + 1))
        }
    } else if rank == 0 {
        0
    } else {
        !0u64 >> (64 - 8 * rank)
    }
}

/// Per-colour, per-square pawn masks: `[color as usize][square]`.
type ColorSquareMasks = [[u64; 64]; 2];

const fn build_masks(kind: u8) -> ColorSquareMasks {
    let mut out = [[0u64; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let white = c == Color::White as usize;
        let mut sq = 0;
        while sq < 64 {
            let (file, rank) = (sq % 8, sq / 8);
            let ahead = ranks_ahead(white, rank);
            out[c][sq] = match kind {
                // Same file, strictly ahead.
                0 => file_mask(file) & ahead,
                // Same and adjacent files, strictly ahead.
                1 => (file_mask(file) | adjacent_files_mask(file)) & ahead,
                // Adjacent files, same rank or behind.
                _ => adjacent_files_mask(file) & !ahead,
            };
            sq += 1;
        }
        c += 1;
    }
    out
}

/// Squares in front of a pawn on its file.
const FORWARD_FILE: ColorSquareMasks = build_masks(0);
/// Squares an enemy pawn must not occupy for a pawn to be passed.
const PASSED_SPAN: ColorSquareMasks = build_masks(1);
/// Squares from which own pawns could still support a pawn.
const SUPPORT_SPAN: ColorSquareMasks = build_masks(2);

const fn centrality(i: usize) -> usize {
    if i < 4 { i } else { 7 - i }
}

const fn pair_add(a: (i32, i32), b: (i32, i32)) -> (i32, i32) {
    (a.0 + b.0, a.1 + b.1)
}

/// Positional value (without material) of a role index on a square from White's view.
const fn pst_positional(role: usize, sq: usize) -> (i32, i32) {
    let (file, rank) = (sq % 8, sq / 8);
    let (cf, cr) = (centrality(file), centrality(rank));
    match role {
        0 => {
            if rank >= 2 && rank <= 4 {
                pair_add(PAWN_RANK[rank], PAWN_CENTRE_FILE[file])
            } else {
                PAWN_RANK[rank]
            }
        }
        1 => pair_add(
            pair_add(CENTRE_KNIGHT[cf], CENTRE_KNIGHT[cr]),
            KNIGHT_RANK[rank],
        ),
        2 => {
            let base = pair_add(
                pair_add(CENTRE_BISHOP[cf], CENTRE_BISHOP[cr]),
                BISHOP_RANK[rank],
            );
            if file == rank || file + rank == 7 {
                pair_add(base, BISHOP_LONG_DIAGONAL)
            } else {
                base
            }
        }
        3 => pair_add(ROOK_FILE[file], ROOK_RANK[rank]),
        4 => pair_add(
            pair_add(CENTRE_QUEEN[cf], CENTRE_QUEEN[cr]),
            QUEEN_RANK[rank],
        ),
        _ => pair_add(
            pair_add(KING_FILE[file], KING_RANK[rank]),
            pair_add(CENTRE_KING[cf], CENTRE_KING[cr]),
        ),
    }
}

const fn build_pst() -> [[(i32, i32); 64]; 6] {
    let mut out = [[(0, 0); 64]; 6];
    let mut role = 0;
    while role < 6 {
        let mut sq = 0;
        while sq < 64 {
            out[role][sq] = pair_add(MATERIAL[role], pst_positional(role, sq));
            sq += 1;
        }
        role += 1;
    }
    out
}

/// Material plus piece-square value, `[role as usize - 1][relative square]`, where the
/// relative square is the square itself for White and its vertical mirror for Black.
const PST: [[(i32, i32); 64]; 6] = build_pst();

// ---------------------------------------------------------------------------------------
// Scores, terms and tracing.
// ---------------------------------------------------------------------------------------

/// A (middlegame, endgame) score pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Score {
    mg: i32,
    eg: i32,
}

impl Score {
    const ZERO: Score = Score { mg: 0, eg: 0 };

    #[inline(always)]
    const fn of(pair: (i32, i32)) -> Score {
        Score {
            mg: pair.0,
            eg: pair.1,
        }
    }

    #[inline(always)]
    const fn times(self, n: i32) -> Score {
        Score {
            mg: self.mg * n,
            eg: self.eg * n,
        }
    }

    /// Blends mg and eg by `phase` (0..=MAX_PHASE). Division truncates toward zero, so
    /// `taper(-s) == -taper(s)`, which keeps the evaluation colour symmetric.
    #[inline(always)]
    const fn taper(self, phase: i32) -> i32 {
        (self.mg * phase + self.eg * (MAX_PHASE - phase)) / MAX_PHASE
    }
}

impl Add for Score {
    type Output = Score;
    #[inline(always)]
    fn add(self, o: Score) -> Score {
        Score {
            mg: self.mg + o.mg,
            eg: self.eg + o.eg,
        }
    }
}

impl AddAssign for Score {
    #[inline(always)]
    fn add_assign(&mut self, o: Score) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

impl Sub for Score {
    type Output = Score;
    #[inline(always)]
    fn sub(self, o: Score) -> Score {
        Score {
            mg: self.mg - o.mg,
            eg: self.eg - o.eg,
        }
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline(always)]
    fn neg(self) -> Score {
        Score {
            mg: -self.mg,
            eg: -self.eg,
        }
    }
}

/// The evaluation terms reported by [`trace`].
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
    /// Bonus for the side to move.
    Tempo,
}

impl Term {
    /// Number of terms.
    pub const COUNT: usize = 8;
    /// All terms, in display order.
    pub const ALL: [Term; Term::COUNT] = [
        Term::Material,
        Term::Mobility,
        Term::Pawns,
        Term::PassedPawns,
        Term::KingSafety,
        Term::BishopPair,
        Term::Rooks,
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
            Term::Tempo => "Tempo",
        }
    }
}

/// Receives every term the evaluation computes.
trait Tracer {
    fn record(&mut self, term: Term, color: Color, score: Score);
    fn phase(&mut self, phase: i32, turn: Color);
}

/// The tracer used by [`evaluate`]: records nothing.
struct NoTrace;

impl Tracer for NoTrace {
    #[inline(always)]
    fn record(&mut self, _: Term, _: Color, _: Score) {}
    #[inline(always)]
    fn phase(&mut self, _: i32, _: Color) {}
}

/// Per-colour running totals plus the tracer. Every score goes through [`Acc::add`], so
/// the totals and the trace cannot disagree.
struct Acc<'a, T: Tracer> {
    total: [Score; 2],
    tracer: &'a mut T,
}

impl<T: Tracer> Acc<'_, T> {
    #[inline(always)]
    fn add(&mut self, term: Term, color: Color, score: Score) {
        self.total[color as usize] += score;
        self.tracer.record(term, color, score);
    }
}

/// The evaluation broken into terms, as returned by [`trace`]. Its [`fmt::Display`]
/// prints a table for the UCI `eval` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalTrace {
    /// `[term as usize][color as usize]` = (mg, eg).
    terms: [[(i32, i32); 2]; Term::COUNT],
    phase: i32,
    turn: Color,
}

impl EvalTrace {
    /// The (middlegame, endgame) score of `term` for `color`, from that colour's view.
    pub fn term(&self, term: Term, color: Color) -> (i32, i32) {
        self.terms[term as usize][color as usize]
    }

    /// Game phase: [`MAX_PHASE`] with all pieces on the board, 0 in a pawn endgame.
    pub fn phase(&self) -> i32 {
        self.phase
    }

    /// The side to move of the traced position.
    pub fn turn(&self) -> Color {
        self.turn
    }

    fn net(&self) -> Score {
        let mut s = Score::ZERO;
        for t in &self.terms {
            s += Score::of(t[Color::White as usize]) - Score::of(t[Color::Black as usize]);
        }
        s
    }

    /// Tapered total from White's point of view, recomputed from the recorded terms.
    pub fn total_white(&self) -> i32 {
        self.net().taper(self.phase)
    }

    /// Tapered total from the side to move's point of view; equals [`evaluate`].
    pub fn total_side_to_move(&self) -> i32 {
        from_white_view(self.total_white(), self.turn)
    }
}

impl Tracer for EvalTrace {
    fn record(&mut self, term: Term, color: Color, score: Score) {
        let e = &mut self.terms[term as usize][color as usize];
        e.0 += score.mg;
        e.1 += score.eg;
    }

    fn phase(&mut self, phase: i32, turn: Color) {
        self.phase = phase;
        self.turn = turn;
    }
}

fn pawns_str(cp: i32) -> String {
    let sign = if cp < 0 { "-" } else { "+" };
    format!("{sign}{}.{:02}", cp.abs() / 100, cp.abs() % 100)
}

impl fmt::Display for EvalTrace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rule = "-------------------+---------------+---------------+---------------";
        writeln!(
            f,
            "{:<18} | {:^13} | {:^13} | {:^13}",
            "Term", "White", "Black", "Total"
        )?;
        writeln!(
            f,
            "{:<18} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}",
            "", "MG", "EG", "MG", "EG", "MG", "EG"
        )?;
        writeln!(f, "{rule}")?;
        let (mut w, mut b) = (Score::ZERO, Score::ZERO);
        for term in Term::ALL {
            let tw = Score::of(self.term(term, Color::White));
            let tb = Score::of(self.term(term, Color::Black));
            w += tw;
            b += tb;
            let net = tw - tb;
            writeln!(
                f,
                "{:<18} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}",
                term.name(),
                tw.mg,
                tw.eg,
                tb.mg,
                tb.eg,
                net.mg,
                net.eg
            )?;
        }
        writeln!(f, "{rule}")?;
        let net = w - b;
        writeln!(
            f,
            "{:<18} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}",
            "Total", w.mg, w.eg, b.mg, b.eg, net.mg, net.eg
        )?;
        writeln!(f)?;
        writeln!(
            f,
            "Game phase: {} / {} (24 = middlegame, 0 = endgame)",
            self.phase, MAX_PHASE
        )?;
        let white = self.total_white();
        writeln!(
            f,
            "Tapered total, White's view: {} cp ({})",
            white,
            pawns_str(white)
        )?;
        let stm = self.total_side_to_move();
        write!(
            f,
            "Tapered total, side to move ({}): {} cp ({})",
            if self.turn.is_white() {
                "White"
            } else {
                "Black"
            },
            stm,
            pawns_str(stm)
        )
    }
}

// ---------------------------------------------------------------------------------------
// Public entry points.
// ---------------------------------------------------------------------------------------

/// Static evaluation in centipawns from the side to move's point of view.
#[inline]
pub fn evaluate(pos: &Chess) -> i32 {
    eval_with(pos, &mut NoTrace)
}

/// The same evaluation as [`evaluate`], broken into terms (for the UCI `eval` command).
/// `trace(pos).total_side_to_move() == evaluate(pos)` always holds.
pub fn trace(pos: &Chess) -> EvalTrace {
    let mut t = EvalTrace {
        terms: [[(0, 0); 2]; Term::COUNT],
        phase: 0,
        turn: pos.turn(),
    };
    eval_with(pos, &mut t);
    t
}

// ---------------------------------------------------------------------------------------
// The evaluation.
// ---------------------------------------------------------------------------------------

#[inline(always)]
fn from_white_view(score: i32, turn: Color) -> i32 {
    if turn.is_white() { score } else { -score }
}

/// `sq` as seen from `color`'s side of the board (a1 = own queen-side corner).
#[inline(always)]
fn relative(sq: Square, color: Color) -> usize {
    if color.is_white() {
        sq.to_usize()
    } else {
        sq.flip_vertical().to_usize()
    }
}

#[inline(always)]
fn relative_rank(sq: Square, color: Color) -> usize {
    color.relative_rank(sq.rank()).to_usize()
}

/// One square towards the opponent, as a bitboard shift.
#[inline(always)]
const fn forward(color: Color) -> i32 {
    if color.is_white() { 8 } else { -8 }
}

/// All squares attacked by the pawns of `color` in `pawns`.
#[inline(always)]
fn pawn_attacks_bb(color: Color, pawns: Bitboard) -> Bitboard {
    const NOT_A: u64 = !FILE_A;
    const NOT_H: u64 = !(FILE_A << 7);
    let p = pawns.0;
    Bitboard(if color.is_white() {
        ((p & NOT_A) << 7) | ((p & NOT_H) << 9)
    } else {
        ((p & NOT_A) >> 9) | ((p & NOT_H) >> 7)
    })
}

/// What the evaluation of each side needs to know about the board.
struct Ctx {
    occupied: Bitboard,
    /// `[color as usize]`
    by_color: [Bitboard; 2],
    pawns: [Bitboard; 2],
    pawn_attacks: [Bitboard; 2],
    kings: [Option<Square>; 2],
    /// Squares around each king (plus the three in front of that ring).
    king_zone: [Bitboard; 2],
}

/// Attacks on one side's king zone, gathered while computing the other side's mobility.
#[derive(Default, Clone, Copy)]
struct KingAttack {
    attackers: i32,
    weight: i32,
}

#[inline(always)]
fn eval_with<T: Tracer>(pos: &Chess, tracer: &mut T) -> i32 {
    let board = pos.board();
    let turn = pos.turn();
    let by_color = [board.black(), board.white()];
    let pawns = [board.pawns() & by_color[0], board.pawns() & by_color[1]];
    let kings = [board.king_of(Color::Black), board.king_of(Color::White)];
    let zone = |c: Color| {
        kings[c as usize].map_or(Bitboard::EMPTY, |k| {
            let ring = attacks::king_attacks(k).with(k);
            ring | ring.shift(forward(c))
        })
    };
    let ctx = Ctx {
        occupied: board.occupied(),
        by_color,
        pawns,
        pawn_attacks: [
            pawn_attacks_bb(Color::Black, pawns[0]),
            pawn_attacks_bb(Color::White, pawns[1]),
        ],
        kings,
        king_zone: [zone(Color::Black), zone(Color::White)],
    };

    let mut acc = Acc {
        total: [Score::ZERO; 2],
        tracer,
    };
    // king_attack[c] = attacks on c's king zone.
    let mut king_attack = [KingAttack::default(); 2];

    for color in [Color::White, Color::Black] {
        acc.add(Term::Material, color, material_pst(board, color));
        let (mobility, rooks, attack) = pieces(board, &ctx, color);
        acc.add(Term::Mobility, color, mobility);
        acc.add(Term::Rooks, color, rooks);
        king_attack[(!color) as usize] = attack;
        let (structure, passed) = pawn_structure(&ctx, color);
        acc.add(Term::Pawns, color, structure);
        acc.add(Term::PassedPawns, color, passed);
        let bishops = board.bishops() & ctx.by_color[color as usize];
        if (bishops & Bitboard::LIGHT_SQUARES).any() && (bishops & Bitboard::DARK_SQUARES).any() {
            acc.add(Term::BishopPair, color, Score::of(BISHOP_PAIR));
        }
    }
    for color in [Color::White, Color::Black] {
        let safety = king_safety(&ctx, color, king_attack[color as usize]);
        acc.add(Term::KingSafety, color, safety);
    }
    acc.add(Term::Tempo, turn, Score::of(TEMPO));

    let phase = (board.knights().count() as i32 * PHASE_WEIGHTS[1]
        + board.bishops().count() as i32 * PHASE_WEIGHTS[2]
        + board.rooks().count() as i32 * PHASE_WEIGHTS[3]
        + board.queens().count() as i32 * PHASE_WEIGHTS[4])
        .min(MAX_PHASE);
    acc.tracer.phase(phase, turn);

    let net = acc.total[Color::White as usize] - acc.total[Color::Black as usize];
    from_white_view(net.taper(phase), turn)
}

/// Material and piece-square tables.
#[inline(always)]
fn material_pst(board: &shakmaty::Board, color: Color) -> Score {
    let mut s = Score::ZERO;
    for role in Role::ALL {
        let table = &PST[role as usize - 1];
        for sq in board.by_piece(role.of(color)) {
            s += Score::of(table[relative(sq, color)]);
        }
    }
    s
}

/// Mobility and rook files for `color`'s pieces, and the attacks they make on the
/// enemy king zone.
#[inline(always)]
fn pieces(board: &shakmaty::Board, ctx: &Ctx, color: Color) -> (Score, Score, KingAttack) {
    let us = color as usize;
    let them = (!color) as usize;
    let own = ctx.by_color[us];
    let area = !(own | ctx.pawn_attacks[them]);
    let enemy_zone = ctx.king_zone[them];
    let occ = ctx.occupied;

    let mut mobility = Score::ZERO;
    let mut rooks = Score::ZERO;
    let mut attack = KingAttack::default();

    let mut on_zone = |role: Role, att: Bitboard| {
        let hits = (att & enemy_zone).count() as i32;
        if hits > 0 {
            attack.attackers += 1;
            attack.weight += hits * KING_ATTACK_WEIGHT[role as usize - 1];
        }
    };

    for sq in board.knights() & own {
        let att = attacks::knight_attacks(sq);
        mobility += Score::of(KNIGHT_MOBILITY[(att & area).count()]);
        on_zone(Role::Knight, att);
    }
    for sq in board.bishops() & own {
        let att = attacks::bishop_attacks(sq, occ);
        mobility += Score::of(BISHOP_MOBILITY[(att & area).count()]);
        on_zone(Role::Bishop, att);
    }
    for sq in board.rooks() & own {
        let att = attacks::rook_attacks(sq, occ);
        mobility += Score::of(ROOK_MOBILITY[(att & area).count()]);
        on_zone(Role::Rook, att);
        let file = Bitboard::from_file(sq.file());
        if (file & ctx.pawns[us]).is_empty() {
            rooks += Score::of(if (file & ctx.pawns[them]).is_empty() {
                ROOK_OPEN_FILE
            } else {
                ROOK_HALF_OPEN_FILE
            });
        }
    }
    for sq in board.queens() & own {
        let att = attacks::queen_attacks(sq, occ);
        mobility += Score::of(QUEEN_MOBILITY[(att & area).count()]);
        on_zone(Role::Queen, att);
    }
    (mobility, rooks, attack)
}

/// Pawn structure (doubled, isolated, backward) and passed pawns for `color`.
#[inline(always)]
fn pawn_structure(ctx: &Ctx, color: Color) -> (Score, Score) {
    let us = color as usize;
    let them = (!color) as usize;
    let own = ctx.pawns[us];
    let enemy = ctx.pawns[them];
    let mut structure = Score::ZERO;
    let mut passed = Score::ZERO;

    for sq in own {
        let i = sq.to_usize();
        let rank = relative_rank(sq, color);
        let front = Bitboard(FORWARD_FILE[us][i]);
        let doubled = (own & front).any();
        if doubled {
            structure += Score::of(DOUBLED_PAWN);
        }
        let isolated = (own & Bitboard(adjacent_files_mask(sq.file().to_usize()))).is_empty();
        if isolated {
            structure += Score::of(ISOLATED_PAWN);
        } else if (own & Bitboard(SUPPORT_SPAN[us][i])).is_empty()
            && (Bitboard::from_square(sq).shift(forward(color)) & ctx.pawn_attacks[them]).any()
        {
            structure += Score::of(BACKWARD_PAWN);
        }

        // Passed: no enemy pawn ahead on this or adjacent files; only the front pawn of
        // a doubled pair counts.
        if !doubled && (enemy & Bitboard(PASSED_SPAN[us][i])).is_empty() {
            passed += Score::of(PASSED_PAWN[rank]);
            if (ctx.occupied & front).is_empty() {
                passed += Score::of(PASSED_FREE_PATH[rank]);
            }
            let weight = PASSED_KING_RANK_WEIGHT[rank];
            if weight > 0
                && let (Some(stop), Some(ours), Some(theirs)) =
                    (sq.offset(forward(color)), ctx.kings[us], ctx.kings[them])
            {
                let bonus = PASSED_THEIR_KING_DISTANCE * theirs.distance(stop) as i32
                    - PASSED_OUR_KING_DISTANCE * ours.distance(stop) as i32;
                passed += Score { mg: 0, eg: bonus }.times(weight);
            }
        }
    }
    (structure, passed)
}

/// Pawn shield and king-zone attacks for `color`'s king; `attack` is what the enemy
/// pieces do to its zone.
#[inline(always)]
fn king_safety(ctx: &Ctx, color: Color, attack: KingAttack) -> Score {
    let Some(king) = ctx.kings[color as usize] else {
        return Score::ZERO;
    };
    let own = ctx.pawns[color as usize];
    let all_pawns = own | ctx.pawns[(!color) as usize];
    let ahead = ranks_ahead(color.is_white(), king.rank().to_usize());
    let king_file = king.file().to_usize();
    let king_rank = relative_rank(king, color);

    let mut s = Score::ZERO;
    for file in king_file.saturating_sub(1)..=(king_file + 1).min(7) {
        let fm = file_mask(file);
        let shield = own & Bitboard(fm & ahead);
        let nearest = if color.is_white() {
            shield.first()
        } else {
            shield.last()
        };
        let distance = nearest.map_or(8, |p| relative_rank(p, color) - king_rank);
        s += Score::of(match distance {
            1 => KING_SHIELD_NEAR,
            2 => KING_SHIELD_FAR,
            _ => KING_SHIELD_MISSING,
        });
        if (all_pawns & Bitboard(fm)).is_empty() {
            s += Score::of(KING_OPEN_FILE);
        }
    }

    if attack.attackers >= KING_DANGER_MIN_ATTACKERS {
        let mg = (attack.weight * attack.weight / KING_DANGER_DIVISOR).min(KING_DANGER_MAX);
        s += -Score {
            mg,
            eg: mg / KING_DANGER_EG_DIVISOR,
        };
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, EnPassantMode, fen::Fen};

    fn from_fen(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("valid FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal position")
    }

    fn mirrored(pos: &Chess) -> Chess {
        pos.to_setup(EnPassantMode::Legal)
            .into_mirrored()
            .position::<Chess>(CastlingMode::Standard)
            .expect("mirror of a legal position is legal")
    }

    /// xorshift64*: deterministic, dependency-free.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    const FENS: [&str; 6] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "8/5pk1/6p1/3P4/8/1K6/8/8 b - - 0 50",
    ];

    /// A few thousand positions from seeded random playouts.
    fn sample_positions() -> Vec<Chess> {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut out = Vec::new();
        for fen in FENS {
            let start = from_fen(fen);
            for _ in 0..8 {
                let mut pos = start.clone();
                for _ in 0..100 {
                    out.push(pos.clone());
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[rng.below(moves.len())];
                    pos.play_unchecked(m);
                }
            }
        }
        out
    }

    #[test]
    fn eval_is_colour_symmetric() {
        let positions = sample_positions();
        assert!(positions.len() > 3000, "only {} positions", positions.len());
        for pos in &positions {
            let m = mirrored(pos);
            assert_eq!(
                evaluate(pos),
                evaluate(&m),
                "asymmetric: {}\n{}\nvs mirrored {}\n{}",
                Fen::from_position(pos, EnPassantMode::Legal),
                trace(pos),
                Fen::from_position(&m, EnPassantMode::Legal),
                trace(&m)
            );
        }
    }

    #[test]
    fn eval_trace_total_matches_evaluate() {
        for pos in sample_positions() {
            let t = trace(&pos);
            assert_eq!(t.total_side_to_move(), evaluate(&pos));
            assert_eq!(t.turn(), pos.turn());
            assert!((0..=MAX_PHASE).contains(&t.phase()));
        }
    }

    #[test]
    fn eval_trace_display_lists_every_term() {
        let text = trace(&Chess::default()).to_string();
        println!("{text}\n\n{}", trace(&from_fen(FENS[2])));
        for term in Term::ALL {
            assert!(text.contains(term.name()), "missing {}", term.name());
        }
        assert!(text.contains("Game phase: 24"));
        assert!(text.contains("side to move"));
    }

    #[test]
    fn eval_start_position_is_near_zero() {
        let e = evaluate(&Chess::default());
        assert!(e.abs() <= 30, "start position = {e}");
        assert!(e > 0, "tempo should favour the side to move, got {e}");
    }

    #[test]
    fn eval_queen_up_is_winning() {
        let white = from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(evaluate(&white) > 700, "{}", evaluate(&white));
        let black = from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        assert!(evaluate(&black) < -700, "{}", evaluate(&black));
    }

    #[test]
    fn eval_terms_point_the_right_way() {
        // An advanced, unopposed passed pawn beats a blocked one.
        let passer = trace(&from_fen("8/8/1P6/8/8/8/8/k6K w - - 0 1"));
        assert!(passer.term(Term::PassedPawns, Color::White).1 > 50);
        let blocked = trace(&from_fen("8/1p6/1P6/8/8/8/8/k6K w - - 0 1"));
        assert_eq!(blocked.term(Term::PassedPawns, Color::White), (0, 0));
        // Doubled isolated pawns are penalised.
        let doubled = trace(&from_fen("4k3/8/8/8/8/2P5/2P5/4K3 w - - 0 1"));
        assert!(doubled.term(Term::Pawns, Color::White).1 < 0);
        // A castled king behind its pawns is safer than one with no shield.
        let shielded = trace(&from_fen("6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1"));
        let bare = trace(&from_fen("6k1/5ppp/8/8/8/5PPP/8/6K1 w - - 0 1"));
        assert!(
            shielded.term(Term::KingSafety, Color::White).0
                > bare.term(Term::KingSafety, Color::White).0
        );
        // Heavy attacks on the king zone cost king safety.
        let quiet = trace(&from_fen("6k1/5ppp/8/8/8/8/5PPP/1Q1R2K1 w - - 0 1"));
        let storm = trace(&from_fen("6k1/5ppp/7Q/6N1/8/8/5PPP/6K1 w - - 0 1"));
        assert!(
            storm.term(Term::KingSafety, Color::Black).0
                < quiet.term(Term::KingSafety, Color::Black).0 - 20,
            "{storm}\n{quiet}"
        );
        // Bishop pair and rook on open file.
        let pair = trace(&from_fen("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1"));
        assert_eq!(pair.term(Term::BishopPair, Color::White), BISHOP_PAIR);
        let rook = trace(&from_fen("4k3/p7/8/8/8/8/1P6/R3K3 w - - 0 1"));
        assert_eq!(rook.term(Term::Rooks, Color::White), ROOK_HALF_OPEN_FILE);
    }

    #[test]
    fn eval_pawn_attack_sets_match_shakmaty() {
        for pos in sample_positions().iter().step_by(37) {
            for color in [Color::White, Color::Black] {
                let pawns = pos.board().by_piece(color.pawn());
                let mut expected = Bitboard::EMPTY;
                for sq in pawns {
                    expected |= attacks::pawn_attacks(color, sq);
                }
                assert_eq!(pawn_attacks_bb(color, pawns), expected);
            }
        }
    }

    #[test]
    fn eval_speed() {
        let positions = sample_positions();
        let rounds = 50;
        let start = std::time::Instant::now();
        let mut sum = 0i64;
        for _ in 0..rounds {
            for pos in &positions {
                sum += i64::from(evaluate(std::hint::black_box(pos)));
            }
        }
        let elapsed = start.elapsed();
        let calls = (rounds * positions.len()) as f64;
        println!(
            "evaluate: {} calls, {:.1} ns/call (checksum {sum})",
            calls,
            elapsed.as_nanos() as f64 / calls
        );
    }
}
