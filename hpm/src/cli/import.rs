//! `hpm import FILE.jfr -o DIR`: another profiler's recording as a profile directory.

use std::path::PathBuf;

use clap::Args;
use hpm_reports::import::jfr;
use hpm_reports::saved::input;
use hpm_reports::{write_reports, ReportOptions};

use super::out::{errln, outln};
use super::progress;
use super::Failure;

pub(crate) const ABOUT: &str = "Read a JFR recording (HotSpot's -XX:StartFlightRecording, or async-profiler's JFR output) and
write it as a profile directory that `hpm report`, `hpm export` and the explorer read:

  DIR/                 jdk.ExecutionSample and jdk.NativeMethodSample as sampled trees per thread
                       (metrics execution-samples, native-samples, and execution-time/native-time =
                       samples x the recording's sampling period, when it says)
  DIR/sampled-alloc/   jdk.ObjectAllocationSample: allocating stacks, the class as the leaf, alloc-bytes

Each holds the usual reports (xtree, xarc, xprof, arcflow.json, collapsed, flame). See docs/exports.md.";

#[derive(Args, Debug)]
pub(crate) struct ImportArgs {
    /// The JFR recording.
    #[arg(value_name = "FILE.jfr")]
    input: PathBuf,

    /// The profile directory to write (created if needed).
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    output: PathBuf,
}

/// Set in the environment of the worker process that reads the recording (see [`run`]).
const WORKER: &str = "HPM_IMPORT_WORKER";

/// The worker's address-space bound: this much plus 16 times the recording's size.
const WORKER_MEMORY_BASE: u64 = 2 << 30;

/// The worker's CPU-time bound: this many seconds plus one per MiB of the recording (reading
/// takes well under a second per MiB), against a reader that loops on malformed data.
const WORKER_CPU_BASE_S: u64 = 30;

/// A recording is read in a worker process of its own (this program again, with [`WORKER`] set):
/// the JFR reader trusts the counts and sizes a file gives (a corrupt one makes it reserve
/// petabytes, or recurse without end), so memory is bounded there (RLIMIT_AS) and a reader that
/// aborts ends only the worker; this process then says so in one line.
pub(crate) fn run(args: ImportArgs) -> Result<(), Failure> {
    // The input checks every hpm input gets: a regular file, never a FIFO or a device.
    let len = input::check_file(&args.input).map_err(|e| cannot_open(&args, &e))?;
    if std::env::var_os(WORKER).is_some() {
        return import_here(&args, len);
    }
    let exe = std::env::current_exe().map_err(|e| Failure(format!("cannot start the import's worker process: {e}")))?;
    let spinner = progress::spinner(&format!("reading {}", args.input.display()));
    let worker = std::process::Command::new(exe)
        .args(std::env::args_os().skip(1))
        .env(WORKER, "1")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::inherit())
        .stderr(std::process::Stdio::piped())
        .output();
    spinner.finish_and_clear();
    let worker = worker.map_err(|e| Failure(format!("cannot start the import's worker process: {e}")))?;
    // Its stdout (the files written) went straight through; its stderr is passed on only when it
    // ended by itself (a crash prints a Rust runtime message, not ours).
    use std::os::unix::process::ExitStatusExt;
    match (worker.status.code(), worker.status.signal()) {
        (Some(code), _) => {
            let _ = std::io::Write::write_all(&mut std::io::stderr(), &worker.stderr);
            if code == 0 {
                Ok(())
            } else {
                std::process::exit(code);
            }
        }
        (None, Some(signal)) if signal == libc_sigxcpu() => Err(Failure(format!(
            "{}: the JFR reader ran past its CPU-time bound ({} s) without finishing: the file is malformed (not a readable JFR recording)",
            args.input.display(),
            worker_cpu_s(len)
        ))),
        (None, signal) => Err(Failure(format!(
            "{}: the JFR reader crashed on malformed data (signal {}), or needed more than its memory bound ({} MiB); the file is not a readable JFR recording",
            args.input.display(),
            signal.unwrap_or(0),
            worker_memory(len) >> 20
        ))),
    }
}

/// The one line for an input that cannot be read: what it is, or why it cannot be opened.
fn cannot_open(args: &ImportArgs, e: &std::io::Error) -> Failure {
    Failure(match input::refusal(e) {
        Some(what) => format!("{what}: give a JFR recording (.jfr)"),
        None => format!("cannot open {}: {e}; check the path", args.input.display()),
    })
}

fn worker_memory(file_len: u64) -> u64 {
    WORKER_MEMORY_BASE.saturating_add(file_len.saturating_mul(16))
}

fn worker_cpu_s(file_len: u64) -> u64 {
    WORKER_CPU_BASE_S + (file_len >> 20)
}

/// SIGXCPU, the signal of a process past its RLIMIT_CPU soft limit.
fn libc_sigxcpu() -> i32 {
    nix::sys::signal::Signal::SIGXCPU as i32
}

/// The worker's part: reads the recording and writes the profile directory.
fn import_here(args: &ImportArgs, file_len: u64) -> Result<(), Failure> {
    let bound = worker_memory(file_len);
    if let Err(e) = nix::sys::resource::setrlimit(nix::sys::resource::Resource::RLIMIT_AS, bound, bound) {
        errln!("hpm: warning: cannot bound the import's memory ({e}): a corrupt recording may use much of it");
    }
    // Past the soft limit the kernel sends SIGXCPU (which ends the worker), at the hard one SIGKILL.
    let cpu = worker_cpu_s(file_len);
    if let Err(e) = nix::sys::resource::setrlimit(nix::sys::resource::Resource::RLIMIT_CPU, cpu, cpu + 5) {
        errln!("hpm: warning: cannot bound the import's CPU time ({e}): a corrupt recording may keep it busy");
    }
    // The reader's panics are caught (jfr::read) and said in one line: no Rust report as well.
    std::panic::set_hook(Box::new(|_| {}));
    let (file, _) = input::open_file(&args.input).map_err(|e| cannot_open(args, &e))?;
    let imported = jfr::read(std::io::BufReader::new(file));
    let imported = imported.map_err(|e| Failure(format!("{}: {e}", args.input.display())))?;
    if imported.samples.is_none() && imported.alloc.is_none() {
        return Err(Failure(format!(
            "{}: no jdk.ExecutionSample, jdk.NativeMethodSample or jdk.ObjectAllocationSample events ({} chunk(s)); record with -XX:StartFlightRecording:settings=profile or async-profiler's JFR output",
            args.input.display(),
            imported.chunks
        )));
    }
    errln!(
        "hpm: {}: {} execution sample(s){}, {} native-method sample(s){}, {} allocation sample(s)",
        args.input.display(),
        imported.execution_samples,
        imported.execution_period.map_or(String::new(), |p| format!(" every {} ms", p as f64 / 1e6)),
        imported.native_samples,
        imported.native_period.map_or(String::new(), |p| format!(" every {} ms", p as f64 / 1e6)),
        imported.alloc_samples
    );
    let write = |profile: &hpm_model::arcflow::Profile, dir: &std::path::Path| -> Result<(), Failure> {
        let written = write_reports(profile, dir, &ReportOptions::default()).map_err(|e| Failure(format!("cannot write the reports into {}: {e}", dir.display())))?;
        for p in written {
            outln!("{}", p.display());
        }
        Ok(())
    };
    match &imported.samples {
        Some(p) => write(p, &args.output)?,
        None => errln!("hpm: note: no execution or native-method samples; only {}/sampled-alloc is written", args.output.display()),
    }
    if let Some(alloc) = &imported.alloc {
        write(alloc, &args.output.join("sampled-alloc"))?;
    }
    Ok(())
}
