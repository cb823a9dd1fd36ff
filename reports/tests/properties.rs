//! Property tests over random event streams with frequent recursion: the xarc invariants hold for
//! every consumer of the aggregate (exact integers, every metric), arcflow.json round-trips, and a
//! pruned profile is still coherent.

mod common;

use hpm_model::arcflow::{Bindings, ConsumerId, CursorBuilder, Metric, NodeId, Profile, Tree};
use hpm_reports::aggregate::Aggregate;
use hpm_model::saved::v1;
use hpm_reports::{prune, render, Format, ReportOptions, PRUNED};
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Op {
    Enter(u8),
    Exit,
    Tick(u64, u64),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0u8..4).prop_map(Op::Enter),
        2 => Just(Op::Exit),
        3 => (0u64..20, 0u64..5).prop_map(|(a, b)| Op::Tick(a, b)),
    ]
}

/// 1–3 threads, each with its own event stream over 4 methods (so recursion is frequent).
fn streams() -> impl Strategy<Value = Vec<Vec<Op>>> {
    prop::collection::vec(prop::collection::vec(op(), 0..120), 1..4)
}

fn build(streams: &[Vec<Op>]) -> Profile {
    let mut p = Profile::new(Bindings::methods(vec![Metric::new("cpu-time", "ns"), Metric::new("misses", "")]));
    let methods: Vec<ConsumerId> = (0..4).map(|i| p.consumers.intern(&format!("m{i}"))).collect();
    for (ti, ops) in streams.iter().enumerate() {
        let idx = p.add_thread(&format!("T{ti}"));
        let mut b = CursorBuilder::new(p.threads[idx].tree.clone(), &[0, 0]);
        let mut now = [0u64, 0];
        let mut open: Vec<ConsumerId> = Vec::new();
        for o in ops {
            match *o {
                Op::Enter(m) => {
                    b.enter(methods[m as usize], &now);
                    open.push(methods[m as usize]);
                }
                Op::Exit => {
                    if let Some(c) = open.pop() {
                        b.exit(c, &now);
                    }
                }
                Op::Tick(a, c) => {
                    now[0] += a;
                    now[1] += c;
                }
            }
        }
        b.unwind_all(&now);
        p.threads[idx].tree = b.into_tree();
    }
    p
}

/// Self rows computed the slow, obvious way: walk every node's ancestors.
fn naive_self(p: &Profile, c: ConsumerId, m: usize) -> (u64, u64, u64) {
    let (mut calls, mut base, mut cum) = (0, 0, 0);
    for th in &p.threads {
        let t = &th.tree;
        let cums = t.cum();
        for n in 0..t.len() as NodeId {
            if t.consumer(n) != c {
                continue;
            }
            calls += t.calls(n);
            base += t.base(n)[m];
            let mut a = t.parent(n);
            let mut outer = true;
            while let Some(x) = a {
                if t.consumer(x) == c {
                    outer = false;
                }
                a = t.parent(x);
            }
            if outer {
                cum += cums[n as usize * t.metric_count() + m];
            }
        }
    }
    (calls, base, cum)
}

fn check_invariants(p: &Profile) -> Result<(), TestCaseError> {
    let agg = Aggregate::new(p);
    let m = p.metric_count();
    let totals = p.total();
    let mut root_cum = vec![0u64; m];
    for c in 0..p.consumers.len() as ConsumerId {
        if !agg.is_present(c) {
            continue;
        }
        let s = agg.self_row(c);
        let parents = agg.parents(c);
        let children = agg.children(c);
        let name = p.consumers.name(c);
        if agg.is_root(c) {
            prop_assert!(parents.is_empty(), "root {name} has parents");
        } else {
            prop_assert_eq!(parents.iter().map(|r| r.calls).sum::<u64>(), s.calls, "calls of {}", name);
        }
        for (k, root) in root_cum.iter_mut().enumerate() {
            let (nc, nb, ncum) = naive_self(p, c, k);
            prop_assert_eq!((s.calls, s.base[k], s.cum[k]), (nc, nb, ncum), "self row of {} metric {}", name, k);
            if agg.is_root(c) {
                *root += s.cum[k];
            } else {
                prop_assert_eq!(parents.iter().map(|r| r.base[k]).sum::<u64>(), s.base[k], "base of {}", name);
                prop_assert_eq!(parents.iter().map(|r| r.cum[k]).sum::<u64>(), s.cum[k], "cum of {}", name);
            }
            prop_assert_eq!(children.iter().map(|r| r.cum[k]).sum::<u64>(), s.cum[k] - s.base[k], "child cum of {}", name);
            // A child row never claims more than the child's own cum.
            for ch in &children {
                prop_assert!(ch.cum[k] <= agg.self_row(ch.consumer).cum[k] || ch.consumer == c);
                if ch.consumer == c {
                    prop_assert_eq!(ch.cum[k], 0, "self-recursive child row of {} has cum", name);
                }
            }
        }
    }
    prop_assert_eq!(root_cum, totals, "the threads' cum is the total");
    Ok(())
}

/// The stanzas of an absolute xarc, parsed back: (source, calls, base, cum) rows per stanza.
fn xarc_stanzas(text: &str) -> Vec<Vec<(String, u64, u64, u64)>> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|l| l.starts_with("======")).unwrap() + 1;
    let mut out = vec![Vec::new()];
    for l in &lines[start..] {
        if l.chars().all(|c| c == '=') {
            out.push(Vec::new());
            continue;
        }
        let f: Vec<&str> = l.split_whitespace().collect();
        out.last_mut().unwrap().push((f[0].to_string(), f[1].parse().unwrap(), f[2].parse().unwrap(), f[3].parse().unwrap()));
    }
    out
}

fn check_rendered_xarc(p: &Profile, metric: usize) -> Result<(), TestCaseError> {
    let text = hpm_reports::xarc::render(p, &ReportOptions { absolute: true, metric, ..ReportOptions::default() });
    for st in xarc_stanzas(&text) {
        let s = st.iter().find(|r| r.0 == "Self").expect("a self row");
        let parents: Vec<_> = st.iter().filter(|r| r.0 == "Parent").collect();
        let children: Vec<_> = st.iter().filter(|r| r.0 == "Child").collect();
        if !parents.is_empty() {
            prop_assert_eq!(parents.iter().map(|r| r.1).sum::<u64>(), s.1);
            prop_assert_eq!(parents.iter().map(|r| r.2).sum::<u64>(), s.2);
            prop_assert_eq!(parents.iter().map(|r| r.3).sum::<u64>(), s.3);
        }
        prop_assert_eq!(children.iter().map(|r| r.3).sum::<u64>(), s.3 - s.2);
        // Parents by cum ascending, children by cum descending.
        prop_assert!(parents.windows(2).all(|w| w[0].3 <= w[1].3));
        prop_assert!(children.windows(2).all(|w| w[0].3 >= w[1].3));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn xarc_invariants_hold_with_recursion(s in streams()) {
        let p = build(&s);
        check_invariants(&p)?;
        check_rendered_xarc(&p, 0)?;
        check_rendered_xarc(&p, 1)?;
    }

    #[test]
    fn json_round_trips(s in streams()) {
        let p = build(&s);
        let bytes = v1::to_vec(&p);
        let text = std::str::from_utf8(&bytes).unwrap();
        let q = v1::read(text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&q.bindings, &p.bindings);
        prop_assert_eq!(q.threads.len(), p.threads.len());
        for (a, b) in p.threads.iter().zip(&q.threads) {
            prop_assert_eq!(&a.name, &b.name);
            prop_assert_eq!(a.tree.len(), b.tree.len());
            prop_assert!(b.tree.check().is_ok());
            // Same pre-order (children in the same order), node by node.
            let (pa, pb) = (a.tree.preorder(), b.tree.preorder());
            for (&x, &y) in pa.iter().zip(&pb) {
                prop_assert_eq!(p.consumers.name(a.tree.consumer(x)), q.consumers.name(b.tree.consumer(y)));
                prop_assert_eq!(a.tree.calls(x), b.tree.calls(y));
                prop_assert_eq!(a.tree.base(x), b.tree.base(y));
            }
        }
        prop_assert_eq!(common::named_contexts(&p), common::named_contexts(&q));
        // Writing the read model again gives the same bytes.
        prop_assert_eq!(v1::to_vec(&q), bytes);
    }

    #[test]
    fn pruning_keeps_a_coherent_profile(s in streams(), fraction in 0.0f64..0.5, metric in 0usize..2) {
        let p = build(&s);
        let opts = ReportOptions { prune: fraction, metric, ..ReportOptions::default() };
        let q = prune(&p, &opts);
        prop_assert_eq!(q.total(), p.total(), "pruning folds, it does not drop");
        let threshold = hpm_reports::prune_threshold(&p, &opts);
        let pruned_id = q.consumers.get(PRUNED);
        for th in &q.threads {
            prop_assert!(th.tree.check().is_ok());
            let cum = th.tree.cum();
            let m = th.tree.metric_count();
            for n in 1..th.tree.len() as NodeId {
                if Some(th.tree.consumer(n)) != pruned_id {
                    prop_assert!(cum[n as usize * m + metric] >= threshold, "a kept node is below the threshold");
                }
            }
            prop_assert_eq!(th.tree.parent(Tree::ROOT), None);
        }
        check_invariants(&q)?;
        check_rendered_xarc(&q, metric)?;
        for f in [Format::Xtree, Format::Xprof, Format::Collapsed, Format::Flame] {
            render(&q, f, &opts).map_err(|e| TestCaseError::fail(e.to_string()))?;
        }
    }
}

#[test]
fn direct_recursion_child_row_has_zero_cum() {
    // T → A(base 1) → A(base 2) → B(base 3); A is called twice, once by T and once by A.
    let mut p = Profile::new(Bindings::methods(vec![Metric::new("t", "")]));
    let a = p.consumers.intern("A");
    let b = p.consumers.intern("B");
    p.add_thread("T");
    let t = &mut p.threads[0].tree;
    t.add_calls(Tree::ROOT, 1);
    let a1 = t.child(Tree::ROOT, a);
    let a2 = t.child(a1, a);
    let b1 = t.child(a2, b);
    for (n, v) in [(a1, 1), (a2, 2), (b1, 3)] {
        t.add_calls(n, 1);
        t.add_base(n, &[v]);
    }
    let agg = Aggregate::new(&p);
    let s = agg.self_row(a);
    assert_eq!((s.calls, s.base[0], s.cum[0]), (2, 3, 6), "cum counts the outer A only");
    let mut parents: Vec<_> = agg.parents(a).iter().map(|r| (p.consumers.name(r.consumer).to_string(), r.calls, r.base[0], r.cum[0])).collect();
    parents.sort();
    assert_eq!(parents, vec![("A".into(), 1, 2, 0), ("T".into(), 1, 1, 6)]);
    let mut children: Vec<_> = agg.children(a).iter().map(|r| (p.consumers.name(r.consumer).to_string(), r.calls, r.base[0], r.cum[0])).collect();
    children.sort();
    assert_eq!(children, vec![("A".into(), 1, 2, 0), ("B".into(), 1, 3, 3)]);
}

#[test]
fn indirect_recursion_does_not_double_count() {
    // T → A → B → A → B, base 1 each.
    let mut p = Profile::new(Bindings::methods(vec![Metric::new("t", "")]));
    let a = p.consumers.intern("A");
    let b = p.consumers.intern("B");
    p.add_thread("T");
    let t = &mut p.threads[0].tree;
    let n = t.descend(Tree::ROOT, &[a, b, a, b]);
    let mut x = Some(n);
    while let Some(k) = x {
        if k != Tree::ROOT {
            t.add_calls(k, 1);
            t.add_base(k, &[1]);
        }
        x = t.parent(k);
    }
    let agg = Aggregate::new(&p);
    assert_eq!(agg.self_row(a).cum[0], 4);
    assert_eq!(agg.self_row(b).cum[0], 3);
    // A's child row B: the outer B (cum 3) minus the inner A inside it (cum 2), plus the inner B
    // (cum 1, no A below it): 2 = A's cum 4 − A's base 2.
    let ab = agg.children(a).into_iter().find(|r| r.consumer == b).unwrap();
    assert_eq!((ab.calls, ab.base[0], ab.cum[0]), (2, 2, (3 - 2) + 1));
    let xtree = hpm_reports::xtree::render(&p, &ReportOptions::default());
    let rl: Vec<&str> = xtree.lines().skip(5).map(|l| l.split_whitespace().nth(1).unwrap()).collect();
    assert_eq!(rl, ["1", "1", "1", "2", "2"], "{xtree}");
}
