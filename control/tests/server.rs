//! The control server over real Unix sockets: commands, limits, malformed input, concurrency, and a
//! peer running as another user.

use std::io::Write;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use hpm_control::paths::{list_sockets, prepare_socket_dir, socket_path};
use hpm_control::{Client, Command, Handler, Server, ServerConfig};
use serde_json::{json, Value};

/// Records the commands it serves; `status` reports how many it has seen. `mark block` waits until
/// the test opens the gate.
#[derive(Default)]
struct Recorder {
    seen: Mutex<Vec<Command>>,
    calls: AtomicU64,
    blocked: AtomicU64,
    gate_open: Mutex<bool>,
    gate: Condvar,
}

impl Recorder {
    fn open_gate(&self) {
        *self.gate_open.lock().unwrap() = true;
        self.gate.notify_all();
    }
}

impl Handler for Recorder {
    fn handle(&self, command: Command) -> Result<Value, String> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        if matches!(&command, Command::Mark { text } if text == "block") {
            self.blocked.fetch_add(1, Ordering::SeqCst);
            let open = self.gate_open.lock().unwrap();
            drop(self.gate.wait_while(open, |open| !*open).unwrap());
        }
        let reply = match &command {
            Command::Status => Ok(json!({"state": "collecting", "served": self.calls.load(Ordering::SeqCst)})),
            Command::Dump { dir: Some(d) } if d.starts_with("/nonexistent") => Err(format!("cannot write {d}")),
            Command::Mark { text } if text == "panic" => panic!("handler bug"),
            other => Ok(json!({"done": other.name()})),
        };
        self.seen.lock().unwrap().push(command);
        reply
    }
}

fn start(dir: &Path, tweak: impl FnOnce(&mut ServerConfig)) -> (Server, Arc<Recorder>) {
    prepare_socket_dir(dir).unwrap();
    let mut config = ServerConfig::new(socket_path(dir, std::process::id()));
    tweak(&mut config);
    let handler = Arc::new(Recorder::default());
    (Server::start(config, handler.clone()).unwrap(), handler)
}

fn client(server: &Server) -> Client {
    Client::connect(server.path(), Duration::from_secs(10)).unwrap()
}

#[test]
fn commands_reach_the_handler_and_help_is_answered_by_the_server() {
    let tmp = tempfile::tempdir().unwrap();
    let (server, handler) = start(&tmp.path().join("s"), |_| {});
    let mut c = client(&server);
    for cmd in [
        Command::Start,
        Command::Stop,
        Command::Reset,
        Command::Dump { dir: Some("/tmp/d".into()) },
        Command::Mark { text: "phase 2".into() },
        Command::Events,
        Command::Save { dir: None },
        Command::Probe {
            add: true,
            patterns: vec!["org.h2.command.*".into()],
        },
    ] {
        let r = c.send(&cmd).unwrap();
        assert!(r.ok, "{cmd:?}: {r:?}");
        assert_eq!(r.result["done"], cmd.name());
    }
    let help = c.send(&Command::Help).unwrap();
    assert!(help.ok);
    assert_eq!(help.result["commands"].as_array().unwrap().len(), 10);
    let failed = c.send(&Command::Dump { dir: Some("/nonexistent/x".into()) }).unwrap();
    assert!(!failed.ok);
    assert_eq!(failed.code.as_deref(), Some("failed"));
    assert_eq!(failed.error.as_deref(), Some("cannot write /nonexistent/x"));
    // A panicking handler gives an error reply, and the server keeps serving.
    let panicked = c.send(&Command::Mark { text: "panic".into() }).unwrap();
    assert!(!panicked.ok);
    assert!(c.send(&Command::Status).unwrap().ok);
    // 8 commands, the failing dump, the panicking mark and status; help never reaches the handler.
    assert_eq!(handler.calls.load(Ordering::SeqCst), 11);
}

#[test]
fn directory_and_socket_are_private() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("private");
    let (server, _) = start(&dir, |_| {});
    assert_eq!(std::fs::metadata(&dir).unwrap().mode() & 0o777, 0o700);
    assert_eq!(std::fs::metadata(server.path()).unwrap().mode() & 0o777, 0o600);
    assert_eq!(list_sockets(&dir), vec![(std::process::id(), server.path().to_path_buf())]);
    // A directory open to others is refused with the fix named.
    let open = tmp.path().join("open");
    std::fs::create_dir(&open).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
    let err = prepare_socket_dir(&open).unwrap_err();
    assert!(err.contains("mode 777") && err.contains("chmod 700"), "{err}");
    // Dropping the server removes the socket.
    let path = server.path().to_path_buf();
    drop(server);
    assert!(!path.exists());
}

#[test]
fn stale_socket_is_replaced_and_live_one_is_not() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("s");
    let (server, _) = start(&dir, |_| {});
    let second = Server::start(ServerConfig::new(server.path()), Arc::new(Recorder::default()));
    assert!(second.is_err(), "a live socket must not be taken over");
    let path = server.path().to_path_buf();
    // Leave a stale socket file behind, as a killed process would.
    std::mem::forget(server);
    let stale = std::os::unix::net::UnixListener::bind(tmp.path().join("stale.sock")).unwrap();
    drop(stale);
    let again = Server::start(ServerConfig::new(tmp.path().join("stale.sock")), Arc::new(Recorder::default()));
    assert!(again.is_ok(), "{:?}", again.err());
    // A regular file at the socket path is never removed.
    let file = tmp.path().join("notes.txt");
    std::fs::write(&file, b"keep me").unwrap();
    let refused = Server::start(ServerConfig::new(&file), Arc::new(Recorder::default()));
    assert!(refused.err().is_some_and(|e| e.to_string().contains("is not a socket")));
    assert_eq!(std::fs::read(&file).unwrap(), b"keep me");
    let _ = path;
}

#[test]
fn malformed_requests_get_errors_and_the_connection_stays_usable() {
    let tmp = tempfile::tempdir().unwrap();
    let (server, handler) = start(&tmp.path().join("s"), |_| {});
    let mut c = client(&server);
    let cases = [
        ("{not json", "bad_request"),
        ("42", "bad_request"),
        (r#"{"cmd": ["status"]}"#, "bad_request"),
        (r#"{"cmd": "explode"}"#, "unknown_command"),
        (r#"{"v": 99, "cmd": "status"}"#, "unsupported_version"),
        (r#"{"cmd": "dump", "dir": false}"#, "bad_request"),
        (r#"{"cmd": "mark"}"#, "bad_request"),
    ];
    for (line, code) in cases {
        let r = c.send_raw(line).unwrap();
        assert!(!r.ok, "{line}");
        assert_eq!(r.code.as_deref(), Some(code), "{line}: {r:?}");
        assert!(r.error.as_deref().is_some_and(|e| !e.is_empty()));
    }
    assert!(c.send(&Command::Status).unwrap().ok);
    assert_eq!(handler.calls.load(Ordering::SeqCst), 1, "no malformed request reached the handler");
    // An empty dump directory would be the JVM's working directory: refused, never served.
    let r = c.send_raw(r#"{"cmd":"dump","dir":""}"#).unwrap();
    assert_eq!(r.code.as_deref(), Some("bad_request"), "{r:?}");
    assert!(r.error.unwrap().contains("\"dir\" is empty"));
    assert_eq!(handler.calls.load(Ordering::SeqCst), 1);
}

#[test]
fn twenty_idle_connections_do_not_lock_out_status() {
    let tmp = tempfile::tempdir().unwrap();
    // The default limits: 16 connections, a 30 s idle timeout.
    let (server, _) = start(&tmp.path().join("s"), |_| {});
    let idle: Vec<UnixStream> = (0..20).map(|_| UnixStream::connect(server.path()).unwrap()).collect();
    std::thread::sleep(Duration::from_millis(200)); // all accepted
    for _ in 0..3 {
        let r = client(&server).send(&Command::Status).unwrap();
        assert!(r.ok, "status while 20 connections idle: {r:?}");
    }
    drop(idle);
}

#[test]
fn idle_connection_times_out() {
    let tmp = tempfile::tempdir().unwrap();
    let (server, _) = start(&tmp.path().join("s"), |c| c.idle_timeout = Duration::from_millis(300));
    let mut idle = UnixStream::connect(server.path()).unwrap();
    idle.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut buf = [0u8; 16];
    assert_eq!(std::io::Read::read(&mut idle, &mut buf).unwrap(), 0, "the server closed the idle connection");
}

#[test]
fn over_the_limit_a_late_writer_still_reads_busy() {
    let tmp = tempfile::tempdir().unwrap();
    let (server, handler) = start(&tmp.path().join("s"), |c| c.max_connections = 2);
    let path = server.path().to_path_buf();
    // Both slots serve a command that waits for the gate.
    let serving: Vec<_> = (0..2)
        .map(|_| {
            let path = path.clone();
            std::thread::spawn(move || Client::connect(&path, Duration::from_secs(30)).unwrap().send(&Command::Mark { text: "block".into() }).unwrap())
        })
        .collect();
    while handler.blocked.load(Ordering::SeqCst) < 2 {
        std::thread::sleep(Duration::from_millis(10));
    }
    let mut late = client(&server);
    // The refusal is written and the connection closed before this client writes its request.
    std::thread::sleep(Duration::from_millis(500));
    let r = late.send(&Command::Status).expect("the busy reply, not a broken pipe");
    assert_eq!(r.code.as_deref(), Some("busy"), "{r:?}");
    assert!(r.error.unwrap().contains("serving commands"));
    handler.open_gate();
    for t in serving {
        assert!(t.join().unwrap().ok);
    }
    assert!(client(&server).send(&Command::Status).unwrap().ok);
}

#[test]
fn over_long_request_is_refused_and_closed() {
    let tmp = tempfile::tempdir().unwrap();
    let (server, handler) = start(&tmp.path().join("s"), |c| c.max_request = 1024);
    let mut c = client(&server);
    let long = format!(r#"{{"cmd":"mark","text":"{}"}}"#, "x".repeat(5000));
    let r = c.send_raw(&long).unwrap();
    assert_eq!(r.code.as_deref(), Some("too_long"));
    assert!(c.send(&Command::Status).is_err(), "connection is closed after an over-long line");
    assert!(client(&server).send(&Command::Status).unwrap().ok);
    assert_eq!(handler.calls.load(Ordering::SeqCst), 1);
}

#[test]
fn many_clients_at_once_and_abrupt_disconnects() {
    let tmp = tempfile::tempdir().unwrap();
    let (server, _) = start(&tmp.path().join("s"), |c| c.max_connections = 8);
    let path = server.path().to_path_buf();
    // Abrupt disconnects: half a request, then gone; a connection that never sends anything.
    for _ in 0..20 {
        let mut s = UnixStream::connect(&path).unwrap();
        s.write_all(br#"{"cmd":"sta"#).unwrap();
    }
    let threads: Vec<_> = (0..32)
        .map(|_| {
            let path = path.clone();
            std::thread::spawn(move || {
                let mut ok = 0;
                let mut busy = 0;
                for _ in 0..20 {
                    let Ok(mut c) = Client::connect(&path, Duration::from_secs(10)) else { continue };
                    match c.send(&Command::Status) {
                        Ok(r) if r.ok => ok += 1,
                        Ok(r) if r.code.as_deref() == Some("busy") => busy += 1,
                        // Refused before our request was read: the busy reply is already waiting.
                        Err(_) => busy += 1,
                        Ok(r) => panic!("unexpected reply {r:?}"),
                    }
                }
                (ok, busy)
            })
        })
        .collect();
    let (mut ok, mut busy) = (0, 0);
    for t in threads {
        let (o, b) = t.join().unwrap();
        ok += o;
        busy += b;
    }
    assert_eq!(ok + busy, 32 * 20);
    assert!(ok > 0, "some clients were served");
    // Once the storm is over the server answers normally.
    std::thread::sleep(Duration::from_millis(200));
    assert!(client(&server).send(&Command::Status).unwrap().ok);
}

/// 100,000 random and malformed requests over a few connections: every line gets exactly one reply
/// and the server still answers `status` afterwards.
#[test]
fn fuzzed_requests_never_break_the_server() {
    let tmp = tempfile::tempdir().unwrap();
    let (server, _) = start(&tmp.path().join("s"), |c| c.max_request = 4096);
    let mut rng = 0x2545F4914F6CDD1Du64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let fragments: [&[u8]; 14] = [
        b"{", b"}", b"\"cmd\"", b":", b"\"status\"", b"\"dump\"", b"\"dir\"", b"null", b"[", b"]", b",", b"\\u0000",
        b"\"v\"", b"1e999",
    ];
    let mut c = client(&server);
    let mut replies = 0u64;
    for i in 0..100_000u64 {
        let mut line: Vec<u8> = Vec::new();
        match next() % 4 {
            0 => (0..next() % 64).for_each(|_| line.push((next() % 256) as u8)),
            1 => (0..next() % 12).for_each(|_| line.extend_from_slice(fragments[(next() % 14) as usize])),
            2 => {
                let cmd = ["status", "dump", "mark", "stop", "start", "reset", "events", "help", "x"][(next() % 9) as usize];
                let dir = [json!(1), json!("d"), json!(null), json!([1])][(next() % 4) as usize].clone();
                let v = next() % 3;
                line.extend_from_slice(json!({"cmd": cmd, "dir": dir, "v": v}).to_string().as_bytes())
            }
            _ => line.extend_from_slice(b"{\"cmd\":\"status\"}"),
        }
        // Keep one request per line and never a blank line (blank lines get no reply by design).
        line.retain(|&b| b != b'\n');
        line.insert(0, b'#');
        line.push(b'\n');
        c.write_raw(&line).unwrap();
        c.read_reply().unwrap_or_else(|e| panic!("request {i} {:?}: {e}", String::from_utf8_lossy(&line)));
        replies += 1;
    }
    assert_eq!(replies, 100_000);
    let r = client(&server).send(&Command::Status).unwrap();
    assert!(r.ok);
}

// ---- a peer running as another user ----

const CHILD_ENV: &str = "HPM_CONTROL_TEST_SOCKET";

/// Run by `other_user_is_refused` as user `nobody`: connects with the library's client and prints
/// the reply or the error.
#[test]
fn child_client() {
    let Some(path) = std::env::var_os(CHILD_ENV) else { return };
    match Client::connect(&PathBuf::from(path), Duration::from_secs(10)) {
        Err(e) => println!("CONNECT-ERROR {:?} {e}", e.kind()),
        Ok(mut c) => {
            // Write only after the server has refused and closed: the refusal must still be read.
            std::thread::sleep(Duration::from_millis(500));
            match c.send(&Command::Reset) {
                Ok(r) => println!("REPLY code={:?} error={:?}", r.code, r.error),
                Err(e) => println!("SEND-ERROR {e}"),
            }
        }
    }
}

fn run_as_nobody(socket: &Path) -> Option<String> {
    if !nix::unistd::geteuid().is_root() {
        eprintln!("skipping: needs root to run a client as another user");
        return None;
    }
    let exe_dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(exe_dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let exe = exe_dir.path().join("client");
    std::fs::copy(std::env::current_exe().unwrap(), &exe).unwrap();
    std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = std::process::Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(&exe)
        .args(["--exact", "child_client", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, socket)
        .output()
        .expect("setpriv (util-linux) is needed to run a client as another user");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "child failed: {stdout} {}", String::from_utf8_lossy(&out.stderr));
    Some(stdout)
}

#[test]
fn other_user_is_refused_by_peer_credentials() {
    // A socket others can reach (as a misconfigured deployment might have): the uid check must hold.
    let tmp = tempfile::tempdir().unwrap();
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let handler = Arc::new(Recorder::default());
    let mut config = ServerConfig::new(tmp.path().join("open.sock"));
    config.socket_mode = 0o666;
    let server = Server::start(config, handler.clone()).unwrap();
    let Some(out) = run_as_nobody(server.path()) else { return };
    assert!(out.contains("REPLY") && out.contains("permission_denied") && out.contains("uid 65534"), "{out}");
    assert!(out.contains("the socket belongs to uid 0"), "{out}");
    assert_eq!(handler.calls.load(Ordering::SeqCst), 0, "nothing changed");
    assert!(client(&server).send(&Command::Status).unwrap().ok, "the owner is still served");
}

#[test]
fn other_user_cannot_reach_the_default_socket() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let (server, handler) = start(&tmp.path().join("s"), |_| {});
    let Some(out) = run_as_nobody(server.path()) else { return };
    assert!(out.contains("CONNECT-ERROR PermissionDenied permission denied: the socket belongs to uid 0"), "{out}");
    assert_eq!(handler.calls.load(Ordering::SeqCst), 0);
}

/// 60 clients at once, each sending one `status` as soon as it is connected, against 4 slots:
/// every client reads a reply, the answer or `busy`. A connection whose request has arrived is
/// serving, not idle: it is never closed to make room (its client would read "closed the
/// connection" or a broken pipe).
#[test]
fn sixty_clients_at_once_each_read_a_reply() {
    let tmp = tempfile::tempdir().unwrap();
    let (server, _) = start(&tmp.path().join("s"), |c| c.max_connections = 4);
    for round in 0..5 {
        let path = server.path().to_path_buf();
        let go = Arc::new(std::sync::Barrier::new(60));
        let threads: Vec<_> = (0..60)
            .map(|_| {
                let (path, go) = (path.clone(), go.clone());
                std::thread::spawn(move || {
                    go.wait();
                    let mut c = Client::connect(&path, Duration::from_secs(10)).map_err(|e| format!("connect: {e}"))?;
                    match c.send(&Command::Status) {
                        Ok(r) if r.ok || r.code.as_deref() == Some("busy") => Ok(r.ok),
                        Ok(r) => Err(format!("unexpected reply {r:?}")),
                        Err(e) => Err(format!("no reply: {e}")),
                    }
                })
            })
            .collect();
        let results: Vec<Result<bool, String>> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        let failed: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
        assert!(failed.is_empty(), "round {round}: {} of 60 clients read no reply: {failed:?}", failed.len());
        assert!(results.iter().any(|r| r == &Ok(true)), "round {round}: some clients were served");
    }
}
