//! The UCI loop. This thread reads stdin and answers at once (`isready`, `stop`, `quit`
//! never wait for a search); each `go` runs on a worker thread that owns the `Searcher`
//! until it has sent its one `bestmove`, then hands it back. `go perft` and `bench` run
//! on a worker thread too, and `stop` ends them.

use std::io::BufRead;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use cutoff_engine::bench;
use cutoff_engine::board::{Board, STARTPOS};
use cutoff_engine::eval;
use cutoff_engine::limits::{Limits, MAX_DEPTH};
use cutoff_engine::nnue::{self, Network};
use cutoff_engine::params;
use cutoff_engine::perft;
use cutoff_engine::search::{Report, SEARCH_STACK_SIZE, SearchOptions, Searcher, Signals};
use cutoff_engine::skill::{ELO_MAX, Strength, TOP_LEVEL};
use shakmaty::{Color, Position};

use crate::uci::command::{self, BENCH_USAGE, Command, Go};
use crate::uci::options::{self, DEFAULT_HASH_MB, EMBEDDED_NETWORK, Value};
use crate::uci::output;
use crate::uci::syzygy;

/// Stack of the perft thread, which only hands the work to rayon's pool.
const SMALL_STACK_SIZE: usize = 1 << 20;

/// Sends one line to the GUI (stdout is line-buffered; each line is flushed whole).
pub fn send(line: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    // A closed stdout means the GUI is gone; there is no one left to tell.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn error(message: &str) {
    send(&format!("info string error: {message}"));
}

/// Takes the searcher out of the slot `go` hands it over in. Every profile aborts on a
/// panic, so the lock is never poisoned; reading through a poisoned one would be sound.
fn take(slot: &Mutex<Option<Searcher>>) -> Option<Searcher> {
    slot.lock().unwrap_or_else(PoisonError::into_inner).take()
}

/// A job running on its worker thread: a search (which hands the searcher back when it
/// ends), a perft or a bench.
struct Running {
    handle: JoinHandle<Option<Searcher>>,
    /// Set by the worker just before it sends its last line (`bestmove`, the perft or
    /// bench total).
    done: Arc<AtomicBool>,
}

pub struct Session {
    board: Board,
    chess960: bool,
    show_wdl: bool,
    debug: bool,
    hash_mb: usize,
    /// `Skill Level`, `UCI_LimitStrength` and `UCI_Elo`, combined into `options.strength`.
    skill_level: i64,
    limit_strength: bool,
    elo: i64,
    /// `UseNNUE`: the network evaluates instead of the hand-crafted evaluation.
    use_nnue: bool,
    /// The network `EvalFile` named (the embedded one until another is read), and its name.
    network: Arc<Network>,
    eval_file: String,
    options: SearchOptions,
    /// The searcher when idle; while a search runs, its worker owns it.
    searcher: Option<Searcher>,
    running: Option<Running>,
    signals: Arc<Signals>,
}

impl Session {
    pub fn new() -> Result<Self, String> {
        let searcher = Searcher::new(DEFAULT_HASH_MB)?;
        searcher.tt().fault_in();
        let mut session = Session {
            board: Board::default(),
            chess960: false,
            show_wdl: false,
            debug: false,
            hash_mb: DEFAULT_HASH_MB,
            skill_level: TOP_LEVEL,
            limit_strength: false,
            elo: ELO_MAX,
            use_nnue: true,
            network: Arc::new(nnue::embedded()),
            eval_file: EMBEDDED_NETWORK.to_string(),
            options: SearchOptions::default(),
            signals: searcher.signals(),
            searcher: Some(searcher),
            running: None,
        };
        // The searcher starts without a network; `UseNNUE` is on from the start.
        session.apply_network();
        Ok(session)
    }

    /// Reads commands until `quit` or end of input.
    pub fn run(&mut self) {
        let stdin = std::io::stdin();
        let mut lines = stdin.lock();
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match lines.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            // Invalid UTF-8 is read lossily: it can only make an unknown command.
            let line = String::from_utf8_lossy(&buf);
            if !self.handle(&line) {
                break;
            }
        }
        self.stop_search();
    }

    /// Handles one line; false means quit.
    pub fn handle(&mut self, line: &str) -> bool {
        let command = match command::parse(line) {
            Ok(Some(c)) => c,
            Ok(None) => return true,
            Err(e) => {
                error(&e);
                return true;
            }
        };
        match command {
            Command::Uci => {
                send(&format!("id name Cutoff {}", crate::VERSION));
                send("id author the Cutoff developers");
                for o in options::all() {
                    send(&o.declaration());
                }
                send("uciok");
            }
            Command::Debug(on) => self.debug = on,
            Command::IsReady => send("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Register => {}
            Command::UciNewGame => {
                if let Some(s) = self.idle_searcher("ucinewgame") {
                    s.clear();
                    self.reset_position();
                }
            }
            Command::Position { fen, moves } => self.set_position(fen.as_deref(), &moves),
            Command::Go(go) => self.go(go),
            Command::Stop => self.stop_search(),
            Command::PonderHit => self.signals.ponder.store(false, Ordering::Relaxed),
            Command::Quit => return false,
            Command::Display => self.display(),
            Command::Eval => {
                send_lines(&eval::trace(self.board.pos()).to_string());
                self.network_eval();
            }
            Command::Bench {
                depth,
                threads,
                hash_mb,
            } => self.bench(
                depth.map_or(bench::DEFAULT_DEPTH, |d| d as i32),
                threads.map_or(1, |n| n as usize),
                hash_mb.map_or(bench::DEFAULT_HASH_MB, |mb| mb as usize),
            ),
        }
        true
    }

    /// The searcher if no search is running (a finished one is collected first);
    /// otherwise reports that `what` must wait for the search to end.
    fn idle_searcher(&mut self, what: &str) -> Option<&mut Searcher> {
        if let Some(running) = &self.running
            && running.done.load(Ordering::Acquire)
        {
            self.collect();
        }
        if self.running.is_some() {
            error(&format!(
                "{what} ignored: a search, perft or bench is running (send 'stop' first)"
            ));
            return None;
        }
        self.searcher.as_mut()
    }

    /// Joins the finished worker and takes the searcher back.
    fn collect(&mut self) {
        if let Some(running) = self.running.take() {
            // Every profile aborts on a panic (Cargo.toml: a panic is a bug, and the engine
            // does not go on in a state nobody planned for), so a search thread that
            // returns has always returned its searcher.
            let searcher = running
                .handle
                .join()
                .unwrap_or_else(|_| unreachable!("panic = \"abort\" in every profile"));
            if searcher.is_some() {
                self.searcher = searcher;
            }
        }
    }

    /// Stops a running search, perft or bench and waits for its last line. Ignored when
    /// idle.
    fn stop_search(&mut self) {
        if self.running.is_some() {
            self.signals.stop.store(true, Ordering::Relaxed);
            self.collect();
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let (name, value) = match options::check(name, value) {
            Ok(v) => v,
            Err(e) => return error(&e),
        };
        let Some(searcher) = self.idle_searcher(&format!("setoption {name}")) else {
            return;
        };
        match (name, value) {
            ("Hash", Value::Spin(mb)) => match searcher.set_hash(mb as usize) {
                Ok(()) => self.hash_mb = mb as usize,
                Err(e) => error(&format!("{e}; keeping {} MB", self.hash_mb)),
            },
            ("Threads", Value::Spin(n)) => {
                searcher.set_threads(n as usize);
                self.options.threads = n as usize;
            }
            ("MultiPV", Value::Spin(n)) => self.options.multipv = n as usize,
            ("Move Overhead", Value::Spin(ms)) => {
                self.options.move_overhead = Duration::from_millis(ms as u64);
            }
            ("Ponder", Value::Check(_)) => {}
            ("UCI_ShowWDL", Value::Check(on)) => self.show_wdl = on,
            ("UCI_Chess960", Value::Check(on)) => {
                self.chess960 = on;
                // The current position is read again in the new castling mode, its game
                // history kept. One the new mode cannot read (a Chess960 castling right
                // in standard chess) gives way to the start position rather than stay in
                // the old mode. Said, but not as an error: python-chess switches the
                // option between games, before it sends the next game's position.
                match self.board.in_castling_mode(on) {
                    Ok(board) => self.board = board,
                    Err(e) => {
                        send(&format!(
                            "info string UCI_Chess960: {e}; the position is now the start position"
                        ));
                        self.reset_position();
                    }
                }
            }
            ("Skill Level", Value::Spin(level)) => self.skill_level = level,
            ("UCI_LimitStrength", Value::Check(on)) => self.limit_strength = on,
            ("UCI_Elo", Value::Spin(elo)) => self.elo = elo,
            ("Clear Hash", Value::Button) => searcher.clear(),
            ("SyzygyPath", Value::String(path)) => {
                let loaded = syzygy::load(&path);
                searcher.set_tablebases(loaded.tablebases);
                for message in &loaded.messages {
                    send(&format!("info string {message}"));
                }
            }
            ("SyzygyProbeDepth", Value::Spin(depth)) => {
                self.options.syzygy.probe_depth = depth as i32;
            }
            ("SyzygyProbeLimit", Value::Spin(pieces)) => {
                self.options.syzygy.probe_limit = pieces as usize;
            }
            ("Syzygy50MoveRule", Value::Check(on)) => self.options.syzygy.rule50 = on,
            ("UseNNUE", Value::Check(on)) => {
                self.use_nnue = on;
                self.apply_network();
            }
            ("EvalFile", Value::String(path)) => self.set_eval_file(path),
            // The other spins are a tuning build's search constants, checked in range.
            (name, Value::Spin(v)) => {
                if let Err(e) = params::set(name, v as i32) {
                    error(&e);
                }
            }
            _ => unreachable!("options::check returns only declared options"),
        }
        // As in Stockfish, UCI_LimitStrength (with UCI_Elo) overrides Skill Level.
        self.options.strength = if self.limit_strength {
            Some(Strength::from_elo(self.elo))
        } else {
            Strength::from_skill_level(self.skill_level)
        };
        if self.debug {
            send(&format!("info string {name} set"));
        }
    }

    /// `EvalFile`: reads the network (the embedded one for `<embedded>` or nothing); a
    /// file that cannot be read or is no valid network leaves the current one in force.
    fn set_eval_file(&mut self, path: String) {
        let embedded = path.is_empty() || path == EMBEDDED_NETWORK;
        let name = if embedded {
            EMBEDDED_NETWORK.to_string()
        } else {
            path
        };
        let loaded = if embedded {
            Ok(nnue::embedded())
        } else {
            Network::load(Path::new(&name))
        };
        match loaded {
            Ok(network) => {
                send(&format!(
                    "info string EvalFile {name}: network of {} hidden neurons read",
                    network.hidden()
                ));
                self.network = Arc::new(network);
                self.eval_file = name;
                self.apply_network();
            }
            Err(e) => error(&format!("EvalFile: {e}; keeping {}", self.eval_file)),
        }
    }

    /// Hands the searcher the network if `UseNNUE` is on, else none.
    fn apply_network(&mut self) {
        if let Some(searcher) = self.searcher.as_mut() {
            searcher.set_network(self.use_nnue.then(|| Arc::clone(&self.network)));
        }
    }

    /// `eval`, after the hand-crafted breakdown: the network's score of the position.
    fn network_eval(&self) {
        let stm = self.network.evaluate_full(self.board.pos());
        let (white, side) = match self.board.turn() {
            Color::White => (stm, "White"),
            Color::Black => (-stm, "Black"),
        };
        let in_use = if self.use_nnue {
            "in use"
        } else {
            "not in use"
        };
        send("");
        send(&format!(
            "Network {}, {} hidden neurons ({in_use}: UseNNUE)",
            self.eval_file,
            self.network.hidden()
        ));
        send(&format!("Network, White's view: {white} cp"));
        send(&format!("Network, side to move ({side}): {stm} cp"));
    }

    /// The start position, read in the current castling mode.
    fn reset_position(&mut self) {
        self.board = Board::from_fen(STARTPOS, self.chess960)
            .expect("the start position reads in either castling mode");
    }

    /// `position`: builds the new position completely before replacing the old one, so a
    /// bad FEN or move leaves the previous position in force.
    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) {
        let board = match fen {
            None => Board::from_fen(STARTPOS, self.chess960),
            Some(fen) => Board::from_fen(fen, self.chess960),
        };
        let mut board = match board {
            Ok(b) => b,
            Err(e) => return error(&format!("{e}; position unchanged")),
        };
        for text in moves {
            match board.parse_uci(text) {
                Ok(m) => board.make(m),
                Err(e) => return error(&format!("{e}; position unchanged")),
            }
        }
        board.commit();
        self.board = board;
    }

    fn display(&self) {
        let mut text = String::new();
        let pos = self.board.pos();
        for rank in (0..8).rev() {
            text.push_str(" +---+---+---+---+---+---+---+---+\n |");
            for file in 0..8 {
                let sq = shakmaty::Square::from_coords(
                    shakmaty::File::new(file),
                    shakmaty::Rank::new(rank),
                );
                let c = pos.board().piece_at(sq).map_or(' ', |p| p.char());
                text.push_str(&format!(" {c} |"));
            }
            text.push_str(&format!(" {}\n", rank + 1));
        }
        text.push_str(" +---+---+---+---+---+---+---+---+\n   a   b   c   d   e   f   g   h\n");
        text.push_str(&format!(
            "\nFen: {}\nKey: {:016X}\n",
            self.board.fen(),
            self.board.key()
        ));
        let checkers: Vec<String> = pos
            .checkers()
            .into_iter()
            .map(|sq| sq.to_string())
            .collect();
        text.push_str(&format!("Checkers: {}", checkers.join(" ")));
        send_lines(&text);
    }

    /// Starts `job` on a worker thread with the stop flag cleared; it gets the flag to set
    /// before its last line. Fails only when no thread can be had.
    fn spawn(
        &mut self,
        name: &str,
        stack_size: usize,
        job: impl FnOnce(&AtomicBool) -> Option<Searcher> + Send + 'static,
    ) -> std::io::Result<()> {
        self.signals.stop.store(false, Ordering::Relaxed);
        let done = Arc::new(AtomicBool::new(false));
        let worker_done = Arc::clone(&done);
        let handle = std::thread::Builder::new()
            .name(name.into())
            .stack_size(stack_size)
            .spawn(move || job(&worker_done))?;
        self.running = Some(Running { handle, done });
        Ok(())
    }

    /// `go perft N`: the divide of the current position, off this thread so that `stop`
    /// and `quit` are heard.
    fn perft(&mut self, depth: u32) {
        if self.idle_searcher("go perft").is_none() {
            return;
        }
        let board = self.board.clone();
        let signals = Arc::clone(&self.signals);
        let spawned = self.spawn("perft", SMALL_STACK_SIZE, move |done| {
            run_perft(&board, depth, 0, true, &signals.stop, || {
                done.store(true, Ordering::Release);
            });
            None
        });
        if let Err(e) = spawned {
            error(&format!("cannot start the perft thread: {e}"));
        }
    }

    /// `bench [depth] [threads] [hash]`: as `cutoff bench`, off this thread, with the
    /// network if `UseNNUE` is on (as `cutoff bench`).
    fn bench(&mut self, depth: i32, threads: usize, hash_mb: usize) {
        if self.idle_searcher("bench").is_none() {
            return;
        }
        send(&format!(
            "info string bench depth {depth} threads {threads} hash {hash_mb} \
             (usage: {BENCH_USAGE}, as cutoff bench; stop ends it)"
        ));
        let signals = Arc::clone(&self.signals);
        let network = self.use_nnue.then(|| Arc::clone(&self.network));
        let spawned = self.spawn("bench", SEARCH_STACK_SIZE, move |done| {
            run_bench(depth, threads, hash_mb, network, signals, || {
                done.store(true, Ordering::Release);
            });
            None
        });
        if let Err(e) = spawned {
            error(&format!("cannot start the bench thread: {e}"));
        }
    }

    /// `go`: exactly one `bestmove` follows, whatever the line carried (bad values are
    /// reported and left out), unless a job is already running and the `go` is refused.
    fn go(&mut self, go: Go) {
        for message in &go.errors {
            error(message);
        }
        if let Some(depth) = go.perft {
            return self.perft(depth);
        }
        if self.idle_searcher("go").is_none() {
            return;
        }
        let limits = self.limits(&go);
        let Some(searcher) = self.searcher.take() else {
            return error("no searcher available");
        };
        self.signals.ponder.store(limits.ponder, Ordering::Relaxed);
        let board = self.board.clone();
        let options = self.options.clone();
        let show_wdl = self.show_wdl;
        // The searcher goes over in a slot the session keeps a handle to: a thread that
        // cannot be started drops its closure, and the searcher (its table, threads,
        // network and tablebases) must not go with it.
        let slot = Arc::new(Mutex::new(Some(searcher)));
        let handed = Arc::clone(&slot);
        let spawned = self.spawn("search", SEARCH_STACK_SIZE, move |done| {
            let Some(mut searcher) = take(&handed) else {
                unreachable!("the session takes the searcher back only if no thread started")
            };
            let result = searcher.search(&board, &limits, &options, &mut |report| match report {
                Report::Iteration(info) => send(&output::info(&info, &board, show_wdl)),
                Report::CurrentMove { depth, mv, number } => send(&format!(
                    "info depth {depth} currmove {} currmovenumber {number}",
                    board.uci(mv)
                )),
            });
            // Marked done before `bestmove` goes out, so that a command the GUI sends
            // in reply finds the search finished (and joins it) rather than refused.
            done.store(true, Ordering::Release);
            send(&output::bestmove(&board, result.best, result.ponder));
            Some(searcher)
        });
        if let Err(e) = spawned {
            // Answered with a legal move all the same; the searcher stays for the next `go`.
            error(&format!("cannot start the search thread: {e}"));
            self.searcher = take(&slot);
            let first = self.board.legal_moves().first().copied();
            send(&output::bestmove(&self.board, first, None));
        }
    }

    /// Search limits from a `go` command, in the current position.
    /// Illegal `searchmoves` entries are reported and left out; with none left, every
    /// move is searched (as Stockfish does). `mate 0` asks for nothing and is left out.
    fn limits(&self, go: &Go) -> Limits {
        let white = self.board.turn() == Color::White;
        let (own, other) = if white {
            ((go.wtime, go.winc), (go.btime, go.binc))
        } else {
            ((go.btime, go.binc), (go.wtime, go.winc))
        };
        // A GUI that sends only one side's clock still gets a timed search: with no clock
        // for the side to move, the opponent's (and its increment) stands in for it.
        let (time, inc) = if own.0.is_none() && other.0.is_some() {
            other
        } else {
            own
        };
        let searchmoves = go
            .searchmoves
            .iter()
            .filter_map(|m| match self.board.parse_uci(m) {
                Ok(mv) => Some(mv),
                Err(e) => {
                    error(&format!("go searchmoves {m}: {e}; ignored"));
                    None
                }
            })
            .collect();
        if go.mate == Some(0) {
            error("go mate 0: a mate in no moves is no limit; ignored");
        }
        Limits {
            depth: go.depth.map(|d| d.clamp(1, MAX_DEPTH as u32) as i32),
            nodes: go.nodes,
            mate: go.mate.filter(|&m| m > 0).map(|m| m.min(1000) as i32),
            movetime: go.movetime.map(Duration::from_millis),
            time: time.map(Duration::from_millis),
            increment: Duration::from_millis(inc.unwrap_or(0)),
            movestogo: go.movestogo.filter(|&m| m > 0),
            infinite: go.infinite,
            ponder: go.ponder,
            searchmoves,
            started: Some(Instant::now()),
        }
    }
}

/// Sends a multi-line text line by line.
fn send_lines(text: &str) {
    for line in text.lines() {
        send(line);
    }
}

/// `perft`: one `move: count` line per root move, then the total (Stockfish's format);
/// `stop` set ends it early with a note instead. `last` runs before the last line.
pub fn run_perft(
    board: &Board,
    depth: u32,
    threads: usize,
    divide: bool,
    stop: &AtomicBool,
    last: impl FnOnce(),
) {
    let start = Instant::now();
    let Some(parts) = perft::divide_until(board, depth.max(1), threads, stop) else {
        last();
        return send("info string perft stopped");
    };
    let total: u64 = if depth == 0 {
        1
    } else {
        parts.iter().map(|(_, n)| n).sum()
    };
    if divide && depth > 0 {
        for (m, n) in &parts {
            send(&format!("{}: {n}", board.uci(*m)));
        }
        send("");
    }
    let elapsed = start.elapsed();
    let nps = output::nps(total, elapsed);
    if !divide {
        send(&format!("Nodes searched: {total}"));
        last();
        send(&format!("Time: {} ms, {nps} nps", elapsed.as_millis()));
    } else {
        last();
        send(&format!("Nodes searched: {total}"));
    }
}

/// `bench`: per-position lines, then the totals OpenBench reads; `signals.stop` ends it
/// early with a note instead. `last` runs before the last line. False on failure.
pub fn run_bench(
    depth: i32,
    threads: usize,
    hash_mb: usize,
    network: Option<Arc<Network>>,
    signals: Arc<Signals>,
    last: impl FnOnce(),
) -> bool {
    let mut index = 0;
    let outcome = bench::run_until(depth, threads, hash_mb, network, signals, |line| {
        index += 1;
        send(&format!(
            "position {index:2}: {:>10} nodes {:>6} ms  {}",
            line.nodes,
            line.time.as_millis(),
            line.fen
        ));
    });
    match outcome {
        Ok(Some((nodes, time))) => {
            let nps = output::nps(nodes, time);
            send(&format!("Total time: {} ms", time.as_millis()));
            last();
            send(&format!("{nodes} nodes {nps} nps"));
            true
        }
        Ok(None) => {
            last();
            send(&format!(
                "info string bench stopped after {index} of {} positions",
                bench::POSITIONS.len()
            ));
            true
        }
        Err(e) => {
            last();
            error(&e);
            false
        }
    }
}
