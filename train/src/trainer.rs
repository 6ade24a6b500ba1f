//! The training loop: batches from the shuffled stream, the gradient summed over a fixed
//! split of each batch (one part a thread, added in order: the same seed and thread count
//! give the same weights bit for bit), an AdamW step, and each epoch a validation loss.

use std::path::{Path, PathBuf};

use cutoff_engine::data::PackedPosition;
use rayon::prelude::*;

use crate::TrainError;
use crate::checkpoint::{Checkpoint, write_atomically};
use crate::loader::{DataSet, Shuffled};
use crate::model::{Params, SCALE, Scratch, WEIGHT_CLIP};
use crate::optim::{AdamW, Schedule, Step};
use crate::plot::loss_svg;
use crate::quant::quantise;
use crate::sample::{Sample, sigmoid};
pub use crate::settings::{EpochLoss, Settings};

/// The checkpoint's name in the output folder.
pub const CHECKPOINT_NAME: &str = "checkpoint.bin";
/// The loss curves' name in the output folder.
pub const PLOT_NAME: &str = "loss.svg";
/// The largest batch a run takes: a batch's records and scratch are held in memory, and
/// one AdamW step over a million positions is already far past where larger batches help.
const MAX_BATCH_SIZE: u64 = 1 << 20;

/// One thread's share of a batch: its gradient, loss and scratch buffers.
struct Worker {
    grad: Vec<f32>,
    loss: f64,
    scratch: Scratch,
}

impl Worker {
    /// Loss (and, with `grad`, the gradient) over `records`, replacing the last ones.
    fn run(
        &mut self,
        params: &Params,
        settings: &Settings,
        records: &[PackedPosition],
        grad: bool,
    ) {
        if grad {
            self.grad.fill(0.0);
        }
        let k = SCALE / settings.eval_scale;
        let mut loss = 0.0;
        for record in records {
            let sample = Sample::new(record);
            let y = params.forward(&sample, &mut self.scratch);
            let predicted = sigmoid(y * k);
            let error = predicted - sample.target(settings.wdl, settings.eval_scale);
            loss += f64::from(error * error);
            if grad {
                let dy = 2.0 * error * predicted * (1.0 - predicted) * k;
                params.backward(&sample, &mut self.scratch, dy, &mut self.grad);
            }
        }
        self.loss = loss;
    }
}

/// A training run: the weights, the optimiser, the data and the threads, epoch by epoch.
pub struct Trainer {
    settings: Settings,
    params: Params,
    adam: AdamW,
    history: Vec<EpochLoss>,
    data: Shuffled,
    validation: Option<DataSet>,
    pool: rayon::ThreadPool,
    workers: Vec<Worker>,
    records: Vec<PackedPosition>,
}

impl Trainer {
    /// A fresh run on `data`, validated on `validation`, with `threads` threads (0: all).
    pub fn new(
        settings: Settings,
        data: &[PathBuf],
        validation: Option<&PathBuf>,
        threads: usize,
    ) -> Result<Trainer, TrainError> {
        let params = Params::init(settings.hidden, settings.buckets, settings.seed);
        Trainer::starting_from(settings, params, data, validation, threads)
    }

    /// A fresh run that starts from `params` rather than from random weights (fine-tuning
    /// a network: [`crate::quant::dequantise`]). They must have the settings' shape.
    pub fn starting_from(
        settings: Settings,
        params: Params,
        data: &[PathBuf],
        validation: Option<&PathBuf>,
        threads: usize,
    ) -> Result<Trainer, TrainError> {
        check_settings(&settings)?;
        if (params.hidden, params.buckets) != (settings.hidden, settings.buckets) {
            return Err(TrainError::Settings(format!(
                "the starting weights have {} neurons and {} bucket(s), the run {} and {}",
                params.hidden, params.buckets, settings.hidden, settings.buckets
            )));
        }
        let adam = AdamW::new(params.weights.len());
        Trainer::assemble(
            settings,
            params,
            adam,
            Vec::new(),
            data,
            validation,
            threads,
        )
    }

    /// Goes on from a checkpoint. The data must hold as many positions as the run's did;
    /// `epochs`, if given, replaces the run's total.
    pub fn resume(
        checkpoint: Checkpoint,
        epochs: Option<u32>,
        data: &[PathBuf],
        validation: Option<&PathBuf>,
        threads: usize,
    ) -> Result<Trainer, TrainError> {
        let mut settings = checkpoint.settings;
        if let Some(epochs) = epochs {
            settings.epochs = epochs;
        }
        check_settings(&settings)?;
        let trainer = Trainer::assemble(
            settings,
            checkpoint.params,
            checkpoint.adam,
            checkpoint.history,
            data,
            validation,
            threads,
        )?;
        if trainer.data.positions() != checkpoint.data_positions {
            return Err(TrainError::Settings(format!(
                "the checkpoint's run trained on {} positions, these files hold {}",
                checkpoint.data_positions,
                trainer.data.positions()
            )));
        }
        Ok(trainer)
    }

    fn assemble(
        settings: Settings,
        params: Params,
        adam: AdamW,
        history: Vec<EpochLoss>,
        data: &[PathBuf],
        validation: Option<&PathBuf>,
        threads: usize,
    ) -> Result<Trainer, TrainError> {
        let data = Shuffled::new(DataSet::open(data)?, settings.seed, settings.shuffle_buffer);
        let validation = validation
            .map(|path| DataSet::open(std::slice::from_ref(path)))
            .transpose()?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| TrainError::Settings(e.to_string()))?;
        let workers = (0..pool.current_num_threads())
            .map(|_| Worker {
                grad: vec![0.0; params.weights.len()],
                loss: 0.0,
                scratch: Scratch::new(params.hidden),
            })
            .collect();
        Ok(Trainer {
            settings,
            params,
            adam,
            history,
            data,
            validation,
            pool,
            workers,
            records: Vec::new(),
        })
    }

    /// The run's settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The current weights.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The losses of the epochs done so far.
    pub fn history(&self) -> &[EpochLoss] {
        &self.history
    }

    /// Epochs done so far.
    pub fn epoch(&self) -> u32 {
        self.history.len() as u32
    }

    /// Whether every epoch of the run is done.
    pub fn finished(&self) -> bool {
        self.epoch() >= self.settings.epochs
    }

    /// Threads the trainer runs on.
    pub fn threads(&self) -> usize {
        self.workers.len()
    }

    /// The run's state, for [`Checkpoint::save`].
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            settings: self.settings.clone(),
            data_positions: self.data.positions(),
            params: self.params.clone(),
            adam: self.adam.clone(),
            history: self.history.clone(),
        }
    }

    /// The name of the network file written after epoch `epoch`.
    pub fn network_name(epoch: u32) -> String {
        format!("net-{epoch:03}.nnue")
    }

    /// Writes into `dir`, each file atomically: the quantised network of the epoch just
    /// done ([`Trainer::network_name`]), the checkpoint (`checkpoint.bin`, replaced) and the
    /// loss curves (`loss.svg`, replaced).
    pub fn save(&self, dir: &Path) -> Result<(), TrainError> {
        let net = quantise(&self.params).map_err(|e| TrainError::Io(e.to_string()))?;
        write_atomically(
            &dir.join(Trainer::network_name(self.epoch())),
            &net.to_bytes(),
        )?;
        self.checkpoint().save(&dir.join(CHECKPOINT_NAME))?;
        write_atomically(&dir.join(PLOT_NAME), loss_svg(&self.history)?.as_bytes())
    }

    /// Runs `records` through the workers, each its fixed share; returns the summed loss.
    fn pass(&mut self, records: &[PackedPosition], grad: bool) -> f64 {
        let share = records.len().div_ceil(self.workers.len());
        let (params, settings) = (&self.params, &self.settings);
        self.pool.install(|| {
            self.workers
                .par_iter_mut()
                .enumerate()
                .for_each(|(i, worker)| {
                    let from = (i * share).min(records.len());
                    let to = ((i + 1) * share).min(records.len());
                    worker.run(params, settings, &records[from..to], grad);
                });
        });
        self.workers.iter().map(|w| w.loss).sum()
    }

    /// Trains one epoch, calling `progress` with the batches done after each; returns the
    /// epoch's losses.
    pub fn run_epoch(&mut self, progress: &mut dyn FnMut(u64)) -> Result<EpochLoss, TrainError> {
        let s = self.settings.clone();
        let mut loss = 0.0;
        for batch in 0..s.epoch_batches {
            let first = self.adam.steps * s.batch_size;
            let mut records = std::mem::take(&mut self.records);
            self.data.batch(first, s.batch_size, &mut records)?;
            loss += self.pass(&records, true) / s.batch_size as f64;
            self.records = records;
            let step = Step {
                rate: s
                    .schedule
                    .rate(s.learning_rate, self.adam.steps, s.epoch_batches, s.epochs),
                weight_decay: s.weight_decay,
                grad_scale: 1.0 / s.batch_size as f32,
                clipped: self.params.layout().out_bias(),
                clip: WEIGHT_CLIP,
            };
            let (adam, weights, workers) =
                (&mut self.adam, &mut self.params.weights, &self.workers);
            let grads: Vec<&[f32]> = workers.iter().map(|w| w.grad.as_slice()).collect();
            self.pool.install(|| adam.step(weights, &grads, step));
            progress(batch + 1);
        }
        let validation = self.validation_loss()?;
        let epoch = EpochLoss {
            train: loss / s.epoch_batches as f64,
            validation,
        };
        self.history.push(epoch);
        Ok(epoch)
    }

    /// The mean loss over the whole validation file, if there is one.
    fn validation_loss(&mut self) -> Result<Option<f64>, TrainError> {
        let Some(mut validation) = self.validation.take() else {
            return Ok(None);
        };
        let mut records = Vec::new();
        let mut total = 0.0;
        let mut start = 0;
        let result = loop {
            if start >= validation.positions() {
                break Ok(Some(total / validation.positions() as f64));
            }
            let count = self.settings.batch_size.min(validation.positions() - start);
            records.clear();
            if let Err(e) = validation.read(start, count, &mut records) {
                break Err(e);
            }
            total += self.pass(&records, false);
            start += count;
        };
        self.validation = Some(validation);
        result
    }
}

/// Refuses settings no run can use.
fn check_settings(s: &Settings) -> Result<(), TrainError> {
    let fail = |m: &str| Err(TrainError::Settings(m.to_string()));
    if s.hidden == 0 || s.hidden > cutoff_engine::nnue::network::MAX_HIDDEN {
        return fail("hidden size must be 1 to 4096");
    }
    if s.buckets == 0 || s.buckets > cutoff_engine::nnue::MAX_BUCKETS {
        return fail("output buckets must be 1 to 8");
    }
    if s.batch_size == 0 || s.epoch_batches == 0 || s.shuffle_buffer == 0 || s.epochs == 0 {
        return fail("batch size, batches per epoch, epochs and shuffle buffer must be positive");
    }
    if s.batch_size > MAX_BATCH_SIZE {
        return fail(&format!(
            "batch size must be at most {MAX_BATCH_SIZE} (a batch is held in memory)"
        ));
    }
    if !(0.0..=1.0).contains(&s.wdl) {
        return fail("wdl must lie in [0, 1]");
    }
    let positive = |x: f32| x > 0.0 && x.is_finite();
    if !(positive(s.eval_scale) && positive(s.learning_rate)) {
        return fail("eval scale and learning rate must be finite and positive");
    }
    if !(s.weight_decay >= 0.0 && s.weight_decay.is_finite()) {
        return fail("weight decay must be finite and not negative");
    }
    let schedule_ok = match s.schedule {
        Schedule::Cosine { final_rate } => final_rate >= 0.0 && final_rate.is_finite(),
        Schedule::Step { gamma, .. } => positive(gamma),
    };
    if !schedule_ok {
        return fail("the final rate must be finite and not negative, a step's gamma positive");
    }
    Ok(())
}
