//! The agent's control socket: serves the hpm-control protocol (`status`, `start`, `stop`, `reset`,
//! `dump`, `mark`, `events`) with the operations of [`AgentState`].
//!
//! The server runs on threads of its own, never on application threads. On HotSpot, commands that
//! need JVMTI (`start`, `stop`, `status`) attach their thread to the VM as a daemon for the duration
//! of the command, invisible to the recorder; on the research VM nothing needs attaching (its
//! queries may be called from any thread and pause/resume only touch the recorder).

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use hpm_control::paths::{default_socket_dir, prepare_socket_dir, socket_path};
use hpm_control::{Command, Handler, Server, ServerConfig};
use hpm_support::log;
use serde_json::{json, Value};

use crate::options::Socket;
use crate::AgentState;

/// A marker put into the data with `mark TEXT` (`marks.txt`, rendered by `hpm_reports::vm::marks`).
pub use hpm_model::saved::Mark;

/// Markers, in the order they were set. Written to `marks.txt` with every dump.
static MARKS: Mutex<Vec<Mark>> = Mutex::new(Vec::new());

/// Adds a marker now; returns its number (1-based) and the marker.
pub fn add_mark(state: &AgentState, text: String) -> (usize, Mark) {
    let st = state.status();
    // The VM-cost timeline gets a row ending at this marker: its phases are split here.
    if let Some(v) = &state.vm_cost {
        v.tick(Some(text.clone()));
    }
    // The exact call trees get a phase boundary here (`phases.txt`).
    let recorder = state.recorder();
    if recorder.config().calls {
        // The VM's own call counts (HotSpot's probes count in Java arrays) into the recorder first.
        state.sync_calls();
    }
    if recorder.config().calls && !recorder.split_phase() && recorder.phase_splits_ignored() == 1 {
        log::warn(&format!(
            "marker '{}': the call trees are split at the first {} markers only; this and later ones fall in the last phase",
            text.replace(['\n', '\t'], " "),
            hpm_collectors::recorder::phases::PHASE_LIMIT
        ));
    }
    let mark = Mark { at_ns: st.uptime_ns, method_events: st.method_events, text };
    let mut marks = MARKS.lock().unwrap_or_else(|e| e.into_inner());
    marks.push(mark.clone());
    (marks.len(), mark)
}

/// The text of a marker placed from Java (`hpmagent.Trace`): the quantum-trace marker kind (2 app
/// start, 3 app complete, 4 run start, 5 run complete, 7 note), the run number of run markers,
/// then the program's text, e.g. `run-start 1: warmup`.
pub fn trace_mark_text(kind: u32, run: u32, text: &str) -> String {
    let name = match kind {
        2 => "app-start".to_string(),
        3 => "app-complete".to_string(),
        4 => format!("run-start {run}"),
        5 => format!("run-complete {run}"),
        7 => "note".to_string(),
        k => format!("marker-{k}"),
    };
    if text.is_empty() {
        name
    } else {
        format!("{name}: {text}")
    }
}

/// The markers set so far, in the order they were set.
pub fn marks() -> Vec<Mark> {
    MARKS.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// Where the socket goes for these options, or `None` with `socket=off`.
pub fn socket_location(socket: &Socket) -> Result<Option<PathBuf>, String> {
    match socket {
        Socket::Off => Ok(None),
        Socket::Path(p) => Ok(Some(p.clone())),
        Socket::Default => {
            let dir = default_socket_dir();
            prepare_socket_dir(&dir)?;
            Ok(Some(socket_path(&dir, std::process::id())))
        }
    }
}

/// Removes the default socket directory (`/tmp/hpmagent-<uid>`, `$XDG_RUNTIME_DIR/hpmagent`) when
/// this agent's socket was the last one in it, so that runs leave nothing behind. Another agent of
/// the same user starting at this very moment may find it gone and run without a socket (one line).
pub fn remove_default_socket_dir_if_empty(socket: &Socket) {
    if *socket == Socket::Default {
        let _ = std::fs::remove_dir(default_socket_dir()); // fails unless empty
    }
}

/// Starts the control socket for `state`. Failure is reported by the caller as one line; the program
/// runs on without a socket.
pub fn start(state: &Arc<AgentState>) -> Result<Option<Server>, String> {
    let Some(path) = socket_location(&state.options.socket)? else { return Ok(None) };
    let handler = Arc::new(AgentControl { state: state.clone() });
    Server::start(ServerConfig::new(&path), handler)
        .map(Some)
        .map_err(|e| format!("cannot open control socket {}: {e}", path.display()))
}

struct AgentControl {
    state: Arc<AgentState>,
}

impl AgentControl {
    /// Runs `f` on this thread attached to the VM (JVMTI refuses unattached threads; on rvm
    /// nothing needs attaching).
    fn attached<T>(&self, f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
        // Dropped on this thread at the end of this function.
        let _thread = self.state.vm.attach_thread("hpm-control")?;
        f()
    }

    fn status(&self) -> Value {
        // One attachment to the VM: call trees kept in the VM (bytecode probes) are copied first,
        // so the counts below are current, then the VM's own list of threads (it includes threads
        // not yet seen by the recorder, e.g. after attach).
        let vm_threads = self.attached(|| {
            self.state.sync_calls();
            self.state.vm_threads()
        });
        let st = self.state.status();
        let vm_threads: Value = match vm_threads {
            Ok(list) => list.into_iter().map(|(name, kind)| json!({"name": name, "kind": kind})).collect(),
            Err(e) => json!({"error": e}),
        };
        let metrics: Vec<&str> = self.state.recorder().bindings().metrics.iter().map(|m| m.name.as_str()).collect();
        let requested = self.state.vm.requested_probes();
        json!({
            "pid": std::process::id(),
            "vm": self.state.vm.name(),
            "main": main_class(),
            "state": if st.paused { "paused" } else { "collecting" },
            "threads": st.live_threads,
            "vm_threads": vm_threads,
            "finished_threads": st.finished_threads,
            "metrics": metrics,
            "methods": st.methods_known,
            "method_events": st.method_events,
            "nodes": st.nodes,
            "memory_bytes": st.tree_bytes,
            "gc_count": st.gc_count,
            "classes_loaded": st.classes_loaded,
            "code_blobs": st.code_blobs,
            // calls=probes: classes whose code carries probes now (0 while stopped).
            "probed_classes": self.state.vm.probed_classes(),
            "probe_requests": requested.as_ref().map(|(rules, _)| rules),
            "requested_methods": requested.as_ref().map(|(_, n)| n),
            "uptime_ms": st.uptime_ns / 1_000_000,
            "out": self.state.out,
            // Data this VM could not give (e.g. call trees after a late attach), one line each.
            "not_available": self.state.vm.missing_capabilities(),
        })
    }
}

impl Handler for AgentControl {
    fn handle(&self, command: Command) -> Result<Value, String> {
        match command {
            Command::Status => Ok(self.status()),
            Command::Start => {
                let changed = self.attached(|| self.state.resume())?;
                Ok(json!({"state": "collecting", "changed": changed}))
            }
            Command::Stop => {
                let changed = self.attached(|| self.state.pause())?;
                Ok(json!({"state": "paused", "changed": changed}))
            }
            Command::Reset => {
                self.attached(|| {
                    self.state.reset();
                    Ok(())
                })?;
                Ok(json!({"reset": true}))
            }
            Command::Dump { dir } => {
                let dir = dir.map(PathBuf::from);
                let files = self.attached(|| self.state.dump(dir.as_deref()).map_err(|e| format!("dump failed: {e}")))?;
                let dir = dir.unwrap_or_else(|| self.state.out.clone());
                Ok(json!({"dir": dir, "files": files}))
            }
            Command::Save { dir } => {
                let dir = dir.map(PathBuf::from);
                let file = self.attached(|| self.state.save(dir.as_deref()).map_err(|e| format!("save failed: {e}")))?;
                Ok(json!({"file": file}))
            }
            Command::Mark { text } => {
                let (n, mark) = add_mark(&self.state, text);
                Ok(json!({"mark": n, "at_ms": mark.at_ns / 1_000_000, "method_events": mark.method_events}))
            }
            Command::Events => {
                let metrics: Vec<Value> = self
                    .state
                    .recorder()
                    .bindings()
                    .metrics
                    .iter()
                    .map(|m| json!({"name": m.name, "unit": m.unit}))
                    .collect();
                Ok(json!({"metrics": metrics, "refused": self.state.refused_events}))
            }
            // Answered by the server itself.
            Command::Probe { add, patterns } => {
                let change = self.attached(|| self.state.vm.request_probes(add, &patterns))?;
                if change.failed > 0 {
                    log::warn(&format!("probe {} {}: {} classes could not be retransformed", if add { "add" } else { "remove" }, patterns.join(" "), change.failed));
                }
                Ok(json!({
                    "action": if add { "add" } else { "remove" },
                    "patterns": patterns,
                    "classes_retransformed": change.classes,
                    "classes_refused": change.failed,
                    "in_code": if change.recording { "now" } else { "when recording starts (it is stopped)" },
                    "requested_methods": change.methods_in,
                    "probe_requests": change.rules,
                }))
            }
            Command::Help => Ok(Value::Null),
        }
    }
}

/// The main class (or `-jar` file) from the process's command line, for `hpm list`.
pub fn main_class() -> String {
    let Ok(raw) = std::fs::read("/proc/self/cmdline") else { return String::new() };
    let args: Vec<String> = raw.split(|&b| b == 0).map(|a| String::from_utf8_lossy(a).into_owned()).collect();
    main_class_of(&args)
}

/// The first argument after the launcher's options that is not an option or an option's value.
fn main_class_of(args: &[String]) -> String {
    // Launcher options that take the next argument as their value.
    const WITH_VALUE: &[&str] =
        &["-cp", "-classpath", "--class-path", "-p", "--module-path", "--add-modules", "--add-opens", "--add-exports", "--add-reads", "--patch-module", "--limit-modules", "--upgrade-module-path"];
    let mut i = 1;
    while i < args.len() {
        let a = &args[i];
        if a == "-jar" || a == "-m" || a == "--module" {
            return args.get(i + 1).cloned().unwrap_or_default();
        }
        if WITH_VALUE.contains(&a.as_str()) {
            i += 2;
            continue;
        }
        if a.starts_with('-') {
            i += 1;
            continue;
        }
        return a.clone();
    }
    String::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn main_class_from_command_lines() {
        let v = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert_eq!(main_class_of(&v("java -Xmx1g -cp a:b com.acme.Main x y")), "com.acme.Main");
        assert_eq!(main_class_of(&v("java -agentpath:/l.so=out=x --add-opens java.base/x=ALL -jar app.jar")), "app.jar");
        assert_eq!(main_class_of(&v("java -m mod/com.acme.Main")), "mod/com.acme.Main");
        assert_eq!(main_class_of(&v("java -version")), "");
    }
}
