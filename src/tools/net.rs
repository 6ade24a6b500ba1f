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
use cutoff_engine::nnue::Network;

use crate::tools::data_file::{Damage, record_count, records};
use crate::tools::pending_file::PendingFile;
use crate::tools::sha256::Sha256;

/// Positions `info` and `scale` evaluate unless `--sample` says otherwise.
const DEFAULT_SAMPLE: u64 = 10_000;
/// Corrections of the factor `scale --mean-cp` tries (see `calibrate`).
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
        /// Positions evaluated, spread evenly over the file.
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
        #[arg(long, required_unless_present = "mean_cp", conflicts_with = "mean_cp")]
        factor: Option<f64>,
        /// The mean absolute evaluation, in centipawns, to scale to.
        #[arg(long, requires = "positions")]
        mean_cp: Option<f64>,
        /// A data file (records or games) to measure the evaluations on.
        #[arg(long)]
        positions: Option<PathBuf>,
        /// Positions evaluated, spread evenly over the file.
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

/// Positions to evaluate on: every k-th of a data file, at most `sample` of them.
struct PositionSample {
    path: PathBuf,
    positions: Vec<shakmaty::Chess>,
    /// The mean absolute score the file's records carry.
    mean_label: f64,
}

impl PositionSample {
    fn read(path: &Path, sample: u64, damage: &Damage) -> Result<PositionSample, String> {
        let count = record_count(path)?;
        let step = count.div_ceil(sample).max(1) as usize;
        let mut positions = Vec::new();
        let mut labels = 0.0;
        for record in records(path, damage)?.step_by(step) {
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

/// The network in one line: shape, bytes and sha256 of its file form.
fn summary(network: &Network) -> String {
    let bytes = network.to_bytes();
    let mut hash = Sha256::default();
    hash.update(&bytes);
    let buckets = network.buckets();
    format!(
        "768 -> {} x2 -> {buckets} output bucket{}, {} bytes, sha256 {}",
        network.hidden(),
        if buckets == 1 { "" } else { "s" },
        bytes.len(),
        hash.hex()
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
        outln!("{}: {}", path.display(), summary(&network));
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
    let network = load(input)?;
    let sample = positions
        .map(|path| PositionSample::read(path, sample, damage))
        .transpose()?;
    let before = sample.as_ref().map(|s| s.mean_evaluation(&network));
    let (factor, scaled) = match (target, &sample) {
        (Target::Factor(f), _) => (f, network.with_output_scaled(f).map_err(|e| e.0)?),
        (Target::MeanCp(cp), Some(sample)) => calibrate(&network, sample, cp)?,
        (Target::MeanCp(_), None) => unreachable!("clap requires --positions with --mean-cp"),
    };
    let mut file = PendingFile::create(output)?;
    file.write_bytes(&scaled.to_bytes())?;
    file.finish()?;
    outln!("factor {factor:.4}: wrote {}", output.display());
    outln!("{}: {}", output.display(), summary(&scaled));
    if let (Some(sample), Some(before)) = (&sample, before) {
        outln!(
            "on {}: mean size of the evaluations {before:.1} cp before, {:.1} cp after",
            sample.describe(),
            sample.mean_evaluation(&scaled)
        );
    }
    Ok(())
}

/// The factor whose scaled network comes nearest to `mean_cp` on the sample, and that
/// network. Rounding the output weights makes the mean a step function of the factor, a
/// little off proportional, so the factor is corrected by what it reached a few times
/// and the nearest result kept.
fn calibrate(
    network: &Network,
    sample: &PositionSample,
    mean_cp: f64,
) -> Result<(f64, Network), String> {
    if !(mean_cp.is_finite() && mean_cp > 0.0) {
        return Err(format!(
            "--mean-cp {mean_cp}: must be a finite number above 0"
        ));
    }
    let mut reached = sample.mean_evaluation(network);
    let mut factor = 1.0;
    let mut best: Option<(f64, f64, Network)> = None;
    for _ in 0..CALIBRATION_ROUNDS {
        if reached <= 0.0 {
            return Err("every evaluation of the sample is 0".into());
        }
        factor *= mean_cp / reached;
        let scaled = network.with_output_scaled(factor).map_err(|e| e.0)?;
        reached = sample.mean_evaluation(&scaled);
        let miss = (reached - mean_cp).abs();
        if best
            .as_ref()
            .is_none_or(|(best_miss, _, _)| miss < *best_miss)
        {
            best = Some((miss, factor, scaled));
        }
    }
    let (_, factor, scaled) = best.expect("at least one round");
    Ok((factor, scaled))
}
