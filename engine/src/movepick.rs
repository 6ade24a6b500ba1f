//! Move ordering: a staged picker that does each piece of ordering work only when the
//! search gets that far.
//!
//! - The TT move is checked for legality on its own (`Board::unpack`) and yielded before
//!   anything is generated; a node that cuts off on it generates nothing.
//! - Then the main search generates every legal move in one pass (shakmaty has no
//!   cheaper partial generator for quiets) and splits them in place: captures and
//!   promotions ("noisy") first, then quiets. Quiescence generates only its captures and
//!   queen promotions ([`crate::movegen`]).
//! - Captures are ranked by victim and capture history; SEE runs only on the capture
//!   about to be yielded, and one that loses material moves to the bad-capture area.
//! - Quiets are scored from the history tables only when the killers and countermove
//!   did not cut off.
//!
//! Order yielded: TT move; good captures and queen promotions (most valuable victim
//! first, then capture history); killer 1, killer 2, countermove; the remaining quiets by
//! butterfly + continuation history; bad captures in the order they were found;
//! under-promotions.

use shakmaty::{Move, MoveList, Role};

use crate::board::Board;
use crate::history::{Continuations, History};
use crate::movegen::noisy_moves;
use crate::see::{see_ge, see_value};

/// Victim values weigh this much against capture history (at most ±HISTORY_MAX / DIVISOR,
/// less than the step from a pawn to a knight).
const MVV_SCALE: i32 = 16;
const CAPTURE_HISTORY_DIVISOR: i32 = 16;
/// Under-promotions rank below every capture, so they reach the bad area last.
const UNDER_PROMOTION: i32 = -(1 << 28);

/// The stage a move was yielded in, as far as the search treats stages differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    TtMove,
    /// Captures and promotions, good or bad.
    Noisy,
    /// Killers and the countermove.
    Killer,
    Quiet,
}

/// True for a move that changes no material: not a capture, not a promotion.
#[inline]
pub fn is_quiet(m: Move) -> bool {
    !m.is_capture() && !m.is_promotion()
}

/// Most valuable victim first; among equal victims, the better capture history.
#[inline]
fn mvv_history(m: Move, capture_history: i32) -> i32 {
    let victim = m.capture().map_or(0, see_value) + m.promotion().map_or(0, see_value);
    victim * MVV_SCALE + capture_history / CAPTURE_HISTORY_DIVISOR
}

/// Where the picker is in its sequence of stages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    TtMove,
    Generate,
    GoodNoisy,
    Refutations,
    ScoreQuiets,
    Quiets,
    BadNoisy,
    Done,
}

/// Hands out the moves of one node, best first. Once generated, the move list is laid
/// out as `[TT move][noisy …][quiets …]`; as noisy moves are consumed, the bad ones are
/// moved to the front of the noisy area, which is yielded again at the end.
pub struct MovePicker {
    moves: MoveList,
    scores: [i32; 256],
    phase: Phase,
    /// The TT move, checked legal, yielded before any move is generated.
    tt_move: Option<Move>,
    /// Whether captures are split by SEE (main search) or yielded in rank order
    /// (quiescence, which applies its own SEE filter).
    split_by_see: bool,
    /// The next move to consider in the current phase.
    next: usize,
    /// Start and end of the noisy area; `bad_end` ends the bad captures at its front.
    noisy_start: usize,
    noisy_end: usize,
    bad_end: usize,
    /// Killer 1, killer 2, countermove: tried in that order right after the captures.
    refutations: [Option<Move>; 3],
    refutation: usize,
    /// The history score of the last quiet yielded in the quiet stage.
    last_quiet_score: i32,
}

impl MovePicker {
    /// All legal moves, for a main-search node. A legal TT move comes first, before the
    /// other moves are generated: when it cuts off, they never are.
    pub fn new(
        board: &Board,
        tt_packed: u16,
        history: &History,
        ply: usize,
        previous: Option<Move>,
    ) -> Self {
        let side = board.turn();
        let killers = history.killers(ply);
        let countermove = previous.and_then(|p| history.countermove(!side, p));
        let tt_move = (tt_packed != 0).then(|| board.unpack(tt_packed)).flatten();
        let phase = if tt_move.is_some() {
            Phase::TtMove
        } else {
            Phase::Generate
        };
        MovePicker {
            tt_move,
            split_by_see: true,
            refutations: [killers[0], killers[1], countermove],
            ..MovePicker::unstarted(phase)
        }
    }

    /// Captures and queen promotions only (or every evasion when in check), for
    /// quiescence. No TT move, no SEE split, no killers: quiet evasions follow the
    /// captures in generation order.
    pub fn noisy(board: &Board, history: &History) -> Self {
        let mut picker = MovePicker::unstarted(Phase::GoodNoisy);
        if board.in_check() {
            picker.moves = board.legal_moves();
        } else {
            noisy_moves(board.pos(), &mut picker.moves);
        }
        picker.lay_out(board, history);
        picker
    }

    /// A picker at `phase` with no moves, no TT move, no refutations and no SEE split.
    fn unstarted(phase: Phase) -> Self {
        MovePicker {
            moves: MoveList::new(),
            scores: [0; 256],
            phase,
            tt_move: None,
            split_by_see: false,
            next: 0,
            noisy_start: 0,
            noisy_end: 0,
            bad_end: 0,
            refutations: [None; 3],
            refutation: 0,
            last_quiet_score: 0,
        }
    }

    /// Lays the generated moves out as TT move (if one was yielded), noisy moves ranked
    /// by victim and capture history, quiets.
    fn lay_out(&mut self, board: &Board, history: &History) {
        let side = board.turn();
        let moves = &mut self.moves;
        let mut front = 0;
        if let Some(tt) = self.tt_move
            && let Some(i) = moves.iter().position(|&m| m == tt)
        {
            moves.swap(0, i);
            front = 1;
        }
        let noisy_start = front;
        for i in noisy_start..moves.len() {
            let m = moves[i];
            if !is_quiet(m) {
                moves.swap(front, i);
                self.scores[front] = if m.promotion().is_some_and(|r| r != Role::Queen) {
                    UNDER_PROMOTION + mvv_history(m, 0)
                } else {
                    mvv_history(m, history.capture_score(side, m))
                };
                front += 1;
            }
        }
        self.next = noisy_start;
        self.noisy_start = noisy_start;
        self.noisy_end = front;
        self.bad_end = noisy_start;
    }

    /// True if the picker has no move to yield. A quiescence picker knows from the
    /// start; a main-search picker generates its moves late, so it knows only once a
    /// TT move was yielded or the moves were generated (certainly once `next` has
    /// returned `None`).
    pub fn is_empty(&self) -> bool {
        self.tt_move.is_none() && self.phase != Phase::Generate && self.moves.is_empty()
    }

    /// The butterfly + continuation history score of the last move yielded, when it
    /// was yielded in the quiet stage (the search reduces by it).
    pub fn last_quiet_score(&self) -> i32 {
        self.last_quiet_score
    }

    /// Drops the quiets not yet yielded that do not give check, once the search has
    /// decided to prune every later quiet but a check: it then neither sees nor ranks
    /// the others. The checks keep their order, so what is yielded is exactly what the
    /// search would have kept. Does nothing outside the quiet stage.
    pub fn keep_only_quiet_checks(&mut self, board: &Board) {
        if self.phase != Phase::Quiets {
            return;
        }
        let Some(checks) = board.check_info() else {
            self.moves.truncate(self.next);
            return;
        };
        let mut end = self.next;
        for i in self.next..self.moves.len() {
            if checks.gives_check(board, self.moves[i]) {
                self.moves[end] = self.moves[i];
                self.scores[end] = self.scores[i];
                end += 1;
            }
        }
        self.moves.truncate(end);
    }

    /// Swaps the best-scored move of `self.next..end` to `self.next` and returns its
    /// index. Selection, not sorting: a cutoff usually comes before the list is done.
    /// The highest score is found first (a loop the compiler vectorizes), then the first
    /// move that has it.
    fn select_best(&mut self, end: usize) -> usize {
        let scores = &self.scores[self.next..end];
        let top = scores.iter().copied().fold(i32::MIN, i32::max);
        let best = self.next + scores.iter().position(|&s| s == top).unwrap_or(0);
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next
    }

    /// The next best move and the stage it is yielded in.
    pub fn next(
        &mut self,
        board: &Board,
        history: &History,
        continuations: &Continuations,
    ) -> Option<(Move, Stage)> {
        loop {
            match self.phase {
                Phase::TtMove => {
                    self.phase = Phase::Generate;
                    return self.tt_move.map(|m| (m, Stage::TtMove));
                }
                Phase::Generate => {
                    self.moves = board.legal_moves();
                    self.lay_out(board, history);
                    self.phase = Phase::GoodNoisy;
                }
                Phase::GoodNoisy => {
                    if self.next == self.noisy_end {
                        self.phase = Phase::Refutations;
                        self.next = self.noisy_end;
                        continue;
                    }
                    let i = self.select_best(self.noisy_end);
                    self.next += 1;
                    let m = self.moves[i];
                    let bad = self.scores[i] <= UNDER_PROMOTION / 2
                        || (self.split_by_see && !see_ge(board.pos(), m, 0));
                    if bad {
                        self.moves.swap(self.bad_end, i);
                        self.bad_end += 1;
                        continue;
                    }
                    return Some((m, Stage::Noisy));
                }
                Phase::Refutations => {
                    let Some(&candidate) = self.refutations.get(self.refutation) else {
                        self.phase = Phase::ScoreQuiets;
                        continue;
                    };
                    self.refutation += 1;
                    let Some(m) = candidate else { continue };
                    // A refutation is yielded once, and only if it is a legal quiet here
                    // that no earlier stage yielded: it must still be among the quiets.
                    if let Some(i) = (self.next..self.moves.len()).find(|&i| self.moves[i] == m) {
                        self.moves.swap(self.next, i);
                        self.next += 1;
                        return Some((m, Stage::Killer));
                    }
                }
                Phase::ScoreQuiets => {
                    let side = board.turn();
                    for i in self.next..self.moves.len() {
                        self.scores[i] = history.quiet_score(side, self.moves[i], continuations);
                    }
                    self.phase = Phase::Quiets;
                }
                Phase::Quiets => {
                    if self.next == self.moves.len() {
                        self.phase = Phase::BadNoisy;
                        self.next = self.noisy_start;
                        continue;
                    }
                    let i = self.select_best(self.moves.len());
                    self.next += 1;
                    self.last_quiet_score = self.scores[i];
                    return Some((self.moves[i], Stage::Quiet));
                }
                Phase::BadNoisy => {
                    if self.next == self.bad_end {
                        self.phase = Phase::Done;
                        continue;
                    }
                    self.next += 1;
                    return Some((self.moves[self.next - 1], Stage::Noisy));
                }
                Phase::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every move a picker yields, in order, with its stage.
    fn drain(mut picker: MovePicker, board: &Board, history: &History) -> Vec<(Move, Stage)> {
        let continuations = [None; 2];
        std::iter::from_fn(|| picker.next(board, history, &continuations)).collect()
    }

    fn sorted(moves: impl IntoIterator<Item = Move>, board: &Board) -> Vec<String> {
        let mut v: Vec<String> = moves.into_iter().map(|m| board.uci(m)).collect();
        v.sort();
        v
    }

    /// Checks one node with a given TT move and refutations: the main picker yields every
    /// legal move exactly once, the TT move first; the quiescence picker yields the
    /// captures and queen promotions (every evasion in check) exactly once.
    fn check_node(board: &Board, history: &History, tt_packed: u16, ply: usize) -> usize {
        let legal = board.legal_moves();
        let yielded = drain(
            MovePicker::new(board, tt_packed, history, ply, None),
            board,
            history,
        );
        assert_eq!(
            sorted(yielded.iter().map(|&(m, _)| m), board),
            sorted(legal.iter().copied(), board),
            "{}",
            board.fen()
        );
        if let Some(tt) = legal.iter().find(|&&m| Board::pack(m) == tt_packed) {
            assert_eq!(yielded[0], (*tt, Stage::TtMove), "{}", board.fen());
        }
        for &(m, stage) in &yielded[1..] {
            assert_ne!(stage, Stage::TtMove);
            assert_eq!(stage == Stage::Noisy, !is_quiet(m), "{}", board.fen());
        }

        let noisy = drain(MovePicker::noisy(board, history), board, history);
        let expected = legal
            .iter()
            .copied()
            .filter(|m| board.in_check() || m.is_capture() || m.promotion() == Some(Role::Queen));
        assert_eq!(
            sorted(noisy.iter().map(|&(m, _)| m), board),
            sorted(expected, board),
            "{}",
            board.fen()
        );
        yielded.len()
    }

    /// Over a two-ply walk from positions with checks, pins, promotions, en passant and
    /// (Chess960) castling, with no TT move, the legal TT move, a stale TT move from the
    /// parent, and killers that are legal here or not.
    #[test]
    fn pickers_yield_each_legal_move_once() {
        fn walk(board: &mut Board, history: &mut History, depth: u32, stale: u16) -> usize {
            let legal = board.legal_moves();
            let mut count = check_node(board, history, 0, 1);
            count += check_node(board, history, stale, 1);
            for (i, &m) in legal.iter().enumerate() {
                if i % 3 == 0 {
                    count += check_node(board, history, Board::pack(m), 1);
                }
                if is_quiet(m) {
                    history.add_killer(1, m);
                }
                if depth > 1 {
                    board.make(m);
                    count += walk(board, history, depth - 1, Board::pack(m));
                    board.unmake();
                }
            }
            count
        }
        let mut history = History::default();
        let mut count = 0;
        for (fen, chess960) in [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                false,
            ),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                false,
            ),
            (
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                false,
            ),
            ("8/8/8/2k5/3Pp3/8/8/4K2B b - d3 0 1", false),
            ("4k3/1P6/8/8/8/8/1p6/R3K2R b KQ - 0 1", false),
            (
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                true,
            ),
            ("2r1kr2/8/8/8/8/8/8/1R2K1R1 w GBfc - 0 1", true),
        ] {
            let mut board = Board::from_fen(fen, chess960).unwrap();
            count += walk(&mut board, &mut history, 2, 0);
        }
        assert_eq!(count, 57256);
    }

    /// Killers and the countermove come right after the good captures, once each, and
    /// only when they are legal quiet moves here.
    #[test]
    fn refutations_follow_the_captures() {
        let board = Board::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap();
        let mut history = History::default();
        let parse = |uci: &str| board.parse_uci(uci).unwrap();
        // A killer that is not legal here (another position's move) is skipped.
        let elsewhere = Board::default().parse_uci("g1h3").unwrap();
        history.add_killer(3, parse("a2a3"));
        history.add_killer(3, elsewhere);
        let previous = Board::default().parse_uci("e2e4").unwrap();
        history.set_countermove(shakmaty::Color::Black, previous, parse("a2a3"));
        let yielded = drain(
            MovePicker::new(&board, 0, &history, 3, Some(previous)),
            &board,
            &history,
        );
        let first_quiet = yielded.iter().position(|&(m, _)| is_quiet(m)).unwrap();
        assert_eq!(yielded[first_quiet], (parse("a2a3"), Stage::Killer));
        assert_eq!(
            yielded.iter().filter(|&&(m, _)| m == parse("a2a3")).count(),
            1
        );
        assert_eq!(yielded[first_quiet + 1].1, Stage::Quiet);
        // Every capture before the killer passes SEE.
        for &(m, stage) in &yielded[..first_quiet] {
            assert_eq!(stage, Stage::Noisy);
            assert!(see_ge(board.pos(), m, 0), "{}", board.uci(m));
        }
        // The bad captures come after every quiet.
        let last_quiet = yielded.iter().rposition(|&(m, _)| is_quiet(m)).unwrap();
        for &(m, _) in &yielded[last_quiet + 1..] {
            assert!(!is_quiet(m));
            assert!(!see_ge(board.pos(), m, 0) || m.promotion().is_some_and(|r| r != Role::Queen));
        }
        assert!(
            last_quiet + 1 < yielded.len(),
            "this position has bad captures"
        );
    }

    /// After the first quiet-stage move, keeping only the quiet checks yields exactly
    /// the checks among the quiets left, and still every bad capture in its order.
    /// (Checks of equal score may come in another order than without the call: the
    /// selection swaps that skipped quiets would have made are not made.)
    #[test]
    fn keeping_only_quiet_checks_drops_exactly_the_rest() {
        // Quiet checks Ra8, Rh8, Qa4, Qh5 among many quiets; Qxd5 is a bad capture.
        let board = Board::from_fen("4k3/8/4p3/3p4/8/8/8/R2QK2R w KQ - 0 1", false).unwrap();
        let history = History::default();
        let continuations = [None; 2];
        let full = drain(
            MovePicker::new(&board, 0, &history, 1, None),
            &board,
            &history,
        );
        let mut picker = MovePicker::new(&board, 0, &history, 1, None);
        let mut kept = Vec::new();
        while let Some((m, stage)) = picker.next(&board, &history, &continuations) {
            kept.push((m, stage));
            if stage == Stage::Quiet {
                picker.keep_only_quiet_checks(&board);
                break;
            }
        }
        let start = kept.len();
        assert_eq!(kept[..], full[..start]);
        kept.extend(std::iter::from_fn(|| {
            picker.next(&board, &history, &continuations)
        }));
        let (rest, full_rest) = (&kept[start..], &full[start..]);
        let quiets = |moves: &[(Move, Stage)], checks_only: bool| {
            sorted(
                moves
                    .iter()
                    .filter(|&&(m, stage)| {
                        stage == Stage::Quiet && (!checks_only || board.gives_check(m))
                    })
                    .map(|&(m, _)| m),
                &board,
            )
        };
        assert_eq!(quiets(rest, false), quiets(full_rest, true));
        assert_eq!(quiets(rest, false).len(), 4);
        let noisy = |moves: &[(Move, Stage)]| {
            moves
                .iter()
                .filter(|&&(_, stage)| stage != Stage::Quiet)
                .copied()
                .collect::<Vec<_>>()
        };
        assert_eq!(noisy(rest), noisy(full_rest));
        assert!(!noisy(rest).is_empty(), "this position has a bad capture");
    }
}
