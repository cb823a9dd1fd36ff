//! The `hpm` command line: one file per subcommand (`report.rs`, …), wired together here.
//!
//! Errors are reported as one line, `hpm: error: <cause>; <what to do>`, with exit code 1; usage
//! errors (unknown options, bad values) are clap's, with exit code 2. Nothing here panics on user
//! input, and output goes through `out.rs`, so a reader of stdout that goes away (`| head`) ends hpm
//! quietly with exit code 0.

use clap::{Parser, Subcommand};

mod out;
mod consult;
mod ctl;
mod events;
mod explore;
mod export;
mod import;
mod launch;
mod progress;
mod report;
mod trace;

/// Exit codes, shown in every `--help`.
pub(crate) const EXIT_CODES: &str = "Exit codes:
  0  success (warnings about the input, if any, are printed to stderr as `hpm: warning: …`), also
     when the reader of the output goes away (`hpm … | head -1`)
  1  the input could not be used (missing or unreadable file, invalid arcflow.json, unknown metric
     or thread), the output could not be written, or an agent could not be reached or refused the
     command; one line `hpm: error: …` says why
  2  usage error (unknown option, missing or invalid argument)";

#[derive(Parser)]
#[command(name = "hpm", version, about = "hpmagent's command-line tool: reports of arcflow profiles, control of running agents", after_long_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Render the arcflow reports (xtree, xarc, xprof, arcflow.json, collapsed stacks, flame graph)
    /// of a raw start/end trace or of a saved arcflow.json.
    #[command(long_about = report::ABOUT, after_long_help = EXIT_CODES)]
    Report(report::ReportArgs),
    /// List this user's running agents: pid, state, threads, main class.
    List(ctl::ListArgs),
    /// Control a running agent: status, start, stop, reset, dump [DIR], mark TEXT, events.
    Ctl(ctl::CtlArgs),
    /// Start a JVM with this build's agent: `hpm run [agent options] -- java …`.
    Run(launch::RunArgs),
    /// Load the agent into a running HotSpot JVM (as `jcmd PID JVMTI.agent_load` does).
    Attach(launch::AttachArgs),
    /// List the counter events this machine can open (found by trying each).
    Events(events::EventsArgs),
    /// Validate a quantum-trace directory and print its per-thread and per-processor tables, or
    /// the statistics of a record set (--where, --method, --stats) and what differs from another
    /// (--compare).
    #[command(after_long_help = EXIT_CODES)]
    Trace(trace::TraceArgs),
    /// Write one self-contained HTML page to explore a run's trees and quantum trace (flame
    /// graph, callers/callees, methods, computed metrics, the samples' timeline, record sets), or
    /// what differs between two runs (their trees, their traces' records).
    #[command(after_long_help = EXIT_CODES)]
    Explore(explore::ExploreArgs),
    /// Write a profile for another viewer: pprof, speedscope, Firefox Profiler, callgrind; a quantum
    /// trace as Chrome trace events.
    #[command(long_about = export::ABOUT, after_long_help = EXIT_CODES)]
    Export(export::ExportArgs),
    /// Search a recorded run for its bottlenecks: hypotheses (CPU, synchronisation, waiting,
    /// allocation and GC, JIT) tested against thresholds, refined by thread, method subtree and
    /// phase, with the evidence for each.
    #[command(after_long_help = EXIT_CODES)]
    Consult(consult::ConsultArgs),
    /// Read a JFR recording (HotSpot's or async-profiler's) into a profile directory.
    #[command(long_about = import::ABOUT, after_long_help = EXIT_CODES)]
    Import(import::ImportArgs),
}

/// An error for the user: printed as `hpm: error: {0}`, exit code 1.
#[derive(Debug)]
pub(crate) struct Failure(pub String);

/// Runs the command line and returns the process exit code.
pub fn main() -> i32 {
    let args: Vec<String> = std::env::args_os().map(|a| a.to_string_lossy().into_owned()).collect();
    if args.get(1).is_some_and(|a| a == "run") {
        if let Some(msg) = launch::missing_separator(&args[2..]) {
            out::errln!("hpm: error: {msg}");
            return 2;
        }
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // `--help`, `--version` or a usage error; `e.exit()` would panic on a closed stdout.
            let _ = e.print();
            return e.exit_code();
        }
    };
    let result = match cli.command {
        Command::Report(args) => report::run(args),
        Command::List(args) => ctl::list(args),
        Command::Ctl(args) => ctl::ctl(args),
        Command::Run(args) => launch::run(args),
        Command::Attach(args) => launch::attach(args),
        Command::Events(args) => events::run(args),
        Command::Trace(args) => trace::run(args),
        Command::Explore(args) => explore::run(args),
        Command::Export(args) => export::run(args),
        Command::Import(args) => import::run(args),
        Command::Consult(args) => consult::run(args),
    };
    match result {
        Ok(()) => 0,
        Err(Failure(msg)) => {
            out::errln!("hpm: error: {msg}");
            1
        }
    }
}
