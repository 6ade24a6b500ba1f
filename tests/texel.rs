//! `cutoff texel` end to end: determinism across thread counts, a falling loss, a
//! `cargo fmt`-clean weights file, and bad data refused with its file and line.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Labelled positions made from the repository's tactical EPD suites: the score is the
/// material balance in centipawns plus a small deterministic wobble, the result follows
/// the score. A made-up but learnable labelling: material alone explains most of it.
fn synthetic_data() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("epd/public/tactical");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("epd/public/tactical")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    let mut lines = Vec::new();
    for file in files {
        for line in std::fs::read_to_string(file).expect("EPD").lines() {
            let fields: Vec<&str> = line.split_whitespace().take(4).collect();
            if line.starts_with('#') || fields.len() < 4 || fields[0].split('/').count() != 8 {
                continue;
            }
            let material: i32 = fields[0]
                .chars()
                .map(|c| {
                    let value = match c.to_ascii_lowercase() {
                        'p' => 100,
                        'n' | 'b' => 300,
                        'r' => 500,
                        'q' => 900,
                        _ => 0,
                    };
                    if c.is_ascii_uppercase() {
                        value
                    } else {
                        -value
                    }
                })
                .sum();
            let score = material + (lines.len() as i32 % 41 - 20);
            let result = match score {
                s if s > 150 => "1.0",
                s if s < -150 => "0.0",
                _ => "0.5",
            };
            // Castling rights dropped: some suites carry rights without their rook.
            lines.push(format!(
                "{} {} - {} 0 1 | {score} | {result}",
                fields[0], fields[1], fields[3]
            ));
        }
    }
    lines
}

fn tune(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .arg("texel")
        .args(args)
        .output()
        .expect("run cutoff texel")
}

/// The loss `cutoff texel` printed on the line starting with `prefix`.
fn loss(stdout: &str, prefix: &str) -> f64 {
    let line = stdout
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no `{prefix}` line in\n{stdout}"));
    line.rsplit(' ').next().unwrap().parse().expect("a loss")
}

#[test]
fn texel_is_deterministic_lowers_the_loss_and_writes_formatted_source() {
    let scratch = common::scratch("texel", "run");
    let data = scratch.path().join("data.txt");
    let lines = synthetic_data();
    assert_eq!(lines.len(), 426);
    std::fs::write(&data, lines.join("\n") + "\n").unwrap();
    let data_arg = data.to_str().unwrap();

    let mut outputs = Vec::new();
    for threads in ["1", "2"] {
        let out_file = scratch.path().join(format!("weights-{threads}.rs"));
        let run = tune(&[
            data_arg,
            "--epochs",
            "4",
            "--batch-size",
            "32",
            "--threads",
            threads,
            "--output",
            out_file.to_str().unwrap(),
        ]);
        let stdout = String::from_utf8_lossy(&run.stdout).to_string();
        assert!(
            run.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(stdout.starts_with("positions: 426\nK: "), "{stdout}");
        let start = loss(&stdout, "epoch 0:");
        let end = loss(&stdout, "rounded weights:");
        assert!(end < 0.9 * start, "loss {start} → {end}\n{stdout}");
        // Everything but the last line, which names the output file.
        let losses: Vec<&str> = stdout
            .lines()
            .filter(|l| !l.starts_with("wrote "))
            .collect();
        outputs.push((
            losses.join("\n"),
            std::fs::read_to_string(&out_file).unwrap(),
            out_file,
        ));
    }
    assert_eq!(
        outputs[0].0, outputs[1].0,
        "the printed losses depend on --threads"
    );
    assert!(
        outputs[0].1 == outputs[1].1,
        "the weights depend on --threads"
    );

    let source = &outputs[0].1;
    assert!(source.starts_with("//! Evaluation weights, tuned by `cutoff texel`.\n"));
    assert!(source.contains(&format!("//! Data: {data_arg} (426 positions).\n")));
    assert!(source.contains("--epochs 4 --lambda 0.5 --learning-rate 1 --batch-size 32`.\n"));
    assert!(source.contains("pub const KNIGHT_PST: [Score; 64] = [\n"));
    let fmt = Command::new("rustfmt")
        .args(["--edition", "2024", "--check"])
        .arg(&outputs[0].2)
        .output()
        .expect("rustfmt (part of the Rust toolchain) runs");
    assert!(
        fmt.status.success(),
        "not rustfmt-clean:\n{}",
        String::from_utf8_lossy(&fmt.stdout)
    );
}

#[test]
fn texel_refuses_bad_data_with_file_and_line_and_keeps_the_old_file() {
    let scratch = common::scratch("texel", "bad");
    let data = scratch.path().join("bad.txt");
    let good = &synthetic_data()[0];
    std::fs::write(&data, format!("{good}\n{good} | 1\n")).unwrap();
    let out_file = scratch.path().join("weights.rs");
    std::fs::write(&out_file, "old").unwrap();
    let run = tune(&[
        data.to_str().unwrap(),
        "--output",
        out_file.to_str().unwrap(),
    ]);
    assert!(!run.status.success());
    assert_eq!(
        String::from_utf8_lossy(&run.stderr),
        format!(
            "cutoff texel: {}:2: expected 'FEN | score | result', got 4 field(s)\n",
            data.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&out_file).unwrap(), "old");
    assert!(!scratch.path().join("weights.rs.partial").exists());

    // An output that cannot be written is said before the data is read.
    let run = tune(&[
        data.to_str().unwrap(),
        "--output",
        "/nonexistent/weights.rs",
    ]);
    assert!(!run.status.success());
    assert!(
        String::from_utf8_lossy(&run.stderr)
            .starts_with("cutoff texel: cannot create /nonexistent/weights.rs.partial: "),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );

    let run = tune(&[
        data.to_str().unwrap(),
        "--lambda",
        "1.5",
        "--output",
        out_file.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("--lambda must be between 0 and 1"));
}
