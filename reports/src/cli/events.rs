//! `hpm events`: which counter events this machine can open, found by trying each one.

use clap::Args;
use hpm_collectors::counters::{available_events, CounterOptions};
use serde_json::json;

use super::out::outln;
use super::Failure;

#[derive(Args)]
pub struct EventsArgs {
    /// Also list the events that cannot be opened, with the reason and the fix.
    #[arg(long, short)]
    pub all: bool,
    /// One JSON array instead of a table.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: EventsArgs) -> Result<(), Failure> {
    let events = available_events(CounterOptions::default());
    if args.json {
        let rows: Vec<_> = events
            .iter()
            .map(|e| json!({"name": e.name, "opens": e.opens, "counted": e.counted, "refusal": e.refusal.as_ref().map(|r| r.to_string())}))
            .collect();
        outln!("{}", serde_json::Value::Array(rows));
        return Ok(());
    }
    let (usable, refused): (Vec<_>, Vec<_>) = events.iter().partition(|e| e.opens);
    outln!("{} events open on this machine:", usable.len());
    for e in &usable {
        outln!("  {}", e.name);
    }
    if args.all {
        outln!("\n{} events cannot be opened:", refused.len());
        for e in &refused {
            match &e.refusal {
                Some(r) => outln!("  {r}"),
                None => outln!("  {}: not opened", e.name),
            }
        }
    } else if !refused.is_empty() {
        outln!("\n{} more cannot be opened here; `hpm events --all` says why.", refused.len());
    }
    Ok(())
}
