//! The board the search walks: a `shakmaty::Chess` position plus what a search needs
//! beside it — an incrementally updated Zobrist key, the keys of earlier positions for
//! repetition detection, and copy-make with an undo stack.

use shakmaty::{
    Bitboard, CastlingMode, CastlingSide, Chess, Color, EnPassantMode, File, FromSetup, Move,
    MoveList, Position, PositionError, PositionErrorKinds, Role, Setup, Square, attacks,
    fen::Fen,
    uci::UciMove,
    zobrist::{Zobrist64, ZobristValue},
};

use crate::displacement::{Displacement, Placed};
use crate::movegen::{is_legal_normal, line_blockers};

/// The initial position.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why a FEN or a move was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardError(pub String);

impl std::fmt::Display for BoardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BoardError {}

/// One position on the board's stack, with what the search keeps beside it.
#[derive(Clone)]
struct State {
    pos: Chess,
    /// Zobrist key, equal to shakmaty's with `EnPassantMode::Legal`.
    key: u64,
    /// File of the en-passant square if (and only if) it is part of the key: shakmaty's
    /// `EnPassantMode::Legal` hashes it only when a legal en-passant capture exists.
    ep_file: Option<File>,
    /// Moves made since the last null move (`usize::MAX` without one): a line through a
    /// null move is no game, so repetitions are not looked for across one.
    plies_since_null: usize,
    /// The move that made this position from the one below it on the stack (None for the
    /// game position and after a null move): what the network's accumulators step by.
    made: Option<Move>,
}

/// A chess position with an incremental Zobrist key and the history needed to detect
/// repetitions. Moves are made with `make` and taken back with `unmake` (copy-make: each
/// move copies the current position onto a stack and plays it there, so taking a move
/// back is a pop).
#[derive(Clone)]
pub struct Board {
    /// The positions made since the game position, which is first; never empty, the
    /// last is the current position.
    states: Vec<State>,
    /// Keys of every earlier position, game history first, then the moves made by `make`.
    keys: Vec<u64>,
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({})", self.fen())
    }
}

impl Default for Board {
    fn default() -> Self {
        Board::from_position(Chess::default(), Vec::new())
    }
}

/// Castling rights as the four Zobrist-relevant flags (colour × side).
fn castling_flags(pos: &Chess) -> [bool; 4] {
    let c = pos.castles();
    [
        c.has(Color::White, CastlingSide::KingSide),
        c.has(Color::White, CastlingSide::QueenSide),
        c.has(Color::Black, CastlingSide::KingSide),
        c.has(Color::Black, CastlingSide::QueenSide),
    ]
}

const FLAG_KEYS: [(Color, CastlingSide); 4] = [
    (Color::White, CastlingSide::KingSide),
    (Color::White, CastlingSide::QueenSide),
    (Color::Black, CastlingSide::KingSide),
    (Color::Black, CastlingSide::QueenSide),
];

fn piece_key((piece, square): Placed) -> u64 {
    Zobrist64::zobrist_for_piece(square, piece).0
}

fn turn_key() -> u64 {
    Zobrist64::zobrist_for_white_turn().0
}

fn ep_key(file: File) -> u64 {
    Zobrist64::zobrist_for_en_passant_file(file).0
}

/// Builds a position from a parsed FEN. Positions shakmaty rejects only for an
/// "impossible check" (two aligned checkers and the like: unreachable in a game but well
/// defined to search) are accepted. With `repair`, castling rights without their rook are
/// dropped instead of refused (some published test suites carry such rights).
pub fn position_from_fen(fen: Fen, mode: CastlingMode, repair: bool) -> Result<Chess, BoardError> {
    let mut tolerated = PositionErrorKinds::IMPOSSIBLE_CHECK;
    if repair {
        tolerated |= PositionErrorKinds::INVALID_CASTLING_RIGHTS;
    }
    accept(fen.into_position(mode), tolerated)
}

/// Builds a position from a setup (a decoded training record) with the same tolerance
/// as [`position_from_fen`] without repair.
pub fn position_from_setup(setup: Setup, mode: CastlingMode) -> Result<Chess, BoardError> {
    accept(
        Chess::from_setup(setup, mode),
        PositionErrorKinds::IMPOSSIBLE_CHECK,
    )
}

fn accept(
    result: Result<Chess, PositionError<Chess>>,
    tolerated: PositionErrorKinds,
) -> Result<Chess, BoardError> {
    // shakmaty's message already reads "illegal position: …".
    let illegal = |e: PositionError<Chess>| BoardError(e.to_string());
    match result {
        Ok(pos) => Ok(pos),
        Err(err) if tolerated.contains(err.kinds()) => Ok(err
            .ignore_impossible_check()
            .or_else(PositionError::ignore_invalid_castling_rights)
            .map_err(illegal)?),
        Err(err) => Err(illegal(err)),
    }
}

/// The key after `us` played `m` from a position keyed `key` (en-passant file `ep_file`
/// in the key), counting the side to move, the old en-passant file and the pieces moved,
/// but neither lost castling rights nor a new en-passant file.
fn key_after_pieces(key: u64, ep_file: Option<File>, m: Move, us: Color) -> u64 {
    let mut key = key ^ turn_key();
    if let Some(file) = ep_file {
        key ^= ep_key(file);
    }
    key ^ match Displacement::of(m, us) {
        Displacement::Move { off, on } => piece_key(off) ^ piece_key(on),
        Displacement::Capture {
            off: [off1, off2],
            on,
        } => piece_key(off1) ^ piece_key(off2) ^ piece_key(on),
        Displacement::Castle {
            off: [off1, off2],
            on: [on1, on2],
        } => piece_key(off1) ^ piece_key(off2) ^ piece_key(on1) ^ piece_key(on2),
    }
}

/// The key after the legal move `m` took `before` to `after`, given `pieces_key`, what
/// [`key_after_pieces`] makes of `before`'s key; and the en-passant file the new key
/// holds.
fn key_after(pieces_key: u64, m: Move, before: &Chess, after: &Chess) -> (u64, Option<File>) {
    let us = before.turn();
    let them = !us;
    let mut key = pieces_key;
    // Most moves keep every castling right: one bitboard comparison settles those.
    if before.castles().castling_rights() != after.castles().castling_rights() {
        let before = castling_flags(before);
        let now = castling_flags(after);
        for (i, (color, side)) in FLAG_KEYS.into_iter().enumerate() {
            if before[i] != now[i] {
                key ^= Zobrist64::zobrist_for_castling_right(color, side).0;
            }
        }
    }
    // Only a double pawn push can create an en-passant square, and only one beside an
    // enemy pawn needs shakmaty's full legality check.
    let ep_file = match m {
        Move::Normal {
            role: Role::Pawn,
            from,
            to,
            ..
        } if from.rank().distance(to.rank()) == 2 => {
            let passed = Square::new((u32::from(from) + u32::from(to)) / 2);
            let capturers = after.board().pawns() & after.board().by_color(them);
            if (attacks::pawn_attacks(us, passed) & capturers).any() {
                after.legal_ep_square().map(|sq| sq.file())
            } else {
                None
            }
        }
        _ => None,
    };
    if let Some(file) = ep_file {
        key ^= ep_key(file);
    }
    (key, ep_file)
}

impl Board {
    /// Wraps a position; `history` holds the keys of the game's earlier positions (oldest first).
    pub fn from_position(pos: Chess, history: Vec<u64>) -> Self {
        let key = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
        let ep_file = pos.legal_ep_square().map(|sq| sq.file());
        Board {
            states: vec![State {
                pos,
                key,
                ep_file,
                plies_since_null: usize::MAX,
                made: None,
            }],
            keys: history,
        }
    }

    /// Parses a FEN (X-FEN `KQkq` or Shredder-FEN `HAha` castling rights both accepted).
    pub fn from_fen(fen: &str, chess960: bool) -> Result<Self, BoardError> {
        let fen: Fen = fen
            .trim()
            .parse()
            .map_err(|e| BoardError(format!("bad FEN: {e}")))?;
        let pos = position_from_fen(fen, CastlingMode::from_chess960(chess960), false)?;
        Ok(Board::from_position(pos, Vec::new()))
    }

    /// The current position read in the castling mode `chess960` says, with the same
    /// game history (a position's key does not depend on the mode). Fails where that
    /// mode cannot hold the position's castling rights: a Chess960 right that standard
    /// chess has no rook for.
    pub fn in_castling_mode(&self, chess960: bool) -> Result<Board, BoardError> {
        let setup = self.pos().to_setup(EnPassantMode::Legal);
        let pos = position_from_setup(setup, CastlingMode::from_chess960(chess960))?;
        Ok(Board::from_position(pos, self.keys.clone()))
    }

    /// The FEN of the current position. Castling rights are written as shakmaty writes
    /// them, X-FEN style: `KQkq` for a rook on its outermost file, a file letter only
    /// where that would be ambiguous (`genfens` writes Shredder-FEN itself).
    pub fn fen(&self) -> String {
        Fen::from_position(&self.top().pos, EnPassantMode::Legal).to_string()
    }

    /// The underlying shakmaty position.
    #[inline]
    pub fn pos(&self) -> &Chess {
        &self.top().pos
    }

    /// The Zobrist key of the current position (equal to shakmaty's `zobrist_hash` with
    /// `EnPassantMode::Legal`).
    #[inline]
    pub fn key(&self) -> u64 {
        self.top().key
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.top().pos.turn()
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.top().pos.is_check()
    }

    /// Every legal move of the side to move.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        self.top().pos.legal_moves()
    }

    fn castling_mode(&self) -> CastlingMode {
        self.top().pos.castles().mode()
    }

    /// Parses a move in UCI notation (`e2e4`, `e7e8q`; `e1h1` king-takes-rook in Chess960)
    /// and checks that it is legal here.
    pub fn parse_uci(&self, text: &str) -> Result<Move, BoardError> {
        let uci: UciMove = text
            .parse()
            .map_err(|_| BoardError(format!("unparsable move '{text}'")))?;
        uci.to_move(&self.top().pos)
            .map_err(|_| BoardError(format!("illegal move '{text}' in {}", self.fen())))
    }

    /// A move in UCI notation for this board's castling mode.
    pub fn uci(&self, m: Move) -> String {
        m.to_uci(self.castling_mode()).to_string()
    }

    /// Makes a legal move: the current position is copied onto the stack and played there.
    pub fn make(&mut self, m: Move) {
        self.make_with_hint(m, self.key_after_hint(m));
    }

    /// Makes the legal move `m` as [`make`](Board::make) does, given its
    /// [`key_after_hint`](Board::key_after_hint): the search computes that to prefetch the
    /// child's table entry, and the new key starts from it.
    pub fn make_with_hint(&mut self, m: Move, hint: u64) {
        debug_assert_eq!(hint, self.key_after_hint(m));
        let len = self.states.len();
        self.states.extend_from_within(len - 1..);
        let (parents, child) = self.states.split_at_mut(len);
        let (before, after) = (&parents[len - 1], &mut child[0]);
        after.pos.play_unchecked(m);
        (after.key, after.ep_file) = key_after(hint, m, &before.pos, &after.pos);
        after.plies_since_null = before.plies_since_null.saturating_add(1);
        after.made = Some(m);
        self.keys.push(before.key);
    }

    /// The key of the position after the legal move `m`, except when `m` takes away a
    /// castling right or allows an en-passant capture: exact for most moves and cheap, so
    /// that the child's table entry can be fetched before the move is made.
    #[inline]
    pub fn key_after_hint(&self, m: Move) -> u64 {
        let top = self.top();
        key_after_pieces(top.key, top.ep_file, m, top.pos.turn())
    }

    /// Passes the move to the opponent. Must not be called in check.
    pub fn make_null(&mut self) {
        let top = self.top();
        let pos = accept(
            top.pos.clone().swap_turn(),
            PositionErrorKinds::IMPOSSIBLE_CHECK,
        )
        .expect("a null move is only made when the side to move is not in check");
        let mut key = top.key ^ turn_key();
        if let Some(file) = top.ep_file {
            key ^= ep_key(file);
        }
        self.keys.push(top.key);
        self.states.push(State {
            pos,
            key,
            ep_file: None,
            plies_since_null: 0,
            made: None,
        });
    }

    /// Positions on the stack: the game position and one for each `make` or `make_null`
    /// since (what the network's accumulators are kept beside).
    #[inline]
    pub fn stack_len(&self) -> usize {
        self.states.len()
    }

    /// Position `index` on the stack (0: the game position) and its key.
    #[inline]
    pub fn stack_position(&self, index: usize) -> (&Chess, u64) {
        let state = &self.states[index];
        (&state.pos, state.key)
    }

    /// The move that made stack position `index` from position `index - 1`: None for the
    /// game position and for a null move.
    #[inline]
    pub fn stack_move(&self, index: usize) -> Option<Move> {
        self.states[index].made
    }

    /// Takes back the last `make` or `make_null`.
    pub fn unmake(&mut self) {
        assert!(self.states.len() > 1, "unmake without make");
        self.states.pop();
        self.keys.pop();
    }

    /// Forgets the positions made so far, keeping the key history: the current position
    /// becomes a new game position (used after `position … moves …`).
    pub fn commit(&mut self) {
        let current = self.states.len() - 1;
        self.states.drain(..current);
        self.states[0].made = None;
    }

    /// The current position and what is kept beside it.
    #[inline]
    fn top(&self) -> &State {
        self.states
            .last()
            .expect("the board always holds its current position")
    }

    /// True if the current position repeats an earlier one in a way the search scores as
    /// a draw: once inside the search tree (the last `plies_from_root` positions), or
    /// twice in the game before the root (threefold repetition). Positions before a
    /// null move do not count.
    pub fn is_repetition(&self, plies_from_root: usize) -> bool {
        let reversible = (self.top().pos.halfmoves() as usize)
            .min(self.keys.len())
            .min(self.top().plies_since_null);
        let mut seen_before_root = 0;
        // Same side to move: every second earlier position, back to the last irreversible move.
        let mut back = 2;
        while back <= reversible {
            let idx = self.keys.len() - back;
            if self.keys[idx] == self.top().key {
                if back <= plies_from_root {
                    return true;
                }
                seen_before_root += 1;
                if seen_before_root == 2 {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    /// Fifty-move rule (a checkmate on the hundredth half-move still counts as mate:
    /// callers check for mate first when in check).
    #[inline]
    pub fn is_fifty_move_draw(&self) -> bool {
        self.top().pos.halfmoves() >= 100
    }

    /// A draw the search scores without looking further, `plies_from_root` plies into
    /// it: a repetition ([`is_repetition`](Self::is_repetition)), insufficient material,
    /// or the fifty-move rule (unless the hundredth half-move mated).
    #[inline]
    pub fn is_rule_draw(&self, plies_from_root: usize) -> bool {
        self.is_repetition(plies_from_root)
            || self.is_insufficient_material()
            || (self.is_fifty_move_draw() && !(self.in_check() && self.legal_moves().is_empty()))
    }

    /// Neither side can possibly checkmate.
    #[inline]
    pub fn is_insufficient_material(&self) -> bool {
        self.top().pos.is_insufficient_material()
    }

    /// True if the side to move has only king and pawns (null move is unsafe there:
    /// zugzwang is common).
    pub fn only_pawns_and_king(&self) -> bool {
        let b = self.top().pos.board();
        let ours = b.by_color(self.turn());
        (ours & !(b.pawns() | b.kings())).is_empty()
    }

    /// The move in the compact 16-bit form stored in the transposition table.
    #[inline]
    pub fn pack(m: Move) -> u16 {
        let from = m.from().map_or(0, |s| s as u16);
        let to = m.to() as u16;
        let promo = m.promotion().map_or(0, |r| r as u16);
        from | (to << 6) | (promo << 12)
    }

    /// The legal move here whose [`pack`](Board::pack) is `packed`, if there is one: a
    /// TT move checked without generating the node's moves. A stale move (from another
    /// position sharing the key's bucket) or a move that is illegal here gives `None`.
    pub fn unpack(&self, packed: u16) -> Option<Move> {
        let from = Square::new(u32::from(packed & 63));
        let to = Square::new(u32::from((packed >> 6) & 63));
        let promotion = match packed >> 12 {
            0 => None,
            r => Some(Role::try_from(r).ok()?),
        };
        let pos = &self.top().pos;
        let board = pos.board();
        let us = pos.turn();
        let piece = board.piece_at(from).filter(|p| p.color == us)?;
        let target = board.piece_at(to);
        // Castling and en passant, rare as TT moves, are left to shakmaty. Neither
        // promotes: with a promotion code, either is read as a normal move, which is
        // illegal.
        let special = if promotion.is_some() {
            None
        } else if piece.role == Role::King && target == Some(Role::Rook.of(us)) {
            Some(Move::Castle {
                king: from,
                rook: to,
            })
        } else if piece.role == Role::Pawn && from.file() != to.file() && target.is_none() {
            Some(Move::EnPassant { from, to })
        } else {
            None
        };
        if let Some(m) = special {
            return pos.is_legal(m).then_some(m);
        }
        is_legal_normal(pos, piece.role, from, to, promotion).then_some(Move::Normal {
            role: piece.role,
            from,
            capture: target.map(|p| p.role),
            to,
            promotion,
        })
    }

    /// The [`pawn_key`] of this position.
    #[inline]
    pub fn pawn_key(&self) -> u64 {
        pawn_key(self.top().pos.board())
    }

    /// The [`non_pawn_key`] of each colour in this position, indexed by colour.
    #[inline]
    pub fn non_pawn_keys(&self) -> [u64; 2] {
        let board = self.top().pos.board();
        [Color::Black, Color::White].map(|color| non_pawn_key(board, color))
    }

    /// True if the legal move `m` checks the opponent's king, directly or by uncovering a
    /// slider, found from the bitboards without making it (the search asks for every move
    /// it considers pruning). Castling and en passant, rare and with odd geometry, are made
    /// on a scratch copy.
    pub fn gives_check(&self, m: Move) -> bool {
        let Move::Normal {
            role,
            from,
            to,
            promotion,
            ..
        } = m
        else {
            let mut after = self.top().pos.clone();
            after.play_unchecked(m);
            return after.is_check();
        };
        let b = self.top().pos.board();
        let us = self.top().pos.turn();
        let Some(king) = b.king_of(!us) else {
            return false;
        };
        let occupied = (b.occupied() & !Bitboard::from(from)) | Bitboard::from(to);
        let piece = promotion.unwrap_or(role).of(us);
        if attacks::attacks(to, piece, occupied).contains(king) {
            return true;
        }
        let ours = b.by_color(us) & !Bitboard::from(from);
        let diagonal = (b.bishops() | b.queens()) & attacks::bishop_attacks(king, occupied);
        let straight = (b.rooks() | b.queens()) & attacks::rook_attacks(king, occupied);
        ((diagonal | straight) & ours).any()
    }

    /// What [`CheckInfo::gives_check`] needs to test many moves of this position for
    /// check (`None` without an enemy king: nothing gives check then).
    pub fn check_info(&self) -> Option<CheckInfo> {
        let b = self.top().pos.board();
        let us = self.turn();
        let king = b.king_of(!us)?;
        let occupied = b.occupied();
        let diagonal = attacks::bishop_attacks(king, occupied);
        let straight = attacks::rook_attacks(king, occupied);
        Some(CheckInfo {
            squares: [
                attacks::pawn_attacks(!us, king),
                attacks::knight_attacks(king),
                diagonal,
                straight,
                diagonal | straight,
                Bitboard::EMPTY,
            ],
            discoverers: line_blockers(b, king, b.by_color(us)) & b.by_color(us),
            king,
        })
    }

    /// The Zobrist key recomputed from scratch (for tests of the incremental update).
    pub fn full_key(&self) -> u64 {
        self.top()
            .pos
            .zobrist_hash::<Zobrist64>(EnPassantMode::Legal)
            .0
    }
}

/// Which moves of one position give check, found from a few bitboards computed once
/// ([`Board::check_info`]): the search tests every quiet move left at a node that prunes
/// all quiets but checks.
pub struct CheckInfo {
    /// `[role as usize - 1]`: the squares from which a piece of that role attacks the
    /// enemy king, through the pieces on the board now.
    squares: [Bitboard; 6],
    /// The mover's pieces that alone block a line from one of its sliders to the enemy
    /// king: moving off that line uncovers a check.
    discoverers: Bitboard,
    king: Square,
}

impl CheckInfo {
    /// Equal to [`Board::gives_check`] for every legal move of the position it was made
    /// for. A move that neither promotes nor castles nor captures en passant leaves the
    /// lines through the enemy king as they were, but for its own square: the piece on
    /// `from` cannot itself have blocked its path to the king from `to` (it would have
    /// checked already), so the attack sets of the position as it stands decide a direct
    /// check. The other moves are made on a copy by `Board::gives_check`.
    #[inline]
    pub fn gives_check(&self, board: &Board, m: Move) -> bool {
        match m {
            Move::Normal {
                role,
                from,
                to,
                promotion: None,
                ..
            } => {
                self.squares[role as usize - 1].contains(to)
                    || (self.discoverers.contains(from) && !attacks::aligned(from, to, self.king))
            }
            _ => board.gives_check(m),
        }
    }
}

/// A hash of the pawn structure alone, both colours' pawns, for tables keyed by it (0
/// for a board without pawns). Multiplying by odd constants stirs every pawn into the
/// high bits.
#[inline]
pub fn pawn_key(board: &shakmaty::Board) -> u64 {
    let white = (board.pawns() & board.white()).0;
    let black = (board.pawns() & board.black()).0;
    white.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ black.wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
}

/// A hash of one colour's pieces other than pawns (its king included), for tables keyed by
/// them. Each role's squares are stirred by their own odd constant as in [`pawn_key`];
/// pieces, unlike pawns, stand on the top rank too, whose squares a product carries only
/// into the very top bits, so a final fold and multiply spreads them over the rest.
#[inline]
pub fn non_pawn_key(board: &shakmaty::Board, color: Color) -> u64 {
    const STIR: [(Role, u64); 5] = [
        (Role::Knight, 0x9e37_79b9_7f4a_7c15),
        (Role::Bishop, 0xc2b2_ae3d_27d4_eb4f),
        (Role::Rook, 0x1656_67b1_9e37_79f9),
        (Role::Queen, 0x85eb_ca77_c2b2_ae63),
        (Role::King, 0x27d4_eb2f_1656_67c5),
    ];
    let ours = board.by_color(color);
    let key = STIR.iter().fold(0, |key, &(role, stir)| {
        key ^ (board.by_role(role) & ours).0.wrapping_mul(stir)
    });
    (key ^ (key >> 32)).wrapping_mul(0xd6e8_feb8_6659_fd93)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(board: &mut Board, uci: &str) {
        let m = board.parse_uci(uci).unwrap();
        board.make(m);
    }

    /// `gives_check` and `CheckInfo` agree with making the move, for every move of a walk
    /// two plies deep from positions full of checks, pins, promotions, castling, en passant
    /// and discovered checks.
    #[test]
    fn gives_check_matches_making_the_move() {
        fn walk(board: &mut Board, depth: u32, checked: &mut usize) {
            for m in board.legal_moves() {
                let expected = {
                    let mut after = board.pos().clone();
                    after.play_unchecked(m);
                    after.is_check()
                };
                assert_eq!(
                    board.gives_check(m),
                    expected,
                    "{} in {}",
                    board.uci(m),
                    board.fen()
                );
                let info = board.check_info().expect("both kings on the board");
                assert_eq!(
                    info.gives_check(board, m),
                    expected,
                    "check info: {} in {}",
                    board.uci(m),
                    board.fen()
                );
                *checked += 1;
                if depth > 1 {
                    board.make(m);
                    walk(board, depth - 1, checked);
                    board.unmake();
                }
            }
        }
        let mut checked = 0;
        for fen in [
            STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/8/8/2k5/3Pp3/8/8/4K2B b - d3 0 1",
            "4k3/8/8/8/8/8/1p6/R3K2R b KQ - 0 1",
            // Discovered checks: knight moves off the e-file; exd6 and not e6.
            "4k3/8/4N3/8/4R3/8/8/4K3 w - - 0 1",
            "4k3/8/3p4/4P3/8/8/8/4RK2 w - - 0 1",
        ] {
            let mut board = Board::from_fen(fen, false).unwrap();
            walk(&mut board, 2, &mut checked);
        }
        assert_eq!(checked, 5021);
    }

    /// A colour's non-pawn key follows that colour's pieces alone, not the pawns and not
    /// the other colour's pieces; and with these key constants a lone king on any square,
    /// the top rank's included, lands on an entry of its own in a table indexed by the
    /// key's top bits (a random key would collide about one time in eight).
    #[test]
    fn non_pawn_keys_follow_each_colours_pieces() {
        let (white, black) = (Color::White as usize, Color::Black as usize);
        let mut board = Board::default();
        let start = board.non_pawn_keys();
        play(&mut board, "e2e4");
        assert_eq!(board.non_pawn_keys(), start);
        play(&mut board, "g8f6");
        assert_eq!(board.non_pawn_keys()[white], start[white]);
        assert_ne!(board.non_pawn_keys()[black], start[black]);
        let entries: std::collections::HashSet<u64> = Square::ALL
            .into_iter()
            .map(|sq| {
                let mut lone = shakmaty::Board::empty();
                lone.set_piece_at(sq, Color::Black.king());
                non_pawn_key(&lone, Color::Black) >> (64 - crate::params::CORRECTION_BITS)
            })
            .collect();
        assert_eq!(entries.len(), 64);
    }

    #[test]
    fn repetition_in_the_tree_is_found() {
        let mut board = Board::default();
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            play(&mut board, m);
        }
        assert!(board.is_repetition(4));
        // Before the root it takes a second repetition.
        assert!(!board.is_repetition(0));
    }

    #[test]
    fn repetition_across_a_null_move_is_not_a_draw() {
        // Nf3, pass, Ng1, pass: the start position again, but only through null moves.
        let mut board = Board::default();
        play(&mut board, "g1f3");
        board.make_null();
        play(&mut board, "f3g1");
        board.make_null();
        assert_eq!(board.key(), Board::default().key());
        assert!(!board.is_repetition(4));
        // Taking the null moves back restores the history that counts.
        board.unmake();
        board.unmake();
        board.unmake();
        board.unmake();
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            play(&mut board, m);
        }
        assert!(board.is_repetition(4));
    }
}
