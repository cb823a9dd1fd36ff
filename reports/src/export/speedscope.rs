//! speedscope's file format (`https://www.speedscope.app/file-format-schema.json`): what
//! speedscope.app and the `speedscope` command open.
//!
//! One `sampled` profile per thread, named by the thread, weighted by the chosen metric: one sample
//! per calling context whose base of that metric is nonzero, its stack the path from the thread
//! (the outermost frame, as in `flame.svg`) to the context, with the base as its weight. Frames are
//! shared by all profiles, one per consumer (name the consumer, file its class). speedscope shows
//! one metric at a time, so only the chosen one is written; calls are lost. Weights are JSON
//! numbers, exact up to 2^53 in the browser. The profiles stay in the threads' order, and
//! `activeProfileIndex` names the busiest thread (the largest total of the metric; the first of
//! equals), so that speedscope opens on it rather than on `main`.

use std::io::{self, Write};

use hpm_model::arcflow::Profile;
use serde::Serialize;

use super::{for_each_context, split_consumer, split_line, standard_unit, ExportOptions, DEEPER};

/// The `$schema` every speedscope file names.
pub const SCHEMA: &str = "https://www.speedscope.app/file-format-schema.json";

/// A speedscope file (the fields this export writes).
#[derive(Serialize)]
pub struct File<'a> {
    #[serde(rename = "$schema")]
    pub schema: &'static str,
    pub name: String,
    pub exporter: String,
    #[serde(rename = "activeProfileIndex")]
    pub active_profile_index: usize,
    pub shared: Shared<'a>,
    pub profiles: Vec<SampledProfile<'a>>,
}

#[derive(Serialize)]
pub struct Shared<'a> {
    pub frames: Vec<Frame<'a>>,
}

#[derive(Serialize)]
pub struct Frame<'a> {
    pub name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<&'a str>,
    /// The source line of a frame named `Class.method:LINE` (`sample-lines=on`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

#[derive(Serialize)]
pub struct SampledProfile<'a> {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub name: &'a str,
    pub unit: &'static str,
    #[serde(rename = "startValue")]
    pub start_value: u64,
    #[serde(rename = "endValue")]
    pub end_value: u64,
    /// Stacks of frame indexes, outermost first.
    pub samples: Vec<Vec<u32>>,
    pub weights: Vec<u64>,
}

/// The speedscope document for `profile`.
pub fn build<'a>(profile: &'a Profile, opts: &ExportOptions) -> File<'a> {
    let metric = &profile.bindings.metrics[opts.metric];
    let unit = standard_unit(metric).unwrap_or("none");
    // Frame index per consumer, given at first use.
    let mut frame_of: Vec<Option<u32>> = vec![None; profile.consumers.len()];
    let mut frames: Vec<Frame> = Vec::new();
    let mut deeper_frame: Option<u32> = None;
    let mut profiles = Vec::new();
    for th in &profile.threads {
        let t = &th.tree;
        let mut samples: Vec<Vec<u32>> = Vec::new();
        let mut weights: Vec<u64> = Vec::new();
        // The context at the depth limit whose deeper contexts the last sample holds: the contexts
        // below it come next in pre-order and share its stack, so they add to that one sample.
        let mut deeper_under = None;
        for_each_context(t, opts.max_stack_depth, |n, path, deeper| {
            let w = t.base(n)[opts.metric];
            if w == 0 {
                return;
            }
            if deeper && deeper_under == path.last().copied() {
                if let Some(last) = weights.last_mut() {
                    *last = last.saturating_add(w);
                    return;
                }
            }
            let mut stack: Vec<u32> = path
                .iter()
                .map(|&p| {
                    let c = t.consumer(p) as usize;
                    *frame_of[c].get_or_insert_with(|| {
                        let name = profile.consumers.name(c as u32);
                        let (method, line) = split_line(name);
                        frames.push(Frame { name, file: split_consumer(method).0, line });
                        frames.len() as u32 - 1
                    })
                })
                .collect();
            if deeper {
                stack.push(*deeper_frame.get_or_insert_with(|| {
                    frames.push(Frame { name: DEEPER, file: None, line: None });
                    frames.len() as u32 - 1
                }));
            }
            deeper_under = if deeper { path.last().copied() } else { None };
            samples.push(stack);
            weights.push(w);
        });
        let end_value = weights.iter().fold(0u64, |a, &w| a.saturating_add(w));
        profiles.push(SampledProfile { kind: "sampled", name: &th.name, unit, start_value: 0, end_value, samples, weights });
    }
    // The busiest thread: speedscope opens on it. `max_by_key` keeps the last of equals, so the
    // profiles are searched from the end.
    let busiest = profiles.iter().enumerate().rev().max_by_key(|(_, p)| p.end_value).map_or(0, |(i, _)| i);
    File {
        schema: SCHEMA,
        name: format!("{} ({})", metric.name, profile.bindings.consumer_label),
        exporter: format!("hpm {}", env!("CARGO_PKG_VERSION")),
        active_profile_index: busiest,
        shared: Shared { frames },
        profiles,
    }
}

/// Writes `profile` as a speedscope JSON file.
pub fn write(profile: &Profile, opts: &ExportOptions, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer(io::BufWriter::new(&mut *out), &build(profile, opts))?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use hpm_model::arcflow::{Bindings, Metric, Tree};
    use serde_json::json;

    #[test]
    fn one_sampled_profile_per_thread_weighted_by_the_metric() {
        let mut p = Profile::new(Bindings::methods(vec![Metric::new("cpu-time", "ns"), Metric::new("faults", "")]));
        for name in ["t1", "t2"] {
            let th = p.add_thread(name);
            let a = p.consumers.intern("app.A.run");
            let b = p.consumers.intern("app.B.work");
            let t = &mut p.threads[th].tree;
            let na = t.descend(Tree::ROOT, &[a]);
            t.add_base(na, &[0, 4]);
            let nb = t.descend(na, &[b]);
            t.add_base(nb, &[7, 1]);
        }
        let doc = serde_json::to_value(build(&p, &ExportOptions { metric: 0, max_stack_depth: 0 })).unwrap();
        assert_eq!(doc["profiles"].as_array().unwrap().len(), 2);
        let t2 = &doc["profiles"][1];
        assert_eq!(t2["name"], "t2");
        assert_eq!(t2["unit"], "nanoseconds");
        assert_eq!(t2["weights"], json!([7]));
        assert_eq!(t2["endValue"], 7);
        let names: Vec<&str> = t2["samples"][0].as_array().unwrap().iter().map(|i| doc["shared"]["frames"][i.as_u64().unwrap() as usize]["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["t2", "app.A.run", "app.B.work"]);
        // Frames are shared: both threads' app.B.work is one frame.
        assert_eq!(doc["shared"]["frames"].as_array().unwrap().len(), 4);
        let faults = serde_json::to_value(build(&p, &ExportOptions { metric: 1, max_stack_depth: 2 })).unwrap();
        assert_eq!(faults["profiles"][0]["unit"], "none");
        assert_eq!(faults["profiles"][0]["weights"], json!([4, 1]));
        // With at most 2 frames, app.B.work's sample is t1 → app.A.run → (deeper).
        let frames = &faults["shared"]["frames"];
        let names: Vec<&str> = faults["profiles"][0]["samples"][1].as_array().unwrap().iter().map(|i| frames[i.as_u64().unwrap() as usize]["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["t1", "app.A.run", DEEPER]);
    }

    /// A frame named with its line (`sample-lines=on`) carries it in speedscope's `line`.
    #[test]
    fn frames_named_with_lines_carry_them() {
        let mut p = Profile::new(Bindings::methods(vec![Metric::new("cpu-time", "ns")]));
        let th = p.add_thread("t");
        let a = p.consumers.intern("app.A.run:41");
        let t = &mut p.threads[th].tree;
        let n = t.descend(Tree::ROOT, &[a]);
        t.add_base(n, &[3]);
        let doc = serde_json::to_value(build(&p, &ExportOptions { metric: 0, max_stack_depth: 0 })).unwrap();
        let frame = doc["shared"]["frames"].as_array().unwrap().iter().find(|f| f["name"] == "app.A.run:41").unwrap().clone();
        assert_eq!(frame, json!({"name": "app.A.run:41", "file": "app.A", "line": 41}));
    }

    #[test]
    fn speedscope_opens_on_the_busiest_thread() {
        let mut p = Profile::new(Bindings::methods(vec![Metric::new("cpu-time", "ns"), Metric::new("faults", "")]));
        let a = p.consumers.intern("app.A.run");
        for (name, cpu, faults) in [("main", 5, 9), ("worker-1", 40, 1), ("worker-2", 40, 2)] {
            let th = p.add_thread(name);
            let t = &mut p.threads[th].tree;
            let n = t.descend(Tree::ROOT, &[a]);
            t.add_base(n, &[cpu, faults]);
        }
        let doc = serde_json::to_value(build(&p, &ExportOptions { metric: 0, max_stack_depth: 0 })).unwrap();
        // The threads keep their order; the first of the two busiest is the one shown first.
        let names: Vec<&str> = doc["profiles"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["main", "worker-1", "worker-2"]);
        assert_eq!(doc["activeProfileIndex"], 1);
        // Busiest by the chosen metric.
        let faults = serde_json::to_value(build(&p, &ExportOptions { metric: 1, max_stack_depth: 0 })).unwrap();
        assert_eq!(faults["activeProfileIndex"], 0);
    }
}
