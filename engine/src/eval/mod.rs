//! Hand-crafted, tapered static evaluation, shaped for tuning.
//!
//! Every term is a (middlegame, endgame) weight times an integer count of a feature: how
//! many pawns are doubled, which square a knight stands on, how many safe squares a rook
//! attacks. The weights live apart from the code that counts, in the generated
//! [`weights`] file; [`features`] lays them out as one indexed list. The middlegame and
//! endgame sums are blended by a game phase computed from the non-pawn material on the
//! board (knight = bishop = 1, rook = 2, queen = 4; 24 = all pieces on, 0 = pawn endgame).
//! Each term is counted once for a [`Color`] and mirrored for Black through relative
//! squares and ranks, so the evaluation is colour symmetric by construction.
//!
//! By concern: [`material`] (material and piece-square tables), [`pawns`] (doubled,
//! isolated, backward, phalanx, supported and passed pawns, safe paths to promotion),
//! [`pieces`] (mobility, bishop pair, bishops' own pawns, rooks on open files, outposts,
//! and the attacks on the enemy king zone), [`threats`] (pieces attacked by weaker
//! pieces, hanging pieces, pawn-push threats), [`king`] (pawn shield, king danger, the
//! king's distance to the pawns); tempo is counted here. [`scaling`] then shrinks the endgame part in
//! material balances that are drawn more often than their score says.
//!
//! The modules import downwards only, each from those listed after it:
//! - this file: the entry points and [`EvalTrace`];
//! - [`pawn_table`]: the cache of [`pawns`]' structure and [`king`]'s shelter;
//! - the terms: [`material`], [`pawns`], [`pieces`], [`threats`], [`king`] (none imports
//!   another: what one gathers for the others lives in [`attacks`]);
//! - [`tracer`]: how a term reports a count;
//! - [`attacks`]: the board context and the attack maps the terms share;
//! - [`features`], then [`weights`]: the weights as one list and as the tuner wrote them;
//! - [`geometry`]: masks and squares seen from one side;
//! - [`tapered`]: the (middlegame, endgame) [`Score`] and the game phase;
//! - [`scaling`]: the endgame scale (it needs only the board).
//!
//! [`evaluate`] and [`trace`] share a single code path: the evaluation is generic over a
//! `Tracer` that is told every feature count. [`evaluate`] uses a no-op tracer (no
//! allocation, no formatting); [`trace`] records the counts into an [`EvalTrace`], which
//! replays them against the weights. King danger is the one nonlinear term (quadratic in
//! the attack units): the trace records its inputs and replays it with the same function.

mod attacks;
pub mod features;
mod geometry;
mod king;
mod material;
mod pawn_table;
mod pawns;
mod pieces;
pub mod scaling;
mod tapered;
mod threats;
mod tracer;
pub mod weights;

use std::fmt;

use shakmaty::{Chess, Color, Position};

pub use attacks::{KING_UNITS, KingAttack};
pub use features::Term;
pub use king::{
    KING_DANGER_DIVISOR, KING_DANGER_EG_DIVISOR, KING_DANGER_MAX, KING_DANGER_MIN_ATTACKERS,
};
pub use pawn_table::PawnTable;
pub use scaling::SCALE_NORMAL;
pub use tapered::{MAX_PHASE, PHASE_WEIGHTS, Score, s};

use attacks::{Attacks, Ctx};
use geometry::per_color;
use tracer::{Acc, NoTrace, Tracer};

// ---------------------------------------------------------------------------------------
// The trace.
// ---------------------------------------------------------------------------------------

/// The evaluation as feature counts, as returned by [`trace`]: enough to replay it with
/// any weights (the tuner does), and to print a breakdown by [`Term`] for the UCI `eval`
/// command through [`fmt::Display`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalTrace {
    /// `[feature][color as usize]` = how often the feature occurs for that colour.
    counts: Box<[[i32; 2]; features::COUNT]>,
    /// `[color as usize]` = the attacks on that colour's king zone.
    king_attacks: [KingAttack; 2],
    /// `[color as usize]` = the endgame scale when that colour is the one the endgame
    /// part favours.
    scales: [i32; 2],
    phase: i32,
    turn: Color,
}

impl EvalTrace {
    /// How often `feature` (an index into [`features::WEIGHTS`]) occurs for `color`.
    pub fn count(&self, feature: usize, color: Color) -> i32 {
        self.counts[feature][color as usize]
    }

    /// Every feature with a nonzero White-minus-Black count, in index order: the sparse
    /// form the tuner works with.
    pub fn net_counts(&self) -> impl Iterator<Item = (usize, i32)> + '_ {
        self.counts
            .iter()
            .enumerate()
            .map(|(i, c)| (i, c[Color::White as usize] - c[Color::Black as usize]))
            .filter(|&(_, n)| n != 0)
    }

    /// The attacks on `king`'s king zone, the input of the nonlinear king-danger term.
    pub fn king_attack(&self, king: Color) -> KingAttack {
        self.king_attacks[king as usize]
    }

    /// The endgame scale, out of [`SCALE_NORMAL`], when `strong` is the side the endgame
    /// part of the evaluation favours.
    pub fn scale(&self, strong: Color) -> i32 {
        self.scales[strong as usize]
    }

    /// Game phase: [`MAX_PHASE`] with all pieces on the board, 0 in a pawn endgame.
    pub fn phase(&self) -> i32 {
        self.phase
    }

    /// The side to move of the traced position.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The (middlegame, endgame) score of `term` for `color`, from that colour's view,
    /// replayed from the counts and the committed weights.
    pub fn term(&self, term: Term, color: Color) -> (i32, i32) {
        let mut s = Score::ZERO;
        for group in features::GROUPS.iter().filter(|g| g.term == term) {
            for (i, w) in group.weights.iter().enumerate() {
                s += w.times(self.count(group.offset + i, color));
            }
        }
        if term == Term::KingSafety {
            s += king::danger(self.king_attack(color), &weights::KING_ATTACK_WEIGHT);
        }
        (s.mg, s.eg)
    }

    fn net(&self) -> Score {
        let mut s = Score::ZERO;
        for term in Term::ALL {
            s += Score::from(self.term(term, Color::White))
                - Score::from(self.term(term, Color::Black));
        }
        s
    }

    /// Tapered total from White's point of view, replayed from the counts.
    pub fn total_white(&self) -> i32 {
        let net = self.net();
        net.taper(self.phase, self.scale(net.endgame_favours()))
    }

    /// Tapered total from the side to move's point of view; equals [`evaluate`].
    pub fn total_side_to_move(&self) -> i32 {
        from_white_view(self.total_white(), self.turn)
    }
}

impl Tracer for EvalTrace {
    fn count(&mut self, feature: usize, color: Color, n: i32) {
        self.counts[feature][color as usize] += n;
    }

    fn king_attack(&mut self, king: Color, attack: KingAttack) {
        self.king_attacks[king as usize] = attack;
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
            let tw = Score::from(self.term(term, Color::White));
            let tb = Score::from(self.term(term, Color::Black));
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
        writeln!(
            f,
            "Endgame scale: {} / {} (for the side the endgame part favours)",
            self.scale(net.endgame_favours()),
            SCALE_NORMAL
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
    eval_with(pos, &mut NoTrace, None)
}

/// [`evaluate`], with the pawn-structure terms kept in (and read from) `pawn_table`: the
/// same score, in less time when the table holds the position's pawn structure.
#[inline]
pub fn evaluate_cached(pos: &Chess, pawn_table: &mut PawnTable) -> i32 {
    eval_with(pos, &mut NoTrace, Some(pawn_table))
}

/// The same evaluation as [`evaluate`], as feature counts (for the UCI `eval` command and
/// the tuner). `trace(pos).total_side_to_move() == evaluate(pos)` always holds.
pub fn trace(pos: &Chess) -> EvalTrace {
    let mut t = EvalTrace {
        counts: Box::new([[0; 2]; features::COUNT]),
        king_attacks: [KingAttack::default(); 2],
        scales: [Color::Black, Color::White].map(|c| scaling::scale(pos.board(), c)),
        phase: 0,
        turn: pos.turn(),
    };
    eval_with(pos, &mut t, None);
    t
}

/// A score from White's view as seen by `turn`.
#[inline(always)]
fn from_white_view(score: i32, turn: Color) -> i32 {
    if turn.is_white() { score } else { -score }
}

// ---------------------------------------------------------------------------------------
// The evaluation.
// ---------------------------------------------------------------------------------------

#[inline(always)]
fn eval_with<T: Tracer>(pos: &Chess, tracer: &mut T, pawn_table: Option<&mut PawnTable>) -> i32 {
    let board = pos.board();
    let turn = pos.turn();
    let ctx = Ctx::new(board);

    let mut acc = Acc::new(tracer);
    // king_attack[c] = attacks on c's king zone; attacks[c] = squares c attacks.
    let mut king_attack = [KingAttack::default(); 2];
    let mut attacks = [Attacks::default(); 2];
    let passed = match pawn_table {
        Some(table) => table.structure(&ctx, crate::board::pawn_key(board), &mut acc.net),
        None => per_color(
            #[inline(always)]
            |c| {
                king::king_shelter(&ctx, c, &mut acc);
                pawns::pawn_structure(&ctx, c, &mut acc)
            },
        ),
    };

    per_color(
        #[inline(always)]
        |color| {
            material::material_pst(board, color, &mut acc);
            let (attack, by_pieces) = pieces::pieces(board, &ctx, color, &mut acc);
            king_attack[(!color) as usize] = attack;
            attacks[color as usize] = by_pieces;
            pieces::bishop_pair(board, &ctx, color, &mut acc);
            pieces::minors_behind_pawns(board, &ctx, color, &mut acc);
        },
    );
    per_color(
        #[inline(always)]
        |color| {
            king::king_danger(&ctx, color, king_attack[color as usize], &attacks, &mut acc);
            threats::threats(board, &ctx, color, &attacks, &mut acc);
            pawns::passed_pawns(&ctx, color, passed[color as usize], &attacks, &mut acc);
        },
    );
    acc.add(features::TEMPO, turn, 1);

    let phase = (board.knights().count() as i32 * PHASE_WEIGHTS[1]
        + board.bishops().count() as i32 * PHASE_WEIGHTS[2]
        + board.rooks().count() as i32 * PHASE_WEIGHTS[3]
        + board.queens().count() as i32 * PHASE_WEIGHTS[4])
        .min(MAX_PHASE);
    acc.tracer.phase(phase, turn);

    let net = acc.net;
    let scale = scaling::scale(board, net.endgame_favours());
    from_white_view(net.taper(phase, scale), turn)
}

#[cfg(test)]
mod tests {
    use super::geometry::pawn_attacks_bb;
    use super::*;
    use shakmaty::{Bitboard, CastlingMode, EnPassantMode, attacks, fen::Fen};

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
    pub(crate) fn sample_positions() -> Vec<Chess> {
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
    fn pawn_table_changes_no_score() {
        // Thousands of structures in 8192 slots: entries are filled, hit and overwritten.
        let positions = sample_positions();
        let mut table = PawnTable::default();
        for pos in positions.iter().chain(positions.iter().rev()) {
            assert_eq!(
                evaluate_cached(pos, &mut table),
                evaluate(pos),
                "{}",
                Fen::from_position(pos, EnPassantMode::Legal)
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
        let w = weights::BISHOP_PAIR;
        assert_eq!(pair.term(Term::BishopPair, Color::White), (w.mg, w.eg));
        assert_eq!(pair.count(features::BISHOP_PAIR, Color::White), 1);
        let rook = trace(&from_fen("4k3/p7/8/8/8/8/1P6/R3K3 w - - 0 1"));
        let w = weights::ROOK_HALF_OPEN_FILE;
        assert_eq!(rook.term(Term::Rooks, Color::White), (w.mg, w.eg));
        assert_eq!(rook.count(features::ROOK_HALF_OPEN_FILE, Color::White), 1);
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

    /// Every position of the repository's tactical EPD suites.
    fn epd_positions() -> Vec<Chess> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../epd/public/tactical");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .expect("epd/public/tactical")
            .map(|e| e.expect("directory entry").path())
            .collect();
        files.sort();
        let mut out = Vec::new();
        for file in files {
            let text = std::fs::read_to_string(&file).expect("readable EPD");
            for line in text.lines().map(str::trim) {
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                // One record of Zugzwang-Allgeuer.epd wraps onto a second line: that
                // continuation is no FEN and is skipped (the count below says so).
                let fields: Vec<&str> = line.split_whitespace().take(4).collect();
                if let Ok(fen) = format!("{} 0 1", fields.join(" ")).parse::<Fen>() {
                    let pos = crate::board::position_from_fen(fen, CastlingMode::Standard, true);
                    out.push(pos.expect("legal EPD position"));
                }
            }
        }
        out
    }

    /// The tuner's replay: the tapered sum of weight × White-minus-Black count over the
    /// sparse features, plus king danger from the recorded attacks.
    fn replay(t: &EvalTrace) -> i32 {
        let mut net = Score::ZERO;
        for (feature, n) in t.net_counts() {
            net += features::WEIGHTS[feature].times(n);
        }
        for (color, sign) in [(Color::White, 1), (Color::Black, -1)] {
            net += king::danger(t.king_attack(color), &weights::KING_ATTACK_WEIGHT).times(sign);
        }
        from_white_view(
            net.taper(t.phase(), t.scale(net.endgame_favours())),
            t.turn(),
        )
    }

    #[test]
    fn eval_equals_trace_replay_on_epd_positions() {
        let positions = epd_positions();
        assert_eq!(positions.len(), 426);
        let (mut dangerous, mut scaled) = (0, 0);
        for pos in positions.iter().chain(&sample_positions()) {
            let t = trace(pos);
            assert_eq!(
                replay(&t),
                evaluate(pos),
                "{}",
                Fen::from_position(pos, EnPassantMode::Legal)
            );
            if t.king_attack(Color::White).attackers >= KING_DANGER_MIN_ATTACKERS
                || t.king_attack(Color::Black).attackers >= KING_DANGER_MIN_ATTACKERS
            {
                dangerous += 1;
            }
            if t.scale(Color::White) != SCALE_NORMAL || t.scale(Color::Black) != SCALE_NORMAL {
                scaled += 1;
            }
        }
        println!("{dangerous} positions with king danger, {scaled} with an endgame scale");
        // Both the nonlinear term and the endgame scale are exercised, not just the
        // linear terms (the counts it has printed: docs/testing.md).
        assert!(
            dangerous > 100,
            "only {dangerous} positions with king danger"
        );
        assert!(
            scaled > 100,
            "only {scaled} positions with an endgame scale"
        );
    }

    #[test]
    fn eval_new_terms_count_what_they_say() {
        let count =
            |fen: &str, feature: usize, color: Color| trace(&from_fen(fen)).count(feature, color);
        use Color::{Black, White};
        // A pawn attacks an undefended knight: a pawn threat on a knight, and a hanging piece.
        let fork = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1";
        assert_eq!(count(fork, features::THREAT_BY_PAWN, White), 1);
        assert_eq!(count(fork, features::HANGING, White), 1);
        assert_eq!(count(fork, features::HANGING, Black), 0);
        // Rook and queen attack each other, neither defended.
        let rooks = "4k3/8/8/8/q7/8/8/R3K3 w - - 0 1";
        assert_eq!(count(rooks, features::THREAT_BY_ROOK + 4, White), 1);
        assert_eq!(count(rooks, features::HANGING, White), 1);
        assert_eq!(count(rooks, features::HANGING, Black), 1);
        // Side by side on the fourth rank (relative rank index 3): both pawns count.
        let phalanx = "4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1";
        assert_eq!(count(phalanx, features::PAWN_PHALANX + 3, White), 2);
        assert_eq!(count(phalanx, features::PAWN_SUPPORTED + 3, White), 0);
        let chain = "4k3/8/8/8/4P3/3P4/8/4K3 w - - 0 1";
        assert_eq!(count(chain, features::PAWN_SUPPORTED + 3, White), 1);
        assert_eq!(count(chain, features::PAWN_PHALANX + 3, White), 0);
        // A pawn on a4 and one on h3 are not beside each other across the board edge.
        let edges = "4k3/8/8/8/P7/7P/8/4K3 w - - 0 1";
        assert_eq!(count(edges, features::PAWN_PHALANX + 3, White), 0);
        // A defended knight on d5 is an outpost until a black c-pawn could chase it.
        let outpost = "4k3/8/8/3N4/4P3/8/8/4K3 w - - 0 1";
        assert_eq!(count(outpost, features::KNIGHT_OUTPOST, White), 1);
        let chased = "4k3/2p5/8/3N4/4P3/8/8/4K3 w - - 0 1";
        assert_eq!(count(chased, features::KNIGHT_OUTPOST, White), 0);
        let black = "4k3/8/4p3/3b4/8/8/8/4K3 b - - 0 1";
        assert_eq!(count(black, features::BISHOP_OUTPOST, Black), 1);
        // A knight behind its own pawn, a bishop behind an enemy one.
        let behind = "4k3/8/8/3p4/3B4/8/4P3/4NK2 w - - 0 1";
        assert_eq!(count(behind, features::MINOR_BEHIND_PAWN, White), 2);
        // A rook on the seventh counts with the enemy king on the eighth or a pawn
        // beside it; the same for Black's rook on its seventh (rank 2).
        let seventh = |fen: &str, color: Color| count(fen, features::ROOK_ON_SEVENTH, color);
        assert_eq!(seventh("4k3/R7/8/8/8/8/8/4K3 w - - 0 1", White), 1);
        assert_eq!(seventh("8/R7/4k3/8/8/8/8/4K3 w - - 0 1", White), 0);
        assert_eq!(seventh("8/R5p1/4k3/8/8/8/8/4K3 w - - 0 1", White), 1);
        assert_eq!(seventh("4k3/8/8/8/8/4K3/r7/8 w - - 0 1", Black), 0);
        assert_eq!(seventh("4k3/8/8/8/8/4K3/r5P1/8 w - - 0 1", Black), 1);
        assert_eq!(seventh("4k3/8/8/8/8/8/r7/4K3 w - - 0 1", Black), 1);
        // Bishops and their own pawns: the c1 bishop shares its dark squares with d2,
        // and with e3, which a black pawn on e4 rams; the light f1 bishop with none.
        let bishops = "4k3/8/8/8/4p3/4P3/3P4/2B1KB2 w - - 0 1";
        assert_eq!(count(bishops, features::BISHOP_PAWNS, White), 2);
        assert_eq!(count(bishops, features::BISHOP_RAMMED_PAWNS, White), 1);
        // Black's light c8 bishop: d7 and e6, which White's e5 rams.
        let black_bishop = "2b1k3/3p4/4p3/4P3/8/8/8/4K3 b - - 0 1";
        assert_eq!(count(black_bishop, features::BISHOP_PAWNS, Black), 2);
        assert_eq!(count(black_bishop, features::BISHOP_RAMMED_PAWNS, Black), 1);
        // The king's distance to the nearest pawn of either colour: e1 to e3 is two, e8 to
        // e3 five; no pawns, no count.
        let kings = "4k3/8/8/8/8/4P3/8/4K3 w - - 0 1";
        assert_eq!(count(kings, features::KING_PAWN_DISTANCE + 2, White), 1);
        assert_eq!(count(kings, features::KING_PAWN_DISTANCE + 5, Black), 1);
        let bare = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
        assert!((0..8).all(|d| count(bare, features::KING_PAWN_DISTANCE + d, White) == 0));
        // d2-d4 would fork the c5 knight and the e5 rook; d3, which the knight attacks
        // and nothing of White's defends, counts for nothing.
        let push = "4k3/8/8/2n1r3/8/8/3P4/4K3 w - - 0 1";
        assert_eq!(count(push, features::THREAT_BY_PAWN_PUSH, White), 2);
        // A black pawn on e5 guards d4: no safe push attacks the knight.
        let guarded = "4k3/8/8/2n1p3/8/8/3P4/4K3 w - - 0 1";
        assert_eq!(count(guarded, features::THREAT_BY_PAWN_PUSH, White), 0);
        // A passed pawn on b6 (relative rank index 5) with b7 and b8 unguarded; then with
        // the black king on a8, which guards both.
        let safe = |fen: &str| count(fen, features::PASSED_SAFE_PATH + 5, White);
        assert_eq!(safe("8/8/1P6/8/8/8/8/k6K w - - 0 1"), 1);
        assert_eq!(safe("k7/8/1P6/8/8/8/8/7K w - - 0 1"), 0);
        // Black pawns storming White's g1 king: g4 three ranks ahead, h3 two; the f-file
        // pawn behind the shield's reach (f7) six.
        let storm = "4k3/5p2/8/8/6p1/7p/8/6K1 w - - 0 1";
        assert_eq!(count(storm, features::PAWN_STORM + 3, White), 1);
        assert_eq!(count(storm, features::PAWN_STORM + 2, White), 1);
        assert_eq!(count(storm, features::PAWN_STORM + 6, White), 1);
        // Safe checks against White's king on g1 (inputs 4..8: knight, bishop, rook,
        // queen): the g5 knight can check from f3 and h3 unless a g2 pawn covers both;
        // the a2 rook from a1 but not from g2, which the king guards.
        let checks = |fen: &str| trace(&from_fen(fen)).king_attack(White).inputs[4..].to_vec();
        assert_eq!(checks("4k3/8/8/6n1/8/8/8/6K1 w - - 0 1"), [2, 0, 0, 0]);
        assert_eq!(checks("4k3/8/8/6n1/8/8/6P1/6K1 w - - 0 1"), [0, 0, 0, 0]);
        assert_eq!(checks("4k3/8/8/8/8/8/r7/6K1 w - - 0 1"), [0, 0, 1, 0]);
    }

    #[test]
    fn feature_groups_cover_the_weights_file() {
        assert_eq!(features::GROUPS[1].name, "PAWN_PST");
        assert_eq!(features::group_of(features::PST + 64).name, "KNIGHT_PST");
        assert_eq!(features::group_of(features::TEMPO).name, "TEMPO");
        assert_eq!(features::WEIGHTS[features::TEMPO], weights::TEMPO);
        assert_eq!(
            features::WEIGHTS[features::QUEEN_MOBILITY + 27],
            weights::QUEEN_MOBILITY[27]
        );
        assert_eq!(
            features::COUNT,
            // material, PSTs, mobility, pawn structure, passed pawns, shield, bishop pair
            // and rook files, outposts, threats, tempo; then the king's distance to the
            // pawns, bishops' own pawns, pawn-push threats and passed pawns' safe paths
            5 + 6 * 64
                + (9 + 14 + 15 + 28)
                + (3 + 2 * 8)
                + 4 * 8
                + (4 + 8)
                + 3
                + (2 + 1 + 1)
                + (4 + 5 + 5 + 1)
                + 1
                + (8 + 2 + 1 + 8)
        );
    }
}
