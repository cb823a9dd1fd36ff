//! Writing quantum traces: [`QuantumWriter`] fills two 64 KiB buffers on the processor's own thread;
//! [`BufferSink`] is the trace-writer side that writes full buffers to the processor's file
//! (the files themselves: `hpm_collectors::quantum::files`).
//!
//! The recording side never allocates, locks, blocks or does I/O: buffers move between the two sides
//! through two bounded channels of capacity 2 (`try_send`/`try_recv` only). A record that finds the
//! current buffer full and no free buffer is counted as missed.

use std::io::{self, Write};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender, TryRecvError};
use std::time::Duration;

use super::{encode, format, BUFFER_LEN, HEADER_LEN, MARKER_LEN_MAX, MAX_COUNTERS, QUANTUM_FIXED_LEN};

/// Size of a reason record ([`format::REASON`]): encoding word and reason code.
pub const REASON_LEN: usize = 8;

/// `quantum.vp<N>.trace`.
pub fn trace_file_name(vp: u32) -> String {
    format!("quantum.vp{vp}.trace")
}

/// One quantum of one thread on one processor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Quantum {
    /// Global thread id, 1 ..= i32::MAX (0 cannot carry the yield flag).
    pub thread: u32,
    /// Processor-local (or VM-local) 16-bit thread id; writers without one use `thread as u16`.
    pub local_tid: u16,
    /// The thread yielded before its quantum expired (stored by negating the global id).
    pub yielded: bool,
    /// The record ends with a thread switch (false: a timer tick without a switch).
    pub thread_switch: bool,
    pub start: u64,
    pub end: u64,
    /// Method in which the yieldpoint was taken (0 = unknown).
    pub callee: u32,
    /// Its caller (0 = unknown).
    pub caller: u32,
}

/// One buffer ([`BUFFER_LEN`] bytes) and its code (0 or 1), written into each record's encoding word.
#[derive(Debug)]
struct Buffer {
    code: u8,
    bytes: Vec<u8>,
    /// Records (of every kind) in `bytes`, so that the sink knows how many reached the file.
    records: u64,
}

/// What a writer did, for the meta file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WriterStats {
    pub vp: u32,
    pub records: u64,
    pub markers: u64,
    pub missed: u64,
}

/// The recording side of one processor's trace. Owned by that processor (not shared).
pub struct QuantumWriter {
    vp: u32,
    /// A version-2 file: quantum records may be followed by a reason record.
    reasons: bool,
    counters: usize,
    current: Option<Buffer>,
    full_tx: SyncSender<Buffer>,
    free_rx: Receiver<Buffer>,
    stats: WriterStats,
    /// Full buffers handed to the trace writer so far (see [`QuantumWriter::handoffs`]).
    handoffs: u64,
    scratch: [u8; QUANTUM_FIXED_LEN + 8 * MAX_COUNTERS],
}

/// The trace-writer side of one processor's trace: receives full buffers, writes them, returns them.
pub struct BufferSink {
    vp: u32,
    counters: usize,
    full_rx: Receiver<Buffer>,
    free_tx: SyncSender<Buffer>,
    /// Bytes and records of the buffers written in full so far.
    written: u64,
    records_written: u64,
}

impl QuantumWriter {
    /// A writer for processor `vp` whose records carry `counters` deltas (at most [`MAX_COUNTERS`]),
    /// and the sink its trace-writer drains. The file header goes at the start of the first buffer.
    pub fn new(vp: u32, counters: usize) -> (QuantumWriter, BufferSink) {
        Self::of_version(super::VERSION_1, vp, counters)
    }

    /// A writer of a version-2 file, which may hold reason records
    /// ([`QuantumWriter::record_with_reason`]).
    pub fn with_reasons(vp: u32, counters: usize) -> (QuantumWriter, BufferSink) {
        Self::of_version(super::VERSION, vp, counters)
    }

    fn of_version(version: u16, vp: u32, counters: usize) -> (QuantumWriter, BufferSink) {
        assert!(counters <= MAX_COUNTERS, "at most {MAX_COUNTERS} counters per record");
        let (full_tx, full_rx) = sync_channel(2);
        let (free_tx, free_rx) = sync_channel(2);
        let mut first = Vec::with_capacity(BUFFER_LEN);
        first.extend_from_slice(&super::header_of(version, vp, counters as u32));
        free_tx.send(Buffer { code: 1, bytes: Vec::with_capacity(BUFFER_LEN), records: 0 }).expect("fresh channel");
        let w = QuantumWriter {
            vp,
            reasons: version >= super::VERSION,
            counters,
            current: Some(Buffer { code: 0, bytes: first, records: 0 }),
            full_tx,
            free_rx,
            stats: WriterStats { vp, ..WriterStats::default() },
            handoffs: 0,
            scratch: [0; QUANTUM_FIXED_LEN + 8 * MAX_COUNTERS],
        };
        (w, BufferSink { vp, counters, full_rx, free_tx, written: 0, records_written: 0 })
    }

    pub fn vp(&self) -> u32 {
        self.vp
    }

    pub fn stats(&self) -> WriterStats {
        self.stats
    }

    /// Full buffers handed to the trace writer so far. A VM that schedules the writer itself
    /// compares it before and after a record (or marker) and wakes the writer when it grew.
    pub fn handoffs(&self) -> u64 {
        self.handoffs
    }

    /// Records missed so far because both buffers were full.
    pub fn missed(&self) -> u64 {
        self.stats.missed
    }

    /// Appends one quantum record; `deltas` must hold exactly the writer's counter count. Returns
    /// false (and counts the record as missed) when no buffer has room. Never blocks or allocates.
    pub fn record(&mut self, q: &Quantum, deltas: &[u64]) -> bool {
        self.record_with_reason(q, deltas, super::reason::NONE)
    }

    /// [`QuantumWriter::record`], followed in the same buffer by a reason record saying why the
    /// quantum ended (none for [`super::reason::NONE`], or in a writer made without reasons).
    pub fn record_with_reason(&mut self, q: &Quantum, deltas: &[u64], reason: u8) -> bool {
        assert_eq!(deltas.len(), self.counters, "counter deltas");
        let with_reason = self.reasons && reason != super::reason::NONE;
        let len = QUANTUM_FIXED_LEN + 8 * self.counters;
        let code = match self.room(len + if with_reason { REASON_LEN } else { 0 }) {
            Some(c) => c,
            None => {
                self.stats.missed += 1;
                return false;
            }
        };
        let gid = (q.thread.min(i32::MAX as u32)) as i32;
        let s = &mut self.scratch;
        s[0..4].copy_from_slice(&encode(q.local_tid, code, q.thread_switch, self.vp, format::QUANTUM).to_le_bytes());
        s[4..8].copy_from_slice(&(if q.yielded { -gid } else { gid }).to_le_bytes());
        s[8..16].copy_from_slice(&q.start.to_le_bytes());
        s[16..24].copy_from_slice(&q.end.to_le_bytes());
        s[24..28].copy_from_slice(&q.callee.to_le_bytes());
        s[28..32].copy_from_slice(&q.caller.to_le_bytes());
        for (i, d) in deltas.iter().enumerate() {
            s[32 + 8 * i..40 + 8 * i].copy_from_slice(&d.to_le_bytes());
        }
        let buf = self.current.as_mut().expect("room() leaves a buffer");
        buf.bytes.extend_from_slice(&self.scratch[..len]);
        if with_reason {
            // Part of the quantum's record for the counts: a file cut between the two keeps the
            // quantum without its reason.
            buf.bytes.extend_from_slice(&encode(q.local_tid, code, false, self.vp, format::REASON).to_le_bytes());
            buf.bytes.extend_from_slice(&(reason as u32).to_le_bytes());
        }
        buf.records += 1;
        self.stats.records += 1;
        true
    }

    /// Appends a marker: application start/complete (`run` ignored), run start/complete (with `run`).
    /// The text is cut so that the record takes at most [`MARKER_LEN_MAX`] bytes. Returns false
    /// when missed.
    pub fn marker(&mut self, kind: super::MarkerKind, local_tid: u16, time: u64, run: u32, text: &str) -> bool {
        let fmt = kind.format();
        let (with_run, fixed) = (kind.has_run(), kind.fixed_len());
        let max_text = MARKER_LEN_MAX - fixed;
        let mut cut = text.len().min(max_text);
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        let text = &text.as_bytes()[..cut];
        let Some(code) = self.room(fixed + text.len()) else {
            self.stats.missed += 1;
            return false;
        };
        let buf = self.current.as_mut().expect("room");
        buf.records += 1;
        let b = &mut buf.bytes;
        b.extend_from_slice(&encode(local_tid, code, false, self.vp, fmt).to_le_bytes());
        b.extend_from_slice(&time.to_le_bytes());
        if with_run {
            b.extend_from_slice(&run.to_le_bytes());
        }
        b.extend_from_slice(&(text.len() as u32).to_le_bytes());
        b.extend_from_slice(text);
        self.stats.markers += 1;
        true
    }

    /// Writes the exit record and hands the last buffer to the trace writer; the sink's loop ends
    /// once it has written it. Returns the final statistics (for the meta file).
    /// Unlike [`record`](Self::record), this waits (up to a second) for a free buffer.
    pub fn finish(mut self, time: u64, exit_value: i32) -> WriterStats {
        let mut code = self.room(16);
        if code.is_none() {
            if let Ok(b) = self.free_rx.recv_timeout(Duration::from_secs(1)) {
                code = Some(b.code);
                self.current = Some(b);
            }
        }
        if let Some(code) = code {
            let buf = self.current.as_mut().expect("room");
            buf.records += 1;
            let b = &mut buf.bytes;
            b.extend_from_slice(&encode(0, code, false, self.vp, format::EXIT).to_le_bytes());
            b.extend_from_slice(&time.to_le_bytes());
            b.extend_from_slice(&exit_value.to_le_bytes());
            self.stats.markers += 1;
        } else {
            self.stats.missed += 1;
        }
        if let Some(buf) = self.current.take() {
            if !buf.bytes.is_empty() {
                let _ = self.full_tx.try_send(buf);
            }
        }
        self.stats
    }

    /// A buffer with `len` free bytes, switching buffers if the current one is full; its code.
    fn room(&mut self, len: usize) -> Option<u8> {
        if let Some(b) = &self.current {
            if b.bytes.len() + len <= BUFFER_LEN {
                return Some(b.code);
            }
            let full = self.current.take().expect("checked");
            // Capacity 2 and only two buffers exist, so this cannot be full; if the writer is gone
            // the buffer is lost (its records are counted as written here, but the sink's
            // `records_written` shows they never reached the file).
            if self.full_tx.try_send(full).is_ok() {
                self.handoffs += 1;
            }
        }
        match self.free_rx.try_recv() {
            Ok(b) => {
                let code = b.code;
                self.current = Some(b);
                Some(code)
            }
            Err(TryRecvError::Empty) | Err(TryRecvError::Disconnected) => None,
        }
    }
}

impl BufferSink {
    pub fn vp(&self) -> u32 {
        self.vp
    }

    /// Bytes of the buffers written in full so far: after a write error, the file's length up to
    /// the last complete record.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// Records (quanta, markers, the exit record) in the buffers written in full so far. With the
    /// writer's [`WriterStats`], says how many records are not in the file.
    pub fn records_written(&self) -> u64 {
        self.records_written
    }

    /// Writes every buffer handed over so far, without waiting. Returns whether the recording side
    /// has finished (and everything is written). For VMs that schedule the writer themselves.
    pub fn write_pending(&mut self, out: &mut dyn Write) -> io::Result<bool> {
        loop {
            match self.full_rx.try_recv() {
                Ok(b) => self.write_one(b, out)?,
                Err(TryRecvError::Empty) => return Ok(false),
                Err(TryRecvError::Disconnected) => {
                    out.flush()?;
                    return Ok(true);
                }
            }
        }
    }

    /// Waits up to `timeout` for a full buffer and writes it (and any others pending). Returns
    /// whether the recording side has finished.
    pub fn wait_and_write(&mut self, out: &mut dyn Write, timeout: Duration) -> io::Result<bool> {
        match self.full_rx.recv_timeout(timeout) {
            Ok(b) => {
                self.write_one(b, out)?;
                self.write_pending(out)
            }
            Err(RecvTimeoutError::Timeout) => Ok(false),
            Err(RecvTimeoutError::Disconnected) => {
                out.flush()?;
                Ok(true)
            }
        }
    }

    /// The trace-writer loop: writes buffers until the writer has finished. Returns bytes written.
    pub fn run(mut self, out: &mut dyn Write) -> io::Result<u64> {
        while !self.wait_and_write(out, Duration::from_millis(100))? {}
        Ok(self.written)
    }

    /// Writes one buffer. When a write fails part way (a full disk, the file-size limit), the
    /// complete records of the part that reached the file are counted as written, so that the
    /// file can be cut back to them rather than to the buffer's start.
    fn write_one(&mut self, mut b: Buffer, out: &mut dyn Write) -> io::Result<()> {
        let mut done = 0;
        while done < b.bytes.len() {
            let failure = match out.write(&b.bytes[done..]) {
                Ok(0) => io::Error::new(io::ErrorKind::WriteZero, "the file takes no more bytes"),
                Ok(n) => {
                    done += n;
                    continue;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => e,
            };
            let header = if self.written == 0 { HEADER_LEN } else { 0 };
            if done >= header {
                let (len, records) = complete_records(&b.bytes[header..done], self.counters);
                self.written += (header + len) as u64;
                self.records_written += records;
            }
            return Err(failure);
        }
        self.written += b.bytes.len() as u64;
        self.records_written += b.records;
        b.bytes.clear();
        b.records = 0;
        // The writer may be gone (finished); then the buffer is simply dropped.
        let _ = self.free_tx.try_send(b);
        Ok(())
    }
}

/// The length of the complete records at the start of `bytes` (records as this writer makes them,
/// with `counters` deltas), and how many they are.
fn complete_records(bytes: &[u8], counters: usize) -> (usize, u64) {
    let u32_at = |o: usize| bytes.get(o..o + 4).map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")) as usize);
    let (mut o, mut n) = (0, 0);
    while let Some(word) = u32_at(o) {
        let fmt = (word & 0xf) as u32;
        let len = match (fmt, super::MarkerKind::from_format(fmt)) {
            (format::QUANTUM, _) => QUANTUM_FIXED_LEN + 8 * counters,
            (format::EXIT, _) => 16,
            // counted with the quantum before it
            (format::REASON, _) if o + REASON_LEN <= bytes.len() => {
                o += REASON_LEN;
                continue;
            }
            (_, Some(marker)) => match u32_at(o + marker.fixed_len() - 4) {
                Some(text) => marker.fixed_len() + text,
                None => break,
            },
            _ => break,
        };
        if o + len > bytes.len() {
            break;
        }
        o += len;
        n += 1;
    }
    (o, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file that takes `room` more bytes, then fails as at the file-size limit.
    struct Limited {
        bytes: Vec<u8>,
        room: usize,
    }

    impl Write for Limited {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.room == 0 {
                return Err(io::Error::from_raw_os_error(libc::EFBIG));
            }
            let n = buf.len().min(self.room);
            self.bytes.extend_from_slice(&buf[..n]);
            self.room -= n;
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_write_cut_short_counts_the_complete_records_that_reached_the_file() {
        // Header (32 bytes), a marker of 16 + 5 bytes, quanta of 40 bytes: buffer 0 handed over.
        let fill = |w: &mut QuantumWriter| {
            assert!(w.marker(crate::quantum::MarkerKind::Note, 1, 7, 0, "hello"));
            while w.handoffs() == 0 {
                w.record(&Quantum { thread: 1, thread_switch: true, ..Quantum::default() }, &[9]);
            }
        };
        for (room, written, records) in [(10, 0, 0), (32, 32, 0), (52, 32, 0), (53, 53, 1), (53 + 39, 53, 1), (53 + 80, 53 + 80, 3)] {
            let (mut w, mut sink) = QuantumWriter::new(0, 1);
            fill(&mut w);
            let mut file = Limited { bytes: Vec::new(), room };
            let e = sink.write_pending(&mut file).unwrap_err();
            assert_eq!(e.raw_os_error(), Some(libc::EFBIG));
            assert_eq!((sink.written(), sink.records_written()), (written, records), "{room} bytes of room");
            // What the file holds up to there reads back as that many records.
            if written >= 32 {
                let mut issues = Vec::new();
                let t = crate::quantum::reader::parse_file(&file.bytes[..written as usize], "t", Default::default(), &mut issues).unwrap();
                assert_eq!(t.entries.len() as u64, records, "{room} bytes of room");
            }
        }
    }

    /// A writer with reasons writes a version-2 file whose reason records the reader attaches to
    /// the quantum before them; one without writes version 1 and no reason records.
    #[test]
    fn reasons_follow_their_quanta_in_version_2_files_only() {
        use crate::quantum::reason;
        let q = |t: u32| Quantum { thread: t, local_tid: t as u16, yielded: true, thread_switch: true, start: 10 * t as u64, end: 10 * t as u64 + 5, callee: 0, caller: 0 };
        for with in [true, false] {
            let (mut w, mut sink) = if with { QuantumWriter::with_reasons(0, 1) } else { QuantumWriter::new(0, 1) };
            assert!(w.record_with_reason(&q(1), &[1], reason::PARK));
            assert!(w.record_with_reason(&q(2), &[2], reason::NONE));
            assert!(w.record_with_reason(&q(3), &[3], reason::UNPARK));
            w.finish(100, 0);
            let mut out = Vec::new();
            sink.write_pending(&mut out).unwrap();
            assert_eq!(u16::from_le_bytes([out[8], out[9]]), if with { 2 } else { 1 }, "format version");
            let mut issues = Vec::new();
            let (t, reasons) = crate::quantum::reader::parse_file_with_reasons(&out, "t", Default::default(), &mut issues).unwrap();
            assert!(issues.is_empty(), "{issues:?}");
            assert_eq!(t.entries.len(), 4, "three quanta and the exit record");
            let offsets: Vec<u64> = t.entries.iter().map(|e| e.offset()).collect();
            let expected = if with { vec![(offsets[0], reason::PARK), (offsets[2], reason::UNPARK)] } else { Vec::new() };
            assert_eq!(reasons, expected);
            // 32 header + 3 quanta of 40 + 2 reason records of 8 (version 2) + exit 16.
            assert_eq!(out.len(), 32 + 3 * 40 + if with { 16 } else { 0 } + 16);
            // A reason record that follows no quantum is an error.
            if with {
                let mut bad = out[..32].to_vec();
                bad.extend_from_slice(&crate::quantum::encode(0, 0, false, 0, format::REASON).to_le_bytes());
                bad.extend_from_slice(&5u32.to_le_bytes());
                let mut issues = Vec::new();
                crate::quantum::reader::parse_file(&bad, "t", Default::default(), &mut issues).unwrap();
                assert!(issues.iter().any(|i| i.to_string().contains("reason record that does not follow a quantum record")), "{issues:?}");
            }
        }
    }

    #[test]
    fn handoffs_count_the_buffers_given_to_the_writer() {
        let (mut w, mut sink) = QuantumWriter::new(0, 1);
        let q = Quantum { thread: 1, thread_switch: true, ..Quantum::default() };
        let per_buffer = (BUFFER_LEN - HEADER_LEN) / (QUANTUM_FIXED_LEN + 8);
        for _ in 0..per_buffer {
            assert!(w.record(&q, &[0]));
        }
        assert_eq!(w.handoffs(), 0, "the first buffer is not full yet");
        assert!(w.record(&q, &[0]));
        assert_eq!(w.handoffs(), 1, "the record that did not fit handed buffer 0 over");
        let mut out = Vec::new();
        assert!(!sink.write_pending(&mut out).unwrap());
        assert_eq!(out.len(), HEADER_LEN + per_buffer * (QUANTUM_FIXED_LEN + 8));
        assert_eq!((sink.written(), sink.records_written()), (out.len() as u64, per_buffer as u64));
    }
}
