//! An output file written whole or not at all: it is written as `OUT.partial` and renamed
//! over `OUT` once complete and synced, so a kill or an error leaves the old file (or
//! none), never half of a new one. Created when a tool starts, it also tells a tool that
//! runs for hours (an EPD suite, a tune) at the start, not at the end, that its output
//! cannot be written.

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

impl Drop for PendingFile {
    /// Removes the temporary file of an output never finished (after the rename the name
    /// is gone, and this does nothing).
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.temporary);
    }
}
