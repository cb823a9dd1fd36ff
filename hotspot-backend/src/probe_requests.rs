//! Which methods get bytecode probes, as requested while the program runs
//! (`hpm ctl PID probe add|remove PATTERN`), on top of the class filter fixed at start.
//!
//! Requests are rules in order; the last rule that matches a method decides, and a method no rule
//! matches is probed when the start-up filter selects its class (`calls=probes`) or not at all
//! (`calls=requested`). The rule logic is here; the retransformation is in `probes`.

use std::collections::HashMap;

use hpm_model::snapshot::Glob;

/// `CLASS_GLOB` or `CLASS_GLOB::METHOD_GLOB`: classes by dotted name (`org.h2.command.*`), methods
/// by name (`execute*`); `*` any run of characters, `?` one.
#[derive(Debug)]
pub(crate) struct Pattern {
    text: String,
    class: Glob,
    method: Option<Glob>,
}

impl Pattern {
    pub(crate) fn parse(text: &str) -> Result<Pattern, String> {
        let text = text.trim();
        let (class, method) = match text.split_once("::") {
            Some((c, m)) => (c, Some(m)),
            None => (text, None),
        };
        let class = class.replace('/', ".");
        let example = "e.g. org.h2.command.* or org.h2.mvstore.MVMap::get*";
        if class.is_empty() {
            return Err(format!("probe pattern '{text}' names no class: give CLASS_GLOB or CLASS_GLOB::METHOD_GLOB, {example}"));
        }
        if let Some(bad) = class.chars().find(|c| c.is_whitespace() || matches!(c, ':' | '(' | ')' | ';' | '[')) {
            return Err(format!("probe pattern '{text}': {bad:?} cannot be in a class name ({example})"));
        }
        if class.chars().all(|c| c == '*' || c == '.') {
            return Err(format!("probe pattern '{text}' would probe every class, the JDK's included: name a package or classes ({example})"));
        }
        let method = match method {
            None => None,
            Some("") => return Err(format!("probe pattern '{text}' has '::' but no method: {example}")),
            Some(m) if m.chars().any(|c| c.is_whitespace() || matches!(c, ':' | '.' | '(' | ')' | '/' | ';')) => {
                return Err(format!("probe pattern '{text}': the method part '{m}' must be a method name or glob, without class or parameters ({example})"))
            }
            Some(m) => Some(Glob::new(m)),
        };
        Ok(Pattern { text: text.to_string(), class: Glob::new(&class), method })
    }

    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    pub(crate) fn matches_class(&self, class: &str) -> bool {
        self.class.matches(class)
    }

    pub(crate) fn matches(&self, class: &str, method: &str) -> bool {
        self.class.matches(class) && self.method.as_ref().is_none_or(|g| g.matches(method))
    }
}

struct Rule {
    add: bool,
    pattern: Pattern,
}

/// The rules, and per method reached by one, whether its probes are in now.
#[derive(Default)]
pub(crate) struct ProbeRequests {
    rules: Vec<Rule>,
    /// Probe ids of the methods a rule reached whose probes are in, with the time they went in
    /// (`None`: while a retransformation is under way, settled when it returns).
    open: HashMap<u32, Option<u64>>,
    /// Per class (dotted), the methods a rule reached, by probe id, with their names.
    reached: HashMap<String, Vec<(u32, String)>>,
}

/// What a method's rules say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Decision {
    /// No rule matches: the start-up filter decides.
    Filter,
    Probe,
    Leave,
}

impl ProbeRequests {
    /// Adds a rule; an earlier rule with the same pattern goes (the new one decides for it anyway).
    pub(crate) fn push(&mut self, add: bool, pattern: Pattern) {
        self.rules.retain(|r| r.pattern.text != pattern.text);
        self.rules.push(Rule { add, pattern });
    }

    /// The rules in order, as `+pattern` and `-pattern`.
    pub(crate) fn listed(&self) -> Vec<String> {
        self.rules.iter().map(|r| format!("{}{}", if r.add { '+' } else { '-' }, r.pattern.text)).collect()
    }

    pub(crate) fn decide(&self, class: &str, method: &str) -> Decision {
        match self.rules.iter().rev().find(|r| r.pattern.matches(class, method)) {
            None => Decision::Filter,
            Some(r) if r.add => Decision::Probe,
            Some(_) => Decision::Leave,
        }
    }

    /// Whether some rule may put probes into methods of `class`.
    pub(crate) fn may_add_to(&self, class: &str) -> bool {
        self.rules.iter().any(|r| r.add && r.pattern.matches_class(class))
    }

    /// Whether a rule reached methods of `class` (their windows must close if their probes go).
    pub(crate) fn reached(&self, class: &str) -> bool {
        self.reached.contains_key(class)
    }

    /// The methods of `class` a rule reached: probe id and name.
    pub(crate) fn reached_in(&self, class: &str) -> Vec<(u32, String)> {
        self.reached.get(class).cloned().unwrap_or_default()
    }

    /// The name of method `id`, if a rule reached it.
    pub(crate) fn name_of(&self, id: u32) -> Option<&str> {
        self.reached.values().flatten().find(|(i, _)| *i == id).map(|(_, n)| n.as_str())
    }

    /// Method `id` (`name`, of `class`)'s probes are in (from `at`, or pending) or not now. Returns
    /// what changed: `Some(true)` its window opened, `Some(false)` it closed.
    pub(crate) fn note(&mut self, class: &str, id: u32, name: &str, probed: bool, at: Option<u64>) -> Option<bool> {
        match (probed, self.open.contains_key(&id)) {
            (true, false) => {
                let methods = self.reached.entry(class.to_string()).or_default();
                if !methods.iter().any(|(i, _)| *i == id) {
                    methods.push((id, name.to_string()));
                }
                self.open.insert(id, at);
                Some(true)
            }
            (false, true) => {
                self.open.remove(&id);
                Some(false)
            }
            _ => None,
        }
    }

    /// Whether method `id` has requested probes in.
    #[cfg(test)]
    pub(crate) fn is_open(&self, id: u32) -> bool {
        self.open.contains_key(&id)
    }

    /// The methods whose probes went in during a retransformation: they are in from `at`.
    pub(crate) fn settle(&mut self, at: u64) -> Vec<u32> {
        let mut ids: Vec<u32> = self
            .open
            .iter_mut()
            .filter(|(_, t)| t.is_none())
            .map(|(&id, t)| {
                *t = Some(at);
                id
            })
            .collect();
        ids.sort_unstable();
        ids
    }

    /// How many methods have requested probes in now.
    pub(crate) fn open_count(&self) -> usize {
        self.open.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_take_class_and_method_globs_and_refuse_the_rest_in_one_line() {
        let p = Pattern::parse("org.h2.command.*::execute*").unwrap();
        assert!(p.matches("org.h2.command.Command", "executeQuery"));
        assert!(!p.matches("org.h2.command.Command", "close"));
        assert!(!p.matches("org.h2.engine.Session", "executeQuery"));
        assert!(p.matches_class("org.h2.command.dml.Select"));
        let p = Pattern::parse(" org/h2/mvstore/MVMap ").unwrap();
        assert!(p.matches("org.h2.mvstore.MVMap", "get") && p.text() == "org/h2/mvstore/MVMap");
        for (bad, why) in [
            ("", "names no class"),
            ("::run", "names no class"),
            ("*", "every class"),
            ("*.*", "every class"),
            ("a.B::", "no method"),
            ("a.B::c.d", "method part"),
            ("a.B::run()", "method part"),
            ("a.B c", "cannot be in a class name"),
        ] {
            let e = Pattern::parse(bad).unwrap_err();
            assert!(e.contains(why) && !e.contains('\n'), "{bad}: {e}");
        }
    }

    #[test]
    fn the_last_matching_rule_decides() {
        let mut r = ProbeRequests::default();
        assert_eq!(r.decide("a.B", "f"), Decision::Filter);
        r.push(true, Pattern::parse("a.*").unwrap());
        r.push(false, Pattern::parse("a.B::f*").unwrap());
        assert_eq!(r.decide("a.B", "f"), Decision::Leave);
        assert_eq!(r.decide("a.B", "g"), Decision::Probe);
        assert_eq!(r.decide("b.C", "g"), Decision::Filter);
        assert!(r.may_add_to("a.B") && !r.may_add_to("b.C"));
        // The same pattern again replaces its rule, at the end.
        r.push(true, Pattern::parse("a.B::f*").unwrap());
        assert_eq!(r.decide("a.B", "f"), Decision::Probe);
        assert_eq!(r.listed(), ["+a.*", "+a.B::f*"]);
    }

    #[test]
    fn windows_settle_when_the_retransformation_returns() {
        let mut r = ProbeRequests::default();
        assert!(!r.reached("a.B"));
        assert_eq!(r.note("a.B", 1, "a.B.f()", true, None), Some(true));
        assert_eq!(r.note("a.B", 2, "a.B.g()", true, Some(5)), Some(true));
        assert_eq!(r.note("a.B", 2, "a.B.g()", true, None), None);
        assert_eq!(r.settle(9), [1]);
        assert_eq!(r.settle(10), Vec::<u32>::new());
        assert_eq!(r.note("a.B", 1, "a.B.f()", false, Some(12)), Some(false));
        assert!(!r.is_open(1) && r.is_open(2) && r.open_count() == 1);
        // Reached stays after a close: the class still goes through the transform.
        assert!(r.reached("a.B") && r.reached_in("a.B").len() == 2 && r.name_of(1) == Some("a.B.f()"));
    }
}
