//! The control socket server: accepts local connections, checks the peer, reads one request per line
//! and answers through a [`Handler`].
//!
//! Robustness rules: requests are size-limited, idle connections time out, the number of connections
//! is bounded, and nothing a client sends can panic the server or stall the process it runs in (all
//! work happens on the server's own threads; the handler decides what it locks and for how long).
//! Connections that send nothing cannot lock the owner out: when every slot is taken, the
//! connection that has waited longest for a request (at least 100 ms, with nothing unread) is
//! closed to make room for the new one, so `busy` means that every slot is serving a command or
//! about to: a client that sent its request always reads a reply.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::Shutdown;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::protocol::{error_reply, ok_reply, parse_request, Command, ErrorCode, RequestError, COMMANDS};

/// What the process behind the socket does with a command.
pub trait Handler: Send + Sync + 'static {
    /// Serves one command. `help` is answered by the server itself and never reaches the handler.
    fn handle(&self, command: Command) -> Result<Value, String>;
}

/// Server settings. [`ServerConfig::new`] gives the safe defaults.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    pub path: PathBuf,
    /// Permission bits of the socket file (0600: only the owner can connect).
    pub socket_mode: u32,
    pub max_connections: usize,
    /// Longest accepted request line, in bytes.
    pub max_request: usize,
    /// A connection that sends nothing for this long is closed (sooner when its slot is needed).
    pub idle_timeout: Duration,
}

impl ServerConfig {
    pub fn new(path: impl Into<PathBuf>) -> ServerConfig {
        ServerConfig {
            path: path.into(),
            socket_mode: 0o600,
            max_connections: 16,
            max_request: 64 * 1024,
            idle_timeout: Duration::from_secs(30),
        }
    }
}

/// A running server. Dropping it stops accepting and removes the socket file.
pub struct Server {
    path: PathBuf,
    stopping: Arc<AtomicBool>,
    accept_thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Binds the socket (replacing a stale one left by a dead process) and starts serving.
    pub fn start(config: ServerConfig, handler: Arc<dyn Handler>) -> std::io::Result<Server> {
        let path = config.path.clone();
        if let Ok(meta) = std::fs::symlink_metadata(&path) {
            // Only a socket is ever replaced: a mistyped path must not delete someone's file.
            if !meta.file_type().is_socket() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::AlreadyExists,
                    format!("{} exists and is not a socket; choose another socket path", path.display()),
                ));
            }
            // A live server answers a connect; a stale socket from a dead process does not.
            if UnixStream::connect(&path).is_ok() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::AddrInUse,
                    format!("{} is in use by a running process", path.display()),
                ));
            }
            std::fs::remove_file(&path)?;
        }
        let listener = UnixListener::bind(&path)?;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(config.socket_mode))?;
        let stopping = Arc::new(AtomicBool::new(false));
        let stop = stopping.clone();
        let accept_thread = std::thread::Builder::new()
            .name("hpm-control".into())
            .spawn(move || accept_loop(listener, config, handler, stop))?;
        Ok(Server { path, stopping, accept_thread: Some(accept_thread) })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Stops accepting connections and removes the socket file. Connections being served finish
    /// their current request.
    pub fn shutdown(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        if self.stopping.swap(true, Ordering::SeqCst) {
            return;
        }
        // Wake the blocking accept with a connection of our own.
        let _ = UnixStream::connect(&self.path);
        if let Some(t) = self.accept_thread.take() {
            let _ = t.join();
        }
        let _ = std::fs::remove_file(&self.path);
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The open connections: each one's stream (to close it) and since when it waits for a request
/// (`None` while a command is served).
#[derive(Default)]
struct Connections {
    next_id: u64,
    open: Vec<(u64, UnixStream, Option<Instant>)>,
}

impl Connections {
    fn set_waiting(&mut self, id: u64, waiting: bool) {
        if let Some(c) = self.open.iter_mut().find(|c| c.0 == id) {
            c.2 = waiting.then(Instant::now);
        }
    }

    fn remove(&mut self, id: u64) {
        self.open.retain(|c| c.0 != id);
    }

    /// Closes the connection that has waited longest for a request; false if every connection is
    /// serving a command. Neither a connection whose request has arrived but is not read yet (its
    /// thread has not run since) nor one accepted moments ago (its client is about to write) is
    /// idle: closing it would leave a client that did everything right without a reply.
    fn close_longest_waiting(&mut self) -> bool {
        let idle = |c: &(u64, UnixStream, Option<Instant>)| c.2.is_some_and(|since| since.elapsed() >= IDLE_AFTER) && !has_unread_input(&c.1);
        let idle = (0..self.open.len()).filter(|&i| idle(&self.open[i]));
        let Some(i) = idle.min_by_key(|&i| self.open[i].2) else {
            return false;
        };
        let (_, stream, _) = self.open.swap_remove(i);
        // Its thread sees end of file, exits and releases nothing more (the slot is freed here).
        let _ = stream.shutdown(Shutdown::Both);
        true
    }
}

/// How long a connection waits for a request before it counts as idle, and may be closed to make
/// room: a client writes its request right after it connects.
const IDLE_AFTER: Duration = Duration::from_millis(100);

/// Whether the peer has sent bytes that the server has not read yet (a peek that never waits).
/// A peer that closed (end of file) or a socket in error has none.
fn has_unread_input(stream: &UnixStream) -> bool {
    use nix::sys::socket::{recv, MsgFlags};
    use std::os::fd::AsRawFd;
    let mut byte = [0u8; 1];
    matches!(recv(stream.as_raw_fd(), &mut byte, MsgFlags::MSG_PEEK | MsgFlags::MSG_DONTWAIT), Ok(n) if n > 0)
}

type SharedConnections = Arc<Mutex<Connections>>;

fn lock(c: &SharedConnections) -> std::sync::MutexGuard<'_, Connections> {
    c.lock().unwrap_or_else(|e| e.into_inner())
}

/// Writes one error reply on a connection that is then closed. The peer may not have sent its
/// request yet: reading it first (briefly) keeps the close from discarding unread data, which
/// would turn the peer's read of this reply into "connection reset".
fn refuse(mut stream: UnixStream, err: RequestError) {
    let _ = writeln!(stream, "{}", error_reply(&err));
    let _ = stream.shutdown(Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(200)));
    let _ = std::io::copy(&mut (&stream).take(64 * 1024), &mut std::io::sink());
}

fn accept_loop(listener: UnixListener, config: ServerConfig, handler: Arc<dyn Handler>, stopping: Arc<AtomicBool>) {
    let connections = SharedConnections::default();
    let owner = nix::unistd::geteuid().as_raw();
    for stream in listener.incoming() {
        if stopping.load(Ordering::SeqCst) {
            break;
        }
        let Ok(stream) = stream else {
            // EMFILE and the like: back off instead of spinning.
            std::thread::sleep(Duration::from_millis(50));
            continue;
        };
        let _ = stream.set_write_timeout(Some(Duration::from_secs(10)));
        // Peers that may not use the socket never take a slot (and never evict anyone).
        if let Err(err) = check_peer(&stream, owner) {
            spawn_detached("hpm-control-refuse", move || refuse(stream, err));
            continue;
        }
        let Ok(registered) = stream.try_clone() else { continue };
        let id = {
            let mut conns = lock(&connections);
            if conns.open.len() >= config.max_connections && !conns.close_longest_waiting() {
                drop(conns);
                let err = RequestError::new(
                    ErrorCode::Busy,
                    format!("all {} control connections are serving commands; try again", config.max_connections),
                );
                spawn_detached("hpm-control-refuse", move || refuse(stream, err));
                continue;
            }
            conns.next_id += 1;
            let id = conns.next_id;
            conns.open.push((id, registered, Some(Instant::now())));
            id
        };
        let (conn_handler, conn_config, conns) = (handler.clone(), config.clone(), connections.clone());
        let serve_conns = conns.clone();
        let spawned = std::thread::Builder::new().name("hpm-control-conn".into()).spawn(move || {
            serve_connection(stream, &conn_config, &*conn_handler, &|waiting| lock(&serve_conns).set_waiting(id, waiting));
            lock(&serve_conns).remove(id);
        });
        if spawned.is_err() {
            // No thread (resource exhaustion): the stream was dropped with the closure, which closes
            // the connection; release its slot.
            lock(&conns).remove(id);
        }
    }
}

/// Runs `f` on a thread of its own, or not at all when no thread can be made.
fn spawn_detached(name: &str, f: impl FnOnce() + Send + 'static) {
    let _ = std::thread::Builder::new().name(name.into()).spawn(f);
}

/// Whether a peer with `uid` may use a socket owned by `owner`.
pub fn peer_allowed(uid: u32, owner: u32) -> bool {
    uid == owner || uid == 0
}

/// Refuses peers other than the socket's owner and root, by their credentials.
fn check_peer(stream: &UnixStream, owner: u32) -> Result<(), RequestError> {
    match nix::sys::socket::getsockopt(stream, nix::sys::socket::sockopt::PeerCredentials) {
        Ok(cred) if peer_allowed(cred.uid(), owner) => Ok(()),
        Ok(cred) => Err(RequestError::new(
            ErrorCode::PermissionDenied,
            format!("permission denied: the socket belongs to uid {owner}; uid {} may not control this process", cred.uid()),
        )),
        Err(e) => Err(RequestError::new(ErrorCode::PermissionDenied, format!("permission denied: cannot identify the peer: {e}"))),
    }
}

/// Serves requests until the peer closes, goes idle for `idle_timeout`, or is closed to make room.
/// `waiting(true)` is called before each wait for a request, `waiting(false)` once one arrived.
fn serve_connection(stream: UnixStream, config: &ServerConfig, handler: &dyn Handler, waiting: &dyn Fn(bool)) {
    let mut writer = match stream.try_clone() {
        Ok(w) => w,
        Err(_) => return,
    };
    let _ = stream.set_read_timeout(Some(config.idle_timeout));
    let mut reader = BufReader::new(stream);
    let mut line = Vec::new();
    loop {
        line.clear();
        waiting(true);
        // Read at most one byte past the limit so an over-long line is detected without buffering it.
        let n = match (&mut reader).take(config.max_request as u64 + 1).read_until(b'\n', &mut line) {
            Ok(0) => return, // peer closed (or closed by us to make room)
            Ok(n) => n,
            Err(_) => return, // timeout or reset
        };
        waiting(false);
        let complete = line.last() == Some(&b'\n');
        if !complete && n > config.max_request {
            let err = RequestError::new(
                ErrorCode::TooLong,
                format!("request longer than {} bytes; closing the connection", config.max_request),
            );
            let _ = writeln!(writer, "{}", error_reply(&err));
            return;
        }
        let reply = match std::str::from_utf8(&line) {
            Err(_) => error_reply(&RequestError::new(ErrorCode::BadRequest, "request is not UTF-8")),
            Ok(text) if text.trim().is_empty() => continue,
            Ok(text) => answer(text.trim(), handler),
        };
        if writeln!(writer, "{reply}").is_err() {
            return;
        }
        if !complete {
            return; // the peer closed after a final line without newline
        }
    }
}

fn answer(text: &str, handler: &dyn Handler) -> String {
    match parse_request(text) {
        Err(e) => error_reply(&e),
        Ok(Command::Help) => ok_reply(json!({
            "commands": COMMANDS.iter().map(|(c, h)| json!({"cmd": c, "help": h})).collect::<Vec<_>>()
        })),
        Ok(cmd) => {
            // A panicking handler must not take the server (or the VM) down with it.
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handler.handle(cmd))) {
                Ok(Ok(v)) => ok_reply(v),
                Ok(Err(msg)) => error_reply(&RequestError::new(ErrorCode::Failed, msg)),
                Err(_) => error_reply(&RequestError::new(ErrorCode::Failed, "internal error while serving the request")),
            }
        }
    }
}
