//! `marks.txt`: the markers set during a run (`hpm ctl PID mark TEXT`, `hpmagent.Trace`).

use hpm_model::saved::Mark;

/// The markers in the order they were set, as `marks.txt` lists them.
pub fn marks(marks: &[Mark]) -> String {
    let mut s = String::from("# markers set with `hpm ctl PID mark TEXT` or hpmagent.Trace\n# ms since start\tmethod events so far\ttext\n");
    for m in marks {
        s.push_str(&format!("{:.3}\t{}\t{}\n", m.at_ns as f64 / 1e6, m.method_events, m.text.replace(['\n', '\t'], " ")));
    }
    s
}
