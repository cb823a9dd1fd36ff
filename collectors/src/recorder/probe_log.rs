//! Probes requested while the program runs (`hpm ctl PID probe add|remove PATTERN`): which
//! requests came when, and for each method they reached, when its probes were in its code.
//!
//! A method's counts in the call trees are exact only while its probes are in: calls that start
//! before a probe goes in, or after it comes out, are not counted. The windows say so per method.

use std::collections::HashMap;

use hpm_model::snapshot::{ProbeRequest, ProbeWindow};

/// The requests and windows of a run, in order.
#[derive(Debug, Default)]
pub(super) struct ProbeLog {
    requests: Vec<ProbeRequest>,
    windows: Vec<ProbeWindow>,
    /// Index in `windows` of each method's open window.
    open: HashMap<String, usize>,
}

impl ProbeLog {
    pub(super) fn request(&mut self, request: ProbeRequest) {
        self.requests.push(request);
    }

    /// `method`'s probes went in at `at_ns` (nothing if they are in already).
    pub(super) fn opened(&mut self, method: &str, at_ns: u64) {
        if self.open.contains_key(method) {
            return;
        }
        self.open.insert(method.to_string(), self.windows.len());
        self.windows.push(ProbeWindow { method: method.to_string(), from_ns: at_ns, to_ns: None });
    }

    /// `method`'s probes came out at `at_ns` (nothing if they were not in).
    pub(super) fn closed(&mut self, method: &str, at_ns: u64) {
        if let Some(i) = self.open.remove(method) {
            self.windows[i].to_ns = Some(at_ns.max(self.windows[i].from_ns));
        }
    }

    /// The data was dropped at `at_ns`: windows that had ended go, open ones count from now.
    pub(super) fn reset(&mut self, at_ns: u64) {
        let open: Vec<ProbeWindow> = self.windows.iter().filter(|w| w.to_ns.is_none()).cloned().collect();
        self.windows = open.into_iter().map(|w| ProbeWindow { from_ns: at_ns, ..w }).collect();
        self.open = self.windows.iter().enumerate().map(|(i, w)| (w.method.clone(), i)).collect();
    }

    pub(super) fn copy(&self) -> (Vec<ProbeRequest>, Vec<ProbeWindow>) {
        (self.requests.clone(), self.windows.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_open_close_and_survive_a_reset_from_its_time() {
        let mut log = ProbeLog::default();
        log.request(ProbeRequest { add: true, pattern: "a.*".into(), at_ns: 10, classes: 2 });
        log.opened("a.A.f()", 10);
        log.opened("a.A.f()", 11); // in already
        log.opened("a.B.g()", 12);
        log.closed("a.A.f()", 20);
        log.closed("a.A.f()", 25); // out already
        log.opened("a.A.f()", 30);
        let (r, w) = log.copy();
        assert_eq!(r.len(), 1);
        let spans: Vec<_> = w.iter().map(|w| (w.method.as_str(), w.from_ns, w.to_ns)).collect();
        assert_eq!(spans, [("a.A.f()", 10, Some(20)), ("a.B.g()", 12, None), ("a.A.f()", 30, None)]);
        log.reset(40);
        let spans: Vec<_> = log.copy().1.iter().map(|w| (w.method.clone(), w.from_ns, w.to_ns)).collect();
        assert_eq!(spans, [("a.B.g()".to_string(), 40, None), ("a.A.f()".to_string(), 40, None)]);
        log.closed("a.A.f()", 50);
        assert_eq!(log.copy().1[1].to_ns, Some(50));
    }
}
