//! Self-play data generation: Cutoff plays games against itself at a fixed node budget and
//! every quiet position it searched becomes a training sample labelled with its search
//! score and the game's result (the data a tuner, and later a learned evaluation, fits).
//!
//! A game is a pure function of its seed, its index and the settings: it starts from an
//! opening drawn with its own random generator, on a searcher cleared for it, with one
//! search thread. The caller (`cutoff datagen`) runs games in parallel and writes them in
//! index order, so the output does not depend on scheduling.
//!
//! Each kept position is packed into a [`PackedPosition`] (the format of [`crate::data`]):
//! the position, its search score from White's view, and the game's result.

use std::sync::Arc;

use shakmaty::{Color, Move, Position};
use shakmaty_syzygy::Wdl;

use crate::board::Board;
use crate::data::{Outcome, PackedPosition};
use crate::games::{GameRecord, Ply, ply_score};
use crate::limits::Limits;
use crate::movepick::is_quiet;
use crate::rng::Rng;
use crate::score::is_decisive;
use crate::search::{SearchOptions, Searcher};
use crate::tablebase::Tablebases;

/// Node budget of a move unless `--nodes` says otherwise.
pub const DEFAULT_NODES: u64 = 5_000;
/// Random plies from the start position that open a game when no book is given.
pub const DEFAULT_RANDOM_PLIES: usize = 8;
/// Random plies after a book position: a game is a function of its opening, so without
/// them two games drawing the same book position would be the same game.
pub const DEFAULT_BOOK_RANDOM_PLIES: usize = 2;
/// Table size of each game's searcher (MB). A move at the default budget stores a few
/// thousand entries, so 2 MB (131,072 entries) holds several moves' worth and stays in a
/// core's cache, where a larger table would only cost time (docs/data.md).
pub const DEFAULT_HASH_MB: usize = 2;

/// An opening whose first search scores beyond this (centipawns, either side) is already
/// decided and is drawn again: its game would teach little but "the winner wins".
pub const OPENING_MAX_SCORE: i32 = 400;
/// Openings drawn for one game before giving up (a book of lost positions only).
pub const MAX_OPENING_TRIES: usize = 1_000;

/// A game is won once both sides' scores agree it is: WIN_PLIES consecutive searches (both
/// sides' moves, since plies alternate) score at least WIN_SCORE for the same side.
pub const WIN_SCORE: i32 = 1_000;
/// The run of searches that must agree on a win (see [`WIN_SCORE`]).
pub const WIN_PLIES: usize = 4;
/// A game is drawn once DRAW_PLIES consecutive searches score within ±DRAW_SCORE, from
/// the DRAW_MIN_PLY-th search of the game on (earlier, a level score is no sign the game
/// is a dead draw).
pub const DRAW_SCORE: i32 = 10;
/// The run of level scores that draws a game (see [`DRAW_SCORE`]).
pub const DRAW_PLIES: usize = 10;
/// The search of the game from which level scores start to count (see [`DRAW_SCORE`]).
pub const DRAW_MIN_PLY: usize = 72;

/// The positions of a game's first SKIPPED_PLIES searches are not written: they still
/// carry the opening's disorder (random plies leave pieces hanging, and the first replies
/// sort it out), so their labels say more about the opening than about the position.
/// Plies are counted from the end of the opening because a book's EPD lines carry no
/// move number.
pub const SKIPPED_PLIES: usize = 8;

/// What a run of datagen does, besides where it writes.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Nodes a move (the search stops once it has counted this many).
    pub nodes: u64,
    /// An optional depth limit a move, applied with the node budget.
    pub depth: Option<i32>,
    /// Random legal plies played from the opening position (the start position or a book
    /// position) before the engine takes over.
    pub random_plies: usize,
    /// Openings whose first search scores beyond this (centipawns, either side) are
    /// drawn again ([`OPENING_MAX_SCORE`] by default).
    pub opening_max_score: i32,
    /// Tables that end a game as soon as a capture or pawn move reaches them (the search
    /// does not probe them: its scores stay the engine's own).
    pub tablebases: Option<Arc<Tablebases>>,
}

impl Settings {
    fn limits(&self) -> Limits {
        Limits {
            nodes: Some(self.nodes),
            depth: self.depth,
            ..Limits::default()
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The side to move was mated.
    Checkmate,
    /// The side to move had no legal move and was not in check.
    Stalemate,
    /// The same position a third time.
    Repetition,
    /// A hundred plies without a capture or pawn move.
    FiftyMoves,
    /// Neither side had the material to mate.
    InsufficientMaterial,
    /// Both sides' scores agreed on a winner (see [`WIN_SCORE`]).
    AdjudicatedWin,
    /// A long run of level scores (see [`DRAW_SCORE`]).
    AdjudicatedDraw,
    /// The Syzygy tables knew the result (cursed wins and blessed losses are draws).
    Tablebase,
}

/// A finished game: the positions kept from it and how it ended.
#[derive(Clone, Debug)]
pub struct Game {
    /// The kept positions, labelled with their score and the game's result.
    pub samples: Vec<PackedPosition>,
    /// The game's result.
    pub outcome: Outcome,
    /// How the game ended.
    pub ending: Ending,
    /// The position the engine started from (after the opening's random plies).
    pub start: Board,
    /// Every move the engine played, with its search's score and depth (the opening's
    /// random plies not counted).
    pub moves: Vec<PlayedMove>,
}

impl Game {
    /// The game in the games format: its start, every move with its score and whether its
    /// position is kept, and the result.
    pub fn record(&self) -> GameRecord {
        GameRecord {
            start: self.start.pos().clone(),
            outcome: self.outcome,
            plies: self
                .moves
                .iter()
                .map(|played| Ply {
                    mv: played.mv,
                    score: Some(ply_score(played.score)),
                    kept: played.kept,
                })
                .collect(),
        }
    }
}

/// A move of a datagen game, as a PGN records it.
#[derive(Clone, Copy, Debug)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// The search's score, from the side that made the move.
    pub score: i32,
    /// The depth that search completed.
    pub depth: i32,
    /// Whether the position before the move is one of the game's samples ([`keeps`]).
    pub kept: bool,
}

/// Where games start: a book position (or the start position without a book), then
/// `random_plies` random legal plies.
#[derive(Clone, Debug, Default)]
pub struct Openings {
    /// Book positions, one drawn at random a game; empty: the start position.
    pub book: Vec<Board>,
}

/// A book that openings are drawn from, entry by entry: a book need not be read whole
/// for the few entries a run draws (`cutoff genfens` reads only those from its file).
pub trait Book {
    /// The number of entries; none: games start from the start position.
    fn entries(&self) -> usize;
    /// Entry `index` (below [`Book::entries`]), or None when it holds no position (then
    /// another is drawn).
    fn position(&self, index: usize) -> Option<Board>;
}

impl Book for Openings {
    fn entries(&self) -> usize {
        self.book.len()
    }

    fn position(&self, index: usize) -> Option<Board> {
        self.book.get(index).cloned()
    }
}

/// An opening: a book entry, then `random_plies` random plies; None when the entry holds
/// no position or the random plies ran into the end of a game.
fn draw(book: &dyn Book, rng: &mut Rng, random_plies: usize) -> Option<Board> {
    let mut board = match book.entries() {
        0 => Board::default(),
        entries => book.position(rng.below(entries))?,
    };
    for _ in 0..random_plies {
        let moves = board.legal_moves();
        if moves.is_empty() {
            return None;
        }
        board.make(moves[rng.below(moves.len())]);
        board.commit();
    }
    Some(board)
}

/// The generator of game `index` of the run seeded `seed`: distinct games get unrelated
/// streams, and a game's stream depends on nothing else.
fn game_rng(seed: u64, index: u64) -> Rng {
    let run = Rng::new(seed).next_u64();
    Rng::new(Rng::new(run.wrapping_add(index)).next_u64())
}

/// Plays game `index` of the run seeded `seed` on `searcher` (cleared first, so that the
/// game depends on nothing played before it). Fails only when no acceptable opening was
/// found in [`MAX_OPENING_TRIES`] draws.
pub fn play_game(
    searcher: &mut Searcher,
    settings: &Settings,
    openings: &Openings,
    seed: u64,
    index: u64,
) -> Result<Game, String> {
    let mut rng = game_rng(seed, index);
    for _ in 0..MAX_OPENING_TRIES {
        let Some(opening) = draw(openings, &mut rng, settings.random_plies) else {
            continue;
        };
        searcher.clear();
        if let Some(game) = play_from(searcher, settings, opening) {
            return Ok(game);
        }
    }
    Err(format!(
        "no playable opening in {MAX_OPENING_TRIES} tries (each ended the game or scored beyond ±{} cp)",
        settings.opening_max_score
    ))
}

/// Whether a searched position becomes a sample: the `ply`-th search of the game (from
/// the end of the opening), its best move and score. A static evaluation cannot judge a
/// position in check or one whose best move wins or changes material, nor put a number
/// on a mate or a tablebase result. Games converted from PGN use the same rule.
pub fn keeps(board: &Board, best: Move, score: i32, ply: usize) -> bool {
    ply >= SKIPPED_PLIES && !board.in_check() && is_quiet(best) && !is_decisive(score)
}

/// Node budget of the search that checks a `genfens` opening.
pub const GENFENS_NODES: u64 = 5_000;

/// OpenBench's genfens: `count` openings for other engines' games, drawn as datagen
/// draws them (a book entry or the start position, then random plies) and kept only
/// if the game is not over and a short search scores them within
/// ±[`OPENING_MAX_SCORE`]. The same seed gives the same openings. Each is handed to `emit`
/// as it is found, so that any count can be asked for and the first arrive at once.
pub fn genfens(
    searcher: &mut Searcher,
    book: &dyn Book,
    random_plies: usize,
    seed: u64,
    count: u64,
    emit: &mut dyn FnMut(&Board),
) -> Result<(), String> {
    let limits = Limits {
        nodes: Some(GENFENS_NODES),
        ..Limits::default()
    };
    let options = SearchOptions::default();
    for index in 0..count {
        let mut rng = game_rng(seed, index);
        let playable = (0..MAX_OPENING_TRIES).find_map(|_| {
            let board = draw(book, &mut rng, random_plies)?;
            if drawn_by_rule(&board).is_some() {
                return None;
            }
            searcher.clear();
            let result = searcher.search(&board, &limits, &options, &mut |_| {});
            (result.best.is_some() && result.score.abs() <= OPENING_MAX_SCORE).then_some(board)
        });
        let board = playable.ok_or_else(|| {
            format!("no playable opening in {MAX_OPENING_TRIES} tries for opening {index}")
        })?;
        emit(&board);
    }
    Ok(())
}

/// Counts consecutive plies a condition held for; a win streak keeps the winning side.
#[derive(Default)]
struct Adjudicator {
    win_side: Option<Color>,
    win_plies: usize,
    draw_plies: usize,
}

impl Adjudicator {
    /// Takes the score (White's view) of the game's `searches`-th search; returns the
    /// outcome once decided.
    fn update(&mut self, white_score: i32, searches: usize) -> Option<(Outcome, Ending)> {
        let leader = if white_score >= WIN_SCORE {
            Some(Color::White)
        } else if white_score <= -WIN_SCORE {
            Some(Color::Black)
        } else {
            None
        };
        self.win_plies = match leader {
            Some(side) if self.win_side == Some(side) => self.win_plies + 1,
            Some(_) => 1,
            None => 0,
        };
        self.win_side = leader;
        if let Some(side) = leader
            && self.win_plies >= WIN_PLIES
        {
            return Some((Outcome::win_for(side), Ending::AdjudicatedWin));
        }
        self.draw_plies = if searches >= DRAW_MIN_PLY && white_score.abs() <= DRAW_SCORE {
            self.draw_plies + 1
        } else {
            0
        };
        (self.draw_plies >= DRAW_PLIES).then_some((Outcome::Draw, Ending::AdjudicatedDraw))
    }
}

/// The rules that end a game before the side to move searches (mate and stalemate show up
/// as a search without a move).
fn drawn_by_rule(board: &Board) -> Option<Ending> {
    if board.is_insufficient_material() {
        Some(Ending::InsufficientMaterial)
    } else if board.is_fifty_move_draw() && !(board.in_check() && board.legal_moves().is_empty()) {
        Some(Ending::FiftyMoves)
    } else if board.is_repetition(0) {
        Some(Ending::Repetition)
    } else {
        None
    }
}

/// The tables' verdict on a position just reached by a capture or pawn move (the only
/// time a WDL probe is exact about the fifty-move rule), from White's view.
fn tablebase_result(tablebases: &Tablebases, board: &Board) -> Option<Outcome> {
    let pos = board.pos();
    if pos.halfmoves() != 0 || !Tablebases::covers(pos, tablebases.max_pieces()) {
        return None;
    }
    Some(match tablebases.probe_wdl(pos)? {
        Wdl::Win => Outcome::win_for(board.turn()),
        Wdl::Loss => Outcome::win_for(!board.turn()),
        Wdl::CursedWin | Wdl::Draw | Wdl::BlessedLoss => Outcome::Draw,
    })
}

/// Plays a game from `board`; None when the opening is rejected: the game is over before
/// it starts, or its first search scores beyond [`OPENING_MAX_SCORE`].
fn play_from(searcher: &mut Searcher, settings: &Settings, mut board: Board) -> Option<Game> {
    let limits = settings.limits();
    let options = SearchOptions::default();
    let mut adjudicator = Adjudicator::default();
    let start = board.clone();
    let mut moves = Vec::new();
    // Positions and scores kept; packed once the result is known.
    let mut kept = Vec::new();
    let mut plies = 0;
    let (outcome, ending) = loop {
        if let Some(ending) = drawn_by_rule(&board) {
            if plies == 0 {
                return None;
            }
            break (Outcome::Draw, ending);
        }
        if plies > 0
            && let Some(tablebases) = &settings.tablebases
            && let Some(outcome) = tablebase_result(tablebases, &board)
        {
            break (outcome, Ending::Tablebase);
        }
        let result = searcher.search(&board, &limits, &options, &mut |_| {});
        let us = board.turn();
        let white_score = if us == Color::White {
            result.score
        } else {
            -result.score
        };
        if plies == 0 && (result.best.is_none() || white_score.abs() > settings.opening_max_score) {
            return None;
        }
        let Some(best) = result.best else {
            break if board.in_check() {
                (Outcome::win_for(!us), Ending::Checkmate)
            } else {
                (Outcome::Draw, Ending::Stalemate)
            };
        };
        let keep = keeps(&board, best, result.score, plies);
        if keep {
            kept.push((board.pos().clone(), white_score));
        }
        plies += 1;
        moves.push(PlayedMove {
            mv: best,
            score: result.score,
            depth: result.depth,
            kept: keep,
        });
        if let Some(decided) = adjudicator.update(white_score, plies) {
            break decided;
        }
        board.make(best);
        board.commit();
    };
    let samples = kept
        .iter()
        // Kept scores are never mate scores, so the clamp only guards the format.
        .map(|(pos, score)| PackedPosition::pack(pos, ply_score(*score), outcome))
        .collect();
    Some(Game {
        samples,
        outcome,
        ending,
        start,
        moves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(nodes: u64) -> Settings {
        Settings {
            nodes,
            depth: None,
            random_plies: DEFAULT_RANDOM_PLIES,
            opening_max_score: OPENING_MAX_SCORE,
            tablebases: None,
        }
    }

    #[test]
    fn a_game_is_a_function_of_seed_and_index() {
        let openings = Openings::default();
        let mut searcher = Searcher::new(1).unwrap();
        let play = |searcher: &mut Searcher, seed, index| {
            play_game(searcher, &settings(300), &openings, seed, index)
                .unwrap()
                .samples
        };
        let first = play(&mut searcher, 7, 3);
        // Another game in between leaves no trace in the table or the histories.
        play(&mut searcher, 7, 4);
        assert_eq!(play(&mut searcher, 7, 3), first);
        assert_ne!(play(&mut searcher, 8, 3), first);
        assert!(!first.is_empty());
    }

    /// Results agree with endings, and no kept position is one the filters exclude.
    #[test]
    fn games_keep_only_quiet_labelled_positions() {
        let openings = Openings::default();
        let mut searcher = Searcher::new(1).unwrap();
        let (mut kept, mut searched) = (0, 0);
        for index in 0..6 {
            let game = play_game(&mut searcher, &settings(300), &openings, 1, index).unwrap();
            let decisive = matches!(game.ending, Ending::Checkmate | Ending::AdjudicatedWin);
            assert_eq!(decisive, game.outcome != Outcome::Draw, "{game:?}");
            assert!(game.samples.len() <= game.moves.len());
            for record in &game.samples {
                let sample = record.unpack().unwrap();
                let board = &sample.board;
                assert_eq!(sample.outcome, game.outcome);
                assert!(!board.in_check(), "{record:?}");
                assert!(!is_decisive(sample.white_score.into()), "{record:?}");
                // Games from the start position: the FEN's move number counts every ply.
                let pos = board.pos();
                let ply = 2 * (pos.fullmoves().get() - 1) + u32::from(pos.turn() == Color::Black);
                let first = DEFAULT_RANDOM_PLIES + SKIPPED_PLIES;
                assert!(ply as usize >= first, "{record:?}");
            }
            kept += game.samples.len();
            searched += game.moves.len();
        }
        // The filters bite (the opening plies alone are dropped), yet most positions stay.
        assert!(
            kept < searched && 2 * kept > searched,
            "{kept} of {searched}"
        );
    }

    /// The fifty-move rule draws a position in check unless it is mate.
    #[test]
    fn mate_on_the_hundredth_half_move_still_counts() {
        let check = Board::from_fen("k7/8/1K6/8/8/8/8/R7 b - - 100 80", false).unwrap();
        assert_eq!(drawn_by_rule(&check), Some(Ending::FiftyMoves));
        let mate = Board::from_fen("k6R/8/1K6/8/8/8/8/8 b - - 100 80", false).unwrap();
        assert_eq!(drawn_by_rule(&mate), None);
    }

    #[test]
    fn adjudication_needs_agreement_in_a_row() {
        let mut a = Adjudicator::default();
        // Three plies beyond the threshold, then one below: no decision yet.
        for score in [1200, 1100, 1500, 900] {
            assert_eq!(a.update(score, 30), None);
        }
        for _ in 0..WIN_PLIES - 1 {
            assert_eq!(a.update(-WIN_SCORE, 30), None);
        }
        assert_eq!(
            a.update(-WIN_SCORE, 30),
            Some((Outcome::BlackWins, Ending::AdjudicatedWin))
        );

        let mut a = Adjudicator::default();
        // Level scores count only from DRAW_MIN_PLY on.
        for ply in DRAW_MIN_PLY - 5..DRAW_MIN_PLY {
            assert_eq!(a.update(0, ply), None);
        }
        for ply in DRAW_MIN_PLY..DRAW_MIN_PLY + DRAW_PLIES - 1 {
            assert_eq!(a.update(DRAW_SCORE, ply), None);
        }
        assert_eq!(
            a.update(-DRAW_SCORE, 200),
            Some((Outcome::Draw, Ending::AdjudicatedDraw))
        );
    }
}
