//! `hpm consult DIR`: the bottleneck search over a recorded run (`hpm_reports::consult`).

use std::path::PathBuf;

use clap::Args;
use hpm_reports::saved::Saved;

use super::out::outln;
use super::report::load_json;
use super::Failure;

#[derive(Args)]
pub struct ConsultArgs {
    /// A run directory written by the agent (its arcflow.json, version 2), or that arcflow.json.
    /// Best with stack samples (sample=cpu), which the agent records beside everything else.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Also write the report to this file (atomically).
    #[arg(short = 'o', long = "out", value_name = "FILE")]
    pub out: Option<PathBuf>,
}

pub fn run(args: ConsultArgs) -> Result<(), Failure> {
    let run = match load_json(&args.dir)? {
        Saved::Run(run) => run,
        Saved::Trees(_) => {
            return Err(Failure(format!(
                "{}: call trees only (arcflow.json version 1): the search needs a run the agent recorded (version 2)",
                args.dir.display()
            )))
        }
    };
    let text = hpm_reports::consult::consult(&run).text();
    if let Some(out) = &args.out {
        hpm_reports::write_atomic(out, text.as_bytes()).map_err(|e| Failure(format!("cannot write {}: {e}", out.display())))?;
    }
    outln!("{}", text.trim_end());
    Ok(())
}
