//! Monitors: contended entries into the lock tree, `Object.wait` and `LockSupport.park*` into the
//! wait tree, each under the thread's current call path and the monitor's (the park's blocker's)
//! class. A park's class node hangs below a node naming the kind of park ([`PARK_NODE`],
//! [`PARK_TIMED_NODE`]), which an `Object.wait` does not have: `waits.txt` tells them apart by it.

use super::*;

impl Recorder {
    /// The thread starts blocking on a contended monitor of class `class` (a consumer name).
    pub fn monitor_contended_enter(&self, t: &ThreadRecorder, class: &str) {
        if !self.config.locks || self.is_paused() {
            return;
        }
        self.monitor_contended_enter_of(t, self.intern(class));
    }

    /// [`Recorder::monitor_contended_enter`] with the class's consumer ([`Recorder::consumer`]).
    pub fn monitor_contended_enter_of(&self, t: &ThreadRecorder, class: ConsumerId) {
        if !self.config.locks || self.is_paused() {
            return;
        }
        lock(&t.state).contended = Some((self.wall_ns(), class));
    }

    /// The thread acquired the monitor it was blocked on.
    pub fn monitor_contended_entered(&self, t: &ThreadRecorder) {
        let now = self.wall_ns();
        let mut s = lock(&t.state);
        if let Some((start, class)) = s.contended.take() {
            let s = &mut *s;
            let n = monitor_node(&s.calls, &mut s.locks, &mut s.lock_nodes, class);
            s.locks.add_calls(n, 1);
            s.locks.add_base(n, &[now.saturating_sub(start)]);
        }
    }

    /// [`Recorder::monitor_contended_entered`] for a thread whose calls are not recorded: the
    /// entry's context is the recorded methods among `frames` (its stack, innermost first), as
    /// for a wait ([`Recorder::monitor_waited_in`]).
    pub fn monitor_contended_entered_in(&self, t: &ThreadRecorder, frames: &[crate::sampling::RawFrame], r: &mut dyn MethodResolver) {
        let now = self.wall_ns();
        let mut s = lock(&t.state);
        let Some((start, class)) = s.contended.take() else { return };
        let mut path = self.recorded_path(&mut s, Some((frames, r)));
        path.push(class);
        let n = s.locks.descend(Tree::ROOT, &path);
        s.locks.add_calls(n, 1);
        s.locks.add_base(n, &[now.saturating_sub(start)]);
    }

    /// The thread starts `Object.wait` on a monitor of class `class`.
    pub fn monitor_wait(&self, t: &ThreadRecorder, class: &str) {
        if !self.config.waits || self.is_paused() {
            return;
        }
        self.monitor_wait_of(t, self.intern(class));
    }

    /// [`Recorder::monitor_wait`] with the class's consumer ([`Recorder::consumer`]).
    pub fn monitor_wait_of(&self, t: &ThreadRecorder, class: ConsumerId) {
        if !self.config.waits || self.is_paused() {
            return;
        }
        self.monitor_wait_at(t, class, self.wall_ns());
    }

    /// [`Recorder::monitor_wait_of`] with the wait's start given, on the recorder's wall clock
    /// ([`Recorder::wall_ns_of`]); or 0 when the VM tells it at the end
    /// ([`Recorder::monitor_waited_at`]).
    pub fn monitor_wait_at(&self, t: &ThreadRecorder, class: ConsumerId, start_ns: u64) {
        if !self.config.waits || self.is_paused() {
            return;
        }
        lock(&t.state).waiting = Some((start_ns, class));
    }

    /// The wait ended (notified, interrupted or `timed_out`).
    pub fn monitor_waited(&self, t: &ThreadRecorder, timed_out: bool) {
        self.monitor_waited_at(t, timed_out, None, self.wall_ns());
    }

    /// [`Recorder::monitor_waited`] for a thread whose calls are not recorded: the wait's
    /// context is the recorded methods among `frames` (its stack, innermost first), as for a
    /// park ([`Recorder::parked`]).
    pub fn monitor_waited_in(&self, t: &ThreadRecorder, timed_out: bool, frames: &[crate::sampling::RawFrame], r: &mut dyn MethodResolver) {
        let end = self.wall_ns();
        let mut s = lock(&t.state);
        let Some((start, class)) = s.waiting.take() else { return };
        let mut path = self.recorded_path(&mut s, Some((frames, r)));
        path.push(class);
        let n = s.waits.descend(Tree::ROOT, &path);
        s.waits.add_calls(n, 1);
        s.waits.add_base(n, &[end.saturating_sub(start), timed_out as u64]);
    }

    /// The context of a monitor event: the recorded methods among `frames` (innermost first),
    /// else the calls tree's current path.
    fn recorded_path(&self, s: &mut ThreadState, frames: Option<(&[crate::sampling::RawFrame], &mut dyn MethodResolver)>) -> Vec<ConsumerId> {
        match frames {
            Some((frames, r)) => self.sampled_frames(s, frames, r).into_iter().map(|(_, c)| c).collect(),
            None => s.calls.path(),
        }
    }

    /// [`Recorder::monitor_waited`] at `end_ns`, with `start_ns` when the VM knows the wait's
    /// start better than the time given at [`Recorder::monitor_wait_at`] (the research VM: the
    /// times it took its thread off and put it back on a processor, with no clock read of the
    /// agent's own).
    pub fn monitor_waited_at(&self, t: &ThreadRecorder, timed_out: bool, start_ns: Option<u64>, end_ns: u64) {
        let mut s = lock(&t.state);
        if let Some((start, class)) = s.waiting.take() {
            let s = &mut *s;
            let n = monitor_node(&s.calls, &mut s.waits, &mut s.wait_nodes, class);
            s.waits.add_calls(n, 1);
            s.waits.add_base(n, &[end_ns.saturating_sub(start_ns.unwrap_or(start)), timed_out as u64]);
        }
    }
}

/// A park in progress.
#[derive(Debug, Clone, Copy)]
pub(super) struct Parking {
    start_ns: u64,
    blocker: ConsumerId,
    /// The longest the park may last (ns), for a timed park.
    timeout_ns: Option<u64>,
}

impl Recorder {
    /// The thread starts `LockSupport.park*` with a blocker of class `blocker` (a consumer name;
    /// [`NO_BLOCKER`] without one), for at most `timeout_ns` if timed. Ignored without waits and
    /// while stopped. A virtual thread's park is its own (it may end on another carrier).
    pub fn park(&self, t: &ThreadRecorder, blocker: &str, timeout_ns: Option<u64>) {
        if !self.config.waits || self.is_paused() {
            return;
        }
        self.park_of(t, self.intern(blocker), timeout_ns);
    }

    /// [`Recorder::park`] with the class's consumer ([`Recorder::consumer`]).
    pub fn park_of(&self, t: &ThreadRecorder, blocker: ConsumerId, timeout_ns: Option<u64>) {
        if !self.config.waits || self.is_paused() {
            return;
        }
        let p = Parking { start_ns: self.wall_ns(), blocker, timeout_ns };
        lock(&t.state).parking = Some(p);
    }

    /// Whether the thread has a park under way ([`Recorder::park`] without its end yet): the
    /// backend reads a park's context only then.
    pub fn is_parked(&self, t: &ThreadRecorder) -> bool {
        lock(&t.state).parking.is_some()
    }

    /// The park begun by [`Recorder::park`] returned: one wait of the parked wall time under the
    /// thread's context, then [`PARK_NODE`] or [`PARK_TIMED_NODE`], then the blocker's class;
    /// `timed-out` when a timed park lasted its whole timeout. The context is the current call
    /// path of the calls tree, or, with `frames` (the thread's stack, innermost first, for a thread
    /// whose calls are not recorded), the recorded methods among them, as for stack samples. A
    /// return without a recorded start (a park begun before the wrappers or while stopped) is
    /// ignored.
    pub fn parked(&self, t: &ThreadRecorder, frames: Option<(&[crate::sampling::RawFrame], &mut dyn MethodResolver)>) {
        let end = self.wall_ns();
        let mut s = lock(&t.state);
        let Some(p) = s.parking.take() else { return };
        let elapsed = end.saturating_sub(p.start_ns);
        let timed_out = p.timeout_ns.is_some_and(|d| elapsed >= d);
        let mut path = self.recorded_path(&mut s, frames);
        path.push(self.intern(if p.timeout_ns.is_some() { PARK_TIMED_NODE } else { PARK_NODE }));
        path.push(p.blocker);
        let n = s.waits.descend(Tree::ROOT, &path);
        s.waits.add_calls(n, 1);
        s.waits.add_base(n, &[elapsed, timed_out as u64]);
    }
}

/// The node of `tree` for the current call path of `calls` followed by `class`: from `known` when
/// this (call-tree node, class) was seen before, else found (or created) by walking the path.
fn monitor_node(calls: &CursorBuilder, tree: &mut Tree, known: &mut FxHashMap<(NodeId, ConsumerId), NodeId>, class: ConsumerId) -> NodeId {
    *known.entry((calls.current(), class)).or_insert_with(|| {
        let mut path = calls.path();
        path.push(class);
        tree.descend(Tree::ROOT, &path)
    })
}
