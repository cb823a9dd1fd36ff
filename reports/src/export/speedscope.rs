//! speedscope's file format (`https://www.speedscope.app/file-format-schema.json`): what
//! speedscope.app and the `speedscope` command open.
//!
//! One `sampled` profile per thread, named by the thread, weighted by the chosen metric: one sample
//! per calling context whose base of that metric is nonzero, its stack the path from the thread
//! (the outermost frame, as in `flame.svg`) to the context, with the base as its weight. Frames are
//! shared by all profiles, one per consumer (name the consumer, file its class). speedscope shows
//! one metric at a time, so only the chosen one is written; calls are lost. Weights are JSON
//! numbers, exact up to 2^53 in the browser.

use std::io::{self, Write};

use hpm_collectors::arcflow::Profile;
use serde_json::{json, Value};

use super::{for_each_context, split_consumer, standard_unit, ExportOptions};

/// The `$schema` every speedscope file names.
pub const SCHEMA: &str = "https://www.speedscope.app/file-format-schema.json";

/// The speedscope document for `profile`.
pub fn build(profile: &Profile, opts: &ExportOptions) -> Value {
    let metric = &profile.bindings.metrics[opts.metric];
    let unit = standard_unit(metric).unwrap_or("none");
    // Frame index per consumer, given at first use.
    let mut frame_of: Vec<Option<usize>> = vec![None; profile.consumers.len()];
    let mut frames: Vec<Value> = Vec::new();
    let mut profiles = Vec::new();
    for th in &profile.threads {
        let t = &th.tree;
        let mut samples: Vec<Vec<usize>> = Vec::new();
        let mut weights: Vec<u64> = Vec::new();
        for_each_context(t, |n, path| {
            let w = t.base(n)[opts.metric];
            if w == 0 {
                return;
            }
            let stack = path
                .iter()
                .map(|&p| {
                    let c = t.consumer(p) as usize;
                    *frame_of[c].get_or_insert_with(|| {
                        let name = profile.consumers.name(c as u32);
                        frames.push(match split_consumer(name).0 {
                            Some(class) => json!({ "name": name, "file": class }),
                            None => json!({ "name": name }),
                        });
                        frames.len() - 1
                    })
                })
                .collect();
            samples.push(stack);
            weights.push(w);
        });
        let end: u64 = weights.iter().fold(0u64, |a, &w| a.saturating_add(w));
        profiles.push(json!({
            "type": "sampled",
            "name": th.name,
            "unit": unit,
            "startValue": 0,
            "endValue": end,
            "samples": samples,
            "weights": weights,
        }));
    }
    json!({
        "$schema": SCHEMA,
        "name": format!("{} ({})", metric.name, profile.bindings.consumer_label),
        "exporter": format!("hpm {}", env!("CARGO_PKG_VERSION")),
        "activeProfileIndex": 0,
        "shared": { "frames": frames },
        "profiles": profiles,
    })
}

/// Writes `profile` as a speedscope JSON file.
pub fn write(profile: &Profile, opts: &ExportOptions, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer(&mut *out, &build(profile, opts))?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use hpm_collectors::arcflow::{Bindings, Metric, Tree};

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
        let doc = build(&p, &ExportOptions { metric: 0 });
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
        let faults = build(&p, &ExportOptions { metric: 1 });
        assert_eq!(faults["profiles"][0]["unit"], "none");
        assert_eq!(faults["profiles"][0]["weights"], json!([4, 1]));
    }
}
