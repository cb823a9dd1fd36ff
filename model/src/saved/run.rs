//! Which run a report directory belongs to: the `Run:` line at the top of `threads.txt` and the
//! `run` object of `threads.json`. The times are the saved ones (`arcflow.json`'s `run`), so
//! reports regenerated later say when the run was dumped, not when they were regenerated.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A run: its process id, main class and start time, and when it was dumped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunIdentity {
    pub pid: u32,
    /// The main class (or jar) from the command line; empty when unknown.
    pub main: String,
    /// When the process started, in ms since the Unix epoch (UTC), if known.
    pub started_unix_ms: Option<u64>,
    /// When these reports were dumped, in ms since the Unix epoch (UTC).
    pub dumped_unix_ms: u64,
}

/// Milliseconds since the Unix epoch (0 before it).
pub fn unix_ms(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

impl RunIdentity {
    /// One line for the top of `threads.txt`.
    pub fn line(&self) -> String {
        let started = self.started_unix_ms.map_or_else(|| "unknown".to_string(), utc_ms);
        let main = if self.main.is_empty() { String::new() } else { format!(" ({})", self.main) };
        format!("Run: pid {}{main}, started {started}, dumped {}", self.pid, utc_ms(self.dumped_unix_ms))
    }

    /// The `run` object of `threads.json`.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "pid": self.pid,
            "main": self.main,
            "started": self.started_unix_ms.map(utc_ms),
            "dumped": utc_ms(self.dumped_unix_ms),
        })
    }
}

fn utc_ms(ms: u64) -> String {
    utc(UNIX_EPOCH + Duration::from_millis(ms))
}

/// `2026-05-09T07:29:33Z`.
pub fn utc(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Days since 1970-01-01 to a civil date (Howard Hinnant's days_from_civil, inverted).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_dates() {
        assert_eq!(utc(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        assert_eq!(utc(UNIX_EPOCH + Duration::from_secs(951_782_400)), "2000-02-29T00:00:00Z");
        assert_eq!(utc(UNIX_EPOCH + Duration::from_secs(1_778_311_773)), "2026-05-09T07:29:33Z");
    }

    #[test]
    fn the_line_and_json_show_the_saved_times() {
        let r = RunIdentity { pid: 7, main: "com.acme.Main".into(), started_unix_ms: Some(1_778_311_773_999), dumped_unix_ms: 1_778_311_800_000 };
        assert_eq!(r.line(), "Run: pid 7 (com.acme.Main), started 2026-05-09T07:29:33Z, dumped 2026-05-09T07:30:00Z");
        assert_eq!(r.json()["started"], "2026-05-09T07:29:33Z");
        let r = RunIdentity { main: String::new(), started_unix_ms: None, ..r };
        assert_eq!(r.line(), "Run: pid 7, started unknown, dumped 2026-05-09T07:30:00Z");
        assert!(r.json()["started"].is_null());
    }
}
