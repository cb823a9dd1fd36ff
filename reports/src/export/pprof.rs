//! pprof's `profile.proto`, gzipped: what `go tool pprof` and pprof's web UI read.
//!
//! One sample per calling context that has calls or cost, with one value per metric and the calls
//! last (sample types named by the metric and its unit; pprof's `-sample_index=NAME` picks one).
//! The sample's stack is the context's path, leaf first, down to the thread, which is the outermost
//! frame (as in `flame.svg`; its own base is the thread's time outside any method). A string label
//! `thread` names the thread too (`-tagfocus=thread=…`). Each consumer is one function and one
//! location: name and system name the full consumer name, file name its class (no source file or
//! line is known). Values above 2^63 − 1 (pprof's values are signed) are clamped to it.

use std::collections::HashMap;
use std::io::{self, Write};

use flate2::write::GzEncoder;
use hpm_model::arcflow::{ConsumerId, Profile};
use prost::Message;

use super::{for_each_context, has_cost, split_consumer, split_line, standard_unit, ExportOptions, DEEPER};

// The messages of pprof's profile.proto (github.com/google/pprof, proto/profile.proto) this export
// fills, with its field numbers; fields left out are never set.
#[derive(Clone, PartialEq, Message)]
pub struct PprofProfile {
    #[prost(message, repeated, tag = "1")]
    pub sample_type: Vec<ValueType>,
    #[prost(message, repeated, tag = "2")]
    pub sample: Vec<Sample>,
    #[prost(message, repeated, tag = "4")]
    pub location: Vec<Location>,
    #[prost(message, repeated, tag = "5")]
    pub function: Vec<Function>,
    #[prost(string, repeated, tag = "6")]
    pub string_table: Vec<String>,
    #[prost(int64, repeated, tag = "13")]
    pub comment: Vec<i64>,
    #[prost(int64, tag = "14")]
    pub default_sample_type: i64,
}

#[derive(Clone, PartialEq, Message)]
pub struct ValueType {
    #[prost(int64, tag = "1")]
    pub r#type: i64,
    #[prost(int64, tag = "2")]
    pub unit: i64,
}

#[derive(Clone, PartialEq, Message)]
pub struct Sample {
    #[prost(uint64, repeated, tag = "1")]
    pub location_id: Vec<u64>,
    #[prost(int64, repeated, tag = "2")]
    pub value: Vec<i64>,
    #[prost(message, repeated, tag = "3")]
    pub label: Vec<Label>,
}

#[derive(Clone, PartialEq, Message)]
pub struct Label {
    #[prost(int64, tag = "1")]
    pub key: i64,
    #[prost(int64, tag = "2")]
    pub str: i64,
}

#[derive(Clone, PartialEq, Message)]
pub struct Location {
    #[prost(uint64, tag = "1")]
    pub id: u64,
    #[prost(message, repeated, tag = "4")]
    pub line: Vec<Line>,
}

#[derive(Clone, PartialEq, Message)]
pub struct Line {
    #[prost(uint64, tag = "1")]
    pub function_id: u64,
    /// The source line (0: not known).
    #[prost(int64, tag = "2")]
    pub line: i64,
}

#[derive(Clone, PartialEq, Message)]
pub struct Function {
    #[prost(uint64, tag = "1")]
    pub id: u64,
    #[prost(int64, tag = "2")]
    pub name: i64,
    #[prost(int64, tag = "3")]
    pub system_name: i64,
    #[prost(int64, tag = "4")]
    pub filename: i64,
}

/// pprof's string table: index 0 is the empty string.
struct Strings {
    table: Vec<String>,
    index: HashMap<String, i64>,
}

impl Strings {
    fn new() -> Strings {
        Strings { table: vec![String::new()], index: HashMap::from([(String::new(), 0)]) }
    }
    fn id(&mut self, s: &str) -> i64 {
        if let Some(&i) = self.index.get(s) {
            return i;
        }
        let i = self.table.len() as i64;
        self.table.push(s.to_string());
        self.index.insert(s.to_string(), i);
        i
    }
}

/// The sample type names: one per metric, then the calls (`calls`, or `samples` for a sampled tree).
pub fn sample_type_names(profile: &Profile) -> Vec<String> {
    let mut v: Vec<String> = profile.bindings.metrics.iter().map(|m| m.name.clone()).collect();
    v.push(profile.bindings.count_label.clone());
    v
}

/// Builds the pprof message for `profile`.
pub fn build(profile: &Profile, opts: &ExportOptions) -> PprofProfile {
    let mut strings = Strings::new();
    let mut sample_type: Vec<ValueType> = profile
        .bindings
        .metrics
        .iter()
        .map(|m| {
            let unit = standard_unit(m).unwrap_or(if m.unit.is_empty() { "count" } else { m.unit.as_str() });
            ValueType { r#type: strings.id(&m.name), unit: strings.id(unit) }
        })
        .collect();
    sample_type.push(ValueType { r#type: strings.id(&profile.bindings.count_label), unit: strings.id("count") });
    let default_sample_type = sample_type.get(opts.metric).map_or(0, |t| t.r#type);

    // One function and one location per consumer used, both with id = consumer id + 1.
    let mut used = vec![false; profile.consumers.len()];
    let thread_key = strings.id("thread");
    let mut sample: Vec<Sample> = Vec::new();
    // The (deeper) frame's function and location: the id after every consumer's.
    let deeper_id = profile.consumers.len() as u64 + 1;
    let mut deeper_used = false;
    for th in &profile.threads {
        let t = &th.tree;
        let thread_name = strings.id(&th.name);
        // As in speedscope.rs: the contexts below one at the depth limit share its stack and come
        // next in pre-order, so they add to one sample.
        let mut deeper_under = None;
        for_each_context(t, opts.max_stack_depth, |n, path, deeper| {
            if !has_cost(t, n) {
                return;
            }
            if deeper && deeper_under == path.last().copied() {
                if let Some(last) = sample.last_mut() {
                    let values = t.base(n).iter().copied().chain(std::iter::once(t.calls(n)));
                    for (v, add) in last.value.iter_mut().zip(values) {
                        *v = v.saturating_add(clamp(add));
                    }
                    return;
                }
            }
            deeper_under = if deeper { path.last().copied() } else { None };
            let mut location_id: Vec<u64> = Vec::with_capacity(path.len() + 1);
            if deeper {
                location_id.push(deeper_id);
                deeper_used = true;
            }
            location_id.extend(path.iter().rev().map(|&p| t.consumer(p) as u64 + 1));
            for &p in path {
                used[t.consumer(p) as usize] = true;
            }
            let mut value: Vec<i64> = t.base(n).iter().map(|&v| clamp(v)).collect();
            value.push(clamp(t.calls(n)));
            sample.push(Sample { location_id, value, label: vec![Label { key: thread_key, str: thread_name }] });
        });
    }
    let mut function = Vec::new();
    let mut location = Vec::new();
    // One function per method: the lines of a method (`sample-lines=on`) are its locations' lines.
    let mut function_of: HashMap<&str, u64> = HashMap::new();
    for c in (0..used.len()).filter(|&c| used[c]) {
        let (method, line) = split_line(profile.consumers.name(c as ConsumerId));
        let id = c as u64 + 1;
        let function_id = *function_of.entry(method).or_insert_with(|| {
            let (class, _) = split_consumer(method);
            let name_id = strings.id(method);
            function.push(Function { id, name: name_id, system_name: name_id, filename: class.map_or(0, |k| strings.id(k)) });
            id
        });
        location.push(Location { id, line: vec![Line { function_id, line: line.map_or(0, i64::from) }] });
    }
    if deeper_used {
        let name = strings.id(DEEPER);
        function.push(Function { id: deeper_id, name, system_name: name, filename: 0 });
        location.push(Location { id: deeper_id, line: vec![Line { function_id: deeper_id, line: 0 }] });
    }
    let comment = vec![strings.id(&format!("hpm export of {} thread(s); consumers: {}", profile.threads.len(), profile.bindings.consumer_label))];
    PprofProfile { sample_type, sample, location, function, string_table: strings.table, comment, default_sample_type }
}

fn clamp(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

/// Writes `profile` as a gzipped pprof profile.
pub fn write(profile: &Profile, opts: &ExportOptions, out: &mut dyn Write) -> io::Result<()> {
    let bytes = build(profile, opts).encode_to_vec();
    let mut gz = GzEncoder::new(out, flate2::Compression::default());
    gz.write_all(&bytes)?;
    gz.finish()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use hpm_model::arcflow::{Bindings, Metric, Tree};

    #[test]
    fn samples_carry_every_metric_and_the_calls() {
        let mut p = Profile::new(Bindings::methods(vec![Metric::new("cpu-time", "ns"), Metric::new("faults", "")]));
        let th = p.add_thread("main");
        let a = p.consumers.intern("app.Main.main");
        let b = p.consumers.intern("app.Main.work(int)");
        let t = &mut p.threads[th].tree;
        let na = t.descend(Tree::ROOT, &[a]);
        t.add_calls(na, 1);
        t.add_base(na, &[10, 1]);
        let nb = t.descend(na, &[b]);
        t.add_calls(nb, 3);
        t.add_base(nb, &[u64::MAX, 2]);

        let mut gz = Vec::new();
        write(&p, &ExportOptions { metric: 1, ..ExportOptions::default() }, &mut gz).unwrap();
        let mut raw = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&gz[..]), &mut raw).unwrap();
        let back = PprofProfile::decode(&raw[..]).unwrap();
        let s = |i: i64| back.string_table[i as usize].as_str();
        let types: Vec<(&str, &str)> = back.sample_type.iter().map(|t| (s(t.r#type), s(t.unit))).collect();
        assert_eq!(types, [("cpu-time", "nanoseconds"), ("faults", "count"), ("calls", "count")]);
        assert_eq!(s(back.default_sample_type), "faults");
        // The root has no calls and no cost: two samples, leaf first, down to the thread.
        assert_eq!(back.sample.len(), 2);
        assert_eq!(back.sample[1].value, [i64::MAX, 2, 3]);
        let names: Vec<&str> = back.sample[1]
            .location_id
            .iter()
            .map(|&l| {
                let f = back.function.iter().find(|f| f.id == back.location.iter().find(|x| x.id == l).unwrap().line[0].function_id).unwrap();
                s(f.name)
            })
            .collect();
        assert_eq!(names, ["app.Main.work(int)", "app.Main.main", "main"]);
        let f = back.function.iter().find(|f| s(f.name) == "app.Main.work(int)").unwrap();
        assert_eq!(s(f.filename), "app.Main");
        assert_eq!((s(back.sample[0].label[0].key), s(back.sample[0].label[0].str)), ("thread", "main"));
    }

    /// Frames named with their lines (`sample-lines=on`) are one function each with a location
    /// per line; native code frames have no class for a file name.
    #[test]
    fn lines_go_into_locations_of_one_function_and_native_frames_have_no_file() {
        let mut p = Profile::new(Bindings::methods(vec![Metric::new("cpu-time", "ns")]));
        let th = p.add_thread("main");
        let names = ["app.Main.work(int):12", "app.Main.work(int):14", "hpm_spin_inner [libhpmspin.so]"];
        let ids: Vec<_> = names.iter().map(|n| p.consumers.intern(n)).collect();
        let t = &mut p.threads[th].tree;
        for &c in &ids {
            let n = t.descend(Tree::ROOT, &[c]);
            t.add_calls(n, 1);
            t.add_base(n, &[5]);
        }
        let mut gz = Vec::new();
        write(&p, &ExportOptions::default(), &mut gz).unwrap();
        let mut raw = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&gz[..]), &mut raw).unwrap();
        let back = PprofProfile::decode(&raw[..]).unwrap();
        let s = |i: i64| back.string_table[i as usize].as_str();
        let at = |c: ConsumerId| {
            let l = &back.location.iter().find(|x| x.id == c as u64 + 1).unwrap().line[0];
            let f = back.function.iter().find(|f| f.id == l.function_id).unwrap();
            (s(f.name), s(f.filename), l.line)
        };
        assert_eq!(at(ids[0]), ("app.Main.work(int)", "app.Main", 12));
        assert_eq!(at(ids[1]), ("app.Main.work(int)", "app.Main", 14));
        assert_eq!(at(ids[2]), ("hpm_spin_inner [libhpmspin.so]", "", 0));
        assert_eq!(back.function.iter().filter(|f| s(f.name) == "app.Main.work(int)").count(), 1);
    }
}
