//! A client of the control socket, as `hpm ctl` uses it.

use std::io::{BufRead, BufReader, ErrorKind, Write};
use std::os::unix::fs::MetadataExt;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::Duration;

use crate::protocol::{parse_reply, Command, Reply};

pub struct Client {
    writer: UnixStream,
    reader: BufReader<UnixStream>,
}

impl Client {
    /// Connects to the socket at `path`; replies are awaited at most `timeout`. A socket of another
    /// user is refused with a message naming its owner.
    pub fn connect(path: &Path, timeout: Duration) -> std::io::Result<Client> {
        // The socket, or when its private directory cannot be entered, the directory: same owner.
        let owner = || std::fs::metadata(path).or_else(|_| std::fs::metadata(path.parent().unwrap_or(path))).map(|m| m.uid());
        let stream = UnixStream::connect(path).map_err(|e| match (e.kind(), owner()) {
            (ErrorKind::PermissionDenied, Ok(uid)) => {
                std::io::Error::new(ErrorKind::PermissionDenied, format!("permission denied: the socket belongs to uid {uid}"))
            }
            _ => e,
        })?;
        stream.set_read_timeout(Some(timeout))?;
        stream.set_write_timeout(Some(timeout))?;
        Ok(Client { writer: stream.try_clone()?, reader: BufReader::new(stream) })
    }

    /// Sends one command and waits for its reply.
    pub fn send(&mut self, command: &Command) -> std::io::Result<Reply> {
        self.send_raw(&command.to_request())
    }

    /// Sends one raw request line (no newline) and waits for the reply line.
    pub fn send_raw(&mut self, line: &str) -> std::io::Result<Reply> {
        let written = self.writer.write_all(format!("{line}\n").as_bytes());
        match (written, self.read_reply()) {
            (_, Ok(reply)) => Ok(reply),
            // A server that refuses the connection (permission denied, busy) says why and closes,
            // possibly before the request could be written: its reply is what explains the failure.
            (Err(write_error), Err(_)) => Err(write_error),
            (Ok(()), Err(read_error)) => Err(read_error),
        }
    }

    /// Writes raw bytes (which may be several or partial lines, or not UTF-8); read replies with
    /// [`Client::read_reply`]. For tools that test the server.
    pub fn write_raw(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.writer.write_all(bytes)
    }

    /// Reads the next reply line.
    pub fn read_reply(&mut self) -> std::io::Result<Reply> {
        let mut line = String::new();
        if self.reader.read_line(&mut line)? == 0 {
            return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "the agent closed the connection"));
        }
        parse_reply(line.trim_end()).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
    }
}
