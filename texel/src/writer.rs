//! Weights as the Rust source of `engine/src/eval/weights.rs`.
//!
//! Tables are laid out eight entries a line (a piece-square table reads as a board, rank 1
//! first) with aligned columns, under `#[rustfmt::skip]` so that `cargo fmt` keeps that
//! layout whatever the values; everything else is written the way rustfmt would write it.
//! The output is therefore `cargo fmt`-clean as written.

use std::fmt::Write;

use cutoff_engine::eval::features::GROUPS;
use cutoff_engine::eval::{KING_UNITS, Score};

/// Entries per line in a table.
const ROW: usize = 8;
/// Doc comment of the king-danger weights (not a linear group, so not in `GROUPS`).
const KING_ATTACK_DOC: &str = "King-danger units per king-zone square attacked by a knight, \
     bishop, rook, queen; then per safe check by each.";

fn rows<T>(out: &mut String, items: &[T], entry: impl Fn(&T) -> String) {
    for row in items.chunks(ROW) {
        let line: Vec<String> = row.iter().map(&entry).collect();
        let _ = writeln!(out, "    {}", line.join(" "));
    }
}

/// The source of a weights file: `header` as its module doc (one `//!` line each), then
/// every group of `linear` (indexed like `features::WEIGHTS`) and the king-danger weights.
pub fn weights_source(
    header: &[String],
    linear: &[Score],
    king_attack: &[i32; KING_UNITS],
) -> String {
    let mut out = String::new();
    for line in header {
        if line.is_empty() {
            out.push_str("//!\n");
        } else {
            let _ = writeln!(out, "//! {line}");
        }
    }
    out.push_str("\nuse super::tapered::{Score, s};\n");
    for group in &GROUPS {
        let weights = &linear[group.offset..group.offset + group.weights.len()];
        let _ = write!(out, "\n/// {}\n", group.doc);
        if group.scalar {
            let w = weights[0];
            let _ = writeln!(
                out,
                "pub const {}: Score = s({}, {});",
                group.name, w.mg, w.eg
            );
        } else {
            out.push_str("#[rustfmt::skip]\n");
            let _ = writeln!(
                out,
                "pub const {}: [Score; {}] = [",
                group.name,
                weights.len()
            );
            rows(&mut out, weights, |w| format!("s({:4}, {:4}),", w.mg, w.eg));
            out.push_str("];\n");
        }
    }
    let _ = write!(out, "\n/// {KING_ATTACK_DOC}\n#[rustfmt::skip]\n");
    let _ = writeln!(out, "pub const KING_ATTACK_WEIGHT: [i32; {KING_UNITS}] = [");
    rows(&mut out, king_attack, |w| format!("{w:4},"));
    out.push_str("];\n");
    out
}

/// The module-doc lines at the top of a weights file, without their `//!`: what a
/// rewrite keeps.
pub fn header_of(source: &str) -> Vec<String> {
    source
        .lines()
        .map_while(|l| l.strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l).to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use cutoff_engine::eval::{features, weights};

    const COMMITTED: &str = include_str!("../../engine/src/eval/weights.rs");

    #[test]
    fn writing_the_committed_weights_reproduces_the_file() {
        let header = header_of(COMMITTED);
        assert!(header.len() >= 3, "{header:?}");
        let source = weights_source(&header, &features::WEIGHTS, &weights::KING_ATTACK_WEIGHT);
        assert!(source == COMMITTED, "writer output differs:\n{source}");
    }

    #[test]
    fn every_weight_lands_in_its_table() {
        let mut linear = features::WEIGHTS.to_vec();
        linear[features::TEMPO] = Score { mg: -123, eg: 4567 };
        linear[features::PST + 64 + 63] = Score { mg: 1, eg: -2 };
        let source = weights_source(&[], &linear, &[1, -2, 30, 400, 5, 6, 7, 8]);
        assert!(source.starts_with("\nuse super::tapered::{Score, s};\n"));
        assert!(source.contains("pub const TEMPO: Score = s(-123, 4567);\n"));
        // h8, the knight table's last square, ends its eighth row.
        let knight = source.split("pub const KNIGHT_PST").nth(1).unwrap();
        let eighth_row = knight.lines().nth(8).unwrap();
        assert!(eighth_row.ends_with("s(   1,   -2),"), "{eighth_row}");
        assert!(source.ends_with("[\n       1,   -2,   30,  400,    5,    6,    7,    8,\n];\n"));
    }
}
