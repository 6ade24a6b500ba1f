//! Syzygy endgame tablebases: loading table files and turning their answers into search
//! scores and root-move ranks.
//!
//! The tables are read by the `shakmaty-syzygy` crate; this module decides which folders
//! and files to hand it, reports what it found (the protocol layer turns that into text),
//! and keeps every probe failure local: a missing, unreadable or corrupt table makes that
//! probe answer "unknown", never a wrong score and never a crash.
//!
//! Two kinds of probe serve the search (the scheme Stockfish made standard):
//! - at the root, every move is ranked by DTZ (distance to the next capture or pawn move)
//!   so that a won ending is converted within the fifty-move rule and a drawn one is not
//!   spoiled; the search then only looks at the moves of the best rank;
//! - inside the tree, right after a capture or pawn move, the WDL (win/draw/loss) value
//!   gives a bound that may end the node.

use std::io;
use std::path::{Path, PathBuf};

use shakmaty::{Chess, Move, Position};
use shakmaty_syzygy::{Dtz, Tablebase, Wdl};

use crate::board::Board;
use crate::score::{Bound, DRAW, FIFTY_MOVE_PLIES, TB_CURSED_WIN, TB_WIN};

/// Rank of a root move that wins within the fifty-move rule. All such moves rank alike,
/// so the search chooses among them (a quick mate ranks no lower than a slow conversion);
/// wins that need longer rank lower the longer they need.
const WIN_RANK: i32 = 100_000;

/// A set of Syzygy tables, shared by every searcher that probes them.
pub struct Tablebases {
    tables: Tablebase<Chess>,
    files: usize,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Tablebases({} files, up to {} pieces)",
            self.files,
            self.max_pieces()
        )
    }
}

/// What loading found in one folder of the path.
#[derive(Debug)]
pub struct FolderScan {
    /// The folder, as the path named it.
    pub folder: PathBuf,
    /// Table files added from this folder, or why the folder could not be listed.
    pub outcome: Result<usize, io::Error>,
    /// Files named like tables that were refused, with the reason (a size no valid
    /// table has: truncated or corrupt).
    pub rejected: Vec<(PathBuf, io::Error)>,
}

/// How a root move fares according to the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootRank {
    /// The move.
    pub mv: Move,
    /// Higher is better; only the moves of the best rank are searched.
    pub rank: i32,
    /// The score to report for the move, relative to the side to move at the root.
    pub score: i32,
}

/// Which table kind ranked the root moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootMethod {
    /// DTZ: wins are converted within the fifty-move rule by the ranks alone.
    Dtz,
    /// WDL only (DTZ tables missing or failing): the outcome is kept, but progress is
    /// left to the search.
    Wdl,
}

impl Tablebases {
    /// The folders of a `SyzygyPath` value: separated by `:` on Unix and `;` on Windows
    /// (the platform's `PATH` convention); empty or `<empty>` names none.
    pub fn split_path(spec: &str) -> Vec<PathBuf> {
        let spec = spec.trim();
        if spec.is_empty() || spec == "<empty>" {
            return Vec::new();
        }
        std::env::split_paths(spec)
            .filter(|p| !p.as_os_str().is_empty())
            .collect()
    }

    /// Adds the table files (`*.rtbw`, `*.rtbz`) of every folder. The files are only
    /// opened when first probed; a folder that cannot be listed or a file whose size
    /// shows it is damaged is reported and skipped, the rest are still used.
    pub fn load(folders: &[PathBuf]) -> (Tablebases, Vec<FolderScan>) {
        let mut tb = Tablebases {
            tables: Tablebase::new(),
            files: 0,
        };
        let scans = folders.iter().map(|f| tb.add_folder(f)).collect();
        (tb, scans)
    }

    fn add_folder(&mut self, folder: &Path) -> FolderScan {
        let mut rejected = Vec::new();
        let outcome = std::fs::read_dir(folder).map(|entries| {
            // Sorted, so that reports come in the same order on every run.
            let mut paths: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.extension()
                        .is_some_and(|ext| ext == "rtbw" || ext == "rtbz")
                })
                .collect();
            paths.sort();
            let mut added = 0;
            for path in paths {
                match self.tables.add_file(&path) {
                    Ok(()) => added += 1,
                    // Not a table name (say `notes.rtbw`): not ours to judge.
                    Err(e) if e.kind() == io::ErrorKind::InvalidInput => {}
                    Err(e) => rejected.push((path, e)),
                }
            }
            self.files += added;
            added
        });
        FolderScan {
            folder: folder.to_path_buf(),
            outcome,
            rejected,
        }
    }

    /// Table files loaded (WDL and DTZ counted separately).
    pub fn files(&self) -> usize {
        self.files
    }

    /// The most pieces (kings included) of any loaded table; 0 with none.
    pub fn max_pieces(&self) -> usize {
        self.tables.max_pieces()
    }

    /// Whether `pos` could be in the tables at all: few enough pieces and no castling
    /// rights (the tables hold no position with them).
    pub fn covers(pos: &Chess, max_pieces: usize) -> bool {
        pos.board().occupied().count() <= max_pieces && !pos.castles().any()
    }

    /// The WDL value of a position reached by a capture or pawn move (halfmove clock 0),
    /// from the side to move; None if the tables cannot say (missing or damaged table).
    pub fn probe_wdl(&self, pos: &Chess) -> Option<Wdl> {
        self.tables.probe_wdl_after_zeroing(pos).ok()
    }

    /// Ranks the root `moves` of `board` and keeps those of the best rank. DTZ is tried
    /// first, WDL if a DTZ probe fails; None if the tables cannot rank every move.
    /// With `rule50`, wins the fifty-move rule would frustrate score as draws. A move
    /// that brings about a position for the third time in the game (the board keeps
    /// them) ranks as the draw it is, whatever the tables say of the position.
    pub fn rank_root(
        &self,
        board: &Board,
        moves: &[Move],
        rule50: bool,
    ) -> Option<(Vec<RootRank>, RootMethod)> {
        let repetitions: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&mv| {
                let mut after = board.clone();
                after.make(mv);
                after.is_repetition(1)
            })
            .collect();
        let pos = board.pos();
        let (ranks, method) = match self.rank_by_dtz(pos, moves, &repetitions, rule50) {
            Some(ranks) => (ranks, RootMethod::Dtz),
            None => (
                self.rank_by_wdl(pos, moves, &repetitions, rule50)?,
                RootMethod::Wdl,
            ),
        };
        let best = ranks.iter().map(|r| r.rank).max()?;
        Some((
            ranks.into_iter().filter(|r| r.rank == best).collect(),
            method,
        ))
    }

    /// Ranks by DTZ counted from the root, so that the fifty-move clock can be weighed:
    /// a win whose zeroing move comes before the clock runs out ranks as a certain win;
    /// a loss ranks better the longer it holds out (the more chance the clock saves it).
    fn rank_by_dtz(
        &self,
        pos: &Chess,
        moves: &[Move],
        repetitions: &[Move],
        rule50: bool,
    ) -> Option<Vec<RootRank>> {
        let clock = pos.halfmoves() as i32;
        let limit = FIFTY_MOVE_PLIES as i32;
        moves
            .iter()
            .map(|&mv| {
                let mut after = pos.clone();
                after.play_unchecked(mv);
                let dtz = if repetitions.contains(&mv) {
                    0
                } else {
                    self.dtz_of_move(&after)?
                };
                // Plies on the clock when the zeroing move (or mate) is played.
                let total = dtz.abs() + clock;
                let (rank, score) = match dtz.signum() {
                    1 if total <= limit => (WIN_RANK, TB_WIN - 1),
                    1 => (WIN_RANK - total, cursed(1, rule50)),
                    -1 if total <= limit => (-WIN_RANK + dtz.abs(), -TB_WIN + 1),
                    -1 => (-WIN_RANK + total, cursed(-1, rule50)),
                    _ => (0, DRAW),
                };
                Some(RootRank { mv, rank, score })
            })
            .collect()
    }

    /// DTZ of the root move that led to `after`, from the root side's view and counting
    /// the move itself: positive wins, negative loses, 0 draws. Tables that keep DTZ
    /// rounded to even plies may give one ply less than the truth: a win is counted at
    /// its worst, one ply later, so that a zeroing move the rounded value puts on the
    /// hundredth ply is not taken for a sure win (Stockfish allows 99 plies for this).
    fn dtz_of_move(&self, after: &Chess) -> Option<i32> {
        if after.is_checkmate() {
            return Some(1);
        }
        if after.halfmoves() == 0 {
            // The move zeroed the clock: the WDL of the new position says it all.
            let wdl = -self.tables.probe_wdl_after_zeroing(after).ok()?;
            return Some(Dtz::before_zeroing(wdl).0);
        }
        if after.halfmoves() >= FIFTY_MOVE_PLIES {
            return Some(0);
        }
        let probed = self.tables.probe_dtz(after).ok()?;
        let rounded = probed.precise().is_none();
        let Dtz(dtz) = -probed.ignore_rounding();
        let dtz = dtz + dtz.signum();
        Some(if rounded && dtz > 0 { dtz + 1 } else { dtz })
    }

    /// Ranks by the WDL of each move's position, as if reached by a zeroing move.
    fn rank_by_wdl(
        &self,
        pos: &Chess,
        moves: &[Move],
        repetitions: &[Move],
        rule50: bool,
    ) -> Option<Vec<RootRank>> {
        moves
            .iter()
            .map(|&mv| {
                let mut after = pos.clone();
                after.play_unchecked(mv);
                let wdl = if repetitions.contains(&mv) {
                    Wdl::Draw
                } else if after.is_checkmate() {
                    Wdl::Win
                } else {
                    -self.tables.probe_wdl_after_zeroing(&after).ok()?
                };
                let (score, _) = wdl_score(wdl, rule50, 1);
                Some(RootRank {
                    mv,
                    rank: wdl as i32,
                    score,
                })
            })
            .collect()
    }
}

/// Score of a win (`sign` 1) or loss (−1) beyond the fifty-move rule's reach: a draw
/// under the rule (nudged towards the side that would win without it), else the win or
/// loss itself.
fn cursed(sign: i32, rule50: bool) -> i32 {
    if rule50 {
        sign * TB_CURSED_WIN
    } else {
        sign * (TB_WIN - 1)
    }
}

/// The search score of a WDL probe at `ply` and the bound it proves: a win is at least a
/// tablebase win (a real mate may score higher), a loss at most a tablebase loss, a draw
/// exact. With `rule50`, cursed wins and blessed losses are draws.
pub fn wdl_score(wdl: Wdl, rule50: bool, ply: usize) -> (i32, Bound) {
    let win = TB_WIN - ply as i32;
    match wdl {
        Wdl::Win => (win, Bound::Lower),
        Wdl::Loss => (-win, Bound::Upper),
        Wdl::CursedWin if !rule50 => (win, Bound::Lower),
        Wdl::BlessedLoss if !rule50 => (-win, Bound::Upper),
        Wdl::CursedWin => (TB_CURSED_WIN, Bound::Exact),
        Wdl::BlessedLoss => (-TB_CURSED_WIN, Bound::Exact),
        Wdl::Draw => (DRAW, Bound::Exact),
    }
}
