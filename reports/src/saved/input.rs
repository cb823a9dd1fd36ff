//! Opening what `hpm` reads: a saved run's `arcflow.json`, a text trace (`--trace`), a quantum
//! trace directory (`hpm trace`, `hpm explore`, `hpm export chrome-trace`, the page of `hpm report
//! DIR`).
//!
//! An input must be a regular file (or a directory where one is expected): anything else is
//! refused before it is opened, with one sentence naming what it is ("/dev/zero is a character
//! device, not a file"), so that `/dev/zero` never fills memory and a FIFO never blocks. Files are
//! opened with `O_NONBLOCK` and checked again once open (something swapped in meanwhile is refused
//! too), and read up to the size they had then, at most [`INPUT_LIMIT`]: what hpm holds of an
//! input is bounded by its size on disk. A quantum trace's files are checked before the trace
//! reader opens them; it reads each up to that size as well.

use std::fs::{self, File, FileType, Metadata};
use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// The largest input file hpm reads whole (an arcflow.json, a text trace, a quantum trace's
/// `quantum.meta`): 4 GiB. An agent's arcflow.json is about 100 bytes a context, so this is tens
/// of millions of contexts; a larger file is refused with one line rather than read into memory.
pub const INPUT_LIMIT: u64 = 4 << 30;

/// An input refused before it was read: the message names the path and what it is.
#[derive(Debug)]
struct Refused(String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refused {}

fn refuse(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, Refused(message))
}

/// The sentence of an input refused by this module ("X is a FIFO (named pipe), not a file"), for
/// the caller to follow with what to give instead; `None` for other errors (a missing file, no
/// permission), which callers word as before.
pub fn refusal(e: &io::Error) -> Option<String> {
    e.get_ref().and_then(|r| r.downcast_ref::<Refused>()).map(|r| r.0.clone())
}

/// What a file of type `t` is, as the refusals say it.
pub fn kind(t: FileType) -> &'static str {
    if t.is_file() {
        "a regular file"
    } else if t.is_dir() {
        "a directory"
    } else if t.is_symlink() {
        "a symbolic link"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

/// `fs::metadata` (links followed), with a loop of links refused by name.
fn metadata(path: &Path) -> io::Result<Metadata> {
    fs::metadata(path).map_err(|e| match e.raw_os_error() {
        Some(libc::ELOOP) => refuse(format!("{} is a loop of symbolic links", path.display())),
        _ => e,
    })
}

/// Checks that `meta` (of `path`) is a regular file of at most `limit` bytes; returns its size.
fn regular(path: &Path, meta: &Metadata, limit: u64) -> io::Result<u64> {
    if !meta.is_file() {
        return Err(refuse(format!("{} is {}, not a file", path.display(), kind(meta.file_type()))));
    }
    if meta.len() > limit {
        return Err(refuse(format!(
            "{} is {} bytes, over the {} GiB hpm reads of an input file",
            path.display(),
            meta.len(),
            limit >> 30
        )));
    }
    Ok(meta.len())
}

/// Checks, without opening it, that `path` is a regular file (or a link to one) of at most
/// [`INPUT_LIMIT`] bytes; returns its size.
pub fn check_file(path: &Path) -> io::Result<u64> {
    regular(path, &metadata(path)?, INPUT_LIMIT)
}

/// Checks that `path` is a directory (or a link to one).
pub fn check_dir(path: &Path) -> io::Result<()> {
    let meta = metadata(path)?;
    if !meta.is_dir() {
        return Err(refuse(format!("{} is {}, not a directory", path.display(), kind(meta.file_type()))));
    }
    Ok(())
}

/// Opens the input file `path`: refused unless a regular file of at most [`INPUT_LIMIT`] bytes,
/// checked before opening (a FIFO is never opened) and again on what was opened (with
/// `O_NONBLOCK`, so that a FIFO swapped in meanwhile does not block). Returns the file and its
/// size when opened: read no more than that ([`read_file`] does).
pub fn open_file(path: &Path) -> io::Result<(File, u64)> {
    check_file(path)?;
    let file = fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)?;
    let len = regular(path, &file.metadata()?, INPUT_LIMIT)?;
    Ok((file, len))
}

/// Reads the input file `path` whole ([`open_file`]): at most the size it had when opened.
pub fn read_file(path: &Path) -> io::Result<Vec<u8>> {
    let (file, len) = open_file(path)?;
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(len).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Checks a quantum trace directory before the trace reader opens its files: `dir` is a directory,
/// its `quantum.meta` (when there is one) a regular file of at most [`INPUT_LIMIT`] bytes, and each
/// trace file it would read (`quantum.vp<N>.trace`, a killed run's temporary ones) a regular file.
/// The reader reads each up to its size; trace files are streamed, so they have no limit here.
pub fn check_trace_dir(dir: &Path) -> io::Result<()> {
    check_dir(dir)?;
    let meta = dir.join(hpm_model::quantum::META_FILE);
    if fs::symlink_metadata(&meta).is_ok() {
        check_file(&meta)?;
    }
    for f in hpm_model::quantum::trace_files(dir)? {
        regular(&f, &metadata(&f)?, u64::MAX)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_files_are_refused_by_what_they_are() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        let said = |e: io::Error| refusal(&e).unwrap_or_else(|| panic!("not a refusal: {e}"));
        assert_eq!(said(read_file(Path::new("/dev/zero")).unwrap_err()), "/dev/zero is a character device, not a file");
        assert_eq!(said(read_file(d).unwrap_err()), format!("{} is a directory, not a file", d.display()));
        std::os::unix::fs::symlink(d.join("b"), d.join("a")).unwrap();
        std::os::unix::fs::symlink(d.join("a"), d.join("b")).unwrap();
        assert_eq!(said(read_file(&d.join("a")).unwrap_err()), format!("{} is a loop of symbolic links", d.join("a").display()));
        fs::write(d.join("f"), "x").unwrap();
        assert_eq!(said(check_dir(&d.join("f")).unwrap_err()), format!("{} is a regular file, not a directory", d.join("f").display()));
        assert_eq!(read_file(&d.join("f")).unwrap(), b"x");
        assert!(refusal(&read_file(&d.join("absent")).unwrap_err()).is_none());
        let big = regular(&d.join("f"), &fs::metadata(d.join("f")).unwrap(), 0).unwrap_err();
        assert!(said(big).contains("is 1 bytes, over the 0 GiB"));
    }
}
