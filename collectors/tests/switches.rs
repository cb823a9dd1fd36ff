//! Quanta from the kernel's context switches (`counters::switches`, and the trace writer over
//! them, `quantum::os`), on real perf_event file descriptors: threads that alternate busy phases
//! and sleeps are traced, and their quanta are checked against the kernel's own account of their
//! running time (`/proc/self/task/T/schedstat`).

use std::time::{Duration, Instant};

use hpm_collectors::counters::switches::{OsQuantum, SwitchSource};
use hpm_collectors::counters::{current_tid, monotonic_ns, parse_event, perf_event_paranoid, STEAL_TICK_NS};

/// Nanoseconds the kernel says thread `tid` of this process has run.
fn schedstat_run_ns(tid: i32) -> u64 {
    let s = std::fs::read_to_string(format!("/proc/self/task/{tid}/schedstat")).expect("schedstat");
    s.split_whitespace().next().unwrap().parse().unwrap()
}

/// Whether `x`, a sum over quanta, matches `ran`, the kernel's run time: within 2% below, 2% plus
/// `steal` above. The kernel's run time leaves out hypervisor steal and switch records keep it
/// (`docs/counters.md`), so above they may exceed it by the steal of all CPUs meanwhile (read in
/// whole ticks: up to one more than it says).
fn near_run_time(x: u64, ran: u64, steal: u64) -> bool {
    x as f64 > 0.98 * ran as f64 && (x as f64) < 1.02 * ran as f64 + (steal + STEAL_TICK_NS) as f64
}

fn is_root() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status.lines().find_map(|l| l.strip_prefix("Uid:")).and_then(|l| l.split_whitespace().nth(1)) == Some("0")
}

fn spin(d: Duration) -> u64 {
    let end = Instant::now() + d;
    let mut x = 0u64;
    while Instant::now() < end {
        x = x.wrapping_mul(31).wrapping_add(7);
    }
    x
}

/// 20 rounds of 15 ms busy then 5 ms asleep, drained by another thread while it runs. Returns
/// the quanta, the thread's run time by schedstat over the traced span, and the sleeps.
fn traced_thread() -> Option<(Vec<OsQuantum>, u64, Vec<String>)> {
    let (tx, rx) = std::sync::mpsc::channel();
    let worker = std::thread::spawn(move || {
        let tid = current_tid();
        let events = [parse_event("context-switches").unwrap()];
        let source = SwitchSource::open(tid, &events, 64);
        let before = schedstat_run_ns(tid);
        let source = match source {
            Ok(s) => s,
            Err(e) => {
                tx.send(Err(e.message)).unwrap();
                return None;
            }
        };
        let source = std::sync::Arc::new(std::sync::Mutex::new(source));
        tx.send(Ok(source.clone())).unwrap();
        for _ in 0..20 {
            std::hint::black_box(spin(Duration::from_millis(15)));
            std::thread::sleep(Duration::from_millis(5));
        }
        let mut s = source.lock().unwrap();
        let mut out = Vec::new();
        s.drain(&mut out);
        let last = s.finish_on_thread(monotonic_ns());
        let ran = schedstat_run_ns(tid) - before;
        Some((out, last, ran, s.counters().to_vec()))
    });
    let source = match rx.recv().unwrap() {
        Ok(s) => s,
        Err(message) => {
            worker.join().unwrap();
            // Refused: only where the kernel side is not permitted, and the line says how to fix it.
            assert!(perf_event_paranoid().unwrap_or(2) > 1 && !is_root(), "{message}");
            assert!(message.contains("perf_event_paranoid") && message.contains("CAP_PERFMON"), "{message}");
            return None;
        }
    };
    let mut quanta = Vec::new();
    while !worker.is_finished() {
        std::thread::sleep(Duration::from_millis(10));
        source.lock().unwrap().drain(&mut quanta);
    }
    let (rest, last, ran, counters) = worker.join().unwrap()?;
    quanta.extend(rest);
    quanta.extend(last);
    Some((quanta, ran, counters))
}

#[test]
fn quanta_cover_the_threads_run_time_and_say_why_they_ended() {
    let steal0 = hpm_collectors::counters::steal_ns();
    let Some((quanta, ran, counters)) = traced_thread() else { return };
    let steal = hpm_collectors::counters::steal_since(steal0);
    assert_eq!(counters, ["cpu-time", "context-switches"]);
    assert!(quanta.len() >= 21, "{} quanta", quanta.len());
    let cpu: u64 = quanta.iter().map(|q| q.deltas[0]).sum();
    let covered: u64 = quanta.iter().map(|q| q.end - q.start).sum();
    assert!(near_run_time(cpu, ran, steal), "cpu-time over the quanta {cpu} ns, schedstat {ran} ns, steal {steal} ns");
    assert!(covered as f64 >= 0.99 * ran as f64 && near_run_time(covered, ran, steal), "quanta span {covered} ns, schedstat {ran} ns, steal {steal} ns");
    // Every sleep ends a quantum that was not preempted; each quantum's own switch count is 1
    // (the leader counts the switch that ended it; the last, closed at the end, has none).
    let blocked = quanta.iter().filter(|q| !q.preempted).count();
    assert!(blocked >= 20, "{blocked} quanta ended by blocking");
    assert!(quanta[..quanta.len() - 1].iter().all(|q| q.deltas[1] == 1), "{:?}", quanta.iter().map(|q| q.deltas[1]).collect::<Vec<_>>());
    for w in quanta.windows(2) {
        assert!(w[0].start <= w[0].end && w[0].end <= w[1].start, "quanta overlap: {:?} then {:?}", w[0], w[1]);
    }
}

/// Run by `an_unprivileged_process_is_refused_with_the_fix` in a child process without
/// privileges: says whether the switch group opened.
#[test]
#[ignore = "run as a child process by an_unprivileged_process_is_refused_with_the_fix"]
fn open_as_child() {
    match SwitchSource::open(current_tid(), &[], 8) {
        Ok(_) => println!("OPENED"),
        Err(e) => println!("REFUSED: {}", e.message),
    }
}

/// As an unprivileged user (`setpriv` to nobody) with `perf_event_paranoid` above 1, opening is
/// refused with one line naming the setting and the fixes; at 1 or below it opens.
#[test]
fn an_unprivileged_process_is_refused_with_the_fix() {
    if !is_root() {
        eprintln!("not root: cannot drop privileges for this test (the first test covers the refusal then)");
        return;
    }
    let exe = std::env::current_exe().unwrap();
    let out = std::process::Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(&exe)
        .args(["--ignored", "--exact", "open_as_child", "--nocapture", "--test-threads=1"])
        .output()
        .expect("setpriv (util-linux)");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    let line = text.lines().find_map(|l| l.find("OPENED").or_else(|| l.find("REFUSED")).map(|i| &l[i..])).unwrap_or_else(|| panic!("{text}"));
    let paranoid = perf_event_paranoid().unwrap_or(2);
    if paranoid > 1 {
        assert!(line.contains(&format!("perf_event_paranoid is {paranoid}")) && line.contains("CAP_PERFMON") && line.contains("perf_event_paranoid=1"), "{line}");
    } else {
        assert_eq!(line, "OPENED");
    }
}

/// The OS-thread tracer end to end: two threads (2 × 10 rounds of 10 ms busy, 5 ms asleep) and a
/// writer thread that pumps every 10 ms, each traced; markers from one thread; the trace read
/// back with the trace reader is valid, each worker's quanta add up to its schedstat run time
/// within 2% (plus the steal above: [`near_run_time`]), the markers are there, and the meta file names threads and counters.
#[test]
fn the_os_tracer_writes_a_valid_trace_per_cpu() {
    use hpm_collectors::quantum::os::OsTracer;
    use hpm_model::quantum::{read_dir, Entry, MarkerKind, ThreadKind};
    use std::sync::Arc;
    let dir = tempfile::tempdir().unwrap();
    let steal0 = hpm_collectors::counters::steal_ns();
    let tracer = match OsTracer::new(dir.path(), &[parse_event("context-switches").unwrap()]) {
        Ok(t) => Arc::new(t),
        Err(e) => {
            assert!(perf_event_paranoid().unwrap_or(2) > 1 && !is_root(), "{e}");
            return;
        }
    };
    assert_eq!(tracer.counters(), ["real-time", "cpu-time", "context-switches"]);
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (t, s) = (tracer.clone(), stop.clone());
    let writer = std::thread::spawn(move || {
        t.thread_started(ThreadKind::Writer, "writer");
        while !s.load(std::sync::atomic::Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(10));
            t.pump(false);
        }
        t.thread_ended();
        current_tid()
    });
    let workers: Vec<_> = (0..2)
        .map(|i| {
            let t = tracer.clone();
            std::thread::spawn(move || {
                t.thread_started(ThreadKind::App, &format!("worker-{i}"));
                let tid = current_tid();
                let before = schedstat_run_ns(tid);
                for round in 0..10 {
                    if i == 0 && round == 5 {
                        t.marker(MarkerKind::Note, 0, "half way");
                    }
                    std::hint::black_box(spin(Duration::from_millis(10)));
                    std::thread::sleep(Duration::from_millis(5));
                }
                let ran = schedstat_run_ns(tid) - before;
                t.thread_ended();
                (tid, ran)
            })
        })
        .collect();
    let ran: Vec<(i32, u64)> = workers.into_iter().map(|w| w.join().unwrap()).collect();
    let steal = hpm_collectors::counters::steal_since(steal0);
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let writer_tid = writer.join().unwrap();
    let (files, problems) = tracer.finish(0);
    assert!(problems.is_empty(), "{problems:?}");
    assert!(!files.is_empty());
    let trace = read_dir(dir.path()).unwrap();
    assert!(trace.is_valid(), "{:?}", trace.issues);
    assert!(trace.issues.is_empty(), "{:?}", trace.issues);
    for (tid, ran) in &ran {
        let mine: Vec<_> = trace.quanta().filter(|q| q.thread == *tid as u32).collect();
        let cpu: u64 = mine.iter().map(|q| q.deltas[0]).sum();
        let span: u64 = mine.iter().map(|q| q.end - q.start).sum();
        assert!(near_run_time(cpu, *ran, steal) && near_run_time(span, *ran, steal), "thread {tid}: cpu-time {cpu}, span {span}, schedstat {ran}, steal {steal}");
        assert!(mine.iter().filter(|q| q.yielded).count() >= 10, "every sleep ends a quantum with the yield sign");
        assert_eq!(trace.meta.thread(*tid as u32).map(|t| t.kind), Some(ThreadKind::App));
    }
    assert!(trace.quanta().any(|q| q.thread == writer_tid as u32), "the writer is traced");
    assert_eq!(trace.meta.thread(writer_tid as u32).map(|t| t.kind), Some(ThreadKind::Writer));
    let notes: Vec<_> = trace.merged().filter_map(|e| match e {
        Entry::Marker(m) if m.kind == MarkerKind::Note => Some(m.text.clone()),
        _ => None,
    }).collect();
    assert_eq!(notes, ["half way"]);
    assert_eq!(trace.merged().filter(|e| matches!(e, Entry::Exit { .. })).count(), trace.vps.len(), "one exit record per CPU");
}
