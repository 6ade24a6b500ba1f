//! `cutoff train`: fits a network to packed positions on the CPU (`cutoff_train`) and
//! writes, after each epoch, the quantised network, a checkpoint and the loss curves.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, ValueEnum};
use cutoff_engine::games::Format;
use cutoff_engine::nnue::network::Network;
use cutoff_train::checkpoint::Checkpoint;
use cutoff_train::optim::Schedule;
use cutoff_train::quant::dequantise;
use cutoff_train::trainer::{CHECKPOINT_NAME, PLOT_NAME, Settings, Trainer};

use crate::tools::data_file::format_of;
use crate::tools::progress::bar;

/// Epochs of a fresh run unless `--epochs` says otherwise.
const DEFAULT_EPOCHS: u32 = 30;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LrSchedule {
    /// Half a cosine from --lr down to --final-lr over the whole run.
    Cosine,
    /// --lr times --lr-gamma every --lr-step epochs.
    Step,
}

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Training data: files of 32-byte records (`cutoff data convert` makes them of a
    /// games file), read as one stream, a shuffle buffer at a time.
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// Held-out positions (a packed file): their loss is reported after each epoch.
    #[arg(long)]
    pub validation: Option<PathBuf>,
    /// Folder for the checkpoint, each epoch's network (net-NNN.nnue) and loss.svg.
    #[arg(long)]
    pub output: PathBuf,
    /// Go on from this checkpoint. The run keeps its own settings: only --epochs,
    /// --threads, the data, --validation and --output are read from the command line.
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Start from this network file instead of random weights, to fine-tune it on new
    /// data. --hidden may be wider than the file (new neurons start silent), and a
    /// one-bucket file may start any number of --buckets (each a copy of its output).
    #[arg(long, conflicts_with = "resume")]
    pub init: Option<PathBuf>,
    /// Hidden neurons per perspective.
    #[arg(long, default_value_t = 128)]
    pub hidden: usize,
    /// Output buckets (1 to 8), chosen by the number of pieces on the board; the embedded
    /// network has 8.
    #[arg(long, default_value_t = 1)]
    pub buckets: usize,
    /// Epochs in all (default 30; when resuming, the checkpoint's).
    #[arg(long)]
    pub epochs: Option<u32>,
    /// Batches per epoch (an epoch is this many batches, not a pass over the data).
    #[arg(long, default_value_t = 100)]
    pub epoch_batches: u64,
    /// Positions per batch (one AdamW step).
    #[arg(long, default_value_t = 16384)]
    pub batch_size: u64,
    /// AdamW's learning rate at the start.
    #[arg(long, default_value_t = 0.001)]
    pub lr: f32,
    /// How the learning rate falls.
    #[arg(long, value_enum, default_value_t = LrSchedule::Cosine)]
    pub lr_schedule: LrSchedule,
    /// Cosine: the learning rate at the end of the run.
    #[arg(long, default_value_t = 0.00001)]
    pub final_lr: f32,
    /// Step: epochs between two drops.
    #[arg(long, default_value_t = 10)]
    pub lr_step: u32,
    /// Step: the factor of each drop.
    #[arg(long, default_value_t = 0.3)]
    pub lr_gamma: f32,
    /// AdamW's weight decay.
    #[arg(long, default_value_t = 0.01)]
    pub weight_decay: f32,
    /// Weight of the game result in the target; the search score gets the rest. 0 measured
    /// best on 1.85 M positions (docs/data.md): a game's result labels all its positions.
    #[arg(long, default_value_t = 0.0)]
    pub wdl: f32,
    /// Centipawns per unit of the sigmoid that maps scores to win probabilities.
    #[arg(long, default_value_t = 400.0)]
    pub eval_scale: f32,
    /// Seed of the initial weights and of the shuffle.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (0: all cores). The weights depend on the seed and on this.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Positions shuffled together in memory (32 bytes each).
    #[arg(long, default_value_t = 1 << 21)]
    pub shuffle_buffer: u64,
}

impl TrainArgs {
    fn settings(&self) -> Settings {
        Settings {
            hidden: self.hidden,
            buckets: self.buckets,
            batch_size: self.batch_size,
            epoch_batches: self.epoch_batches,
            epochs: self.epochs.unwrap_or(DEFAULT_EPOCHS),
            learning_rate: self.lr,
            schedule: match self.lr_schedule {
                LrSchedule::Cosine => Schedule::Cosine {
                    final_rate: self.final_lr,
                },
                LrSchedule::Step => Schedule::Step {
                    every: self.lr_step,
                    gamma: self.lr_gamma,
                },
            },
            weight_decay: self.weight_decay,
            wdl: self.wdl,
            eval_scale: self.eval_scale,
            seed: self.seed,
            shuffle_buffer: self.shuffle_buffer,
        }
    }
}

/// Runs `cutoff train`.
pub fn run(args: &TrainArgs) -> ExitCode {
    match train(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cutoff train: {e}");
            ExitCode::FAILURE
        }
    }
}

fn train(args: &TrainArgs) -> Result<(), Box<dyn std::error::Error>> {
    // The trainer reads positions by index, which records give at once and games only
    // after replaying every game before them: games are converted once, not each epoch.
    for path in args.data.iter().chain(&args.validation) {
        if format_of(path).is_ok_and(|f| f == Format::Games) {
            return Err(format!(
                "{} holds games; the trainer reads records: `cutoff data convert {} --output RECORDS.bin` first",
                path.display(),
                path.display()
            )
            .into());
        }
    }
    let validation = args.validation.as_ref();
    let mut trainer = match &args.resume {
        Some(path) => Trainer::resume(
            Checkpoint::load(path)?,
            args.epochs,
            &args.data,
            validation,
            args.threads,
        )?,
        None => match &args.init {
            Some(path) => {
                let settings = args.settings();
                let net = Network::load(path)?;
                let params = dequantise(&net, settings.hidden, settings.buckets, settings.seed)
                    .map_err(|e| format!("--init {}: {e}", path.display()))?;
                Trainer::starting_from(settings, params, &args.data, validation, args.threads)?
            }
            None => Trainer::new(args.settings(), &args.data, validation, args.threads)?,
        },
    };
    // Made once the settings and data are accepted: a refused run leaves no folder.
    std::fs::create_dir_all(&args.output)
        .map_err(|e| format!("cannot create {}: {e}", args.output.display()))?;
    let s = trainer.settings().clone();
    outln!(
        "hidden {}, {} output bucket(s), batch {}, {} batches an epoch, {} epochs, lr {} {}, \
         wdl {}, eval scale {}, seed {}, {} threads",
        s.hidden,
        s.buckets,
        s.batch_size,
        s.epoch_batches,
        s.epochs,
        s.learning_rate,
        s.schedule,
        s.wdl,
        s.eval_scale,
        s.seed,
        trainer.threads()
    );
    let positions = s.batch_size * s.epoch_batches;
    while !trainer.finished() {
        let epoch = trainer.epoch() + 1;
        let progress = bar(
            s.epoch_batches,
            &format!(
                "{{bar:40}} epoch {epoch}/{} batch {{pos}}/{{len}} {{msg}} \
                 [{{elapsed_precise}}<{{eta_precise}}]",
                s.epochs
            ),
        );
        let start = Instant::now();
        let loss = trainer.run_epoch(&mut |done| {
            progress.set_position(done);
            let rate = (done * s.batch_size) as f64 / start.elapsed().as_secs_f64();
            progress.set_message(format!("{rate:.0} pos/s"));
        })?;
        let rate = positions as f64 / start.elapsed().as_secs_f64();
        progress.finish_and_clear();
        trainer.save(&args.output)?;
        let validation = loss
            .validation
            .map_or(String::new(), |v| format!(", validation {v:.7}"));
        outln!(
            "epoch {epoch}/{}: train {:.7}{validation}, {rate:.0} pos/s, wrote {}",
            s.epochs,
            loss.train,
            Trainer::network_name(epoch)
        );
    }
    outln!(
        "checkpoint {}, loss curves {} in {}",
        CHECKPOINT_NAME,
        PLOT_NAME,
        args.output.display()
    );
    Ok(())
}
