//! The files of a quantum trace while it is written: a processor's trace file ([`SinkFile`],
//! [`RunToDir`]) and the meta file ([`MetaFile`]). The records' format, writer and reader are
//! `hpm_model::quantum`; these are its files, created and replaced without following links
//! (`hpm_support::files`).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::fs::File;

use hpm_support::files;
use hpm_model::quantum::{trace_file_name, BufferSink, Meta, QuantumWriter, META_FILE};

/// A processor's trace file while it is written: the sink side of its writer's buffers, into
/// `.quantum.vp<N>.trace.<pid>.tmp`, renamed to `quantum.vp<N>.trace` when closed (a run that
/// ends before leaves only the temporary file, which the reader recovers).
pub(crate) struct SinkFile {
    pub(crate) vp: u32,
    /// `None` once writing failed: the processor's writer then finds no free buffer, and every
    /// later record is counted as missed.
    pub(crate) sink: Option<BufferSink>,
    pub(crate) file: Option<File>,
    pub(crate) tmp: PathBuf,
    pub(crate) path: PathBuf,
    /// Records in the file: updated after each write.
    pub(crate) records_in_file: u64,
    /// Why writing failed, if it did.
    pub(crate) failure: Option<String>,
}

impl SinkFile {
    /// Creates processor `vp`'s temporary file in `dir`; returns the processor's writer (for
    /// `counters` deltas; a version-2 file with reason records when `reasons`) and the file, or
    /// the file's path and why it could not be created.
    pub(crate) fn create(dir: &Path, vp: u32, counters: usize, reasons: bool) -> Result<(QuantumWriter, SinkFile), (PathBuf, io::Error)> {
        let path = dir.join(trace_file_name(vp));
        let tmp = dir.join(format!(".{}.{}.tmp", trace_file_name(vp), std::process::id()));
        // A name fixed by the process id: what a dead process of the same id left (a link planted
        // there too) is removed, never followed.
        match files::replace_new(&tmp) {
            Ok(file) => {
                let (writer, sink) = if reasons { QuantumWriter::with_reasons(vp, counters) } else { QuantumWriter::new(vp, counters) };
                Ok((writer, SinkFile { vp, sink: Some(sink), file: Some(file), tmp, path, records_in_file: 0, failure: None }))
            }
            Err(e) => Err((tmp, e)),
        }
    }

    /// Writes the buffers handed over so far; whether everything is written (the writer has
    /// finished, or writing has stopped). A write error cuts the file back to its last complete
    /// record (a buffer written in part would end it with a cut record; shrinking works on a full
    /// disk or at the file-size limit too), is kept in `failure`, drops the sink, and is returned
    /// for the caller to say.
    pub(crate) fn write_pending(&mut self) -> io::Result<bool> {
        let (Some(sink), Some(file)) = (self.sink.as_mut(), self.file.as_mut()) else { return Ok(true) };
        let result = sink.write_pending(file);
        self.records_in_file = sink.records_written();
        if let Err(e) = &result {
            if let Err(cut) = file.set_len(sink.written()) {
                hpm_support::log::error(&format!("cannot cut {} back to its last complete record: {cut}", self.tmp.display()));
            }
            self.failure = Some(e.to_string());
            self.sink = None;
        }
        result
    }

    /// At the end of a trace, after the processor's writer finished and all it handed over was
    /// written: closes the file ([`SinkFile::close`]) and accounts for it. `total` is every record
    /// the processor made, missed ones included; `whose` names the processor in messages
    /// ("processor 3", "CPU 1"). The file goes to `files` when it is complete, else one line to
    /// `problems` saying what it holds and what is lost. Returns the records not in the file.
    pub(crate) fn close_at_finish(&mut self, total: u64, whose: &str, files: &mut Vec<PathBuf>, problems: &mut Vec<String>) -> u64 {
        let not_in_file = total.saturating_sub(self.records_in_file);
        match (self.close(), &self.failure) {
            (Ok(()), None) => files.push(self.path.clone()),
            (Ok(()), Some(why)) => problems.push(format!(
                "{} is incomplete: {why}; it holds {} of {whose}'s {total} records, the other {not_in_file} are lost",
                self.path.display(),
                self.records_in_file
            )),
            (Err(e), _) => problems.push(format!("cannot write {}: {e}", self.path.display())),
        }
        not_in_file
    }

    /// Flushes the file and gives it its final name (no fsync: see `hpm_reports::write_atomic`).
    pub(crate) fn close(&mut self) -> io::Result<()> {
        if let Some(mut f) = self.file.take() {
            f.flush()?;
        }
        std::fs::rename(&self.tmp, &self.path)
    }
}

/// [`BufferSink::run`] into a file of its own.
pub trait RunToDir {
    /// Creates `dir/quantum.vp<N>.trace` (replacing a file or link there, never following it) and
    /// runs [`BufferSink::run`] into it.
    fn run_to_dir(self, dir: &Path) -> io::Result<(PathBuf, u64)>;
}

impl RunToDir for BufferSink {
    fn run_to_dir(self, dir: &Path) -> io::Result<(PathBuf, u64)> {
        let path = dir.join(trace_file_name(self.vp()));
        let file = files::replace_new(&path).map_err(|e| io::Error::new(e.kind(), format!("cannot create {}: {e}", path.display())))?;
        let mut out = io::BufWriter::new(file);
        let n = self.run(&mut out)?;
        out.into_inner().map_err(|e| e.into_error())?;
        Ok((path, n))
    }
}

/// The meta file, `dir/quantum.meta`.
pub trait MetaFile {
    /// Writes `dir/quantum.meta` (as [`MetaFile::write`]) at the end of a tracer's `finish`: the
    /// file goes to `files`, or the error to `problems`.
    fn write_at_finish(&self, dir: &Path, files: &mut Vec<PathBuf>, problems: &mut Vec<String>);
    /// Writes `dir/quantum.meta` atomically (temporary file, rename).
    fn write(&self, dir: &Path) -> io::Result<()>;
}

impl MetaFile for Meta {
    fn write_at_finish(&self, dir: &Path, files: &mut Vec<PathBuf>, problems: &mut Vec<String>) {
        match self.write(dir) {
            Ok(()) => files.push(dir.join(META_FILE)),
            Err(e) => problems.push(e.to_string()),
        }
    }

    fn write(&self, dir: &Path) -> io::Result<()> {
        files::write_atomic(&dir.join(META_FILE), self.to_text().as_bytes())
    }
}
