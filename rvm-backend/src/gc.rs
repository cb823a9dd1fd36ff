//! The stop-the-world semispace copying collector (Cheney's algorithm), run by the last collector
//! thread to arrive when every virtual processor has stopped its mutator at a yieldpoint.
//!
//! Roots: every Java thread's value stack below its top (slots are tagged, so references are
//! known exactly), its frames' synchronized-method objects, its thread object and pending
//! exception; static reference fields of every class; the VM's global roots (class mirrors,
//! interned strings, the preallocated OutOfMemoryError).
//!
//! Weak and phantom references (`java.lang.ref.WeakReference`, `PhantomReference` and their
//! subclasses) do not keep their referents alive: the scan does not trace their `referent` field
//! but notes the reference; after the scan, a reference whose referent was copied points to the
//! copy, and one whose referent was not is cleared and, if it has a queue, put on the list
//! `Reference.pending` (linked through `pendingNext`, the last pointing to itself), which the
//! class library moves to the queues (`ReferenceQueue.poll` and `remove`). Soft references are
//! kept as strong ones.
//!
//! The to-space is sized to the from-space's used part (live data cannot exceed it), then grown
//! so that at least as much is free as is live (and the last failed request fits), up to half of
//! `-Xmx`.

use crate::heap::{Ref, Space, FORWARDED, MIN_SEMI_WORDS, RESERVE_WORDS};
use crate::vm::{Value, Vm};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;

struct Copier<'a> {
    vm: &'a Vm,
    from: &'a Space,
    to: Space,
    top: usize,
}

impl Copier<'_> {
    fn forward(&mut self, r: Ref) -> Ref {
        if r == 0 {
            return 0;
        }
        let cid = self.from.get(r as usize);
        if cid == FORWARDED {
            return self.from.get(r as usize + 1);
        }
        let class = self.vm.reg.class(cid);
        let words = self.vm.object_words(self.from, r, class);
        let new = self.top;
        for i in 0..words {
            self.to.set(new + i, self.from.get(r as usize + i));
        }
        self.top += words;
        self.from.set(r as usize, FORWARDED);
        self.from.set(r as usize + 1, new as u32);
        new as Ref
    }
}

/// The classes and field offsets of weak-reference processing (None until `Reference` is loaded).
struct RefInfo {
    weak: u32,
    phantom: u32,
    referent: usize,
    queue: usize,
    pending_next: usize,
    /// The class holding the static `pending`, and the static's offset.
    holder: Arc<crate::class::Class>,
    pending: usize,
}

impl RefInfo {
    fn find(classes: &[Arc<crate::class::Class>]) -> Option<RefInfo> {
        let by_name = |n: &str| classes.iter().find(|c| &*c.name == n);
        let reference = by_name("java/lang/ref/Reference")?;
        let (weak, phantom) = (by_name("java/lang/ref/WeakReference").map_or(u32::MAX, |c| c.id), by_name("java/lang/ref/PhantomReference").map_or(u32::MAX, |c| c.id));
        let field = |name: &str, is_static: bool| reference.fields.iter().find(|f| f.name == name && f.is_static == is_static).map(|f| f.offset);
        Some(RefInfo {
            weak,
            phantom,
            referent: field("referent", false)?,
            queue: field("queue", false)?,
            pending_next: field("pendingNext", false)?,
            pending: field("pending", true)?,
            holder: reference.clone(),
        })
    }

    /// Whether objects of `class` hold their referent weakly.
    fn is_weak(&self, class: &crate::class::Class) -> bool {
        class.supertypes.contains(&self.weak) || class.supertypes.contains(&self.phantom)
    }
}

pub fn collect(vm: &Vm, st: &mut crate::sched::SchedState) {
    let start = std::time::Instant::now();
    crate::hooks::hook!(vm, gc_start());
    let from_arc = vm.heap.current();
    let from: &Space = &from_arc;
    let used = vm.heap.top.load(Relaxed);
    let mut c = Copier { vm, from, to: Space::new(used.max(16)), top: 4 };

    // Monitors in use after the collection: those of live objects and those being re-entered.
    let mut monitor_live = vec![false; st.monitors.len()];
    // Threads.
    let threads: Vec<_> = vm.sched.threads.read().unwrap().clone();
    for t in &threads {
        let mut th = t.lock().unwrap_or_else(|e| e.into_inner());
        let th = &mut *th;
        if let crate::vm::Reacquire::Monitor { monitor, .. } = th.reacquire {
            monitor_live[monitor as usize] = true;
        }
        for i in 0..th.sp {
            if let Value::Ref(r) = th.stack[i] {
                th.stack[i] = Value::Ref(c.forward(r));
            }
        }
        for f in &mut th.frames {
            f.sync = c.forward(f.sync);
        }
        th.obj = c.forward(th.obj);
        th.pending = c.forward(th.pending);
    }
    // Statics.
    let classes = vm.reg.all_classes();
    for cl in &classes {
        for &o in &cl.static_ref_offsets {
            let r = cl.statics[o].load(Relaxed);
            cl.statics[o].store(c.forward(r), Relaxed);
        }
    }
    // Global roots.
    {
        let mut roots = vm.roots.lock().unwrap();
        for (i, r) in roots.iter_mut().enumerate() {
            *r = c.forward(*r);
            vm.roots_fast[i].store(*r, Relaxed);
        }
    }
    let refs = RefInfo::find(&classes);
    // Weak and phantom references met by the scan (their referents not traced).
    let mut discovered: Vec<usize> = Vec::new();
    // Cheney scan.
    let mut scan = 4;
    while scan < c.top {
        let cid = c.to.get(scan);
        let class = vm.reg.class(cid);
        let words = vm.object_words(&c.to, scan as Ref, class);
        let mi = c.to.get(scan + 2) as usize;
        if mi != 0 {
            monitor_live[mi] = true;
        }
        if class.elem == Some(crate::class::Kind::L) {
            let n = c.to.array_len(scan as Ref);
            for i in 0..n {
                let r = c.to.array_get(scan as Ref, 4, i) as Ref;
                if r != 0 {
                    let nr = c.forward(r);
                    c.to.array_set(scan as Ref, 4, i, nr as u64);
                }
            }
        } else {
            for &o in &class.ref_offsets {
                let r = c.to.get(scan + o);
                if r != 0 && refs.as_ref().is_some_and(|ri| o == ri.referent && ri.is_weak(class)) {
                    discovered.push(scan);
                    continue;
                }
                if r != 0 {
                    let nr = c.forward(r);
                    c.to.set(scan + o, nr);
                }
            }
        }
        scan += words;
    }
    // The referents of weak references: copied (strongly reachable) or cleared and enqueued.
    if let Some(ri) = &refs {
        let mut head = ri.holder.statics[ri.pending].load(Relaxed);
        for &obj in &discovered {
            let r = c.to.get(obj + ri.referent) as usize;
            if c.from.get(r) == FORWARDED {
                c.to.set(obj + ri.referent, c.from.get(r + 1));
                continue;
            }
            c.to.set(obj + ri.referent, 0);
            if c.to.get(obj + ri.queue) != 0 && c.to.get(obj + ri.pending_next) == 0 {
                c.to.set(obj + ri.pending_next, if head == 0 { obj as u32 } else { head });
                head = obj as u32;
            }
        }
        ri.holder.statics[ri.pending].store(head, Relaxed);
    }
    let live = c.top;
    // Reuse the monitors of dead objects (idle ones only; a monitor with an owner or queued
    // threads is always in use).
    st.free_monitors.clear();
    for (i, m) in st.monitors.iter().enumerate().skip(1) {
        if !monitor_live[i] && m.owner == 0 && m.entry.is_empty() && m.waiters.is_empty() {
            st.free_monitors.push(i as u32);
        }
    }
    let want = vm.heap.last_fail.load(Relaxed);
    let target = (live * 2).max(live + want + RESERVE_WORDS * 2).max(MIN_SEMI_WORDS).min(vm.heap.max_semi_words);
    let mut to = c.to;
    if to.w.len() < target {
        to.w.resize_with(target, || std::sync::atomic::AtomicU32::new(0));
    }
    let cap = to.w.len();
    let limit = cap.saturating_sub(RESERVE_WORDS).max(live);
    *vm.heap.space.write().unwrap() = Arc::new(to);
    vm.heap.top.store(live, Relaxed);
    vm.heap.limit.store(limit, Relaxed);
    vm.heap.free_after_gc.store(limit.saturating_sub(live), Relaxed);
    vm.heap.collections.fetch_add(1, Relaxed);
    vm.heap.copied_words.fetch_add(live, Relaxed);
    crate::hooks::hook!(vm, gc_finish());
    if vm.opts.verbose_gc {
        vm.flush_out();
        eprintln!(
            "[GC #{}: {} KiB -> {} KiB live, semispace {} KiB, {:.2} ms]",
            vm.heap.collections.load(Relaxed),
            used * 4 / 1024,
            live * 4 / 1024,
            cap * 4 / 1024,
            start.elapsed().as_secs_f64() * 1e3
        );
    }
}
