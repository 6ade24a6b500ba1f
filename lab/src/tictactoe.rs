//! Tic-tac-toe, the lecture notes' own example, searched to the end of the game.
//!
//! Their Table 1: a human (X) has taken the top-left corner and the bot (O) is to move.
//! Squares are tried in row-major order; a root driver, not counted, tries each of O's
//! moves and searches it with a fresh full window (−∞, +∞); a won game is worth +1, a lost
//! one −1, a draw 0, with no adjustment for depth; every call of the recursive search
//! counts one node. Minimax then visits 59,704 nodes and alpha-beta 4,089.
//!
//! The notes report 120,371 and 26,725. Their alpha-beta loops over rows and then columns,
//! and its `break` on a cutoff leaves only the inner (column) loop: the row loop goes on,
//! and searches the first empty square of every later row with a window already closed
//! ([`notes_alphabeta`]). That variant visits 13,052 nodes, the same ratio (≈ 4.5) as their
//! table.

use std::time::{Duration, Instant};

use super::algorithms::{alphabeta, minimax};
use super::{Enhancements, Game, INF, Lab, Stats};

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// A mark on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Crosses.
    X,
    /// Noughts.
    O,
}

impl Mark {
    fn other(self) -> Mark {
        match self {
            Mark::X => Mark::O,
            Mark::O => Mark::X,
        }
    }

    fn char(self) -> char {
        match self {
            Mark::X => 'X',
            Mark::O => 'O',
        }
    }
}

/// A tic-tac-toe position; squares 0–8 in row-major order (0 = top left).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TicTacToe {
    cells: [Option<Mark>; 9],
    to_move: Mark,
    played: Vec<usize>,
}

impl TicTacToe {
    /// The notes' Table 1 position: X in the top-left corner, O to move.
    pub fn table1() -> Self {
        let mut cells = [None; 9];
        cells[0] = Some(Mark::X);
        TicTacToe {
            cells,
            to_move: Mark::O,
            played: Vec::new(),
        }
    }

    /// A position from nine characters `X`, `O` or `.`, row-major, and the side to move.
    pub fn from_cells(text: &str, to_move: Mark) -> Option<Self> {
        let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
        if chars.len() != 9 {
            return None;
        }
        let mut cells = [None; 9];
        for (cell, c) in cells.iter_mut().zip(chars) {
            *cell = match c {
                'X' | 'x' => Some(Mark::X),
                'O' | 'o' => Some(Mark::O),
                '.' | '_' | '-' => None,
                _ => return None,
            };
        }
        Some(TicTacToe {
            cells,
            to_move,
            played: Vec::new(),
        })
    }

    /// The side to move.
    pub fn to_move(&self) -> Mark {
        self.to_move
    }

    /// How many squares are still empty.
    pub fn empty_squares(&self) -> u32 {
        self.cells.iter().filter(|c| c.is_none()).count() as u32
    }

    /// Whether `square` (0 to 8, row-major) is empty.
    pub fn is_empty(&self, square: usize) -> bool {
        self.cells[square].is_none()
    }

    /// The board as nine characters, row-major, rows separated by `/`.
    pub fn cells_string(&self) -> String {
        let mut out = String::new();
        for (i, c) in self.cells.iter().enumerate() {
            if i > 0 && i.is_multiple_of(3) {
                out.push('/');
            }
            out.push(c.map_or('.', Mark::char));
        }
        out
    }

    fn has_line(&self, mark: Mark) -> bool {
        LINES
            .iter()
            .any(|line| line.iter().all(|&i| self.cells[i] == Some(mark)))
    }
}

impl Game for TicTacToe {
    type Move = usize;

    fn moves(&self) -> Vec<usize> {
        (0..9).filter(|&i| self.cells[i].is_none()).collect()
    }

    fn make(&mut self, square: usize) {
        debug_assert!(self.cells[square].is_none());
        self.cells[square] = Some(self.to_move);
        self.to_move = self.to_move.other();
        self.played.push(square);
    }

    fn unmake(&mut self) {
        let square = self.played.pop().expect("unmake without make");
        self.cells[square] = None;
        self.to_move = self.to_move.other();
    }

    /// The side that just moved may have completed a line (the side to move lost), else
    /// a full board is a draw.
    fn outcome(&self, moves: &[usize], _ply: u32) -> Option<i32> {
        if self.has_line(self.to_move.other()) {
            Some(-1)
        } else if moves.is_empty() {
            Some(0)
        } else {
            None
        }
    }

    fn evaluate(&self) -> i32 {
        0
    }

    fn key(&self) -> u64 {
        let board = self.cells.iter().fold(0u64, |k, c| {
            3 * k
                + match c {
                    None => 0,
                    Some(Mark::X) => 1,
                    Some(Mark::O) => 2,
                }
        });
        2 * board + u64::from(self.to_move == Mark::O)
    }

    /// Row and column, 1-based: `r1c1` is the top-left corner.
    fn move_name(&self, square: usize) -> String {
        format!("r{}c{}", square / 3 + 1, square % 3 + 1)
    }

    fn aspiration_delta(&self) -> i32 {
        1
    }

    fn bstar_margin(&self) -> i32 {
        1
    }
}

/// The lecture notes' alpha-beta as their code runs it (in negamax form): two nested
/// loops over rows and columns, and a cutoff `break` that leaves only the inner loop.
/// After a cutoff the outer loop still goes on to the next row and searches its first
/// empty square, with alpha ≥ beta: a closed window, so that child cuts off at once after
/// its own first move, and so on. The value is still right; only the count suffers.
pub fn notes_alphabeta(s: &mut Lab<TicTacToe>, ply: u32, mut alpha: i32, beta: i32) -> i32 {
    let moves = s.game.moves();
    if let Some(v) = s.game.outcome(&moves, ply) {
        s.stats.leaves += 1;
        return v;
    }
    s.stats.interior += 1;
    let mut best = -INF;
    for row in 0..3 {
        for col in 0..3 {
            let square = 3 * row + col;
            if !s.game.is_empty(square) {
                continue;
            }
            s.game.make(square);
            let v = -notes_alphabeta(s, ply + 1, -beta, -alpha);
            s.game.unmake();
            best = best.max(v);
            alpha = alpha.max(best);
            if alpha >= beta {
                break; // leaves the column loop only
            }
        }
    }
    best
}

/// The three searches of the notes' Table 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableSearch {
    /// Plain minimax.
    Minimax,
    /// Alpha-beta.
    AlphaBeta,
    /// Alpha-beta with the notes' `break` ([`notes_alphabeta`]).
    NotesAlphaBeta,
}

impl TableSearch {
    /// The three, in table order.
    pub const ALL: [TableSearch; 3] = [
        TableSearch::Minimax,
        TableSearch::AlphaBeta,
        TableSearch::NotesAlphaBeta,
    ];

    /// The search's name in the table.
    pub fn name(self) -> &'static str {
        match self {
            TableSearch::Minimax => "minimax",
            TableSearch::AlphaBeta => "alphabeta",
            TableSearch::NotesAlphaBeta => "alphabeta-notes",
        }
    }
}

/// What the root driver found.
#[derive(Clone, Debug)]
pub struct DriverResult {
    /// Each root move with its value, in row-major order.
    pub values: Vec<(usize, i32)>,
    /// The first move of best value in row-major order.
    pub best: usize,
    /// The value of the best move, for the side to move.
    pub value: i32,
    /// Nodes below the root (the driver itself is not counted).
    pub stats: Stats,
    /// How long it took.
    pub elapsed: Duration,
}

/// The notes' root driver: each move of the side to move, in row-major order, searched to
/// the end of the game with a fresh full window. The position must not be finished.
pub fn drive(position: &TicTacToe, search: TableSearch) -> DriverResult {
    let mut s = Lab::new(position.clone(), false, Enhancements::NONE);
    let start = Instant::now();
    let mut values = Vec::new();
    for m in s.game.moves() {
        s.game.make(m);
        let depth = s.game.empty_squares();
        let v = -match search {
            TableSearch::Minimax => minimax(&mut s, depth, 1),
            TableSearch::AlphaBeta => alphabeta(&mut s, depth, 1, -INF, INF),
            TableSearch::NotesAlphaBeta => notes_alphabeta(&mut s, 1, -INF, INF),
        };
        s.game.unmake();
        values.push((m, v));
    }
    let &(best, value) = values
        .iter()
        .reduce(|a, b| if b.1 > a.1 { b } else { a })
        .expect("the position is not finished");
    DriverResult {
        values,
        best,
        value,
        stats: s.stats,
        elapsed: start.elapsed(),
    }
}

/// The positions of the table: Table 1's (8 empty squares, O to move), then the ones with
/// 6, 4 and 2 empty squares reached when both sides keep playing the first best move in
/// row-major order (the driver's choice, X's found the same way).
pub fn table_positions() -> Vec<TicTacToe> {
    let mut game = TicTacToe::table1();
    let mut positions = Vec::new();
    loop {
        positions.push(game.clone());
        for _ in 0..2 {
            if game.empty_squares() <= 2 || game.outcome(&game.moves(), 0).is_some() {
                return positions;
            }
            let best = drive(&game, TableSearch::Minimax).best;
            game.make(best);
            game.played.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lab_tictactoe_rules() {
        let won = TicTacToe::from_cells("XXX OO. ...", Mark::O).unwrap();
        assert_eq!(won.outcome(&won.moves(), 0), Some(-1));
        let full = TicTacToe::from_cells("XOX XOO OXX", Mark::O).unwrap();
        assert_eq!(full.outcome(&full.moves(), 0), Some(0));
        let t = TicTacToe::table1();
        assert_eq!(t.moves(), (1..9).collect::<Vec<_>>());
        assert_eq!(t.move_name(4), "r2c2");
    }

    #[test]
    fn lab_notes_table1_counts() {
        let t = TicTacToe::table1();
        let nodes = |search| drive(&t, search).stats.total();
        assert_eq!(nodes(TableSearch::Minimax), 59_704);
        assert_eq!(nodes(TableSearch::AlphaBeta), 4_089);
        assert_eq!(nodes(TableSearch::NotesAlphaBeta), 13_052);
    }
}
