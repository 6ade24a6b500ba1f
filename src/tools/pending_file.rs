//! An output file written whole or not at all: it is written as `OUT.partial` and renamed
//! over `OUT` once complete and synced, so a kill or an error leaves the old file (or
//! none), never half of a new one. Created when a tool starts, it also tells a tool that
//! runs for hours (an EPD suite, a tune) at the start, not at the end, that its output
//! cannot be written. [`check_distinct`] keeps a tool from writing over its own input.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// `OUT.partial` while it is written; removed if dropped unfinished.
pub struct PendingFile {
    temporary: PathBuf,
    target: PathBuf,
    writer: Option<BufWriter<File>>,
}

impl PendingFile {
    /// Creates `target` + `.partial` now (failing as writing `target` would: a missing
    /// folder, no permission).
    pub fn create(target: &Path) -> Result<PendingFile, String> {
        if target.is_dir() {
            return Err(format!("{} is a folder, not a file", target.display()));
        }
        let mut name = target.as_os_str().to_owned();
        name.push(".partial");
        let temporary = PathBuf::from(name);
        let file = File::create(&temporary)
            .map_err(|e| format!("cannot create {}: {e}", temporary.display()))?;
        Ok(PendingFile {
            temporary,
            target: target.to_path_buf(),
            writer: Some(BufWriter::with_capacity(1 << 20, file)),
        })
    }

    pub fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), String> {
        let writer = self
            .writer
            .as_mut()
            .expect("a pending file is written until finished");
        writer
            .write_all(bytes)
            .map_err(|e| format!("cannot write {}: {e}", self.temporary.display()))
    }

    /// Flushes and syncs the file, then moves it into place.
    pub fn finish(self) -> Result<(), String> {
        Self::finish_together(vec![self])
    }

    /// Finishes files that belong together (a split's two halves): every one is synced
    /// before any is renamed, so a failed write replaces none of them.
    pub fn finish_together(mut files: Vec<PendingFile>) -> Result<(), String> {
        files.iter_mut().try_for_each(PendingFile::sync)?;
        files.iter().try_for_each(|f| {
            std::fs::rename(&f.temporary, &f.target)
                .map_err(|e| format!("cannot rename to {}: {e}", f.target.display()))
        })
    }

    fn sync(&mut self) -> Result<(), String> {
        let writer = self.writer.take().expect("finished once");
        let failed =
            |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", self.temporary.display());
        let file = writer.into_inner().map_err(|e| failed(&e))?;
        file.sync_all().map_err(|e| failed(&e))
    }
}

/// Refuses outputs that name one of the inputs or another output (`data dedup --output
/// a.bin a.bin`, datagen's `--pgn` given its `--output`): renaming the finished output
/// over an input would lose the input, and two outputs in one file mix their bytes. Paths
/// are compared after resolving links and `..`; an output that does not exist yet is
/// compared through its folder.
pub fn check_distinct(outputs: &[&Path], inputs: &[&Path]) -> Result<(), String> {
    for (i, output) in outputs.iter().enumerate() {
        let id = identity(output);
        let clash = inputs
            .iter()
            .map(|input| (input, "input"))
            .chain(outputs[..i].iter().map(|other| (other, "output")))
            .find(|(other, _)| identity(other) == id);
        if let Some((other, role)) = clash {
            return Err(format!(
                "output {} is the same file as the {role} {}",
                output.display(),
                other.display()
            ));
        }
    }
    Ok(())
}

/// The path a file is known by after resolving links: its own where it exists, else its
/// folder's joined with its name (the path as given where neither resolves).
fn identity(path: &Path) -> PathBuf {
    if let Ok(resolved) = path.canonicalize() {
        return resolved;
    }
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    match (folder.canonicalize(), path.file_name()) {
        (Ok(folder), Some(name)) => folder.join(name),
        _ => path.to_path_buf(),
    }
}

impl Drop for PendingFile {
    /// Removes the temporary file of an output never finished (after the rename the name
    /// is gone, and this does nothing).
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.temporary);
    }
}
