//! The paper's worked example: Figure 2 rendered into the xarc, xtree and xprof reports of
//! Figures 4, 5 and 6.
//!
//! Two checks: the rendered text equals the golden files in `tests/golden/paper/` (the exact layout),
//! and every number the paper prints is read back out of our output and compared with the paper's
//! value (so a golden file that drifted from the paper fails too). Run with `UPDATE_GOLDEN=1` to
//! rewrite the golden files after a deliberate layout change; the numeric checks still guard them.

mod common;

use std::path::PathBuf;

use hpm_reports::{xarc, xprof, xtree, ReportOptions};

fn golden(name: &str, actual: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/paper").join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, actual).expect("writing golden file");
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(actual, expected, "{name} differs from {}", path.display());
}

/// The rows of a report after its column titles and their `=` underline.
fn body(text: &str) -> Vec<Vec<String>> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|l| l.trim_start().starts_with("==")).expect("an underline row") + 1;
    lines[start..].iter().map(|l| l.split_whitespace().map(str::to_string).collect()).collect()
}

fn f(s: &str) -> f64 {
    s.parse().unwrap_or_else(|_| panic!("not a number: {s}"))
}

#[test]
fn header_names_units_and_total() {
    let p = common::paper_profile();
    for text in [xtree::render(&p, &ReportOptions::default()), xarc::render(&p, &ReportOptions::default()), xprof::render(&p, &ReportOptions::default())] {
        let first = text.lines().next().unwrap();
        assert_eq!(first, "Units :: CPU time (s)  Total :: 10");
        assert!(text.lines().nth(1).unwrap().starts_with("Consumers :: methods  Count :: calls"));
    }
}

#[test]
fn figure_6_xprof() {
    let p = common::paper_profile();
    let text = xprof::render(&p, &ReportOptions::default());
    golden("xprof.txt", &text);
    // Figure 6: Calls %Base %Cum Ind Name. The figure lists the thread first among the methods;
    // xprof.txt lists the methods alone, then the thread in a table of its own (`Ind` still its
    // stanza number in xarc), then the total of both.
    let paper = [
        (1, 0.00, 100.00, 1, "Main"),
        (3, 30.00, 90.00, 2, "B"),
        (2, 20.00, 90.00, 3, "A"),
        (1, 0.00, 30.00, 4, "X"),
        (2, 20.00, 20.00, 5, "C"),
        (1, 10.00, 10.00, 6, "E"),
        (1, 10.00, 10.00, 7, "F"),
        (1, 10.00, 10.00, 8, "G"),
        // The threads' table, after a blank line and its own column titles.
        (1, 0.00, 100.00, 0, "AC_test_pidtid"),
    ];
    let rows = body(&text);
    assert_eq!(rows.len(), paper.len() + 5, "{text}");
    assert_eq!(rows[8], Vec::<String>::new(), "{text}");
    assert_eq!(rows[9], ["Calls", "%Base", "%Cum", "Ind", "Thread"], "{text}");
    assert_eq!(rows[10], ["=====", "=====", "====", "===", "======"], "{text}");
    let table_rows = rows[..8].iter().chain(&rows[11..12]);
    for (row, (calls, base, cum, ind, name)) in table_rows.zip(paper) {
        assert_eq!(row.len(), 5, "{row:?}");
        assert_eq!(row[0].parse::<u64>().unwrap(), calls, "{row:?}");
        assert_eq!(f(&row[1]), base, "{row:?}");
        assert_eq!(f(&row[2]), cum, "{row:?}");
        assert_eq!(row[3].parse::<usize>().unwrap(), ind, "{row:?}");
        assert_eq!(row[4], name, "{row:?}");
    }
    // The paper's last line: 13 calls in all.
    let total = rows.last().unwrap();
    assert_eq!(total[0], "13");
    assert_eq!(f(&total[1]), 100.0);
}

#[test]
fn figure_4_xarc() {
    let p = common::paper_profile();
    let text = xarc::render(&p, &ReportOptions::default());
    golden("xarc.txt", &text);
    type R = (&'static str, u64, f64, f64, &'static str);
    // Figure 4, stanza by stanza (Source, Calls, %Base, %Cum, Function).
    let paper: Vec<Vec<R>> = vec![
        vec![("Self", 1, 0.0, 100.0, "[0] AC_test_pidtid"), ("Child", 1, 0.0, 100.0, "Main")],
        vec![
            ("Parent", 1, 0.0, 100.0, "AC_test_pidtid"),
            ("Self", 1, 0.0, 100.0, "[1] Main"),
            ("Child", 1, 10.0, 60.0, "B"),
            ("Child", 1, 10.0, 40.0, "A"),
        ],
        vec![
            ("Parent", 2, 20.0, 30.0, "A"),
            ("Parent", 1, 10.0, 60.0, "Main"),
            ("Self", 3, 30.0, 90.0, "[2] B"),
            ("Child", 1, 10.0, 50.0, "A"),
            ("Child", 1, 10.0, 10.0, "C"),
        ],
        vec![
            ("Parent", 1, 10.0, 40.0, "Main"),
            ("Parent", 1, 10.0, 50.0, "B"),
            ("Self", 2, 20.0, 90.0, "[3] A"),
            ("Child", 2, 20.0, 30.0, "B"),
            ("Child", 1, 0.0, 30.0, "X"),
            ("Child", 1, 10.0, 10.0, "C"),
        ],
        vec![
            ("Parent", 1, 0.0, 30.0, "A"),
            ("Self", 1, 0.0, 30.0, "[4] X"),
            ("Child", 1, 10.0, 10.0, "E"),
            ("Child", 1, 10.0, 10.0, "F"),
            ("Child", 1, 10.0, 10.0, "G"),
        ],
        vec![("Parent", 1, 10.0, 10.0, "A"), ("Parent", 1, 10.0, 10.0, "B"), ("Self", 2, 20.0, 20.0, "[5] C")],
        vec![("Parent", 1, 10.0, 10.0, "X"), ("Self", 1, 10.0, 10.0, "[6] E")],
        vec![("Parent", 1, 10.0, 10.0, "X"), ("Self", 1, 10.0, 10.0, "[7] F")],
        vec![("Parent", 1, 10.0, 10.0, "X"), ("Self", 1, 10.0, 10.0, "[8] G")],
    ];
    let mut stanzas: Vec<Vec<Vec<String>>> = vec![Vec::new()];
    for row in body(&text) {
        if row.len() == 1 && row[0].chars().all(|c| c == '=') {
            stanzas.push(Vec::new());
        } else {
            stanzas.last_mut().unwrap().push(row);
        }
    }
    assert_eq!(stanzas.len(), paper.len(), "{text}");
    for (got, want) in stanzas.iter().zip(&paper) {
        assert_eq!(got.len(), want.len(), "{got:?}");
        for (row, &(source, calls, base, cum, func)) in got.iter().zip(want) {
            assert_eq!(row[0], source, "{row:?}");
            assert_eq!(row[1].parse::<u64>().unwrap(), calls, "{row:?}");
            assert_eq!(f(&row[2]), base, "{row:?}");
            assert_eq!(f(&row[3]), cum, "{row:?}");
            assert_eq!(row[4..].join(" "), func, "{row:?}");
        }
    }
}

#[test]
fn figure_5_xtree() {
    let p = common::paper_profile();
    let text = xtree::render(&p, &ReportOptions::default());
    golden("xtree.txt", &text);
    // Figure 5: Lv RL Calls %Base %Cum Indent Name.
    let paper = [
        (0, 1, 1, 0.0, 100.0, "", "AC_test_pidtid"),
        (1, 1, 1, 0.0, 100.0, "-", "Main"),
        (2, 1, 1, 10.0, 40.0, "--", "A"),
        (3, 1, 2, 20.0, 30.0, "---", "B"),
        (4, 1, 1, 10.0, 10.0, "----", "C"),
        (2, 1, 1, 10.0, 60.0, "--", "B"),
        (3, 1, 1, 10.0, 50.0, "---", "A"),
        (4, 1, 1, 10.0, 10.0, "----", "C"),
        (4, 1, 1, 0.0, 30.0, "----", "X"),
        (5, 1, 1, 10.0, 10.0, "----+", "E"),
        (5, 1, 1, 10.0, 10.0, "----+", "F"),
        (5, 1, 1, 10.0, 10.0, "----+", "G"),
    ];
    let rows = body(&text);
    assert_eq!(rows.len(), paper.len(), "{text}");
    for (row, (lv, rl, calls, base, cum, indent, name)) in rows.iter().zip(paper) {
        assert_eq!(row[0].parse::<usize>().unwrap(), lv, "{row:?}");
        assert_eq!(row[1].parse::<usize>().unwrap(), rl, "{row:?}");
        assert_eq!(row[2].parse::<u64>().unwrap(), calls, "{row:?}");
        assert_eq!(f(&row[3]), base, "{row:?}");
        assert_eq!(f(&row[4]), cum, "{row:?}");
        if lv == 0 {
            assert_eq!(row.len(), 6, "{row:?}");
        } else {
            assert_eq!(row[5], indent, "{row:?}");
        }
        assert_eq!(row.last().unwrap(), name, "{row:?}");
    }
}

#[test]
fn absolute_values_are_the_paper_numbers_over_total_10() {
    let p = common::paper_profile();
    let opts = ReportOptions { absolute: true, ..ReportOptions::default() };
    let text = xprof::render(&p, &opts);
    assert!(text.contains("Calls  Base  Cum  Ind  Name"), "{text}");
    let rows = body(&text);
    let b: Vec<(&str, &str, &str)> = rows.iter().take(8).map(|r| (r[1].as_str(), r[2].as_str(), r[4].as_str())).collect();
    assert_eq!(b[1], ("3", "9", "B"));
    assert_eq!(b[3], ("0", "3", "X"));
}
