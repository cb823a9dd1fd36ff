//! `hpm consult DIR`: the bottleneck search over a recorded run (`hpm_reports::consult`), and
//! `hpm consult PID`: the same search on a running JVM, refined with exact probes on just the hot
//! subtrees it finds, which are taken out again.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;
use hpm_model::arcflow::{NodeId, Profile, Tree};
use hpm_control::{Client, Command};
use hpm_reports::consult::Consultation;
use hpm_model::saved::{Saved, SavedRun};

use super::out::outln;
use super::report::load_json;
use super::Failure;

#[derive(Args)]
pub struct ConsultArgs {
    /// A run directory written by the agent (its arcflow.json, version 2), or that arcflow.json;
    /// best with stack samples (sample=cpu). Or the PID of a running JVM whose agent samples
    /// (calls=requested,sample=cpu): the search then runs live and refines its hot subtrees with
    /// exact probes.
    #[arg(value_name = "DIR|PID")]
    pub target: String,
    /// Also write the report to this file (atomically).
    #[arg(short = 'o', long = "out", value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// PID: seconds of sampling before the search.
    #[arg(long = "sample-for", value_name = "SECONDS", default_value_t = 10.0)]
    pub sample_for: f64,
    /// PID: seconds the exact probes stay in the hot subtrees.
    #[arg(long = "probe-for", value_name = "SECONDS", default_value_t = 5.0)]
    pub probe_for: f64,
    /// PID: hot subtrees to refine with exact probes, hottest first.
    #[arg(long = "subtrees", default_value_t = 3)]
    pub subtrees: usize,
    /// PID: methods of each hot subtree given probes at most: its root and the methods under it
    /// holding the most of its samples. Each probed class is retransformed twice (in and out), and
    /// the JIT recompiles what inlined its methods: fewer methods cost the program less.
    #[arg(long = "methods", default_value_t = 1)]
    pub methods: usize,
    /// PID: where the search keeps its dumps and its report (consult.txt, which `hpm explore DIR`
    /// shows); default consult-PID in the working directory.
    #[arg(long = "keep", value_name = "DIR")]
    pub keep: Option<PathBuf>,
    /// PID: directory of the control sockets (default: as `hpm ctl`).
    #[arg(long)]
    pub socket_dir: Option<PathBuf>,
}

/// A method of a hot subtree gets a probe when it holds this share of the subtree's samples.
const METHOD_SHARE: f64 = 0.02;

pub fn run(args: ConsultArgs) -> Result<(), Failure> {
    let path = Path::new(&args.target);
    let text = match args.target.parse::<u32>() {
        Ok(pid) if !path.exists() => {
            let mut progress = Progress::default();
            match live(pid, &args, &mut progress) {
                Ok(text) => text,
                Err(Failure(e)) => after_exit(pid, e, &progress)?,
            }
        }
        _ => hpm_reports::consult::consult(&load_run(path)?).text(),
    };
    if let Some(out) = &args.out {
        hpm_reports::write_atomic(out, text.as_bytes()).map_err(|e| Failure(format!("cannot write {}: {e}", out.display())))?;
    }
    outln!("{}", text.trim_end());
    Ok(())
}

/// What a live search learnt before it failed, for `after_exit`.
#[derive(Default)]
struct Progress {
    /// The agent's report directory (its `out=`, made absolute), where it writes the run at the exit.
    exit_dir: Option<PathBuf>,
    /// The --keep directory, when this search created it.
    created_keep: Option<PathBuf>,
}

/// Whether the process runs (a zombie has ended: its agent wrote all it will write).
fn running(pid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    // "pid (comm) S ...": the state follows the last ')', as comm may hold anything.
    !matches!(stat.rsplit_once(')').and_then(|(_, rest)| rest.trim_start().chars().next()), Some('Z' | 'X') | None)
}

/// Waits `d`, or less if the process ends meanwhile (then the error `what`: when it ended).
fn wait_running(pid: u32, d: Duration, what: &str) -> Result<(), Failure> {
    let end = Instant::now() + d;
    loop {
        if !running(pid) {
            return Err(Failure(what.to_string()));
        }
        let left = end.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(());
        }
        std::thread::sleep(left.min(Duration::from_millis(100)));
    }
}

/// A live search that failed. If its JVM ended meanwhile (a batch job shorter than the search),
/// the search runs over the run the agent wrote at the exit instead, without the refinement (probes
/// need the running VM); otherwise the error stands.
fn after_exit(pid: u32, e: String, progress: &Progress) -> Result<String, Failure> {
    // The agent closes its socket when the VM dies and writes its reports before the process ends:
    // after a lost connection, a while for that.
    if e.starts_with(NO_REPLY) {
        let _ = wait_running(pid, Duration::from_secs(10), "");
    }
    if running(pid) {
        return Err(Failure(e));
    }
    // An empty --keep directory this search made is not left behind (remove_dir removes only that).
    let kept = match &progress.created_keep {
        Some(dir) => std::fs::remove_dir(dir).is_err().then_some(dir),
        None => None,
    };
    let kept = kept.map_or(String::new(), |d| format!("; what this search saved is in {}", d.display()));
    let Some(dir) = progress.exit_dir.as_ref().filter(|d| d.join("arcflow.json").is_file()) else {
        let why = match &progress.exit_dir {
            Some(d) => format!("no arcflow.json in its agent's report directory {}", d.display()),
            None => "its agent's report directory is not known".into(),
        };
        return Err(Failure(format!("pid {pid} ended during the search ({e}), and {why}{kept}")));
    };
    let run = load_run(&dir.join("arcflow.json"))?;
    eprintln!("hpm consult: pid {pid} ended during the search ({e}): searching the run its agent wrote at the exit, {}{kept}", dir.display());
    let mut text = hpm_reports::consult::consult(&run).text();
    let _ = writeln!(
        text,
        "\nSearched after pid {pid} ended: the run its agent wrote at the exit ({}), not refined with exact probes (they need the running VM).",
        dir.display()
    );
    Ok(text)
}

fn load_run(path: &Path) -> Result<SavedRun, Failure> {
    match load_json(path)? {
        Saved::Run(run) => Ok(*run),
        Saved::Trees(_) => Err(Failure(format!("{}: call trees only (arcflow.json version 1): the search needs a run the agent recorded (version 2)", path.display()))),
    }
}

/// How a lost connection to the agent starts its error (its VM may be ending).
const NO_REPLY: &str = "no reply from the agent";

/// Asks the agent; a refusal is one line naming the command.
fn ask(client: &mut Client, command: &Command) -> Result<serde_json::Value, Failure> {
    let reply = client.send(command).map_err(|e| Failure(format!("{NO_REPLY} to `{}`: {e}", command.name())))?;
    if !reply.ok {
        return Err(Failure(format!("the agent refused `{}`: {}", command.name(), reply.error.unwrap_or_default())));
    }
    Ok(reply.result)
}

/// The run so far: the agent writes `arcflow.json` alone (`save`), and this process reads it; the
/// reports are rendered here where needed, not in the searched VM.
fn dump(client: &mut Client, dir: &Path) -> Result<SavedRun, Failure> {
    ask(client, &Command::Save { dir: Some(std::path::absolute(dir).unwrap_or(dir.to_path_buf()).to_string_lossy().into_owned()) })?;
    load_run(dir)
}

/// The probes this search put in, taken out again whatever happens to the search.
struct Requested<'a> {
    client: &'a mut Client,
    patterns: Vec<String>,
    pid: u32,
}

impl Requested<'_> {
    /// Takes every probe out, in one request; what failed, if anything.
    fn remove_all(&mut self) -> Option<String> {
        let patterns = std::mem::take(&mut self.patterns);
        if patterns.is_empty() {
            return None;
        }
        ask(self.client, &Command::Probe { add: false, patterns }).err().map(|e| e.0)
    }
}

impl Drop for Requested<'_> {
    fn drop(&mut self) {
        // A VM that ended took its probes with it.
        if let Some(e) = self.remove_all().filter(|_| running(self.pid)) {
            eprintln!("hpm consult: could not take a probe out again ({e}); `hpm ctl PID probe remove PATTERN` does");
        }
    }
}

fn live(pid: u32, args: &ConsultArgs, progress: &mut Progress) -> Result<String, Failure> {
    let socket = super::ctl::find_socket(pid, &args.socket_dir)?;
    let mut client = Client::connect(&socket, Duration::from_secs(120)).map_err(|e| Failure(format!("cannot connect to {}: {e}", socket.display())))?;
    let status = ask(&mut client, &Command::Status)?;
    if status["state"] == "paused" {
        return Err(Failure(format!("the agent in pid {pid} is paused: `hpm ctl {pid} start` first")));
    }
    // Where the agent writes the run at the exit; `out=` is relative to the VM's working directory.
    progress.exit_dir = status["out"].as_str().map(PathBuf::from).and_then(|out| match out.is_absolute() {
        true => Some(out),
        false => std::fs::read_link(format!("/proc/{pid}/cwd")).ok().map(|cwd| cwd.join(out)),
    });
    let keep = args.keep.clone().unwrap_or_else(|| PathBuf::from(format!("consult-{pid}")));
    if !keep.exists() {
        progress.created_keep = Some(keep.clone());
    }
    std::fs::create_dir_all(&keep).map_err(|e| Failure(format!("cannot create {}: {e}", keep.display())))?;
    let seconds = |s: f64, what: &str| {
        if s.is_finite() && s > 0.0 && s <= 86_400.0 {
            Ok(Duration::from_secs_f64(s))
        } else {
            Err(Failure(format!("--{what} {s}: give seconds between 0 and 86400")))
        }
    };
    let (sample_for, probe_for) = (seconds(args.sample_for, "sample-for")?, seconds(args.probe_for, "probe-for")?);

    eprintln!("hpm consult: sampling pid {pid} for {:.1} s", sample_for.as_secs_f64());
    wait_running(pid, sample_for, "while it was sampled")?;
    let sampled = dump(&mut client, &keep.join("sampling"))?;
    if sampled.snapshot.samples.is_none() {
        eprintln!("hpm consult: the agent records no stack samples (start it with sample=cpu): the CPU hypothesis uses its exact trees");
    }
    let consultation = hpm_reports::consult::consult(&sampled);
    let mut text = consultation.text();
    let _ = writeln!(text, "\nSearched live in pid {pid}: the recording up to {:.3} s (after {:.1} s of sampling by this search).", sampled.snapshot.uptime_ns as f64 / 1e9, sample_for.as_secs_f64());

    // Refine: exact probes on the methods of the hot subtrees, for a while, then out again.
    let plan = probe_plan(&sampled, &consultation, args.subtrees, args.methods);
    if status["probe_requests"].is_null() {
        let _ = writeln!(text, "\nRefinement skipped: the agent counts no calls with bytecode probes (calls=none or calls=jvmti); start it with calls=requested,sample=cpu.");
    } else if plan.is_empty() {
        let _ = writeln!(text, "\nRefinement skipped: no hot subtree of Java methods to probe.");
    } else {
        text.push_str(&refine(&mut client, pid, &plan, probe_for, &keep)?);
    }
    hpm_reports::write_atomic(&keep.join(hpm_reports::explore::CONSULT_REPORT), text.as_bytes())
        .map_err(|e| Failure(format!("cannot write {}: {e}", keep.join(hpm_reports::explore::CONSULT_REPORT).display())))?;
    let _ = writeln!(text, "\nDumps and this report: {} (`hpm explore {0}` shows both)", keep.display());
    Ok(text)
}

/// One hot subtree to refine: where it is, and the methods in it to probe (consumer names).
struct Subtree {
    label: String,
    /// The path from the thread's root: the same path hot on several threads is one subtree.
    path: Vec<String>,
    methods: Vec<String>,
}

/// The methods of each hot subtree worth a probe: its root and the descendants holding
/// [`METHOD_SHARE`] of its samples, most first, at most `per_subtree`; Java methods only.
fn probe_plan(run: &SavedRun, c: &Consultation, subtrees: usize, per_subtree: usize) -> Vec<Subtree> {
    let Some(p) = run.snapshot.samples.as_ref().or(Some(&run.snapshot.calls)) else { return Vec::new() };
    let m = p.bindings.metric_index("cpu-time").unwrap_or(0);
    let mut plan = Vec::new();
    for (thread, path, share) in &c.hot_subtrees {
        if let Some(same) = plan.iter_mut().find(|s: &&mut Subtree| &s.path == path) {
            same.label.push_str(&format!("; {thread}, {:.1}%", 100.0 * share));
            continue;
        }
        if plan.len() == subtrees {
            break;
        }
        let Some(t) = p.threads.iter().find(|t| &t.name == thread) else { continue };
        let Some(root) = find_path(p, &t.tree, path) else { continue };
        let cum = t.tree.cum();
        let metrics = t.tree.metric_count();
        let total = cum[root as usize * metrics + m].max(1);
        let mut under: BTreeMap<String, u64> = BTreeMap::new();
        let mut todo = vec![root];
        while let Some(n) = todo.pop() {
            let name = p.consumers.name(t.tree.consumer(n)).to_string();
            let v = cum[n as usize * metrics + m];
            if n == root || v as f64 >= METHOD_SHARE * total as f64 {
                let e = under.entry(name).or_default();
                *e = (*e).max(v);
                todo.extend(t.tree.children(n));
            }
        }
        let mut methods: Vec<(String, u64)> = under.into_iter().filter(|(n, _)| pattern_of(n).is_some()).collect();
        methods.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let methods: Vec<String> = methods.into_iter().take(per_subtree).map(|(n, _)| n).collect();
        if !methods.is_empty() {
            let label = format!("{} (its thread's CPU time: {thread}, {:.1}%", path.last().map_or("", String::as_str), 100.0 * share);
            plan.push(Subtree { label, path: path.clone(), methods });
        }
    }
    plan
}

fn find_path(p: &Profile, t: &Tree, path: &[String]) -> Option<NodeId> {
    let mut n = Tree::ROOT;
    for name in path {
        n = t.children(n).into_iter().find(|&c| p.consumers.name(t.consumer(c)) == name.as_str())?;
    }
    Some(n)
}

/// The probe pattern (`Class::method`) of a Java method's consumer name (`pkg.Class.method`, with
/// `(params)` where overloaded or `:LINE` with sample-lines); `None` for what is not a Java method
/// of a class a probe can go in (native and kernel frames, walk failures, lambdas' hidden classes).
fn pattern_of(name: &str) -> Option<String> {
    if name.starts_with('(') || name.starts_with('[') || name.contains(" [") || name.contains("$$Lambda") || name.contains("/0x") {
        return None;
    }
    let bare = name.split('(').next()?;
    let bare = bare.split(':').next()?;
    let (class, method) = bare.rsplit_once('.')?;
    (!class.is_empty() && !method.is_empty() && !class.contains(char::is_whitespace)).then(|| format!("{class}::{method}"))
}

/// Per method (consumer name), calls and inclusive `cpu-time` over all threads' exact trees (a
/// recursive method's inner contexts not counted twice).
fn method_totals(p: &Profile) -> BTreeMap<String, (u64, u64)> {
    let m = p.bindings.metric_index("cpu-time");
    let mut by: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    for t in &p.threads {
        let cum = t.tree.cum();
        let metrics = t.tree.metric_count();
        for n in 1..t.tree.len() as NodeId {
            let c = t.tree.consumer(n);
            let e = by.entry(p.consumers.name(c).to_string()).or_default();
            e.0 += t.tree.calls(n);
            let outermost = std::iter::successors(t.tree.parent(n), |&a| t.tree.parent(a)).all(|a| t.tree.consumer(a) != c || a == Tree::ROOT);
            if let (Some(m), true) = (m, outermost) {
                e.1 += cum[n as usize * metrics + m];
            }
        }
    }
    by
}

fn refine(client: &mut Client, pid: u32, plan: &[Subtree], probe_for: Duration, keep: &Path) -> Result<String, Failure> {
    let mut text = String::new();
    let patterns: BTreeSet<String> = plan.iter().flat_map(|s| s.methods.iter().filter_map(|m| pattern_of(m))).collect();
    eprintln!("hpm consult: exact probes in {} methods of {} hot subtree(s) for {:.1} s", patterns.len(), plan.len(), probe_for.as_secs_f64());
    // One request: the classes of all the subtrees are retransformed once, in one go.
    let patterns: Vec<String> = patterns.into_iter().collect();
    ask(client, &Command::Probe { add: true, patterns: patterns.clone() })?;
    let mut requested = Requested { client, patterns, pid };
    let before = dump(requested.client, &keep.join("probes-in"))?;
    wait_running(pid, probe_for, "while its probes were in")?;
    let failed = requested.remove_all();
    let client = &mut *requested.client;
    let after = dump(client, keep)?;
    drop(requested);
    // The kept run's reports (probes.txt among them), rendered here rather than in the VM.
    hpm_reports::write_all(&after, keep, &hpm_reports::saved::run_options(&after)).map_err(|e| Failure(format!("cannot write the reports into {}: {e}", keep.display())))?;
    let (b, a) = (method_totals(&before.snapshot.calls), method_totals(&after.snapshot.calls));
    // The calls counted are those from the dump after every probe went in to each probe's removal.
    let counted_from = before.snapshot.uptime_ns;
    let removed_at = |m: &str| after.snapshot.probe_windows.iter().filter(|w| w.method == m).filter_map(|w| w.to_ns).max();
    let windows = after.snapshot.probe_windows.iter().filter(|w| plan.iter().any(|s| s.methods.iter().any(|m| m == &w.method)));
    let (from, to) = windows.fold((u64::MAX, 0u64), |(f, t), w| (f.min(w.from_ns), t.max(w.to_ns.unwrap_or(after.snapshot.uptime_ns))));
    let _ = writeln!(text, "\nRefinement: exact probes in the hot subtrees' methods (hpm ctl probe add), then taken out again");
    if from < to {
        let _ = writeln!(
            text,
            "  probes in from {:.3} s to {:.3} s of the recording, calls counted from {:.3} s; every other method stayed without probes",
            from as f64 / 1e9,
            to as f64 / 1e9,
            counted_from as f64 / 1e9
        );
    }
    for s in plan {
        let _ = writeln!(text, "  subtree {}):", s.label);
        let _ = writeln!(text, "    {:>12}  {:>12}  {:>14}  method", "calls", "calls/s", "cpu µs/call");
        for m in &s.methods {
            let (c0, t0) = b.get(m).copied().unwrap_or_default();
            let (c1, t1) = a.get(m).copied().unwrap_or_default();
            let calls = c1.saturating_sub(c0);
            let secs = removed_at(m).map_or(0.0, |t| t.saturating_sub(counted_from) as f64 / 1e9);
            let rate = if secs > 0.0 { format!("{:.0}", calls as f64 / secs) } else { "-".into() };
            let per = if calls > 0 { format!("{:.3}", t1.saturating_sub(t0) as f64 / calls as f64 / 1e3) } else { "-".into() };
            let _ = writeln!(text, "    {calls:>12}  {rate:>12}  {per:>14}  {m}");
        }
    }
    if let Some(f) = failed {
        let _ = writeln!(text, "  taking the probes out failed: {f}");
    }
    let _ = writeln!(text, "  (calls counted exactly while the probes were in; cpu per call sampled into the exact contexts, inclusive; probes.txt in the dump lists each method's window)");
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::pattern_of;

    #[test]
    fn probe_patterns_come_from_java_method_names_only() {
        assert_eq!(pattern_of("consult.Bottlenecks.hot").as_deref(), Some("consult.Bottlenecks::hot"));
        assert_eq!(pattern_of("org.h2.value.Value.compareTo(Value, CompareMode)").as_deref(), Some("org.h2.value.Value::compareTo"));
        assert_eq!(pattern_of("a.B$C.run:42").as_deref(), Some("a.B$C::run"));
        assert_eq!(pattern_of("a.B.<init>").as_deref(), Some("a.B::<init>"));
        for not_java in ["(unknown Java)", "[running]", "read_zero [kernel]", "memcpy [libc.so.6]", "a.B$$Lambda$12/0x0000.run", "main"] {
            assert_eq!(pattern_of(not_java), None, "{not_java}");
        }
    }
}
