//! `hpm list` and `hpm ctl`: find running agents and talk to them over their control sockets.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, Subcommand};
use hpm_control::paths::{default_socket_dir, list_sockets, socket_path};
use hpm_control::{Client, Command, Reply};
use serde_json::{json, Value};

use super::out::outln;
use super::Failure;

#[derive(Args)]
pub struct ListArgs {
    /// Directory of the control sockets (default: $XDG_RUNTIME_DIR/hpmagent or /tmp/hpmagent-<uid>).
    #[arg(long)]
    pub socket_dir: Option<PathBuf>,
    /// One JSON array instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct CtlArgs {
    /// Process id of the JVM (or rvm) running the agent.
    pub pid: u32,
    #[command(subcommand)]
    pub command: CtlCommand,
    /// Directory of the control sockets (default: $XDG_RUNTIME_DIR/hpmagent or /tmp/hpmagent-<uid>).
    #[arg(long, global = true)]
    pub socket_dir: Option<PathBuf>,
    /// Print the agent's JSON reply instead of text.
    #[arg(long, global = true)]
    pub json: bool,
    /// Seconds to wait for the reply (a dump of a large profile takes a while).
    #[arg(long, global = true, default_value_t = 120)]
    pub timeout: u64,
}

#[derive(Subcommand)]
pub enum CtlCommand {
    /// Collecting or paused, threads, events, nodes, memory used, uptime.
    Status,
    /// Start (resume) collecting.
    Start,
    /// Pause collecting: the probes leave the code (calls=jvmti: method events off), so the VM runs at full speed.
    Stop,
    /// Drop everything collected so far.
    Reset,
    /// Write the reports now, into DIR or the agent's out= directory.
    Dump { dir: Option<PathBuf> },
    /// Write the saved run (arcflow.json) alone, now: `hpm report DIR` writes the other reports from it outside the VM.
    Save { dir: Option<PathBuf> },
    /// Put a marker in the data.
    Mark { text: String },
    /// What is counted, and which requested events could not be opened.
    Events,
    /// Put bytecode probes into the matching methods now, or take them out (HotSpot, calls=probes or calls=requested).
    Probe {
        #[command(subcommand)]
        action: ProbeAction,
    },
}

#[derive(Subcommand)]
pub enum ProbeAction {
    /// Probes into the methods the patterns match, from now on: their calls are counted exactly.
    Add {
        /// CLASS_GLOB or CLASS_GLOB::METHOD_GLOB, e.g. 'org.h2.command.*' or 'org.h2.mvstore.MVMap::get*'; several go in one retransformation.
        #[arg(required = true, value_name = "PATTERN")]
        patterns: Vec<String>,
    },
    /// Probes out of the methods the patterns match: their counts stop growing.
    Remove {
        /// CLASS_GLOB or CLASS_GLOB::METHOD_GLOB, as for add.
        #[arg(required = true, value_name = "PATTERN")]
        patterns: Vec<String>,
    },
}

fn socket_dir(opt: &Option<PathBuf>) -> PathBuf {
    opt.clone().unwrap_or_else(default_socket_dir)
}

fn process_alive(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

pub fn list(args: ListArgs) -> Result<(), Failure> {
    let dir = socket_dir(&args.socket_dir);
    let mut rows = Vec::new();
    for (pid, path) in list_sockets(&dir) {
        if !process_alive(pid) {
            // A socket left by a process that died without cleaning up: ours to remove.
            let _ = std::fs::remove_file(&path);
            continue;
        }
        let status = Client::connect(&path, Duration::from_secs(5)).and_then(|mut c| c.send(&Command::Status));
        let row = match status {
            Ok(r) if r.ok => json!({"pid": pid, "socket": path, "status": r.result}),
            Ok(r) => json!({"pid": pid, "socket": path, "error": r.error}),
            Err(e) => json!({"pid": pid, "socket": path, "error": e.to_string()}),
        };
        rows.push(row);
    }
    if args.json {
        outln!("{}", Value::Array(rows));
        return Ok(());
    }
    if rows.is_empty() {
        outln!("no running agents with a control socket in {}", dir.display());
        return Ok(());
    }
    let mut table = vec![["PID".to_string(), "STATE".into(), "THREADS".into(), "MAIN".into()]];
    for r in rows {
        let s = &r["status"];
        let state = s["state"].as_str().or(r["error"].as_str().map(|_| "error")).unwrap_or("?");
        let main = s["main"].as_str().or(r["error"].as_str()).unwrap_or("");
        let threads = s["threads"].as_u64().map(|t| t.to_string()).unwrap_or_default();
        table.push([r["pid"].to_string(), state.into(), threads, main.into()]);
    }
    // Columns as wide as their widest cell: PID and THREADS right-aligned, STATE and MAIN left.
    let width = |c: usize| table.iter().map(|row| row[c].chars().count()).max().unwrap_or(0);
    let (wp, ws, wt) = (width(0), width(1), width(2));
    for [pid, state, threads, main] in &table {
        outln!("{pid:>wp$}  {state:<ws$}  {threads:>wt$}  {main}");
    }
    Ok(())
}

/// The control socket of the agent in process `pid`, in the socket directory of the user the
/// process runs as (`$XDG_RUNTIME_DIR/hpmagent` as `/run/user/<uid>/hpmagent`, or
/// `/tmp/hpmagent-<uid>`): where an agent that `hpm attach` (maybe as root) loaded into another
/// user's JVM made it. None when there is none.
pub(crate) fn agent_socket_of(pid: u32) -> Option<PathBuf> {
    let uid = process_euid(pid)?;
    [PathBuf::from(format!("/run/user/{uid}/hpmagent")), PathBuf::from(format!("/tmp/hpmagent-{uid}"))]
        .into_iter()
        .map(|d| socket_path(&d, pid))
        .find(|p| std::fs::symlink_metadata(p).is_ok_and(|m| std::os::unix::fs::FileTypeExt::is_socket(&m.file_type())))
}

/// The control socket of the agent in process `pid` (in `socket_dir`, else this user's socket
/// directory or that of the user the process runs as), or why there is none, in one line.
pub(crate) fn find_socket(pid: u32, socket_dir: &Option<PathBuf>) -> Result<PathBuf, Failure> {
    let dir = self::socket_dir(socket_dir);
    let mut path = socket_path(&dir, pid);
    if !path.exists() && socket_dir.is_none() {
        // Another user's JVM (root controlling it): its agent's socket is in that user's directory.
        if let Some(p) = agent_socket_of(pid) {
            path = p;
        }
    }
    if !path.exists() {
        let why = if process_alive(pid) {
            "the process runs but has no control socket (started without the agent, with socket=off, \
             or by another user?); `hpm attach PID` loads the agent into a HotSpot JVM"
        } else {
            "no such process"
        };
        return Err(Failure(format!("no agent socket {}: {why}", path.display())));
    }
    Ok(path)
}

pub fn ctl(args: CtlArgs) -> Result<(), Failure> {
    let path = find_socket(args.pid, &args.socket_dir)?;
    let command = match args.command {
        CtlCommand::Status => Command::Status,
        CtlCommand::Start => Command::Start,
        CtlCommand::Stop => Command::Stop,
        CtlCommand::Reset => Command::Reset,
        CtlCommand::Dump { dir } => Command::Dump {
            dir: dir.map(|d| std::path::absolute(&d).unwrap_or(d).to_string_lossy().into_owned()),
        },
        CtlCommand::Save { dir } => Command::Save {
            dir: dir.map(|d| std::path::absolute(&d).unwrap_or(d).to_string_lossy().into_owned()),
        },
        CtlCommand::Mark { text } => Command::Mark { text },
        CtlCommand::Events => Command::Events,
        CtlCommand::Probe { action: ProbeAction::Add { patterns } } => Command::Probe { add: true, patterns },
        CtlCommand::Probe { action: ProbeAction::Remove { patterns } } => Command::Probe { add: false, patterns },
    };
    let mut client = Client::connect(&path, Duration::from_secs(args.timeout))
        .map_err(|e| Failure(format!("cannot connect to {}: {e}", path.display())))?;
    let reply = client
        .send(&command)
        .map_err(|e| Failure(format!("no reply from pid {} to `{}`: {e}", args.pid, command.name())))?;
    print_reply(&command, &reply, args.json)
}

fn print_reply(command: &Command, reply: &Reply, json_out: bool) -> Result<(), Failure> {
    if !reply.ok {
        let code = reply.code.as_deref().unwrap_or("error");
        return Err(Failure(format!("{} refused ({code}): {}", command.name(), reply.error.as_deref().unwrap_or("no reason given"))));
    }
    if json_out {
        outln!("{}", reply.result);
        return Ok(());
    }
    print_value("", &reply.result);
    Ok(())
}

/// Human-readable rendering of a JSON result: `key: value` lines, nested objects indented, a list
/// of objects (threads, metrics, …) as one `- key=value key=value` line per object, and a list of
/// values that would not fit on a line (a dump's files) as one `- value` line each.
fn print_value(indent: &str, v: &Value) {
    match v {
        Value::Object(map) => {
            for (k, val) in map {
                match val {
                    Value::Object(_) => {
                        outln!("{indent}{k}:");
                        print_value(&format!("{indent}  "), val);
                    }
                    // Lists of objects, and long lists (a dump's files), one item per line.
                    Value::Array(items) if items.iter().any(|i| i.is_object() || i.is_array()) || scalar(val).len() > 100 => {
                        outln!("{indent}{k}:");
                        for item in items {
                            outln!("{indent}  - {}", one_line(item));
                        }
                    }
                    _ => outln!("{indent}{k}: {}", scalar(val)),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|i| outln!("{indent}- {}", one_line(i))),
        other => outln!("{indent}{}", scalar(other)),
    }
}

/// A list item on one line: an object as `key=value` pairs (values with spaces quoted), anything
/// else as its scalar text.
fn one_line(v: &Value) -> String {
    match v {
        Value::Object(map) => map
            .iter()
            .map(|(k, val)| match val {
                Value::Object(_) => format!("{k}={val}"),
                _ => {
                    let s = scalar(val);
                    if s.is_empty() || s.contains(char::is_whitespace) || s.contains(['"', '=']) {
                        format!("{k}={s:?}")
                    } else {
                        format!("{k}={s}")
                    }
                }
            })
            .collect::<Vec<_>>()
            .join(" "),
        other => scalar(other),
    }
}

fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(scalar).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}

/// The effective uid of process `pid` (`Uid:` in `/proc/PID/status`: real, effective, saved, fs).
pub(crate) fn process_euid(pid: u32) -> Option<u32> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status.lines().find_map(|l| l.strip_prefix("Uid:"))?.split_whitespace().nth(1)?.parse().ok()
}
