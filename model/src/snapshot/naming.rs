//! Consumer names for Java methods and classes, and class-name filters.
//!
//! Naming (see docs/agent.md): a method is `package.Class.method` (`java.lang.String.hashCode`),
//! nested classes keep their `$` (`Outer$Inner.run`), constructors and static initialisers are
//! `Class.<init>` / `Class.<clinit>`. When a class declares several methods with the same name
//! (overloads, bridges), each of them gets its parameter types in Java syntax:
//! `com.acme.Calc.add(int,int)`, `com.acme.Calc.add(long,long)`. Hidden classes (lambdas) lose the
//! run-dependent address suffix: `Foo$$Lambda$14/0x0000000800c0b000` becomes `Foo$$Lambda$14`.

/// The dotted Java name of a class from its JVM signature: `Ljava/lang/String;` → `java.lang.String`,
/// `[I` → `int[]`. Hidden-class address suffixes (`/0x…`, `.0x…`, JFR's `+0x…`) are dropped.
pub fn class_name_from_signature(sig: &str) -> String {
    let mut dims = 0;
    let mut s = sig;
    while let Some(r) = s.strip_prefix('[') {
        dims += 1;
        s = r;
    }
    let mut base = match s.as_bytes().first() {
        Some(b'L') => s[1..].trim_end_matches(';').replace('/', "."),
        Some(_) if s.len() == 1 => primitive(s.as_bytes()[0]).unwrap_or(s).to_string(),
        _ => s.replace('/', "."),
    };
    // Hidden classes: "pkg.Foo$$Lambda$14.0x0000000800c0b000" (the '/' was just replaced by '.');
    // JFR spells the address "+0x…".
    if let Some(i) = base.find(".0x").or_else(|| base.find("+0x")) {
        if base[i + 3..].bytes().all(|b| b.is_ascii_hexdigit()) {
            base.truncate(i);
        }
    }
    for _ in 0..dims {
        base.push_str("[]");
    }
    base
}

/// Whether a class signature names a hidden class (`Lpkg/Foo$$Lambda$14.0x…;` on JDK 17,
/// `Lpkg/Foo$$Lambda/0x…;` on JDK 21+): lambda proxies and other generated classes. Their methods
/// are never recorded: bytecode probes cannot reach them (hidden classes never pass through a
/// ClassFileLoadHook), so both ways of recording treat them as transparent and their cost goes to
/// the caller; the lambda's body (`Foo.lambda$main$0`) is a context of its own.
pub fn is_hidden_class_signature(sig: &str) -> bool {
    let plain = sig.trim_start_matches('[');
    let plain = plain.strip_prefix('L').and_then(|p| p.strip_suffix(';')).unwrap_or(plain);
    plain.rsplit_once(['/', '.']).is_some_and(|(_, tail)| {
        tail.len() > 2 && tail.starts_with("0x") && tail[2..].bytes().all(|b| b.is_ascii_hexdigit())
    })
}

fn primitive(b: u8) -> Option<&'static str> {
    Some(match b {
        b'Z' => "boolean",
        b'B' => "byte",
        b'C' => "char",
        b'S' => "short",
        b'I' => "int",
        b'J' => "long",
        b'F' => "float",
        b'D' => "double",
        b'V' => "void",
        _ => return None,
    })
}

/// The parameter list of a method descriptor in Java syntax: `(ILjava/lang/String;[J)V` →
/// `int,java.lang.String,long[]`. Malformed descriptors are returned as they are.
pub fn java_parameters(descriptor: &str) -> String {
    let Some(inner) = descriptor.strip_prefix('(').and_then(|d| d.split(')').next()) else {
        return descriptor.to_string();
    };
    let b = inner.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        while i < b.len() && b[i] == b'[' {
            i += 1;
        }
        if i >= b.len() {
            return descriptor.to_string();
        }
        if b[i] == b'L' {
            match inner[i..].find(';') {
                Some(e) => i += e + 1,
                None => return descriptor.to_string(),
            }
        } else {
            i += 1;
        }
        out.push(class_name_from_signature(&inner[start..i]));
    }
    out.join(",")
}

/// The consumer name of a method: `class.name`, or `class.name(params)` when `overloaded`.
pub fn method_consumer_name(class: &str, name: &str, descriptor: &str, overloaded: bool) -> String {
    if overloaded {
        format!("{class}.{name}({})", java_parameters(descriptor))
    } else {
        format!("{class}.{name}")
    }
}

/// Names all methods of one class for a `MethodResolver` answer: `methods` are (method key, name,
/// descriptor); a method gets its parameter types when the class has several of that name.
/// `asked` (the method being resolved) gets no name when it is not among them.
pub fn name_class_methods(class: &str, methods: &[(u64, String, String)], asked: u64, out: &mut Vec<(u64, Option<String>)>) {
    for (key, name, descriptor) in methods {
        let overloaded = methods.iter().filter(|(_, n, _)| n == name).count() > 1;
        out.push((*key, Some(method_consumer_name(class, name, descriptor, overloaded))));
    }
    if !methods.iter().any(|(key, _, _)| *key == asked) {
        out.push((asked, None));
    }
}

/// Class name patterns: `*` matches any run of characters (dots included), `?` one character.
/// `com.acme.*` matches `com.acme.Foo` and `com.acme.sub.Bar$Inner`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Glob(String);

impl Glob {
    pub fn new(pattern: &str) -> Glob {
        Glob(pattern.to_string())
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
    pub fn matches(&self, text: &str) -> bool {
        glob_match(self.0.as_bytes(), text.as_bytes())
    }
}

fn glob_match(p: &[u8], t: &[u8]) -> bool {
    // Iterative wildcard match with backtracking to the last '*'.
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && (p[pi] == b'?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == b'*' {
            star = Some((pi, ti));
            pi += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    while pi < p.len() && p[pi] == b'*' {
        pi += 1;
    }
    pi == p.len()
}

/// The JDK's own packages, excluded unless an `include=` pattern names them.
pub const JDK_PACKAGES: &[&str] = &["java.*", "javax.*", "jdk.*", "sun.*", "com.sun.*"];

/// Whether the class with dotted name `class` is in one of [`JDK_PACKAGES`].
pub fn is_jdk_class(class: &str) -> bool {
    JDK_PACKAGES.iter().any(|p| glob_match(p.as_bytes(), class.as_bytes()))
}

/// Which classes' methods are recorded.
///
/// 1. a class matching an `exclude` pattern is not recorded;
/// 2. else a class matching an `include` pattern is recorded;
/// 3. else, if any `include` pattern was given, the class is not recorded (include lists are
///    exhaustive);
/// 4. else JDK classes ([`JDK_PACKAGES`]) are not recorded and all others are.
///
/// So `include=*` records everything, JDK included. A method that is not recorded is transparent:
/// its time goes to its nearest recorded caller and its recorded callees hang below that caller.
#[derive(Debug, Clone, Default)]
pub struct ClassFilter {
    pub include: Vec<Glob>,
    pub exclude: Vec<Glob>,
}

impl ClassFilter {
    pub fn accepts(&self, class: &str) -> bool {
        if self.exclude.iter().any(|g| g.matches(class)) {
            return false;
        }
        if self.include.iter().any(|g| g.matches(class)) {
            return true;
        }
        if !self.include.is_empty() {
            return false;
        }
        !is_jdk_class(class)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_methods_get_parameters_only_when_overloaded() {
        let m = |k: u64, n: &str, d: &str| (k, n.to_string(), d.to_string());
        let methods = [m(1, "run", "()V"), m(2, "add", "(I)I"), m(3, "add", "([Ljava/lang/String;J)V")];
        let mut out = Vec::new();
        name_class_methods("p.C", &methods, 2, &mut out);
        let named = |k: u64, s: &str| (k, Some(s.to_string()));
        assert_eq!(out, [named(1, "p.C.run"), named(2, "p.C.add(int)"), named(3, "p.C.add(java.lang.String[],long)")]);
        out.clear();
        name_class_methods("p.C", &methods[..1], 9, &mut out);
        assert_eq!(out, [named(1, "p.C.run"), (9, None)], "a method not among the class's is left unnamed");
    }

    #[test]
    fn class_names() {
        assert_eq!(class_name_from_signature("Ljava/lang/String;"), "java.lang.String");
        assert_eq!(class_name_from_signature("[[I"), "int[][]");
        assert_eq!(class_name_from_signature("[Lcom/a/B$C;"), "com.a.B$C[]");
        assert_eq!(class_name_from_signature("Lcalls/Foo$$Lambda$14.0x0000000800c0b000;"), "calls.Foo$$Lambda$14");
        assert_eq!(class_name_from_signature("Lcalls/Foo$$Lambda$14/0x0000000800c0b000;"), "calls.Foo$$Lambda$14");
    }

    #[test]
    fn hidden_classes() {
        assert!(is_hidden_class_signature("Lcalls/Foo$$Lambda$14.0x0000000800c0b000;"));
        assert!(is_hidden_class_signature("Lcalls/Foo$$Lambda/0x0000000800c0b000;"));
        assert!(!is_hidden_class_signature("Lcalls/Foo$$Lambda$14;"));
        assert!(!is_hidden_class_signature("Lcalls/Foo;"));
        assert!(!is_hidden_class_signature("Ljava/lang/String;"));
    }

    #[test]
    fn parameters() {
        assert_eq!(java_parameters("(ILjava/lang/String;[J)V"), "int,java.lang.String,long[]");
        assert_eq!(java_parameters("()V"), "");
        assert_eq!(method_consumer_name("a.B", "f", "(JJ)J", true), "a.B.f(long,long)");
        assert_eq!(method_consumer_name("a.B", "f", "(JJ)J", false), "a.B.f");
    }

    #[test]
    fn globs_and_filter() {
        assert!(Glob::new("com.acme.*").matches("com.acme.sub.Foo$Bar"));
        assert!(!Glob::new("com.acme.*").matches("com.acmex.Foo"));
        assert!(Glob::new("*Test?").matches("a.FooTest1"));
        assert!(Glob::new("*").matches(""));
        let f = ClassFilter::default();
        assert!(!f.accepts("java.lang.String"));
        assert!(!f.accepts("jdk.internal.misc.Unsafe"));
        assert!(f.accepts("calls.Straight"));
        let f = ClassFilter { include: vec![Glob::new("*")], exclude: vec![Glob::new("calls.Skip*")] };
        assert!(f.accepts("java.lang.String"));
        assert!(!f.accepts("calls.SkipMe"));
        let f = ClassFilter { include: vec![Glob::new("com.acme.*")], exclude: vec![] };
        assert!(!f.accepts("calls.Straight"));
        assert!(f.accepts("com.acme.A"));
    }
}
