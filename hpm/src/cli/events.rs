//! `hpm events`: which counter events this machine can open, found by trying each one.

use clap::Args;
use hpm_collectors::counters::{available_events, CounterOptions, EventAvailability};
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

/// Stands for the event's name in a refusal shared by several events.
const EVENT: &str = "\u{0}EVENT\u{0}";

/// Refusals grouped by their sentence (with the event's name taken out), in order of first
/// appearance: on a machine without a PMU one sentence covers every hardware event.
fn group_refusals<'a>(refused: &[&'a EventAvailability]) -> Vec<(String, Vec<&'a str>)> {
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for e in refused {
        let sentence = match &e.refusal {
            Some(r) => r.to_string().replacen(&format!("`{}`", e.name), EVENT, 1),
            None => format!("{EVENT}: not opened"),
        };
        match groups.iter_mut().find(|(s, _)| *s == sentence) {
            Some((_, names)) => names.push(&e.name),
            None => groups.push((sentence, vec![&e.name])),
        }
    }
    groups
}

/// `names` joined with `, ` in lines of at most `width` characters, each starting with `indent`.
fn wrap(names: &[&str], indent: &str, width: usize) -> String {
    let mut lines = vec![indent.to_string()];
    for (i, name) in names.iter().enumerate() {
        let last = lines.last_mut().expect("one line at least");
        let piece = if i + 1 < names.len() { format!("{name},") } else { name.to_string() };
        if last.len() > indent.len() && last.len() + 1 + piece.len() > width {
            lines.push(format!("{indent}{piece}"));
        } else {
            if last.len() > indent.len() {
                last.push(' ');
            }
            last.push_str(&piece);
        }
    }
    lines.join("\n")
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
        for (reason, names) in group_refusals(&refused) {
            match names.as_slice() {
                [one] => outln!("  {}", reason.replace(EVENT, &format!("`{one}`"))),
                many => {
                    outln!("  {} ({}):", reason.replace(EVENT, "these events"), many.len());
                    outln!("{}", wrap(many, "    ", 100));
                }
            }
        }
    } else if !refused.is_empty() {
        outln!("\n{} more cannot be opened here; `hpm events --all` says why.", refused.len());
    }
    Ok(())
}
