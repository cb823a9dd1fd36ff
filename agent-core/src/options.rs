//! The agent's options: `-agentpath:libhpmagent.so=OPT,OPT,…`.

use std::path::PathBuf;

use hpm_support::log::Level;
use hpm_model::snapshot::Glob;

/// Every option, with its syntax and meaning, as `help` prints them.
pub const OPTIONS: &[(&str, &str)] = &[
    ("out=DIR", "report directory (default hpm-<pid> in the working directory)"),
    ("collect=LIST", "what to record, '+'-separated: calls, gc, locks, waits, alloc, code, or all/none (default calls+gc+locks+waits+code; with calls=none, gc+locks+waits; with calls=requested, calls+gc+locks+waits)"),
    ("calls=probes|requested|jvmti|none", "HotSpot: record exact call trees with bytecode probes inserted at class load (default: compiled code keeps running; time and counters sampled) or with JVMTI method events (the reference mode: every thread interpreted, 10-130x slower; metrics exact); requested: probes only in the methods asked for while the program runs (`hpm ctl PID probe add PATTERN`), none at start; none: no exact call trees (e.g. with sample=cpu alone)"),
    ("sample=cpu|wall|off", "HotSpot: also sample stacks into sampled trees (reports in sampled/; counts are samples, each carrying the thread's cpu-time, wall-time and event= deltas since its previous sample): cpu, each thread every sample-interval of its CPU time (where threads compute); wall, every thread every sample-interval of wall time, running or blocked (where threads wait too); default off"),
    ("sample-alloc=SIZE", "HotSpot: also sample allocations (JVMTI's heap sampler) about every SIZE bytes a thread allocates, e.g. 512k, 1m: the allocating stacks and classes go to sampled-alloc/ with the bytes and objects each sample stands for; alone or beside the other modes, but not with collect=alloc (one heap sampler per JVM)"),
    ("sample-native=on|off", "HotSpot, with sample=: keep the native code frames (C, C++) above a sample's Java frames, named by the process's exported symbols, `symbol [library]` (default off)"),
    ("sample-kernel=on|off", "HotSpot, with sample=cpu: put the kernel's frames above a sample's own (system calls, page faults), named `function [kernel]`, from the kernel part of each CPU-time overflow's call chain; needs kernel samples (perf_event_paranoid <= 1, CAP_PERFMON or root), else a warning says so and samples have none (default off)"),
    ("sample-lines=on|off", "HotSpot, with sample=: name each sampled Java frame with its source line, Class.method:LINE, so that the sampled trees tell the lines of a method apart (default off: one node per method)"),
    ("sample-interval=TIME", "time between stack samples of a thread (CPU time with sample=cpu, wall time with sample=wall), e.g. 10ms (default), 1ms, 500us"),
    ("include=PATTERN", "record methods of classes matching PATTERN (repeatable; '*' any text, '?' one char; include=* records JDK classes too)"),
    ("exclude=PATTERN", "do not record methods of classes matching PATTERN (repeatable; wins over include)"),
    ("event=NAME", "also count a perf_event counter per context (repeatable; perf's names: task-clock, page-faults, cycles, msr/tsc/, ...); events this machine refuses are reported and skipped"),
    ("metric-mode=auto|exact|sampled", "calls=probes, and the research VM: read time and counters at every entry and exit (exact) or sample them into the exact contexts (sampled); auto (default): exact where one read of the metrics costs at most 50 ns on this machine (measured at start-up), sampled otherwise"),
    ("compensate=on|off", "take the probes' own cost out of each context: with sampled metrics their code is measured apart, else a calibrated cost per call is subtracted (default on; see compensation.txt)"),
    ("trivial=probe|skip", "calls=probes or requested, HotSpot: probe trivial methods too (probe, default: every call counted) or leave them without probes (skip): methods of at most 35 bytes of bytecode that call nothing and do not loop, allocate, throw or lock (getters, setters, small arithmetic), a third of a database's calls; their calls are then not counted and their few instructions are their callers' time; methods asked for by `hpm ctl PID probe add` are probed all the same"),
    ("thread-field=on|off", "calls=probes, HotSpot, loaded at start-up: the probes find each thread's call tree in a field the agent adds to java.lang.Thread (on, default: about 4 ns less per probed call; the JVM then runs without class data sharing, some 20-30 ms more start-up) or through a ThreadLocal (off)"),
    ("start=running|paused", "start recording at once (default) or paused, waiting for the control socket"),
    ("alloc-interval=BYTES", "heap sampling interval for collect=alloc (default 0: every object, exact)"),
    ("perf-map=auto|on|off", "write /tmp/perf-<pid>.map for Linux perf at exit (with collect=code); auto (default): only when the JVM runs under `perf record`"),
    ("quantum=switch|all|tick|off", "quantum traces in out=DIR (quantum.vp<N>.trace, quantum.meta): one record per thread quantum with its counter deltas. rvm: 'quantum' or 'quantum=switch' records at every thread switch, 'quantum=tick' also at every timer tick without a switch (Jikes' sample mode). HotSpot: from the kernel's context switches (root, CAP_PERFMON or perf_event_paranoid <= 1), one processor per CPU; 'quantum' traces the Java threads started from VM init on, 'quantum=all' every thread of the process (GC, JIT, the VM's own); default off"),
    ("socket=PATH|off", "control socket path (default $XDG_RUNTIME_DIR/hpmagent/<pid>.sock or /tmp/hpmagent-<uid>/<pid>.sock), or off"),
    ("log=LEVEL", "error, warn (default), info or debug"),
    ("help", "print this help; the JVM then does not start"),
];

/// The option names, for error messages.
pub fn option_names() -> Vec<&'static str> {
    OPTIONS.iter().map(|(s, _)| s.split('=').next().unwrap()).collect()
}

/// The agent's option string as text. Paths in it (`out=`, `socket=`) name files the agent
/// creates: a string that is not UTF-8 is refused, on both VMs, rather than have bytes replaced by
/// U+FFFD and a different directory written.
pub fn text_of(bytes: &[u8]) -> Result<String, String> {
    String::from_utf8(bytes.to_vec()).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        format!("the agent's options are not UTF-8 (byte {:#04x} at offset {at}): give out= and socket= paths in UTF-8", bytes[at])
    })
}

/// An `on|off` option's value.
fn on_off(option: &str, value: &str) -> Result<bool, String> {
    match value {
        "on" => Ok(true),
        "off" => Ok(false),
        v => Err(format!("bad value '{}' for option '{option}' (valid: on, off)", shown(v))),
    }
}

/// Input echoed in an error, cut to its first 60 characters (with its length) when longer than
/// 80: one line stays readable whatever was passed.
fn shown(s: &str) -> String {
    if s.chars().count() <= 80 {
        return s.to_string();
    }
    let head: String = s.chars().take(60).collect();
    format!("{head}… ({} bytes)", s.len())
}

/// `sample=`: which stack samples are taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SampleMode {
    Off,
    /// Every interval of each thread's CPU time.
    Cpu,
    /// Every interval of wall time, every thread.
    Wall,
}

/// `sample-interval=` by default: 100 samples per second of a thread's CPU time.
pub const DEFAULT_SAMPLE_INTERVAL_NS: u64 = 10_000_000;

/// `512k`, `1m`, `4096` → bytes (binary multiples), 1 to 2^31 - 1 (HotSpot's interval is a jint).
fn parse_bytes(v: &str) -> Option<u64> {
    let (num, scale) = match v.as_bytes().last()?.to_ascii_lowercase() {
        b'k' => (&v[..v.len() - 1], 1u64 << 10),
        b'm' => (&v[..v.len() - 1], 1 << 20),
        b'g' => (&v[..v.len() - 1], 1 << 30),
        _ => (v, 1),
    };
    let n = num.parse::<u64>().ok()?.checked_mul(scale)?;
    (1..=i32::MAX as u64).contains(&n).then_some(n)
}

/// `10ms`, `500us`, `1s`, `250000ns` → ns.
fn parse_duration_ns(v: &str) -> Option<u64> {
    let split = v.find(|c: char| !c.is_ascii_digit() && c != '.')?;
    let (num, unit) = v.split_at(split);
    let n: f64 = num.parse().ok()?;
    let scale = match unit {
        "ns" => 1.0,
        "us" | "µs" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        _ => return None,
    };
    let ns = n * scale;
    (1.0..1e13).contains(&ns).then_some(ns as u64)
}

pub const COLLECT_ITEMS: &[&str] = &["calls", "gc", "locks", "waits", "alloc", "code"];

/// `calls=`: how call trees are recorded on HotSpot (the research VM's interpreter reports every
/// entry and exit, whatever this says).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CallsVia {
    /// Probes inserted into the bytecode at class load (hotspot-backend's `probes.rs`).
    #[default]
    Probes,
    /// JVMTI MethodEntry/MethodExit events.
    Jvmti,
    /// Bytecode probes, but only in the methods asked for while the program runs
    /// ([`crate::Backend::request_probes`]); no class gets them at start.
    Requested,
}

impl CallsVia {
    /// Whether calls are counted by bytecode probes.
    pub fn probes(self) -> bool {
        matches!(self, CallsVia::Probes | CallsVia::Requested)
    }
}

/// `metric-mode=`: how the bytecode probes' contexts get their time and counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetricModeOption {
    /// Exact where a read of the metrics is cheap here, sampled otherwise.
    Auto,
    Exact,
    Sampled,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub out: Option<PathBuf>,
    pub calls: bool,
    /// How call trees are recorded on HotSpot.
    pub calls_via: CallsVia,
    pub gc: bool,
    pub locks: bool,
    pub waits: bool,
    pub alloc: bool,
    pub code: bool,
    pub include: Vec<Glob>,
    pub exclude: Vec<Glob>,
    /// perf_event counters (validated names).
    pub events: Vec<String>,
    /// Stack sampling (`sample=`) and its interval in ns (of a thread's CPU time, or wall time).
    pub sample: SampleMode,
    pub sample_interval_ns: u64,
    /// Sampled frames named with their source line (`sample-lines=on`).
    pub sample_lines: bool,
    /// Native code frames kept in stack samples (`sample-native=on`).
    pub sample_native: bool,
    /// Kernel frames kept in CPU-time stack samples (`sample-kernel=on`).
    pub sample_kernel: bool,
    /// Allocation sampling (`sample-alloc=`): the heap sampler's mean interval in bytes.
    pub sample_alloc: Option<u64>,
    /// With bytecode probes: metrics read at every entry and exit, or sampled.
    pub metric_mode: MetricModeOption,
    /// Overhead compensation (calibrated at start-up, applied to the reports).
    pub compensate: bool,
    /// With probes: a field added to java.lang.Thread holds each thread's tree (`thread-field=`).
    pub thread_field: bool,
    /// With probes: trivial methods get none (`trivial=skip`).
    pub skip_trivial: bool,
    pub start_paused: bool,
    pub alloc_interval: i32,
    pub perf_map: PerfMap,
    /// Quantum traces (research VM only).
    pub quantum: QuantumMode,
    pub socket: Socket,
    pub log: Level,
    pub help: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            out: None,
            calls: true,
            calls_via: CallsVia::Probes,
            gc: true,
            locks: true,
            waits: true,
            alloc: false,
            code: true,
            include: Vec::new(),
            exclude: Vec::new(),
            events: Vec::new(),
            sample: SampleMode::Off,
            sample_interval_ns: DEFAULT_SAMPLE_INTERVAL_NS,
            sample_lines: false,
            sample_native: false,
            sample_kernel: false,
            sample_alloc: None,
            metric_mode: MetricModeOption::Auto,
            compensate: true,
            thread_field: true,
            skip_trivial: false,
            start_paused: false,
            alloc_interval: 0,
            perf_map: PerfMap::Auto,
            quantum: QuantumMode::Off,
            socket: Socket::Default,
            log: Level::Warn,
            help: false,
        }
    }
}

impl Options {
    /// The report directory: `out=`, or `hpm-<pid>` in the working directory.
    pub fn out_dir(&self) -> PathBuf {
        self.out.clone().unwrap_or_else(|| PathBuf::from(format!("hpm-{}", std::process::id())))
    }
}

/// Whether `/tmp/perf-<pid>.map` is written (option `perf-map`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PerfMap {
    On,
    Off,
    /// Only when the JVM was started by `perf record` (its parent process).
    Auto,
}

impl PerfMap {
    /// Whether to write the map in this process.
    pub fn wanted(self) -> bool {
        match self {
            PerfMap::On => true,
            PerfMap::Off => false,
            PerfMap::Auto => parent_is_perf_record(),
        }
    }
}

/// Whether the parent process is `perf record …` (`perf record java …` starts the JVM as its
/// child). A `perf record -p PID` started later cannot be seen from here: use `perf-map=on`.
fn parent_is_perf_record() -> bool {
    let Ok(cmdline) = std::fs::read(format!("/proc/{}/cmdline", std::os::unix::process::parent_id())) else { return false };
    is_perf_record(&cmdline)
}

/// Whether a NUL-separated command line is `perf record …` (or `perf trace record`, `perf mem record`, …).
fn is_perf_record(cmdline: &[u8]) -> bool {
    let mut args = cmdline.split(|&b| b == 0).filter(|a| !a.is_empty());
    let is_perf = args.next().is_some_and(|a0| a0.rsplit(|&b| b == b'/').next() == Some(b"perf"));
    // The subcommand: `record`, or its second word (`perf mem record`, `perf sched record`).
    is_perf && args.filter(|a| !a.starts_with(b"-")).take(2).any(|a| a == b"record")
}

/// When quantum records are written (option `quantum`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuantumMode {
    /// No quantum trace.
    Off,
    /// One record per thread switch (`quantum`, `quantum=switch`).
    Switch,
    /// Also one record at every timer tick that did not switch threads (`quantum=tick`, Jikes RVM's
    /// sample mode).
    Tick,
    /// On HotSpot, every thread of the process, the VM's own too (`quantum=all`); on the research
    /// VM the same as `Switch` (its trace has every thread already).
    All,
}

/// Where the control socket goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Socket {
    /// `<pid>.sock` in the user's private socket directory.
    Default,
    Path(PathBuf),
    Off,
}

/// The help text (several lines).
pub fn help_text() -> String {
    let mut s = String::from("hpmagent: options (comma-separated): -agentpath:/path/libhpmagent.so=OPT,OPT,...\n");
    for (k, v) in OPTIONS {
        s.push_str(&format!("  {k:<22} {v}\n"));
    }
    s.push_str("  example: -agentpath:libhpmagent.so=out=prof,collect=calls+alloc,include=com.acme.*\n");
    s
}

/// Parses the option string; the error is the one line to print.
pub fn parse(text: Option<&str>) -> Result<Options, String> {
    let mut o = Options::default();
    let mut calls_none = false;
    let mut collect_given = false;
    let text = text.unwrap_or("").trim();
    if text.is_empty() {
        return Ok(o);
    }
    for item in text.split(',') {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let (key, value) = match item.split_once('=') {
            Some((k, v)) => (k.trim(), Some(v.trim())),
            None => (item, None),
        };
        let need = |v: Option<&str>| -> Result<String, String> {
            match v {
                Some(v) if !v.is_empty() => Ok(v.to_string()),
                _ => Err(format!("option '{key}' needs a value ({key}=...)")),
            }
        };
        match key {
            "help" => o.help = true,
            "out" => o.out = Some(PathBuf::from(need(value)?)),
            "collect" => {
                collect_given = true;
                let v = need(value)?;
                let (mut c, mut g, mut l, mut w, mut a, mut k) = (false, false, false, false, false, false);
                for part in v.split(['+', ':', ';']) {
                    match part.trim() {
                        "calls" => c = true,
                        "gc" => g = true,
                        "locks" => l = true,
                        "waits" => w = true,
                        "alloc" => a = true,
                        "code" => k = true,
                        "all" => (c, g, l, w, a, k) = (true, true, true, true, true, true),
                        "none" => {}
                        other => {
                            return Err(format!(
                                "bad value '{other}' for option 'collect' (valid: {}, all, none; join with '+')",
                                COLLECT_ITEMS.join(", ")
                            ))
                        }
                    }
                }
                (o.calls, o.gc, o.locks, o.waits, o.alloc, o.code) = (c, g, l, w, a, k);
            }
            "include" => o.include.push(Glob::new(&need(value)?)),
            "exclude" => o.exclude.push(Glob::new(&need(value)?)),
            "event" => {
                let v = need(value)?;
                if let Err(e) = hpm_collectors::counters::parse_event(&v) {
                    return Err(format!("bad value '{}' for option 'event': {e}", shown(&v)));
                }
                o.events.push(v);
            }
            "compensate" => o.compensate = on_off("compensate", &need(value)?)?,
            "sample-lines" => o.sample_lines = on_off("sample-lines", &need(value)?)?,
            "sample-native" => o.sample_native = on_off("sample-native", &need(value)?)?,
            "sample-kernel" => o.sample_kernel = on_off("sample-kernel", &need(value)?)?,
            "thread-field" => o.thread_field = on_off("thread-field", &need(value)?)?,
            "trivial" => {
                o.skip_trivial = match need(value)?.as_str() {
                    "probe" => false,
                    "skip" => true,
                    v => return Err(format!("bad value '{}' for option 'trivial' (valid: probe, skip)", shown(v))),
                }
            }
            "metric-mode" => {
                o.metric_mode = match need(value)?.as_str() {
                    "auto" => MetricModeOption::Auto,
                    "exact" => MetricModeOption::Exact,
                    "sampled" => MetricModeOption::Sampled,
                    v => return Err(format!("bad value '{}' for option 'metric-mode' (valid: auto, exact, sampled)", shown(v))),
                }
            }
            "calls" => match need(value)?.as_str() {
                "probes" => o.calls_via = CallsVia::Probes,
                "jvmti" => o.calls_via = CallsVia::Jvmti,
                "requested" => o.calls_via = CallsVia::Requested,
                "none" => calls_none = true,
                v => return Err(format!("bad value '{}' for option 'calls' (valid: probes, requested, jvmti, none)", shown(v))),
            },
            "sample" => {
                o.sample = match need(value)?.as_str() {
                    "cpu" => SampleMode::Cpu,
                    "wall" => SampleMode::Wall,
                    "off" => SampleMode::Off,
                    v => return Err(format!("bad value '{}' for option 'sample' (valid: cpu, wall, off)", shown(v))),
                }
            }
            "sample-alloc" => {
                let v = need(value)?;
                o.sample_alloc = Some(parse_bytes(&v).ok_or_else(|| {
                    format!("bad value '{}' for option 'sample-alloc' (valid: a size of 1 byte to 2g - 1, e.g. 512k, 1m, 65536)", shown(&v))
                })?);
            }
            "sample-interval" => {
                let v = need(value)?;
                o.sample_interval_ns = parse_duration_ns(&v)
                    .filter(|ns| *ns >= 100_000)
                    .ok_or_else(|| format!("bad value '{}' for option 'sample-interval' (valid: a time of at least 100us, e.g. 10ms, 1ms, 500us)", shown(&v)))?;
            }
            "start" => {
                o.start_paused = match need(value)?.as_str() {
                    "paused" => true,
                    "running" => false,
                    v => return Err(format!("bad value '{}' for option 'start' (valid: running, paused)", shown(v))),
                }
            }
            "alloc-interval" => {
                let v = need(value)?;
                o.alloc_interval = v
                    .parse::<i32>()
                    .ok()
                    .filter(|n| *n >= 0)
                    .ok_or_else(|| format!("bad value '{}' for option 'alloc-interval' (valid: a byte count, 0 to 2147483647)", shown(&v)))?;
            }
            "perf-map" => {
                o.perf_map = match need(value)?.as_str() {
                    "on" => PerfMap::On,
                    "off" => PerfMap::Off,
                    "auto" => PerfMap::Auto,
                    v => return Err(format!("bad value '{}' for option 'perf-map' (valid: auto, on, off)", shown(v))),
                }
            }
            "quantum" => {
                o.quantum = match value {
                    None | Some("switch") | Some("on") => QuantumMode::Switch,
                    Some("tick") => QuantumMode::Tick,
                    Some("all") => QuantumMode::All,
                    Some("off") => QuantumMode::Off,
                    Some(v) => return Err(format!("bad value '{}' for option 'quantum' (valid: switch, all, tick, off)", shown(v))),
                }
            }
            "socket" => {
                o.socket = match need(value)?.as_str() {
                    "off" => Socket::Off,
                    p => Socket::Path(PathBuf::from(p)),
                }
            }
            "log" => {
                let v = need(value)?;
                o.log = Level::parse(&v).ok_or_else(|| format!("bad value '{}' for option 'log' (valid: error, warn, info, debug)", shown(&v)))?;
            }
            _ => {
                let names = option_names();
                let hint = hpm_reports::suggest::did_you_mean(key, names.iter().copied());
                return Err(format!("unknown option '{}'{hint} (valid: {})", shown(key), names.join(", ")));
            }
        }
        if key == "help" && value.is_some() {
            return Err("option 'help' takes no value".into());
        }
    }
    if o.sample_alloc.is_some() && o.alloc {
        return Err("options 'sample-alloc' and 'collect=alloc' both need HotSpot's one heap sampler: use one of them".into());
    }
    if calls_none {
        o.calls = false;
    }
    // The code map's JVMTI events cost HotSpot work at every compilation (an inlining record and
    // an address map per compiled method, and every recompilation after a retransformation
    // again); it feeds only code.txt and the perf map (sampling finds forms in the code cache).
    // Without exact trees, or with probes only where asked (calls=requested, the cheap way to
    // run a real server), it stays only where collect= or a perf map asks for it.
    if (calls_none || o.calls_via == CallsVia::Requested) && !collect_given && !o.perf_map.wanted() {
        o.code = false;
    }
    if o.perf_map == PerfMap::On && !o.code {
        return Err("option 'perf-map=on' needs the code map, which collect= leaves out: add code to it (e.g. collect=gc+code)".into());
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses() {
        let o = parse(Some("out=/tmp/x,collect=calls+alloc,include=com.acme.*,include=org.*,exclude=*Test,start=paused,log=debug")).unwrap();
        assert_eq!(o.out, Some(PathBuf::from("/tmp/x")));
        assert!(o.calls && o.alloc && !o.gc && !o.locks && !o.waits && !o.code);
        assert_eq!(o.include, vec![Glob::new("com.acme.*"), Glob::new("org.*")]);
        assert!(o.start_paused);
        assert_eq!(o.log, Level::Debug);
        assert_eq!(parse(None).unwrap(), Options::default());
        assert!(parse(Some("help")).unwrap().help);
        assert_eq!(parse(Some("socket=off")).unwrap().socket, Socket::Off);
        assert_eq!(parse(Some("socket=/run/x.sock")).unwrap().socket, Socket::Path("/run/x.sock".into()));
        assert_eq!(parse(None).unwrap().socket, Socket::Default);
        assert!(parse(None).unwrap().compensate);
        assert!(!parse(Some("compensate=off")).unwrap().compensate);
        assert!(parse(Some("compensate=maybe")).unwrap_err().contains("(valid: on, off)"));
        assert!(parse(None).unwrap().thread_field);
        assert!(!parse(None).unwrap().sample_lines && parse(Some("sample=cpu,sample-lines=on")).unwrap().sample_lines);
        assert!(!parse(Some("thread-field=off")).unwrap().thread_field);
        assert!(parse(Some("thread-field=yes")).unwrap_err().contains("bad value 'yes' for option 'thread-field' (valid: on, off)"));
        assert!(!parse(None).unwrap().skip_trivial);
        assert!(parse(Some("trivial=skip")).unwrap().skip_trivial);
        assert!(!parse(Some("trivial=probe")).unwrap().skip_trivial);
        assert!(parse(Some("trivial=off")).unwrap_err().contains("bad value 'off' for option 'trivial' (valid: probe, skip)"));
        assert_eq!(parse(None).unwrap().quantum, QuantumMode::Off);
        assert_eq!(parse(None).unwrap().calls_via, CallsVia::Probes);
        assert_eq!(parse(None).unwrap().metric_mode, MetricModeOption::Auto);
        assert_eq!(parse(Some("metric-mode=exact")).unwrap().metric_mode, MetricModeOption::Exact);
        let o = parse(Some("calls=none,sample=cpu,sample-interval=1ms")).unwrap();
        assert!(!o.calls && o.sample == SampleMode::Cpu && o.sample_interval_ns == 1_000_000 && o.gc);
        assert!(!o.code, "calls=none leaves the code map out by default");
        assert_eq!(parse(Some("sample-alloc=512k")).unwrap().sample_alloc, Some(512 * 1024));
        assert_eq!(parse(Some("sample-alloc=1M")).unwrap().sample_alloc, Some(1 << 20));
        assert_eq!(parse(Some("sample-alloc=4096")).unwrap().sample_alloc, Some(4096));
        assert_eq!(parse(None).unwrap().sample_alloc, None);
        for bad in ["0", "2g", "lots", "k"] {
            assert!(parse(Some(&format!("sample-alloc={bad}"))).unwrap_err().contains(&format!("bad value '{bad}' for option 'sample-alloc'")), "{bad}");
        }
        assert!(parse(Some("collect=calls+alloc,sample-alloc=1m")).unwrap_err().contains("one heap sampler"));
        assert!(parse(Some("calls=none,collect=gc+code")).unwrap().code, "unless collect= asks for it");
        assert!(parse(Some("calls=none,perf-map=on")).unwrap().code, "or a perf map is wanted");
        assert!(!parse(Some("calls=requested,sample=cpu")).unwrap().code, "calls=requested leaves the code map out too");
        assert!(parse(Some("calls=requested,collect=calls+code")).unwrap().code, "unless collect= asks for it");
        assert!(parse(Some("calls=probes")).unwrap().code, "exact trees everywhere keep it");
        let long = format!("sample={}", "x".repeat(200_000));
        let e = parse(Some(&long)).unwrap_err();
        assert!(e.len() < 200 && e.contains("xxxx… (200000 bytes)"), "{e}");
        let e = text_of(b"out=/tmp/\xffx").unwrap_err();
        assert_eq!(e, "the agent's options are not UTF-8 (byte 0xff at offset 9): give out= and socket= paths in UTF-8");
        assert_eq!(text_of("out=/tmp/é".as_bytes()).unwrap(), "out=/tmp/é");
        let e = parse(Some("sampel=cpu")).unwrap_err();
        assert!(e.starts_with("unknown option 'sampel' (did you mean `sample`?) (valid: "), "{e}");
        let e = parse(Some("calls=none,collect=gc,perf-map=on")).unwrap_err();
        assert!(e.contains("'perf-map=on' needs the code map") && e.contains("collect=gc+code"), "{e}");
        assert!(parse(Some("collect=gc+code,calls=none")).unwrap().code);
        assert_eq!(parse(Some("sample=wall")).unwrap().sample, SampleMode::Wall);
        assert_eq!(parse(Some("sample=cpu")).unwrap().sample_interval_ns, 10_000_000);
        assert_eq!(parse(Some("sample-interval=500us")).unwrap().sample_interval_ns, 500_000);
        assert!(parse(Some("sample-interval=10us")).unwrap_err().contains("at least 100us"));
        assert!(parse(Some("sample-interval=10")).unwrap_err().contains("bad value '10' for option 'sample-interval'"));
        assert!(parse(Some("sample=often")).unwrap_err().contains("(valid: cpu, wall, off)"));
        assert!(parse(Some("calls=all")).unwrap_err().contains("(valid: probes, requested, jvmti, none)"));
        assert_eq!(parse(Some("metric-mode=sampled")).unwrap().metric_mode, MetricModeOption::Sampled);
        assert!(parse(Some("metric-mode=fast")).unwrap_err().contains("(valid: auto, exact, sampled)"));
        assert_eq!(parse(Some("calls=jvmti")).unwrap().calls_via, CallsVia::Jvmti);
        let o = parse(Some("calls=requested,sample=cpu")).unwrap();
        assert!(o.calls && o.calls_via == CallsVia::Requested && o.sample == SampleMode::Cpu);
        assert_eq!(parse(Some("quantum")).unwrap().quantum, QuantumMode::Switch);
        assert_eq!(parse(Some("quantum=switch")).unwrap().quantum, QuantumMode::Switch);
        assert_eq!(parse(Some("quantum=tick")).unwrap().quantum, QuantumMode::Tick);
        assert_eq!(parse(Some("quantum=off")).unwrap().quantum, QuantumMode::Off);
        assert_eq!(parse(Some("quantum=all")).unwrap().quantum, QuantumMode::All);
        assert_eq!(parse(None).unwrap().perf_map, PerfMap::Auto);
        assert_eq!(parse(Some("perf-map=on")).unwrap().perf_map, PerfMap::On);
        assert!(parse(Some("perf-map=yes")).unwrap_err().contains("(valid: auto, on, off)"));
    }

    #[test]
    fn perf_record_is_recognised_from_the_parent_command_line() {
        assert!(is_perf_record(b"perf\0record\0-g\0java\0-cp\0x\0Main\0"));
        assert!(is_perf_record(b"/usr/bin/perf\0record\0--\0java\0"));
        assert!(!is_perf_record(b"perf\0stat\0java\0"));
        assert!(is_perf_record(b"perf\0mem\0record\0java\0"));
        assert!(!is_perf_record(b"perf\0stat\0java\0Main\0record\0"), "a program argument, not the subcommand");
        assert!(!is_perf_record(b"bash\0-c\0perf record\0"));
        assert!(!is_perf_record(b"cargo\0test\0"));
    }

    #[test]
    fn errors_are_one_line_naming_the_choices() {
        let e = parse(Some("out=a,bogus=1")).unwrap_err();
        assert_eq!(e, "unknown option 'bogus' (valid: out, collect, calls, sample, sample-alloc, sample-native, sample-kernel, sample-lines, sample-interval, include, exclude, event, metric-mode, compensate, trivial, thread-field, start, alloc-interval, perf-map, quantum, socket, log, help)");
        assert!(parse(Some("collect=calls+cpu")).unwrap_err().contains("bad value 'cpu' for option 'collect'"));
        assert!(parse(Some("start=later")).unwrap_err().contains("(valid: running, paused)"));
        assert!(parse(Some("out=")).unwrap_err().contains("needs a value"));
        assert!(!parse(Some("log=loud")).unwrap_err().contains('\n'));
        assert_eq!(parse(Some("calls=sometimes")).unwrap_err(), "bad value 'sometimes' for option 'calls' (valid: probes, requested, jvmti, none)");
        assert_eq!(parse(Some("quantum=often")).unwrap_err(), "bad value 'often' for option 'quantum' (valid: switch, all, tick, off)");
    }
}
