//! Cache lines of one's own, for per-thread state that a thread writes on its hot paths (a probe,
//! a sampling signal, a credit).
//!
//! Two threads that write data on one cache line move the line between their cores at every
//! write (false sharing): with bytecode probes that store into neighbouring 4-byte cells, 16
//! busy threads made each call an order of magnitude dearer. A line here is 128 bytes: x86's
//! adjacent-line prefetcher fetches 64-byte lines in pairs, so two writers 64 bytes apart still
//! contend. Everything here is safe code: alignment comes from `repr(align)`, and a buffer's
//! isolation from unused guard bands.

use std::ops::{Deref, DerefMut};
use std::sync::atomic::AtomicU32;

/// The unit of isolation, in bytes.
pub const LINE: usize = 128;

/// `T` on lines of its own: aligned to [`LINE`], its size a multiple of it, so no other value
/// (in an array, a struct or the allocator's next block) shares its lines.
#[repr(align(128))]
#[derive(Debug, Default)]
pub struct OwnLines<T>(pub T);

const _: () = assert!(std::mem::align_of::<OwnLines<u8>>() == LINE);

impl<T> Deref for OwnLines<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> DerefMut for OwnLines<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

/// A context cell on a line of its own: a thread's current context, which its probes store at
/// every call and its sampling signals read. Never freed: a probe may store into it until its
/// thread's very end, after the agent last hears of the thread.
pub fn new_cell() -> &'static AtomicU32 {
    &Box::leak(Box::new(OwnLines(AtomicU32::new(0)))).0
}

/// A fixed-length buffer whose elements share no line with any other allocation: the vector
/// keeps [`LINE`] bytes unused before and after the part in use. Any line that holds a byte of
/// that part then lies inside the vector's own block, whatever the allocator's alignment.
#[derive(Clone, Debug)]
pub struct LineBuf<T> {
    buf: Vec<T>,
    pad: usize,
    len: usize,
}

impl<T: Clone> LineBuf<T> {
    /// `len` copies of `value`.
    pub fn new(len: usize, value: T) -> LineBuf<T> {
        let pad = LINE.div_ceil(std::mem::size_of::<T>().max(1));
        LineBuf { buf: vec![value; len + 2 * pad], pad, len }
    }

    /// A buffer holding a copy of `values`.
    pub fn from_slice(values: &[T], fill: T) -> LineBuf<T> {
        let mut b = LineBuf::new(values.len(), fill);
        b.clone_from_slice(values);
        b
    }
}

impl<T> Deref for LineBuf<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.buf[self.pad..self.pad + self.len]
    }
}

impl<T> DerefMut for LineBuf<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.buf[self.pad..self.pad + self.len]
    }
}

impl<'a, T> IntoIterator for &'a LineBuf<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Whether the bytes `[a, a + a_len)` and `[b, b + b_len)` touch a common [`LINE`].
pub fn share_a_line(a: usize, a_len: usize, b: usize, b_len: usize) -> bool {
    if a_len == 0 || b_len == 0 {
        return false;
    }
    let (a0, a1) = (a / LINE, (a + a_len - 1) / LINE);
    let (b0, b1) = (b / LINE, (b + b_len - 1) / LINE);
    a0 <= b1 && b0 <= a1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_of_two_threads_never_share_a_line() {
        let cells: Vec<&'static AtomicU32> = (0..64).map(|_| new_cell()).collect();
        for (i, a) in cells.iter().enumerate() {
            let pa = *a as *const AtomicU32 as usize;
            assert_eq!(pa % LINE, 0, "cell {i} is not line-aligned");
            for b in &cells[i + 1..] {
                assert!(!share_a_line(pa, 4, *b as *const AtomicU32 as usize, 4));
            }
        }
    }

    #[test]
    fn the_used_part_of_a_line_buffer_shares_no_line_with_other_allocations() {
        // Small allocations of other sizes between the buffers: the allocator packs them close.
        let mut keep: Vec<Box<[u8]>> = Vec::new();
        let mut bufs: Vec<LineBuf<u64>> = Vec::new();
        for n in 1..40usize {
            bufs.push(LineBuf::new(n % 7 + 1, 0));
            keep.push(vec![0u8; n].into_boxed_slice());
        }
        for (i, b) in bufs.iter().enumerate() {
            let (pb, lb) = (b.as_ptr() as usize, std::mem::size_of_val(&**b));
            for k in &keep {
                assert!(!share_a_line(pb, lb, k.as_ptr() as usize, k.len().max(1)), "buffer {i} shares a line with a neighbour");
            }
            for (j, o) in bufs.iter().enumerate().filter(|(j, _)| *j != i) {
                assert!(!share_a_line(pb, lb, o.as_ptr() as usize, std::mem::size_of_val(&**o)), "buffers {i} and {j} share a line");
            }
        }
    }

    #[test]
    fn share_a_line_counts_lines_not_bytes() {
        assert!(share_a_line(0, 1, 127, 1));
        assert!(!share_a_line(0, 128, 128, 1));
        assert!(share_a_line(100, 40, 130, 4));
        assert!(!share_a_line(0, 0, 0, 8));
    }

    #[test]
    fn own_lines_pads_small_values_to_a_whole_line() {
        assert_eq!(std::mem::size_of::<OwnLines<u32>>(), LINE);
        let v: Vec<OwnLines<u64>> = (0..4).map(OwnLines).collect();
        assert_eq!(&v[1] as *const _ as usize - &v[0] as *const _ as usize, LINE);
    }
}
