//! Reading quantum traces: every `quantum.vp*.trace` of a directory plus `quantum.meta`, parsed,
//! merged by start time and validated. Problems are [`Issue`]s naming the file and byte offset.

use std::collections::HashMap;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use super::{decode, format, Meta, BYTE_ORDER_MARK, HEADER_LEN, MAGIC, META_FILE, QUANTUM_FIXED_LEN, VERSION};

/// Kinds of marker record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MarkerKind {
    AppStart,
    AppComplete,
    RunStart,
    RunComplete,
    /// Free text.
    Note,
}

impl MarkerKind {
    pub fn format(self) -> u32 {
        match self {
            MarkerKind::AppStart => format::APP_START,
            MarkerKind::AppComplete => format::APP_COMPLETE,
            MarkerKind::RunStart => format::RUN_START,
            MarkerKind::RunComplete => format::RUN_COMPLETE,
            MarkerKind::Note => format::NOTE,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            MarkerKind::AppStart => "app-start",
            MarkerKind::AppComplete => "app-complete",
            MarkerKind::RunStart => "run-start",
            MarkerKind::RunComplete => "run-complete",
            MarkerKind::Note => "note",
        }
    }
}

/// One quantum record as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuantumRecord {
    /// Processor (from the file header).
    pub vp: u32,
    /// Byte offset of the record in its file.
    pub offset: u64,
    pub local_tid: u16,
    pub buffer_code: u8,
    pub thread_switch: bool,
    /// Global thread id (absolute value of the stored id).
    pub thread: u32,
    pub yielded: bool,
    pub start: u64,
    pub end: u64,
    pub callee: u32,
    pub caller: u32,
    pub deltas: Vec<u64>,
}

impl QuantumRecord {
    pub fn duration(&self) -> u64 {
        self.end.saturating_sub(self.start)
    }
}

/// A marker record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marker {
    pub vp: u32,
    pub offset: u64,
    pub local_tid: u16,
    pub kind: MarkerKind,
    pub time: u64,
    /// Run number (run start/complete only; 0 otherwise).
    pub run: u32,
    pub text: String,
}

/// One record of a trace file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    Quantum(QuantumRecord),
    Marker(Marker),
    Exit { vp: u32, offset: u64, time: u64, value: i32 },
}

impl Entry {
    /// The time the merge sorts by: a quantum's start, a marker's or exit's time.
    pub fn time(&self) -> u64 {
        match self {
            Entry::Quantum(q) => q.start,
            Entry::Marker(m) => m.time,
            Entry::Exit { time, .. } => *time,
        }
    }

    pub fn vp(&self) -> u32 {
        match self {
            Entry::Quantum(q) => q.vp,
            Entry::Marker(m) => m.vp,
            Entry::Exit { vp, .. } => *vp,
        }
    }

    pub fn offset(&self) -> u64 {
        match self {
            Entry::Quantum(q) => q.offset,
            Entry::Marker(m) => m.offset,
            Entry::Exit { offset, .. } => *offset,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Warning,
    Error,
}

/// A validation finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    pub severity: Severity,
    /// File name (no directory), e.g. `quantum.vp0.trace`.
    pub file: String,
    /// Byte offset in `file`, when the issue is about one place.
    pub offset: Option<u64>,
    pub message: String,
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        match self.offset {
            Some(o) => write!(f, "{sev}: {} at byte {o}: {}", self.file, self.message),
            None => write!(f, "{sev}: {}: {}", self.file, self.message),
        }
    }
}

/// One processor's file.
#[derive(Debug, Clone)]
pub struct VpTrace {
    pub vp: u32,
    pub path: PathBuf,
    pub file: String,
    pub counters: u32,
    pub entries: Vec<Entry>,
}

/// A directory of quantum traces.
#[derive(Debug, Clone)]
pub struct Trace {
    pub meta: Meta,
    pub vps: Vec<VpTrace>,
    /// All entries of all processors, sorted by time (ties: processor, then file order).
    pub merged: Vec<Entry>,
    pub issues: Vec<Issue>,
}

impl Trace {
    pub fn errors(&self) -> impl Iterator<Item = &Issue> {
        self.issues.iter().filter(|i| i.severity == Severity::Error)
    }

    pub fn is_valid(&self) -> bool {
        self.errors().next().is_none()
    }

    pub fn quanta(&self) -> impl Iterator<Item = &QuantumRecord> {
        self.merged.iter().filter_map(|e| match e {
            Entry::Quantum(q) => Some(q),
            _ => None,
        })
    }
}

fn u32_at(b: &[u8], o: usize) -> u32 {
    u32::from_le_bytes(b[o..o + 4].try_into().expect("4 bytes"))
}
fn u64_at(b: &[u8], o: usize) -> u64 {
    u64::from_le_bytes(b[o..o + 8].try_into().expect("8 bytes"))
}

/// Parses one trace file's bytes. Header problems are returned as `Err` (the file cannot be read
/// at all); record problems become issues and stop the parse of this file at that offset.
pub fn parse_file(bytes: &[u8], file: &str, path: PathBuf, issues: &mut Vec<Issue>) -> Result<VpTrace, String> {
    if bytes.len() < HEADER_LEN {
        return Err(format!("{file}: {} bytes, shorter than the {HEADER_LEN}-byte header", bytes.len()));
    }
    if bytes[0..8] != MAGIC {
        return Err(format!("{file}: not a quantum trace (bad magic at byte 0)"));
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != VERSION {
        return Err(format!("{file}: format version {version} at byte 8 is not supported (expected {VERSION})"));
    }
    if u16::from_le_bytes([bytes[10], bytes[11]]) != BYTE_ORDER_MARK {
        return Err(format!("{file}: byte-order mark at byte 10 is {:02x} {:02x}, expected 02 01 (little-endian)", bytes[10], bytes[11]));
    }
    let vp = u32_at(bytes, 12);
    let counters = u32_at(bytes, 16);
    if counters as usize > super::MAX_COUNTERS {
        return Err(format!("{file}: counter count {counters} at byte 16 exceeds {}", super::MAX_COUNTERS));
    }
    let mut entries = Vec::new();
    let mut o = HEADER_LEN;
    let err = |issues: &mut Vec<Issue>, off: usize, msg: String| {
        issues.push(Issue { severity: Severity::Error, file: file.to_string(), offset: Some(off as u64), message: msg })
    };
    let mut saw_exit = false;
    while o < bytes.len() {
        let rest = bytes.len() - o;
        if rest < 4 {
            err(issues, o, format!("truncated record: {rest} byte(s) left, not even an encoding word"));
            break;
        }
        let (local_tid, buffer_code, thread_switch, evp, fmt) = decode(u32_at(bytes, o));
        if fmt != format::PADDING && evp != (vp & 0x3ff) {
            err(issues, o, format!("encoding word says processor {evp}, the header says {vp}"));
        }
        let need = |n: usize| rest >= n;
        match fmt {
            format::QUANTUM => {
                let len = QUANTUM_FIXED_LEN + 8 * counters as usize;
                if !need(len) {
                    err(issues, o, format!("truncated quantum record: {rest} of {len} bytes"));
                    break;
                }
                let gid = u32_at(bytes, o + 4) as i32;
                let start = u64_at(bytes, o + 8);
                let end = u64_at(bytes, o + 16);
                let deltas = (0..counters as usize).map(|i| u64_at(bytes, o + 32 + 8 * i)).collect();
                entries.push(Entry::Quantum(QuantumRecord {
                    vp,
                    offset: o as u64,
                    local_tid,
                    buffer_code,
                    thread_switch,
                    thread: gid.unsigned_abs(),
                    yielded: gid < 0,
                    start,
                    end,
                    callee: u32_at(bytes, o + 24),
                    caller: u32_at(bytes, o + 28),
                    deltas,
                }));
                o += len;
            }
            format::APP_START | format::APP_COMPLETE | format::RUN_START | format::RUN_COMPLETE | format::NOTE => {
                let with_run = matches!(fmt, format::RUN_START | format::RUN_COMPLETE);
                let fixed = if with_run { 20 } else { 16 };
                if !need(fixed) {
                    err(issues, o, format!("truncated marker record: {rest} of at least {fixed} bytes"));
                    break;
                }
                let time = u64_at(bytes, o + 4);
                let run = if with_run { u32_at(bytes, o + 12) } else { 0 };
                let len = u32_at(bytes, o + fixed - 4) as usize;
                if rest - fixed < len {
                    err(issues, o, format!("truncated marker record: its text needs {len} bytes, {} left", rest - fixed));
                    break;
                }
                let text = String::from_utf8_lossy(&bytes[o + fixed..o + fixed + len]).into_owned();
                let kind = match fmt {
                    format::APP_START => MarkerKind::AppStart,
                    format::APP_COMPLETE => MarkerKind::AppComplete,
                    format::RUN_START => MarkerKind::RunStart,
                    format::NOTE => MarkerKind::Note,
                    _ => MarkerKind::RunComplete,
                };
                entries.push(Entry::Marker(Marker { vp, offset: o as u64, local_tid, kind, time, run, text }));
                o += fixed + len;
            }
            format::EXIT => {
                if !need(16) {
                    err(issues, o, format!("truncated exit record: {rest} of 16 bytes"));
                    break;
                }
                entries.push(Entry::Exit { vp, offset: o as u64, time: u64_at(bytes, o + 4), value: u32_at(bytes, o + 12) as i32 });
                saw_exit = true;
                o += 16;
            }
            format::PADDING => {
                if !need(8) {
                    err(issues, o, format!("truncated padding record: {rest} of 8 bytes"));
                    break;
                }
                let len = u32_at(bytes, o + 4) as usize;
                if rest - 8 < len {
                    err(issues, o, format!("truncated padding record: {len} padding bytes, {} left", rest - 8));
                    break;
                }
                o += 8 + len;
            }
            other => {
                err(issues, o, format!("unknown record format {other} (encoding word {:#010x})", u32_at(bytes, o)));
                break;
            }
        }
    }
    if !saw_exit && !issues.iter().any(|i| i.file == file && i.severity == Severity::Error) {
        issues.push(Issue {
            severity: Severity::Warning,
            file: file.to_string(),
            offset: Some(bytes.len() as u64),
            message: "no exit record: the writer did not finish (the VM may have crashed)".into(),
        });
    }
    Ok(VpTrace { vp, path, file: file.to_string(), counters, entries })
}

/// Checks one processor's records: end ≥ start, and each record starts no earlier than the
/// previous one ended.
fn check_vp(t: &VpTrace, issues: &mut Vec<Issue>) {
    let mut prev: Option<(u64, u64)> = None; // (end, offset)
    for e in &t.entries {
        if let Entry::Quantum(q) = e {
            if q.end < q.start {
                issues.push(Issue {
                    severity: Severity::Error,
                    file: t.file.clone(),
                    offset: Some(q.offset),
                    message: format!("record of thread {} ends at {} before it starts at {}", q.thread, q.end, q.start),
                });
            }
            if let Some((pe, po)) = prev {
                if q.start < pe {
                    issues.push(Issue {
                        severity: Severity::Error,
                        file: t.file.clone(),
                        offset: Some(q.offset),
                        message: format!(
                            "times not monotonic: record of thread {} starts at {} before the previous record (byte {po}) ended at {pe}",
                            q.thread, q.start
                        ),
                    });
                }
            }
            prev = Some((q.end.max(q.start), q.offset));
        }
    }
}

/// Checks that no thread ran on two processors at overlapping times.
fn check_threads(vps: &[VpTrace], issues: &mut Vec<Issue>) {
    let mut qs: Vec<(&QuantumRecord, &str)> = Vec::new();
    for t in vps {
        for e in &t.entries {
            if let Entry::Quantum(q) = e {
                qs.push((q, &t.file));
            }
        }
    }
    qs.sort_by_key(|(q, _)| (q.start, q.vp, q.offset));
    let mut last: HashMap<u32, (&QuantumRecord, &str)> = HashMap::new();
    for (q, file) in qs {
        if let Some((p, pfile)) = last.get(&q.thread) {
            if p.vp != q.vp && q.start < p.end {
                issues.push(Issue {
                    severity: Severity::Error,
                    file: file.to_string(),
                    offset: Some(q.offset),
                    message: format!(
                        "thread {} on processor {} from {} while it runs on processor {} until {} ({pfile} at byte {})",
                        q.thread, q.vp, q.start, p.vp, p.end, p.offset
                    ),
                });
            }
            if q.end <= p.end {
                continue; // keep the record that ends last
            }
        }
        last.insert(q.thread, (q, file));
    }
}

/// Reads and validates a directory: `quantum.meta` and every `quantum.vp<N>.trace`. `Err` when the
/// directory, the meta file or a file header cannot be read; record-level problems are issues.
pub fn read_dir(dir: &Path) -> io::Result<Trace> {
    let bad = |m: String| io::Error::new(io::ErrorKind::InvalidData, m);
    let meta_path = dir.join(META_FILE);
    let meta_text = std::fs::read_to_string(&meta_path).map_err(|e| io::Error::new(e.kind(), format!("cannot read {}: {e}", meta_path.display())))?;
    let meta = Meta::parse(&meta_text).map_err(|m| bad(format!("{}: {m}", meta_path.display())))?;
    let mut files: Vec<(u32, PathBuf, String)> = Vec::new();
    for e in std::fs::read_dir(dir).map_err(|e| io::Error::new(e.kind(), format!("cannot list {}: {e}", dir.display())))? {
        let e = e?;
        let name = e.file_name().to_string_lossy().into_owned();
        if let Some(n) = name.strip_prefix("quantum.vp").and_then(|r| r.strip_suffix(".trace")) {
            if let Ok(n) = n.parse::<u32>() {
                files.push((n, e.path(), name));
            }
        }
    }
    if files.is_empty() {
        return Err(bad(format!("{}: no quantum.vp<N>.trace files", dir.display())));
    }
    files.sort();
    let mut issues = Vec::new();
    let mut vps = Vec::new();
    for (n, path, name) in files {
        let bytes = std::fs::read(&path).map_err(|e| io::Error::new(e.kind(), format!("cannot read {}: {e}", path.display())))?;
        let t = parse_file(&bytes, &name, path.clone(), &mut issues).map_err(bad)?;
        if t.vp != n {
            issues.push(Issue { severity: Severity::Error, file: name.clone(), offset: Some(12), message: format!("header says processor {}, the file name {n}", t.vp) });
        }
        if t.counters as usize != meta.delta_count() {
            return Err(bad(format!("{name}: header has {} counter(s) at byte 16, {META_FILE} names {}", t.counters, meta.delta_count())));
        }
        check_vp(&t, &mut issues);
        vps.push(t);
    }
    check_threads(&vps, &mut issues);
    let mut unknown: Vec<u32> = vps
        .iter()
        .flat_map(|t| t.entries.iter())
        .filter_map(|e| match e {
            Entry::Quantum(q) if meta.thread(q.thread).is_none() => Some(q.thread),
            _ => None,
        })
        .collect();
    unknown.sort_unstable();
    unknown.dedup();
    if !unknown.is_empty() {
        let ids: Vec<String> = unknown.iter().map(u32::to_string).collect();
        issues.push(Issue { severity: Severity::Warning, file: META_FILE.into(), offset: None, message: format!("thread id(s) {} are not named", ids.join(", ")) });
    }
    for (vp, n) in &meta.missed {
        if *n > 0 {
            issues.push(Issue {
                severity: Severity::Warning,
                file: META_FILE.into(),
                offset: None,
                message: format!("processor {vp}: {n} record(s) missed (both buffers full, or lost when the file could not be written)"),
            });
        }
    }
    let mut merged: Vec<Entry> = vps.iter().flat_map(|t| t.entries.iter().cloned()).collect();
    merged.sort_by_key(|e| (e.time(), e.vp(), e.offset()));
    Ok(Trace { meta, vps, merged, issues })
}
