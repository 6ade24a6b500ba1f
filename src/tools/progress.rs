//! Progress bars on stderr, for the tools that run long. They are drawn only where stderr
//! is a terminal: piped or logged output gets the tools' own report lines instead.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

/// A bar that counts up to its length, with the time spent and the time left.
pub const COUNT: &str = "{bar:40} {pos}/{len} {msg} [{elapsed_precise}<{eta_precise}]";

/// `bar` drawn by `template` (indicatif's template syntax).
pub fn styled(bar: ProgressBar, template: &str) -> ProgressBar {
    bar.with_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    )
}

/// Whether bars are drawn: stderr is a terminal.
pub fn shown() -> bool {
    std::io::stderr().is_terminal()
}

/// A progress bar of `len` steps on stderr, or a hidden one where bars are not shown.
pub fn bar(len: u64, template: &str) -> ProgressBar {
    if !shown() {
        return ProgressBar::hidden();
    }
    styled(ProgressBar::new(len), template)
}
