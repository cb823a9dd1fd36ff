//! Quantum traces (Sweeney et al. 2004): one record per scheduling quantum with the counter deltas of exactly
//! one Java thread on one (virtual) processor, plus marker records. The byte layout is documented in
//! `docs/quantum-trace.md`; this module is its only definition in code.
//!
//! - [`writer`]: [`QuantumWriter`] (per processor, two 64 KiB buffers, never blocks) and the
//!   trace-writer loop that drains full buffers into a file ([`BufferSink`]).
//! - [`Meta`]: the `quantum.meta` text file (counter names, thread and method names, missed records).
//! - [`reader`]: parses a directory of traces, merges processors by time and validates them.
//!
//! The tracers that make records while a VM runs, and the files they write, are in
//! `hpm_collectors::quantum`.
//!
//! Nothing here assumes the research VM: a "processor" is whatever runs one thread at a time (a Jikes
//! virtual processor, or a CPU for OS threads).

pub mod reader;
pub mod writer;

use std::fmt::Write as _;

pub use reader::{read_dir, trace_files, Deltas, Entry, Issue, Marker, MarkerKind, QuantumRecord, Scan, Scanned, Severity, Trace, VpTrace};
pub use writer::{trace_file_name, BufferSink, Quantum, QuantumWriter, WriterStats};

/// The first 8 bytes of every trace file.
pub const MAGIC: [u8; 8] = *b"HPMQUANT";
/// The newest file format version, which this code reads and writes: version 2 adds the reason
/// records ([`format::REASON`]). A writer that records no reasons writes version 1, which the
/// reader reads too ([`VERSION_1`]).
pub const VERSION: u16 = 2;
/// The first version: no reason records.
pub const VERSION_1: u16 = 1;
/// The version of the `quantum.meta` file (unchanged by file format version 2).
pub const META_VERSION: u16 = 1;
/// Written as a little-endian u16: the bytes `02 01` on disk.
pub const BYTE_ORDER_MARK: u16 = 0x0102;
/// Size of the file header in bytes.
pub const HEADER_LEN: usize = 32;
/// Size of one trace buffer. Jikes RVM used 4 KiB; at 80,000 switches a second that hands a buffer
/// to the trace writer (a thread wake-up and a write) 400 times a second, and those cost the host
/// more than the records (`bench/rvm-switch-cost.sh`: 5 ms of system time on a 0.36 s run, 1.5%).
/// At 64 KiB the writer runs 16 times less often, for 128 KiB per processor.
pub const BUFFER_LEN: usize = 64 << 10;
/// Largest marker record (its text is cut to fit): markers are labels, not data.
pub const MARKER_LEN_MAX: usize = 4096;
/// Largest number of counter deltas in one record (so that a record always fits a buffer).
pub const MAX_COUNTERS: usize = 64;
/// Size of a quantum record without its counter deltas.
pub const QUANTUM_FIXED_LEN: usize = 32;
/// Name of the meta file.
pub const META_FILE: &str = "quantum.meta";

/// Record formats (the low 4 bits of the encoding word).
pub mod format {
    pub const QUANTUM: u32 = 1;
    pub const APP_START: u32 = 2;
    pub const APP_COMPLETE: u32 = 3;
    pub const RUN_START: u32 = 4;
    pub const RUN_COMPLETE: u32 = 5;
    pub const EXIT: u32 = 6;
    /// Free text placed by the program (an extension of the Jikes formats; same layout as 2 and 3).
    pub const NOTE: u32 = 7;
    /// Why the quantum record just before it ended (version 2): encoding word and a [`super::reason`]
    /// code, 8 bytes.
    pub const REASON: u32 = 8;
    pub const PADDING: u32 = 10;
}

/// Builds the encoding word: `(local_tid << 16) + (buffer_code << 15) + (thread_switch << 14) +
/// ((vp & 0x3ff) << 4) + format`.
pub fn encode(local_tid: u16, buffer_code: u8, thread_switch: bool, vp: u32, format: u32) -> u32 {
    ((local_tid as u32) << 16) | (((buffer_code & 1) as u32) << 15) | ((thread_switch as u32) << 14) | ((vp & 0x3ff) << 4) | (format & 0xf)
}

/// The fields of an encoding word: (local_tid, buffer_code, thread_switch, vp & 0x3ff, format).
pub fn decode(word: u32) -> (u16, u8, bool, u32, u32) {
    ((word >> 16) as u16, ((word >> 15) & 1) as u8, (word >> 14) & 1 == 1, (word >> 4) & 0x3ff, word & 0xf)
}

/// Why a quantum ended: the codes of the reason records ([`format::REASON`]). The research VM's
/// switch reasons (`rvm_abi::switch_reason`) have the same codes (its `PREEMPTED` is `NONE`).
pub mod reason {
    /// No reason given (a record without a reason record).
    pub const NONE: u8 = 0;
    pub const YIELD: u8 = 1;
    pub const SLEEP: u8 = 2;
    pub const WAIT: u8 = 3;
    pub const MONITOR: u8 = 4;
    pub const PARK: u8 = 5;
    pub const UNPARK: u8 = 6;
    pub const END: u8 = 7;
    pub const VM: u8 = 8;
    pub const GC: u8 = 9;
    /// Names by code (`NAMES[code]`), as `hpm trace` prints them; index 0 is a preempted or
    /// unexplained quantum.
    pub const NAMES: [&str; 10] = ["preempted", "yield", "sleep", "wait", "monitor", "park", "unpark", "end", "vm", "gc"];

    /// The name of code `r` (`reason-N` for a code this version does not know).
    pub fn name(r: u8) -> std::borrow::Cow<'static, str> {
        match NAMES.get(r as usize) {
            Some(n) => (*n).into(),
            None => format!("reason-{r}").into(),
        }
    }
}

/// The 32-byte file header of the newest version.
pub fn header(vp: u32, counters: u32) -> [u8; HEADER_LEN] {
    header_of(VERSION, vp, counters)
}

/// The 32-byte file header of format version `version`.
pub fn header_of(version: u16, vp: u32, counters: u32) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[0..8].copy_from_slice(&MAGIC);
    h[8..10].copy_from_slice(&version.to_le_bytes());
    h[10..12].copy_from_slice(&BYTE_ORDER_MARK.to_le_bytes());
    h[12..16].copy_from_slice(&vp.to_le_bytes());
    h[16..20].copy_from_slice(&counters.to_le_bytes());
    h[20..24].copy_from_slice(&(format::QUANTUM).to_le_bytes());
    h
}

/// What kind of thread a thread id stands for (the reports group and filter by it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ThreadKind {
    /// An application thread.
    App,
    /// A garbage-collector thread: its records are GC records.
    Collector,
    /// A processor's idle thread.
    Idle,
    /// A trace-writer thread.
    Writer,
    /// Any other VM thread (controller, finalizer, …).
    System,
    /// A JIT compiler thread (HotSpot's C1 and C2 compiler threads).
    Jit,
}

impl ThreadKind {
    pub fn name(self) -> &'static str {
        match self {
            ThreadKind::App => "app",
            ThreadKind::Collector => "collector",
            ThreadKind::Idle => "idle",
            ThreadKind::Writer => "writer",
            ThreadKind::System => "system",
            ThreadKind::Jit => "jit",
        }
    }

    pub fn parse(s: &str) -> Option<ThreadKind> {
        [ThreadKind::App, ThreadKind::Collector, ThreadKind::Idle, ThreadKind::Writer, ThreadKind::System, ThreadKind::Jit].into_iter().find(|k| k.name() == s)
    }
}

/// A thread in the meta file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadInfo {
    pub id: u32,
    pub kind: ThreadKind,
    pub name: String,
}

/// A method in the meta file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodInfo {
    pub id: u32,
    pub class: String,
    pub name: String,
    pub descriptor: String,
}

/// The contents of `quantum.meta`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Meta {
    /// Counter names: index 0 is real time (the record's `end − start`, not stored as a delta);
    /// index i ≥ 1 is the record's delta i−1.
    pub counters: Vec<String>,
    /// What one unit of the time base is, e.g. `ns`.
    pub time_unit: String,
    /// What a processor is: `vp` (a virtual processor, the default, written as nothing), `cpu`
    /// (a CPU, for traces of OS threads) or `carrier` (a carrier thread, for traces of virtual
    /// threads).
    pub processor_kind: String,
    /// Names of processors, where they have one (a carrier thread's): (processor, name).
    pub processors: Vec<(u32, String)>,
    pub threads: Vec<ThreadInfo>,
    pub methods: Vec<MethodInfo>,
    /// (processor, records missed because both of its buffers were full).
    pub missed: Vec<(u32, u64)>,
}

fn clean(s: &str) -> String {
    s.replace(['\t', '\n', '\r'], " ")
}

impl Meta {
    /// Number of counter deltas in each quantum record (`counters.len() − 1`).
    pub fn delta_count(&self) -> usize {
        self.counters.len().saturating_sub(1)
    }

    pub fn thread(&self, id: u32) -> Option<&ThreadInfo> {
        self.threads.iter().find(|t| t.id == id)
    }

    pub fn method(&self, id: u32) -> Option<&MethodInfo> {
        self.methods.iter().find(|m| m.id == id)
    }

    /// The text of the meta file (see `docs/quantum-trace.md`).
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "hpm-quantum-meta\t{META_VERSION}");
        let _ = writeln!(s, "byte-order\tlittle");
        let _ = writeln!(s, "time-unit\t{}", clean(if self.time_unit.is_empty() { "ns" } else { &self.time_unit }));
        if !self.processor_kind.is_empty() {
            let _ = writeln!(s, "processor-kind\t{}", clean(&self.processor_kind));
        }
        for (p, name) in &self.processors {
            let _ = writeln!(s, "processor\t{p}\t{}", clean(name));
        }
        let _ = writeln!(s, "counters\t{}", self.delta_count());
        for (i, c) in self.counters.iter().enumerate() {
            let _ = writeln!(s, "counter\t{i}\t{}", clean(c));
        }
        for t in &self.threads {
            let _ = writeln!(s, "thread\t{}\t{}\t{}", t.id, t.kind.name(), clean(&t.name));
        }
        for m in &self.methods {
            let _ = writeln!(s, "method\t{}\t{}\t{}\t{}", m.id, clean(&m.class), clean(&m.name), clean(&m.descriptor));
        }
        for (vp, n) in &self.missed {
            let _ = writeln!(s, "missed\t{vp}\t{n}");
        }
        s
    }

    /// Parses the meta file text; errors name the line.
    pub fn parse(text: &str) -> Result<Meta, String> {
        let mut meta = Meta::default();
        let mut declared: Option<usize> = None;
        let mut lines = text.lines().enumerate();
        match lines.next() {
            Some((_, l)) if l.split('\t').next() == Some("hpm-quantum-meta") => {
                let v = l.split('\t').nth(1).unwrap_or("");
                if v != META_VERSION.to_string() {
                    return Err(format!("line 1: meta version `{v}` is not supported (expected {META_VERSION})"));
                }
            }
            _ => return Err("line 1: not a quantum meta file (expected `hpm-quantum-meta<TAB>1`)".into()),
        }
        for (i, line) in lines {
            let n = i + 1;
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            let num = |k: usize| -> Result<u64, String> {
                f.get(k).and_then(|v| v.parse::<u64>().ok()).ok_or_else(|| format!("line {n}: field {} of `{}` is not a number", k + 1, f[0]))
            };
            let need = |k: usize| -> Result<(), String> {
                if f.len() < k {
                    Err(format!("line {n}: `{}` needs {} tab-separated fields, found {}", f[0], k, f.len()))
                } else {
                    Ok(())
                }
            };
            match f[0] {
                "byte-order" if f.get(1) != Some(&"little") => {
                    return Err(format!("line {n}: byte order `{}` is not supported (only `little`)", f.get(1).unwrap_or(&"")));
                }
                "time-unit" => meta.time_unit = f.get(1).unwrap_or(&"").to_string(),
                "processor-kind" => meta.processor_kind = f.get(1).unwrap_or(&"").to_string(),
                "processor" => {
                    need(3)?;
                    meta.processors.push((num(1)? as u32, f[2..].join(" ")));
                }
                "counters" => declared = Some(num(1)? as usize),
                "counter" => {
                    need(3)?;
                    let idx = num(1)? as usize;
                    if idx != meta.counters.len() {
                        return Err(format!("line {n}: counter index {idx} out of order (expected {})", meta.counters.len()));
                    }
                    meta.counters.push(f[2].to_string());
                }
                "thread" => {
                    need(4)?;
                    let kind = ThreadKind::parse(f[2]).ok_or_else(|| format!("line {n}: unknown thread kind `{}`", f[2]))?;
                    meta.threads.push(ThreadInfo { id: num(1)? as u32, kind, name: f[3..].join(" ") });
                }
                "method" => {
                    need(5)?;
                    meta.methods.push(MethodInfo { id: num(1)? as u32, class: f[2].into(), name: f[3].into(), descriptor: f[4].into() });
                }
                "missed" => {
                    need(3)?;
                    meta.missed.push((num(1)? as u32, num(2)?));
                }
                _ => {} // unknown keys are ignored: later versions may add lines
            }
        }
        if let Some(d) = declared {
            if d + 1 != meta.counters.len() {
                return Err(format!("`counters {d}` declares {d} deltas but {} counter lines (index 0 = real time) follow", meta.counters.len()));
            }
        } else {
            return Err("no `counters` line".into());
        }
        Ok(meta)
    }
}
