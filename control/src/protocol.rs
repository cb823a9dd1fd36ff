//! The control protocol, version 1: one JSON object per line each way.
//!
//! Request: `{"v":1,"cmd":"status"}`; `v` may be left out (it means 1). Commands and their arguments:
//!
//! | cmd | arguments | does |
//! |---|---|---|
//! | `status` | | state (collecting or paused), threads, events, nodes, memory, uptime |
//! | `start` | | start (resume) collecting |
//! | `stop` | | pause collecting: method events are disabled |
//! | `reset` | | drop what was collected |
//! | `dump` | `dir` (string, optional, not empty) | write the reports now; the reply names the files |
//! | `save` | `dir` (string, optional, not empty) | write the saved run (`arcflow.json`) alone, now: the cheapest dump, whose other reports `hpm report DIR` writes outside the VM |
//! | `mark` | `text` (string) | put a marker in the data |
//! | `events` | | what is counted, and what could not be opened |
//! | `probe` | `action` (`add` or `remove`), `patterns` (strings: `CLASS_GLOB` or `CLASS_GLOB::METHOD_GLOB`; or one `pattern`) | put bytecode probes into, or take them out of, the matching methods now, in one retransformation |
//! | `help` | | the commands |
//!
//! Reply: `{"v":1,"ok":true,"result":…}` or `{"v":1,"ok":false,"error":"…","code":"…"}` where `code`
//! is one of the [`ErrorCode`] names. A request line longer than the server's limit gets a
//! `too_long` reply and the connection is closed (the rest of the line cannot be resynchronised).
//! A connection that sends nothing for the server's idle timeout (30 s by default) is closed, and
//! sooner when all connection slots are taken and another client connects. A peer that is neither
//! the socket's owner nor root, or that finds every slot serving a command, gets one
//! `permission_denied` or `busy` reply and the connection is closed.

use serde_json::{json, Map, Value};

/// Protocol version spoken by this build.
pub const VERSION: u64 = 1;

/// A parsed request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Status,
    Start,
    Stop,
    Reset,
    Dump { dir: Option<String> },
    /// `arcflow.json` alone.
    Save { dir: Option<String> },
    Mark { text: String },
    Events,
    /// Probes requested at run time: into (`add`) or out of the methods `patterns` match.
    Probe { add: bool, patterns: Vec<String> },
    Help,
}

impl Command {
    pub fn name(&self) -> &'static str {
        match self {
            Command::Status => "status",
            Command::Start => "start",
            Command::Stop => "stop",
            Command::Reset => "reset",
            Command::Dump { .. } => "dump",
            Command::Save { .. } => "save",
            Command::Mark { .. } => "mark",
            Command::Events => "events",
            Command::Probe { .. } => "probe",
            Command::Help => "help",
        }
    }

    /// The request line for this command (without the newline).
    pub fn to_request(&self) -> String {
        let mut obj = Map::new();
        obj.insert("v".into(), json!(VERSION));
        obj.insert("cmd".into(), json!(self.name()));
        match self {
            Command::Dump { dir: Some(d) } | Command::Save { dir: Some(d) } => {
                obj.insert("dir".into(), json!(d));
            }
            Command::Mark { text } => {
                obj.insert("text".into(), json!(text));
            }
            Command::Probe { add, patterns } => {
                obj.insert("action".into(), json!(if *add { "add" } else { "remove" }));
                obj.insert("patterns".into(), json!(patterns));
            }
            _ => {}
        }
        Value::Object(obj).to_string()
    }
}

/// The commands with one line of help each, as `help` returns them.
pub const COMMANDS: &[(&str, &str)] = &[
    ("status", "state (collecting or paused), threads, events, nodes, memory used, uptime"),
    ("start", "start or resume collecting"),
    ("stop", "pause collecting (method events off, so the VM runs compiled code again)"),
    ("reset", "drop everything collected so far"),
    ("dump", "write the reports now; optional \"dir\"; the reply names the files"),
    ("save", "write the saved run (arcflow.json) alone, now; optional \"dir\""),
    ("mark", "put a marker with \"text\" in the data"),
    ("events", "what is counted, and which requested events could not be opened"),
    ("probe", "\"action\" add or remove bytecode probes in the methods \"patterns\" match (CLASS_GLOB or CLASS_GLOB::METHOD_GLOB; or one \"pattern\"), now"),
    ("help", "this list"),
];

/// Why a request failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    /// Not JSON, not an object, or a field of the wrong type.
    BadRequest,
    UnknownCommand,
    UnsupportedVersion,
    TooLong,
    /// The peer is not the socket owner or root.
    PermissionDenied,
    /// Every connection slot is serving a command (connections only waiting for a request are
    /// closed to make room, so idle clients cannot cause this).
    Busy,
    /// The command was understood but failed (e.g. the dump directory is not writable).
    Failed,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadRequest => "bad_request",
            ErrorCode::UnknownCommand => "unknown_command",
            ErrorCode::UnsupportedVersion => "unsupported_version",
            ErrorCode::TooLong => "too_long",
            ErrorCode::PermissionDenied => "permission_denied",
            ErrorCode::Busy => "busy",
            ErrorCode::Failed => "failed",
        }
    }
}

/// A request that could not be served, with its reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestError {
    pub code: ErrorCode,
    pub message: String,
}

impl RequestError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> RequestError {
        RequestError { code, message: message.into() }
    }
}

/// Parses one request line.
pub fn parse_request(line: &str) -> Result<Command, RequestError> {
    let bad = |m: String| RequestError::new(ErrorCode::BadRequest, m);
    let value: Value = serde_json::from_str(line).map_err(|e| bad(format!("request is not valid JSON: {e}")))?;
    let Value::Object(obj) = value else {
        return Err(bad("request must be a JSON object like {\"cmd\":\"status\"}".into()));
    };
    match obj.get("v") {
        None => {}
        Some(Value::Number(n)) if n.as_u64() == Some(VERSION) => {}
        Some(Value::Number(n)) => {
            return Err(RequestError::new(
                ErrorCode::UnsupportedVersion,
                format!("protocol version {n} is not supported (this agent speaks version {VERSION})"),
            ))
        }
        Some(_) => return Err(bad("\"v\" must be a number".into())),
    }
    let cmd = match obj.get("cmd") {
        Some(Value::String(s)) => s.as_str(),
        Some(_) => return Err(bad("\"cmd\" must be a string".into())),
        None => return Err(bad("request has no \"cmd\"".into())),
    };
    let optional_string = |field: &str| -> Result<Option<String>, RequestError> {
        match obj.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(bad(format!("\"{field}\" must be a string"))),
        }
    };
    let command = match cmd {
        "status" => Command::Status,
        "start" => Command::Start,
        "stop" => Command::Stop,
        "reset" => Command::Reset,
        "dump" => match optional_string("dir")? {
            // An empty path would mean the JVM's working directory, which nobody asks for on purpose.
            Some(dir) if dir.trim().is_empty() => {
                return Err(bad("\"dir\" is empty: name a directory, or leave \"dir\" out for the agent's out= directory".into()))
            }
            dir => Command::Dump { dir },
        },
        "save" => match optional_string("dir")? {
            Some(dir) if dir.trim().is_empty() => return Err(bad("\"dir\" is empty: name a directory, or leave \"dir\" out for the agent's out= directory".into())),
            dir => Command::Save { dir },
        },
        "mark" => match optional_string("text")? {
            Some(text) => Command::Mark { text },
            None => return Err(bad("\"mark\" needs a \"text\" string".into())),
        },
        "events" => Command::Events,
        "probe" => {
            let add = match optional_string("action")?.as_deref() {
                Some("add") => true,
                Some("remove") => false,
                Some(other) => return Err(bad(format!("\"action\" must be \"add\" or \"remove\", not {:?}", truncate(other, 64)))),
                None => return Err(bad("\"probe\" needs an \"action\": \"add\" or \"remove\"".into())),
            };
            let need = || bad("\"probe\" needs \"patterns\" (or one \"pattern\"): CLASS_GLOB or CLASS_GLOB::METHOD_GLOB, e.g. \"org.h2.command.*\"".into());
            let mut patterns = match (obj.get("patterns"), optional_string("pattern")?) {
                (Some(Value::Array(items)), None) => items
                    .iter()
                    .map(|v| v.as_str().map(|s| s.trim().to_string()).ok_or_else(|| bad("\"patterns\" must be strings".into())))
                    .collect::<Result<Vec<_>, _>>()?,
                (None, Some(p)) => vec![p.trim().to_string()],
                (Some(_), Some(_)) => return Err(bad("give \"patterns\" or \"pattern\", not both".into())),
                (Some(_), None) => return Err(bad("\"patterns\" must be an array of strings".into())),
                (None, None) => return Err(need()),
            };
            patterns.retain(|p| !p.is_empty());
            if patterns.is_empty() {
                return Err(need());
            }
            Command::Probe { add, patterns }
        }
        "help" => Command::Help,
        other => {
            let known: Vec<&str> = COMMANDS.iter().map(|c| c.0).collect();
            return Err(RequestError::new(
                ErrorCode::UnknownCommand,
                format!("unknown command {:?} (valid: {})", truncate(other, 64), known.join(", ")),
            ));
        }
    };
    let allowed: &[&str] = match command {
        Command::Dump { .. } | Command::Save { .. } => &["v", "cmd", "dir"],
        Command::Mark { .. } => &["v", "cmd", "text"],
        Command::Probe { .. } => &["v", "cmd", "action", "pattern", "patterns"],
        _ => &["v", "cmd"],
    };
    if let Some(extra) = obj.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(bad(format!("unknown field {:?} for {:?}", truncate(extra, 64), command.name())));
    }
    Ok(command)
}

fn truncate(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

/// The reply line for a result (without the newline).
pub fn ok_reply(result: Value) -> String {
    json!({"v": VERSION, "ok": true, "result": result}).to_string()
}

/// The reply line for an error (without the newline).
pub fn error_reply(err: &RequestError) -> String {
    json!({"v": VERSION, "ok": false, "error": err.message, "code": err.code.as_str()}).to_string()
}

/// A reply as a client sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    pub ok: bool,
    pub result: Value,
    pub error: Option<String>,
    pub code: Option<String>,
}

/// Parses a reply line.
pub fn parse_reply(line: &str) -> Result<Reply, String> {
    let v: Value = serde_json::from_str(line).map_err(|e| format!("reply is not valid JSON: {e}"))?;
    let ok = v.get("ok").and_then(Value::as_bool).ok_or("reply has no boolean \"ok\"")?;
    Ok(Reply {
        ok,
        result: v.get("result").cloned().unwrap_or(Value::Null),
        error: v.get("error").and_then(Value::as_str).map(str::to_string),
        code: v.get("code").and_then(Value::as_str).map(str::to_string),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_round_trips() {
        for c in [
            Command::Status,
            Command::Start,
            Command::Stop,
            Command::Reset,
            Command::Dump { dir: None },
            Command::Dump { dir: Some("/tmp/x y".into()) },
            Command::Save { dir: Some("/tmp/s".into()) },
            Command::Save { dir: None },
            Command::Mark { text: "phase 2 \"quoted\" ünïcode".into() },
            Command::Events,
            Command::Probe { add: true, patterns: vec!["org.h2.command.*::execute*".into()] },
            Command::Probe { add: false, patterns: vec!["com.acme.Main".into(), "a.B::c".into()] },
            Command::Help,
        ] {
            assert_eq!(parse_request(&c.to_request()), Ok(c.clone()), "{c:?}");
        }
    }

    #[test]
    fn errors_name_the_problem() {
        let code = |l: &str| parse_request(l).unwrap_err().code;
        assert_eq!(code("{"), ErrorCode::BadRequest);
        assert_eq!(code("[1,2]"), ErrorCode::BadRequest);
        assert_eq!(code(r#"{"cmd":5}"#), ErrorCode::BadRequest);
        assert_eq!(code(r#"{"cmd":"launch"}"#), ErrorCode::UnknownCommand);
        assert_eq!(code(r#"{"v":2,"cmd":"status"}"#), ErrorCode::UnsupportedVersion);
        assert_eq!(code(r#"{"cmd":"dump","dir":7}"#), ErrorCode::BadRequest);
        assert_eq!(code(r#"{"cmd":"dump","dir":""}"#), ErrorCode::BadRequest);
        assert_eq!(code(r#"{"cmd":"dump","dir":" "}"#), ErrorCode::BadRequest);
        assert_eq!(code(r#"{"cmd":"mark"}"#), ErrorCode::BadRequest);
        assert_eq!(code(r#"{"cmd":"status","force":true}"#), ErrorCode::BadRequest);
        assert_eq!(code(r#"{"cmd":"probe","pattern":"a.*"}"#), ErrorCode::BadRequest);
        assert_eq!(code(r#"{"cmd":"probe","action":"toggle","pattern":"a.*"}"#), ErrorCode::BadRequest);
        assert_eq!(code(r#"{"cmd":"probe","action":"add"}"#), ErrorCode::BadRequest);
        assert_eq!(code(r#"{"cmd":"probe","action":"add","pattern":" "}"#), ErrorCode::BadRequest);
        assert_eq!(code(r#"{"cmd":"probe","action":"add","patterns":[]}"#), ErrorCode::BadRequest);
        assert_eq!(code(r#"{"cmd":"probe","action":"add","patterns":[1]}"#), ErrorCode::BadRequest);
        assert_eq!(code(r#"{"cmd":"probe","action":"add","patterns":"a.*"}"#), ErrorCode::BadRequest);
        assert_eq!(code(r#"{"cmd":"probe","action":"add","patterns":["a.*"],"pattern":"b.*"}"#), ErrorCode::BadRequest);
        assert_eq!(parse_request(r#"{"cmd":"probe","action":"add","pattern":" a.* "}"#), Ok(Command::Probe { add: true, patterns: vec!["a.*".into()] }));
        let m = parse_request(r#"{"cmd":"launch"}"#).unwrap_err().message;
        assert!(m.contains("unknown command \"launch\"") && m.contains("status"), "{m}");
    }
}
