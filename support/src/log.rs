//! One-line messages on stderr, prefixed `hpmagent: LEVEL:`, filtered by the `log=` option.

use std::sync::atomic::{AtomicU8, Ordering};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Error = 0,
    Warn = 1,
    Info = 2,
    Debug = 3,
}

impl Level {
    pub fn parse(s: &str) -> Option<Level> {
        Some(match s {
            "error" => Level::Error,
            "warn" => Level::Warn,
            "info" => Level::Info,
            "debug" => Level::Debug,
            _ => return None,
        })
    }
}

static LEVEL: AtomicU8 = AtomicU8::new(Level::Warn as u8);

pub fn set_level(l: Level) {
    LEVEL.store(l as u8, Ordering::Relaxed);
}

pub fn enabled(l: Level) -> bool {
    l as u8 <= LEVEL.load(Ordering::Relaxed)
}

pub fn log(l: Level, msg: &str) {
    if enabled(l) {
        let tag = match l {
            Level::Error => "error",
            Level::Warn => "warning",
            Level::Info => "info",
            Level::Debug => "debug",
        };
        line(&format!("hpmagent: {tag}: {msg}"));
    }
}

/// Writes one line to stderr, whatever the level. Never panics (unlike `eprintln!`, which panics when
/// stderr is closed): this runs inside the JVM.
pub fn line(text: &str) {
    use std::io::Write;
    let mut e = std::io::stderr().lock();
    let _ = e.write_all(text.as_bytes());
    let _ = e.write_all(b"\n");
}

pub fn error(msg: &str) {
    log(Level::Error, msg)
}
pub fn warn(msg: &str) {
    log(Level::Warn, msg)
}
pub fn info(msg: &str) {
    log(Level::Info, msg)
}
pub fn debug(msg: &str) {
    log(Level::Debug, msg)
}
