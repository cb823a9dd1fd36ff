//! Quantum traces while a VM runs: the tracers that make the records (format, writer and reader:
//! `hpm_model::quantum`) and the files they write.
//!
//! - [`tracer`]: [`tracer::Tracer`], which turns a source's switches into records, per processor
//!   (the research VM's virtual processors).
//! - [`os`]: [`os::OsTracer`], the same records for OS threads from the kernel's context switches
//!   (HotSpot), one processor per CPU.
//! - [`mounts`]: virtual threads' quanta, one processor per carrier mount.
//! - [`top`]: the callee of each record from the run's stack samples, after the run.
//! - [`files`]: a processor's trace file while it is written, and the meta file.

pub mod files;
pub mod mounts;
pub mod os;
pub mod top;
pub mod tracer;

use std::path::Path;

use hpm_model::quantum::META_FILE;
use hpm_support::files as support_files;

/// A thread switch on one processor, as any quantum source reports it: the event a quantum
/// tracer turns into the outgoing thread's record. VM-neutral: the research VM's adapter makes it
/// from `rvm_abi::SwitchInfo`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Switch {
    /// The processor (the trace's "vp").
    pub processor: u32,
    /// The thread leaving the processor (or continuing on it, when `from == to`: a timer tick
    /// without a switch), by the source's thread number.
    pub from: u32,
    /// The thread that runs next.
    pub to: u32,
    /// `from` gave up the processor before its quantum expired (blocked, slept, waited, yielded,
    /// ended); false: preempted.
    pub voluntary: bool,
    /// Why `from`'s quantum ended, a [`reason`] code (`reason::NONE`: not given, or preempted).
    pub reason: u8,
    /// The method `from` was in and its caller, by the source's method number (`None`: not in a
    /// method, e.g. a VM thread).
    pub callee: Option<u32>,
    pub caller: Option<u32>,
}

/// Removes the quantum trace an earlier run left in `dir` and in its `vthreads/`: `quantum.meta`,
/// every `quantum.vp<N>.trace`, and the temporary files of writers no longer running. A run owns
/// its directory's trace as it owns its reports: a trace left from an earlier run would otherwise
/// be read with this run's reports, or (a processor this run does not use) mixed into its trace.
/// Nothing is followed: a link under one of these names is removed itself, and a `vthreads` that
/// is a link or that another user could change (`hpm_support::files::check_dir`) is left.
pub fn remove_old_trace(dir: &Path) {
    for d in [dir.to_path_buf(), dir.join("vthreads")] {
        if support_files::check_dir(&d).is_err() {
            continue;
        }
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let finished = name == META_FILE || (name.starts_with("quantum.vp") && name.ends_with(".trace"));
            // `.quantum.vp<N>.trace.<pid>.tmp` (writer.rs), and the meta file's temporary files.
            let writer_gone = name.starts_with(".quantum.") && support_files::is_stale_temp(&name);
            if (finished || writer_gone) && e.file_type().is_ok_and(|t| !t.is_dir()) {
                let _ = support_files::remove(&e.path());
            }
        }
    }
}

