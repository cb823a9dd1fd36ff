//! `hpm trace` record sets, run as a user would: the filters (`--thread`, `--processor`,
//! `--duration`, `--where`, `--method`, `--kind`, `--from`/`--to`, `--interval`, `--after-event`), `--stats` against statistics computed here from the
//! records written, and `--compare` on two traces with a planted difference and on a filter.

mod common;
#[path = "support/record_sets.rs"]
mod record_sets;

use std::path::Path;

use common::{hpm, stderr, stdout};
use record_sets::*;
use serde_json::Value;

fn traces() -> (tempfile::TempDir, Vec<Rec>, Vec<Rec>) {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (records(7, 0.15), records(11, 0.6));
    write_trace(&tmp.path().join("a"), &a);
    write_trace(&tmp.path().join("b"), &b);
    (tmp, a, b)
}

fn json_of(dir: &Path, args: &[&str]) -> Value {
    let mut all = vec!["trace", dir.to_str().unwrap(), "--json"];
    all.extend_from_slice(args);
    let o = hpm(&all);
    assert_eq!(o.status.code(), Some(0), "hpm {all:?}: {}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

/// The page's stats JSON for one metric against independent statistics.
fn check_stats(got: &Value, want: &St, what: &str) {
    assert_eq!(got["n"].as_u64(), Some(want.n as u64), "{what}: {got}");
    for (k, w) in [("mean", want.mean), ("sd", want.sd), ("min", want.min), ("max", want.max), ("p50", want.p[0]), ("p90", want.p[1]), ("p99", want.p[2])] {
        let g = got[k].as_f64().unwrap_or_else(|| panic!("{what}: {k} missing in {got}"));
        assert!(close(g, w), "{what}: {k} = {g}, computed here {w}");
    }
}

/// Which records a filter should select.
type Pass = Box<dyn Fn(&Rec) -> bool>;

#[test]
fn trace_filters_select_the_records_they_say() {
    let (tmp, a, _) = traces();
    let dir = tmp.path().join("a");
    let cases: Vec<(Vec<&str>, Pass)> = vec![
        (vec!["--duration", "500us..1.5ms"], Box::new(|q: &Rec| (500_000..=1_500_000).contains(&(q.end - q.start)))),
        (vec!["--duration", "1ms.."], Box::new(|q: &Rec| q.end - q.start >= 1_000_000)),
        (vec!["--where", "IPC<0.5"], Box::new(|q: &Rec| values(q)[4] < 0.5)),
        (vec!["--where", "cycles > 1e6, cache-misses/Kinstr >= 10"], Box::new(|q: &Rec| q.cycles as f64 > 1e6 && values(q)[5] >= 10.0)),
        (vec!["--where", "instructions / duration > 2"], Box::new(|q: &Rec| q.instructions as f64 / (q.end - q.start) as f64 > 2.0)),
        (vec!["--method", r"Mem|Io\.read"], Box::new(|q: &Rec| matches!(q.callee, 2 | 3))),
        (vec!["--thread", "main"], Box::new(|q: &Rec| q.thread == 1)),
        (vec!["--processor", "1", "--where", "IPC>=1"], Box::new(|q: &Rec| q.vp == 1 && values(q)[4] >= 1.0)),
    ];
    for (args, pass) in cases {
        let want: Vec<&Rec> = a.iter().filter(|q| pass(q)).collect();
        assert!(!want.is_empty() && want.len() < a.len(), "{args:?} selects {} of {}: not a test", want.len(), a.len());
        let v = json_of(&dir, &args);
        assert_eq!(v["set"]["records"].as_u64(), Some(want.len() as u64), "{args:?}: {}", v["set"]);
        assert_eq!(v["set"]["of"].as_u64(), Some(a.len() as u64));
        // The set's duration statistics are those of exactly these records.
        check_stats(&v["stats"][0], &stats(&want)[0], &format!("{args:?} real-time"));
    }
}

/// The page's other filters in `hpm trace`: thread kind, a time range, an interval (a GC), and the
/// records listed after each GC; each against the records written, selected here independently.
#[test]
fn trace_kind_time_interval_and_after_event_filters_select_the_records_they_say() {
    let (tmp, a, _) = traces();
    let dir = tmp.path().join("a");
    let kind_of = |t: u32| match t {
        1 | 2 => "app",
        3 | 5 => "gc",
        _ => "idle",
    };
    let t0 = a.iter().map(|q| q.start).min().unwrap();
    // Collections: the collectors' records in start order, overlapping ones merged (as the trace reader does).
    let mut by_start: Vec<&Rec> = a.iter().collect();
    by_start.sort_by_key(|q| (q.start, q.vp));
    let mut gcs: Vec<(u64, u64)> = Vec::new();
    for q in by_start.iter().filter(|q| kind_of(q.thread) == "gc") {
        match gcs.last_mut() {
            Some((_, e)) if q.start <= *e => *e = (*e).max(q.end),
            _ => gcs.push((q.start, q.end)),
        }
    }
    assert!(gcs.len() > 3, "{gcs:?}");
    let (g_lo, g_hi) = gcs[1];
    // The first 3 application records starting at or after each collection's end.
    let mut after: std::collections::HashSet<String> = std::collections::HashSet::new();
    for &(_, e) in &gcs {
        for q in by_start.iter().filter(|q| q.start >= e && kind_of(q.thread) == "app").take(3) {
            after.insert(key(q));
        }
    }
    let cases: Vec<(Vec<&str>, Pass)> = vec![
        (vec!["--kind", "gc"], Box::new(move |q: &Rec| kind_of(q.thread) == "gc")),
        (vec!["--kind", "nongc"], Box::new(move |q: &Rec| kind_of(q.thread) != "gc")),
        (vec!["--kind", "idle"], Box::new(move |q: &Rec| kind_of(q.thread) == "idle")),
        (vec!["--kind", "app", "--processor", "1"], Box::new(move |q: &Rec| kind_of(q.thread) == "app" && q.vp == 1)),
        (vec!["--from", "100", "--to", "200.5"], Box::new(move |q: &Rec| q.end > t0 + 100_000_000 && q.start < t0 + 200_500_000)),
        (vec!["--from", "250"], Box::new(move |q: &Rec| q.end > t0 + 250_000_000)),
        (vec!["--interval", "gc:2"], Box::new(move |q: &Rec| q.end > g_lo && q.start < g_hi)),
        (vec!["--after-event", "--after", "3"], Box::new(move |q: &Rec| after.contains(&key(q)))),
    ];
    for (args, pass) in cases {
        let want: Vec<&Rec> = a.iter().filter(|q| pass(q)).collect();
        assert!(!want.is_empty() && want.len() < a.len(), "{args:?} selects {} of {}: not a test", want.len(), a.len());
        let v = json_of(&dir, &args);
        assert_eq!(v["set"]["records"].as_u64(), Some(want.len() as u64), "{args:?}: {}", v["set"]);
        check_stats(&v["stats"][0], &stats(&want)[0], &format!("{args:?} real-time"));
    }
    // The same filters in a named set's one-argument form.
    let v = json_of(&dir, &["--set", "g=kind=gc, from=100", "--select", "g"]);
    let want = a.iter().filter(|q| kind_of(q.thread) == "gc" && q.end > t0 + 100_000_000).count();
    assert_eq!(v["set"]["records"].as_u64(), Some(want as u64), "{}", v["set"]);
    // What they cannot read: one line each.
    for (args, says) in [
        (vec!["--kind", "daemon"], "give app, gc, nongc"),
        (vec!["--interval", "phase:2"], "0 marker(s)"),
        (vec!["--interval", "gc:99"], "collection(s)"),
        (vec!["--interval", "lunch:1"], "give phase:N"),
        (vec!["--from=-5"], "0 or more"),
    ] {
        let mut all = vec!["trace", dir.to_str().unwrap()];
        all.extend_from_slice(&args);
        let o = hpm(&all);
        let e = stderr(&o);
        assert!(o.status.code() == Some(1) && e.lines().count() == 1 && e.contains(says), "{args:?}: {e}");
    }
}

#[test]
fn trace_stats_are_the_records_statistics() {
    let (tmp, a, _) = traces();
    let dir = tmp.path().join("a");
    let set: Vec<&Rec> = a.iter().filter(|q| q.thread == 1 || q.thread == 2).collect();
    let want = stats(&set);
    let v = json_of(&dir, &["--stats", "--where", "instructions>0", "--method", "^app\\."]);
    let got = v["stats"].as_array().unwrap();
    let names: Vec<&str> = got.iter().map(|s| s["metric"].as_str().unwrap()).collect();
    assert_eq!(names, METRICS);
    for (k, g) in got.iter().enumerate() {
        check_stats(g, &want[k], METRICS[k]);
    }
    // The whole trace, as a table.
    let o = hpm(&["trace", dir.to_str().unwrap(), "--stats"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(s.starts_with(&format!("Record set A ({}): 600 of 600 records (100.00%), 6 thread(s); all records\n", dir.display())), "{s}");
    let head = s.lines().find(|l| l.starts_with("Metric")).expect(&s);
    assert_eq!(head.split_whitespace().collect::<Vec<_>>(), ["Metric", "N", "Mean", "SD", "Min", "P50", "P90", "P99", "Max"]);
    let all: Vec<&Rec> = a.iter().collect();
    let cycles = stats(&all)[1];
    let row: Vec<&str> = s.lines().find(|l| l.starts_with("cycles ")).expect(&s).split_whitespace().collect();
    assert_eq!(row[1], "600");
    assert_eq!(row[4], format!("{}", cycles.min), "{s}");
    assert_eq!(row[7], format!("{}", cycles.p[2]), "{s}");
}

#[test]
fn trace_compare_ranks_the_planted_difference() {
    let (tmp, a, b) = traces();
    let (da, db) = (tmp.path().join("a"), tmp.path().join("b"));
    let app = |r: &Rec| r.thread <= 2;
    let (sa, sb): (Vec<&Rec>, Vec<&Rec>) = (a.iter().filter(|q| app(q)).collect(), b.iter().filter(|q| app(q)).collect());
    let (top_metric, top_method, smd) = most_different(&sa, &sb);
    // Planted: B's application threads spend much more time in app.Mem.scan.
    assert_eq!(top_method, "app.Mem.scan");
    let v = json_of(&da, &["--method", "^app", "--compare", db.to_str().unwrap()]);
    let r = &v["compare"]["ranking"];
    assert_eq!(v["compare"]["set"]["records"].as_u64(), Some(sb.len() as u64));
    assert_eq!(r["methods"][0]["method"], "app.Mem.scan", "{r}");
    assert_eq!(r["metrics"][0]["metric"].as_str(), Some(top_metric.as_str()), "{r}");
    for m in r["metrics"].as_array().unwrap() {
        let want = smd.iter().find(|(n, _)| n == m["metric"].as_str().unwrap()).unwrap().1;
        assert!(close(m["smd"].as_f64().unwrap(), want), "{m}: SMD computed here {want}");
    }
    // The text: the two sets, the metrics and the methods.
    let o = hpm(&["trace", da.to_str().unwrap(), "--method", "^app", "--compare", db.to_str().unwrap()]);
    let s = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(s.contains(&format!("Record set B ({}): {} of 600 records", db.display(), sb.len())), "{s}");
    let methods = s.find("Top methods by |difference of share of time|").expect(&s);
    assert!(s[methods..].lines().nth(2).unwrap().starts_with("app.Mem.scan "), "{s}");

    // A filter in the same trace: the slow records against the others of the application.
    let v = json_of(&da, &["--method", "^app", "--where", "IPC<0.5", "--compare", "IPC>=0.5, method~^app"]);
    let want_a = a.iter().filter(|q| values(q)[4] < 0.5 && q.callee != 0).count();
    assert_eq!(v["set"]["records"].as_u64(), Some(want_a as u64), "{}", v["set"]);
    let want_b = a.iter().filter(|q| values(q)[4] >= 0.5 && q.callee != 0).count();
    assert_eq!(v["compare"]["set"]["records"].as_u64(), Some(want_b as u64), "{}", v["compare"]["set"]);
    assert_eq!(v["compare"]["ranking"]["methods"][0]["method"], "app.Mem.scan");

    // Against an empty set: no metric and no method to rank.
    let v = json_of(&da, &["--compare", "IPC>1e9"]);
    assert_eq!(v["compare"]["set"]["records"].as_u64(), Some(0));
    assert_eq!(v["compare"]["ranking"], serde_json::json!({"metrics": [], "methods": []}));
    let o = hpm(&["trace", da.to_str().unwrap(), "--compare", "IPC>1e9"]);
    assert!(stdout(&o).ends_with("records (0.00%), 0 thread(s); IPC > 1e9\n\nNothing to rank: set B has no records.\n"), "{}", stdout(&o));
}

#[test]
fn trace_set_options_refuse_what_they_cannot_read() {
    let (tmp, _, _) = traces();
    let dir = tmp.path().join("a");
    for (args, says) in [
        (vec!["--where", "bogus<1"], "unknown metric `bogus`"),
        (vec!["--where", "IPC 1"], "write a condition as METRIC < VALUE"),
        (vec!["--duration", "1ms"], "give a range LO..HI"),
        (vec!["--method", "("], "method regex `(`"),
        (vec!["--thread", "nobody"], "no thread named `nobody`"),
        (vec!["--compare", "no-such-dir"], "give a trace directory or a filter"),
    ] {
        let mut all = vec!["trace", dir.to_str().unwrap()];
        all.extend_from_slice(&args);
        let o = hpm(&all);
        let err = stderr(&o);
        assert_eq!((o.status.code(), err.lines().count()), (Some(1), 1), "{args:?}: {err}");
        assert!(err.starts_with("hpm: error: ") && err.contains(says), "{args:?}: {err}");
    }
    // CSV is for the tables.
    let o = hpm(&["trace", dir.to_str().unwrap(), "--csv", "--where", "IPC<1"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// Named sets (`--set NAME=FILTER`) combined by `--select`: union, intersection, difference,
/// parentheses, `filters` (the command's own filter options) and `all`; each set's records
/// counted here from the records written. A named set as `--compare` is set B. An unknown name
/// is one line naming the known ones.
#[test]
fn named_sets_combine_by_union_intersection_and_difference() {
    let (tmp, a, _) = traces();
    let dir = tmp.path().join("a");
    let slow = |q: &Rec| q.end - q.start >= 1_000_000;
    let mem = |q: &Rec| q.callee == 2;
    let count = |p: &dyn Fn(&Rec) -> bool| a.iter().filter(|q| p(q)).count() as u64;
    let sets = ["--set", "slow=duration >= 1ms", "--set", r"mem=method~Mem\.scan"];
    let cases: Vec<(Vec<&str>, u64)> = vec![
        (vec!["--select", "slow | mem"], count(&|q| slow(q) || mem(q))),
        (vec!["--select", "slow & mem"], count(&|q| slow(q) && mem(q))),
        (vec!["--select", "slow - mem"], count(&|q| slow(q) && !mem(q))),
        (vec!["--select", "all - (slow | mem)"], count(&|q| !slow(q) && !mem(q))),
        (vec!["--select", "slow | mem & filters", "--thread", "main"], count(&|q| slow(q) || (mem(q) && q.thread == 1))),
        (vec!["--select", "(slow | mem) & filters", "--thread", "main"], count(&|q| (slow(q) || mem(q)) && q.thread == 1)),
    ];
    for (args, want) in cases {
        let mut all = sets.to_vec();
        all.extend(args.iter());
        let v = json_of(&dir, &all);
        assert_eq!(v["set"]["records"].as_u64(), Some(want), "{args:?}: {}", v["set"]);
        assert!(want > 0 && want < a.len() as u64, "{args:?}: {want} of {} records is not a test", a.len());
    }
    // Set B from a name: the ranking's sets are the named ones.
    let mut all = sets.to_vec();
    all.extend(["--select", "slow - mem", "--compare", "mem"]);
    let v = json_of(&dir, &all);
    assert_eq!(v["compare"]["set"]["records"].as_u64(), Some(count(&mem)), "{}", v["compare"]);
    // An unknown name.
    let o = hpm(&["trace", dir.to_str().unwrap(), "--set", "slow=duration>=1ms", "--select", "slow | fast"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o).trim(), "hpm: error: --select slow | fast: no set named `fast` (named: slow; and all, filters)");
}
