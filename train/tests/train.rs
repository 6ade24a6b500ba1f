//! The trainer on small data made here: random playouts labelled with their material
//! balance, a target a network of any size can learn.

use std::path::{Path, PathBuf};

use cutoff_engine::data::{Header, Outcome, PackedPosition, extend_bytes, write_header};
use cutoff_engine::nnue::network::Network;
use cutoff_engine::nnue::output_bucket;
use cutoff_engine::rng::Rng;
use cutoff_train::TrainError;
use cutoff_train::checkpoint::Checkpoint;
use cutoff_train::optim::Schedule;
use cutoff_train::quant;
use cutoff_train::sample::Sample;
use cutoff_train::trainer::{CHECKPOINT_NAME, PLOT_NAME, Settings, Trainer};
use shakmaty::{Chess, Color, Position, Role};

/// Plies of each random playout, and every how many plies a position is kept.
const PLAYOUT_PLIES: usize = 80;
const KEEP_EVERY: usize = 3;

/// Material from White's view, in centipawns.
fn material(pos: &Chess) -> i16 {
    let value = |role| match role {
        Role::Pawn => 100,
        Role::Knight | Role::Bishop => 300,
        Role::Rook => 500,
        Role::Queen => 900,
        Role::King => 0,
    };
    pos.board()
        .into_iter()
        .map(|(_, p)| match p.color {
            Color::White => value(p.role),
            Color::Black => -value(p.role),
        })
        .sum()
}

/// `count` positions from random playouts (seeded), scored by material, each game's
/// result the sign of the material of its last kept position.
fn positions(count: usize, seed: u64) -> Vec<(Chess, PackedPosition)> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Chess::default();
        let mut game = Vec::new();
        for ply in 0..PLAYOUT_PLIES {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
            if ply % KEEP_EVERY == 0 {
                game.push(pos.clone());
            }
        }
        let last = material(game.last().expect("a playout keeps its first ply"));
        let outcome = match last {
            m if m > 0 => Outcome::WhiteWins,
            m if m < 0 => Outcome::BlackWins,
            _ => Outcome::Draw,
        };
        for pos in game {
            let record = PackedPosition::pack(&pos, material(&pos), outcome);
            out.push((pos, record));
        }
    }
    out.truncate(count);
    out
}

/// A new empty folder of the test's own, removed with its files when dropped.
fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("cutoff-train-{name}-"))
        .tempdir()
        .expect("temporary folder")
}

fn write_data(path: &Path, records: &[PackedPosition]) {
    let mut bytes = Vec::new();
    write_header(&mut bytes, &Header::new("cutoff-train test")).expect("header");
    extend_bytes(&mut bytes, records);
    std::fs::write(path, bytes).expect("data file");
}

/// Training and validation files of the material target.
fn material_data(dir: &Path, train: usize, validation: usize) -> (PathBuf, PathBuf) {
    let records = |n, seed| -> Vec<PackedPosition> {
        positions(n, seed).into_iter().map(|(_, r)| r).collect()
    };
    let (train_path, validation_path) = (dir.join("train.bin"), dir.join("validation.bin"));
    write_data(&train_path, &records(train, 1));
    write_data(&validation_path, &records(validation, 2));
    (train_path, validation_path)
}

fn settings(hidden: usize, epochs: u32) -> Settings {
    Settings {
        hidden,
        buckets: 1,
        batch_size: 512,
        epoch_batches: 40,
        epochs,
        learning_rate: 0.01,
        schedule: Schedule::Cosine { final_rate: 0.0005 },
        weight_decay: 0.0,
        wdl: 0.0,
        eval_scale: 400.0,
        seed: 7,
        shuffle_buffer: 5000,
    }
}

fn train(trainer: &mut Trainer) {
    while !trainer.finished() {
        trainer.run_epoch(&mut |_| {}).expect("epoch");
    }
}

/// The material target: the validation loss must fall at least this many times, and
/// the mean error be below `MATERIAL_ERROR_CP` where |material| is at most
/// `MEASURED_WITHIN_CP` (beyond it the sigmoid is flat and the loss barely cares).
const LOSS_REDUCTION: f64 = 20.0;
const MATERIAL_ERROR_CP: f32 = 25.0;
const MEASURED_WITHIN_CP: i16 = 400;

#[test]
fn learns_material() {
    let folder = scratch("material");
    let dir = folder.path();
    let (train_path, validation_path) = material_data(dir, 20_000, 2_000);
    let mut trainer =
        Trainer::new(settings(16, 12), &[train_path], Some(&validation_path), 2).expect("trainer");
    train(&mut trainer);
    let history = trainer.history();
    let first = history[0].validation.expect("validation loss");
    let last = history.last().unwrap().validation.expect("validation loss");
    assert!(
        last < first / LOSS_REDUCTION,
        "validation loss {first} -> {last}"
    );
    // Where the sigmoid is not flat, the network must give the material count.
    let mut errors = Vec::new();
    for (_, record) in positions(2_000, 3) {
        let sample = Sample::new(&record);
        if sample.score.abs() <= MEASURED_WITHIN_CP {
            errors.push((trainer.params().eval_cp(&sample) - f32::from(sample.score)).abs());
        }
    }
    let mean = errors.iter().sum::<f32>() / errors.len() as f32;
    assert!(
        errors.len() > 500 && mean < MATERIAL_ERROR_CP,
        "mean error {mean} cp over {} positions",
        errors.len()
    );
}

#[test]
fn same_seed_and_threads_same_weights() {
    let folder = scratch("determinism");
    let dir = folder.path();
    let (train_path, _) = material_data(dir, 3_000, 10);
    let run = |seed| {
        let mut s = settings(8, 2);
        s.seed = seed;
        let mut trainer =
            Trainer::new(s, std::slice::from_ref(&train_path), None, 2).expect("trainer");
        train(&mut trainer);
        trainer.params().clone()
    };
    let first = run(7);
    assert_eq!(first, run(7));
    assert_ne!(first, run(8));
}

#[test]
fn resume_equals_an_uninterrupted_run() {
    let folder = scratch("resume");
    let dir = folder.path();
    let (train_path, validation_path) = material_data(dir, 3_000, 500);
    let data = std::slice::from_ref(&train_path);
    let mut whole = Trainer::new(settings(8, 3), data, Some(&validation_path), 2).expect("trainer");
    train(&mut whole);

    let mut first = Trainer::new(settings(8, 3), data, Some(&validation_path), 2).expect("trainer");
    first.run_epoch(&mut |_| {}).expect("epoch");
    first.run_epoch(&mut |_| {}).expect("epoch");
    first.save(dir).expect("save");
    drop(first);
    let checkpoint = Checkpoint::load(&dir.join(CHECKPOINT_NAME)).expect("checkpoint");
    let mut resumed =
        Trainer::resume(checkpoint, None, data, Some(&validation_path), 2).expect("resume");
    assert_eq!(resumed.epoch(), 2);
    train(&mut resumed);
    assert_eq!(resumed.checkpoint(), whole.checkpoint());

    // Another data set (here: another size) is refused.
    let other_folder = scratch("resume-other");
    let (other, _) = material_data(other_folder.path(), 2_000, 10);
    let checkpoint = Checkpoint::load(&dir.join(CHECKPOINT_NAME)).expect("checkpoint");
    assert!(matches!(
        Trainer::resume(checkpoint, None, &[other], None, 2),
        Err(TrainError::Settings(_))
    ));
}

#[test]
fn outputs_of_an_epoch() {
    let folder = scratch("outputs");
    let dir = folder.path();
    let (train_path, validation_path) = material_data(dir, 2_000, 200);
    let mut trainer =
        Trainer::new(settings(8, 1), &[train_path], Some(&validation_path), 1).expect("trainer");
    train(&mut trainer);
    trainer.save(dir).expect("save");
    let net = std::fs::read(dir.join(Trainer::network_name(1))).expect("network file");
    assert_eq!(Network::from_bytes(&net).expect("network").hidden(), 8);
    let svg = std::fs::read_to_string(dir.join(PLOT_NAME)).expect("plot");
    assert!(
        svg.starts_with("<svg") && svg.contains("validation"),
        "{svg}"
    );
    let names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(names.is_empty(), "temporary files left: {names:?}");
}

/// With one output bucket and with eight, the quantised network the trainer writes
/// evaluates as the trainer's own integer reading of the format and as the engine, and
/// close to the floats.
#[test]
fn quantised_network_matches_the_engine_and_the_floats() {
    let folder = scratch("quantised");
    let dir = folder.path();
    let (train_path, _) = material_data(dir, 5_000, 10);
    for buckets in [1, 8] {
        let mut s = settings(32, 3);
        s.buckets = buckets;
        let mut trainer =
            Trainer::new(s, std::slice::from_ref(&train_path), None, 2).expect("trainer");
        train(&mut trainer);
        let net = quant::quantise(trainer.params()).expect("network");
        let net = Network::from_bytes(&net.to_bytes()).expect("the file reads back");
        assert_eq!(net.buckets(), buckets);
        let mut differences = Vec::new();
        let mut used = std::collections::BTreeSet::new();
        for (pos, record) in positions(3_000, 4) {
            let sample = Sample::new(&record);
            used.insert(output_bucket(sample.pieces(), buckets));
            let int = quant::eval(&net, &sample);
            assert_eq!(int, net.evaluate_full(&pos), "{record:?}");
            differences.push((trainer.params().eval_cp(&sample) - int as f32).abs());
        }
        assert!(used.len() >= buckets.min(3), "buckets used: {used:?}");
        let worst = differences.iter().copied().fold(0.0, f32::max);
        let mean = differences.iter().sum::<f32>() / differences.len() as f32;
        assert!(
            mean < QUANTISATION_MEAN_CP && worst < QUANTISATION_WORST_CP,
            "{buckets} bucket(s): float and integer differ by {mean} cp on average, \
             {worst} cp at most"
        );
    }
}

/// A network read back as float weights quantises to the same file; widened and split
/// into eight buckets it still evaluates every position exactly as the file does; a run
/// from it starts where the file's training ended; what cannot keep its weights is
/// refused.
#[test]
fn a_run_starts_from_a_network_file() {
    let folder = scratch("init");
    let dir = folder.path();
    let (train_path, _) = material_data(dir, 5_000, 10);
    let data = std::slice::from_ref(&train_path);
    let mut trainer = Trainer::new(settings(32, 3), data, None, 2).expect("trainer");
    train(&mut trainer);
    let net = quant::quantise(trainer.params()).expect("network");

    let same = quant::dequantise(&net, 32, 1, 5).expect("same shape");
    let again = quant::quantise(&same).expect("network");
    assert_eq!(again.to_bytes(), net.to_bytes());

    let wide = quant::dequantise(&net, 64, 8, 5).expect("wider, eight buckets");
    let wide_net = quant::quantise(&wide).expect("network");
    assert_eq!((wide_net.hidden(), wide_net.buckets()), (64, 8));
    for (pos, record) in positions(500, 4) {
        let sample = Sample::new(&record);
        assert_eq!(quant::eval(&wide_net, &sample), quant::eval(&net, &sample));
        assert_eq!(wide_net.evaluate_full(&pos), net.evaluate_full(&pos));
    }

    // The first epoch from the file's weights loses less than one from random weights.
    let first_epoch = |trainer: &mut Trainer| trainer.run_epoch(&mut |_| {}).expect("epoch").train;
    let mut wide_settings = settings(64, 1);
    wide_settings.buckets = 8;
    let mut fresh = Trainer::new(wide_settings.clone(), data, None, 2).expect("trainer");
    let mut tuned =
        Trainer::starting_from(wide_settings.clone(), wide, data, None, 2).expect("trainer");
    let (fresh_loss, tuned_loss) = (first_epoch(&mut fresh), first_epoch(&mut tuned));
    assert!(
        tuned_loss < fresh_loss,
        "fine-tuned {tuned_loss}, fresh {fresh_loss}"
    );

    assert!(quant::dequantise(&net, 16, 1, 5).is_err(), "narrower");
    let eight = quant::quantise(&quant::dequantise(&net, 32, 8, 5).expect("eight")).expect("net");
    assert!(
        quant::dequantise(&eight, 32, 4, 5).is_err(),
        "eight buckets into four"
    );
    let mismatched = quant::dequantise(&net, 32, 1, 5).expect("same shape");
    assert!(matches!(
        Trainer::starting_from(wide_settings, mismatched, data, None, 2),
        Err(TrainError::Settings(_))
    ));
}

/// How far the integer network may stray from the float one, in centipawns. An output
/// weight is rounded to 1/64, so each neuron's term is off by up to 1/128 of its
/// activation (at most 1), times 400 cp: up to 3 cp a neuron. The 64 terms mostly
/// cancel, their sum spreading by about 5 cp (64 × 0.2 mean squared activation ×
/// (1/64)² / 12, square-rooted, × 400), so the mean is a few centipawns, and a few
/// positions, with many neurons near 1, differ by more. Measured on this test's data:
/// 3.6 cp on average with one bucket, 6.2 with eight.
const QUANTISATION_MEAN_CP: f32 = 8.0;
const QUANTISATION_WORST_CP: f32 = 30.0;

#[test]
fn bad_files_are_refused() {
    let folder = scratch("refused");
    let dir = folder.path();
    let (train_path, _) = material_data(dir, 100, 10);
    let bytes = std::fs::read(&train_path).unwrap();
    let refused = |name: &str, bytes: &[u8]| -> String {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        match Trainer::new(settings(8, 1), &[path], None, 1) {
            Err(TrainError::Data(message)) => message,
            Err(e) => panic!("{name}: refused for another reason: {e}"),
            Ok(mut trainer) => match trainer.run_epoch(&mut |_| {}) {
                Err(TrainError::Data(message)) => message,
                other => panic!("{name}: not refused: {other:?}"),
            },
        }
    };
    let message = refused("truncated.bin", &bytes[..bytes.len() - 5]);
    assert!(
        message.contains("at byte 3200") && message.contains("truncated"),
        "{message}"
    );
    let message = refused("header.bin", &bytes[..20]);
    assert!(message.contains("header"), "{message}");
    let mut wrong = bytes.clone();
    wrong[0] = b'X';
    assert!(refused("magic.bin", &wrong).contains("magic"));
    let mut version = bytes.clone();
    version[8] = 2;
    assert!(refused("version.bin", &version).contains("version 2"));
    let mut record = bytes.clone();
    record[32 + 5 * 32 + 30] = 7; // the sixth record's result byte
    let message = refused("record.bin", &record);
    assert!(
        message.contains("at byte 192") && message.contains("result"),
        "{message}"
    );
    assert!(refused("empty.bin", &bytes[..32]).contains("no positions"));
    let missing = Trainer::new(settings(8, 1), &[dir.join("missing.bin")], None, 1);
    assert!(
        matches!(&missing, Err(TrainError::Data(m)) if m.contains("missing.bin")),
        "{:?}",
        missing.err()
    );

    // Checkpoints: cut short, or one byte changed.
    let mut trainer = Trainer::new(settings(8, 1), &[train_path], None, 1).expect("trainer");
    train(&mut trainer);
    let checkpoint = trainer.checkpoint().to_bytes();
    let cut = Checkpoint::from_bytes(&checkpoint[..checkpoint.len() - 1]).unwrap_err();
    assert!(cut.to_string().contains("truncated"), "{cut}");
    let mut flipped = checkpoint.clone();
    flipped[1000] ^= 1;
    let corrupt = Checkpoint::from_bytes(&flipped).unwrap_err();
    assert!(corrupt.to_string().contains("checksum"), "{corrupt}");
    assert_eq!(
        Checkpoint::from_bytes(&checkpoint),
        Ok(trainer.checkpoint())
    );
}

#[test]
fn files_are_one_stream_shuffled_a_buffer_at_a_time() {
    use cutoff_train::loader::{DataSet, Shuffled};
    const FILES: [i16; 2] = [5, 7];
    const BUFFER: u64 = 4;
    let folder = scratch("stream");
    let dir = folder.path();
    let mut paths = Vec::new();
    let mut score = 0;
    for (i, len) in FILES.into_iter().enumerate() {
        let records: Vec<PackedPosition> = (0..len)
            .map(|_| {
                score += 1;
                PackedPosition::pack(&Chess::default(), score - 1, Outcome::Draw)
            })
            .collect();
        paths.push(dir.join(format!("part{i}.bin")));
        write_data(paths.last().unwrap(), &records);
    }
    let total = (FILES[0] + FILES[1]) as u64;
    let mut stream = Shuffled::new(DataSet::open(&paths).expect("data"), 9, BUFFER);
    let mut batch = Vec::new();
    let mut seen = Vec::new();
    for first in (0..3 * total).step_by(3) {
        stream.batch(first, 3, &mut batch).expect("batch");
        seen.extend(batch.iter().map(|r| r.white_score() as u64));
    }
    // Each fill of the buffer is a permutation of the next BUFFER positions of the
    // stream, which wraps from the last file to the first.
    for (fill, chunk) in seen.chunks(BUFFER as usize).enumerate() {
        let mut sorted = chunk.to_vec();
        sorted.sort_unstable();
        let start = fill as u64 * BUFFER;
        let expected: Vec<u64> = (start..start + BUFFER).map(|n| n % total).collect();
        assert_eq!(sorted, expected, "fill {fill}");
    }
    assert_ne!(
        seen[..total as usize],
        (0..total).collect::<Vec<_>>(),
        "not shuffled"
    );
    // A batch depends on its position in the stream only, not on what was read before.
    let mut fresh = Shuffled::new(DataSet::open(&paths).expect("data"), 9, BUFFER);
    fresh.batch(17, 5, &mut batch).expect("batch");
    let scores: Vec<u64> = batch.iter().map(|r| r.white_score() as u64).collect();
    assert_eq!(scores, seen[17..22]);
}

/// Settings no run can use are refused before any work: an empty run, a batch too large
/// to hold, and rates or scales that are not finite (which would train NaN networks).
#[test]
fn settings_no_run_can_use_are_refused() {
    let folder = scratch("refused");
    let (data, _) = material_data(folder.path(), 1_000, 10);
    let base = settings(8, 1);
    let refused: [(&str, Settings); 8] = [
        (
            "no epochs",
            Settings {
                epochs: 0,
                ..base.clone()
            },
        ),
        (
            "huge batch",
            Settings {
                batch_size: 1 << 40,
                ..base.clone()
            },
        ),
        (
            "infinite rate",
            Settings {
                learning_rate: f32::INFINITY,
                ..base.clone()
            },
        ),
        (
            "NaN rate",
            Settings {
                learning_rate: f32::NAN,
                ..base.clone()
            },
        ),
        (
            "NaN final rate",
            Settings {
                schedule: Schedule::Cosine {
                    final_rate: f32::NAN,
                },
                ..base.clone()
            },
        ),
        (
            "NaN gamma",
            Settings {
                schedule: Schedule::Step {
                    every: 1,
                    gamma: f32::NAN,
                },
                ..base.clone()
            },
        ),
        (
            "infinite eval scale",
            Settings {
                eval_scale: f32::INFINITY,
                ..base.clone()
            },
        ),
        (
            "infinite weight decay",
            Settings {
                weight_decay: f32::INFINITY,
                ..base.clone()
            },
        ),
    ];
    for (what, settings) in refused {
        assert!(
            matches!(
                Trainer::new(settings, std::slice::from_ref(&data), None, 1),
                Err(TrainError::Settings(_))
            ),
            "{what}"
        );
    }
    assert!(Trainer::new(base, &[data], None, 1).is_ok());
}
