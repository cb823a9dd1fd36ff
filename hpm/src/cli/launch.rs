//! `hpm run` (start a JVM with this build's agent) and `hpm attach` (load the agent into a running
//! HotSpot JVM through its attach mechanism, as `jcmd PID JVMTI.agent_load` does).

use std::io::{Read, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;
use hpm_support::files;
use nix::sys::socket::{getsockopt, sockopt::PeerCredentials};

use hpm_model::text_trace::excerpt;

use super::out::{errln, outln};
use super::Failure;

#[derive(Args)]
pub struct RunArgs {
    /// Agent options (`out=DIR`, `event=task-clock`, `start=paused`, …), joined with commas.
    pub options: Vec<String>,
    /// The Java command line, after `--`: `java [JVM options] MAIN [ARGS]`.
    #[arg(last = true, required = true)]
    pub command: Vec<String>,
    /// The agent library (default: libhpmagent.so next to this hpm, or $HPM_AGENT_LIB).
    #[arg(long)]
    pub agent_lib: Option<PathBuf>,
}

#[derive(Args)]
pub struct AttachArgs {
    /// Process id of a running HotSpot JVM (same user).
    pub pid: u32,
    /// Agent options (`out=DIR`, `event=…`, …), joined with commas.
    pub options: Vec<String>,
    /// The agent library (default: libhpmagent.so next to this hpm, or $HPM_AGENT_LIB).
    #[arg(long)]
    pub agent_lib: Option<PathBuf>,
    /// Seconds to wait for the JVM to answer.
    #[arg(long, default_value_t = 30)]
    pub timeout: u64,
}

/// The usage error for `hpm run` without `--` before the Java command (clap would suggest `-- -v`
/// for `java -version`), showing the command line as it should be; `None` when `--` is there.
/// `args` are the arguments after `run`.
pub fn missing_separator(args: &[String]) -> Option<String> {
    if args.iter().any(|a| a == "--" || a == "-h" || a == "--help") {
        return None;
    }
    let is_java = |a: &str| a == "java" || a.ends_with("/java");
    let generic = "the Java command goes after `--`: hpm run [agent options] -- java [JVM options] MAIN [ARGS]".to_string();
    let Some(java) = args.iter().position(|a| is_java(a)) else { return Some(generic) };
    let quoted: Vec<String> = args.iter().map(|a| shell_word(a)).collect();
    let (options, command) = quoted.split_at(java);
    let before = if options.is_empty() { String::new() } else { format!("{} ", options.join(" ")) };
    Some(format!("the Java command goes after `--`: `hpm run {before}-- {}`", command.join(" ")))
}

/// `word` as typed in a shell: quoted when it holds anything but plain characters.
fn shell_word(word: &str) -> String {
    if !word.is_empty() && word.chars().all(|c| c.is_alphanumeric() || "-_=.,:/+@%".contains(c)) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The agent library: `--agent-lib`, `$HPM_AGENT_LIB`, or `libhpmagent.so` beside the `hpm` binary.
pub fn agent_library(explicit: &Option<PathBuf>) -> Result<PathBuf, Failure> {
    let candidate = explicit
        .clone()
        .or_else(|| std::env::var_os("HPM_AGENT_LIB").map(PathBuf::from))
        .or_else(|| std::env::current_exe().ok().and_then(|e| Some(e.parent()?.join("libhpmagent.so"))));
    match candidate {
        Some(p) if p.is_file() => Ok(std::path::absolute(&p).unwrap_or(p)),
        Some(p) => Err(Failure(format!(
            "agent library {} not found: build it with `cargo build --release -p hpmagent`, or pass --agent-lib PATH",
            p.display()
        ))),
        None => Err(Failure("cannot locate libhpmagent.so: pass --agent-lib PATH or set HPM_AGENT_LIB".into())),
    }
}

pub fn run(args: RunArgs) -> Result<(), Failure> {
    let lib = agent_library(&args.agent_lib)?;
    let mut agent = format!("-agentpath:{}", lib.display());
    let options = once_each_event(&args.options);
    check_events(&options)?;
    if !options.is_empty() {
        agent.push('=');
        agent.push_str(&options.join(","));
    }
    let (java, rest) = args.command.split_first().ok_or_else(|| Failure("no java command after `--`".into()))?;
    // exec: the JVM replaces hpm, so signals, exit code and terminal behave as if started directly.
    let err = std::process::Command::new(java).arg(&agent).args(rest).exec();
    Err(Failure(format!("cannot start `{java}`: {err}")))
}

/// The agent options (each argument may hold several, comma-separated) with every `event=NAME`
/// after the first of the same name left out: a repeated event would be counted again in a column
/// of its own. Each repeated event gets one note on stderr.
fn once_each_event(args: &[String]) -> Vec<String> {
    let mut options: Vec<String> = Vec::new();
    let mut repeats: Vec<(String, usize)> = Vec::new();
    for option in args.iter().flat_map(|a| a.split(',')).filter(|o| !o.is_empty()) {
        if option.starts_with("event=") && options.iter().any(|o| o == option) {
            match repeats.iter_mut().find(|(o, _)| o == option) {
                Some((_, n)) => *n += 1,
                None => repeats.push((option.to_string(), 2)),
            }
        } else {
            options.push(option.to_string());
        }
    }
    for (option, n) in repeats {
        errln!("hpm: note: {option} given {n} times; counted once");
    }
    options
}

/// The first `event=NAME` (of options, each possibly comma-separated) whose name does not parse,
/// as an error with the closest known name. The agent refuses such a name and the JVM does not
/// start, so hpm says so before it launches or attaches anything.
fn check_events<S: AsRef<str>>(options: &[S]) -> Result<(), Failure> {
    let known = hpm_collectors::counters::known_event_names();
    for name in options.iter().flat_map(|o| o.as_ref().split(',')).filter_map(|o| o.strip_prefix("event=")) {
        if let Err(e) = hpm_collectors::counters::parse_event(name) {
            let hint = hpm_reports::suggest::did_you_mean(name, known.iter().map(String::as_str));
            return Err(Failure(format!("event={}: {}{hint}; the agent would refuse it and the JVM not start", excerpt(name), e.reason)));
        }
    }
    Ok(())
}

/// The reply of the HotSpot attach listener to `load`: the command status and, for an agent, the
/// value returned by `Agent_OnAttach` (printed as `return code: N`).
#[derive(Debug, PartialEq, Eq)]
pub struct LoadReply {
    pub status: i32,
    pub agent_return: Option<i32>,
    pub text: String,
}

pub fn parse_load_reply(text: &str) -> Result<LoadReply, String> {
    let mut lines = text.lines();
    let status = lines
        .next()
        .and_then(|l| l.trim().parse().ok())
        .ok_or_else(|| format!("unexpected reply from the attach listener: {text:?}"))?;
    let rest: Vec<&str> = lines.collect();
    let agent_return = rest.iter().find_map(|l| l.trim().strip_prefix("return code:").and_then(|v| v.trim().parse().ok()));
    Ok(LoadReply { status, agent_return, text: rest.join("\n") })
}

/// Asks the JVM `pid` to start its attach listener (if needed) and returns the listener's socket
/// (which may be anyone's: see [`check_attach_socket`]).
fn attach_socket(pid: u32, timeout: Duration) -> Result<PathBuf, Failure> {
    let socket = PathBuf::from(format!("/tmp/.java_pid{pid}"));
    // Whatever is there, a link included, is found (and then checked), never followed.
    let present = || std::fs::symlink_metadata(&socket).is_ok();
    if present() {
        return Ok(socket);
    }
    if !process_exists(pid) {
        return Err(Failure(format!("no process {pid}")));
    }
    // (Unreadable maps, another user's process for a non-root user: the listener checks decide.)
    if let Ok(maps) = std::fs::read_to_string(format!("/proc/{pid}/maps")) {
        let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
        // A process that has exited (a zombie) maps nothing at all.
        if maps.is_empty() {
            return Err(Failure(format!("process {pid} ({}) has exited", comm.trim())));
        }
        if !maps.contains("/libjvm.so") {
            return Err(Failure(format!("process {pid} ({}) is not a HotSpot JVM: no libjvm.so is mapped in it", comm.trim())));
        }
    }
    // HotSpot starts its attach listener on SIGQUIT when this trigger file exists. It is created
    // new, never through a link another user planted in the JVM's directory or /tmp (as the
    // JDK's attach, with O_EXCL); a name taken passes on to the next place.
    let mut taken = Vec::new();
    let trigger = [format!("/proc/{pid}/cwd/.attach_pid{pid}"), format!("/tmp/.attach_pid{pid}")]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| match files::create_new(p) {
            Ok(_) => true,
            Err(e) => {
                taken.push(format!("{}: {e}", p.display()));
                false
            }
        })
        .ok_or_else(|| Failure(format!("cannot create the attach trigger file for {pid} ({}); remove a stale one", taken.join("; "))))?;
    let deadline = Instant::now() + timeout;
    let quit = || nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid as i32), nix::sys::signal::Signal::SIGQUIT);
    let gone = || Failure(format!("JVM {pid} exited before its attach listener started"));
    let result = (|| {
        // SIGQUIT's default action ends the process: a JVM still starting has not installed its
        // handler yet, so wait until it has (as the JDK's own attach does).
        loop {
            match catches_sigquit(pid) {
                Some(true) => break,
                Some(false) if Instant::now() > deadline => {
                    return Err(Failure(format!("JVM {pid} does not handle SIGQUIT within {}s (started with -Xrs, or not a JVM?)", timeout.as_secs())))
                }
                Some(false) => std::thread::sleep(Duration::from_millis(20)),
                None => return Err(gone()),
            }
        }
        quit().map_err(|e| Failure(format!("cannot signal process {pid}: {e} (attach needs the JVM's own user)")))?;
        // A SIGQUIT that came while the VM was still initialising may be taken as a thread-dump
        // request; the JDK's attach sends a second one half-way through its timeout, and so do we.
        let mut resent = false;
        loop {
            if present() {
                return Ok(socket.clone());
            }
            if !process_exists(pid) {
                return Err(gone());
            }
            let now = Instant::now();
            if now > deadline {
                return Err(Failure(format!(
                    "JVM {pid} did not start its attach listener within {}s (not a HotSpot JVM, or started with -XX:+DisableAttachMechanism?)",
                    timeout.as_secs()
                )));
            }
            if !resent && deadline - now < timeout / 2 {
                resent = true;
                let _ = quit();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    })();
    let _ = files::remove(&trigger);
    result
}

/// Checks the attach listener's socket as the JDK's attach does before trusting it: a socket
/// (not a link), owned by the JVM's effective user, open to that user alone (HotSpot makes it
/// 0600). A listener of another user under that name in `/tmp` would otherwise receive the agent
/// library and its options, and `hpm` would say the agent was loaded.
fn check_attach_socket(socket: &Path, pid: u32) -> Result<u32, Failure> {
    let meta = std::fs::symlink_metadata(socket).map_err(|e| Failure(format!("cannot inspect {}: {e}", socket.display())))?;
    let jvm = super::ctl::process_euid(pid).ok_or_else(|| Failure(format!("no process {pid}")))?;
    let refuse = |why: String| Err(Failure(format!("refusing {}: {why}; remove it if it is stale", socket.display())));
    if !meta.file_type().is_socket() {
        let what = if meta.file_type().is_symlink() { "a symbolic link" } else { "not a socket" };
        return refuse(format!("it is {what}, not JVM {pid}'s attach listener"));
    }
    if meta.uid() != jvm {
        return refuse(format!(
            "it is owned by uid {}, but JVM {pid} runs as uid {jvm}: another user's listener would receive the agent's options",
            meta.uid()
        ));
    }
    if meta.mode() & 0o077 != 0 {
        return refuse(format!("its mode {:o} lets other users in (HotSpot makes it 0600)", meta.mode() & 0o777));
    }
    Ok(jvm)
}

fn process_exists(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

/// Whether process `pid` has a handler for SIGQUIT (`SigCgt` in `/proc/PID/status`); `None` when
/// the process is gone.
fn catches_sigquit(pid: u32) -> Option<bool> {
    if !process_exists(pid) {
        return None;
    }
    // Unreadable for a moment (an exec under way): not yet.
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let mask = status.lines().find_map(|l| l.strip_prefix("SigCgt:")).and_then(|m| u64::from_str_radix(m.trim(), 16).ok());
    // Signal n is bit n - 1.
    Some(mask.is_some_and(|m| m & (1 << (nix::sys::signal::Signal::SIGQUIT as u64 - 1)) != 0))
}

/// Loads `lib` with `options` into JVM `pid` (attach protocol version 1: `load <path> true <options>`).
pub fn load_agent(pid: u32, lib: &Path, options: &str, timeout: Duration) -> Result<LoadReply, Failure> {
    let socket = attach_socket(pid, timeout)?;
    let jvm = check_attach_socket(&socket, pid)?;
    let mut s = UnixStream::connect(&socket).map_err(|e| Failure(format!("cannot connect to {}: {e}", socket.display())))?;
    // The process listening, whatever the file looked like a moment ago.
    let peer = getsockopt(&s, PeerCredentials).map_err(|e| Failure(format!("cannot identify the listener on {}: {e}", socket.display())))?;
    if peer.uid() != jvm {
        return Err(Failure(format!(
            "refusing {}: its listener runs as uid {}, but JVM {pid} runs as uid {jvm}; the agent's options were not sent",
            socket.display(),
            peer.uid()
        )));
    }
    s.set_read_timeout(Some(timeout)).ok();
    let mut request = Vec::new();
    for part in ["1", "load", &lib.to_string_lossy(), "true", options] {
        request.extend_from_slice(part.as_bytes());
        request.push(0);
    }
    s.write_all(&request).map_err(|e| Failure(format!("attach request failed: {e}")))?;
    let mut reply = String::new();
    s.read_to_string(&mut reply).map_err(|e| Failure(format!("no reply from JVM {pid}: {e}")))?;
    parse_load_reply(&reply).map_err(Failure)
}

pub fn attach(args: AttachArgs) -> Result<(), Failure> {
    let lib = agent_library(&args.agent_lib)?;
    check_events(&args.options)?;
    let options = args.options.join(",");
    let reply = load_agent(args.pid, &lib, &options, Duration::from_secs(args.timeout))?;
    match (reply.status, reply.agent_return) {
        (0, Some(0)) | (0, None) if !reply.text.contains("was not loaded") => {
            outln!("hpm: agent loaded into JVM {}; control it with `hpm ctl {} status`", args.pid, args.pid);
            Ok(())
        }
        (_, Some(rc)) => Err(Failure(match super::ctl::agent_socket_of(args.pid) {
            Some(socket) => format!(
                "the agent is already loaded in JVM {} (its control socket is {}; Agent_OnAttach returned {rc}): control it with `hpm ctl {} status`",
                args.pid,
                socket.display(),
                args.pid
            ),
            None => format!("the agent refused to start in JVM {} (Agent_OnAttach returned {rc}); see the JVM's stderr for the agent's message", args.pid),
        })),
        _ => Err(Failure(format!("JVM {} could not load {}: {}", args.pid, lib.display(), reply.text.trim()))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn load_replies() {
        assert_eq!(parse_load_reply("0\nreturn code: 0\n").unwrap(), LoadReply { status: 0, agent_return: Some(0), text: "return code: 0".into() });
        assert_eq!(parse_load_reply("0\nreturn code: -1\n").unwrap().agent_return, Some(-1));
        assert_eq!(parse_load_reply("101\n").unwrap().status, 101);
        assert!(parse_load_reply("garbage").is_err());
    }
}
