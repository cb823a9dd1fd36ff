//! Quantum traces as Chrome trace events (the JSON object format of chrome://tracing's "Trace Event
//! Format"), which Perfetto's UI and trace processor and Chromium's legacy viewer open.
//!
//! Each traced run is a process (`pid`: 1 for the trace directory, 2 for its `vthreads/` trace of
//! virtual threads when there is one) and each processor a track in it (`tid` = the processor:
//! a virtual processor, a CPU, or a carrier thread). Every quantum record is one complete event
//! (`"ph": "X"`) on its processor's track, named by the thread that ran, from its start for its
//! real time, with the thread id and kind, whether it yielded, and every counter delta by the
//! counter's name in `args`. Markers (application and run start and complete, notes) and exit
//! records are instant events on their processor's track; metadata events name the processes and
//! tracks. Times are microseconds from the trace's first time (a trace's own time base is
//! nanoseconds; the first time in that base is `args.start` of the process name event), so nothing
//! is lost but sub-nanosecond rounding of the float.

use std::io::{self, Write};

use hpm_model::quantum::{Entry, Trace};
use serde_json::{json, Map, Value};

/// One traced run to export: a name (the process's) and its trace.
pub struct Run<'a> {
    pub name: String,
    pub trace: &'a Trace,
}

/// The trace events of `runs` (pids 1, 2, … in order).
pub fn build(runs: &[Run]) -> Value {
    let origin = runs.iter().filter_map(|r| r.trace.merged().next().map(|e| e.time())).min().unwrap_or(0);
    let mut events = Vec::new();
    for (i, run) in runs.iter().enumerate() {
        let pid = i + 1;
        let meta = &run.trace.meta;
        let us = |t: u64| t.saturating_sub(origin) as f64 / 1000.0;
        events.push(json!({"ph": "M", "name": "process_name", "pid": pid, "args": {"name": run.name, "start": origin}}));
        events.push(json!({"ph": "M", "name": "process_sort_index", "pid": pid, "args": {"sort_index": pid}}));
        let kind = if meta.processor_kind.is_empty() { "vp" } else { meta.processor_kind.as_str() };
        for vp in &run.trace.vps {
            let name = match meta.processors.iter().find(|(p, _)| *p == vp.vp) {
                Some((_, n)) => format!("{kind} {} ({n})", vp.vp),
                None => format!("{kind} {}", vp.vp),
            };
            events.push(json!({"ph": "M", "name": "thread_name", "pid": pid, "tid": vp.vp, "args": {"name": name}}));
            events.push(json!({"ph": "M", "name": "thread_sort_index", "pid": pid, "tid": vp.vp, "args": {"sort_index": vp.vp}}));
        }
        for e in run.trace.merged() {
            match e {
                Entry::Quantum(q) => {
                    let thread = meta.thread(q.thread);
                    let name = thread.map_or_else(|| format!("thread {}", q.thread), |t| t.name.clone());
                    let mut args = Map::new();
                    args.insert("thread".into(), json!(q.thread));
                    if let Some(t) = thread {
                        args.insert("kind".into(), json!(t.kind.name()));
                    }
                    args.insert("yielded".into(), json!(q.yielded));
                    for (k, d) in q.deltas.iter().enumerate() {
                        let counter = meta.counters.get(k + 1).cloned().unwrap_or_else(|| format!("counter{}", k + 1));
                        args.insert(counter, json!(d));
                    }
                    for (key, id) in [("callee", q.callee), ("caller", q.caller)] {
                        if let Some(m) = meta.method(id).filter(|_| id != 0) {
                            args.insert(key.into(), json!(format!("{}.{}", m.class, m.name)));
                        }
                    }
                    events.push(json!({
                        "ph": "X", "cat": "quantum", "name": name, "pid": pid, "tid": q.vp,
                        "ts": us(q.start), "dur": q.duration() as f64 / 1000.0, "args": Value::Object(args),
                    }));
                }
                Entry::Marker(m) => {
                    let name = if m.text.is_empty() { m.kind.name().to_string() } else { format!("{}: {}", m.kind.name(), m.text) };
                    events.push(json!({
                        "ph": "i", "s": "t", "cat": "marker", "name": name, "pid": pid, "tid": m.vp, "ts": us(m.time),
                        "args": {"kind": m.kind.name(), "run": m.run, "text": m.text},
                    }));
                }
                Entry::Exit { vp, time, value, .. } => {
                    events.push(json!({"ph": "i", "s": "t", "cat": "exit", "name": "exit", "pid": pid, "tid": vp, "ts": us(*time), "args": {"value": value}}));
                }
            }
        }
    }
    json!({"traceEvents": events, "displayTimeUnit": "ns", "otherData": {"exporter": format!("hpm {}", env!("CARGO_PKG_VERSION"))}})
}

/// Writes `runs` as a Chrome trace-event JSON file.
pub fn write(runs: &[Run], out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer(&mut *out, &build(runs))?;
    out.write_all(b"\n")
}
