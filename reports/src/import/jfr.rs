//! JFR recordings (HotSpot's Flight Recorder, `-XX:StartFlightRecording`, and async-profiler's JFR
//! output, the same format) into the arcflow model, read with the `jfrs` crate.
//!
//! - `jdk.ExecutionSample` (threads running Java code) and `jdk.NativeMethodSample` (threads in
//!   native code, JFR's wall-clock samples) become one sampled tree per thread ([`Imported::samples`]):
//!   each sample's stack below the thread's root, its leaf charged one `execution-samples` or
//!   `native-samples`, and, when the recording says at what period each was sampled
//!   (`jdk.ActiveSetting` `period`), the time it stands for: `execution-time` and `native-time`
//!   (samples × period, ns). Counts are samples, as in the agent's sampled trees (`SampleBuilder`).
//!   async-profiler records no `period`: its `interval` is used when its engine samples time.
//! - `jdk.ObjectAllocationSample` (JDK 16+) becomes [`Imported::alloc`]: the allocating stack with
//!   the allocated class as its leaf, `alloc-bytes` the event's weight (the bytes it stands for).
//!
//! Methods are named as the agent names them (`class.method`, with the parameter types when the
//! recording has several methods of that name in the class); a stack JFR truncated (deeper than
//! its `stackdepth`) gets a `(truncated)` frame at its root end; a thread is named by its Java
//! name (else its OS name), and threads are kept apart by their Java thread id.

use std::collections::HashMap;
use std::io::{Read, Seek};

use hpm_model::arcflow::{Bindings, ConsumerId, Metric, MetricMode, Profile, SampleBuilder, Tree};
use hpm_model::snapshot::naming::{class_name_from_signature, method_consumer_name};
use jfrs::reader::event::Accessor;
use jfrs::reader::value_descriptor::{Primitive, ValueDescriptor};
use jfrs::reader::JfrReader;

/// async-profiler engines whose `interval` is in nanoseconds of time; `perf_events` counts its
/// event, which is time only for `event=cpu` (cpu-clock).
const TIMED_ENGINES: [&str; 4] = ["itimer", "ctimer", "wall", "j9_wall"];

/// The frame at the root end of a stack JFR truncated.
pub const TRUNCATED: &str = "(truncated)";

/// What a recording held, as profiles and counts of the events read.
#[derive(Debug)]
pub struct Imported {
    /// Execution and native-method samples, if there were any.
    pub samples: Option<Profile>,
    /// Allocation samples, if there were any.
    pub alloc: Option<Profile>,
    pub chunks: usize,
    pub execution_samples: u64,
    pub native_samples: u64,
    pub alloc_samples: u64,
    /// Sampling periods found in the recording's settings (ns).
    pub execution_period: Option<u64>,
    pub native_period: Option<u64>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Execution,
    Native,
    Alloc,
}

/// A method as JFR names it: class (internal form, `a/b/C`), name, descriptor.
type MethodKey = (String, String, String);

/// One sample, in recording order: the thread, the stack (methods root first, or a class as leaf for
/// allocations), what kind and its weight (1, or bytes).
struct RawSample {
    thread: usize,
    stack: u32,
    truncated: bool,
    kind: Kind,
    weight: u64,
    class: Option<u32>,
}

#[derive(Default)]
struct Collector {
    methods: Vec<MethodKey>,
    method_ids: HashMap<MethodKey, u32>,
    classes: Vec<String>,
    class_ids: HashMap<String, u32>,
    stacks: Vec<Vec<u32>>,
    stack_ids: HashMap<Vec<u32>, u32>,
    /// Java thread id (or OS id) → index in `threads`.
    thread_ids: HashMap<i64, usize>,
    threads: Vec<(String, Option<u64>)>,
    samples: Vec<RawSample>,
    /// (event type id, setting) → value, from jdk.ActiveSetting.
    settings: HashMap<(i64, String), String>,
}

fn str_of(a: Option<Accessor>) -> Option<String> {
    let a = a?.resolve()?;
    match a.value {
        ValueDescriptor::Primitive(Primitive::String(s)) => Some(s.to_string()),
        _ => None,
    }
}

fn i64_of(a: Option<Accessor>) -> Option<i64> {
    match a?.resolve()?.value {
        ValueDescriptor::Primitive(Primitive::Long(v)) => Some(*v),
        ValueDescriptor::Primitive(Primitive::Integer(v)) => Some(*v as i64),
        _ => None,
    }
}

fn bool_of(a: Option<Accessor>) -> bool {
    matches!(a.and_then(|a| a.resolve()).map(|a| a.value), Some(ValueDescriptor::Primitive(Primitive::Boolean(true))))
}

/// A JFR symbol (an object with a `string` field) or a plain string.
fn symbol(a: Option<Accessor>) -> Option<String> {
    let a = a?.resolve()?;
    str_of(a.get_field("string")).or_else(|| str_of(Some(a)))
}

/// A period setting's value, e.g. "10 ms", "20 ms", "1 s", in ns.
fn parse_period(text: &str) -> Option<u64> {
    let (n, unit) = text.trim().split_once(' ')?;
    let n: f64 = n.parse().ok()?;
    let scale = match unit.trim() {
        "ns" => 1.0,
        "us" | "µs" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        _ => return None,
    };
    (n > 0.0).then_some((n * scale) as u64)
}

impl Collector {
    fn thread(&mut self, t: Option<Accessor>) -> usize {
        let t = t.and_then(|t| t.resolve());
        let java_id = t.as_ref().and_then(|t| i64_of(t.get_field("javaThreadId")));
        let os_id = t.as_ref().and_then(|t| i64_of(t.get_field("osThreadId")));
        let key = java_id.filter(|&id| id != 0).or(os_id.map(|id| -id - 1)).unwrap_or(i64::MIN);
        if let Some(&i) = self.thread_ids.get(&key) {
            return i;
        }
        let name = t
            .as_ref()
            .and_then(|t| str_of(t.get_field("javaName")).or_else(|| str_of(t.get_field("osName"))))
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| match java_id.or(os_id) {
                Some(id) => format!("thread {id}"),
                None => "(unknown thread)".to_string(),
            });
        self.threads.push((name, os_id.and_then(|id| u64::try_from(id).ok())));
        self.thread_ids.insert(key, self.threads.len() - 1);
        self.threads.len() - 1
    }

    fn method(&mut self, m: Accessor) -> Option<u32> {
        let m = m.resolve()?;
        let class = m.get_field("type").and_then(|c| c.resolve()).and_then(|c| symbol(c.get_field("name"))).unwrap_or_default();
        let key = (class, symbol(m.get_field("name")).unwrap_or_else(|| "(unknown)".into()), symbol(m.get_field("descriptor")).unwrap_or_default());
        if let Some(&id) = self.method_ids.get(&key) {
            return Some(id);
        }
        let id = self.methods.len() as u32;
        self.methods.push(key.clone());
        self.method_ids.insert(key, id);
        Some(id)
    }

    /// The stack's methods root first, and whether JFR truncated it.
    fn stack(&mut self, st: Option<Accessor>) -> (u32, bool) {
        let mut frames = Vec::new();
        let mut truncated = false;
        if let Some(st) = st.and_then(|s| s.resolve()) {
            truncated = bool_of(st.get_field("truncated"));
            if let Some(iter) = st.get_field("frames").and_then(|f| f.as_iter()) {
                for frame in iter {
                    if let Some(m) = frame.resolve().and_then(|f| f.get_field("method")).and_then(|m| self.method(m)) {
                        frames.push(m);
                    }
                }
            }
        }
        frames.reverse(); // JFR lists the top frame first.
        if let Some(&id) = self.stack_ids.get(&frames) {
            return (id, truncated);
        }
        let id = self.stacks.len() as u32;
        self.stacks.push(frames.clone());
        self.stack_ids.insert(frames, id);
        (id, truncated)
    }

    fn class(&mut self, c: Option<Accessor>) -> Option<u32> {
        let name = java_class_name(&c?.resolve().and_then(|c| symbol(c.get_field("name")))?);
        if let Some(&id) = self.class_ids.get(&name) {
            return Some(id);
        }
        let id = self.classes.len() as u32;
        self.classes.push(name.clone());
        self.class_ids.insert(name, id);
        Some(id)
    }
}

/// Reads a JFR recording. Errors are one line naming what is wrong.
pub fn read<R: Read + Seek>(input: R) -> Result<Imported, String> {
    // jfrs indexes into the file's pools as the file says; on a corrupt file that may panic, which
    // must end in an error, not in a crash of the tool.
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| read_unguarded(input)))
        .unwrap_or_else(|_| Err("the JFR reader failed on malformed data; the file is not a complete JFR recording".into()))
}

fn read_unguarded<R: Read + Seek>(input: R) -> Result<Imported, String> {
    let mut reader = JfrReader::new(input);
    let mut c = Collector::default();
    let mut chunks = 0;
    let (mut execution_type, mut native_type) = (None, None);
    for chunk in reader.chunks() {
        let (mut chunk_reader, chunk) = chunk.map_err(|e| format!("not a readable JFR recording: {e}"))?;
        chunks += 1;
        // The reader moves on by each event's size as the file gives it: a size of 0 would give
        // the same event for ever.
        let mut last_offset = None;
        for event in chunk_reader.events(&chunk) {
            let event = event.map_err(|e| format!("cannot read a JFR event in chunk {chunks}: {e}"))?;
            if last_offset.is_some_and(|at| event.byte_offset <= at) {
                return Err(format!("malformed JFR event at byte {} of chunk {chunks}: its size does not move the reader past it", event.byte_offset));
            }
            last_offset = Some(event.byte_offset);
            let v = event.value();
            let kind = match event.class.name() {
                "jdk.ExecutionSample" => {
                    execution_type = Some(event.class.class_id);
                    Kind::Execution
                }
                "jdk.NativeMethodSample" => {
                    native_type = Some(event.class.class_id);
                    Kind::Native
                }
                "jdk.ObjectAllocationSample" => Kind::Alloc,
                "jdk.ActiveSetting" => {
                    if let (Some(id), Some(name), Some(value)) = (i64_of(v.get_field("id")), str_of(v.get_field("name")), str_of(v.get_field("value"))) {
                        c.settings.insert((id, name), value);
                    }
                    continue;
                }
                _ => continue,
            };
            let thread = match kind {
                Kind::Alloc => c.thread(v.get_field("eventThread")),
                _ => c.thread(v.get_field("sampledThread")),
            };
            let (stack, truncated) = c.stack(v.get_field("stackTrace"));
            let (weight, class) = match kind {
                Kind::Alloc => (i64_of(v.get_field("weight")).map_or(0, |w| w.max(0) as u64), c.class(v.get_field("objectClass"))),
                _ => (1, None),
            };
            c.samples.push(RawSample { thread, stack, truncated, kind, weight, class });
        }
    }
    if chunks == 0 {
        return Err("empty file: no JFR chunk".into());
    }
    let setting = |ty: Option<i64>, name: &str| ty.and_then(|t| c.settings.get(&(t, name.to_string())));
    let execution_period = setting(execution_type, "period").and_then(|v| parse_period(v)).or_else(|| {
        // async-profiler: `interval` of its execution samples, in ns when its engine samples time.
        let recording = |name: &str| c.settings.iter().find(|((_, k), _)| k == name).map(|(_, v)| v.as_str());
        let timed = match recording("engine") {
            Some("perf_events") => recording("event") == Some("cpu"),
            Some(engine) => TIMED_ENGINES.contains(&engine),
            None => false,
        };
        setting(execution_type, "interval").filter(|_| timed).and_then(|v| v.parse::<u64>().ok()).filter(|&ns| ns > 0)
    });
    let native_period = setting(native_type, "period").and_then(|v| parse_period(v));
    let count = |k: Kind| c.samples.iter().filter(|s| s.kind == k).count() as u64;
    let (execution_samples, native_samples, alloc_samples) = (count(Kind::Execution), count(Kind::Native), count(Kind::Alloc));

    let names = method_names(&c.methods);
    let samples = (execution_samples + native_samples > 0).then(|| {
        let mut metrics = vec![Metric::new("execution-samples", ""), Metric::new("native-samples", "")];
        if execution_period.is_some() {
            metrics.push(Metric::new("execution-time", "ns"));
        }
        if native_period.is_some() {
            metrics.push(Metric::new("native-time", "ns"));
        }
        let metrics = metrics.into_iter().map(|m| m.with_mode(MetricMode::Sampled)).collect();
        build(&c, &names, Bindings { consumer_label: "methods".into(), count_label: "samples".into(), metrics }, |s| {
            let (exec, native) = match s.kind {
                Kind::Execution => (1, 0),
                Kind::Native => (0, 1),
                Kind::Alloc => return None,
            };
            let mut w = vec![exec, native];
            w.extend(execution_period.map(|p| exec * p));
            w.extend(native_period.map(|p| native * p));
            Some(w)
        })
    });
    let alloc = (alloc_samples > 0).then(|| {
        let metrics = vec![Metric::new("alloc-bytes", "bytes").with_mode(MetricMode::Sampled)];
        build(&c, &names, Bindings { consumer_label: "methods and allocated classes".into(), count_label: "samples".into(), metrics }, |s| {
            (s.kind == Kind::Alloc).then(|| vec![s.weight])
        })
    });
    Ok(Imported { samples, alloc, chunks, execution_samples, native_samples, alloc_samples, execution_period, native_period })
}

/// Consumer names of the methods, as the agent names them: the parameter types only for a name the
/// class has several of (among the methods the recording names).
fn method_names(methods: &[MethodKey]) -> Vec<String> {
    let mut per_name: HashMap<(&str, &str), usize> = HashMap::new();
    for (class, name, _) in methods {
        *per_name.entry((class, name)).or_default() += 1;
    }
    methods
        .iter()
        .map(|(class, name, descriptor)| match class.as_str() {
            // async-profiler's native and kernel frames: a function without a class.
            "" => name.clone(),
            _ => method_consumer_name(&java_class_name(class), name, descriptor, per_name[&(class.as_str(), name.as_str())] > 1),
        })
        .collect()
}

/// A class as the agent names it, from JFR's internal name: `java/lang/String` → `java.lang.String`,
/// `[B` → `byte[]`, hidden classes without their address suffix.
fn java_class_name(internal: &str) -> String {
    if internal.starts_with('[') {
        class_name_from_signature(internal)
    } else {
        class_name_from_signature(&format!("L{internal};"))
    }
}

/// A profile of the samples `weights` gives weights for, one sampled tree per thread that has any.
fn build(c: &Collector, names: &[String], bindings: Bindings, weights: impl Fn(&RawSample) -> Option<Vec<u64>>) -> Profile {
    let mut p = Profile::new(bindings);
    let method_ids: Vec<ConsumerId> = names.iter().map(|n| p.consumers.intern(n)).collect();
    let truncated = p.consumers.intern(TRUNCATED);
    let mut builders: Vec<Option<SampleBuilder>> = (0..c.threads.len()).map(|_| None).collect();
    let mut path = Vec::new();
    for s in &c.samples {
        let Some(w) = weights(s) else { continue };
        let builder = builders[s.thread].get_or_insert_with(|| {
            let root = p.consumers.intern(&c.threads[s.thread].0);
            SampleBuilder::new(Tree::new(root, p.bindings.metrics.len()))
        });
        path.clear();
        if s.truncated {
            path.push(truncated);
        }
        path.extend(c.stacks[s.stack as usize].iter().map(|&m| method_ids[m as usize]));
        if let Some(class) = s.class {
            path.push(p.consumers.intern(&c.classes[class as usize]));
        }
        builder.add(&path, &w);
    }
    for (i, b) in builders.into_iter().enumerate() {
        if let Some(b) = b {
            let t = p.add_thread(&c.threads[i].0);
            p.threads[t].tree = b.into_tree();
            p.threads[t].os_tid = c.threads[i].1;
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periods_and_names() {
        assert_eq!(parse_period("10 ms"), Some(10_000_000));
        assert_eq!(parse_period("1 s"), Some(1_000_000_000));
        assert_eq!(parse_period("off"), None);
        assert_eq!(parse_period("0 ms"), None);
        let methods = vec![
            ("a/B".to_string(), "f".to_string(), "(I)V".to_string()),
            ("a/B".to_string(), "f".to_string(), "(Ljava/lang/String;)V".to_string()),
            ("a/B".to_string(), "g".to_string(), "()V".to_string()),
        ];
        assert_eq!(method_names(&methods), ["a.B.f(int)", "a.B.f(java.lang.String)", "a.B.g"]);
        assert_eq!(method_names(&[(String::new(), "do_syscall_64".into(), String::new())]), ["do_syscall_64"]);
        assert_eq!(java_class_name("[B"), "byte[]");
        assert_eq!(java_class_name("java/lang/String"), "java.lang.String");
        // Hidden classes lose their address, as the agent names them, however JFR spells it.
        assert_eq!(java_class_name("org/h2/Foo$$Lambda$102+0x00007f62d8120c60"), "org.h2.Foo$$Lambda$102");
        assert_eq!(java_class_name("org/h2/Foo$$Lambda$14/0x0000000800c0b000"), "org.h2.Foo$$Lambda$14");
        assert_eq!(java_class_name("a/b+0xyz"), "a.b+0xyz");
    }

    #[test]
    fn malformed_files_are_one_line_errors() {
        for bytes in [&b""[..], b"not a jfr file", b"FLR\0\x00\x02\x00\x00garbage"] {
            let e = read(std::io::Cursor::new(bytes.to_vec())).unwrap_err();
            assert!(!e.contains('\n'), "{e}");
        }
    }
}
