//! The managed heap: one semispace of 32-bit words in use at a time, bump allocation, and a
//! Cheney-style copying collector (see `gc.rs` for the stop-the-world protocol).
//!
//! A reference is the word index of an object in the current space (0 is `null`). Layout:
//! word 0 class id, word 1 identity hash (0 = not yet assigned), word 2 monitor index + 1
//! (0 = no monitor); arrays have their length in word 3 and their elements from word 4, packed by
//! element size (bytes 4 per word, chars/shorts 2, ints/floats/references 1, longs/doubles 2 words).
//! Instance fields take one word each (longs/doubles two) from word 3.
//!
//! Words are `AtomicU32` accessed with `Relaxed` ordering so that several virtual processors can
//! share the heap without `unsafe`; on x86 these are plain loads and stores. Sub-word array
//! stores use a compare-and-swap loop so that neighbouring elements are never torn.

use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, RwLock};

pub type Ref = u32;
pub const HEADER: usize = 3;
pub const ARRAY_HEADER: usize = 4;
/// Marks a forwarded object in from-space during a collection (word 1 then holds the new address).
pub const FORWARDED: u32 = u32::MAX;

pub struct Space {
    pub w: Vec<AtomicU32>,
}

impl Space {
    pub fn new(words: usize) -> Space {
        Space { w: vec![0u32; words].into_iter().map(AtomicU32::new).collect() }
    }
    #[inline(always)]
    pub fn get(&self, i: usize) -> u32 {
        self.w[i].load(Relaxed)
    }
    #[inline(always)]
    pub fn set(&self, i: usize, v: u32) {
        self.w[i].store(v, Relaxed)
    }
    #[inline(always)]
    pub fn get64(&self, i: usize) -> u64 {
        (self.get(i) as u64) | ((self.get(i + 1) as u64) << 32)
    }
    #[inline(always)]
    pub fn set64(&self, i: usize, v: u64) {
        self.set(i, v as u32);
        self.set(i + 1, (v >> 32) as u32);
    }
    #[inline(always)]
    pub fn class_id(&self, r: Ref) -> u32 {
        self.get(r as usize)
    }
    #[inline(always)]
    pub fn array_len(&self, r: Ref) -> usize {
        self.get(r as usize + 3) as usize
    }
    /// Reads element `i` of an array whose elements are `size` bytes (1, 2, 4 or 8).
    #[inline(always)]
    pub fn array_get(&self, r: Ref, size: usize, i: usize) -> u64 {
        let base = r as usize + ARRAY_HEADER;
        match size {
            4 => self.get(base + i) as u64,
            8 => self.get64(base + 2 * i),
            2 => (self.get(base + i / 2) >> ((i & 1) * 16)) as u64 & 0xffff,
            _ => (self.get(base + i / 4) >> ((i & 3) * 8)) as u64 & 0xff,
        }
    }
    #[inline(always)]
    pub fn array_set(&self, r: Ref, size: usize, i: usize, v: u64) {
        let base = r as usize + ARRAY_HEADER;
        match size {
            4 => self.set(base + i, v as u32),
            8 => self.set64(base + 2 * i, v),
            2 => {
                let shift = (i & 1) * 16;
                self.update(base + i / 2, 0xffff << shift, ((v as u32) & 0xffff) << shift)
            }
            _ => {
                let shift = (i & 3) * 8;
                self.update(base + i / 4, 0xff << shift, ((v as u32) & 0xff) << shift)
            }
        }
    }
    fn update(&self, idx: usize, mask: u32, bits: u32) {
        let cell = &self.w[idx];
        let mut cur = cell.load(Relaxed);
        loop {
            let new = (cur & !mask) | bits;
            match cell.compare_exchange_weak(cur, new, Relaxed, Relaxed) {
                Ok(_) => return,
                Err(c) => cur = c,
            }
        }
    }
}

/// Words needed for an array of `len` elements of `size` bytes.
pub fn array_words(size: usize, len: usize) -> usize {
    ARRAY_HEADER + (len * size).div_ceil(4)
}

pub struct Heap {
    pub space: RwLock<Arc<Space>>,
    pub top: AtomicUsize,
    /// Allocation limit for application allocations (the space's length minus a reserve kept for
    /// the VM's own allocations: interned constants, class mirrors, exceptions being thrown).
    pub limit: AtomicUsize,
    pub max_semi_words: usize,
    pub collections: AtomicUsize,
    pub copied_words: AtomicUsize,
    /// Free words left by the last collection, and the size of the last failed request.
    pub free_after_gc: AtomicUsize,
    pub last_fail: AtomicUsize,
}

pub const RESERVE_WORDS: usize = 64 * 1024;
pub const MIN_SEMI_WORDS: usize = 1 << 20;

impl Heap {
    pub fn new(max_bytes: usize) -> Heap {
        let max_semi_words = (max_bytes / 2 / 4).max(RESERVE_WORDS * 4);
        let initial = MIN_SEMI_WORDS.min(max_semi_words);
        Heap {
            space: RwLock::new(Arc::new(Space::new(initial))),
            top: AtomicUsize::new(4),
            limit: AtomicUsize::new(initial - RESERVE_WORDS),
            max_semi_words,
            collections: AtomicUsize::new(0),
            copied_words: AtomicUsize::new(0),
            free_after_gc: AtomicUsize::new(usize::MAX),
            last_fail: AtomicUsize::new(0),
        }
    }
    pub fn current(&self) -> Arc<Space> {
        self.space.read().unwrap().clone()
    }
    /// Bump-allocates `words` zeroed words; `None` when the space is full (a collection is needed).
    /// `vm_internal` allocations may use the reserve.
    pub fn alloc_words(&self, words: usize, vm_internal: bool) -> Option<usize> {
        let limit = if vm_internal {
            self.limit.load(Relaxed) + RESERVE_WORDS
        } else {
            self.limit.load(Relaxed)
        };
        let mut cur = self.top.load(Relaxed);
        loop {
            let end = cur.checked_add(words)?;
            if end > limit {
                self.last_fail.store(words, Relaxed);
                return None;
            }
            match self.top.compare_exchange_weak(cur, end, Relaxed, Relaxed) {
                Ok(_) => return Some(cur),
                Err(c) => cur = c,
            }
        }
    }
    pub fn used_words(&self) -> usize {
        self.top.load(Relaxed)
    }
}
