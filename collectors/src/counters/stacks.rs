//! Raw stack samples, written by a signal handler and read later: the frames a VM's stack walker
//! found, and the metric deltas of the thread since its previous stack sample.
//!
//! The handler cannot name methods (that needs the VM, locks and allocation), so samples are kept
//! raw: one [`RawFrame`] per frame, the VM's own method key and position. A [`SampleRing`] per
//! thread holds them until a drain (on another thread) resolves them into a tree.
//!
//! The ring is single-producer, single-consumer over `AtomicU64` words: the producer is the
//! thread's own signal handler (one at a time: the signal is blocked while its handler runs), the
//! consumer whoever holds the ring's drain lock. Words are stored and loaded relaxed; the
//! producer's release store of `tail` publishes a record, the consumer's release store of `head`
//! hands its space back. No allocation, no lock, no system call on the producer side.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use hpm_model::sampling::{FrameForm, SampleState, Tier};

/// One frame of a sampled stack as a walker writes it. The layout is that of HotSpot's
/// `ASGCT_CallFrame` (`jint lineno; jmethodID method_id;`), so `AsyncGetCallTrace` can write an
/// array of these directly; `form` sits in that struct's padding, which AGCT never writes.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RawFrame {
    /// Position in the method (a bytecode index on HotSpot), negative for frames without one.
    pub pos: i32,
    /// How this frame's method was running, where the walker could tell.
    pub form: FrameForm,
    /// The VM's key of the method; 0 for a pseudo-frame whose `pos` is a walker's failure code.
    pub method: u64,
}

impl RawFrame {
    /// The position of a frame that is a native method running (AsyncGetCallTrace's `lineno`
    /// for native frames, which other walkers follow).
    pub const NATIVE: i32 = -3;
    /// The position of a frame of native code (C, C++, the kernel's entry), whose `method` is
    /// the program counter: `sample-native=on` puts them above the Java frames.
    pub const NATIVE_CODE: i32 = i32::MIN;

    /// A frame whose form is not known.
    pub const fn new(pos: i32, method: u64) -> RawFrame {
        RawFrame { pos, form: FrameForm::Unknown, method }
    }
}

/// What the walker found at a sample's interrupted program counter, packed in one word of the
/// ring: whether it is the VM's interpreter, compiled code (and which frame of the sample owns
/// it, and its tier), other generated code, or none of these (bits 0 to 47); and in the top byte
/// the thread's [`SampleState`] (0, unknown, in rings written before states were).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeAt(u64);

impl CodeAt {
    const NOT_LOOKED: u64 = 0;
    const OUTSIDE: u64 = 1;
    const INTERPRETED: u64 = 2;
    const COMPILED: u64 = 3;
    const STUB: u64 = 4;

    /// The walker did not look (the recorder falls back to its code map).
    pub const fn unknown() -> CodeAt {
        CodeAt(Self::NOT_LOOKED)
    }
    /// Outside any code the VM generated: native code or the VM's own.
    pub const fn outside() -> CodeAt {
        CodeAt(Self::OUTSIDE)
    }
    pub const fn interpreted() -> CodeAt {
        CodeAt(Self::INTERPRETED)
    }
    /// Code the VM generated that is no compiled method of the sample's frames.
    pub const fn stub() -> CodeAt {
        CodeAt(Self::STUB)
    }
    /// The compiled code of frame `owner` (innermost first); frames inside it were inlined.
    pub const fn compiled(owner: usize, tier: Tier) -> CodeAt {
        let t = match tier {
            Tier::Unknown => 0,
            Tier::C1 => 1,
            Tier::C2 => 2,
        };
        CodeAt(Self::COMPILED | t << 8 | (owner as u64 & 0xffff_ffff) << 16)
    }
    pub const fn from_word(w: u64) -> CodeAt {
        CodeAt(w)
    }
    pub const fn word(self) -> u64 {
        self.0
    }
    /// The same, with the thread's state.
    pub const fn with_state(self, state: SampleState) -> CodeAt {
        CodeAt(self.0 & !(0xff << 56) | (state as u64) << 56)
    }
    pub fn state(self) -> SampleState {
        SampleState::from_byte((self.0 >> 56) as u8)
    }
    pub fn is_known(self) -> bool {
        self.0 & 0xff != Self::NOT_LOOKED
    }
    pub fn is_outside(self) -> bool {
        self.0 & 0xff == Self::OUTSIDE
    }
    pub fn is_interpreted(self) -> bool {
        self.0 & 0xff == Self::INTERPRETED
    }
    pub fn is_stub(self) -> bool {
        self.0 & 0xff == Self::STUB
    }
    /// For compiled code: the owning frame's index and the tier.
    pub fn compiled_by(self) -> Option<(usize, Tier)> {
        (self.0 & 0xff == Self::COMPILED).then(|| {
            let tier = match (self.0 >> 8) & 0xff {
                1 => Tier::C1,
                2 => Tier::C2,
                _ => Tier::Unknown,
            };
            (((self.0 >> 16) & 0xffff_ffff) as usize, tier)
        })
    }
}

/// Where and when a stack sample was taken: the interrupted program counter, what the walker
/// found there, and the time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Site {
    pub pc: u64,
    pub code: CodeAt,
    /// `CLOCK_MONOTONIC` ns when the handler took the sample (0: not known), for the samples'
    /// timeline: the drain runs every 100 ms, far too coarse to place a sample in time.
    pub time: u64,
}

/// A VM's stack walker, called in the sampling signal handler on the sampled thread itself.
///
/// `walk` must be async-signal-safe: no allocation, no lock, nothing that can block or call back
/// into code the signal may have interrupted. It writes the interrupted thread's frames into
/// `out`, innermost first, and returns how many it wrote, or 0 or a negative code when it found
/// none (stored as one frame with method 0 and that code as its position). A walker that can
/// tell what code is at `pc`, the program counter the signal interrupted, says so in `code`
/// (in the same pass, so it pays for one guarded read, not two); left unknown, the recorder's
/// code map (if any) decides later.
pub trait StackWalker: Send + Sync {
    /// Walks the calling thread's interrupted stack.
    ///
    /// # Safety
    /// Called only in a signal handler on the sampled thread: `ucontext` is the `ucontext_t` of
    /// the signal being handled, `pc` its program counter, and `thread` the handle given when
    /// this thread's sampling started on it.
    unsafe fn walk(&self, thread: usize, ucontext: *mut std::ffi::c_void, pc: u64, out: &mut [RawFrame], code: &mut CodeAt) -> i32;
}

/// Code whose running time is the profiler's own, not the program's: the bytecode probes'
/// methods, compiled or interpreted. A CPU-time signal that interrupts it credits the thread's interval to no
/// context: the drain gives it under [`PROBE_CODE_OWNER`], so that the probes' cost is measured
/// where it lands instead of estimated per call.
pub trait ProbeCode: Send + Sync {
    /// Whether `pc`, the program counter a signal interrupted, is in that code; `ucontext` is the
    /// signal's `ucontext_t` (or null), for code that needs more of the interrupted registers
    /// (an interpreter's frame pointer).
    ///
    /// # Safety
    /// Called only in a signal handler on the interrupted thread: it must be async-signal-safe
    /// (no lock, no allocation) and recover from reading memory that changes under it.
    unsafe fn contains(&self, ucontext: *mut std::ffi::c_void, pc: u64) -> bool;
}

/// The owner under which [`crate::sampling::SampledThread::drain`] gives what signals sampled
/// inside [`ProbeCode`] (context 0): no logical thread has it.
pub const PROBE_CODE_OWNER: u32 = u32::MAX;

/// What a drain calls for each sample: `(weights, site, frames)`.
pub type SampleSink<'a> = dyn FnMut(&[u64], Site, &[RawFrame]) + 'a;

/// Marks the end of the ring's buffer: the next record starts at word 0.
const WRAP: u64 = u64::MAX;

/// Words of a record besides its weights and frames: header, pc, code word, time.
const HEADER: usize = 4;

/// Counts of a ring's traffic.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RingStats {
    /// Records written.
    pub pushed: u64,
    /// Records refused because the ring was full (the writer keeps their weights for its next).
    pub full: u64,
}

/// A ring of variable-length stack samples: per record a header word (its length in words and its
/// frame count), the weights (one word per metric), the interrupted program counter, the
/// [`CodeAt`] word and the time ([`Site::time`]), then two words per frame (its method; its
/// position, and its form above bit 32).
pub struct SampleRing {
    words: Box<[AtomicU64]>,
    weights: usize,
    /// Positions in words since creation (never wrapped); index = position % capacity.
    head: AtomicU64,
    tail: AtomicU64,
    pushed: AtomicU64,
    full: AtomicU64,
    /// Held by the one consumer at a time.
    drain: Mutex<Vec<RawFrame>>,
}

impl SampleRing {
    /// A ring of `words` 8-byte words (every buffer allocated here) for samples of `weights`
    /// metrics. A sample of d frames takes 4 + weights + 2d words.
    pub fn new(words: usize, weights: usize) -> SampleRing {
        let words = words.max(HEADER + 2 + weights);
        SampleRing {
            words: (0..words).map(|_| AtomicU64::new(0)).collect(),
            weights,
            head: AtomicU64::new(0),
            tail: AtomicU64::new(0),
            pushed: AtomicU64::new(0),
            full: AtomicU64::new(0),
            drain: Mutex::new(Vec::new()),
        }
    }

    /// The most frames one record can hold in this ring.
    pub fn max_frames(&self) -> usize {
        (self.words.len() - HEADER - self.weights) / 2
    }

    /// The producer's side (one thread at a time; async-signal-safe): appends one sample taken at
    /// `site`, frames innermost first, truncated to [`SampleRing::max_frames`].
    /// Returns false, writing nothing, when the ring has no room.
    pub fn push(&self, weights: &[u64], site: Site, frames: &[RawFrame]) -> bool {
        debug_assert_eq!(weights.len(), self.weights);
        let frames = &frames[..frames.len().min(self.max_frames())];
        let cap = self.words.len() as u64;
        let need = (HEADER + self.weights + 2 * frames.len()) as u64;
        let head = self.head.load(Ordering::Acquire);
        let mut tail = self.tail.load(Ordering::Relaxed);
        let room_to_end = cap - tail % cap;
        let wraps = room_to_end < need;
        let end = tail + if wraps { room_to_end } else { 0 } + need;
        if end - head > cap {
            self.full.fetch_add(1, Ordering::Relaxed);
            return false;
        }
        if wraps {
            self.words[(tail % cap) as usize].store(WRAP, Ordering::Relaxed);
            tail += room_to_end;
        }
        let mut i = (tail % cap) as usize;
        let mut put = |w: u64| {
            self.words[i].store(w, Ordering::Relaxed);
            i += 1;
        };
        put(need | (frames.len() as u64) << 32);
        for &w in weights {
            put(w);
        }
        put(site.pc);
        put(site.code.word());
        put(site.time);
        for f in frames {
            put(f.method);
            put(f.pos as u32 as u64 | (f.form as u64) << 32);
        }
        self.tail.store(end, Ordering::Release);
        self.pushed.fetch_add(1, Ordering::Relaxed);
        true
    }

    /// The consumer's side: calls `f(weights, site, frames)` for every sample written so far,
    /// oldest first, frames innermost first, and frees their space. Drains of one ring are
    /// serialised.
    pub fn drain(&self, f: &mut SampleSink) {
        let mut frames = self.drain.lock().unwrap_or_else(|e| e.into_inner());
        let mut weights = vec![0u64; self.weights];
        let cap = self.words.len() as u64;
        let tail = self.tail.load(Ordering::Acquire);
        let mut head = self.head.load(Ordering::Relaxed);
        while head < tail {
            let mut i = (head % cap) as usize;
            let word = self.words[i].load(Ordering::Relaxed);
            if word == WRAP {
                head += cap - head % cap;
                continue;
            }
            let (len, depth) = (word & 0xffff_ffff, (word >> 32) as usize);
            i += 1;
            for w in weights.iter_mut() {
                *w = self.words[i].load(Ordering::Relaxed);
                i += 1;
            }
            let pc = self.words[i].load(Ordering::Relaxed);
            let code = CodeAt::from_word(self.words[i + 1].load(Ordering::Relaxed));
            let time = self.words[i + 2].load(Ordering::Relaxed);
            i += 3;
            frames.clear();
            for _ in 0..depth {
                let method = self.words[i].load(Ordering::Relaxed);
                let w = self.words[i + 1].load(Ordering::Relaxed);
                frames.push(RawFrame { pos: w as u32 as i32, form: FrameForm::from_byte((w >> 32) as u8), method });
                i += 2;
            }
            head += len;
            // Free the space before the callback: it may be slow (naming methods), and the
            // record is copied out already.
            self.head.store(head, Ordering::Release);
            f(&weights, Site { pc, code, time }, &frames);
        }
    }

    pub fn stats(&self) -> RingStats {
        RingStats { pushed: self.pushed.load(Ordering::Relaxed), full: self.full.load(Ordering::Relaxed) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A site whose code word varies with the pc, so that both come through.
    fn site(pc: u64) -> Site {
        let code = match pc % 4 {
            0 => CodeAt::interpreted(),
            1 => CodeAt::compiled((pc % 7) as usize, Tier::C2),
            2 => CodeAt::compiled(0, Tier::C1),
            _ => CodeAt::unknown(),
        };
        Site { pc, code, time: pc * 1000 + 7 }
    }

    #[test]
    fn code_words_round_trip() {
        assert_eq!(CodeAt::compiled(5, Tier::C1).compiled_by(), Some((5, Tier::C1)));
        assert_eq!(CodeAt::compiled(0, Tier::C2).compiled_by(), Some((0, Tier::C2)));
        assert_eq!(CodeAt::compiled(3, Tier::Unknown).compiled_by(), Some((3, Tier::Unknown)));
        assert!(CodeAt::interpreted().is_interpreted() && CodeAt::interpreted().compiled_by().is_none());
        assert!(CodeAt::stub().is_stub() && CodeAt::outside().is_outside());
        assert!(!CodeAt::unknown().is_known() && CodeAt::outside().is_known());
    }

    #[test]
    fn a_state_rides_in_the_code_word_and_leaves_the_rest_alone() {
        for code in [CodeAt::compiled(0xffff_ffff, Tier::C2), CodeAt::interpreted(), CodeAt::unknown(), CodeAt::stub()] {
            assert_eq!(code.state(), SampleState::Unknown);
            for s in SampleState::ALL {
                let c = code.with_state(s);
                assert_eq!(c.state(), s);
                assert_eq!(c.compiled_by(), code.compiled_by());
                assert_eq!((c.is_known(), c.is_interpreted(), c.is_stub()), (code.is_known(), code.is_interpreted(), code.is_stub()));
                assert_eq!(c.with_state(SampleState::Unknown), code);
            }
        }
        for b in 0..=7u8 {
            assert_eq!(SampleState::from_byte(b) as u8, if b == 7 { 0 } else { b });
        }
    }

    #[test]
    fn a_raw_frame_is_laid_out_as_asgct_call_frame() {
        // `jint lineno` at 0, `jmethodID method_id` at 8: the form byte lives in the padding.
        assert_eq!(std::mem::size_of::<RawFrame>(), 16);
        assert_eq!(std::mem::offset_of!(RawFrame, method), 8);
        assert_eq!(std::mem::offset_of!(RawFrame, form), 4);
        for b in 0..=7u8 {
            let f = FrameForm::from_byte(b);
            assert_eq!(f as u8, if b == 7 { 0 } else { b });
        }
    }

    fn frames(n: usize, seed: u64) -> Vec<RawFrame> {
        (0..n).map(|i| RawFrame { pos: i as i32 - 1, form: FrameForm::from_byte(i as u8 % 8), method: seed * 1000 + i as u64 }).collect()
    }

    #[test]
    fn samples_come_out_in_order_and_intact_across_wraps() {
        let ring = SampleRing::new(64, 2);
        let mut out = Vec::new();
        for round in 0..50u64 {
            for k in 0..3u64 {
                let n = ((round + k) % 7) as usize;
                assert!(ring.push(&[round, k], site(round * 10 + k), &frames(n, round * 3 + k)), "round {round} sample {k}");
            }
            ring.drain(&mut |w, pc, f| out.push((w.to_vec(), pc, f.to_vec())));
        }
        assert_eq!(out.len(), 150);
        for (j, (w, pc, f)) in out.iter().enumerate() {
            let (round, k) = (j as u64 / 3, j as u64 % 3);
            assert_eq!(w, &vec![round, k]);
            assert_eq!(*pc, site(round * 10 + k));
            assert_eq!(f, &frames(((round + k) % 7) as usize, round * 3 + k));
        }
    }

    #[test]
    fn a_full_ring_refuses_and_counts_and_deep_stacks_are_cut() {
        let ring = SampleRing::new(32, 1);
        assert_eq!(ring.max_frames(), 13);
        assert!(ring.push(&[1], site(7), &frames(40, 1)));
        assert!(!ring.push(&[2], site(7), &frames(1, 2)), "all 31 of 32 words used");
        assert_eq!(ring.stats(), RingStats { pushed: 1, full: 1 });
        let mut got = Vec::new();
        ring.drain(&mut |w, _, f| got.push((w[0], f.len())));
        assert_eq!(got, vec![(1, 13)]);
        assert!(ring.push(&[2], site(7), &frames(1, 2)));
    }

    #[test]
    fn a_concurrent_producer_and_consumer_lose_nothing() {
        let ring = std::sync::Arc::new(SampleRing::new(256, 1));
        let r = ring.clone();
        let producer = std::thread::spawn(move || {
            let mut sent = 0u64;
            let mut i = 0u64;
            while i < 20_000 {
                if r.push(&[i], site(i), &frames((i % 9) as usize, i)) {
                    sent += i;
                    i += 1;
                }
            }
            sent
        });
        let mut got = 0u64;
        let mut next = 0u64;
        while next < 20_000 {
            ring.drain(&mut |w, pc, f| {
                assert_eq!(w[0], next);
                assert_eq!(pc, site(next));
                assert_eq!(f, frames((next % 9) as usize, next).as_slice());
                got += w[0];
                next += 1;
            });
        }
        assert_eq!(producer.join().unwrap(), got);
    }
}
