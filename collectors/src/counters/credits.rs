//! A fixed-capacity table of per-context sums, filled from a signal handler: every buffer is
//! allocated up front, so adding never allocates; a full table refuses a new context instead.
//! Its buffers are on lines of their own ([`crate::lines`]): a thread credits into its table at
//! every sample (and, in exact mode, at every call).

use crate::lines::LineBuf;

/// Sums of metric deltas per context (a `u64` key: the sampler's owner and context ids), for at most `capacity` contexts between
/// two [`CreditTable::clear`]s. Contexts are kept in first-credit order.
pub struct CreditTable {
    metrics: usize,
    capacity: usize,
    /// Open addressing, linear probing, at most half full: 0 = empty, else entry index + 1.
    slots: LineBuf<u32>,
    /// Entry i (below `len`): its context and its `metrics` sums at `values[i * metrics..]`.
    contexts: LineBuf<u64>,
    len: usize,
    values: LineBuf<u64>,
    /// The entry credited last: consecutive samples usually find the same context.
    last: usize,
}

impl CreditTable {
    /// A table for `metrics` values per context and up to `capacity` (at least 1) contexts.
    pub fn new(metrics: usize, capacity: usize) -> CreditTable {
        let capacity = capacity.clamp(1, u32::MAX as usize / 2);
        let slots = (2 * capacity).next_power_of_two();
        CreditTable {
            metrics,
            capacity,
            slots: LineBuf::new(slots, 0),
            contexts: LineBuf::new(capacity, 0),
            len: 0,
            values: LineBuf::new(capacity * metrics, 0),
            last: usize::MAX,
        }
    }

    /// How many contexts it can hold.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Contexts credited since the last clear.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn home(&self, context: u64) -> usize {
        // Fibonacci hashing: context ids are often consecutive; the owner sits in the high half.
        (context.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & (self.slots.len() - 1)
    }

    /// Adds `delta` (one value per metric) to `context`'s sums. Returns false, adding nothing, when
    /// the table already holds `capacity` contexts and not this one. Never allocates.
    pub fn add(&mut self, context: u64, delta: &[u64]) -> bool {
        let entry = match self.contexts[..self.len].get(self.last) {
            Some(&c) if c == context => self.last,
            _ => match self.find_or_insert(context) {
                Some(e) => e,
                None => return false,
            },
        };
        self.last = entry;
        let sums = &mut self.values[entry * self.metrics..(entry + 1) * self.metrics];
        for (s, d) in sums.iter_mut().zip(delta) {
            *s = s.wrapping_add(*d);
        }
        true
    }

    fn find_or_insert(&mut self, context: u64) -> Option<usize> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(context);
        loop {
            match self.slots[i] {
                0 => {
                    if self.len == self.capacity {
                        return None;
                    }
                    self.contexts[self.len] = context;
                    self.len += 1;
                    self.slots[i] = self.len as u32;
                    return Some(self.len - 1);
                }
                e if self.contexts[e as usize - 1] == context => return Some(e as usize - 1),
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Doubles the capacity, keeping every sum. Allocates: never from a signal handler.
    pub fn grow(&mut self) {
        let capacity = (self.capacity * 2).min(u32::MAX as usize / 2);
        self.capacity = capacity;
        let mut values = LineBuf::new(capacity * self.metrics, 0);
        values[..self.values.len()].copy_from_slice(&self.values);
        self.values = values;
        let mut contexts = LineBuf::new(capacity, 0);
        contexts[..self.len].copy_from_slice(&self.contexts[..self.len]);
        self.contexts = contexts;
        self.slots = LineBuf::new((2 * capacity).next_power_of_two(), 0);
        let mask = self.slots.len() - 1;
        for (e, &c) in self.contexts[..self.len].iter().enumerate() {
            let mut i = self.home(c);
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = e as u32 + 1;
        }
    }

    /// Calls `f(context, sums)` for every context credited since the last clear, in first-credit
    /// order.
    pub fn for_each(&self, f: &mut dyn FnMut(u64, &[u64])) {
        for (i, &c) in self.contexts[..self.len].iter().enumerate() {
            f(c, &self.values[i * self.metrics..(i + 1) * self.metrics]);
        }
    }

    /// Forgets every context (keeps the buffers).
    pub fn clear(&mut self) {
        let used = self.len * self.metrics;
        self.values[..used].iter_mut().for_each(|v| *v = 0);
        self.slots.iter_mut().for_each(|s| *s = 0);
        self.len = 0;
        self.last = usize::MAX;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sums(t: &CreditTable) -> Vec<(u64, Vec<u64>)> {
        let mut v = Vec::new();
        t.for_each(&mut |c, s| v.push((c, s.to_vec())));
        v
    }

    #[test]
    fn a_grown_table_keeps_its_sums_and_takes_more_contexts() {
        let mut t = CreditTable::new(1, 2);
        assert!(t.add(7, &[1]) && t.add(9, &[2]));
        assert!(!t.add(11, &[3]), "full");
        t.grow();
        assert_eq!(t.capacity(), 4);
        assert!(t.add(11, &[3]) && t.add(7, &[10]) && t.add(13, &[4]));
        assert!(!t.add(15, &[5]), "full again at twice the capacity");
        assert_eq!(sums(&t), vec![(7, vec![11]), (9, vec![2]), (11, vec![3]), (13, vec![4])]);
    }

    #[test]
    fn sums_per_context_in_first_credit_order() {
        let mut t = CreditTable::new(2, 4);
        assert!(t.add(7, &[1, 10]));
        assert!(t.add(7, &[2, 20]));
        assert!(t.add(3, &[5, 0]));
        assert!(t.add(7, &[1, 1]));
        assert_eq!(sums(&t), [(7, vec![4, 31]), (3, vec![5, 0])]);
    }

    #[test]
    fn a_full_table_refuses_new_contexts_but_still_sums_known_ones() {
        let mut t = CreditTable::new(1, 3);
        for c in [10, 20, 30] {
            assert!(t.add(c, &[1]));
        }
        assert!(!t.add(40, &[100]), "a fourth context does not fit");
        assert!(t.add(10, &[1]) && t.add(30, &[1]) && t.add(20, &[1]));
        assert_eq!(sums(&t), [(10, vec![2]), (20, vec![2]), (30, vec![2])]);
        t.clear();
        assert!(t.is_empty());
        assert!(t.add(40, &[100]));
        assert_eq!(sums(&t), [(40, vec![100])]);
    }

    #[test]
    fn the_same_context_of_two_owners_is_two_entries() {
        let mut t = CreditTable::new(1, 4);
        let key = |owner: u64, context: u64| owner << 32 | context;
        assert!(t.add(key(0, 5), &[1]) && t.add(key(1, 5), &[2]) && t.add(key(2, 5), &[4]) && t.add(key(1, 5), &[8]));
        assert_eq!(sums(&t), [(key(0, 5), vec![1]), (key(1, 5), vec![10]), (key(2, 5), vec![4])]);
    }

    #[test]
    fn colliding_contexts_stay_apart() {
        // Many contexts in a small table: every probe sequence is exercised.
        let mut t = CreditTable::new(1, 100);
        for round in 0..3u64 {
            for c in 0..100u64 {
                assert!(t.add(c * 64, &[c + round]));
            }
        }
        let s = sums(&t);
        assert_eq!(s.len(), 100);
        for (c, v) in s {
            assert_eq!(v[0], 3 * (c / 64) + 3);
        }
    }
}
