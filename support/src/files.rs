//! Creating and removing files where other users may have planted links: the agent often runs as
//! root beside them, in directories they can write to (a shared working directory, `/tmp`).
//!
//! - Every file is created new: `O_CREAT|O_EXCL|O_NOFOLLOW` ([`create_new`]), so a link or file
//!   planted under its name is never opened, followed or truncated. Files are replaced atomically
//!   ([`write_atomic`]): a temporary file of a fresh name, renamed over the target (a rename replaces
//!   a link, never its target). Modes are 0666 less the process's umask.
//! - A directory written into is trusted only when it is owned by this process's effective user
//!   or root, and is not open to every user without the sticky bit ([`check_dir`]); a link to it
//!   only when the link is owned by them too (as the kernel's `protected_symlinks` rule).
//! - Removal never follows a link: a link is removed itself ([`remove`]), and directories are walked
//!   only after [`check_dir`].

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// Creates `path` for writing; fails if anything exists under that name, a link included.
pub fn create_new(path: &Path) -> io::Result<File> {
    OpenOptions::new().write(true).create_new(true).custom_flags(nix::libc::O_NOFOLLOW).mode(0o666).open(path)
}

/// [`create_new`] after removing what a dead process left under that name (a file, or a link,
/// never its target): for names fixed by this process's id. Something planted again meanwhile
/// makes it fail, never follows.
pub fn replace_new(path: &Path) -> io::Result<File> {
    remove(path)?;
    create_new(path)
}

/// Removes `path` without following it: a link is removed, not its target; a directory is left
/// (an error). Nothing there is not an error.
pub fn remove(path: &Path) -> io::Result<()> {
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
        Ok(m) if m.is_dir() => Err(io::Error::new(io::ErrorKind::IsADirectory, "it is a directory; not removed")),
        // unlink(2) removes a link itself.
        Ok(_) => match fs::remove_file(path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            r => r,
        },
    }
}

/// Who may own what this process writes into: itself, or root.
fn trusted_owner(uid: u32) -> bool {
    uid == 0 || uid == nix::unistd::geteuid().as_raw()
}

/// Checks that `dir` is a directory this process may write into and remove from, without another
/// user being able to change what is there: owned by the effective user or root, not writable by
/// every user unless sticky (as `/tmp`). A link to it counts only when the link's owner is trusted
/// too. The error says why and what to do ("it is …"), for the caller to put after the path.
pub fn check_dir(dir: &Path) -> io::Result<()> {
    let me = nix::unistd::geteuid().as_raw();
    let refuse = |kind, why: String| Err(io::Error::new(kind, why));
    let link = fs::symlink_metadata(dir)?;
    if link.file_type().is_symlink() && !trusted_owner(link.uid()) {
        return refuse(
            io::ErrorKind::PermissionDenied,
            format!("it is a symbolic link owned by uid {}, not by uid {me} or root: not followed; remove it or use a directory of your own", link.uid()),
        );
    }
    let meta = fs::metadata(dir)?;
    if !meta.is_dir() {
        return refuse(io::ErrorKind::NotADirectory, "it is not a directory".into());
    }
    if !trusted_owner(meta.uid()) {
        return refuse(
            io::ErrorKind::PermissionDenied,
            format!("it is owned by uid {}, not by uid {me} or root, who could replace what is written there; use a directory of your own", meta.uid()),
        );
    }
    if meta.mode() & 0o1002 == 0o002 {
        return refuse(
            io::ErrorKind::PermissionDenied,
            format!("it is writable by every user without the sticky bit (mode {:o}); use a directory of your own, or chmod o-w or +t it", meta.mode() & 0o7777),
        );
    }
    Ok(())
}

/// Creates `dir` (and its parents) when missing, then [`check_dir`]s it. Parents are not checked:
/// callers ensure each directory of their own below a checked one in turn.
pub fn ensure_dir(dir: &Path) -> io::Result<()> {
    if let Err(e) = fs::symlink_metadata(dir) {
        if e.kind() != io::ErrorKind::NotFound {
            return Err(e);
        }
        fs::create_dir_all(dir)?;
    }
    check_dir(dir)
}

/// The temporary file [`write_atomic`] writes `name` through: `.<name>.<pid>.<attempt>.tmp`.
fn temp_name(name: &str, attempt: u32) -> String {
    format!(".{name}.{}.{attempt}.tmp", std::process::id())
}

/// The file name and process id of a temporary file named by [`write_atomic`]
/// (`.<name>.<pid>.<attempt>.tmp`) or by a writer with one file per process
/// (`.<name>.<pid>.tmp`).
pub fn parse_temp(file_name: &str) -> Option<(&str, u32)> {
    let rest = file_name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (before, last) = rest.rsplit_once('.')?;
    let number = |s: &str| s.bytes().all(|b| b.is_ascii_digit()).then(|| s.parse::<u32>().ok()).flatten();
    let last = number(last)?;
    match before.rsplit_once('.') {
        Some((name, pid)) if !name.is_empty() => match number(pid) {
            Some(pid) => Some((name, pid)),
            None => Some((before, last)),
        },
        _ => Some((before, last)),
    }
}

/// Whether the temporary file `file_name` ([`parse_temp`]) was left by a process that no longer
/// runs: never this process's, whose writers may be at work.
pub fn is_stale_temp(file_name: &str) -> bool {
    parse_temp(file_name).is_some_and(|(_, pid)| pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists())
}

/// Creates a temporary file for `path` in its directory, under a name no other file has
/// (`.<name>.<pid>.<attempt>.tmp`, see [`parse_temp`]); returns its path and the file.
pub fn create_temp(path: &Path) -> io::Result<(PathBuf, File)> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("report");
    let mut attempt = 0u32;
    loop {
        let tmp = dir.join(temp_name(name, attempt));
        match create_new(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 1000 => attempt += 1,
            Err(e) => return Err(io::Error::new(e.kind(), format!("cannot create {}: {e}", tmp.display()))),
        }
    }
}

/// Writes `bytes` to `path` atomically: a temporary file in the same directory, renamed over
/// `path` once complete, so a reader (or a process that died meanwhile) never sees half a file.
/// No fsync: that would make the write durable against a crash of the machine, not of the
/// process, and costs each file milliseconds (tens of ms for a run's reports at a JVM's exit);
/// the kernel writes the files back as it does any other program's output.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// Writes to `path` atomically what `write` writes into a buffered writer (see [`write_atomic`]).
pub fn write_atomic_with(path: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    let (tmp, mut file) = create_temp(path)?;
    let mut buffered = io::BufWriter::new(&mut file);
    let mut result = write(&mut buffered).and_then(|()| buffered.flush());
    drop(buffered);
    drop(file);
    if result.is_ok() {
        result = fs::rename(&tmp, path);
    }
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display())));
    }
    Ok(())
}

/// The bytes an unprivileged user may still write in the filesystem of `path` (statvfs(3):
/// `f_bavail` blocks of `f_frsize` bytes), or `None` when it cannot be asked.
pub fn free_bytes(path: &Path) -> Option<u64> {
    let st = nix::sys::statvfs::statvfs(path).ok()?;
    Some((st.blocks_available() as u64).saturating_mul(st.fragment_size() as u64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{symlink, PermissionsExt};

    /// A fresh directory holding `victim` (content "keep"), for links to point at.
    fn with_victim() -> (tempfile::TempDir, PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        let victim = tmp.path().join("victim");
        fs::write(&victim, "keep").unwrap();
        (tmp, victim)
    }

    #[test]
    fn nothing_under_the_name_is_ever_opened_or_followed() {
        let (tmp, victim) = with_victim();
        let d = tmp.path();
        let link = d.join("link");
        symlink(&victim, &link).unwrap();
        assert_eq!(create_new(&link).unwrap_err().kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(create_new(&victim).unwrap_err().kind(), io::ErrorKind::AlreadyExists);
        // A stale name is removed (the link, not its target) and created afresh.
        replace_new(&link).unwrap().write_all(b"new").unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "keep");
        assert!(!fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        // write_atomic replaces a link at the target's name, never writes through it.
        let target = d.join("report.txt");
        symlink(&victim, &target).unwrap();
        write_atomic(&target, b"report").unwrap();
        assert_eq!((fs::read_to_string(&victim).unwrap(), fs::read_to_string(&target).unwrap()), ("keep".into(), "report".into()));
        // A temporary name taken (a planted link) is passed over for the next one.
        let planted = d.join(temp_name("next.txt", 0));
        symlink(&victim, &planted).unwrap();
        write_atomic(&d.join("next.txt"), b"x").unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "keep");
    }

    #[test]
    fn removing_a_link_removes_the_link_and_a_directory_is_left() {
        let (tmp, victim) = with_victim();
        let d = tmp.path();
        symlink(&victim, d.join("link")).unwrap();
        remove(&d.join("link")).unwrap();
        assert!(victim.exists() && fs::symlink_metadata(d.join("link")).is_err());
        remove(&d.join("absent")).unwrap();
        fs::create_dir(d.join("sub")).unwrap();
        assert!(remove(&d.join("sub")).is_err() && d.join("sub").is_dir());
    }

    #[test]
    fn directories_open_to_everyone_need_the_sticky_bit() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        ensure_dir(&d.join("a/b")).unwrap();
        let open = d.join("open");
        fs::create_dir(&open).unwrap();
        fs::set_permissions(&open, fs::Permissions::from_mode(0o777)).unwrap();
        let e = check_dir(&open).unwrap_err().to_string();
        assert!(e == "it is writable by every user without the sticky bit (mode 777); use a directory of your own, or chmod o-w or +t it", "{e}");
        fs::set_permissions(&open, fs::Permissions::from_mode(0o1777)).unwrap();
        check_dir(&open).unwrap();
        // A link of this user's to a good directory is followed.
        symlink(&open, d.join("mine")).unwrap();
        check_dir(&d.join("mine")).unwrap();
        fs::write(d.join("file"), "").unwrap();
        assert!(check_dir(&d.join("file")).unwrap_err().to_string() == "it is not a directory");
    }

    #[test]
    fn temporary_names_give_their_file_and_process() {
        assert_eq!(parse_temp(".xtree.txt.1234.0.tmp"), Some(("xtree.txt", 1234)));
        assert_eq!(parse_temp(".quantum.vp3.trace.99.tmp"), Some(("quantum.vp3.trace", 99)));
        assert_eq!(parse_temp(".quantum.meta.77.2.tmp"), Some(("quantum.meta", 77)));
        assert_eq!(parse_temp(&temp_name("flame.svg", 5)), Some(("flame.svg", std::process::id())));
        for bad in ["xtree.txt.1.0.tmp", ".xtree.txt.tmp", ".xtree.txt.1.0", ".1.tmp", ".x.+1.tmp"] {
            assert_eq!(parse_temp(bad), None, "{bad}");
        }
        assert!(!is_stale_temp(&temp_name("xtree.txt", 0)), "this process's own");
    }
}
