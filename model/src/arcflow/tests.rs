use super::*;
use crate::text_trace::read_text_trace;
use proptest::prelude::*;

/// The paper's Figure 2 trace (`examples/figure2.trace`: the figure's records, with comment lines).
pub const FIGURE_2: &str = include_str!("../../../examples/figure2.trace");

fn context_table(p: &Profile) -> Vec<(String, u64, u64)> {
    let t = &p.threads[0].tree;
    let mut rows: Vec<(String, u64, u64)> = t
        .preorder()
        .into_iter()
        .skip(1)
        .map(|n| {
            let names: Vec<&str> = t.path(n)[1..].iter().map(|&c| p.consumers.name(c)).collect();
            (names.join(" "), t.calls(n), t.base(n)[0])
        })
        .collect();
    rows.sort();
    rows
}

#[test]
fn figure_2_builds_table_3() {
    let trace = read_text_trace(FIGURE_2.as_bytes(), &["cpu-seconds".into()]).unwrap();
    assert!(trace.warnings.is_empty(), "{:?}", trace.warnings);
    let p = &trace.profile;
    assert_eq!(p.threads.len(), 1);
    assert_eq!(p.threads[0].name, "AC_test_pidtid");
    // Table 3 of the paper: consumer context, number of calls, cpu-seconds.
    let table3 = [
        ("Main", 1, 0),
        ("Main A", 1, 1),
        ("Main A B", 2, 2),
        ("Main A B C", 1, 1),
        ("Main B", 1, 1),
        ("Main B A", 1, 1),
        ("Main B A C", 1, 1),
        ("Main B A X", 1, 0),
        ("Main B A X E", 1, 1),
        ("Main B A X F", 1, 1),
        ("Main B A X G", 1, 1),
    ];
    let mut expected: Vec<(String, u64, u64)> = table3.iter().map(|(c, n, y)| (c.to_string(), *n, *y)).collect();
    expected.sort();
    assert_eq!(context_table(p), expected);
    // 11 method contexts plus the thread: 12 nodes, as the paper says.
    assert_eq!(p.threads[0].tree.len(), 12);
    assert_eq!(p.total(), vec![10]);
    assert_eq!(p.threads[0].tree.cum()[0], 10);
}

#[test]
fn malformed_lines_warn_with_line_numbers_and_are_skipped() {
    let text = "0 pidtid T\n0 > A\nxyz > B\n1 ? C\n2 <\n-3 > D\n2 < Q\n2 < A\n3 4 > E\n";
    let trace = read_text_trace(text.as_bytes(), &[]).unwrap();
    let w = trace.warnings.join("\n");
    assert!(w.contains("line 3:"), "{w}");
    assert!(w.contains("line 4: unknown record kind `?`"), "{w}");
    assert!(w.contains("line 5: record without a name"), "{w}");
    assert!(w.contains("line 6: `-3`"), "{w}");
    assert!(w.contains("line 7: end of `Q` without a matching start"), "{w}");
    assert!(w.contains("line 9: 2 values where earlier lines have 1"), "{w}");
    let t = &trace.profile.threads[0].tree;
    assert_eq!(t.len(), 2);
    assert_eq!(t.base(1), &[2]);
}

#[test]
fn end_of_outer_context_closes_missing_ends() {
    let text = "0 pidtid T\n0 > A\n1 > B\n2 > C\n3 < A\n4 > D\n5 < D\n";
    let trace = read_text_trace(text.as_bytes(), &[]).unwrap();
    assert_eq!(trace.warnings.len(), 1, "{:?}", trace.warnings);
    assert!(trace.warnings[0].contains("closes 2 context(s)"));
    let p = &trace.profile;
    let t = &p.threads[0].tree;
    let d = p.consumers.get("D").unwrap();
    assert_eq!(t.find_child(Tree::ROOT, d).map(|n| t.calls(n)), Some(1), "D is a child of the thread again");
}

#[test]
fn thread_switches_charge_per_thread() {
    // Two threads with per-thread metrics: a `pidtid` value is the incoming thread's own level.
    let text = "0 pidtid T1\n0 > A\n5 pidtid T2\n5 > B\n7 pidtid T1\n9 < A\n9 pidtid T2\n10 < B\n";
    let trace = read_text_trace(text.as_bytes(), &[]).unwrap();
    assert!(trace.warnings.is_empty(), "{:?}", trace.warnings);
    let p = &trace.profile;
    assert_eq!(p.threads.len(), 2);
    assert_eq!(p.threads[0].tree.base(1), &[9]); // A: 0..7 charged at the switch back, 7..9
    assert_eq!(p.threads[1].tree.base(0), &[0]); // T2 starts at its first level, 5
    assert_eq!(p.threads[1].tree.base(1), &[5]); // B: 5..9 charged at the switch back, 9..10
}

#[test]
fn thousands_of_children_stay_consistent() {
    let mut t = Tree::new(0, 1);
    for c in 1..5000u32 {
        let n = t.child(Tree::ROOT, c);
        t.add_calls(n, 1);
    }
    for c in (1..5000u32).rev() {
        let n = t.child(Tree::ROOT, c);
        assert_eq!(t.consumer(n), c);
        t.add_calls(n, 1);
    }
    assert_eq!(t.len(), 5000);
    assert_eq!(t.child_count(Tree::ROOT), 4999);
    t.check().unwrap();
    assert!(t.children(Tree::ROOT).iter().all(|&n| t.calls(n) == 2));
}

#[test]
fn known_context_does_not_allocate() {
    let mut b = CursorBuilder::new(Tree::new(0, 2), &[0, 0]);
    for i in 0..100u64 {
        b.enter((i % 20) as u32 + 1, &[i, i]);
        b.enter(99, &[i, i]);
        b.exit(99, &[i, i]);
        b.exit((i % 20) as u32 + 1, &[i, i]);
    }
    let bytes = b.tree().heap_bytes();
    let len = b.tree().len();
    for i in 100..100_000u64 {
        b.enter((i % 20) as u32 + 1, &[i, i]);
        b.enter(99, &[i, i]);
        b.exit(99, &[i, i]);
        b.exit((i % 20) as u32 + 1, &[i, i]);
    }
    assert_eq!(b.tree().len(), len);
    assert_eq!(b.tree().heap_bytes(), bytes, "no growth for known contexts");
}

// ---- property tests: random event streams ----

#[derive(Debug, Clone)]
enum Op {
    Enter(u32),
    Exit,
    Advance(u64, u64),
}

fn ops() -> impl Strategy<Value = Vec<Op>> {
    prop::collection::vec(
        prop_oneof![
            4 => (1u32..12).prop_map(Op::Enter),
            4 => Just(Op::Exit),
            3 => (0u64..1000, 0u64..50).prop_map(|(a, b)| Op::Advance(a, b)),
        ],
        0..400,
    )
}

/// Runs `ops` through the cursor builder and, in parallel, produces the equivalent stack samples (one
/// per event: the stack before it and the metric delta since the previous event).
fn build_both(ops: &[Op]) -> (Tree, Tree) {
    let mut cursor = CursorBuilder::new(Tree::new(0, 2), &[0, 0]);
    let mut samples = SampleBuilder::new(Tree::new(0, 2));
    let mut stack: Vec<u32> = Vec::new();
    let mut now = [0u64, 0];
    let mut last = [0u64, 0];
    for op in ops {
        match *op {
            Op::Advance(a, b) => {
                now[0] += a;
                now[1] += b;
            }
            Op::Enter(c) => {
                samples.add(&stack, &[now[0] - last[0], now[1] - last[1]]);
                last = now;
                cursor.enter(c, &now);
                stack.push(c);
            }
            Op::Exit => {
                if let Some(c) = stack.pop() {
                    samples.add(&[&stack[..], &[c]].concat(), &[now[0] - last[0], now[1] - last[1]]);
                    last = now;
                    assert_eq!(cursor.exit(c, &now), ExitOutcome::Matched);
                }
            }
        }
    }
    samples.add(&stack, &[now[0] - last[0], now[1] - last[1]]);
    cursor.charge(&now);
    (cursor.into_tree(), samples.into_tree())
}

/// Rebuilds a tree node by node, as a reader of a serialized tree does.
fn rebuild(t: &Tree) -> Tree {
    let mut out = Tree::new(t.consumer(Tree::ROOT), t.metric_count());
    for n in t.preorder() {
        let d = out.descend(Tree::ROOT, &t.path(n)[1..]);
        out.add_calls(d, t.calls(n));
        out.add_base(d, t.base(n));
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn three_builders_agree(ops in ops()) {
        let (from_events, from_samples) = build_both(&ops);
        from_events.check().unwrap();
        from_samples.check().unwrap();
        prop_assert_eq!(from_events.contexts(), from_samples.contexts());
        let serialized = rebuild(&from_events);
        prop_assert_eq!(serialized.contexts(), from_events.contexts());
    }

    #[test]
    fn cum_is_base_plus_children(ops in ops()) {
        let (t, _) = build_both(&ops);
        let cum = t.cum();
        for n in 0..t.len() as NodeId {
            for m in 0..2 {
                let kids: u64 = t.children(n).iter().map(|&c| cum[c as usize * 2 + m]).sum();
                prop_assert_eq!(cum[n as usize * 2 + m], t.base(n)[m] + kids);
            }
        }
        prop_assert_eq!(&cum[0..2], &t.total()[..]);
    }

    #[test]
    fn pruning_keeps_a_coherent_tree(ops in ops(), threshold in 0u64..3000) {
        let (t, _) = build_both(&ops);
        let p = t.pruned(0, threshold, 1000);
        p.check().unwrap();
        prop_assert_eq!(p.total(), t.total());
        let cum = p.cum();
        for n in 1..p.len() as NodeId {
            prop_assert!(p.consumer(n) == 1000 || cum[n as usize * 2] >= threshold);
        }
        // Every kept context is a context of the original with the same calls and base.
        let orig = t.contexts();
        for (path, (calls, base)) in p.contexts() {
            if path.last() != Some(&1000) {
                prop_assert_eq!(orig.get(&path), Some(&(calls, base)));
            }
        }
    }

    #[test]
    fn merging_threads_sums_contexts(a in ops(), b in ops()) {
        let mut profile = Profile::new(Bindings::methods(vec![Metric::new("x", "ns"), Metric::new("y", "")]));
        // Consumers 1..12 are the methods; threads get the next ids.
        for i in 0..12 { profile.consumers.intern(&format!("m{i}")); }
        let (ta, _) = build_both(&a);
        let (tb, _) = build_both(&b);
        for (name, t) in [("t1", ta.clone()), ("t2", tb.clone())] {
            let i = profile.add_thread(name);
            let root = profile.threads[i].tree.consumer(Tree::ROOT);
            let mut t2 = Tree::new(root, 2);
            t2.merge_from(Tree::ROOT, &t, Tree::ROOT);
            profile.threads[i].tree = t2;
        }
        let all = profile.all_threads("all");
        all.check().unwrap();
        prop_assert_eq!(all.total(), profile.total());
        let mut expected = std::collections::BTreeMap::<Vec<u32>, (u64, Vec<u64>)>::new();
        for t in [&ta, &tb] {
            for (mut path, (calls, base)) in t.contexts() {
                path[0] = all.consumer(Tree::ROOT);
                let e = expected.entry(path).or_insert((0, vec![0, 0]));
                e.0 += calls;
                e.1[0] += base[0];
                e.1[1] += base[1];
            }
        }
        prop_assert_eq!(all.contexts(), expected);
    }
}

#[test]
fn clear_keeps_the_open_contexts_and_the_baseline() {
    let mut b = CursorBuilder::new(Tree::new(0, 1), &[0]);
    b.enter(1, &[10]);
    b.enter(2, &[30]);
    b.clear();
    assert_eq!(b.path(), [1, 2], "the open contexts survive");
    let t = b.tree();
    let one = t.find_child(Tree::ROOT, 1).unwrap();
    let two = t.find_child(one, 2).unwrap();
    assert_eq!((t.calls(Tree::ROOT), t.calls(one), t.calls(two)), (1, 0, 0), "root entered once, the rest not");
    assert_eq!(t.base(two), [0]);
    // The baseline was kept: 30 -> 45 is charged to 2, and its end still matches.
    assert_eq!(b.exit(2, &[45]), ExitOutcome::Matched);
    assert_eq!(b.tree().base(two), [15]);
    b.reset(&[100]);
    b.move_to(&[7, 8]);
    assert_eq!(b.path(), [7, 8]);
    b.charge(&[101]);
    let t = b.tree();
    let eight = t.find_child(t.find_child(Tree::ROOT, 7).unwrap(), 8).unwrap();
    assert_eq!((t.calls(eight), t.base(eight)), (0, &[1u64][..]), "moved to without a call; reset rebased to 100");
    b.close_all();
    assert_eq!(b.depth(), 0);
}
