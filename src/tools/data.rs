//! `cutoff data`: the tools around training data files (the 32-byte records of
//! `cutoff_engine::data` and the games of `cutoff_engine::games`, told apart by their
//! magic): statistics, conversion from games to records, from and to the tuner's text
//! lines and from PGN, merging, deduplication, shuffling larger than memory, splitting
//! off a validation set, and checking files against a manifest or remaking them by it.
//!
//! Every tool writes its output to a temporary file beside the target and renames it
//! when done, so an interrupted run leaves either the whole output or none. A damaged
//! chunk of a games file is reported by its offset and skipped: the tool goes on with
//! the rest, then exits with a failure status.

use std::collections::HashSet;
use std::fs::File;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;
use cutoff_engine::data::{self, Header, PackedPosition, RECORD_BYTES};
use cutoff_engine::games::{self, ChunkWriter, Format};
use cutoff_engine::rng::Rng;
use shakmaty::Role;

use crate::tools::data_file::{Damage, chunks, format_of, game_chunks, record_count, records};
use crate::tools::datagen::FormatArg;
use crate::tools::manifest;
use crate::tools::pending_file::{PendingFile, check_distinct};
use crate::tools::pgn;
use crate::tools::positive_number;

/// Memory for one shard of `shuffle` unless `--memory-mb` says otherwise.
const DEFAULT_SHUFFLE_MB: f64 = 1024.0;
/// Bytes of a record that make the position (board, side, en passant): duplicates are
/// records that agree on these, whatever their clocks, score or result.
const POSITION_BYTES: usize = 25;
/// Phase weight of each piece kind (pawn to king): 24 with every piece on the board.
const PHASE_WEIGHTS: [usize; 6] = [0, 1, 1, 2, 4, 0];
const MAX_PHASE: usize = 24;

#[derive(Subcommand, Debug)]
pub enum DataTool {
    /// Count, result balance, piece-count and phase histograms, duplicate rate (and for
    /// games files: games, plies, bytes a kept position).
    Stats {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// A games file to records (the kept positions; records cannot become games, since a
    /// record keeps one position and not its game's moves).
    Convert {
        input: PathBuf,
        #[arg(long)]
        output: PathBuf,
    },
    /// `FEN | score | result` lines (the tuner's text) to records.
    FromText {
        input: PathBuf,
        #[arg(long)]
        output: PathBuf,
    },
    /// Records to `FEN | score | result` lines.
    ToText {
        input: PathBuf,
        #[arg(long)]
        output: PathBuf,
    },
    /// Games in PGN with engine scores in the move comments (fastchess, cutechess-cli,
    /// OpenBench: `{+0.35/12 …}`) to records or games, with datagen's filters.
    FromPgn {
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        #[arg(long)]
        output: PathBuf,
        /// records: the kept positions; games: every ply with its score.
        #[arg(long, value_enum, default_value_t = FormatArg::Records)]
        format: FormatArg,
    },
    /// Files one after the other, into one file (a games file when every input is one,
    /// its whole chunks copied; else records).
    Merge {
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        #[arg(long)]
        output: PathBuf,
    },
    /// Keeps the first record of every position (board, side to move, en passant).
    Dedup {
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        #[arg(long)]
        output: PathBuf,
    },
    /// A random order, in shards of --memory-mb when the data is larger: records are dealt
    /// to shards at random, then each shard is shuffled in memory.
    Shuffle {
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        #[arg(long)]
        output: PathBuf,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Memory a shard may take (MB; fractions allowed).
        #[arg(long, default_value_t = DEFAULT_SHUFFLE_MB, value_parser = positive_number)]
        memory_mb: f64,
    },
    /// Splits off a validation set of --validation records, drawn at random.
    Split {
        input: PathBuf,
        #[arg(long)]
        train: PathBuf,
        #[arg(long = "validation-output")]
        validation_output: PathBuf,
        #[arg(long)]
        validation: u64,
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Checks the files a manifest lists (size, sha256, format, positions and games):
    /// names what is missing or differs, and fails if anything does.
    Verify {
        manifest: PathBuf,
        /// Folder the files are in (default: the manifest's).
        #[arg(long)]
        dir: Option<PathBuf>,
    },
    /// Makes again the files of a manifest that are missing, each by its entry's
    /// command (run by this binary, in the files' folder), and checks each against its
    /// entry. The remade file is the lost one only where this binary searches as the
    /// entry's commit did (the same Bench) with the entry's network.
    Remake {
        manifest: PathBuf,
        /// Folder the files are in (default: the manifest's).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Only these files (names as in the manifest).
        names: Vec<String>,
    },
    /// A data file's manifest entry (its counts and sha256 measured, the provenance as
    /// given), printed for appending to the manifest.
    ManifestEntry(manifest::EntryArgs),
}

impl DataTool {
    /// The files the tool writes, and those it reads that it could write over.
    fn outputs_and_inputs(&self) -> (Vec<&Path>, Vec<&Path>) {
        fn many(inputs: &[PathBuf]) -> Vec<&Path> {
            inputs.iter().map(PathBuf::as_path).collect()
        }
        match self {
            DataTool::Convert { input, output }
            | DataTool::FromText { input, output }
            | DataTool::ToText { input, output } => (vec![output], vec![input]),
            DataTool::FromPgn { inputs, output, .. }
            | DataTool::Merge { inputs, output }
            | DataTool::Dedup { inputs, output }
            | DataTool::Shuffle { inputs, output, .. } => (vec![output], many(inputs)),
            DataTool::Split {
                input,
                train,
                validation_output,
                ..
            } => (vec![train, validation_output], vec![input]),
            DataTool::Stats { .. }
            | DataTool::Verify { .. }
            | DataTool::Remake { .. }
            | DataTool::ManifestEntry(_) => (Vec::new(), Vec::new()),
        }
    }
}

/// Runs `cutoff data`.
pub fn run(tool: &DataTool) -> ExitCode {
    let damage = Damage::default();
    let (outputs, inputs) = tool.outputs_and_inputs();
    let result = check_distinct(&outputs, &inputs).and_then(|()| match tool {
        DataTool::Stats { files } => stats(files, &damage),
        DataTool::Convert { input, output } => convert(input, output, &damage),
        DataTool::FromText { input, output } => from_text(input, output),
        DataTool::ToText { input, output } => to_text(input, output, &damage),
        DataTool::FromPgn {
            inputs,
            output,
            format,
        } => from_pgn(inputs, output, *format),
        DataTool::Merge { inputs, output } => merge(inputs, output, &damage),
        DataTool::Dedup { inputs, output } => {
            let mut seen = HashSet::new();
            copy(inputs, output, &damage, |record| {
                seen.insert(position_hash(record))
            })
        }
        DataTool::Shuffle {
            inputs,
            output,
            seed,
            memory_mb,
        } => shuffle(
            inputs,
            output,
            *seed,
            (memory_mb * f64::from(1 << 20)) as u64,
            &damage,
        ),
        DataTool::Split {
            input,
            train,
            validation_output,
            validation,
            seed,
        } => split(input, train, validation_output, *validation, *seed, &damage),
        DataTool::Verify { manifest, dir } => manifest::verify(manifest, dir.as_deref()),
        DataTool::Remake {
            manifest,
            dir,
            names,
        } => manifest::remake(manifest, dir.as_deref(), names),
        DataTool::ManifestEntry(args) => manifest::entry(args),
    });
    match result {
        Ok(summary) => {
            outln!("{summary}");
            let skipped = damage.chunks();
            if skipped > 0 {
                eprintln!("cutoff data: {skipped} damaged chunk(s) skipped");
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("cutoff data: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A data or text output: a [`PendingFile`] and the records written to it.
struct Output {
    file: PendingFile,
    count: u64,
}

impl Output {
    /// A data file with its header.
    fn records(target: &Path) -> Result<Output, String> {
        let mut output = Output::raw(target)?;
        let header = Header::new(&crate::tools::datagen::generator());
        output.write_bytes(&header.to_bytes())?;
        Ok(output)
    }

    /// A games file with its header (its chunks written by the caller).
    fn games(target: &Path) -> Result<Output, String> {
        let mut output = Output::raw(target)?;
        output.write_bytes(&games::header_bytes(&crate::tools::datagen::generator()))?;
        Ok(output)
    }

    fn raw(target: &Path) -> Result<Output, String> {
        Ok(Output {
            file: PendingFile::create(target)?,
            count: 0,
        })
    }

    fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.file.write_bytes(bytes)
    }

    fn push(&mut self, record: &PackedPosition) -> Result<(), String> {
        self.count += 1;
        self.write_bytes(&record.0)
    }

    /// Flushes, and moves the file into place; returns the records written.
    fn finish(self) -> Result<u64, String> {
        self.file.finish()?;
        Ok(self.count)
    }
}

fn position_hash(record: &PackedPosition) -> u64 {
    let mut hasher = DefaultHasher::new();
    record.0[..POSITION_BYTES].hash(&mut hasher);
    hasher.finish()
}

/// Copies the records of `inputs` that `keep` accepts into `output`.
fn copy(
    inputs: &[PathBuf],
    output: &Path,
    damage: &Damage,
    mut keep: impl FnMut(&PackedPosition) -> bool,
) -> Result<String, String> {
    let mut out = Output::records(output)?;
    let mut read = 0;
    for input in inputs {
        for record in records(input, damage)? {
            let record = record?;
            read += 1;
            if keep(&record) {
                out.push(&record)?;
            }
        }
    }
    let written = out.finish()?;
    Ok(format!(
        "{read} records read, {written} written to {}",
        output.display()
    ))
}

/// Counts of what a set of files holds.
#[derive(Default)]
struct Stats {
    count: u64,
    /// Black wins, draws, White wins.
    results: [u64; 3],
    black_to_move: u64,
    /// By piece count, kings included (2 to 32).
    pieces: Vec<u64>,
    /// By phase, 0 (no pieces but pawns and kings) to 24.
    phases: [u64; MAX_PHASE + 1],
    /// Sum of |score|, for the mean.
    abs_score: u64,
    hashes: Vec<u64>,
}

impl Stats {
    fn add(&mut self, record: &PackedPosition) {
        self.count += 1;
        self.results[match record.outcome() {
            data::Outcome::BlackWins => 0,
            data::Outcome::Draw => 1,
            data::Outcome::WhiteWins => 2,
        }] += 1;
        self.black_to_move += u64::from(record.turn() == shakmaty::Color::Black);
        let (mut pieces, mut phase) = (0, 0);
        for (_, piece) in record.pieces() {
            pieces += 1;
            phase += PHASE_WEIGHTS[piece.role as usize - Role::Pawn as usize];
        }
        self.pieces[pieces] += 1;
        self.phases[phase.min(MAX_PHASE)] += 1;
        self.abs_score += u64::from(record.white_score().unsigned_abs());
        self.hashes.push(position_hash(record));
    }

    fn report(mut self) -> String {
        let total = self.count.max(1) as f64;
        let percent = |n: u64| 100.0 * n as f64 / total;
        self.hashes.sort_unstable();
        self.hashes.dedup();
        let duplicates = self.count - self.hashes.len() as u64;
        let mut text = format!(
            "records: {}\nresults (White's view): win {:.1} %, draw {:.1} %, loss {:.1} %\n\
             Black to move: {:.1} %\nmean |score|: {:.0} cp\nduplicates: {} ({:.2} %)\n",
            self.count,
            percent(self.results[2]),
            percent(self.results[1]),
            percent(self.results[0]),
            percent(self.black_to_move),
            self.abs_score as f64 / total,
            duplicates,
            percent(duplicates),
        );
        text.push_str("pieces (kings included):\n");
        histogram(&mut text, &self.pieces, self.count);
        text.push_str("phase (0 = pawns and kings only, 24 = all pieces):\n");
        histogram(&mut text, &self.phases, self.count);
        text
    }
}

/// One line a non-empty bucket: its label, count, share and a bar.
fn histogram(text: &mut String, buckets: &[u64], total: u64) {
    let widest = buckets.iter().copied().max().unwrap_or(0).max(1);
    for (label, &n) in buckets.iter().enumerate().filter(|(_, n)| **n > 0) {
        let bar = "#".repeat((40 * n / widest) as usize);
        text.push_str(&format!(
            "  {label:>2} {n:>10} {:>5.1} % {bar}\n",
            100.0 * n as f64 / total.max(1) as f64
        ));
    }
}

fn stats(files: &[PathBuf], damage: &Damage) -> Result<String, String> {
    let mut stats = Stats {
        pieces: vec![0; 33],
        ..Stats::default()
    };
    let mut games = GameStats::default();
    for file in files {
        if format_of(file)? == Format::Games {
            games.bytes += std::fs::metadata(file)
                .map_err(|e| format!("{}: {e}", file.display()))?
                .len();
            for chunk in game_chunks(file, damage)? {
                for game in chunk {
                    games.add(&game);
                    for record in game.samples() {
                        stats.add(&record);
                    }
                }
            }
        } else {
            for record in records(file, damage)? {
                stats.add(&record?);
            }
        }
    }
    let mut text = stats.report();
    if games.games > 0 {
        text.push_str(&games.report());
    }
    Ok(text.trim_end().to_string())
}

/// What the games files among a stats run's inputs hold.
#[derive(Default)]
struct GameStats {
    games: u64,
    plies: u64,
    kept: u64,
    /// Size of the games files, headers and damaged chunks included.
    bytes: u64,
}

impl GameStats {
    fn add(&mut self, game: &games::GameRecord) {
        self.games += 1;
        self.plies += game.plies.len() as u64;
        self.kept += game.kept() as u64;
    }

    fn report(&self) -> String {
        format!(
            "games: {} ({} plies, {:.1} a game, {:.1} % kept)\n\
             bytes a kept position: {:.2} (games files' size / their kept positions)\n",
            self.games,
            self.plies,
            self.plies as f64 / self.games.max(1) as f64,
            100.0 * self.kept as f64 / self.plies.max(1) as f64,
            self.bytes as f64 / self.kept.max(1) as f64
        )
    }
}

/// A games file's kept positions as records.
fn convert(input: &Path, output: &Path, damage: &Damage) -> Result<String, String> {
    if format_of(input)? == Format::Records {
        return Err(format!(
            "{} holds records, which cannot become games: a record keeps one position, \
             not its game's moves",
            input.display()
        ));
    }
    let mut out = Output::records(output)?;
    let mut games = 0;
    for chunk in game_chunks(input, damage)? {
        for game in chunk {
            games += 1;
            for record in game.samples() {
                out.push(&record)?;
            }
        }
    }
    let written = out.finish()?;
    Ok(format!(
        "{games} games, {written} records written to {}",
        output.display()
    ))
}

/// Games files merge into a games file, whole chunks copied; anything else into records.
fn merge(inputs: &[PathBuf], output: &Path, damage: &Damage) -> Result<String, String> {
    for input in inputs {
        if format_of(input)? == Format::Records {
            return copy(inputs, output, damage, |_| true);
        }
    }
    let mut out = Output::games(output)?;
    let mut games = 0;
    for input in inputs {
        for chunk in chunks(input, damage)? {
            games += u64::from(chunk.games);
            out.count += u64::from(chunk.positions);
            out.write_bytes(&chunk.bytes)?;
        }
    }
    let written = out.finish()?;
    Ok(format!(
        "{games} games, {written} positions written to {}",
        output.display()
    ))
}

fn from_text(input: &Path, output: &Path) -> Result<String, String> {
    let file = File::open(input).map_err(|e| format!("{}: {e}", input.display()))?;
    let mut out = Output::records(output)?;
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: {e}", input.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        let sample = data::parse_text_line(&line)
            .map_err(|e| format!("{}:{}: {e}", input.display(), i + 1))?;
        out.push(&PackedPosition::pack(
            sample.board.pos(),
            sample.white_score,
            sample.outcome,
        ))?;
    }
    let written = out.finish()?;
    Ok(format!("{written} records written to {}", output.display()))
}

fn to_text(input: &Path, output: &Path, damage: &Damage) -> Result<String, String> {
    let mut out = Output::raw(output)?;
    for record in records(input, damage)? {
        let record = record?;
        let sample = record
            .unpack()
            .map_err(|e| format!("{}: {e}", input.display()))?;
        out.count += 1;
        out.write_bytes(data::to_text_line(&sample).as_bytes())?;
        out.write_bytes(b"\n")?;
    }
    let written = out.finish()?;
    Ok(format!("{written} lines written to {}", output.display()))
}

fn from_pgn(inputs: &[PathBuf], output: &Path, format: FormatArg) -> Result<String, String> {
    let mut out = match format {
        FormatArg::Records => Output::records(output)?,
        FormatArg::Games => Output::games(output)?,
    };
    let mut chunk = ChunkWriter::default();
    let (mut games, mut skipped) = (0, 0);
    for input in inputs {
        // Read lossily: a player's name in Latin-1 must not cost the file its games.
        let bytes = std::fs::read(input).map_err(|e| format!("{}: {e}", input.display()))?;
        for game in pgn::games(&String::from_utf8_lossy(&bytes)) {
            let Ok(record) = pgn::game_record(&game)
                .and_then(|record| match format {
                    FormatArg::Records => Ok(record),
                    // A game the format cannot hold is refused before anything is written.
                    FormatArg::Games => chunk.push(&record).map(|()| record),
                })
                .map_err(|e| {
                    skipped += 1;
                    eprintln!("cutoff data: {}: game skipped: {e}", input.display());
                })
            else {
                continue;
            };
            games += 1;
            match format {
                FormatArg::Records => {
                    for sample in record.samples() {
                        out.push(&sample)?;
                    }
                }
                FormatArg::Games => {
                    out.count += record.kept() as u64;
                    if chunk.is_full() {
                        out.write_bytes(&chunk.take())?;
                    }
                }
            }
        }
    }
    if chunk.games() > 0 {
        out.write_bytes(&chunk.take())?;
    }
    // Input that holds no game at all is not PGN (or not what was meant): no empty output.
    if games == 0 {
        return Err(format!(
            "no game converted ({skipped} skipped): nothing written"
        ));
    }
    let written = out.finish()?;
    Ok(format!(
        "{games} games converted ({skipped} skipped), {written} positions written to {} ({})",
        output.display(),
        format.format().name()
    ))
}

fn shuffle(
    inputs: &[PathBuf],
    output: &Path,
    seed: u64,
    memory: u64,
    damage: &Damage,
) -> Result<String, String> {
    let mut total = 0;
    for input in inputs {
        total += record_count(input)?;
    }
    let per_shard = (memory / RECORD_BYTES as u64).max(1);
    let shards = total.div_ceil(per_shard).max(1) as usize;
    let mut rng = Rng::new(seed);
    let mut out = Output::records(output)?;
    if shards == 1 {
        // The count of a games file is its chunks' headers' word: a kept position takes
        // at least a byte of the file, so a damaged header cannot ask for more room.
        let bytes: u64 = inputs
            .iter()
            .map(|p| std::fs::metadata(p).map_or(0, |m| m.len()))
            .sum();
        let mut all = Vec::with_capacity(total.min(bytes) as usize);
        for input in inputs {
            for record in records(input, damage)? {
                all.push(record?);
            }
        }
        shuffle_in_place(&mut all, &mut rng);
        for record in &all {
            out.push(record)?;
        }
    } else {
        // Deal every record to a random shard (files beside the output), then shuffle
        // each shard in memory and append it.
        let shard_paths: Vec<PathBuf> = (0..shards)
            .map(|i| {
                let mut name = output.as_os_str().to_owned();
                name.push(format!(".shard{i}"));
                PathBuf::from(name)
            })
            .collect();
        let mut shard_outputs = shard_paths
            .iter()
            .map(|path| Output::raw(path))
            .collect::<Result<Vec<_>, _>>()?;
        for input in inputs {
            for record in records(input, damage)? {
                let record = record?;
                shard_outputs[rng.below(shards)].push(&record)?;
            }
        }
        for (shard, path) in shard_outputs.into_iter().zip(&shard_paths) {
            shard.finish()?;
            let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()));
            let _ = std::fs::remove_file(path);
            let mut chunk: Vec<PackedPosition> = bytes?
                .chunks_exact(RECORD_BYTES)
                .map(|c| PackedPosition(c.try_into().expect("chunks are records")))
                .collect();
            shuffle_in_place(&mut chunk, &mut rng);
            for record in &chunk {
                out.push(record)?;
            }
        }
    }
    let written = out.finish()?;
    Ok(format!(
        "{written} records shuffled ({shards} shard(s)) into {}",
        output.display()
    ))
}

/// Fisher–Yates with our seeded generator.
fn shuffle_in_place<T>(items: &mut [T], rng: &mut Rng) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i + 1));
    }
}

fn split(
    input: &Path,
    train: &Path,
    validation_output: &Path,
    validation: u64,
    seed: u64,
    damage: &Damage,
) -> Result<String, String> {
    let total = record_count(input)?;
    if validation > total {
        return Err(format!(
            "{} holds {total} records, fewer than the {validation} asked for validation",
            input.display()
        ));
    }
    // A random set of record indices: a partial Fisher–Yates over a sparse permutation.
    let mut rng = Rng::new(seed);
    let mut swapped = std::collections::HashMap::new();
    let mut chosen = HashSet::new();
    for i in 0..validation {
        let j = i + rng.below((total - i) as usize) as u64;
        let at_j = *swapped.get(&j).unwrap_or(&j);
        let at_i = *swapped.get(&i).unwrap_or(&i);
        swapped.insert(j, at_i);
        chosen.insert(at_j);
    }
    let mut train_out = Output::records(train)?;
    let mut validation_out = Output::records(validation_output)?;
    for (i, record) in records(input, damage)?.enumerate() {
        let record = record?;
        if chosen.contains(&(i as u64)) {
            validation_out.push(&record)?;
        } else {
            train_out.push(&record)?;
        }
    }
    let (trained, validated) = (train_out.count, validation_out.count);
    PendingFile::finish_together(vec![train_out.file, validation_out.file])?;
    Ok(format!(
        "{trained} records to {}, {validated} to {}",
        train.display(),
        validation_output.display()
    ))
}
