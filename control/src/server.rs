//! The control socket server: accepts local connections, checks the peer, reads one request per line
//! and answers through a [`Handler`].
//!
//! Robustness rules: requests are size-limited, idle connections time out, the number of connections
//! is bounded, and nothing a client sends can panic the server or stall the process it runs in (all
//! work happens on the server's own threads; the handler decides what it locks and for how long).

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

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
    /// A connection that sends nothing for this long is closed.
    pub idle_timeout: Duration,
}

impl ServerConfig {
    pub fn new(path: impl Into<PathBuf>) -> ServerConfig {
        ServerConfig {
            path: path.into(),
            socket_mode: 0o600,
            max_connections: 16,
            max_request: 64 * 1024,
            idle_timeout: Duration::from_secs(60),
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

fn accept_loop(listener: UnixListener, config: ServerConfig, handler: Arc<dyn Handler>, stopping: Arc<AtomicBool>) {
    let active = Arc::new(AtomicUsize::new(0));
    let owner = nix::unistd::geteuid().as_raw();
    for stream in listener.incoming() {
        if stopping.load(Ordering::SeqCst) {
            break;
        }
        let Ok(mut stream) = stream else {
            // EMFILE and the like: back off instead of spinning.
            std::thread::sleep(Duration::from_millis(50));
            continue;
        };
        let _ = stream.set_write_timeout(Some(Duration::from_secs(10)));
        if active.load(Ordering::SeqCst) >= config.max_connections {
            let err = RequestError::new(
                ErrorCode::Busy,
                format!("too many control connections (limit {}); try again", config.max_connections),
            );
            let _ = writeln!(stream, "{}", error_reply(&err));
            continue;
        }
        active.fetch_add(1, Ordering::SeqCst);
        let (conn_handler, conn_active, conn_config) = (handler.clone(), active.clone(), config.clone());
        let spawned = std::thread::Builder::new().name("hpm-control-conn".into()).spawn(move || {
            serve_connection(stream, &conn_config, &*conn_handler, owner);
            conn_active.fetch_sub(1, Ordering::SeqCst);
        });
        if spawned.is_err() {
            // No thread (resource exhaustion): the stream was dropped with the closure, which closes
            // the connection; release its slot.
            active.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// Whether a peer with `uid` may use a socket owned by `owner`.
pub fn peer_allowed(uid: u32, owner: u32) -> bool {
    uid == owner || uid == 0
}

fn serve_connection(stream: UnixStream, config: &ServerConfig, handler: &dyn Handler, owner: u32) {
    let mut writer = match stream.try_clone() {
        Ok(w) => w,
        Err(_) => return,
    };
    match nix::sys::socket::getsockopt(&stream, nix::sys::socket::sockopt::PeerCredentials) {
        Ok(cred) if peer_allowed(cred.uid(), owner) => {}
        Ok(cred) => {
            let err = RequestError::new(
                ErrorCode::PermissionDenied,
                format!("permission denied: uid {} may not control this process (owner uid {owner})", cred.uid()),
            );
            let _ = writeln!(writer, "{}", error_reply(&err));
            return;
        }
        Err(e) => {
            let err = RequestError::new(ErrorCode::PermissionDenied, format!("cannot identify the peer: {e}"));
            let _ = writeln!(writer, "{}", error_reply(&err));
            return;
        }
    }
    let _ = stream.set_read_timeout(Some(config.idle_timeout));
    let mut reader = BufReader::new(stream);
    let mut line = Vec::new();
    loop {
        line.clear();
        // Read at most one byte past the limit so an over-long line is detected without buffering it.
        let n = match (&mut reader).take(config.max_request as u64 + 1).read_until(b'\n', &mut line) {
            Ok(0) => return, // peer closed
            Ok(n) => n,
            Err(_) => return, // timeout or reset
        };
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
