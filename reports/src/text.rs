//! Shared text formatting for the x-reports: header lines, value columns, widths.

use std::fmt::Write;

use hpm_model::arcflow::{MetricMode, Profile};
use hpm_model::saved::v1::u64_ascii;

/// How values of the chosen metric are shown: percentages of a total, or absolute integers.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ValueFormat {
    pub total: u64,
    pub absolute: bool,
    /// Column width for a value.
    pub width: usize,
}

impl ValueFormat {
    /// `max` is the largest value that will be printed (for the absolute width).
    pub fn new(total: u64, absolute: bool, max: u64, header: &str) -> ValueFormat {
        let w = if absolute { digits(max) } else { 6 }; // "100.00"
        ValueFormat { total, absolute, width: w.max(header.len()) }
    }

    /// Appends `v` right-aligned in the column width.
    pub fn push(&self, out: &mut String, v: u64) {
        if self.absolute {
            push_u64(out, v, self.width);
        } else {
            push_percent(out, v, self.total, self.width);
        }
    }

    pub fn blank(&self, out: &mut String) {
        pad(out, self.width);
    }
}

/// `v` as a percentage of `total` with two decimals, rounded half up, computed in integers so that
/// the output does not depend on floating-point formatting. A zero total prints `0.00`.
pub(crate) fn push_percent(out: &mut String, v: u64, total: u64, width: usize) {
    let hundredths: u64 = if total == 0 {
        0
    } else if let Some(x) = v.checked_mul(10_000).and_then(|x| x.checked_add(total / 2)) {
        x / total
    } else {
        ((v as u128 * 10_000 + total as u128 / 2) / total as u128) as u64
    };
    let int = hundredths / 100;
    let frac = hundredths % 100;
    push_u64(out, int, width.saturating_sub(3));
    out.push('.');
    out.push((b'0' + (frac / 10) as u8) as char);
    out.push((b'0' + (frac % 10) as u8) as char);
}

/// Appends `v` in decimal, right-aligned in `width` (without going through `fmt`, which is the
/// bottleneck when a report has a million rows).
#[inline]
pub(crate) fn push_u64(out: &mut String, v: u64, width: usize) {
    let mut buf = [0u8; 20];
    let s = u64_ascii(v, &mut buf);
    pad(out, width.saturating_sub(s.len()));
    // The bytes are ASCII digits.
    out.push_str(std::str::from_utf8(s).unwrap_or("?"));
}


#[inline]
pub(crate) fn pad(out: &mut String, n: usize) {
    const SPACES: &str = "                                ";
    let mut n = n;
    while n > 0 {
        let k = n.min(SPACES.len());
        out.push_str(&SPACES[..k]);
        n -= k;
    }
}

pub(crate) fn digits(v: u64) -> usize {
    digits_u128(v as u128)
}

fn digits_u128(mut v: u128) -> usize {
    let mut d = 1;
    while v >= 10 {
        v /= 10;
        d += 1;
    }
    d
}

/// `name (unit)`, or just `name` when the unit is empty.
pub(crate) fn metric_label(profile: &Profile, metric: usize) -> String {
    match profile.bindings.metrics.get(metric) {
        // Sampled metrics say so; unmarked ones are exact (as in the arcflow paper's reports).
        Some(m) if m.mode == MetricMode::Sampled && m.unit.is_empty() => format!("{} (sampled)", m.name),
        Some(m) if m.mode == MetricMode::Sampled => format!("{} ({}, sampled)", m.name, m.unit),
        Some(m) if m.unit.is_empty() => m.name.clone(),
        Some(m) => format!("{} ({})", m.name, m.unit),
        None => format!("metric {metric}"),
    }
}

/// The two header lines every x-report starts with:
///
/// ```text
/// Units :: CPU time (s)  Total :: 10
/// Consumers :: methods  Count :: calls  Threads :: 1
/// ```
/// The title of the count column: the paper's "Calls", or "Samples" in a sampled profile, whose
/// counts are stack samples.
pub(crate) fn count_title(profile: &Profile) -> &'static str {
    if profile.bindings.count_label == "samples" {
        "Samples"
    } else {
        "Calls"
    }
}

pub(crate) fn header(out: &mut String, profile: &Profile, metric: usize, total: u64, absolute: bool) {
    let _ = writeln!(out, "Units :: {}  Total :: {}", metric_label(profile, metric), total);
    let _ = writeln!(
        out,
        "Consumers :: {}  Count :: {}  Threads :: {}  Values :: {}",
        profile.bindings.consumer_label,
        profile.bindings.count_label,
        profile.threads.len(),
        if absolute { "absolute" } else { "percent of total" }
    );
    out.push('\n');
}

/// The total of `metric` over all threads of `profile`.
pub(crate) fn metric_total(profile: &Profile, metric: usize) -> u64 {
    profile.total().get(metric).copied().unwrap_or(0)
}

/// Column header pair for base and cum.
pub(crate) fn value_headers(absolute: bool) -> (&'static str, &'static str) {
    if absolute {
        ("Base", "Cum")
    } else {
        ("%Base", "%Cum")
    }
}

/// Appends `s` right-aligned in `width`.
pub(crate) fn right(out: &mut String, s: &str, width: usize) {
    pad(out, width.saturating_sub(s.chars().count()));
    out.push_str(s);
}

/// Appends `s` left-aligned in `width`.
pub(crate) fn left(out: &mut String, s: &str, width: usize) {
    out.push_str(s);
    pad(out, width.saturating_sub(s.chars().count()));
}

/// Appends a `=` underline of `s`'s length, right-aligned in `width`.
pub(crate) fn underline_right(out: &mut String, s: &str, width: usize) {
    let n = s.chars().count();
    pad(out, width.saturating_sub(n));
    for _ in 0..n {
        out.push('=');
    }
}

/// A column title right-aligned in `width`, or (`underline`) its `=` underline: the two header
/// lines of the xtree, xarc and xprof tables.
pub(crate) fn title_cell(out: &mut String, s: &str, width: usize, underline: bool) {
    if underline {
        underline_right(out, s, width)
    } else {
        right(out, s, width)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_rounds_half_up_in_integers() {
        let mut s = String::new();
        push_percent(&mut s, 1, 3, 7);
        push_percent(&mut s, 2, 3, 7);
        push_percent(&mut s, 10, 10, 7);
        push_percent(&mut s, 5, 0, 7);
        push_percent(&mut s, 1, 80_000, 7);
        assert_eq!(s, "  33.33  66.67 100.00   0.00   0.00");
    }
}
