//! Deep trees (deep recursion in the profiled program) must not overflow the native stack in the
//! JSON writer and reader or in the reports. Test threads have a 2 MiB stack, so a recursive
//! implementation over 100,000 levels would crash here.

use hpm_model::arcflow::{Bindings, Metric, NodeId, Profile, Tree};
use hpm_model::saved::v1;
use hpm_reports::{write_reports, ReportOptions};

const DEPTH: usize = 100_000;

fn chain() -> Profile {
    let mut p = Profile::new(Bindings::methods(vec![Metric::new("cpu-time", "ns"), Metric::new("misses", "")]));
    let names: Vec<u32> = (0..7).map(|i| p.consumers.intern(&format!("f{i}"))).collect();
    p.add_thread("main");
    let t = &mut p.threads[0].tree;
    t.add_calls(Tree::ROOT, 1);
    let mut n = Tree::ROOT;
    for d in 0..DEPTH {
        n = t.child(n, names[d % names.len()]);
        t.add_calls(n, 1);
        t.add_base(n, &[d as u64 % 3, 1]);
    }
    p
}

#[test]
fn a_100k_deep_chain_round_trips_through_json() {
    let p = chain();
    let bytes = v1::to_vec(&p);
    let q = v1::read(std::str::from_utf8(&bytes).unwrap()).expect("reading the deep chain");
    let (a, b) = (&p.threads[0].tree, &q.threads[0].tree);
    assert_eq!(b.len(), DEPTH + 1);
    assert_eq!(b.depth(b.len() as NodeId - 1), DEPTH);
    for n in 0..a.len() as NodeId {
        assert_eq!(p.consumers.name(a.consumer(n)), q.consumers.name(b.consumer(n)));
        assert_eq!(a.parent(n), b.parent(n));
        assert_eq!((a.calls(n), a.base(n)), (b.calls(n), b.base(n)));
    }
    assert_eq!(v1::to_vec(&q), bytes);
}

#[test]
fn a_100k_deep_chain_renders_every_report() {
    let p = chain();
    let dir = tempfile::tempdir().unwrap();
    let files = write_reports(&p, dir.path(), &ReportOptions { prune: 0.00001, ..ReportOptions::default() }).unwrap();
    assert_eq!(files.len(), 6);
    // Collapsed stacks stop at the depth limit: the rest is one `(deeper)` line.
    let folded = std::fs::read_to_string(dir.path().join("collapsed.txt")).unwrap();
    let deeper: Vec<&str> = folded.lines().filter(|l| l.contains("(deeper)")).collect();
    assert_eq!(deeper.len(), 1);
    let limit = ReportOptions::default().max_stack_depth;
    assert_eq!(deeper[0].split(';').count(), limit + 1);
    let total: u64 = folded.lines().map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(total, p.total()[0]);
}
