//! "Did you mean …?" for misspelt names: threads, metrics, formats, events.

/// The candidate closest to `wanted` by edit distance (Damerau–Levenshtein), when it is close
/// enough to be a slip of the keyboard: at most a third of `wanted`'s characters (1 to 3 edits).
pub fn closest<'a>(wanted: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (wanted.chars().count() / 3).clamp(1, 3);
    candidates
        .into_iter()
        // An empty name is never what was meant (a one-character slip is one edit from it).
        .filter(|c| !c.is_empty())
        .map(|c| (strsim::damerau_levenshtein(&wanted.to_lowercase(), &c.to_lowercase()), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// ` (did you mean `NAME`?)` for the closest candidate, or nothing.
pub fn did_you_mean<'a>(wanted: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(wanted, candidates).map_or_else(String::new, |c| format!(" (did you mean `{c}`?)"))
}

/// `names` joined with `, `, at most `max` of them, then how many more there are.
pub fn list(names: &[&str], max: usize) -> String {
    let mut s = names.iter().take(max).copied().collect::<Vec<_>>().join(", ");
    if names.len() > max {
        s.push_str(&format!(" and {} more", names.len() - max));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_names_are_suggested_and_far_ones_not() {
        assert_eq!(closest("task-clok", ["cycles", "task-clock"]), Some("task-clock"));
        assert_eq!(closest("AC_tset", ["AC_test_pidtid", "AC_test"]), Some("AC_test"));
        assert_eq!(closest("nosuch", ["main", "GC"]), None);
        assert_eq!(closest("XTREE", ["xtree", "xarc"]), Some("xtree"));
        assert_eq!(closest("7", ["", "cpu-time"]), None, "never the empty name");
        assert_eq!(did_you_mean("7", [""]), "");
    }
}
