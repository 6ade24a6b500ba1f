//! `cutoff net`: tools around a network file. `info` reads networks and says what they
//! are (shape, size, sha256) and, given positions, how large their evaluations are;
//! `scale` multiplies a network's output layer by a factor, given or chosen so that its
//! evaluations reach a mean size.
//!
//! Why the size of the evaluation matters: a network learns the search's scores, which
//! are bolder than a static evaluation, so each generation trained on the games of the
//! one before evaluates a little more boldly, while the search's margins stay tuned for
//! the older scale. Scaling the output layer leaves the order of positions as it was and
//! brings the centipawns back (docs/data.md says what it measured).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;
use cutoff_engine::nnue::{INPUTS, Network};

use crate::tools::data_file::{Damage, record_count, records};
use crate::tools::pending_file::{PendingFile, check_distinct};
use crate::tools::positive_number;
use crate::tools::sha256::{bytes_hex, file_hex};

/// Positions `info` and `scale` evaluate unless `--sample` says otherwise.
const DEFAULT_SAMPLE: u64 = 10_000;
/// Factors `scale --mean-cp` tries: the first ratio, then up to three corrections of it
/// (see `calibrate`).
const CALIBRATION_ROUNDS: usize = 4;

#[derive(Subcommand, Debug)]
pub enum NetTool {
    /// Each network's shape, size and sha256; with --positions, the mean size of its
    /// evaluations there, beside the mean size of the positions' own scores.
    Info {
        #[arg(required = true)]
        networks: Vec<PathBuf>,
        /// A data file (records or games) to evaluate on.
        #[arg(long)]
        positions: Option<PathBuf>,
        /// Positions evaluated, spread evenly over the file (all of a smaller file).
        #[arg(long, default_value_t = DEFAULT_SAMPLE, value_parser = clap::value_parser!(u64).range(1..))]
        sample: u64,
    },
    /// Multiply the output layer (weights and biases, rounded) by --factor, or by the
    /// factor that brings the mean size of the evaluations on --positions to --mean-cp.
    Scale {
        input: PathBuf,
        #[arg(long)]
        output: PathBuf,
        /// The factor, above 0.
        #[arg(long, required_unless_present = "mean_cp", conflicts_with = "mean_cp", value_parser = positive_number)]
        factor: Option<f64>,
        /// The mean absolute evaluation, in centipawns, to scale to.
        #[arg(long, requires = "positions", value_parser = positive_number)]
        mean_cp: Option<f64>,
        /// A data file (records or games) to measure the evaluations on.
        #[arg(long)]
        positions: Option<PathBuf>,
        /// Positions evaluated, spread evenly over the file (all of a smaller file).
        #[arg(long, default_value_t = DEFAULT_SAMPLE, value_parser = clap::value_parser!(u64).range(1..))]
        sample: u64,
    },
}

pub fn run(tool: &NetTool) -> ExitCode {
    let damage = Damage::default();
    let result = match tool {
        NetTool::Info {
            networks,
            positions,
            sample,
        } => info(networks, positions.as_deref(), *sample, &damage),
        NetTool::Scale {
            input,
            output,
            factor,
            mean_cp,
            positions,
            sample,
        } => {
            let target = match (factor, mean_cp) {
                (Some(f), _) => Target::Factor(*f),
                (None, Some(cp)) => Target::MeanCp(*cp),
                (None, None) => unreachable!("clap requires --factor or --mean-cp"),
            };
            scale(
                input,
                output,
                target,
                positions.as_deref(),
                *sample,
                &damage,
            )
        }
    };
    match result {
        Ok(()) if damage.chunks() > 0 => {
            eprintln!("cutoff net: {} damaged chunk(s) skipped", damage.chunks());
            ExitCode::FAILURE
        }
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cutoff net: {e}");
            ExitCode::FAILURE
        }
    }
}

/// What `scale` multiplies by.
enum Target {
    Factor(f64),
    MeanCp(f64),
}

/// Positions to evaluate on: `sample` of a data file's, evenly spaced (all of them if it
/// holds fewer).
struct PositionSample {
    path: PathBuf,
    positions: Vec<shakmaty::Chess>,
    /// The mean absolute score the file's records carry.
    mean_label: f64,
}

impl PositionSample {
    fn read(path: &Path, sample: u64, damage: &Damage) -> Result<PositionSample, String> {
        let count = u128::from(record_count(path)?);
        let wanted = u128::from(sample).min(count);
        // Record i is taken where ⌊(i + 1) · wanted / count⌋ passes ⌊i · wanted / count⌋:
        // `wanted` of the `count` records, evenly spread.
        let taken = |i: usize| {
            let i = i as u128;
            count > 0 && (i + 1) * wanted / count > i * wanted / count
        };
        let mut positions = Vec::new();
        let mut labels = 0.0;
        for (_, record) in records(path, damage)?
            .enumerate()
            .filter(|&(i, _)| taken(i))
        {
            let unpacked = record?
                .unpack()
                .map_err(|e| format!("{}: {e}", path.display()))?;
            labels += f64::from(unpacked.white_score).abs();
            positions.push(unpacked.board.pos().clone());
        }
        if positions.is_empty() {
            return Err(format!("{}: no positions", path.display()));
        }
        Ok(PositionSample {
            path: path.to_path_buf(),
            mean_label: labels / positions.len() as f64,
            positions,
        })
    }

    /// The network's mean absolute evaluation over the sample, in centipawns.
    fn mean_evaluation(&self, network: &Network) -> f64 {
        let total: f64 = self
            .positions
            .iter()
            .map(|pos| f64::from(network.evaluate_full(pos).abs()))
            .sum();
        total / self.positions.len() as f64
    }

    fn describe(&self) -> String {
        format!(
            "{} positions of {} (their scores: mean size {:.1} cp)",
            self.positions.len(),
            self.path.display(),
            self.mean_label
        )
    }
}

fn load(path: &Path) -> Result<Network, String> {
    Network::load(path).map_err(|e| e.0)
}

/// A network file in one line: the network's shape, then the file's size and sha256.
fn summary(network: &Network, bytes: u64, sha256: &str) -> String {
    let buckets = network.buckets();
    format!(
        "{INPUTS} -> {} x2 -> {buckets} output bucket{}, {bytes} bytes, sha256 {sha256}",
        network.hidden(),
        if buckets == 1 { "" } else { "s" },
    )
}

fn info(
    paths: &[PathBuf],
    positions: Option<&Path>,
    sample: u64,
    damage: &Damage,
) -> Result<(), String> {
    let sample = positions
        .map(|path| PositionSample::read(path, sample, damage))
        .transpose()?;
    if let Some(sample) = &sample {
        outln!("evaluated on {}", sample.describe());
    }
    for path in paths {
        let network = load(path)?;
        let bytes = std::fs::metadata(path)
            .map_err(|e| format!("{}: {e}", path.display()))?
            .len();
        let line = summary(&network, bytes, &file_hex(path)?);
        outln!("{}: {line}", path.display());
        if let Some(sample) = &sample {
            outln!(
                "  mean size of its evaluations: {:.1} cp",
                sample.mean_evaluation(&network)
            );
        }
    }
    Ok(())
}

fn scale(
    input: &Path,
    output: &Path,
    target: Target,
    positions: Option<&Path>,
    sample: u64,
    damage: &Damage,
) -> Result<(), String> {
    // The output is claimed first: a path that cannot be written is said before the
    // sample is evaluated.
    let inputs: Vec<&Path> = std::iter::once(input).chain(positions).collect();
    check_distinct(&[output], &inputs)?;
    let mut file = PendingFile::create(output)?;
    let network = load(input)?;
    // The sample with the unscaled network's mean on it: the report's "before" and
    // calibration's starting point.
    let measured = positions
        .map(|path| PositionSample::read(path, sample, damage))
        .transpose()?
        .map(|sample| {
            let before = sample.mean_evaluation(&network);
            (sample, before)
        });
    let (factor, scaled) = match (target, &measured) {
        (Target::Factor(f), _) => (f, network.with_output_scaled(f).map_err(|e| e.0)?),
        (Target::MeanCp(cp), Some((sample, before))) => calibrate(&network, sample, *before, cp)?,
        (Target::MeanCp(_), None) => unreachable!("clap requires --positions with --mean-cp"),
    };
    let bytes = scaled.to_bytes();
    file.write_bytes(&bytes)?;
    file.finish()?;
    outln!("factor {factor:.4}: wrote {}", output.display());
    let line = summary(&scaled, bytes.len() as u64, &bytes_hex(&bytes));
    outln!("{}: {line}", output.display());
    if let Some((sample, before)) = &measured {
        outln!(
            "on {}: mean size of the evaluations {before:.1} cp before, {:.1} cp after",
            sample.describe(),
            sample.mean_evaluation(&scaled)
        );
    }
    Ok(())
}

/// The factor whose scaled network comes nearest to `mean_cp` on the sample, and that
/// network, whose own mean there is `start`. Rounding the output weights makes the mean
/// a step function of the factor, a little off proportional, so the factor is corrected
/// by what it reached a few times and the nearest result kept. A correction that fails
/// (a weight out of range, every evaluation 0) ends the search with the best so far;
/// only a failing first factor is an error.
fn calibrate(
    network: &Network,
    sample: &PositionSample,
    start: f64,
    mean_cp: f64,
) -> Result<(f64, Network), String> {
    if start <= 0.0 {
        return Err("every evaluation of the sample is 0".into());
    }
    let mut factor = mean_cp / start;
    let scaled = network.with_output_scaled(factor).map_err(|e| e.0)?;
    let mut reached = sample.mean_evaluation(&scaled);
    let mut best = ((reached - mean_cp).abs(), factor, scaled);
    for _ in 1..CALIBRATION_ROUNDS {
        if reached <= 0.0 {
            break;
        }
        factor *= mean_cp / reached;
        let Ok(scaled) = network.with_output_scaled(factor) else {
            break;
        };
        reached = sample.mean_evaluation(&scaled);
        if (reached - mean_cp).abs() < best.0 {
            best = ((reached - mean_cp).abs(), factor, scaled);
        }
    }
    let (_, factor, scaled) = best;
    Ok((factor, scaled))
}
