//! `cutoff texel`: fits the evaluation's weights to labelled positions (`cutoff_texel`) and
//! writes them as Rust source, by default over `engine/src/eval/weights.rs`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use cutoff_texel::data::Dataset;
use cutoff_texel::model;
use cutoff_texel::tuner::{Settings, Tuner};
use cutoff_texel::writer::weights_source;

use crate::tools::pending_file::{PendingFile, check_distinct};
use crate::tools::progress::bar;

/// Where the engine reads its weights from, relative to the repository root.
const DEFAULT_OUTPUT: &str = "engine/src/eval/weights.rs";

#[derive(Args, Debug)]
pub struct TexelArgs {
    /// Data files: `cutoff datagen` records, or text lines `FEN | score | result` (White's view).
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// Passes over the data.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    pub epochs: u32,
    /// Weight of the game result in the target; the search score gets the rest.
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// Adam's step size, in centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub learning_rate: f64,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u64).range(1..))]
    pub batch_size: u64,
    /// Worker threads (0: all cores). The output does not depend on it.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// The weights file to write (replaced whole, only once tuning has finished).
    #[arg(long, default_value = DEFAULT_OUTPUT)]
    pub output: PathBuf,
}

/// The command line that made a weights file, minus `--threads` and `--output` (which do
/// not change what is written).
fn command_line(args: &TexelArgs) -> String {
    let files: Vec<String> = args.data.iter().map(|f| f.display().to_string()).collect();
    format!(
        "cutoff texel {} --epochs {} --lambda {} --learning-rate {} --batch-size {}",
        files.join(" "),
        args.epochs,
        args.lambda,
        args.learning_rate,
        args.batch_size
    )
}

/// Runs `cutoff texel`.
pub fn run(args: &TexelArgs) -> ExitCode {
    if !(0.0..=1.0).contains(&args.lambda) {
        eprintln!(
            "cutoff texel: --lambda must be between 0 and 1, got {}",
            args.lambda
        );
        return ExitCode::from(2);
    }
    if !(args.learning_rate > 0.0 && args.learning_rate.is_finite()) {
        eprintln!(
            "cutoff texel: --learning-rate must be positive, got {}",
            args.learning_rate
        );
        return ExitCode::from(2);
    }
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
    {
        Ok(pool) => pool,
        Err(e) => {
            eprintln!("cutoff texel: cannot start {} threads: {e}", args.threads);
            return ExitCode::FAILURE;
        }
    };
    pool.install(|| texel(args))
}

fn texel(args: &TexelArgs) -> ExitCode {
    let inputs: Vec<&Path> = args.data.iter().map(PathBuf::as_path).collect();
    let claimed =
        check_distinct(&[&args.output], &inputs).and_then(|()| PendingFile::create(&args.output));
    let mut output = match claimed {
        Ok(file) => file,
        Err(e) => {
            eprintln!("cutoff texel: {e}");
            return ExitCode::FAILURE;
        }
    };
    let loading = bar(
        0,
        "{spinner} loading: {pos} lines [{elapsed_precise}] {per_sec}",
    );
    let data = match Dataset::load(&args.data, &|lines| loading.inc(lines as u64)) {
        Ok(data) => data,
        Err(e) => {
            loading.finish_and_clear();
            eprintln!("cutoff texel: {e}");
            return ExitCode::FAILURE;
        }
    };
    loading.finish_and_clear();
    if data.is_empty() {
        eprintln!("cutoff texel: no positions in the data");
        return ExitCode::FAILURE;
    }
    outln!("positions: {}", data.len());

    let settings = Settings {
        lambda: args.lambda,
        learning_rate: args.learning_rate,
        batch_size: args.batch_size as usize,
    };
    let start = model::engine_params();
    let mut tuner = Tuner::new(&data, settings, start.clone());
    let initial = tuner.loss(&start);
    outln!("K: {:.6}", tuner.k());
    outln!("epoch 0: loss {initial:.8}");

    let epochs = bar(
        u64::from(args.epochs),
        "{bar:40} epoch {pos}/{len} {msg} [{elapsed_precise}<{eta_precise}]",
    );
    for epoch in 1..=args.epochs {
        let loss = tuner.epoch();
        epochs.inc(1);
        epochs.set_message(format!("loss {loss:.8}"));
        epochs.suspend(|| outln!("epoch {epoch}: loss {loss:.8}"));
    }
    epochs.finish_and_clear();

    let (linear, king_attack) = model::rounded(tuner.params());
    let final_loss = tuner.loss(&model::params_of(&linear, &king_attack));
    outln!("rounded weights: loss {final_loss:.8}");
    let files: Vec<String> = args.data.iter().map(|f| f.display().to_string()).collect();
    let header = vec![
        "Evaluation weights, tuned by `cutoff texel`.".to_string(),
        String::new(),
        "Generated file: to change a weight by hand, change it here and retune, or edit the"
            .to_string(),
        "tuner's starting point (the weights the tuning binary was built with).".to_string(),
        String::new(),
        format!("Data: {} ({} positions).", files.join(", "), data.len()),
        format!("Command: `{}`.", command_line(args)),
        format!(
            "K = {:.6}; loss {initial:.8} at the start, {final_loss:.8} with these weights.",
            tuner.k()
        ),
    ];
    let source = weights_source(&header, &linear, &king_attack);
    if let Err(e) = output
        .write_bytes(source.as_bytes())
        .and_then(|()| output.finish())
    {
        eprintln!("cutoff texel: {e}");
        return ExitCode::FAILURE;
    }
    outln!("wrote {}", args.output.display());
    ExitCode::SUCCESS
}
