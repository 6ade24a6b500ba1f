//! `cutoff datagen`: self-play games in parallel, written to a file as training data
//! (32-byte records of `cutoff_engine::data`, or whole games in the chunks of
//! `cutoff_engine::games`; the games themselves are played by `cutoff_engine::datagen`).
//!
//! Games are numbered; worker threads take the next number, each game on the worker's own
//! one-thread searcher, and the main thread writes finished games in number order, each
//! with a single write. So the file is the same whatever the thread count or the timing,
//! and a run killed at any moment leaves only whole games in it (a kill inside a write
//! leaves at most a partial record or chunk, which the next run on the file cuts off).
//!
//! A run appends: on an existing file it checks the header. A games file knows its games,
//! so a run on it goes on with the numbering where the file stops, and the last chunk, if
//! an interrupted run wrote it short, is gathered again: a run stopped and resumed with the
//! same seed leaves the file one uninterrupted run would have written, byte for byte. A
//! records file does not know its games: there the seed is mixed with the positions
//! already in the file, so that a resumed run does not replay the games before it.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::{ArgGroup, Args};
use cutoff_engine::board::Board;
use cutoff_engine::data::{self, HEADER_BYTES, Header, Outcome, RECORD_BYTES};
use cutoff_engine::datagen::{self, Ending, Game, Openings, Settings};
use cutoff_engine::epd::parse_suite;
use cutoff_engine::games::{self, ChunkWriter, Format, GameReader};
use cutoff_engine::limits::MAX_DEPTH;
use cutoff_engine::search::{SEARCH_STACK_SIZE, Searcher};
use cutoff_engine::tablebase::Tablebases;
use indicatif::ProgressBar;

use crate::tools::network_args::NetworkArgs;
use crate::tools::pending_file::check_distinct;
use crate::tools::progress;
use crate::uci::command::MAX_TOOL_THREADS;

/// Without a terminal for the progress bar, a status line this often.
const STATUS_INTERVAL: Duration = Duration::from_secs(60);
/// Exit status after a second Ctrl-C (128 + SIGINT, as shells report it).
const EXIT_INTERRUPTED: i32 = 130;
/// Games a chunk of a games file gathers before it is written: a kill loses at most the
/// games gathered and not yet written, while the chunk's 20-byte header costs a few
/// hundredths of a byte a position.
const CHUNK_GAMES: u32 = 8;

/// The format of a new output file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// 32-byte records, one a kept position (what `cutoff train` reads).
    Records,
    /// Whole games, every ply's move and score, in checksummed chunks (about 6 bytes a
    /// kept position; `cutoff data convert` makes records of them).
    Games,
}

impl FormatArg {
    /// The format itself.
    pub fn format(self) -> Format {
        match self {
            FormatArg::Records => Format::Records,
            FormatArg::Games => Format::Games,
        }
    }
}
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("target").args(["games", "positions"])))]
pub struct DatagenArgs {
    /// File the positions are appended to (created with a header if missing). Without
    /// --games or --positions the run goes on until interrupted (Ctrl-C, SIGTERM).
    #[arg(long)]
    pub output: PathBuf,
    /// The output's format (default: an existing file's own, else records); an existing
    /// file in the other format is an error.
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// Stop after this many games.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: Option<u64>,
    /// Stop after the game that brings the positions written to at least this many.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub positions: Option<u64>,
    /// Games played at once, each on its own one-thread search.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=MAX_TOOL_THREADS))]
    pub threads: u32,
    /// Nodes searched a move.
    #[arg(long, default_value_t = datagen::DEFAULT_NODES, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Also stop each move's search at this depth.
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..=i64::from(MAX_DEPTH)))]
    pub depth: Option<i32>,
    /// EPD file of opening positions, one drawn at random a game (the first four fields of
    /// a line are the FEN).
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// Random legal plies played before the engine takes over (default: 8 from the start
    /// position without a book, 2 after a book position, so that games from the same book
    /// position differ).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=200))]
    pub random_plies: Option<u32>,
    /// Openings whose first search scores beyond this many centipawns (either side) are
    /// drawn again: their games would teach little but "the winner wins".
    #[arg(long, default_value_t = datagen::OPENING_MAX_SCORE, value_parser = clap::value_parser!(i32).range(0..=30000))]
    pub max_opening_score: i32,
    /// Seed of every random choice: the same seed, settings and starting file write the
    /// same file (default: drawn from the clock, and printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Syzygy tables (folders separated by ':', ';' on Windows): a game ends with the tables'
    /// result as soon as a capture or pawn move reaches them.
    #[arg(long)]
    pub syzygy: Option<String>,
    /// Also append every game to this file as PGN, scores in fastchess's comment form
    /// (`cutoff data from-pgn` turns it into the same records).
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// The evaluation the games are played with (the embedded network unless given).
    #[command(flatten)]
    pub network: NetworkArgs,
    /// Transposition table size of each game's search in MB.
    #[arg(long, default_value_t = datagen::DEFAULT_HASH_MB as u32, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
}

/// What the run stops at.
#[derive(Clone, Copy)]
enum Target {
    Games(u64),
    Positions(u64),
    /// Until interrupted.
    Open,
}

/// Counts of what has been written so far.
#[derive(Default)]
struct Tally {
    games: u64,
    positions: u64,
    /// Plies searched, whether their position was kept or not.
    plies: u64,
    white_wins: u64,
    draws: u64,
    black_wins: u64,
    endings: BTreeMap<&'static str, u64>,
}

impl Tally {
    fn add(&mut self, game: &Game) {
        self.games += 1;
        self.positions += game.samples.len() as u64;
        self.plies += game.moves.len() as u64;
        match game.outcome {
            Outcome::WhiteWins => self.white_wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::BlackWins => self.black_wins += 1,
        }
        *self.endings.entry(ending_name(game.ending)).or_default() += 1;
    }

    fn reached(&self, target: Target) -> bool {
        match target {
            Target::Games(n) => self.games >= n,
            Target::Positions(n) => self.positions >= n,
            Target::Open => false,
        }
    }

    fn rate(&self, elapsed: Duration) -> f64 {
        self.positions as f64 / elapsed.as_secs_f64().max(1e-9)
    }
}

fn ending_name(ending: Ending) -> &'static str {
    match ending {
        Ending::Checkmate => "checkmate",
        Ending::Stalemate => "stalemate",
        Ending::Repetition => "repetition",
        Ending::FiftyMoves => "fifty moves",
        Ending::InsufficientMaterial => "insufficient material",
        Ending::AdjudicatedWin => "adjudicated win",
        Ending::AdjudicatedDraw => "adjudicated draw",
        Ending::Tablebase => "tablebase",
    }
}

/// Runs `cutoff datagen`.
pub fn run(args: &DatagenArgs) -> ExitCode {
    let outputs: Vec<&Path> = std::iter::once(args.output.as_path())
        .chain(args.pgn.as_deref())
        .collect();
    let inputs: Vec<&Path> = args.book.iter().map(PathBuf::as_path).collect();
    if let Err(e) = check_distinct(&outputs, &inputs) {
        eprintln!("cutoff datagen: {e}");
        return ExitCode::from(2);
    }
    let (openings, default_plies) = match load_openings(args.book.as_deref()) {
        Ok(loaded) => loaded,
        Err(e) => {
            eprintln!("cutoff datagen: {e}");
            return ExitCode::from(2);
        }
    };
    let tablebases = match &args.syzygy {
        Some(spec) => match load_tablebases(spec) {
            Ok(tables) => Some(tables),
            Err(e) => {
                eprintln!("cutoff datagen: {e}");
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    let network = match args.network.load() {
        Ok(network) => network,
        Err(e) => {
            eprintln!("cutoff datagen: {e}");
            return ExitCode::from(2);
        }
    };
    let settings = Settings {
        nodes: args.nodes,
        depth: args.depth,
        random_plies: args.random_plies.map_or(default_plies, |p| p as usize),
        opening_max_score: args.max_opening_score,
        tablebases,
    };
    let target = args
        .games
        .map(Target::Games)
        .or(args.positions.map(Target::Positions))
        .unwrap_or(Target::Open);
    let mut searchers = Vec::new();
    for _ in 0..args.threads {
        match Searcher::new(args.hash as usize) {
            Ok(mut s) => {
                s.set_network(network.clone());
                searchers.push(s);
            }
            Err(e) => {
                eprintln!("cutoff datagen: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let opened = match open_output(&args.output, args.format.map(FormatArg::format)) {
        Ok(opened) => opened,
        Err(e) => {
            eprintln!("cutoff datagen: {}: {e}", args.output.display());
            return ExitCode::from(2);
        }
    };
    let (seed, first_game) = run_start(args.seed, &opened);
    let Opened {
        file,
        format,
        positions: existing,
        reopened,
        created,
        ..
    } = opened;
    // A file this run created holds only its header until a game is written: a run that
    // fails before then removes it rather than leave an empty data file behind.
    let discard_if_unused = || {
        if created {
            let _ = std::fs::remove_file(&args.output);
        }
    };
    let pgn = match &args.pgn {
        Some(path) => match OpenOptions::new().create(true).append(true).open(path) {
            Ok(f) => Some(Mutex::new(f)),
            Err(e) => {
                eprintln!("cutoff datagen: cannot open {}: {e}", path.display());
                discard_if_unused();
                return ExitCode::from(2);
            }
        },
        None => None,
    };

    // The output sits behind a lock that each game's write holds: a second Ctrl-C takes it
    // before exiting, so it never cuts a game short.
    let output = Arc::new(Mutex::new(file));
    let stop = Arc::new(AtomicBool::new(false));
    install_interrupt_handler(&stop, &output);

    outln!(
        "datagen: {} thread(s), {}, {} nodes a move{}, openings: {}{}, seed {seed}, from game {first_game} -> {} ({}, {existing} positions there)",
        args.threads,
        args.network.describe(),
        settings.nodes,
        settings
            .depth
            .map_or(String::new(), |d| format!(", depth {d}")),
        describe_openings(args, &openings, settings.random_plies),
        settings
            .tablebases
            .as_ref()
            .map_or(String::new(), |t| format!(
                ", Syzygy adjudication up to {} pieces",
                t.max_pieces()
            )),
        args.output.display(),
        format.name()
    );
    let run = Run {
        settings: &settings,
        openings: &openings,
        seed,
        first_game,
        target,
        stop: &stop,
        output: &output,
        format,
        pgn: pgn.as_ref(),
    };
    let start = Instant::now();
    let (tally, error) = run.play(searchers, reopened);
    let elapsed = start.elapsed();
    outln!(
        "datagen: {} games, {} positions written (of {} plies searched) in {:.1} s \
         ({:.0} positions/s); White wins {}, draws {}, Black wins {}",
        tally.games,
        tally.positions,
        tally.plies,
        elapsed.as_secs_f64(),
        tally.rate(elapsed),
        tally.white_wins,
        tally.draws,
        tally.black_wins
    );
    let endings: Vec<String> = tally
        .endings
        .iter()
        .map(|(name, count)| format!("{name} {count}"))
        .collect();
    outln!("datagen: endings: {}", endings.join(", "));
    if stop.load(Ordering::Relaxed) && !tally.reached(target) && error.is_none() {
        outln!("datagen: interrupted; every game written is complete");
    }
    match error {
        Some(e) => {
            eprintln!("cutoff datagen: {e}");
            if tally.games == 0 {
                discard_if_unused();
            }
            ExitCode::FAILURE
        }
        None => ExitCode::SUCCESS,
    }
}

/// The openings of `book` (the start position without one) and the random plies played
/// after each by default: games are a function of their opening, so without random
/// plies two games from the same book position would be the same game.
pub fn load_openings(book: Option<&Path>) -> Result<(Openings, usize), String> {
    Ok(match book {
        Some(path) => (
            Openings {
                book: load_book(path)?,
            },
            datagen::DEFAULT_BOOK_RANDOM_PLIES,
        ),
        None => (Openings::default(), datagen::DEFAULT_RANDOM_PLIES),
    })
}

/// The engine that writes the data, for the file header.
pub fn generator() -> String {
    format!("cutoff {}", env!("CARGO_PKG_VERSION"))
}

/// An output file opened for appending, and what it holds.
struct Opened {
    file: File,
    format: Format,
    /// Kept positions in the file.
    positions: u64,
    /// Games in the file (a games file's; a records file does not know them).
    games: Option<u64>,
    /// A games file's last chunk when an interrupted run wrote it short: its games start
    /// the run's first chunk, which replaces it.
    reopened: Option<Reopened>,
    /// Whether the file was new or empty (this run wrote its header).
    created: bool,
}

/// A short last chunk, gathered again: where it starts, and its games in a writer that
/// goes on gathering.
struct Reopened {
    offset: u64,
    chunk: ChunkWriter,
}

/// Opens the output for appending: a new or empty file gets a header (in `wanted`'s
/// format, records by default); an existing one must have a valid header in the format
/// asked for, and a partial record or chunk at its end (a run killed inside a write) is
/// cut off.
fn open_output(path: &Path, wanted: Option<Format>) -> Result<Opened, String> {
    let mut file = OpenOptions::new()
        .read(true)
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open: {e}"))?;
    let len = file.metadata().map_err(|e| e.to_string())?.len();
    if len == 0 {
        let format = wanted.unwrap_or(Format::Records);
        let header = match format {
            Format::Records => Header::new(&generator()).to_bytes(),
            Format::Games => games::header_bytes(&generator()),
        };
        file.write_all(&header)
            .map_err(|e| format!("cannot write: {e}"))?;
        return Ok(Opened {
            file,
            format,
            positions: 0,
            games: (format == Format::Games).then_some(0),
            reopened: None,
            created: true,
        });
    }
    let mut magic = [0; 8];
    file.seek(SeekFrom::Start(0))
        .and_then(|_| file.read_exact(&mut magic))
        .map_err(|_| format!("{len} bytes: too short for a data file's header"))?;
    let format = Format::detect(&magic)
        .ok_or("not a Cutoff data file (neither CUTOFFPK nor CUTOFFGM magic)")?;
    if let Some(wanted) = wanted.filter(|&w| w != format) {
        return Err(format!(
            "holds {}, not {}: append in its own format or write a new file",
            format.name(),
            wanted.name()
        ));
    }
    file.seek(SeekFrom::Start(0)).map_err(|e| e.to_string())?;
    let (whole, positions, games, last_chunk) = match format {
        Format::Records => {
            let mut header = [0; HEADER_BYTES];
            file.read_exact(&mut header)
                .map_err(|_| format!("{len} bytes: too short for a data file's header"))?;
            Header::from_bytes(&header).map_err(|e| e.to_string())?;
            let records = (len - HEADER_BYTES as u64) / RECORD_BYTES as u64;
            (
                HEADER_BYTES as u64 + records * RECORD_BYTES as u64,
                records,
                None,
                None,
            )
        }
        Format::Games => {
            let scan = games::scan(std::io::BufReader::new(&file)).map_err(|e| {
                format!("{e}; not appending after damage (`cutoff data merge` copies the whole chunks to a new file)")
            })?;
            (scan.end, scan.positions, Some(scan.games), scan.last_chunk)
        }
    };
    if whole < len {
        let what = match format {
            Format::Records => "record",
            Format::Games => "chunk",
        };
        eprintln!(
            "cutoff datagen: cutting off a partial {what} of {} bytes at the end",
            len - whole
        );
        file.set_len(whole)
            .map_err(|e| format!("cannot truncate: {e}"))?;
    }
    let reopened = match last_chunk {
        Some(offset) => reopen(&mut file, offset, whole)?,
        None => None,
    };
    Ok(Opened {
        file,
        format,
        positions,
        games,
        reopened,
        created: false,
    })
}

/// The games file's last chunk, from `offset` to `end`, if a run wrote it short (fewer
/// than [`CHUNK_GAMES`] games and not full: an interrupted run's last write).
fn reopen(file: &mut File, offset: u64, end: u64) -> Result<Option<Reopened>, String> {
    let mut bytes = vec![0; games::HEADER_BYTES + (end - offset) as usize];
    file.seek(SeekFrom::Start(0))
        .and_then(|_| file.read_exact(&mut bytes[..games::HEADER_BYTES]))
        .and_then(|_| file.seek(SeekFrom::Start(offset)))
        .and_then(|_| file.read_exact(&mut bytes[games::HEADER_BYTES..]))
        .map_err(|e| format!("cannot read the last chunk: {e}"))?;
    let damaged =
        |e: String| format!("the last chunk, at byte {offset}: {e}; not appending after damage");
    let chunk = GameReader::new(&bytes[..])
        .map_err(|e| damaged(e.to_string()))?
        .next()
        .ok_or_else(|| damaged("not found again".into()))?
        .and_then(|chunk| chunk.decode())
        .map_err(|e| damaged(e.to_string()))?;
    let mut writer = ChunkWriter::default();
    for game in &chunk {
        writer.push(game)?;
    }
    Ok(chunk_open(&writer).then_some(Reopened {
        offset,
        chunk: writer,
    }))
}

/// Whether a chunk still gathers games: fewer than [`CHUNK_GAMES`] and not full.
fn chunk_open(chunk: &ChunkWriter) -> bool {
    chunk.games() < CHUNK_GAMES && !chunk.is_full()
}

/// The run's seed and first game number. A games file goes on with the numbering where it
/// stops, with the seed as given (or one from the clock); a records file starts again at
/// game 0 with the seed mixed with the positions already there, so that a resumed run
/// plays new games.
fn run_start(seed: Option<u64>, opened: &Opened) -> (u64, u64) {
    let base = seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    match opened.games {
        Some(games) => (base, games),
        None if opened.positions == 0 => (base, 0),
        None => (
            cutoff_engine::rng::Rng::new(base ^ opened.positions).next_u64(),
            0,
        ),
    }
}

fn load_tablebases(spec: &str) -> Result<Arc<Tablebases>, String> {
    let (tables, scans) = Tablebases::load(&Tablebases::split_path(spec));
    for scan in &scans {
        if let Err(e) = &scan.outcome {
            return Err(format!("cannot read {}: {e}", scan.folder.display()));
        }
    }
    if tables.files() == 0 {
        return Err(format!("no Syzygy table found in {spec}"));
    }
    Ok(Arc::new(tables))
}

/// The book's positions; an unreadable file or one without a position is an error.
fn load_book(path: &Path) -> Result<Vec<Board>, String> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("cannot read book {}: {e}", path.display()))?;
    let suite = parse_suite(&String::from_utf8_lossy(&bytes), false);
    if !suite.errors.is_empty() {
        eprintln!(
            "cutoff datagen: {}: {} line(s) skipped (first: line {}: {})",
            path.display(),
            suite.errors.len(),
            suite.errors[0].line,
            suite.errors[0].message
        );
    }
    if suite.records.is_empty() {
        return Err(format!("book {} holds no position", path.display()));
    }
    Ok(suite.records.into_iter().map(|r| r.board).collect())
}

fn describe_openings(args: &DatagenArgs, openings: &Openings, random_plies: usize) -> String {
    match &args.book {
        Some(path) => format!(
            "{} book positions from {} + {random_plies} random plies",
            openings.book.len(),
            path.display()
        ),
        None => format!("{random_plies} random plies"),
    }
}

/// Ctrl-C, SIGTERM or SIGHUP once: start no new game, finish those in flight, write
/// them and exit. Twice: exit at once, between two games' writes.
fn install_interrupt_handler(stop: &Arc<AtomicBool>, output: &Arc<Mutex<File>>) {
    let stop = Arc::clone(stop);
    let output = Arc::clone(output);
    let installed = ctrlc::set_handler(move || {
        if stop.swap(true, Ordering::Relaxed) {
            let _write_done = output.lock();
            std::process::exit(EXIT_INTERRUPTED);
        }
        eprintln!(
            "cutoff datagen: interrupted; finishing the games in flight (interrupt again to stop now)"
        );
    });
    if let Err(e) = installed {
        eprintln!("cutoff datagen: no interrupt handler ({e}); a kill still leaves whole games");
    }
}

/// One run: what every worker needs, borrowed for the length of the run.
struct Run<'a> {
    settings: &'a Settings,
    openings: &'a Openings,
    seed: u64,
    /// The number of the run's first game (a games file goes on where it stops).
    first_game: u64,
    target: Target,
    stop: &'a AtomicBool,
    output: &'a Mutex<File>,
    format: Format,
    pgn: Option<&'a Mutex<File>>,
}

impl Run<'_> {
    /// Plays and writes games until the target, an interrupt or an error; returns what was
    /// written and the error, if any.
    fn play(
        &self,
        searchers: Vec<Searcher>,
        reopened: Option<Reopened>,
    ) -> (Tally, Option<String>) {
        let next_index = AtomicU64::new(self.first_game);
        let (sender, receiver) = mpsc::channel::<(u64, Result<Game, String>)>();
        std::thread::scope(|scope| {
            let mut spawn_error = None;
            for mut searcher in searchers {
                let sender = sender.clone();
                let next_index = &next_index;
                let spawned = std::thread::Builder::new()
                    .stack_size(SEARCH_STACK_SIZE)
                    .spawn_scoped(scope, move || {
                        while !self.stop.load(Ordering::Relaxed) {
                            let index = next_index.fetch_add(1, Ordering::Relaxed);
                            if let Target::Games(games) = self.target
                                && index >= self.first_game + games
                            {
                                break;
                            }
                            let game = datagen::play_game(
                                &mut searcher,
                                self.settings,
                                self.openings,
                                self.seed,
                                index,
                            );
                            if sender.send((index, game)).is_err() {
                                break;
                            }
                        }
                    });
                // Too few resources for another thread: play with those that started.
                if let Err(e) = spawned {
                    spawn_error = Some(format!("cannot start a game thread: {e}"));
                    break;
                }
            }
            drop(sender);
            let (tally, error) = self.write_in_order(receiver, reopened);
            // No thread at all: say why nothing was played.
            let spawn_error = spawn_error.filter(|_| tally.games == 0);
            (tally, error.or(spawn_error))
        })
    }

    /// Writes games as they arrive, in index order (a game that finishes early waits for
    /// those before it), until the target is reached or the workers are done. A reopened
    /// chunk's games start the first chunk, whose write replaces that chunk.
    fn write_in_order(
        &self,
        receiver: mpsc::Receiver<(u64, Result<Game, String>)>,
        reopened: Option<Reopened>,
    ) -> (Tally, Option<String>) {
        let mut progress = Progress::new(self.target);
        let mut tally = Tally::default();
        let mut pending = BTreeMap::new();
        let mut next_to_write = self.first_game;
        let mut error = None;
        // Once finished, games still arriving from the workers are dropped.
        let mut finished = false;
        let mut bytes = Vec::new();
        let (mut chunk, mut cut) = match reopened {
            Some(reopened) => (reopened.chunk, Some(reopened.offset)),
            None => (ChunkWriter::default(), None),
        };
        for (index, game) in receiver {
            if finished {
                continue;
            }
            pending.insert(index, game);
            while let Some(game) = pending.remove(&next_to_write) {
                next_to_write += 1;
                let written = game.and_then(|game| {
                    match self.format {
                        Format::Records => {
                            bytes.clear();
                            data::extend_bytes(&mut bytes, &game.samples);
                            self.write(self.output, &bytes)?;
                        }
                        Format::Games => {
                            chunk.push(&game.record())?;
                            if !chunk_open(&chunk) {
                                self.write_chunk(&chunk.take(), &mut cut)?;
                            }
                        }
                    }
                    if let Some(pgn) = self.pgn {
                        self.write(
                            pgn,
                            crate::tools::pgn::write_game(&game, index + 1).as_bytes(),
                        )?;
                    }
                    tally.add(&game);
                    Ok(())
                });
                if let Err(e) = written {
                    error = Some(e);
                }
                if error.is_some() || tally.reached(self.target) {
                    self.stop.store(true, Ordering::Relaxed);
                    finished = true;
                    break;
                }
            }
            progress.update(&tally);
        }
        if chunk.games() > 0
            && let Err(e) = self.write_chunk(&chunk.take(), &mut cut)
        {
            error.get_or_insert(e);
        }
        progress.finish();
        (tally, error)
    }

    /// Appends a chunk of games with a single write; the first after a chunk was reopened
    /// first cuts that chunk off (under the same lock, so that an interrupt waits for
    /// both). A kill between the two loses the reopened games, which a run resumed with
    /// the same seed plays again.
    fn write_chunk(&self, bytes: &[u8], cut: &mut Option<u64>) -> Result<(), String> {
        let mut file = self.output.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(offset) = cut.take() {
            file.set_len(offset)
                .map_err(|e| format!("cannot cut the reopened chunk: {e}"))?;
        }
        file.write_all(bytes)
            .map_err(|e| format!("cannot write: {e}"))
    }

    /// Appends one game's records or a game's PGN, with a single write.
    fn write(&self, file: &Mutex<File>, bytes: &[u8]) -> Result<(), String> {
        let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
        file.write_all(bytes)
            .map_err(|e| format!("cannot write: {e}"))
    }
}

/// The progress bar on a terminal, a status line now and then without one.
struct Progress {
    bar: Option<ProgressBar>,
    target: Target,
    start: Instant,
    last_status: Instant,
}

impl Progress {
    fn new(target: Target) -> Self {
        let bar = progress::shown().then(|| match target {
            Target::Games(n) | Target::Positions(n) => {
                progress::styled(ProgressBar::new(n), progress::COUNT)
            }
            Target::Open => progress::styled(
                ProgressBar::new_spinner(),
                "{spinner} {pos} positions {msg} [{elapsed_precise}]",
            ),
        });
        let start = Instant::now();
        Progress {
            bar,
            target,
            start,
            last_status: start,
        }
    }

    fn update(&mut self, tally: &Tally) {
        let rate = tally.rate(self.start.elapsed());
        match (&self.bar, self.target) {
            (Some(bar), Target::Games(_)) => {
                bar.set_message(format!("games, {} positions, {rate:.0}/s", tally.positions));
                bar.set_position(tally.games);
            }
            (Some(bar), Target::Positions(_) | Target::Open) => {
                bar.set_message(format!("positions, {} games, {rate:.0}/s", tally.games));
                bar.set_position(tally.positions);
            }
            (None, _) if self.last_status.elapsed() >= STATUS_INTERVAL => {
                self.last_status = Instant::now();
                eprintln!(
                    "datagen: {} games, {} positions, {rate:.0} positions/s",
                    tally.games, tally.positions
                );
            }
            (None, _) => {}
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
