use super::*;
use hpm_collectors::arcflow::{Bindings, Metric};
use hpm_collectors::quantum::{Meta, QuantumRecord, ThreadInfo, ThreadKind, VpTrace};

/// Reads the embedded format back into a profile: the inverse of `encode_profile`, written from
/// its documentation (parent deltas, thread roots, columns per metric).
fn decode_profile(v: &Value) -> Profile {
    let metrics = v["metrics"].as_array().unwrap().iter().map(|m| Metric::new(m["name"].as_str().unwrap(), m["unit"].as_str().unwrap())).collect();
    let mut p = Profile::new(Bindings::methods(metrics));
    let names: Vec<&str> = v["names"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
    let ids: Vec<u32> = names.iter().map(|n| p.consumers.intern(n)).collect();
    let col = |k: &str| -> Vec<u64> { unpack(v[k].as_str().unwrap()).unwrap() };
    let (parent, consumer, calls) = (col("parent"), col("consumer"), col("calls"));
    let base: Vec<Vec<u64>> = v["base"].as_array().unwrap().iter().map(|a| unpack(a.as_str().unwrap()).unwrap()).collect();
    // Global index → (thread, node in its tree).
    let mut at: Vec<(usize, u32)> = Vec::new();
    for i in 0..parent.len() {
        let values: Vec<u64> = base.iter().map(|b| b[i]).collect();
        let (th, node) = if parent[i] == 0 {
            let th = p.threads.len();
            let root = v["threads"][th]["root"].as_u64().unwrap() as usize;
            assert_eq!(root, i, "thread {th}'s root");
            p.add_thread(names[consumer[i] as usize]);
            (th, Tree::ROOT)
        } else {
            let (th, pnode) = at[i - parent[i] as usize];
            (th, p.threads[th].tree.child(pnode, ids[consumer[i] as usize]))
        };
        p.threads[th].tree.add_calls(node, calls[i]);
        p.threads[th].tree.add_base(node, &values);
        at.push((th, node));
    }
    p
}

fn sample_profile() -> Profile {
    let mut p = Profile::new(Bindings::methods(vec![Metric::new("cpu-time", "ns"), Metric::new("instructions", "")]));
    for (t, name) in ["main", "worker </script> 1"].iter().enumerate() {
        let th = p.add_thread(name);
        let [a, b, c] = ["A.run", "B.<init>", "C.x"].map(|n| p.consumers.intern(n));
        let tree = &mut p.threads[th].tree;
        tree.add_calls(Tree::ROOT, 1);
        let na = tree.child(Tree::ROOT, a);
        tree.add_calls(na, 2 + t as u64);
        tree.add_base(na, &[100, u64::MAX >> 12]);
        let nb = tree.child(na, b);
        let nc = tree.child(na, c);
        let nb2 = tree.child(nb, b);
        let nc2 = tree.child(nc, a);
        for (n, k) in [(nb, 3), (nc, 4), (nb2, 5), (nc2, 6)] {
            tree.add_calls(n, k);
            tree.add_base(n, &[k * 10, k * 1000]);
        }
    }
    p
}

#[test]
fn the_embedded_tree_reads_back_as_the_same_profile() {
    let p = sample_profile();
    let text = encode(&Run::of_profile("run", p.clone()), None);
    assert!(!text.contains('<'), "no `<` may close the script element: {text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!((v["format"].as_str(), v["version"].as_u64()), (Some("hpm-explore"), Some(DATA_VERSION as u64)));
    assert!(v["trace"].is_null());
    let back = decode_profile(&v["profiles"][0]);
    assert_eq!(back.threads.len(), p.threads.len());
    for (a, b) in p.threads.iter().zip(&back.threads) {
        assert_eq!(a.name, b.name);
        let names = |prof: &Profile, t: &Tree| -> Vec<(Vec<String>, u64, Vec<u64>)> {
            t.contexts().into_iter().map(|(path, (calls, base))| (path.iter().map(|&c| prof.consumers.name(c).to_string()).collect(), calls, base)).collect()
        };
        assert_eq!(names(&p, &a.tree), names(&back, &b.tree));
    }
}

#[test]
fn a_diff_embeds_both_profiles_and_the_page_holds_everything() {
    let a = Run::of_profile("before", sample_profile());
    let b = Run::of_profile("after", sample_profile());
    let html = render_html(&a, Some(&b));
    assert!(html.starts_with("<!DOCTYPE html>"));
    for absent in ["{{TITLE}}", "{{CSS}}", "{{DATA}}", "{{JS}}", "http://", "https://", "src=\""] {
        assert!(!html.contains(absent), "the page holds `{absent}`");
    }
    let start = html.find("id=\"hpm-data\">").unwrap() + "id=\"hpm-data\">".len();
    let end = start + html[start..].find("</script>").unwrap();
    let v: Value = serde_json::from_str(&html[start..end]).unwrap();
    assert_eq!(v["profiles"].as_array().unwrap().len(), 2);
    assert_eq!(v["profiles"][1]["label"], "after");
}

fn record(vp: u32, thread: u32, start: u64, end: u64, deltas: Vec<u64>) -> Entry {
    Entry::Quantum(QuantumRecord {
        vp,
        offset: 0,
        local_tid: thread as u16,
        buffer_code: 0,
        thread_switch: true,
        thread,
        yielded: false,
        start,
        end,
        callee: 0,
        caller: 0,
        deltas: deltas.into(),
    })
}

#[test]
fn trace_records_become_columns_relative_to_the_first_time_with_gcs_merged() {
    let meta = Meta {
        counters: vec!["real-time".into(), "cpu-time".into()],
        threads: vec![
            ThreadInfo { id: 1, kind: ThreadKind::App, name: "main".into() },
            ThreadInfo { id: 2, kind: ThreadKind::Collector, name: "gc-0".into() },
            ThreadInfo { id: 3, kind: ThreadKind::Collector, name: "gc-1".into() },
        ],
        ..Meta::default()
    };
    let vp0 = vec![record(0, 1, 1000, 1500, vec![400]), record(0, 2, 1500, 1700, vec![200]), record(0, 1, 1700, 2000, vec![300])];
    let vp1 = vec![record(1, 3, 1600, 1800, vec![150]), record(1, 3, 1900, 1950, vec![50])];
    let vp = |n: u32, entries: Vec<Entry>| VpTrace { vp: n, path: PathBuf::new(), file: format!("quantum.vp{n}.trace"), counters: 1, entries };
    let trace = Trace::new(meta, vec![vp(0, vp0), vp(1, vp1)], Vec::new());
    assert_eq!(crate::quantum::gc_intervals(&trace), [(1500, 1800), (1900, 1950)]);
    let run = Run { label: "t".into(), profile: None, trace: Some(PageTrace::of("t", &trace)) };
    let v: Value = serde_json::from_str(&encode(&run, None)).unwrap();
    let t = &v["trace"];
    assert_eq!(t["t0"], 1000);
    let col = |v: &Value| unpack(v.as_str().unwrap()).unwrap();
    // In time order across processors, as `Trace::merged` gives them.
    assert_eq!(col(&t["start"]), [0, 500, 600, 700, 900]);
    assert_eq!(col(&t["duration"]), [500, 200, 200, 300, 50]);
    assert_eq!(col(&t["thread"]), [1, 2, 3, 1, 3]);
    assert_eq!(col(&t["deltas"][0]), [400, 200, 150, 300, 50]);
    assert_eq!(t["gcs"], json!([[500, 800], [900, 950]]));
    assert!(v["profiles"].as_array().unwrap().is_empty());
}

#[test]
fn packed_numbers_round_trip_over_the_whole_u64_range() {
    let values = [0, 1, 31, 32, 33, 1023, 1024, 5_000_000, (1 << 40) - 1, 1 << 40, (1 << 53) + 1, u64::MAX - 1, u64::MAX];
    let mut bytes = Vec::new();
    push_packed_string(&mut bytes, values);
    let s = String::from_utf8(bytes).unwrap();
    assert!(s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'"'), "{s}");
    assert_eq!(unpack(&s[1..s.len() - 1]).unwrap(), values);
    assert_eq!(&s[1..4], "ab_", "one character below 32");
    assert!(unpack("AB").is_err() && unpack("a!").is_err());
    assert!(unpack("5555555555555a").is_err(), "past 64 bits");
}
