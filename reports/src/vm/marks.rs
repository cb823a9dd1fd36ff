//! `marks.txt`: the markers set during a run (`hpm ctl PID mark TEXT`, `hpmagent.Trace`).

/// A marker put into the data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    /// Nanoseconds since the agent started.
    pub at_ns: u64,
    /// Method events recorded so far (all threads), to place the marker in the event stream.
    pub method_events: u64,
    pub text: String,
}

/// The markers in the order they were set, as `marks.txt` lists them.
pub fn marks(marks: &[Mark]) -> String {
    let mut s = String::from("# markers set with `hpm ctl PID mark TEXT` or hpmagent.Trace\n# ms since start\tmethod events so far\ttext\n");
    for m in marks {
        s.push_str(&format!("{:.3}\t{}\t{}\n", m.at_ns as f64 / 1e6, m.method_events, m.text.replace(['\n', '\t'], " ")));
    }
    s
}
