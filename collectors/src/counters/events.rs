//! Event names as `perf` accepts them, parsed into perf_event_attr settings.
//!
//! Parsing opens nothing: sysfs PMU events only read `/sys/bus/event_source/devices/<pmu>/`
//! (or another root given to [`parse_event_in`], which the unit tests use).

use std::fmt;
use std::path::{Path, PathBuf};

/// `perf_event_attr.type` values (linux/perf_event.h).
pub const PERF_TYPE_HARDWARE: u32 = 0;
pub const PERF_TYPE_SOFTWARE: u32 = 1;
pub const PERF_TYPE_TRACEPOINT: u32 = 2;
pub const PERF_TYPE_HW_CACHE: u32 = 3;
pub const PERF_TYPE_RAW: u32 = 4;

/// Where PMUs are described.
pub const SYSFS_PMU_ROOT: &str = "/sys/bus/event_source/devices";

/// What kind of event a name denotes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// Generic hardware event (`cycles`, `instructions`, …): needs a hardware PMU.
    Hardware,
    /// Hardware cache event (`L1-dcache-load-misses`, …): needs a hardware PMU.
    HwCache,
    /// Kernel software event (`task-clock`, `page-faults`, …).
    Software,
    /// Raw PMU event `rNNNN`: needs a hardware PMU.
    Raw,
    /// Event of a sysfs PMU (`msr/tsc/`, `cpu/event=0x3c/`).
    Pmu,
}

impl EventKind {
    /// Whether the event needs the CPU's hardware PMU (so ENOENT means "no PMU").
    pub fn needs_hardware_pmu(self) -> bool {
        matches!(self, EventKind::Hardware | EventKind::HwCache | EventKind::Raw)
    }
}

/// A parsed event: the name it was asked by, and what to put into perf_event_attr.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventSpec {
    /// The name as written (used as the arcflow metric name).
    pub name: String,
    pub kind: EventKind,
    /// perf_event_attr.type
    pub type_: u32,
    pub config: u64,
    pub config1: u64,
    pub config2: u64,
    /// Privilege-level modifier (`:u`, `:k`, `:uk`): `Some(true)` = count user only,
    /// `Some(false)` = count kernel only, `None` = the group's setting.
    pub modifier: Option<Modifier>,
    /// `ns` for task-clock/cpu-clock, empty for counts.
    pub unit: &'static str,
}

/// `:u` / `:k` / `:uk` modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Modifier {
    pub user: bool,
    pub kernel: bool,
}

impl EventSpec {
    /// Software events that the kernel only ever counts in kernel mode (in `schedule()` or the
    /// migration path): with kernel events excluded they always read 0.
    pub fn is_kernel_side(&self) -> bool {
        self.type_ == PERF_TYPE_SOFTWARE
            && matches!(self.config, SW_CONTEXT_SWITCHES | SW_CPU_MIGRATIONS | SW_CGROUP_SWITCHES)
    }
}

/// An event name that could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventParseError {
    pub name: String,
    pub reason: String,
}

/// The kinds of names that are accepted, for error messages.
pub const VALID_KINDS: &str = "valid kinds: generic hardware events (cycles, instructions, cache-references, \
cache-misses, branches, branch-misses, bus-cycles, ref-cycles, stalled-cycles-frontend, stalled-cycles-backend), \
hardware cache events (<L1-dcache|L1-icache|LLC|dTLB|iTLB|branch|node>-<loads|stores|prefetches>[-misses], \
e.g. L1-dcache-load-misses), software events (task-clock, cpu-clock, page-faults, minor-faults, major-faults, \
context-switches, cpu-migrations, alignment-faults, emulation-faults, cgroup-switches), raw events rNNNN (hex), \
PMU events pmu/term=value,.../ or pmu/name/ from /sys/bus/event_source/devices (e.g. msr/tsc/); \
optional modifier :u, :k or :uk";

impl fmt::Display for EventParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown event `{}`: {}; {}", self.name, self.reason, VALID_KINDS)
    }
}

impl std::error::Error for EventParseError {}

// Generic hardware event ids (PERF_COUNT_HW_*).
const HARDWARE: &[(&str, u64)] = &[
    ("cycles", 0),
    ("cpu-cycles", 0),
    ("instructions", 1),
    ("cache-references", 2),
    ("cache-misses", 3),
    ("branches", 4),
    ("branch-instructions", 4),
    ("branch-misses", 5),
    ("bus-cycles", 6),
    ("stalled-cycles-frontend", 7),
    ("idle-cycles-frontend", 7),
    ("stalled-cycles-backend", 8),
    ("idle-cycles-backend", 8),
    ("ref-cycles", 9),
];

pub const SW_CPU_CLOCK: u64 = 0;
pub const SW_TASK_CLOCK: u64 = 1;
pub const SW_PAGE_FAULTS: u64 = 2;
pub const SW_CONTEXT_SWITCHES: u64 = 3;
pub const SW_CPU_MIGRATIONS: u64 = 4;
pub const SW_CGROUP_SWITCHES: u64 = 11;

// Software event ids (PERF_COUNT_SW_*).
const SOFTWARE: &[(&str, u64)] = &[
    ("cpu-clock", SW_CPU_CLOCK),
    ("task-clock", SW_TASK_CLOCK),
    ("page-faults", SW_PAGE_FAULTS),
    ("faults", SW_PAGE_FAULTS),
    ("context-switches", SW_CONTEXT_SWITCHES),
    ("cs", SW_CONTEXT_SWITCHES),
    ("cpu-migrations", SW_CPU_MIGRATIONS),
    ("migrations", SW_CPU_MIGRATIONS),
    ("minor-faults", 5),
    ("major-faults", 6),
    ("alignment-faults", 7),
    ("emulation-faults", 8),
    ("cgroup-switches", SW_CGROUP_SWITCHES),
];

// Hardware cache ids, ops and results (PERF_COUNT_HW_CACHE_*), with perf's aliases.
const CACHES: &[(&[&str], u64)] = &[
    (&["l1-dcache", "l1-d", "l1d", "l1-data"], 0),
    (&["l1-icache", "l1-i", "l1i", "l1-instruction"], 1),
    (&["llc", "l2"], 2),
    (&["dtlb", "d-tlb", "data-tlb"], 3),
    (&["itlb", "i-tlb", "instruction-tlb"], 4),
    (&["branch", "branches", "bpu", "btb", "bpc"], 5),
    (&["node"], 6),
];
const CACHE_OPS: &[(&[&str], u64)] = &[
    (&["load", "loads", "read"], 0),
    (&["store", "stores", "write"], 1),
    (&["prefetch", "prefetches", "speculative-read", "speculative-load"], 2),
];
const CACHE_RESULTS: &[(&[&str], u64)] = &[
    (&["refs", "reference", "ops", "access"], 0),
    (&["misses", "miss"], 1),
];

/// Every generic hardware, hardware cache and software event name (one canonical spelling each),
/// for [`available_events`](super::available_events).
pub fn known_event_names() -> Vec<String> {
    let mut v: Vec<String> = [
        "cycles",
        "instructions",
        "cache-references",
        "cache-misses",
        "branches",
        "branch-misses",
        "bus-cycles",
        "stalled-cycles-frontend",
        "stalled-cycles-backend",
        "ref-cycles",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for c in ["L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node"] {
        for (ops, op) in [("loads", "load"), ("stores", "store"), ("prefetches", "prefetch")] {
            v.push(format!("{c}-{ops}"));
            v.push(format!("{c}-{op}-misses"));
        }
    }
    for s in [
        "task-clock",
        "cpu-clock",
        "page-faults",
        "minor-faults",
        "major-faults",
        "context-switches",
        "cpu-migrations",
        "alignment-faults",
        "emulation-faults",
        "cgroup-switches",
    ] {
        v.push(s.to_string());
    }
    v
}

/// Parses an event name, reading sysfs PMU descriptions from [`SYSFS_PMU_ROOT`].
pub fn parse_event(name: &str) -> Result<EventSpec, EventParseError> {
    parse_event_in(name, Path::new(SYSFS_PMU_ROOT))
}

/// Parses an event name with sysfs PMU descriptions read under `pmu_root`.
pub fn parse_event_in(name: &str, pmu_root: &Path) -> Result<EventSpec, EventParseError> {
    let err = |reason: String| EventParseError { name: name.to_string(), reason };
    let trimmed = name.trim();
    if trimmed.is_empty() {
        return Err(err("empty event name".into()));
    }
    // Split a trailing `:mods` (for pmu/.../ also `pmu/.../mods`).
    let (base, modifier) = split_modifier(trimmed).map_err(err)?;
    let mut spec = if base.contains('/') {
        parse_pmu(base, pmu_root).map_err(err)?
    } else if let Some(spec) = parse_simple(base) {
        spec
    } else {
        return Err(err("not a known event name".into()));
    };
    spec.name = trimmed.to_string();
    spec.modifier = modifier;
    Ok(spec)
}

fn split_modifier(s: &str) -> Result<(&str, Option<Modifier>), String> {
    let parse = |m: &str| -> Result<Option<Modifier>, String> {
        if m.is_empty() {
            return Ok(None);
        }
        let mut md = Modifier { user: false, kernel: false };
        for c in m.chars() {
            match c {
                'u' => md.user = true,
                'k' => md.kernel = true,
                _ => return Err(format!("unsupported modifier `{c}` (only u and k are supported)")),
            }
        }
        Ok(Some(md))
    };
    if s.contains('/') {
        // pmu/terms/[:]mods
        let last = s.rfind('/').unwrap();
        let tail = s[last + 1..].trim_start_matches(':');
        return Ok((&s[..=last], parse(tail)?));
    }
    match s.rfind(':') {
        Some(i) => Ok((&s[..i], parse(&s[i + 1..])?)),
        None => Ok((s, None)),
    }
}

fn simple(kind: EventKind, type_: u32, config: u64, unit: &'static str) -> EventSpec {
    EventSpec { name: String::new(), kind, type_, config, config1: 0, config2: 0, modifier: None, unit }
}

fn lookup(table: &[(&[&str], u64)], s: &str) -> Option<u64> {
    table.iter().find(|(names, _)| names.contains(&s)).map(|(_, v)| *v)
}

fn parse_simple(s: &str) -> Option<EventSpec> {
    let lower = s.to_ascii_lowercase();
    if let Some((_, id)) = HARDWARE.iter().find(|(n, _)| *n == lower) {
        return Some(simple(EventKind::Hardware, PERF_TYPE_HARDWARE, *id, ""));
    }
    if let Some((_, id)) = SOFTWARE.iter().find(|(n, _)| *n == lower) {
        let unit = if *id == SW_CPU_CLOCK || *id == SW_TASK_CLOCK { "ns" } else { "" };
        return Some(simple(EventKind::Software, PERF_TYPE_SOFTWARE, *id, unit));
    }
    // Raw: r followed by hex digits (perf: rNNN, with an optional 0x).
    if let Some(hex) = lower.strip_prefix('r') {
        let hex = hex.strip_prefix("0x").unwrap_or(hex);
        if !hex.is_empty() && hex.len() <= 16 && hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return Some(simple(EventKind::Raw, PERF_TYPE_RAW, u64::from_str_radix(hex, 16).ok()?, ""));
        }
    }
    parse_cache(&lower).map(|c| simple(EventKind::HwCache, PERF_TYPE_HW_CACHE, c, ""))
}

/// `<cache>[-<op>][-<result>]`; the cache name itself may contain dashes (`L1-dcache`, `d-tlb`).
fn parse_cache(s: &str) -> Option<u64> {
    let parts: Vec<&str> = s.split('-').collect();
    for cut in (1..=parts.len()).rev() {
        let cache_name = parts[..cut].join("-");
        let Some(cache) = lookup(CACHES, &cache_name) else { continue };
        let rest = &parts[cut..];
        // The rest is [op][-result] where op and result may also contain dashes
        // ("speculative-read"): try every split.
        for split in 0..=rest.len() {
            let op_s = rest[..split].join("-");
            let res_s = rest[split..].join("-");
            let op = if op_s.is_empty() { Some(0) } else { lookup(CACHE_OPS, &op_s) };
            let res = if res_s.is_empty() { Some(0) } else { lookup(CACHE_RESULTS, &res_s) };
            if let (Some(op), Some(res)) = (op, res) {
                return Some(cache | (op << 8) | (res << 16));
            }
        }
        return None;
    }
    None
}

/// A bit field of a PMU format: which config word and which bits (possibly several ranges).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatField {
    /// 0 = config, 1 = config1, 2 = config2.
    pub word: usize,
    /// (low bit, high bit), inclusive.
    pub ranges: Vec<(u32, u32)>,
}

impl FormatField {
    /// Parses a `format/<term>` file such as `config:0-7`, `config:0-7,21` or `config1:0-15`.
    pub fn parse(s: &str) -> Result<FormatField, String> {
        let s = s.trim();
        let (word, bits) = s.split_once(':').ok_or_else(|| format!("bad format `{s}`"))?;
        let word = match word {
            "config" => 0,
            "config1" => 1,
            "config2" => 2,
            other => return Err(format!("unsupported format word `{other}`")),
        };
        let mut ranges = Vec::new();
        for r in bits.split(',') {
            let (lo, hi) = match r.split_once('-') {
                Some((a, b)) => (a.trim().parse::<u32>(), b.trim().parse::<u32>()),
                None => (r.trim().parse::<u32>(), r.trim().parse::<u32>()),
            };
            match (lo, hi) {
                (Ok(lo), Ok(hi)) if lo <= hi && hi < 64 => ranges.push((lo, hi)),
                _ => return Err(format!("bad bit range `{r}` in format `{s}`")),
            }
        }
        Ok(FormatField { word, ranges })
    }

    /// Total width in bits.
    pub fn width(&self) -> u32 {
        self.ranges.iter().map(|(lo, hi)| hi - lo + 1).sum()
    }

    /// Scatters `value` into the bit ranges (low bits of `value` into the first range).
    pub fn apply(&self, value: u64, config: &mut [u64; 3]) -> Result<(), String> {
        let w = self.width();
        if w < 64 && value >> w != 0 {
            return Err(format!("value {value:#x} does not fit in {w} bits"));
        }
        let mut v = value;
        for &(lo, hi) in &self.ranges {
            let n = hi - lo + 1;
            let mask = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
            config[self.word] |= (v & mask) << lo;
            v = if n == 64 { 0 } else { v >> n };
        }
        Ok(())
    }
}

fn parse_number(s: &str) -> Option<u64> {
    let s = s.trim();
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else {
        s.parse().ok()
    }
}

/// `pmu/term=val,term=val/` or `pmu/name/` (name from `events/`), terms from `format/`.
fn parse_pmu(s: &str, root: &Path) -> Result<EventSpec, String> {
    let inner = s.strip_suffix('/').ok_or_else(|| "PMU events are written pmu/terms/".to_string())?;
    let (pmu, terms) = inner.split_once('/').ok_or_else(|| "PMU events are written pmu/terms/".to_string())?;
    if pmu.is_empty() || pmu.contains("..") || terms.contains('/') {
        return Err("PMU events are written pmu/terms/".into());
    }
    let dir: PathBuf = root.join(pmu);
    let type_s = std::fs::read_to_string(dir.join("type")).map_err(|_| {
        let known = list_pmus(root).join(", ");
        format!("no PMU `{pmu}` in {} (PMUs here: {known})", root.display())
    })?;
    let type_: u32 = type_s.trim().parse().map_err(|_| format!("bad type file for PMU `{pmu}`"))?;
    let mut config = [0u64; 3];
    let mut expanded = Vec::new();
    for term in terms.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        if term.contains('=') {
            expanded.push(term.to_string());
        } else if let Ok(def) = std::fs::read_to_string(dir.join("events").join(term)) {
            // A named event: its file holds terms like `event=0x3c,umask=0x00`.
            expanded.extend(def.trim().split(',').map(|t| t.trim().to_string()).filter(|t| !t.is_empty()));
        } else {
            // A bare format term means term=1 (e.g. `inv`, `edge`).
            if dir.join("format").join(term).exists() {
                expanded.push(format!("{term}=1"));
            } else {
                let events = list_dir(&dir.join("events"));
                return Err(format!(
                    "PMU `{pmu}` has no event `{term}` (its events: {})",
                    if events.is_empty() { "none".to_string() } else { events.join(", ") }
                ));
            }
        }
    }
    if expanded.is_empty() {
        return Err(format!("no terms given for PMU `{pmu}`"));
    }
    for term in &expanded {
        let (k, v) = term.split_once('=').unwrap_or((term.as_str(), "1"));
        let k = k.trim();
        let value = parse_number(v).ok_or_else(|| format!("term `{term}` of PMU `{pmu}` needs a number"))?;
        match k {
            "config" => config[0] |= value,
            "config1" => config[1] |= value,
            "config2" => config[2] |= value,
            "name" | "period" | "freq" => {}
            _ => {
                let fmt = std::fs::read_to_string(dir.join("format").join(k)).map_err(|_| {
                    let fields = list_dir(&dir.join("format"));
                    format!("PMU `{pmu}` has no format term `{k}` (its terms: {})", fields.join(", "))
                })?;
                let field = FormatField::parse(&fmt)?;
                field.apply(value, &mut config).map_err(|e| format!("term `{k}`: {e}"))?;
            }
        }
    }
    let kind = if type_ == PERF_TYPE_SOFTWARE { EventKind::Software } else { EventKind::Pmu };
    let unit = if type_ == PERF_TYPE_SOFTWARE && (config[0] == SW_CPU_CLOCK || config[0] == SW_TASK_CLOCK) {
        "ns"
    } else {
        ""
    };
    Ok(EventSpec {
        name: String::new(),
        kind,
        type_,
        config: config[0],
        config1: config[1],
        config2: config[2],
        modifier: None,
        unit,
    })
}

fn list_dir(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

/// PMUs described under `root`.
pub fn list_pmus(root: &Path) -> Vec<String> {
    list_dir(root)
}

/// Named events of every sysfs PMU under `root`, as `pmu/name/` (skipping `.scale`/`.unit` files
/// and events with unresolved parameters such as `cpu=?`).
pub fn sysfs_named_events(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for pmu in list_pmus(root) {
        let dir = root.join(&pmu).join("events");
        for ev in list_dir(&dir) {
            if ev.contains('.') {
                continue;
            }
            let def = std::fs::read_to_string(dir.join(&ev)).unwrap_or_default();
            if def.contains('?') {
                continue;
            }
            out.push(format!("{pmu}/{ev}/"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> EventSpec {
        parse_event_in(s, Path::new("/nonexistent")).unwrap()
    }

    #[test]
    fn generic_hardware_events() {
        for (n, id) in [
            ("cycles", 0),
            ("cpu-cycles", 0),
            ("instructions", 1),
            ("cache-references", 2),
            ("cache-misses", 3),
            ("branches", 4),
            ("branch-instructions", 4),
            ("branch-misses", 5),
            ("bus-cycles", 6),
            ("stalled-cycles-frontend", 7),
            ("stalled-cycles-backend", 8),
            ("ref-cycles", 9),
        ] {
            let e = p(n);
            assert_eq!((e.kind, e.type_, e.config, e.unit), (EventKind::Hardware, 0, id, ""), "{n}");
            assert_eq!(e.name, n);
        }
    }

    #[test]
    fn software_events_and_units() {
        for (n, id, unit) in [
            ("task-clock", 1, "ns"),
            ("cpu-clock", 0, "ns"),
            ("page-faults", 2, ""),
            ("faults", 2, ""),
            ("minor-faults", 5, ""),
            ("major-faults", 6, ""),
            ("context-switches", 3, ""),
            ("cs", 3, ""),
            ("cpu-migrations", 4, ""),
            ("migrations", 4, ""),
            ("alignment-faults", 7, ""),
            ("emulation-faults", 8, ""),
        ] {
            let e = p(n);
            assert_eq!((e.kind, e.type_, e.config, e.unit), (EventKind::Software, 1, id, unit), "{n}");
        }
        assert!(p("cs").is_kernel_side());
        assert!(!p("page-faults").is_kernel_side());
    }

    #[test]
    fn cache_events() {
        let c = |s| p(s).config;
        assert_eq!(p("L1-dcache-load-misses").type_, PERF_TYPE_HW_CACHE);
        assert_eq!(c("L1-dcache-load-misses"), 1 << 16); // L1D (0) | read (0) << 8 | miss (1) << 16
        assert_eq!(c("L1-dcache-loads"), 0);
        assert_eq!(c("L1-icache-load-misses"), 1 | (1 << 16));
        assert_eq!(c("LLC-load-misses"), 2 | (1 << 16));
        assert_eq!(c("LLC-store-misses"), 2 | (1 << 8) | (1 << 16));
        assert_eq!(c("LLC-prefetches"), 2 | (2 << 8));
        assert_eq!(c("dTLB-load-misses"), 3 | (1 << 16));
        assert_eq!(c("iTLB-load-misses"), 4 | (1 << 16));
        assert_eq!(c("branch-load-misses"), 5 | (1 << 16));
        assert_eq!(c("branch-loads"), 5);
        assert_eq!(c("node-loads"), 6);
        assert_eq!(c("L1-dcache-speculative-read-misses"), 2 << 8 | 1 << 16);
        assert_eq!(c("l1-dcache-misses"), 1 << 16);
        assert!(parse_event_in("L1-dcache-lods", Path::new("/x")).is_err());
        // Every listed name parses.
        for n in known_event_names() {
            p(&n);
        }
    }

    #[test]
    fn raw_events_and_modifiers() {
        let e = p("r01c2");
        assert_eq!((e.kind, e.type_, e.config), (EventKind::Raw, PERF_TYPE_RAW, 0x1c2));
        assert_eq!(p("r0x3c").config, 0x3c);
        assert!(parse_event_in("rxyz", Path::new("/x")).is_err());
        let u = p("cycles:u");
        assert_eq!(u.name, "cycles:u");
        assert_eq!(u.modifier, Some(Modifier { user: true, kernel: false }));
        assert_eq!(p("cs:k").modifier, Some(Modifier { user: false, kernel: true }));
        assert!(parse_event_in("cycles:q", Path::new("/x")).is_err());
    }

    #[test]
    fn unknown_name_lists_kinds() {
        let e = parse_event_in("bogus-event", Path::new("/x")).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("`bogus-event`") && msg.contains("valid kinds") && msg.contains("task-clock"), "{msg}");
    }

    #[test]
    fn format_fields() {
        let f = FormatField::parse("config:0-7,21").unwrap();
        assert_eq!(f.width(), 9);
        let mut c = [0; 3];
        f.apply(0x1ff, &mut c).unwrap();
        assert_eq!(c[0], 0xff | (1 << 21));
        assert!(f.apply(0x200, &mut [0; 3]).is_err());
        let g = FormatField::parse("config1:0-63").unwrap();
        let mut c = [0; 3];
        g.apply(u64::MAX, &mut c).unwrap();
        assert_eq!(c, [0, u64::MAX, 0]);
        assert!(FormatField::parse("bogus").is_err());
    }

    /// A sysfs-like tree of two PMUs, removed when the returned directory is dropped.
    fn fake_sysfs() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let cpu = root.join("cpu");
        std::fs::create_dir_all(cpu.join("format")).unwrap();
        std::fs::create_dir_all(cpu.join("events")).unwrap();
        std::fs::write(cpu.join("type"), "4\n").unwrap();
        std::fs::write(cpu.join("format/event"), "config:0-7\n").unwrap();
        std::fs::write(cpu.join("format/umask"), "config:8-15\n").unwrap();
        std::fs::write(cpu.join("format/inv"), "config:23\n").unwrap();
        std::fs::write(cpu.join("format/cmask"), "config:24-31\n").unwrap();
        std::fs::write(cpu.join("format/ldlat"), "config1:0-15\n").unwrap();
        std::fs::write(cpu.join("events/cpu-cycles"), "event=0x3c\n").unwrap();
        std::fs::write(cpu.join("events/mem-loads"), "event=0xcd,umask=0x1,ldlat=3\n").unwrap();
        std::fs::write(cpu.join("events/cpu-cycles.scale"), "1\n").unwrap();
        std::fs::write(cpu.join("events/per-cpu"), "event=0x1,cpu=?\n").unwrap();
        let msr = root.join("msr");
        std::fs::create_dir_all(msr.join("format")).unwrap();
        std::fs::create_dir_all(msr.join("events")).unwrap();
        std::fs::write(msr.join("type"), "10\n").unwrap();
        std::fs::write(msr.join("format/event"), "config:0-63\n").unwrap();
        std::fs::write(msr.join("events/tsc"), "event=0x00\n").unwrap();
        std::fs::write(msr.join("events/smi"), "event=0x04\n").unwrap();
        dir
    }

    #[test]
    fn sysfs_pmu_events() {
        let dir = fake_sysfs();
        let root = dir.path();
        let e = parse_event_in("cpu/event=0x3c,umask=0x00/", root).unwrap();
        assert_eq!((e.kind, e.type_, e.config), (EventKind::Pmu, 4, 0x3c));
        let e = parse_event_in("cpu/event=0xc0,umask=0x1,inv,cmask=2/", root).unwrap();
        assert_eq!(e.config, 0xc0 | (1 << 8) | (1 << 23) | (2 << 24));
        let e = parse_event_in("cpu/mem-loads/", root).unwrap();
        assert_eq!((e.config, e.config1), (0xcd | (1 << 8), 3));
        let e = parse_event_in("cpu/cpu-cycles/u", root).unwrap();
        assert_eq!((e.config, e.modifier.unwrap().user), (0x3c, true));
        assert_eq!(e.name, "cpu/cpu-cycles/u");
        let e = parse_event_in("msr/tsc/", root).unwrap();
        assert_eq!((e.type_, e.config), (10, 0));
        assert_eq!(parse_event_in("msr/smi/", root).unwrap().config, 4);
        let e = parse_event_in("cpu/config=0x1234/", root).unwrap();
        assert_eq!(e.config, 0x1234);

        let err = parse_event_in("nopmu/event=1/", root).unwrap_err().to_string();
        assert!(err.contains("no PMU `nopmu`") && err.contains("cpu, msr"), "{err}");
        let err = parse_event_in("msr/bogus/", root).unwrap_err().to_string();
        assert!(err.contains("no event `bogus`") && err.contains("smi, tsc"), "{err}");
        let err = parse_event_in("cpu/foo=1/", root).unwrap_err().to_string();
        assert!(err.contains("no format term `foo`"), "{err}");
        assert!(parse_event_in("cpu/event=0x1ff/", root).is_err());
        assert!(parse_event_in("cpu/event=0x3c", root).is_err());

        let named = sysfs_named_events(root);
        assert_eq!(named, ["cpu/cpu-cycles/", "cpu/mem-loads/", "msr/smi/", "msr/tsc/"]);
    }
}
