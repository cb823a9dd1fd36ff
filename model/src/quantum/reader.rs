//! Reading quantum traces: every `quantum.vp*.trace` of a directory plus `quantum.meta`, parsed,
//! merged by start time and validated. Problems are [`Issue`]s naming the file and byte offset.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use rustc_hash::{FxHashMap, FxHashSet};

use super::{decode, format, reason, Meta, BYTE_ORDER_MARK, HEADER_LEN, MAGIC, META_FILE, QUANTUM_FIXED_LEN, VERSION, VERSION_1};
use super::writer::REASON_LEN;

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
    /// The kind of a marker record's format (also the `kind` of `hpmagent.Trace.mark0`).
    pub fn from_format(format: u32) -> Option<MarkerKind> {
        [MarkerKind::AppStart, MarkerKind::AppComplete, MarkerKind::RunStart, MarkerKind::RunComplete, MarkerKind::Note].into_iter().find(|k| k.format() == format)
    }

    pub fn format(self) -> u32 {
        match self {
            MarkerKind::AppStart => format::APP_START,
            MarkerKind::AppComplete => format::APP_COMPLETE,
            MarkerKind::RunStart => format::RUN_START,
            MarkerKind::RunComplete => format::RUN_COMPLETE,
            MarkerKind::Note => format::NOTE,
        }
    }

    /// Whether the record carries a run number (after its time).
    pub fn has_run(self) -> bool {
        matches!(self, MarkerKind::RunStart | MarkerKind::RunComplete)
    }

    /// Bytes before the record's text: encoding word, time, the run number if it has one, and
    /// the text length (the last four of them).
    pub fn fixed_len(self) -> usize {
        if self.has_run() {
            20
        } else {
            16
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
    pub deltas: Deltas,
}

/// A record's counter deltas: inline up to three (`cpu-time` and two events), on the heap beyond.
pub type Deltas = smallvec::SmallVec<[u64; 3]>;

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
    /// Run number (run start/complete only; 0 otherwise): the Java `int` given to
    /// `hpmagent.Trace.runStart`/`runComplete`, so signed.
    pub run: i32,
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
    /// Every entry as (index in `vps`, index in its entries), sorted by time (ties: processor,
    /// then file order): [`Trace::merged`]. Indices rather than copies: a trace has millions of
    /// records.
    order: Vec<(u32, u32)>,
    pub issues: Vec<Issue>,
    /// Why quanta ended (version 2's reason records): (processor, record offset, reason code),
    /// sorted, for the records that have one ([`Trace::reason`]).
    reasons: Vec<(u32, u64, u8)>,
}

impl Trace {
    pub fn new(meta: Meta, vps: Vec<VpTrace>, issues: Vec<Issue>) -> Trace {
        // Each file is nearly in time order already (a marker is written during the quantum whose
        // record follows it), so: each file's entries in (time, file order), sorted only if they
        // are not already, then the files merged by (time, processor, file). The same order as one
        // stable sort of everything by (time, processor), at a fraction of its cost. A file in
        // order (the usual case) costs no key vector: its entries are their own order.
        let per_file: Vec<Option<Vec<u32>>> = vps
            .iter()
            .map(|t| {
                if t.entries.windows(2).all(|w| w[0].time() <= w[1].time()) {
                    return None;
                }
                let mut keyed: Vec<(u64, u32)> = t.entries.iter().enumerate().map(|(i, e)| (e.time(), i as u32)).collect();
                keyed.sort_unstable();
                Some(keyed.into_iter().map(|(_, i)| i).collect())
            })
            .collect();
        // The index in its file's entries of the `at`-th entry of the file's order.
        let index = |v: usize, at: usize| per_file[v].as_ref().map_or(at as u32, |o| o[at]);
        let order: Vec<(u32, u32)> = if vps.len() == 1 {
            (0..vps[0].entries.len()).map(|at| (0, index(0, at))).collect()
        } else {
            let key = |v: usize, at: usize| (at < vps[v].entries.len()).then(|| (vps[v].entries[index(v, at) as usize].time(), vps[v].vp, v));
            let mut order = Vec::with_capacity(vps.iter().map(|t| t.entries.len()).sum());
            // Each file's next entry: ((time, processor, file), its position in the file's order).
            type Head = std::cmp::Reverse<((u64, u32, usize), usize)>;
            let mut heads: std::collections::BinaryHeap<Head> = (0..vps.len()).filter_map(|v| key(v, 0).map(|k| std::cmp::Reverse((k, 0)))).collect();
            while let Some(std::cmp::Reverse(((_, _, v), at))) = heads.pop() {
                order.push((v as u32, index(v, at)));
                if let Some(k) = key(v, at + 1) {
                    heads.push(std::cmp::Reverse((k, at + 1)));
                }
            }
            order
        };
        Trace { meta, vps, order, issues, reasons: Vec::new() }
    }

    /// All entries of all processors, sorted by time (ties: processor, then file order).
    /// The trace with the reasons of its quanta: (processor, record offset, [`reason`] code).
    pub fn with_reasons(mut self, mut reasons: Vec<(u32, u64, u8)>) -> Trace {
        reasons.sort_unstable();
        self.reasons = reasons;
        self
    }

    /// Why quantum record `q` ended: a [`reason`] code, [`reason::NONE`] when its file says
    /// nothing (version 1, or a quantum the writer gave no reason for).
    pub fn reason(&self, q: &QuantumRecord) -> u8 {
        match self.reasons.binary_search_by(|&(vp, o, _)| (vp, o).cmp(&(q.vp, q.offset))) {
            Ok(i) => self.reasons[i].2,
            Err(_) => reason::NONE,
        }
    }

    pub fn merged(&self) -> impl DoubleEndedIterator<Item = &Entry> + ExactSizeIterator + Clone {
        self.order.iter().map(|&(v, i)| &self.vps[v as usize].entries[i as usize])
    }

    pub fn errors(&self) -> impl Iterator<Item = &Issue> {
        self.issues.iter().filter(|i| i.severity == Severity::Error)
    }

    pub fn is_valid(&self) -> bool {
        self.errors().next().is_none()
    }

    pub fn quanta(&self) -> impl Iterator<Item = &QuantumRecord> {
        self.merged().filter_map(|e| match e {
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
    parse(Window::new(bytes, bytes.len()), file, path, issues, false).map(|(t, _)| t)
}

/// [`parse_file`], with the reasons of its quanta: (record offset, [`reason`] code) for each
/// quantum followed by a reason record.
pub fn parse_file_with_reasons(bytes: &[u8], file: &str, path: PathBuf, issues: &mut Vec<Issue>) -> Result<(VpTrace, Vec<(u64, u8)>), String> {
    parse(Window::new(bytes, bytes.len()), file, path, issues, false)
}

/// Parses the temporary file that a run which did not finish left behind (the agent writes
/// `.quantum.vp<N>.trace.<pid>.tmp` and renames it at the end). Its complete buffers are kept; a
/// last buffer cut off by the end of the file is dropped; both are said in one warning.
///
/// Buffers are told apart by the buffer code of their records, which alternates from buffer to
/// buffer. A record cut short belongs to the last buffer when its code (if readable) is that
/// buffer's, else it starts a new buffer.
pub fn parse_temporary_file(bytes: &[u8], file: &str, path: PathBuf, issues: &mut Vec<Issue>) -> Result<VpTrace, String> {
    parse(Window::new(bytes, bytes.len()), file, path, issues, true).map(|(t, _)| t)
}

/// A trace file read front to back through a buffer of a few chunks, so that parsing needs no
/// copy of the whole file: a fresh buffer the size of the file costs a page fault per 4 KiB,
/// more than the parse itself (2 ms of the 10 the agent's page took at exit for a 1.2 MB trace).
struct Window<R> {
    source: R,
    /// The file's length when it was opened: what is read of it, as a whole-file read would.
    len: usize,
    /// The bytes from file offset `at` on.
    buf: Vec<u8>,
    at: usize,
    /// How much it reads at a time.
    chunk: usize,
}

impl<R: io::Read> Window<R> {
    fn new(source: R, len: usize) -> Window<R> {
        Window { source, len, buf: Vec::new(), at: 0, chunk: 64 << 10 }
    }

    /// Bytes left from offset `o` to the end of the file.
    fn rest(&self, o: usize) -> usize {
        self.len.saturating_sub(o)
    }

    /// The `n` bytes from offset `o` on, or all that are left when fewer; `o` never goes back
    /// before an offset already asked for. Bytes before `o` are let go.
    #[inline(always)]
    fn get(&mut self, o: usize, n: usize) -> io::Result<&[u8]> {
        // Mostly the bytes are in the buffer already (a record is a few dozen bytes of a chunk).
        let from = o - self.at;
        if from + n <= self.buf.len() {
            return Ok(&self.buf[from..from + n]);
        }
        self.fill(o, n)
    }

    /// The `n` bytes from offset `o` on when they are buffered already and within the file.
    #[inline(always)]
    fn buffered(&self, o: usize, n: usize) -> Option<&[u8]> {
        let from = o.checked_sub(self.at)?;
        (o + n <= self.len).then(|| self.buf.get(from..from + n)).flatten()
    }

    #[inline(never)]
    fn fill(&mut self, o: usize, n: usize) -> io::Result<&[u8]> {
        let n = n.min(self.rest(o));
        if o - self.at >= self.chunk {
            // Past the buffered bytes (a padding record skipped): read past the gap too.
            let gap = (o - self.at).saturating_sub(self.buf.len());
            self.buf.drain(..(o - self.at).min(self.buf.len()));
            let skipped = io::copy(&mut <&mut R as io::Read>::take(&mut self.source, gap as u64), &mut io::sink())? as usize;
            if skipped < gap {
                self.len = o - (gap - skipped);
            }
            self.at = o;
        }
        let want = o - self.at + n;
        if self.buf.len() < want {
            let old = self.buf.len();
            let upto = (old + self.chunk).max(want).min(self.len.saturating_sub(self.at));
            // Into the buffer's spare capacity (read_to_end neither zeroes it first nor stops at
            // a short read).
            self.buf.reserve(upto - old);
            io::Read::read_to_end(&mut <&mut R as io::Read>::take(&mut self.source, (upto - old) as u64), &mut self.buf)?;
            // A file cut shorter while it was read ends where the reading did.
            if self.buf.len() < upto {
                self.len = self.at + self.buf.len();
            }
        }
        let from = (o - self.at).min(self.buf.len());
        let to = (o - self.at + n).min(self.buf.len());
        Ok(&self.buf[from..to])
    }
}

/// One trace file read a record at a time: the header checked at [`Records::open`], then
/// [`Records::next`] until `None`, then [`Records::finish`]. Record problems become issues and
/// end the file at that offset; `Err` is a file that cannot be read at all.
struct Records<R> {
    w: Window<R>,
    file: String,
    vp: u32,
    counters: u32,
    /// The file's format version (2: quantum records may be followed by a reason record).
    version: u16,
    /// Offset of the next record.
    o: usize,
    saw_exit: bool,
    /// Reading the temporary file of a run that did not finish: a record cut short by the end of
    /// the file ends it quietly, and its buffer is dropped (`finish`).
    recover: bool,
    /// Buffers seen (records of one buffer share a buffer code), and where the last one starts
    /// with its code.
    buffers: usize,
    last_buffer: Option<(usize, u8)>,
    /// When recovering: the offset of a record cut short by the end of the file.
    cut: Option<usize>,
    done: bool,
    /// The quantum record read last ([`Item::Quantum`]): filled in place, not moved per record.
    quantum: QuantumRecord,
    /// Its reason record's code ([`reason::NONE`]: none).
    reason: u8,
}

/// What [`Records::next`] read.
enum Item {
    /// A quantum record, in [`Records::quantum`].
    Quantum,
    /// A marker or the exit record.
    Other(Entry),
}

impl<R: io::Read> Records<R> {
    fn open(mut w: Window<R>, file: &str, recover: bool) -> Result<Records<R>, String> {
        let cannot_read = |e: io::Error| format!("{file}: cannot read: {e}");
        let bytes = w.get(0, HEADER_LEN).map_err(cannot_read)?;
        if bytes.len() < HEADER_LEN {
            return Err(format!("{file}: {} bytes, shorter than the {HEADER_LEN}-byte header", bytes.len()));
        }
        if bytes[0..8] != MAGIC {
            return Err(format!("{file}: not a quantum trace (bad magic at byte 0)"));
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if !(VERSION_1..=VERSION).contains(&version) {
            return Err(format!("{file}: format version {version} at byte 8 is not supported (expected {VERSION_1} to {VERSION})"));
        }
        if u16::from_le_bytes([bytes[10], bytes[11]]) != BYTE_ORDER_MARK {
            return Err(format!("{file}: byte-order mark at byte 10 is {:02x} {:02x}, expected 02 01 (little-endian)", bytes[10], bytes[11]));
        }
        let vp = u32_at(bytes, 12);
        let counters = u32_at(bytes, 16);
        if counters as usize > super::MAX_COUNTERS {
            return Err(format!("{file}: counter count {counters} at byte 16 exceeds {}", super::MAX_COUNTERS));
        }
        let record_format = u32_at(bytes, 20);
        if record_format != format::QUANTUM {
            return Err(format!("{file}: record format {record_format} at byte 20 is not supported (expected {})", format::QUANTUM));
        }
        if bytes[24..HEADER_LEN].iter().any(|&b| b != 0) {
            return Err(format!("{file}: reserved bytes 24 to 31 of the header are not zero"));
        }
        let quantum = QuantumRecord {
            vp,
            offset: 0,
            local_tid: 0,
            buffer_code: 0,
            thread_switch: false,
            thread: 0,
            yielded: false,
            start: 0,
            end: 0,
            callee: 0,
            caller: 0,
            deltas: Deltas::new(),
        };
        Ok(Records { w, file: file.to_string(), vp, counters, version, o: HEADER_LEN, saw_exit: false, recover, buffers: 0, last_buffer: None, cut: None, done: false, quantum, reason: reason::NONE })
    }

    /// How many quantum records the file has room for: the capacity that spares a growing vector
    /// its copies.
    fn room(&self) -> usize {
        self.w.len.saturating_sub(HEADER_LEN) / self.quantum_len()
    }

    /// The length of this file's quantum records: the fixed part and a delta per counter.
    #[inline]
    fn quantum_len(&self) -> usize {
        QUANTUM_FIXED_LEN + 8 * self.counters as usize
    }

    /// The next record (padding skipped), or `None` at the end of the file or where a problem,
    /// said in `issues`, ends it.
    #[inline]
    fn next(&mut self, issues: &mut Vec<Issue>) -> Result<Option<Item>, String> {
        if self.next_quantum() {
            self.take_reason();
            return Ok(Some(Item::Quantum));
        }
        while !self.done {
            if let Some(e) = self.record(issues)? {
                if let Item::Quantum = e {
                    self.take_reason();
                }
                return Ok(Some(e));
            }
        }
        Ok(None)
    }

    /// After a quantum record: reads the reason record that follows it in the same buffer, if
    /// the file is of version 2 and there is one, into `self.reason`.
    #[inline]
    fn take_reason(&mut self) {
        self.reason = reason::NONE;
        if self.version < VERSION || self.w.rest(self.o) < REASON_LEN {
            return;
        }
        let Ok(r) = self.w.get(self.o, REASON_LEN) else { return };
        if r.len() < REASON_LEN {
            return;
        }
        let (_, buffer_code, _, evp, fmt) = decode(u32_at(r, 0));
        if fmt == format::REASON && evp == (self.vp & 0x3ff) && self.last_buffer.is_some_and(|(_, code)| code == buffer_code) {
            self.reason = u32_at(r, 4).min(u8::MAX as u32) as u8;
            self.o += REASON_LEN;
        }
    }

    /// The common case, read without the checks of [`Records::record`] that cannot fail for it:
    /// a whole quantum record, already buffered, of the processor and the buffer of the record
    /// before it. False (nothing read) for anything else.
    #[inline]
    fn next_quantum(&mut self) -> bool {
        let len = self.quantum_len();
        let Some(r) = self.w.buffered(self.o, len) else { return false };
        let (local_tid, buffer_code, thread_switch, evp, fmt) = decode(u32_at(r, 0));
        if self.done || self.saw_exit || fmt != format::QUANTUM || evp != (self.vp & 0x3ff) || self.last_buffer.is_none_or(|(_, code)| code != buffer_code) {
            return false;
        }
        fill_quantum(&mut self.quantum, r, self.o, local_tid, buffer_code, thread_switch);
        self.o += len;
        true
    }

    /// Reads the record at `self.o`: `None` for padding and at the end (`self.done`).
    #[inline]
    fn record(&mut self, issues: &mut Vec<Issue>) -> Result<Option<Item>, String> {
        let quantum_len = self.quantum_len();
        let (file, vp, o, recover) = (self.file.as_str(), self.vp, self.o, self.recover);
        let cannot_read = |e: io::Error| format!("{file}: cannot read: {e}");
        let err = |issues: &mut Vec<Issue>, off: usize, msg: String| {
            issues.push(Issue { severity: Severity::Error, file: file.to_string(), offset: Some(off as u64), message: msg })
        };
        self.done = true; // until the record is read whole
        let w = &mut self.w;
        if o >= w.len {
            return Ok(None);
        }
        let rest = w.rest(o);
        if self.saw_exit {
            err(issues, o, format!("{rest} byte(s) after the exit record, which must be the last record of the file"));
            return Ok(None);
        }
        if rest < 4 {
            if recover {
                self.cut = Some(o);
            } else {
                err(issues, o, format!("truncated record: {rest} byte(s) left, not even an encoding word"));
            }
            return Ok(None);
        }
        let (local_tid, buffer_code, thread_switch, evp, fmt) = decode(u32_at(w.get(o, 4).map_err(cannot_read)?, 0));
        // Truncation: an error, or, when recovering, where the file was cut.
        let cut = &mut self.cut;
        let mut truncated = |issues: &mut Vec<Issue>, msg: String| {
            if recover {
                *cut = Some(o);
            } else {
                err(issues, o, msg);
            }
            Ok(None)
        };
        if self.last_buffer.is_none_or(|(_, code)| code != buffer_code) {
            self.buffers += 1;
            self.last_buffer = Some((o, buffer_code));
        }
        if fmt != format::PADDING && evp != (vp & 0x3ff) {
            err(issues, o, format!("encoding word says processor {evp}, the header says {vp}"));
        }
        let need = |n: usize| rest >= n;
        let (entry, len) = match fmt {
            format::QUANTUM => {
                let len = quantum_len;
                if !need(len) {
                    return truncated(issues, format!("truncated quantum record: {rest} of {len} bytes"));
                }
                let r = w.get(o, len).map_err(cannot_read)?;
                fill_quantum(&mut self.quantum, r, o, local_tid, buffer_code, thread_switch);
                (Some(Item::Quantum), len)
            }
            format::APP_START | format::APP_COMPLETE | format::RUN_START | format::RUN_COMPLETE | format::NOTE => {
                let marker = MarkerKind::from_format(fmt).expect("a marker format");
                let (with_run, fixed) = (marker.has_run(), marker.fixed_len());
                if !need(fixed) {
                    return truncated(issues, format!("truncated marker record: {rest} of at least {fixed} bytes"));
                }
                let r = w.get(o, fixed).map_err(cannot_read)?;
                let time = u64_at(r, 4);
                let run = if with_run { u32_at(r, 12) as i32 } else { 0 };
                let len = u32_at(r, fixed - 4) as usize;
                if rest - fixed < len {
                    return truncated(issues, format!("truncated marker record: its text needs {len} bytes, {} left", rest - fixed));
                }
                let r = w.get(o, fixed + len).map_err(cannot_read)?;
                let text = String::from_utf8_lossy(&r[fixed..]).into_owned();
                (Some(Item::Other(Entry::Marker(Marker { vp, offset: o as u64, local_tid, kind: marker, time, run, text }))), fixed + len)
            }
            format::EXIT => {
                if !need(16) {
                    return truncated(issues, format!("truncated exit record: {rest} of 16 bytes"));
                }
                let r = w.get(o, 16).map_err(cannot_read)?;
                self.saw_exit = true;
                (Some(Item::Other(Entry::Exit { vp, offset: o as u64, time: u64_at(r, 4), value: u32_at(r, 12) as i32 })), 16)
            }
            format::REASON if self.version >= VERSION => {
                // (one after a quantum record is read with it, by `take_reason`)
                err(issues, o, "reason record that does not follow a quantum record".to_string());
                if !need(REASON_LEN) {
                    return Ok(None);
                }
                (None, REASON_LEN)
            }
            format::PADDING => {
                if !need(8) {
                    return truncated(issues, format!("truncated padding record: {rest} of 8 bytes"));
                }
                let len = u32_at(w.get(o, 8).map_err(cannot_read)?, 4) as usize;
                if rest - 8 < len {
                    return truncated(issues, format!("truncated padding record: {len} padding bytes, {} left", rest - 8));
                }
                (None, 8 + len)
            }
            other => {
                err(issues, o, format!("unknown record format {other} (encoding word {:#010x})", u32_at(w.get(o, 4).map_err(cannot_read)?, 0)));
                return Ok(None);
            }
        };
        self.o = o + len;
        self.done = false;
        Ok(entry)
    }

    /// After the last record: when recovering, drops the entries of the buffer a cut record
    /// belongs to and says what was kept; warns when the file has no exit record.
    fn finish(&mut self, issues: &mut Vec<Issue>, entries: &mut Vec<Entry>) {
        let file = self.file.as_str();
        // Again: a file cut shorter while it was read ends where the reading did (`Window::fill`).
        let total = self.w.len;
        let mut end = total;
        if self.recover {
            let mut buffers = self.buffers;
            // The buffer holding the cut record is incomplete: keep only the buffers before it.
            if let Some(c) = self.cut {
                end = self.last_buffer.map_or(c, |(start, _)| start);
                buffers = buffers.saturating_sub(1);
                entries.retain(|e| (e.offset() as usize) < end);
            }
            let dropped = match self.cut {
                Some(_) => format!("; the buffer cut off at byte {end} ({} bytes) is dropped", total - end),
                None => String::new(),
            };
            issues.push(Issue {
                severity: Severity::Warning,
                file: file.to_string(),
                offset: None,
                message: format!(
                    "recovered from the temporary file of a run that did not finish: {buffers} complete buffer(s), {} record(s){dropped}",
                    entries.len()
                ),
            });
        }
        if !self.saw_exit && !issues.iter().any(|i| i.file == file && i.severity == Severity::Error) {
            issues.push(Issue {
                severity: Severity::Warning,
                file: file.to_string(),
                offset: Some(end as u64),
                message: "no exit record: the writer did not finish (the VM may have crashed)".into(),
            });
        }
    }
}

/// Fills `q` (its processor already set) from the quantum record `r` at offset `o`, whose
/// length gives the number of deltas.
#[inline]
fn fill_quantum(q: &mut QuantumRecord, r: &[u8], o: usize, local_tid: u16, buffer_code: u8, thread_switch: bool) {
    // A fixed-size view: the field reads at constant offsets need no bounds checks.
    let fixed: &[u8; QUANTUM_FIXED_LEN] = r[..QUANTUM_FIXED_LEN].try_into().expect("a whole record");
    let gid = u32_at(fixed, 4) as i32;
    q.offset = o as u64;
    q.local_tid = local_tid;
    q.buffer_code = buffer_code;
    q.thread_switch = thread_switch;
    q.thread = gid.unsigned_abs();
    q.yielded = gid < 0;
    q.start = u64_at(fixed, 8);
    q.end = u64_at(fixed, 16);
    q.callee = u32_at(fixed, 24);
    q.caller = u32_at(fixed, 28);
    let counters = (r.len() - QUANTUM_FIXED_LEN) / 8;
    if q.deltas.len() == counters {
        for (i, d) in q.deltas.iter_mut().enumerate() {
            *d = u64_at(r, QUANTUM_FIXED_LEN + 8 * i);
        }
    } else {
        q.deltas = read_deltas(r, QUANTUM_FIXED_LEN, counters);
    }
}

fn parse<R: io::Read>(w: Window<R>, file: &str, path: PathBuf, issues: &mut Vec<Issue>, recover: bool) -> Result<(VpTrace, Vec<(u64, u8)>), String> {
    parse_records(Records::open(w, file, recover)?, path, issues)
}

/// The file's entries, and (record offset, reason code) of its quanta that have a reason.
fn parse_records<R: io::Read>(mut records: Records<R>, path: PathBuf, issues: &mut Vec<Issue>) -> Result<(VpTrace, Vec<(u64, u8)>), String> {
    // Mostly quantum records: sized for them, the entries are not copied as they grow.
    let mut entries = Vec::with_capacity(records.room());
    let mut reasons = Vec::new();
    while let Some(item) = records.next(issues)? {
        entries.push(match item {
            // The deltas taken, the rest copied: no clone of the deltas per record.
            Item::Quantum => {
                let q = &mut records.quantum;
                if records.reason != reason::NONE {
                    reasons.push((q.offset, records.reason));
                }
                Entry::Quantum(QuantumRecord { deltas: std::mem::take(&mut q.deltas), ..*q })
            }
            Item::Other(e) => e,
        });
    }
    records.finish(issues, &mut entries);
    // (a recovered file's entries may have been cut back)
    if let Some(last) = entries.last() {
        let end = last.offset();
        reasons.retain(|(o, _)| *o <= end);
    } else {
        reasons.clear();
    }
    Ok((VpTrace { vp: records.vp, path, file: records.file.clone(), counters: records.counters, entries }, reasons))
}

/// Checks one processor's records as they come: end ≥ start, and each record starts no earlier
/// than the previous one ended.
#[derive(Default)]
struct VpCheck {
    /// The previous record's end and offset.
    prev: Option<(u64, u64)>,
}

impl VpCheck {
    #[inline]
    fn check(&mut self, q: &QuantumRecord, file: &str, issues: &mut Vec<Issue>) {
        if q.end < q.start {
            issues.push(Issue {
                severity: Severity::Error,
                file: file.to_string(),
                offset: Some(q.offset),
                message: format!("record of thread {} ends at {} before it starts at {}", q.thread, q.end, q.start),
            });
        }
        if let Some((pe, po)) = self.prev {
            if q.start < pe {
                issues.push(Issue {
                    severity: Severity::Error,
                    file: file.to_string(),
                    offset: Some(q.offset),
                    message: format!(
                        "times not monotonic: record of thread {} starts at {} before the previous record (byte {po}) ended at {pe}",
                        q.thread, q.start
                    ),
                });
            }
        }
        self.prev = Some((q.end.max(q.start), q.offset));
    }
}

fn check_vp(t: &VpTrace, issues: &mut Vec<Issue>) {
    let mut check = VpCheck::default();
    for e in &t.entries {
        if let Entry::Quantum(q) = e {
            check.check(q, &t.file, issues);
        }
    }
}

/// `n` counter deltas from byte `at`: built in place when they fit inline (as most records' do),
/// not through `SmallVec`'s iterator path, which costs more than the rest of parsing a record.
fn read_deltas(bytes: &[u8], at: usize, n: usize) -> Deltas {
    let mut inline = [0u64; 3];
    if n <= inline.len() {
        for (i, d) in inline.iter_mut().take(n).enumerate() {
            *d = u64_at(bytes, at + 8 * i);
        }
        Deltas::from_buf_and_len(inline, n)
    } else {
        (0..n).map(|i| u64_at(bytes, at + 8 * i)).collect()
    }
}

/// Checks, record by record in the trace's order, that no thread ran on two processors at
/// overlapping times, and collects the threads the meta file does not name.
struct ThreadCheck {
    named: FxHashSet<u32>,
    unknown: Vec<u32>,
    /// Per thread, the record that ends last so far: processor, end, offset, index of its file.
    last: FxHashMap<u32, (u32, u64, u64, usize)>,
}

impl ThreadCheck {
    fn new(meta: &Meta) -> ThreadCheck {
        ThreadCheck { named: meta.threads.iter().map(|t| t.id).collect(), unknown: Vec::new(), last: FxHashMap::default() }
    }

    /// `q` is the next quantum in order of start (ties: processor, then file order), from the
    /// file `files[file]`.
    fn check(&mut self, q: &QuantumRecord, file: usize, files: &[&str], issues: &mut Vec<Issue>) {
        match self.last.entry(q.thread) {
            std::collections::hash_map::Entry::Vacant(e) => {
                if !self.named.contains(&q.thread) {
                    self.unknown.push(q.thread);
                }
                e.insert((q.vp, q.end, q.offset, file));
            }
            std::collections::hash_map::Entry::Occupied(mut e) => {
                let (pvp, pend, poffset, pfile) = *e.get();
                if pvp != q.vp && q.start < pend {
                    issues.push(Issue {
                        severity: Severity::Error,
                        file: files[file].to_string(),
                        offset: Some(q.offset),
                        message: format!(
                            "thread {} on processor {} from {} while it runs on processor {pvp} until {pend} ({} at byte {poffset})",
                            q.thread, q.vp, q.start, files[pfile]
                        ),
                    });
                }
                // Keep the record that ends last.
                if q.end > pend {
                    e.insert((q.vp, q.end, q.offset, file));
                }
            }
        }
    }

    /// The threads the meta file does not name, sorted.
    fn unknown(mut self) -> Vec<u32> {
        self.unknown.sort_unstable();
        self.unknown
    }
}

fn check_threads(trace: &Trace, issues: &mut Vec<Issue>) -> Vec<u32> {
    let files: Vec<&str> = trace.vps.iter().map(|t| t.file.as_str()).collect();
    let mut check = ThreadCheck::new(&trace.meta);
    for &(v, i) in &trace.order {
        if let Entry::Quantum(q) = &trace.vps[v as usize].entries[i as usize] {
            check.check(q, v as usize, &files, issues);
        }
    }
    check.unknown()
}

/// A trace file of a directory: a finished `quantum.vp<N>.trace`, or the temporary file
/// `.quantum.vp<N>.trace.<pid>.tmp` that the agent writes until the run ends.
struct TraceFile {
    vp: u32,
    path: PathBuf,
    name: String,
    /// The writing process, for a temporary file.
    pid: Option<u32>,
}

/// A processor number as the file names write it: decimal, below 2^32, no sign or leading zeros.
fn processor_number(s: &str) -> Option<u32> {
    let canonical = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'));
    canonical.then(|| s.parse().ok()).flatten()
}

/// The trace files of `dir`, sorted by processor. A finished file is read rather than a temporary
/// one of the same processor. Names that look like trace files but name no processor are errors.
fn list_trace_files(dir: &Path, issues: &mut Vec<Issue>) -> io::Result<Vec<TraceFile>> {
    let mut finished: Vec<TraceFile> = Vec::new();
    let mut temporary: Vec<TraceFile> = Vec::new();
    for e in std::fs::read_dir(dir).map_err(|e| io::Error::new(e.kind(), format!("cannot list {}: {e}", dir.display())))? {
        let e = e?;
        let name = e.file_name().to_string_lossy().into_owned();
        if let Some(n) = name.strip_prefix("quantum.vp").and_then(|r| r.strip_suffix(".trace")) {
            match processor_number(n) {
                Some(vp) => finished.push(TraceFile { vp, path: e.path(), name, pid: None }),
                None => issues.push(Issue {
                    severity: Severity::Error,
                    file: name.clone(),
                    offset: None,
                    message: "the file name does not give a processor number (quantum.vp<N>.trace, N decimal below 2^32 without leading zeros); the file is not read".into(),
                }),
            }
        } else if let Some(rest) = name.strip_prefix(".quantum.vp").and_then(|r| r.strip_suffix(".tmp")) {
            let parsed = rest.split_once(".trace.").and_then(|(n, pid)| Some((processor_number(n)?, pid.parse::<u32>().ok()?)));
            if let Some((vp, pid)) = parsed {
                temporary.push(TraceFile { vp, path: e.path(), name, pid: Some(pid) });
            }
        }
    }
    temporary.sort_by(|a, b| (a.vp, &a.name).cmp(&(b.vp, &b.name)));
    for t in temporary {
        let warn = |message: String| Issue { severity: Severity::Warning, file: t.name.clone(), offset: None, message };
        if finished.iter().any(|f| f.vp == t.vp && f.pid.is_none()) {
            issues.push(warn(format!("not read: the finished file quantum.vp{}.trace is read instead", t.vp)));
        } else if let Some(first) = finished.iter().find(|f| f.vp == t.vp) {
            issues.push(Issue {
                severity: Severity::Error,
                file: t.name.clone(),
                offset: None,
                message: format!("not read: {} of another run is read for processor {}; remove the files of the other runs", first.name, t.vp),
            });
        } else {
            finished.push(t);
        }
    }
    finished.sort_by_key(|f| f.vp);
    Ok(finished)
}

/// The trace files of `dir` that [`read_dir`] reads: the finished files, and temporary ones
/// standing in for missing finished files.
pub fn trace_files(dir: &Path) -> io::Result<Vec<PathBuf>> {
    Ok(list_trace_files(dir, &mut Vec::new())?.into_iter().map(|f| f.path).collect())
}

/// The meta file of a run that did not write one: counters named by position, no threads.
fn unnamed_meta(deltas: u32) -> Meta {
    let counters = std::iter::once("real-time".to_string()).chain((1..=deltas).map(|i| format!("counter-{i}"))).collect();
    Meta { counters, ..Meta::default() }
}

/// Reads and validates a directory: `quantum.meta` and every `quantum.vp<N>.trace`. The
/// temporary files of a run that did not finish stand in for missing trace files (their complete
/// buffers are read), and a missing meta file is a warning when trace files are there. `Err`
/// when the directory, the meta file or a file header cannot be read; record-level problems are
/// issues.
pub fn read_dir(dir: &Path) -> io::Result<Trace> {
    let (meta, files, mut issues) = open_dir(dir)?;
    let mut vps: Vec<VpTrace> = Vec::new();
    let mut reasons = Vec::new();
    for f in files {
        let records = match open_records(&f) {
            Ok(r) => r,
            // A killed run's processor that had not written its header (an empty file): its
            // quanta are missing, the other processors' are read.
            Err(e) if f.pid.is_some() => {
                let why = e.to_string();
                let why = why.strip_prefix(&format!("{}: ", f.name)).unwrap_or(&why).to_string();
                issues.push(Issue {
                    severity: Severity::Warning,
                    file: f.name.clone(),
                    offset: None,
                    message: format!("not read ({why}): the run ended before processor {} wrote its first buffer, so its quanta are missing", f.vp),
                });
                continue;
            }
            Err(e) => return Err(e),
        };
        let (t, file_reasons) = parse_records(records, f.path.clone(), &mut issues).map_err(bad)?;
        reasons.extend(file_reasons.into_iter().map(|(o, r)| (t.vp, o, r)));
        issues.extend(header_issue(&f, t.vp));
        check_counters(&f.name, t.counters, meta.as_ref(), vps.first().map(|v| (v.file.as_str(), v.counters)))?;
        check_vp(&t, &mut issues);
        vps.push(t);
    }
    let Some(first) = vps.first() else {
        let said: Vec<String> = issues.iter().map(Issue::to_string).collect();
        return Err(bad(format!("{}: no trace file could be read: {}", dir.display(), said.join("; "))));
    };
    let meta_missing = meta.is_none();
    let meta = meta.unwrap_or_else(|| unnamed_meta(first.counters));
    if meta_missing {
        issues.push(missing_meta());
    }
    let mut trace = Trace::new(meta, vps, Vec::new()).with_reasons(reasons);
    let unknown = check_threads(&trace, &mut issues);
    push_meta_warnings(&trace.meta, &unknown, &mut issues);
    trace.issues = issues;
    Ok(trace)
}

fn bad(m: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, m)
}

/// The start of reading `dir`: its meta file (`None` when there is none but trace files are
/// there), its trace files (at least one), and the issues of listing them.
fn open_dir(dir: &Path) -> io::Result<(Option<Meta>, Vec<TraceFile>, Vec<Issue>)> {
    let meta_path = dir.join(META_FILE);
    let cannot_read_meta = |e: io::Error| io::Error::new(e.kind(), format!("cannot read {}: {e}", meta_path.display()));
    let meta_text = match std::fs::read_to_string(&meta_path) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == io::ErrorKind::NotFound && dir.is_dir() => None,
        Err(e) => return Err(cannot_read_meta(e)),
    };
    let meta = meta_text.map(|text| Meta::parse(&text).map_err(|m| bad(format!("{}: {m}", meta_path.display())))).transpose()?;
    let mut issues = Vec::new();
    let files = list_trace_files(dir, &mut issues)?;
    if files.is_empty() {
        return Err(match meta {
            Some(_) => bad(format!("{}: no quantum.vp<N>.trace files", dir.display())),
            None => cannot_read_meta(io::Error::new(io::ErrorKind::NotFound, "no such file, and no quantum.vp<N>.trace files either")),
        });
    }
    Ok((meta, files, issues))
}

/// Opens trace file `f` and reads its header.
fn open_records(f: &TraceFile) -> io::Result<Records<std::fs::File>> {
    let cannot_read = |e: io::Error| io::Error::new(e.kind(), format!("cannot read {}: {e}", f.path.display()));
    let file = std::fs::File::open(&f.path).map_err(cannot_read)?;
    let len = file.metadata().map_err(cannot_read)?.len() as usize;
    Records::open(Window::new(file, len), &f.name, f.pid.is_some()).map_err(bad)
}

/// An error when the header of `f` names another processor than its file name.
fn header_issue(f: &TraceFile, vp: u32) -> Option<Issue> {
    (vp != f.vp).then(|| Issue { severity: Severity::Error, file: f.name.clone(), offset: Some(12), message: format!("header says processor {vp}, the file name {}", f.vp) })
}

/// Every file must have the meta file's counters (or, without one, those of `first`, the first
/// file read: its name and counters).
fn check_counters(name: &str, counters: u32, meta: Option<&Meta>, first: Option<(&str, u32)>) -> io::Result<()> {
    let (expected, source) = match (meta, first) {
        (Some(m), _) => (m.delta_count(), META_FILE),
        (None, Some((file, c))) => (c as usize, file),
        (None, None) => return Ok(()),
    };
    if counters as usize != expected {
        return Err(bad(format!("{name}: header has {counters} counter(s) at byte 16, {source} names {expected}")));
    }
    Ok(())
}

fn missing_meta() -> Issue {
    Issue {
        severity: Severity::Warning,
        file: META_FILE.into(),
        offset: None,
        message: "missing (the run did not finish): counters are named by position, threads by id, and missed records are not known".into(),
    }
}

/// The warnings after the records: threads the meta file does not name, records missed.
fn push_meta_warnings(meta: &Meta, unknown: &[u32], issues: &mut Vec<Issue>) {
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
}

/// A trace directory read without holding its records: [`Scan::run`] hands every quantum to a
/// visitor in the trace's order ([`Trace::quanta`]'s) and keeps only the markers, with the same
/// issues as [`read_dir`]. Its memory does not grow with the trace (a [`Trace`] holds 80 bytes a
/// record), which is what the agent needs to write the explorer page at exit inside the host
/// process.
pub struct Scan {
    meta: Meta,
    meta_missing: bool,
    /// The issues of listing the files.
    issues: Vec<Issue>,
    files: Vec<ScanFile>,
}

/// One file of a [`Scan`], read a quantum ahead.
struct ScanFile {
    records: Records<std::fs::File>,
    /// Its issues in the order [`read_dir`] gives them: the records', the header's processor,
    /// the records' times.
    parse_issues: Vec<Issue>,
    header_issue: Option<Issue>,
    time_issues: Vec<Issue>,
    times: VpCheck,
    markers: Vec<Marker>,
    /// `records.quantum` is the file's next quantum, not visited yet.
    has_next: bool,
}

impl ScanFile {
    /// Reads up to the next quantum (into `records.quantum`, `has_next`), keeping the markers on
    /// the way. `Ok(false)`: that quantum starts before the one before it.
    #[inline]
    fn advance(&mut self) -> io::Result<bool> {
        let before = self.has_next.then_some(self.records.quantum.start);
        self.has_next = false;
        while let Some(item) = self.records.next(&mut self.parse_issues).map_err(bad)? {
            match item {
                Item::Quantum => {
                    let q = &self.records.quantum;
                    self.times.check(q, &self.records.file, &mut self.time_issues);
                    self.has_next = true;
                    return Ok(before.is_none_or(|b| q.start >= b));
                }
                Item::Other(Entry::Marker(m)) => self.markers.push(m),
                Item::Other(_) => {}
            }
        }
        self.records.finish(&mut self.parse_issues, &mut Vec::new());
        Ok(true)
    }
}

/// What a [`Scan`] leaves once every quantum was visited.
#[derive(Debug)]
pub struct Scanned {
    pub meta: Meta,
    /// The processors of the files read, in file order.
    pub vps: Vec<u32>,
    /// The markers, in the trace's order.
    pub markers: Vec<Marker>,
    pub issues: Vec<Issue>,
}

impl Scan {
    /// Opens `dir` and every trace file's header, with [`read_dir`]'s errors. `Ok(None)` when a
    /// file is the temporary file of a run that did not finish: only [`read_dir`] recovers it.
    pub fn open(dir: &Path) -> io::Result<Option<Scan>> {
        let (meta, files, issues) = open_dir(dir)?;
        if files.iter().any(|f| f.pid.is_some()) {
            return Ok(None);
        }
        let mut opened: Vec<ScanFile> = Vec::with_capacity(files.len());
        for f in &files {
            let records = open_records(f)?;
            let first = opened.first().map(|o| (o.records.file.as_str(), o.records.counters));
            check_counters(&f.name, records.counters, meta.as_ref(), first)?;
            let header_issue = header_issue(f, records.vp);
            opened.push(ScanFile { records, parse_issues: Vec::new(), header_issue, time_issues: Vec::new(), times: VpCheck::default(), markers: Vec::new(), has_next: false });
        }
        let meta_missing = meta.is_none();
        let meta = meta.unwrap_or_else(|| unnamed_meta(opened[0].records.counters));
        Ok(Some(Scan { meta, meta_missing, issues, files: opened }))
    }

    pub fn meta(&self) -> &Meta {
        &self.meta
    }

    /// Calls `visit` with every quantum in the trace's order: by start, then processor, then
    /// file order. `Ok(None)` when a file's quanta are not in order of start (an invalid trace,
    /// which [`read_dir`] sorts); what was visited by then is to be dropped.
    pub fn run(self, visit: &mut dyn FnMut(&QuantumRecord)) -> io::Result<Option<Scanned>> {
        self.run_with_reasons(&mut |q, _| visit(q))
    }

    /// [`Scan::run`], with each quantum's [`reason`] code ([`reason::NONE`] for none).
    pub fn run_with_reasons(mut self, visit: &mut dyn FnMut(&QuantumRecord, u8)) -> io::Result<Option<Scanned>> {
        use std::cmp::Reverse;
        let names: Vec<String> = self.files.iter().map(|f| f.records.file.clone()).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut threads = ThreadCheck::new(&self.meta);
        let mut thread_issues = Vec::new();
        // Visits file `i`'s next quantum and reads the one after; false: out of order.
        let mut step = |f: &mut ScanFile, i: usize| -> io::Result<bool> {
            threads.check(&f.records.quantum, i, &names, &mut thread_issues);
            visit(&f.records.quantum, f.records.reason);
            f.advance()
        };
        if let [f] = self.files.as_mut_slice() {
            // One processor (the research VM's usual case): its file is the order.
            f.advance()?;
            while f.has_next {
                if !step(f, 0)? {
                    return Ok(None);
                }
            }
        } else {
            // Each file's next quantum by (start, processor, file).
            let mut heads = std::collections::BinaryHeap::new();
            for (i, f) in self.files.iter_mut().enumerate() {
                f.advance()?;
                if f.has_next {
                    heads.push(Reverse((f.records.quantum.start, f.records.vp, i)));
                }
            }
            while let Some(Reverse((_, _, i))) = heads.pop() {
                let f = &mut self.files[i];
                if !step(f, i)? {
                    return Ok(None);
                }
                if f.has_next {
                    heads.push(Reverse((f.records.quantum.start, f.records.vp, i)));
                }
            }
        }
        let mut issues = std::mem::take(&mut self.issues);
        let mut markers: Vec<(usize, Marker)> = Vec::new();
        let mut vps = Vec::with_capacity(self.files.len());
        for (i, f) in self.files.into_iter().enumerate() {
            issues.extend(f.parse_issues);
            issues.extend(f.header_issue);
            issues.extend(f.time_issues);
            markers.extend(f.markers.into_iter().map(|m| (i, m)));
            vps.push(f.records.vp);
        }
        // Stable: markers of one file at one time keep their file order.
        markers.sort_by_key(|(i, m)| (m.time, m.vp, *i));
        if self.meta_missing {
            issues.push(missing_meta());
        }
        issues.extend(thread_issues);
        push_meta_warnings(&self.meta, &threads.unknown(), &mut issues);
        Ok(Some(Scanned { meta: self.meta, vps, markers: markers.into_iter().map(|(_, m)| m).collect(), issues }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn exit(vp: u32, offset: u64, time: u64) -> Entry {
        Entry::Exit { vp, offset, time, value: 0 }
    }

    /// A source that hands out at most `most` bytes a read, as a pipe or a slow file may.
    struct Dribble<'a> {
        bytes: &'a [u8],
        most: usize,
    }

    impl io::Read for Dribble<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = out.len().min(self.most).min(self.bytes.len());
            out[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    /// A trace file of `records`: (kind, size) with kind 0 a quantum, 1 a marker with a text of
    /// `size` bytes, 2 a padding record of `size` bytes; an exit record last.
    fn trace_bytes(records: &[(u8, usize)], counters: u32) -> Vec<u8> {
        use super::super::{encode, header};
        let mut b = header(2, counters).to_vec();
        for (i, &(kind, size)) in records.iter().enumerate() {
            let i = i as u64;
            match kind {
                0 => {
                    b.extend(encode(1, 0, true, 2, format::QUANTUM).to_le_bytes());
                    b.extend(7i32.to_le_bytes());
                    b.extend((i * 10).to_le_bytes());
                    b.extend((i * 10 + 5).to_le_bytes());
                    b.extend([0u8; 8]);
                    (0..counters as u64).for_each(|k| b.extend((i + k).to_le_bytes()));
                }
                1 => {
                    b.extend(encode(1, 0, false, 2, format::NOTE).to_le_bytes());
                    b.extend((i * 10 + 1).to_le_bytes());
                    b.extend((size as u32).to_le_bytes());
                    b.extend((0..size).map(|k| b'a' + (k % 26) as u8));
                }
                _ => {
                    b.extend(encode(0, 0, false, 2, format::PADDING).to_le_bytes());
                    b.extend((size as u32).to_le_bytes());
                    b.extend(std::iter::repeat_n(0u8, size));
                }
            }
        }
        b.extend(encode(0, 0, false, 2, format::EXIT).to_le_bytes());
        b.extend((records.len() as u64 * 10).to_le_bytes());
        b.extend(0i32.to_le_bytes());
        b
    }

    proptest! {
        /// Parsing through a window of a few bytes, from a source that hands out a few bytes a
        /// read, finds what parsing the whole file at once finds: the same entries and issues, or
        /// the same error, for whole files, files cut anywhere, and files with a byte changed.
        #[test]
        fn a_file_parses_the_same_through_any_window(
            records in prop::collection::vec((0u8..3, 0usize..300), 0..40),
            counters in 0u32..4,
            cut in any::<prop::sample::Index>(),
            flip in any::<Option<(prop::sample::Index, u8)>>(),
            chunk in 1usize..200,
            most in 1usize..50,
            recover: bool,
        ) {
            let mut bytes = trace_bytes(&records, counters);
            if let Some((at, x)) = flip {
                let at = at.index(bytes.len());
                bytes[at] ^= x;
            }
            let bytes = &bytes[..cut.index(bytes.len() + 1)];
            let parsed = |w: Window<Dribble>| {
                let mut issues = Vec::new();
                let t = parse(w, "f", PathBuf::new(), &mut issues, recover).map(|(t, _)| t.entries);
                (t, issues)
            };
            let whole = parsed(Window { chunk: bytes.len().max(1), ..Window::new(Dribble { bytes, most: usize::MAX }, bytes.len()) });
            let windowed = parsed(Window { chunk, ..Window::new(Dribble { bytes, most }, bytes.len()) });
            prop_assert_eq!(windowed, whole);
        }
    }

    proptest! {
        /// The merge gives the order of one stable sort of all entries by (time, processor), the
        /// order `merged` promises: files in order or not, processors repeated, times tied.
        #[test]
        fn merged_is_a_stable_sort_by_time_and_processor(files in prop::collection::vec((0u32..3, prop::collection::vec(0u64..20, 0..40)), 0..5)) {
            let vps: Vec<VpTrace> = files
                .iter()
                .map(|(vp, times)| VpTrace {
                    vp: *vp,
                    path: PathBuf::new(),
                    file: String::new(),
                    counters: 0,
                    entries: times.iter().enumerate().map(|(i, &t)| exit(*vp, i as u64, t)).collect(),
                })
                .collect();
            let mut want: Vec<(u32, u32)> = vps.iter().enumerate().flat_map(|(v, t)| (0..t.entries.len() as u32).map(move |i| (v as u32, i))).collect();
            want.sort_by_key(|&(v, i)| (vps[v as usize].entries[i as usize].time(), vps[v as usize].vp));
            let trace = Trace::new(Meta::default(), vps, Vec::new());
            prop_assert_eq!(&trace.order, &want);
        }
    }
}
