//! Counter sources on real perf_event file descriptors.
//!
//! Written to pass both here (a VM without a hardware PMU: `cycles` fails with ENOENT) and on a
//! machine with a PMU (then `cycles` opens and counts).

use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use hpm_collectors::counters::{
    available_events, current_tid, probe, refusal::is_no_pmu, thread_cpu_ns, thread_cpu_ns_by_tid, thread_cpu_ns_of, CounterOptions,
    CounterSetSpec, KernelMode, Metrics, ReadMode, ReadPath, RefusalReason, ThreadCpuClock, WallClock,
};
use hpm_model::metrics::MetricSet;

fn spin(d: Duration) -> u64 {
    let t = Instant::now();
    let mut x = 0u64;
    while t.elapsed() < d {
        for i in 0..1000u64 {
            x = x.wrapping_mul(31).wrapping_add(std::hint::black_box(i));
        }
    }
    x
}

/// Spins until the calling thread has used `d` of CPU time (robust on a loaded machine).
fn spin_cpu(d: Duration) -> u64 {
    let end = thread_cpu_ns() + d.as_nanos() as u64;
    let mut x = 0u64;
    while thread_cpu_ns() < end {
        for i in 0..1000u64 {
            x = x.wrapping_mul(31).wrapping_add(std::hint::black_box(i));
        }
    }
    x
}

fn index_of(spec: &CounterSetSpec, name: &str) -> usize {
    spec.events().iter().position(|e| e.name == name).unwrap_or_else(|| panic!("{name} not in spec"))
}

/// Steal time so far (see [`hpm_collectors::counters::steal_ns`]); the comparison needs it.
fn steal_ns() -> u64 {
    hpm_collectors::counters::steal_ns().expect("/proc/stat readable")
}

/// Checks a task-clock delta against the thread's CPU time over the same interval. perf's task-clock
/// runs while the task is on a CPU, including time the hypervisor stole from that virtual CPU; the
/// thread CPU clock (and /proc's schedstat) exclude steal. So they must agree within 5%, except that
/// task-clock may also exceed the CPU time by the steal recorded meanwhile (plus one /proc/stat tick
/// per CPU of rounding). With no steal recorded the 5% bound is all there is.
fn check_task_clock(what: &str, counted: f64, cpu: f64, steal: u64) {
    let err = (counted - cpu) / cpu;
    println!("{what}: task-clock {counted} ns, CPU time {cpu} ns, {:+.2}%, steal meanwhile {steal} ns", err * 100.0);
    assert!(err > -0.05, "{what}: task-clock {counted} below CPU time {cpu} by {:.1}%", -err * 100.0);
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
    let allowance = if steal > 0 { steal as f64 + cpus * 10e6 } else { 0.0 };
    assert!(
        counted <= cpu * 1.05 + allowance,
        "{what}: task-clock {counted} vs thread CPU clock {cpu}: {:.1}% apart, more than 5% plus the {steal} ns of steal recorded",
        err * 100.0
    );
}

#[test]
fn task_clock_agrees_with_thread_cpu_clock() {
    let p = probe(&["task-clock"], CounterOptions::default());
    assert!(p.refusals.is_empty(), "{:?}", p.refusals);
    let spec = p.spec;
    std::thread::scope(|s| {
        s.spawn(|| {
            let mut g = spec.try_open_current_thread().expect("group opens");
            assert_eq!(g.read_path(), ReadPath::Syscall, "software events are read by read()");
            let why = g.syscall_because().expect("the reason for read()");
            assert!(why.contains("software events have no hardware counter"), "{why}");
            let mut a = [0u64; 1];
            let mut b = [0u64; 1];
            let s0 = steal_ns();
            g.read_into(&mut a);
            let c0 = thread_cpu_ns();
            std::hint::black_box(spin_cpu(Duration::from_millis(200)));
            let c1 = thread_cpu_ns();
            g.read_into(&mut b);
            let s1 = steal_ns();
            assert!(b[0] > a[0]);
            check_task_clock("this thread", (b[0] - a[0]) as f64, (c1 - c0) as f64, s1 - s0);
        });
    });
}

/// Waits until thread `tid` of this process is blocked (state `S` in its /proc stat line).
fn wait_until_asleep(tid: i32) {
    let t = Instant::now();
    loop {
        let stat = std::fs::read_to_string(format!("/proc/self/task/{tid}/stat")).expect("thread's stat");
        let state = stat[stat.rfind(')').unwrap() + 1..].split_whitespace().next().unwrap().to_string();
        if state == "S" {
            return;
        }
        assert!(t.elapsed() < Duration::from_secs(10), "thread {tid} still in state {state} after 10 s");
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn task_clock_of_another_thread_by_tid_agrees_with_proc() {
    let spec = probe(&["task-clock"], CounterOptions::default()).spec;
    let (tid_tx, tid_rx) = mpsc::channel();
    let (go_tx, go_rx) = mpsc::channel::<()>();
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let (exit_tx, exit_rx) = mpsc::channel::<()>();
    let h = std::thread::spawn(move || {
        tid_tx.send(current_tid()).unwrap();
        go_rx.recv().unwrap();
        std::hint::black_box(spin_cpu(Duration::from_millis(200)));
        done_tx.send(()).unwrap();
        exit_rx.recv().unwrap();
    });
    let tid = tid_rx.recv().unwrap();
    let mut g = spec.open_thread(tid).expect("group opens for a tid");
    assert_eq!(g.read_path(), ReadPath::Syscall);
    assert!(g.syscall_because().is_some_and(|w| w.contains("another thread")), "{:?}", g.syscall_because());
    wait_until_asleep(tid); // in go_rx.recv(): its schedstat is exact (see below)
    let s0 = steal_ns();
    let p0 = thread_cpu_ns_of(tid).unwrap();
    let k0 = thread_cpu_ns_by_tid(tid).unwrap();
    let v0 = g.read_full().values[0];
    go_tx.send(()).unwrap();
    done_rx.recv().unwrap();
    // /proc's schedstat of a running thread lags by up to a scheduler tick (10 ms at HZ=100, 5%
    // of this spin); once the thread is asleep in its next recv() it is exact.
    wait_until_asleep(tid);
    let v1 = g.read_full().values[0];
    let p1 = thread_cpu_ns_of(tid).unwrap();
    let k1 = thread_cpu_ns_by_tid(tid).unwrap();
    let s1 = steal_ns();
    exit_tx.send(()).unwrap();
    h.join().unwrap();
    let counted = (v1 - v0) as f64;
    let proc = (p1 - p0) as f64;
    let clock = (k1 - k0) as f64;
    println!("task-clock by tid {counted} ns, /proc schedstat {proc} ns, thread CPU clock by tid {clock} ns");
    check_task_clock("thread by tid", counted, proc, s1 - s0);
    // Both of these exclude steal: they must agree within 5% whatever the host does.
    assert!((clock - proc).abs() / proc < 0.05, "{clock} vs {proc}");
}

#[test]
fn page_faults_counted_for_fresh_memory() {
    let p = probe(&["page-faults", "minor-faults"], CounterOptions::default());
    assert!(p.refusals.is_empty(), "{:?}", p.refusals);
    let spec = p.spec;
    std::thread::scope(|s| {
        s.spawn(|| {
            let mut g = spec.try_open_current_thread().unwrap();
            let a = g.read_full();
            const SIZE: usize = 64 << 20;
            // Large zeroed allocations come from fresh anonymous mmap pages: the first write to
            // each page faults.
            let mut v = vec![0u8; SIZE];
            for i in (0..SIZE).step_by(4096) {
                v[i] = 1;
            }
            std::hint::black_box(&v);
            let b = g.read_full();
            drop(v);
            let faults = b.values[0] - a.values[0];
            let minor = b.values[1] - a.values[1];
            println!("64 MiB touched: {faults} page faults, {minor} minor");
            let thp_always = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled")
                .map(|s| s.contains("[always]"))
                .unwrap_or(false);
            // With transparent huge pages always on, one fault may map 2 MiB.
            let min = if thp_always { 32 } else { 10_000 };
            assert!(faults >= min, "{faults} faults for 16384 fresh pages");
            assert!(minor >= min);
        });
    });
}

#[test]
fn context_switches_of_a_sleeping_thread_or_clear_refusal() {
    let p = probe(&["context-switches", "task-clock"], CounterOptions::default());
    let spec = p.spec;
    if let Some(r) = p.refusals.iter().find(|r| r.event == "context-switches") {
        // Not permitted here: the refusal says why and how to fix it. No pretending.
        let msg = r.to_string();
        println!("refused: {msg}");
        assert!(matches!(r.reason, RefusalReason::KernelOnly { .. } | RefusalReason::Permission { .. }));
        assert!(msg.contains("perf_event_paranoid") && msg.contains("CAP_PERFMON"), "{msg}");
        assert!(!spec.counts_kernel());
        return;
    }
    assert!(spec.counts_kernel(), "context-switches only counts with the kernel included");
    let cs = index_of(&spec, "context-switches");
    std::thread::scope(|s| {
        s.spawn(|| {
            let mut g = spec.try_open_current_thread().unwrap();
            let a = g.read_full();
            for _ in 0..50 {
                std::thread::sleep(Duration::from_millis(1));
            }
            let b = g.read_full();
            let n = b.values[cs] - a.values[cs];
            println!("50 sleeps: {n} context switches (kernel counted: {})", g.counts_kernel());
            assert!(n >= 50, "{n} context switches for 50 sleeps");
        });
    });
}

#[test]
fn user_only_mode_refuses_kernel_side_events_clearly() {
    let p = probe(&["context-switches", "cpu-migrations", "page-faults"], CounterOptions { kernel: KernelMode::Exclude, read: ReadMode::Auto });
    assert!(!p.spec.counts_kernel());
    let names: Vec<_> = p.spec.events().iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["page-faults"]);
    assert_eq!(p.refusals.len(), 2);
    for r in &p.refusals {
        assert!(matches!(r.reason, RefusalReason::KernelOnly { .. }));
        let msg = r.to_string();
        assert!(msg.contains("counts only with kernel events included") && msg.contains("sysctl kernel.perf_event_paranoid=1"), "{msg}");
    }
    // `:u` asks for user mode explicitly: a user-only context-switches counter always reads 0.
    let p = probe(&["context-switches:u"], CounterOptions { kernel: KernelMode::Exclude, read: ReadMode::Auto });
    assert_eq!(p.refusals.len(), 1, "a user-only context-switches counter always reads 0");
    // The msr PMU cannot count one mode only: refused with that reason, not as a bad config.
    if Path::new("/sys/bus/event_source/devices/msr/events/tsc").exists() {
        let p = probe(&["msr/tsc/"], CounterOptions { kernel: KernelMode::Exclude, read: ReadMode::Auto });
        assert_eq!(p.refusals.len(), 1);
        let r = &p.refusals[0];
        println!("{r}");
        assert!(matches!(r.reason, RefusalReason::NoModeFilter | RefusalReason::KernelOnly { .. }), "{r}");
    }
}

#[test]
fn kernel_mode_matches_permissions() {
    // Root or CAP_PERFMON, or paranoid <= 1: kernel counting is permitted; otherwise not.
    let paranoid = hpm_collectors::counters::perf_event_paranoid();
    let spec = probe(&["task-clock"], CounterOptions::default()).spec;
    let euid_root = std::fs::read_to_string("/proc/self/status")
        .map(|s| s.lines().any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(2) == Some("0")))
        .unwrap_or(false);
    println!("perf_event_paranoid {paranoid:?}, root {euid_root}, kernel counted {}", spec.counts_kernel());
    if euid_root || paranoid.is_some_and(|p| p <= 1) {
        assert!(spec.counts_kernel());
    }
}

#[test]
fn cycles_is_counted_or_refused_and_the_group_still_opens() {
    let p = probe(&["cycles", "task-clock", "page-faults"], CounterOptions::default());
    let counted_cycles = p.spec.events().iter().any(|e| e.name == "cycles");
    if counted_cycles {
        assert!(p.refusals.is_empty(), "{:?}", p.refusals);
    } else {
        assert_eq!(p.refusals.len(), 1);
        let r = &p.refusals[0];
        assert!(is_no_pmu(r), "{r}");
        assert!(matches!(r.errno(), Some(libc::ENOENT) | Some(libc::EOPNOTSUPP) | Some(libc::ENODEV)));
        let msg = r.to_string();
        println!("{msg}");
        assert!(msg.starts_with("no hardware PMU for `cycles` on this machine (virtual machine?): event not counted"));
    }
    let spec = p.spec;
    let n = spec.events().len();
    let mut g = spec.try_open_current_thread().unwrap();
    let a = g.read_full();
    std::hint::black_box(spin(Duration::from_millis(20)));
    let b = g.read_full();
    for i in 0..n {
        assert!(b.values[i] >= a.values[i]);
    }
    assert!(b.values[index_of(&spec, "task-clock")] > a.values[index_of(&spec, "task-clock")]);
    if counted_cycles {
        assert!(b.values[index_of(&spec, "cycles")] > a.values[index_of(&spec, "cycles")]);
    }
    // Without probing, each thread's group refuses the same events and keeps the others.
    let spec = CounterSetSpec::new(
        vec![
            hpm_collectors::counters::parse_event("cycles").unwrap(),
            hpm_collectors::counters::parse_event("task-clock").unwrap(),
        ],
        CounterOptions::default(),
    );
    let g = spec.try_open_current_thread().unwrap();
    assert!(g.is_counted(1));
    assert_eq!(g.is_counted(0), counted_cycles);
    assert_eq!(g.refusals().len(), usize::from(!counted_cycles));
}

#[test]
fn bogus_name_gives_the_parse_error() {
    let p = probe(&["task-clock", "bogus-event"], CounterOptions::default());
    assert_eq!(p.spec.events().len(), 1);
    assert_eq!(p.refusals.len(), 1);
    assert!(matches!(p.refusals[0].reason, RefusalReason::UnknownName(_)));
    let msg = p.refusals[0].to_string();
    assert!(msg.contains("`bogus-event`") && msg.contains("valid kinds") && msg.contains("msr/tsc/"), "{msg}");
    let e = hpm_collectors::counters::parse_event("bogus-event").unwrap_err().to_string();
    assert!(e.starts_with("unknown event `bogus-event`"), "{e}");
}

#[test]
fn msr_tsc_opens_and_grows_where_the_msr_pmu_exists() {
    if !Path::new("/sys/bus/event_source/devices/msr").exists() {
        println!("no msr PMU on this machine: skipped");
        return;
    }
    let p = probe(&["msr/tsc/"], CounterOptions::default());
    assert!(p.refusals.is_empty(), "{:?}", p.refusals.iter().map(|r| r.to_string()).collect::<Vec<_>>());
    let mut g = p.spec.try_open_current_thread().unwrap();
    let a = g.read_full();
    std::hint::black_box(spin(Duration::from_millis(10)));
    let b = g.read_full();
    println!("msr/tsc/ grew by {} in 10 ms of spinning (read path {})", b.values[0] - a.values[0], g.read_path());
    assert!(b.values[0] > a.values[0]);
}

#[test]
fn combined_metrics_read_in_one_call_and_grow() {
    let p = probe(&["task-clock", "page-faults", "cycles"], CounterOptions::default());
    let n_counters = p.spec.events().len();
    let m = Metrics::new().with(ThreadCpuClock).with(WallClock).with(p.spec);
    let metrics = m.metrics();
    assert_eq!(metrics.len(), 2 + n_counters);
    assert_eq!((metrics[0].name.as_str(), metrics[0].unit.as_str()), ("cpu-time", "ns"));
    assert_eq!((metrics[1].name.as_str(), metrics[1].unit.as_str()), ("wall-time", "ns"));
    assert_eq!((metrics[2].name.as_str(), metrics[2].unit.as_str()), ("task-clock", "ns"));
    assert_eq!((metrics[3].name.as_str(), metrics[3].unit.as_str()), ("page-faults", ""));
    std::thread::scope(|s| {
        s.spawn(|| {
            let mut r = m.open_current_thread();
            let mut prev = vec![0u64; metrics.len()];
            r.read(&mut prev);
            for _ in 0..5 {
                std::hint::black_box(spin(Duration::from_millis(5)));
                let mut cur = vec![0u64; metrics.len()];
                r.read(&mut cur);
                for i in 0..cur.len() {
                    assert!(cur[i] >= prev[i], "{} went back", metrics[i].name);
                }
                assert!(cur[0] > prev[0] && cur[1] > prev[1] && cur[2] > prev[2]);
                prev = cur;
            }
        });
    });
}

#[test]
fn stats_count_reads_and_no_scaling_for_software_events() {
    let spec = probe(&["task-clock", "page-faults"], CounterOptions::default()).spec;
    {
        let mut g = spec.try_open_current_thread().unwrap();
        let mut out = [0u64; 2];
        for _ in 0..100 {
            g.read_into(&mut out);
        }
        let r = g.read_full();
        assert!(!r.scaled, "software events are never multiplexed");
        assert_eq!(r.time_enabled, r.time_running);
    }
    let s = spec.stats().snapshot();
    assert_eq!((s.groups_opened, s.groups_failed, s.reads, s.scaled_reads, s.read_errors), (1, 0, 101, 0, 0));
}

#[test]
fn available_events_lists_what_opens_here() {
    let all = available_events(CounterOptions::default());
    for a in &all {
        println!("{a}");
    }
    let get = |n: &str| all.iter().find(|a| a.name == n).unwrap_or_else(|| panic!("{n} missing"));
    assert!(get("task-clock").opens && get("task-clock").counted);
    assert!(get("page-faults").opens);
    let cycles = get("cycles");
    assert!(cycles.opens || cycles.refusal.as_ref().is_some_and(is_no_pmu));
    if Path::new("/sys/bus/event_source/devices/msr/events/tsc").exists() {
        assert!(get("msr/tsc/").opens);
    }
}

#[test]
fn a_user_without_privileges_gets_a_paranoid_refusal_or_user_only_counting() {
    // Re-run this test binary as `nobody` (when we are root) to see the unprivileged path for real.
    use std::os::unix::process::CommandExt;
    if std::env::var_os("HPM_COUNTERS_CHILD").is_some() {
        let paranoid = hpm_collectors::counters::perf_event_paranoid().unwrap_or(2);
        let msr = Path::new("/sys/bus/event_source/devices/msr/events/tsc").exists();
        let names: &[&str] = if msr { &["context-switches", "task-clock", "msr/tsc/"] } else { &["context-switches", "task-clock"] };
        let p = probe(names, CounterOptions::default());
        println!("child: paranoid {paranoid}, kernel counted {}", p.spec.counts_kernel());
        for r in &p.refusals {
            println!("child refusal: {r}");
        }
        if paranoid >= 3 {
            // Some distributions' level 3: no perf_event_open at all without CAP_PERFMON.
            assert_eq!(p.refusals.len(), names.len());
            for r in &p.refusals {
                assert!(matches!(r.reason, RefusalReason::Permission { .. } | RefusalReason::KernelOnly { .. }), "{r}");
            }
        } else if paranoid == 2 {
            assert!(!p.spec.counts_kernel());
            assert_eq!(p.refusals.len(), names.len() - 1);
            for r in &p.refusals {
                assert!(r.to_string().contains(&format!("perf_event_paranoid is {paranoid}")), "{r}");
            }
            // task-clock still counts, user mode only.
            assert_eq!(p.spec.events().len(), 1);
        }
        return;
    }
    let is_root = std::fs::read_to_string("/proc/self/status")
        .map(|s| s.lines().any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(2) == Some("0")))
        .unwrap_or(false);
    if !is_root {
        println!("not root: cannot switch to an unprivileged user; skipped");
        return;
    }
    let exe = std::env::current_exe().unwrap();
    let out = std::process::Command::new(exe)
        .args(["--exact", "a_user_without_privileges_gets_a_paranoid_refusal_or_user_only_counting", "--nocapture"])
        .env("HPM_COUNTERS_CHILD", "1")
        .uid(65534)
        .gid(65534)
        .output();
    match out {
        Ok(o) => {
            let text = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
            println!("{text}");
            assert!(o.status.success(), "child as nobody failed:\n{text}");
        }
        Err(e) => println!("cannot run as nobody ({e}); skipped"),
    }
}

#[test]
fn per_thread_task_clock_totals_agree_with_proc_for_several_threads() {
    // Four threads with different amounts of work, each opening its own group through the
    // MetricSet interface as the recorder does; totals are compared with /proc at the end.
    let spec = probe(&["task-clock"], CounterOptions::default()).spec;
    let s0 = steal_ns();
    let results: Vec<(u64, u64)> = std::thread::scope(|s| {
        let hs: Vec<_> = (1..=4u64)
            .map(|k| {
                let spec = &spec;
                s.spawn(move || {
                    let mut r = spec.open_current_thread();
                    let mut a = [0u64];
                    let mut b = [0u64];
                    let tid = current_tid();
                    // /proc's schedstat of a running thread lags by up to a scheduler tick (the
                    // kernel brings it up to date only at ticks and switches). Sleeping just before
                    // each /proc read makes it exact as of the switch, so the /proc interval
                    // encloses the counted one.
                    std::thread::sleep(Duration::from_millis(1));
                    let p0 = thread_cpu_ns_of(tid).unwrap();
                    r.read(&mut a);
                    std::hint::black_box(spin_cpu(Duration::from_millis(40 * k)));
                    r.read(&mut b);
                    std::thread::sleep(Duration::from_millis(1));
                    let p1 = thread_cpu_ns_of(tid).unwrap();
                    (b[0] - a[0], p1 - p0)
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let steal = steal_ns() - s0;
    for (i, (counted, proc)) in results.iter().enumerate() {
        check_task_clock(&format!("thread {i}"), *counted as f64, *proc as f64, steal);
    }
    let s = spec.stats().snapshot();
    assert_eq!((s.groups_opened, s.groups_failed), (4, 0));
}

#[test]
fn a_group_for_a_missing_thread_is_an_error_not_a_panic() {
    let spec = probe(&["task-clock"], CounterOptions::default()).spec;
    let err = match spec.open_thread(i32::MAX - 1) {
        Ok(_) => panic!("a group opened for a thread that does not exist"),
        Err(e) => e,
    };
    println!("{err}");
    assert_eq!(err.error.raw_os_error(), Some(libc::ESRCH));
    assert!(err.to_string().contains(&format!("thread {}", i32::MAX - 1)));
    let s = spec.stats().snapshot();
    assert_eq!((s.groups_opened, s.groups_failed), (0, 1));
}
