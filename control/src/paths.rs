//! Where control sockets live: one directory per user, private to that user, one socket per process
//! named `<pid>.sock`.

use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// `$XDG_RUNTIME_DIR/hpmagent` when that variable names a directory, else `/tmp/hpmagent-<uid>`.
pub fn default_socket_dir() -> PathBuf {
    if let Some(xdg) = std::env::var_os("XDG_RUNTIME_DIR") {
        let xdg = PathBuf::from(xdg);
        if xdg.is_dir() {
            return xdg.join("hpmagent");
        }
    }
    PathBuf::from(format!("/tmp/hpmagent-{}", nix::unistd::geteuid().as_raw()))
}

/// The socket of process `pid` in `dir`.
pub fn socket_path(dir: &Path, pid: u32) -> PathBuf {
    dir.join(format!("{pid}.sock"))
}

/// Creates `dir` with mode 0700, or checks that an existing one is a real directory (not a link),
/// owned by the current user, and not open to others — a shared `/tmp` must not let another user
/// plant or read sockets.
pub fn prepare_socket_dir(dir: &Path) -> Result<(), String> {
    let me = nix::unistd::geteuid().as_raw();
    match std::fs::symlink_metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(dir)
                .map_err(|e| format!("cannot create socket directory {}: {e}", dir.display()))?;
            // The umask may have narrowed the mode further, never widened it; make it exactly 0700.
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
                .map_err(|e| format!("cannot set mode 0700 on {}: {e}", dir.display()))
        }
        Err(e) => Err(format!("cannot inspect socket directory {}: {e}", dir.display())),
        Ok(meta) => {
            if !meta.is_dir() {
                return Err(format!("{} is not a directory (a link?); remove it or choose socket=PATH", dir.display()));
            }
            if meta.uid() != me {
                return Err(format!(
                    "refusing socket directory {}: owned by uid {}, not {me}; remove it or choose socket=PATH",
                    dir.display(),
                    meta.uid()
                ));
            }
            if meta.mode() & 0o077 != 0 {
                return Err(format!(
                    "refusing socket directory {}: mode {:o} lets other users in; chmod 700 it",
                    dir.display(),
                    meta.mode() & 0o777
                ));
            }
            Ok(())
        }
    }
}

/// The sockets in `dir` as (pid, path), by pid. Sockets of processes that no longer exist are
/// returned too; callers find out when connecting.
pub fn list_sockets(dir: &Path) -> Vec<(u32, PathBuf)> {
    let mut out: Vec<(u32, PathBuf)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name();
            let pid = name.to_str()?.strip_suffix(".sock")?.parse().ok()?;
            Some((pid, e.path()))
        })
        .collect();
    out.sort();
    out
}
