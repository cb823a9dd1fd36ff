//! Monitors: contended entries into the lock tree, `Object.wait` into the wait tree, each under
//! the thread's current call path and the monitor's class.

use super::*;

impl Recorder {
    /// The thread starts blocking on a contended monitor of class `class` (a consumer name).
    pub fn monitor_contended_enter(&self, t: &ThreadRecorder, class: &str) {
        if !self.config.locks || self.is_paused() {
            return;
        }
        let c = self.intern(class);
        lock(&t.state).contended = Some((self.wall_ns(), c));
    }

    /// The thread acquired the monitor it was blocked on.
    pub fn monitor_contended_entered(&self, t: &ThreadRecorder) {
        let now = self.wall_ns();
        let mut s = lock(&t.state);
        if let Some((start, class)) = s.contended.take() {
            let mut path = s.calls.path();
            path.push(class);
            let n = s.locks.descend(Tree::ROOT, &path);
            s.locks.add_calls(n, 1);
            s.locks.add_base(n, &[now.saturating_sub(start)]);
        }
    }

    /// The thread starts `Object.wait` on a monitor of class `class`.
    pub fn monitor_wait(&self, t: &ThreadRecorder, class: &str) {
        if !self.config.waits || self.is_paused() {
            return;
        }
        let c = self.intern(class);
        lock(&t.state).waiting = Some((self.wall_ns(), c));
    }

    /// The wait ended (notified, interrupted or `timed_out`).
    pub fn monitor_waited(&self, t: &ThreadRecorder, timed_out: bool) {
        let now = self.wall_ns();
        let mut s = lock(&t.state);
        if let Some((start, class)) = s.waiting.take() {
            let mut path = s.calls.path();
            path.push(class);
            let n = s.waits.descend(Tree::ROOT, &path);
            s.waits.add_calls(n, 1);
            s.waits.add_base(n, &[now.saturating_sub(start), timed_out as u64]);
        }
    }
}
