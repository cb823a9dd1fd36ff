//! `hpm import FILE.jfr -o DIR`: another profiler's recording as a profile directory.

use std::path::PathBuf;

use clap::Args;
use hpm_reports::import::jfr;
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

pub(crate) fn run(args: ImportArgs) -> Result<(), Failure> {
    let file = std::fs::File::open(&args.input).map_err(|e| Failure(format!("cannot open {}: {e}; check the path", args.input.display())))?;
    let spinner = progress::spinner(&format!("reading {}", args.input.display()));
    let imported = jfr::read(std::io::BufReader::new(file));
    spinner.finish_and_clear();
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
    let write = |profile: &hpm_collectors::arcflow::Profile, dir: &std::path::Path| -> Result<(), Failure> {
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
