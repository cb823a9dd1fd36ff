//! `arcflow.json` version 1: the call trees of a profile, nested (schema in `docs/arcflow-json.md`).
//! Version 2, everything a run keeps, is [`super::v2`]; [`version`] tells them apart.
//!
//! ```json
//! {"format":"hpm-arcflow","version":1,"consumer_label":"methods","count_label":"calls",
//!  "metrics":[{"name":"cpu-time","unit":"ns"}],
//!  "threads":[{"name":"main","kind":"application","os_tid":4711,"root":
//!   {"name":"main","calls":1,"base":[0],"children":[
//!    {"name":"Main.main","calls":1,"base":[120],"children":[]}]}}]}
//! ```
//!
//! Trees can be arbitrarily deep (deep recursion in the profiled program), so neither the writer
//! nor the reader recurses over nodes: the writer walks the tree in pre-order with an explicit stack,
//! and the reader is a small pull parser whose node state lives on a heap stack. A 100,000-deep chain
//! reads and writes in constant native stack.
//!
//! Reading gives back the same model: the same threads with the same names, kinds and OS thread ids,
//! the same contexts with the same calls and base values, children in the same order. Two sibling
//! nodes with the same name are merged (their calls and base add up), as the model allows only one
//! child per consumer.

use std::borrow::Cow;
use std::fmt;
use std::io::Write;

use crate::arcflow::{Bindings, ConsumerTable, Metric, MetricMode, NodeId, Profile, ThreadProfile, Tree};

/// The value of the `format` field.
pub const FORMAT: &str = "hpm-arcflow";
/// The schema version this module writes and reads.
pub const VERSION: u64 = 1;

/// Writes `profile` as arcflow.json (one node per line). Many small writes: give it a buffer
/// (a `Vec<u8>` or a `BufWriter`).
pub fn write(profile: &Profile, w: &mut impl Write) -> std::io::Result<()> {
    let esc = |s: &str| serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_string());
    let names: Vec<String> = (0..profile.consumers.len() as u32).map(|c| esc(profile.consumers.name(c))).collect();
    write!(
        w,
        "{{\"format\":\"{FORMAT}\",\"version\":{VERSION},\"consumer_label\":{},\"count_label\":{},\n\"metrics\":[",
        esc(&profile.bindings.consumer_label),
        esc(&profile.bindings.count_label)
    )?;
    for (i, m) in profile.bindings.metrics.iter().enumerate() {
        if i > 0 {
            w.write_all(b",")?;
        }
        write!(w, "{{\"name\":{},\"unit\":{},\"mode\":\"{}\"}}", esc(&m.name), esc(&m.unit), m.mode.as_str())?;
    }
    w.write_all(b"],\n\"threads\":[")?;
    // (node, whether a child has been written)
    let mut path: Vec<(NodeId, bool)> = Vec::new();
    for (ti, th) in profile.threads.iter().enumerate() {
        if ti > 0 {
            w.write_all(b",")?;
        }
        write!(w, "\n{{\"name\":{}", esc(&th.name))?;
        if let Some(k) = &th.kind {
            write!(w, ",\"kind\":{}", esc(k))?;
        }
        if let Some(t) = th.os_tid {
            write!(w, ",\"os_tid\":{t}")?;
        }
        w.write_all(b",\"root\":")?;
        let t = &th.tree;
        for n in t.preorder() {
            let parent = t.parent(n);
            while let Some(&(top, _)) = path.last() {
                if Some(top) == parent {
                    break;
                }
                w.write_all(b"]}")?;
                path.pop();
            }
            if let Some(last) = path.last_mut() {
                if last.1 {
                    w.write_all(b",")?;
                }
                last.1 = true;
                w.write_all(b"\n")?;
            }
            let mut digits = [0u8; 20];
            w.write_all(b"{\"name\":")?;
            w.write_all(names[t.consumer(n) as usize].as_bytes())?;
            w.write_all(b",\"calls\":")?;
            w.write_all(u64_ascii(t.calls(n), &mut digits))?;
            w.write_all(b",\"base\":[")?;
            for (i, &b) in t.base(n).iter().enumerate() {
                if i > 0 {
                    w.write_all(b",")?;
                }
                w.write_all(u64_ascii(b, &mut digits))?;
            }
            w.write_all(b"],\"children\":[")?;
            path.push((n, false));
        }
        while path.pop().is_some() {
            w.write_all(b"]}")?;
        }
        w.write_all(b"}")?;
    }
    w.write_all(b"\n]}\n")?;
    Ok(())
}

/// arcflow.json of `profile` as bytes.
pub fn to_vec(profile: &Profile) -> Vec<u8> {
    let mut v = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = write(profile, &mut v);
    v
}

/// The decimal digits of `v`, written at the end of `buf` (the writer's numbers, and the
/// reports' text columns).
#[inline]
pub fn u64_ascii(mut v: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    &buf[i..]
}

/// Why an arcflow.json could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    pub message: String,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ReadError {}

/// Reads an arcflow.json document.
pub fn read(text: &str) -> Result<Profile, ReadError> {
    Parser { s: text.as_bytes(), text, pos: 0 }.document()
}

/// The major version of an arcflow.json document (which reader it needs), read from its
/// `version` field without reading the rest of the document.
pub fn version(text: &str) -> Result<u64, ReadError> {
    Parser { s: text.as_bytes(), text, pos: 0 }.peek_version()
}

#[derive(Debug, PartialEq)]
enum Tok<'a> {
    LBrace,
    RBrace,
    LBrack,
    RBrack,
    Colon,
    Comma,
    Str(Cow<'a, str>),
    Num(&'a str),
    True,
    False,
    Null,
    Eof,
}

impl Tok<'_> {
    fn describe(&self) -> String {
        match self {
            Tok::LBrace => "`{`".into(),
            Tok::RBrace => "`}`".into(),
            Tok::LBrack => "`[`".into(),
            Tok::RBrack => "`]`".into(),
            Tok::Colon => "`:`".into(),
            Tok::Comma => "`,`".into(),
            Tok::Str(s) => format!("string {:?}", truncate(s)),
            Tok::Num(n) => format!("number {n}"),
            Tok::True => "`true`".into(),
            Tok::False => "`false`".into(),
            Tok::Null => "`null`".into(),
            Tok::Eof => "the end of the file".into(),
        }
    }
}

fn truncate(s: &str) -> String {
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s.to_string()
    }
}

/// A node while reading: `consumer` and `base` are filled in as their keys are seen.
struct TmpNode {
    parent: u32,
    consumer: Option<u32>,
    calls: Option<u64>,
    base: Option<(usize, usize)>,
}

struct TmpThread {
    name: Option<String>,
    kind: Option<String>,
    os_tid: Option<u64>,
    nodes: Vec<TmpNode>,
    base: Vec<u64>,
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    pos: usize,
}

type R<T> = Result<T, ReadError>;

impl<'a> Parser<'a> {
    fn err<T>(&self, msg: impl fmt::Display) -> R<T> {
        let upto = &self.s[..self.pos.min(self.s.len())];
        let line = upto.iter().filter(|&&b| b == b'\n').count() + 1;
        let col = upto.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        Err(ReadError { message: format!("line {line}, column {col}: {msg}") })
    }

    fn ws(&mut self) {
        while self.pos < self.s.len() && matches!(self.s[self.pos], b' ' | b'\t' | b'\n' | b'\r') {
            self.pos += 1;
        }
    }

    fn next(&mut self) -> R<Tok<'a>> {
        self.ws();
        let Some(&b) = self.s.get(self.pos) else { return Ok(Tok::Eof) };
        let start = self.pos;
        self.pos += 1;
        Ok(match b {
            b'{' => Tok::LBrace,
            b'}' => Tok::RBrace,
            b'[' => Tok::LBrack,
            b']' => Tok::RBrack,
            b':' => Tok::Colon,
            b',' => Tok::Comma,
            b'"' => Tok::Str(self.string()?),
            b'-' | b'0'..=b'9' => {
                while self.pos < self.s.len() && matches!(self.s[self.pos], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') {
                    self.pos += 1;
                }
                Tok::Num(&self.text[start..self.pos])
            }
            b't' | b'f' | b'n' => {
                while self.pos < self.s.len() && self.s[self.pos].is_ascii_alphabetic() {
                    self.pos += 1;
                }
                match &self.text[start..self.pos] {
                    "true" => Tok::True,
                    "false" => Tok::False,
                    "null" => Tok::Null,
                    w => {
                        self.pos = start;
                        return self.err(format!("unexpected word `{}`", truncate(w)));
                    }
                }
            }
            _ => {
                self.pos = start;
                let c = self.text[start..].chars().next().unwrap_or('?');
                return self.err(format!("unexpected character {c:?}"));
            }
        })
    }

    /// The rest of a string after its opening quote.
    fn string(&mut self) -> R<Cow<'a, str>> {
        let start = self.pos;
        while self.pos < self.s.len() {
            match self.s[self.pos] {
                b'"' => {
                    let s = &self.text[start..self.pos];
                    self.pos += 1;
                    return Ok(Cow::Borrowed(s));
                }
                b'\\' => break,
                b if b < 0x20 => return self.err("control character inside a string"),
                _ => self.pos += 1,
            }
        }
        let mut out = String::from(&self.text[start..self.pos]);
        loop {
            let Some(&b) = self.s.get(self.pos) else { return self.err("unterminated string") };
            match b {
                b'"' => {
                    self.pos += 1;
                    return Ok(Cow::Owned(out));
                }
                b'\\' => {
                    self.pos += 1;
                    let Some(&e) = self.s.get(self.pos) else { return self.err("unterminated string") };
                    self.pos += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let c = if (0xD800..0xDC00).contains(&hi) {
                                if self.s.get(self.pos) != Some(&b'\\') || self.s.get(self.pos + 1) != Some(&b'u') {
                                    return self.err("unpaired surrogate in \\u escape");
                                }
                                self.pos += 2;
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return self.err("invalid low surrogate in \\u escape");
                                }
                                char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                            } else {
                                char::from_u32(hi)
                            };
                            match c {
                                Some(c) => out.push(c),
                                None => return self.err("invalid \\u escape"),
                            }
                        }
                        _ => return self.err("invalid escape in string"),
                    }
                }
                b if b < 0x20 => return self.err("control character inside a string"),
                _ => {
                    // Copy one UTF-8 character.
                    let ch = self.text[self.pos..].chars().next().unwrap_or('\u{fffd}');
                    out.push(ch);
                    self.pos += ch.len_utf8();
                }
            }
        }
    }

    fn hex4(&mut self) -> R<u32> {
        let Some(h) = self.text.get(self.pos..self.pos + 4) else { return self.err("short \\u escape") };
        match u32::from_str_radix(h, 16) {
            Ok(v) if h.bytes().all(|b| b.is_ascii_hexdigit()) => {
                self.pos += 4;
                Ok(v)
            }
            _ => self.err("invalid \\u escape"),
        }
    }

    fn expect(&mut self, want: Tok<'static>, what: &str) -> R<()> {
        let at = self.pos;
        let t = self.next()?;
        if t == want {
            Ok(())
        } else {
            self.pos = at;
            self.ws();
            self.err(format!("expected {what}, found {}", t.describe()))
        }
    }

    fn string_value(&mut self, key: &str) -> R<String> {
        let at = self.pos;
        match self.next()? {
            Tok::Str(s) => Ok(s.into_owned()),
            t => {
                self.pos = at;
                self.ws();
                self.err(format!("`{key}` must be a string, found {}", t.describe()))
            }
        }
    }

    fn u64_value(&mut self, key: &str) -> R<u64> {
        let at = self.pos;
        let t = self.next()?;
        if let Tok::Num(n) = t {
            if let Ok(v) = n.parse::<u64>() {
                return Ok(v);
            }
        }
        self.pos = at;
        self.ws();
        self.err(format!("`{key}` must be a non-negative integer, found {}", t.describe()))
    }

    fn u64_array(&mut self, key: &str, out: &mut Vec<u64>) -> R<()> {
        self.expect(Tok::LBrack, &format!("`[` to start `{key}`"))?;
        let at = self.pos;
        if self.next()? == Tok::RBrack {
            return Ok(());
        }
        self.pos = at;
        loop {
            out.push(self.u64_value(key)?);
            let at = self.pos;
            match self.next()? {
                Tok::Comma => continue,
                Tok::RBrack => return Ok(()),
                t => {
                    self.pos = at;
                    self.ws();
                    return self.err(format!("expected `,` or `]` in `{key}`, found {}", t.describe()));
                }
            }
        }
    }

    /// Skips one value of any shape, iteratively.
    fn skip_value(&mut self) -> R<()> {
        let mut depth = 0usize;
        loop {
            let at = self.pos;
            match self.next()? {
                Tok::LBrace | Tok::LBrack => depth += 1,
                Tok::RBrace | Tok::RBrack => {
                    if depth == 0 {
                        self.pos = at;
                        return self.err("unexpected closing bracket");
                    }
                    depth -= 1
                }
                Tok::Eof => return self.err("unexpected end of file"),
                Tok::Colon | Tok::Comma if depth == 0 => {
                    self.pos = at;
                    return self.err("expected a value");
                }
                _ => {}
            }
            if depth == 0 {
                return Ok(());
            }
        }
    }

    /// Iterates over the keys of an object whose `{` has been read: returns the next key (after its
    /// `:`), or `None` at the closing `}`. `first` is true before the first key.
    fn next_key(&mut self, first: bool) -> R<Option<Cow<'a, str>>> {
        let at = self.pos;
        let mut t = self.next()?;
        if t == Tok::RBrace {
            return Ok(None);
        }
        if !first {
            if t != Tok::Comma {
                self.pos = at;
                self.ws();
                return self.err(format!("expected `,` or `}}`, found {}", t.describe()));
            }
            t = self.next()?;
        }
        match t {
            Tok::Str(k) => {
                self.expect(Tok::Colon, "`:` after an object key")?;
                Ok(Some(k))
            }
            t => {
                self.pos = at;
                self.ws();
                self.err(format!("expected an object key, found {}", t.describe()))
            }
        }
    }

    fn document(mut self) -> R<Profile> {
        self.expect(Tok::LBrace, "a JSON object (an arcflow.json document starts with `{`)")?;
        let mut format: Option<String> = None;
        let mut version: Option<u64> = None;
        let mut consumer_label = None;
        let mut count_label = None;
        let mut metrics: Option<Vec<Metric>> = None;
        let mut threads: Vec<TmpThread> = Vec::new();
        let mut consumers = ConsumerTable::new();
        let mut first = true;
        while let Some(key) = self.next_key(first)? {
            first = false;
            match key.as_ref() {
                "format" => {
                    let f = self.string_value("format")?;
                    if f != FORMAT {
                        return self.err(format!("`format` is {f:?}, not {FORMAT:?}: this is not an arcflow.json file"));
                    }
                    format = Some(f);
                }
                "version" => {
                    let major = self.version_value()?;
                    if major != VERSION {
                        return Err(ReadError {
                            message: format!(
                                "unsupported arcflow.json version {major}: this hpm reads version {VERSION}; use the hpm that wrote the file, or a newer one"
                            ),
                        });
                    }
                    version = Some(major);
                }
                "consumer_label" => consumer_label = Some(self.string_value("consumer_label")?),
                "count_label" => count_label = Some(self.string_value("count_label")?),
                "metrics" => metrics = Some(self.metrics()?),
                "threads" => {
                    self.expect(Tok::LBrack, "`[` to start `threads`")?;
                    let mut first_t = true;
                    loop {
                        let at = self.pos;
                        match self.next()? {
                            Tok::RBrack => break,
                            Tok::Comma if !first_t => {}
                            Tok::LBrace if first_t => self.pos = at,
                            t => {
                                self.pos = at;
                                self.ws();
                                return self.err(format!("expected a thread object in `threads`, found {}", t.describe()));
                            }
                        }
                        first_t = false;
                        threads.push(self.thread(&mut consumers)?);
                    }
                }
                _ => self.skip_value()?,
            }
        }
        if self.next()? != Tok::Eof {
            return self.err("unexpected data after the document");
        }
        if format.is_none() {
            return self.err(format!("no `format` field: this is not an arcflow.json file (expected \"format\":\"{FORMAT}\")"));
        }
        if version.is_none() {
            return self.err("no `version` field");
        }
        let metrics = match metrics {
            Some(m) => m,
            None => return self.err("no `metrics` field"),
        };
        let bindings = Bindings {
            consumer_label: consumer_label.unwrap_or_else(|| "consumers".into()),
            count_label: count_label.unwrap_or_else(|| "calls".into()),
            metrics,
        };
        let m = bindings.metrics.len();
        let mut out_threads = Vec::with_capacity(threads.len());
        for (ti, t) in threads.into_iter().enumerate() {
            let root_consumer = t.nodes[0].consumer.unwrap_or(0);
            let mut tree = Tree::new(root_consumer, m);
            let mut map: Vec<NodeId> = Vec::with_capacity(t.nodes.len());
            for (i, node) in t.nodes.iter().enumerate() {
                let (bs, bl) = node.base.unwrap_or((0, 0));
                if bl != m {
                    return Err(ReadError {
                        message: format!(
                            "thread {ti}: a node of `{}` has {bl} base values but there are {m} metrics",
                            node.consumer.map(|c| consumers.name(c).to_string()).unwrap_or_default()
                        ),
                    });
                }
                let n = if i == 0 { Tree::ROOT } else { tree.child(map[node.parent as usize], node.consumer.unwrap_or(0)) };
                map.push(n);
                tree.add_calls(n, node.calls.unwrap_or(0));
                tree.add_base(n, &t.base[bs..bs + bl]);
            }
            let name = match t.name {
                Some(n) => n,
                None => consumers.name(root_consumer).to_string(),
            };
            out_threads.push(ThreadProfile { name, kind: t.kind, os_tid: t.os_tid, tree });
        }
        Ok(Profile { bindings, consumers, threads: out_threads })
    }

    /// The major version from a `version` value (`1`, `1.2` or `"1.2"`).
    fn version_value(&mut self) -> R<u64> {
        let at = self.pos;
        let t = self.next()?;
        let major = match t {
            Tok::Num(n) => n.split('.').next().and_then(|m| m.parse::<u64>().ok()),
            Tok::Str(ref s) => s.split('.').next().and_then(|m| m.parse::<u64>().ok()),
            _ => None,
        };
        match major {
            Some(major) => Ok(major),
            None => {
                self.pos = at;
                self.ws();
                self.err(format!("`version` must be a version number, found {}", t.describe()))
            }
        }
    }

    /// The document's major version: its top-level keys are read up to `version`, the values
    /// before it skipped (without recursion, so a deep version 1 file costs no stack).
    fn peek_version(mut self) -> R<u64> {
        self.expect(Tok::LBrace, "a JSON object (an arcflow.json document starts with `{`)")?;
        let mut first = true;
        while let Some(key) = self.next_key(first)? {
            first = false;
            match key.as_ref() {
                "format" => {
                    let f = self.string_value("format")?;
                    if f != FORMAT {
                        return self.err(format!("`format` is {f:?}, not {FORMAT:?}: this is not an arcflow.json file"));
                    }
                }
                "version" => return self.version_value(),
                _ => self.skip_value()?,
            }
        }
        self.err("no `version` field")
    }

    fn metrics(&mut self) -> R<Vec<Metric>> {
        self.expect(Tok::LBrack, "`[` to start `metrics`")?;
        let mut out = Vec::new();
        let mut first = true;
        loop {
            let at = self.pos;
            match self.next()? {
                Tok::RBrack => return Ok(out),
                Tok::Comma if !first => self.expect(Tok::LBrace, "a metric object `{\"name\":…,\"unit\":…}`")?,
                Tok::LBrace if first => {}
                t => {
                    self.pos = at;
                    self.ws();
                    return self.err(format!("expected a metric object in `metrics`, found {}", t.describe()));
                }
            }
            first = false;
            let (mut name, mut unit, mut mode) = (None, None, MetricMode::Exact);
            let mut k_first = true;
            while let Some(key) = self.next_key(k_first)? {
                k_first = false;
                match key.as_ref() {
                    "name" => name = Some(self.string_value("name")?),
                    "unit" => unit = Some(self.string_value("unit")?),
                    // Optional (files written before it existed are exact).
                    "mode" => {
                        mode = match self.string_value("mode")?.as_ref() {
                            "exact" => MetricMode::Exact,
                            "sampled" => MetricMode::Sampled,
                            other => return self.err(format!("unknown metric mode `{other}` (valid: exact, sampled)")),
                        }
                    }
                    _ => self.skip_value()?,
                }
            }
            match name {
                Some(name) => out.push(Metric { name, unit: unit.unwrap_or_default(), mode }),
                None => return self.err("a metric without `name`"),
            }
        }
    }

    fn thread(&mut self, consumers: &mut ConsumerTable) -> R<TmpThread> {
        self.expect(Tok::LBrace, "a thread object")?;
        let mut t = TmpThread { name: None, kind: None, os_tid: None, nodes: Vec::new(), base: Vec::new() };
        let mut first = true;
        while let Some(key) = self.next_key(first)? {
            first = false;
            match key.as_ref() {
                "name" => t.name = Some(self.string_value("name")?),
                "kind" => {
                    let at = self.pos;
                    if self.next()? != Tok::Null {
                        self.pos = at;
                        t.kind = Some(self.string_value("kind")?);
                    }
                }
                "os_tid" => {
                    let at = self.pos;
                    if self.next()? != Tok::Null {
                        self.pos = at;
                        t.os_tid = Some(self.u64_value("os_tid")?);
                    }
                }
                "root" => {
                    if !t.nodes.is_empty() {
                        return self.err("a thread with two `root` fields");
                    }
                    self.tree(consumers, &mut t)?
                }
                _ => self.skip_value()?,
            }
        }
        if t.nodes.is_empty() {
            return self.err("a thread without `root`");
        }
        Ok(t)
    }

    /// Reads a node and all its descendants without recursion.
    fn tree(&mut self, consumers: &mut ConsumerTable, t: &mut TmpThread) -> R<()> {
        // Nodes whose key loop is suspended while their `children` array is read.
        let mut stack: Vec<u32> = Vec::new();
        let mut cur = self.start_node(t, u32::MAX)?;
        let mut first = true;
        loop {
            match self.next_key(first)? {
                None => {
                    let node = &t.nodes[cur as usize];
                    if node.consumer.is_none() {
                        return self.err("a node without `name`");
                    }
                    if node.calls.is_none() {
                        return self.err("a node without `calls`");
                    }
                    if node.base.is_none() {
                        return self.err("a node without `base`");
                    }
                    let Some(parent) = stack.last().copied() else { return Ok(()) };
                    // Inside the parent's `children`: another child, or the end of the array.
                    let at = self.pos;
                    match self.next()? {
                        Tok::Comma => {
                            cur = self.start_node(t, parent)?;
                            first = true;
                        }
                        Tok::RBrack => {
                            stack.pop();
                            cur = parent;
                            first = false;
                        }
                        tok => {
                            self.pos = at;
                            self.ws();
                            return self.err(format!("expected `,` or `]` in `children`, found {}", tok.describe()));
                        }
                    }
                }
                Some(key) => {
                    first = false;
                    match key.as_ref() {
                        "name" => {
                            let at = self.pos;
                            let name = match self.next()? {
                                Tok::Str(s) => s,
                                tok => {
                                    self.pos = at;
                                    self.ws();
                                    return self.err(format!("`name` must be a string, found {}", tok.describe()));
                                }
                            };
                            t.nodes[cur as usize].consumer = Some(consumers.intern(&name));
                        }
                        "calls" => t.nodes[cur as usize].calls = Some(self.u64_value("calls")?),
                        "base" => {
                            let start = t.base.len();
                            self.u64_array("base", &mut t.base)?;
                            t.nodes[cur as usize].base = Some((start, t.base.len() - start));
                        }
                        "children" => {
                            self.expect(Tok::LBrack, "`[` to start `children`")?;
                            let at = self.pos;
                            if self.next()? != Tok::RBrack {
                                self.pos = at;
                                stack.push(cur);
                                cur = self.start_node(t, cur)?;
                                first = true;
                            }
                        }
                        _ => self.skip_value()?,
                    }
                }
            }
        }
    }

    fn start_node(&mut self, t: &mut TmpThread, parent: u32) -> R<u32> {
        self.expect(Tok::LBrace, "a node object `{\"name\":…,\"calls\":…,\"base\":[…],\"children\":[…]}`")?;
        let id = t.nodes.len();
        if id >= u32::MAX as usize - 1 {
            return self.err("too many nodes in one thread");
        }
        t.nodes.push(TmpNode { parent, consumer: None, calls: None, base: None });
        Ok(id as u32)
    }
}
