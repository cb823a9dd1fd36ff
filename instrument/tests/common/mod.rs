//! Helpers shared by the instrumentation tests and the benchmark: scratch directories under the
//! Cargo target directory, JDKs, instrumenting a directory of classes, running Java.

#![allow(dead_code)] // each test binary uses a different subset

use hpm_instrument::{MethodInfo, Outcome, Probes};
use java_tests::Jdk;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh directory `<target tmp>/hpm-instrument/<name>`, removed when dropped unless the test
/// failed (panicking), so that a failure leaves its files to look at.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hpm-instrument").join(name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
        Scratch(dir)
    }
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("keeping {} for inspection", self.0.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// The JDK with this feature version under /usr/lib/jvm; a clear failure if there is none.
pub fn jdk(version: u32) -> Jdk {
    java_tests::all_jdks()
        .into_iter()
        .find(|j| j.feature_version() == Some(version))
        .unwrap_or_else(|| panic!("no JDK {version} under /usr/lib/jvm: the instrumentation tests run on JDK 17 and JDK 25"))
}

/// Both JDKs the tests run on.
pub fn jdks() -> Vec<Jdk> {
    vec![jdk(17), jdk(25)]
}

/// Every `.class` file under `dir`, sorted.
pub fn class_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(d: &Path, out: &mut Vec<PathBuf>) {
        let rd = std::fs::read_dir(d).unwrap_or_else(|e| panic!("cannot read {}: {e}", d.display()));
        for e in rd {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "class") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}

/// Entry and exit probes `enter` and `exit` of `class`.
pub fn probes(class: &str) -> Probes {
    Probes::new(class, "enter", "exit")
}

/// Entry, exit, thrown and caught probes of `class`, named so.
pub fn all_probes(class: &str) -> Probes {
    probes(class).with_thrown("thrown").with_caught("caught")
}

/// The context type of the recording probe's carried mode.
pub const CONTEXT: &str = "Lhpmagent/Probe$Context;";

/// `probes` (of the recording probe, `hpmagent/Probe`) with a carried context: the entry probe is
/// `enterCarried`, which returns a `Context`, and the others take it before the id.
pub fn carried(probes: Probes) -> Probes {
    carried_as(probes, CONTEXT)
}

/// `probes` with a carried context of type `context` (a descriptor), returned by `enterCarried`.
pub fn carried_as(probes: Probes, context: &str) -> Probes {
    let mut p = probes.with_carried_context(context);
    p.enter = "enterCarried".into();
    p
}

/// Method names by probe id: `Class.method`, with the parameter descriptor when the class
/// declares several methods of that name (`Ctors$Sub.<init>(I)`); Class is the simple binary name.
#[derive(Default)]
pub struct Ids(pub HashMap<u32, String>);

impl Ids {
    pub fn name(&self, id: u32) -> String {
        self.0.get(&id).cloned().unwrap_or_else(|| format!("#{id}"))
    }

    /// Events as the recording probe logs them (`id << 2 | kind`) as `+name` (entry), `-name`
    /// (exit), `!name` (exit by exception, the thrown probe) and `^name` (the caught probe).
    pub fn render(&self, events: &[i64]) -> String {
        events.iter().map(|&e| format!("{}{}", event_kind(e).sign(), self.name(event_id(e)))).collect::<Vec<_>>().join(" ")
    }
}

/// Which probe logged an event.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Enter,
    Exit,
    Thrown,
    Caught,
}

impl Kind {
    pub fn sign(self) -> char {
        match self {
            Kind::Enter => '+',
            Kind::Exit => '-',
            Kind::Thrown => '!',
            Kind::Caught => '^',
        }
    }
}

/// The probe id of a logged event.
pub fn event_id(e: i64) -> u32 {
    (e >> 2) as i32 as u32
}

pub fn event_kind(e: i64) -> Kind {
    [Kind::Enter, Kind::Exit, Kind::Thrown, Kind::Caught][(e & 3) as usize]
}

pub fn method_label(class: &str, methods: &[MethodInfo], m: &MethodInfo) -> String {
    let simple = class.rsplit('/').next().unwrap_or(class);
    if methods.iter().filter(|o| o.name == m.name).count() > 1 {
        let params = &m.descriptor[..m.descriptor.find(')').map_or(m.descriptor.len(), |i| i + 1)];
        format!("{simple}.{}{params}", m.name)
    } else {
        format!("{simple}.{}", m.name)
    }
}

/// Instruments every class under `src` whose internal name `want` accepts (all methods selected,
/// ids counting up from `first_id`) and writes the result into `dst` (unchanged classes too).
pub fn instrument_dir(src: &Path, dst: &Path, probe_class: &str, first_id: u32, want: &dyn Fn(&str) -> bool) -> (Ids, Vec<Outcome>) {
    instrument_dir_with(src, dst, &probes(probe_class), first_id, want)
}

/// [`instrument_dir`] with these probes (every method offered is selected: with a native method
/// prefix, the native methods too).
pub fn instrument_dir_with(src: &Path, dst: &Path, probes: &Probes, first_id: u32, want: &dyn Fn(&str) -> bool) -> (Ids, Vec<Outcome>) {
    let mut ids = Ids::default();
    let mut outcomes = Vec::new();
    let mut next = first_id;
    for f in class_files(src) {
        let bytes = std::fs::read(&f).unwrap();
        let name = hpm_instrument::class_name(&bytes).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let out = dst.join(f.strip_prefix(src).unwrap());
        std::fs::create_dir_all(out.parent().unwrap()).unwrap();
        if !want(&name) {
            std::fs::write(&out, &bytes).unwrap();
            continue;
        }
        let mut given = Vec::new();
        let o = hpm_instrument::instrument_outcome(&bytes, probes, &mut |m| {
            given.push((m.clone(), next));
            next = next.checked_add(1).expect("ids run past u32::MAX");
            Some(next - 1)
        })
        .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for (m, id) in given {
            ids.0.insert(id, method_label(&o.class_name, &o.methods, &m));
        }
        std::fs::write(&out, o.bytes.as_deref().unwrap_or(&bytes)).unwrap();
        outcomes.push(o);
    }
    (ids, outcomes)
}

/// Runs `java` and returns its standard output; fails the test with both outputs if it fails.
pub fn java(jdk: &Jdk, args: &[String]) -> String {
    let out = Command::new(jdk.java()).args(args).output().unwrap_or_else(|e| panic!("cannot run {}: {e}", jdk.java().display()));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if !out.status.success() {
        panic!(
            "{} {} failed ({}):\nstdout:\n{}\nstderr:\n{}",
            jdk.java().display(),
            args.join(" "),
            out.status,
            tail(&stdout),
            tail(&String::from_utf8_lossy(&out.stderr))
        );
    }
    stdout
}

/// The first and last lines of a long output (a VerifyError's reason is at the start).
fn tail(s: &str) -> String {
    let lines: Vec<&str> = s.lines().collect();
    if lines.len() <= 80 {
        return s.to_string();
    }
    format!("{}\n[...]\n{}", lines[..40].join("\n"), lines[lines.len() - 40..].join("\n"))
}

/// The JVM flags that make every class, boot classes included, go through the verifier.
pub fn verify_all() -> Vec<String> {
    ["-Xverify:all", "-XX:+UnlockDiagnosticVMOptions", "-XX:+BytecodeVerificationLocal", "-XX:+BytecodeVerificationRemote"]
        .map(String::from)
        .to_vec()
}

pub fn path_list(parts: &[&Path]) -> String {
    parts.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(":")
}

/// Runs `javac` of `jdk` on the given sources.
pub fn javac(jdk: &Jdk, out: &Path, args: &[&str], sources: &[PathBuf]) {
    let status = Command::new(jdk.javac())
        .args(["-g", "-nowarn", "-encoding", "UTF-8", "-d"])
        .arg(out)
        .args(args)
        .args(sources)
        .status()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", jdk.javac().display()));
    assert!(status.success(), "javac failed on {sources:?}");
}

/// Makes a class file of an older version (49 or 50) without StackMapTable, as a Java 5 or 6
/// compiler could produce, so that HotSpot verifies it with the old inference verifier (for 50,
/// after the type-checking verifier fails on the missing frames). ristretto's writer is safe here:
/// the code does not change and javac's exception ranges never end at the end of the code.
pub fn downgrade(bytes: &[u8], version: ristretto_classfile::Version) -> Vec<u8> {
    use ristretto_classfile::attributes::Attribute;
    let mut cf = ristretto_classfile::ClassFile::from_bytes(bytes).unwrap();
    cf.version = version;
    for m in &mut cf.methods {
        for a in &mut m.attributes {
            if let Attribute::Code { attributes, .. } = a {
                attributes.retain(|a| !matches!(a, Attribute::StackMapTable { .. }));
            }
        }
    }
    let mut out = Vec::new();
    cf.to_bytes(&mut out).unwrap();
    out
}

/// Static method (name, descriptor, max_stack, max_locals, code) for [`class_with_methods`].
type StaticMethod = (&'static str, &'static str, u16, u16, Vec<ristretto_classfile::attributes::Instruction>);

/// A class file with public static methods, which `methods` makes given the constant pool and
/// this class's index; written by ristretto (fine here: no exception ranges, no stack maps).
fn class_with_methods(
    version: ristretto_classfile::Version,
    name: &str,
    methods: impl FnOnce(&mut ristretto_classfile::ConstantPool<'static>, u16) -> Vec<StaticMethod>,
) -> Vec<u8> {
    use ristretto_classfile::attributes::Attribute;
    use ristretto_classfile::{ClassAccessFlags, ClassFile, ConstantPool, Method, MethodAccessFlags};
    let mut cp = ConstantPool::default();
    let this_class = cp.add_class(name).unwrap();
    let super_class = cp.add_class("java/lang/Object").unwrap();
    let code_name = cp.add_utf8("Code").unwrap();
    let list = methods(&mut cp, this_class);
    let methods = list
        .into_iter()
        .map(|(name, desc, max_stack, max_locals, code)| Method {
            access_flags: MethodAccessFlags::PUBLIC | MethodAccessFlags::STATIC,
            name_index: cp.add_utf8(name).unwrap(),
            descriptor_index: cp.add_utf8(desc).unwrap(),
            attributes: vec![Attribute::Code {
                name_index: code_name,
                max_stack,
                max_locals,
                code,
                exception_table: Vec::new(),
                attributes: Vec::new(),
            }],
        })
        .collect();
    let cf = ClassFile {
        version,
        access_flags: ClassAccessFlags::PUBLIC | ClassAccessFlags::SUPER,
        constant_pool: cp,
        this_class,
        super_class,
        methods,
        ..Default::default()
    };
    let mut out = Vec::new();
    cf.to_bytes(&mut out).unwrap();
    out
}

/// A version 49 class whose method `withJsr` calls a subroutine with jsr/ret, and a `scenario`
/// that calls it.
pub fn jsr_class() -> Vec<u8> {
    use ristretto_classfile::attributes::Instruction as I;
    class_with_methods(ristretto_classfile::JAVA_5, "legacy/Jsr", |cp, this| {
        let with_jsr = cp.add_method_ref(this, "withJsr", "(I)I").unwrap();
        vec![
            // withJsr(x): jsr SUB; iload_0; ireturn; SUB: astore_1; iinc 0 1; ret 1  → x + 1
            ("withJsr", "(I)I", 1, 2, vec![I::Jsr(3), I::Iload_0, I::Ireturn, I::Astore_1, I::Iinc(0, 1), I::Ret(1)]),
            ("scenario", "()V", 1, 0, vec![I::Iconst_1, I::Invokestatic(with_jsr), I::Pop, I::Return]),
        ]
    })
}

/// A class whose only method returns an int as an Object: the verifier must reject it.
pub fn canary(name: &str) -> Vec<u8> {
    use ristretto_classfile::attributes::Instruction as I;
    class_with_methods(ristretto_classfile::JAVA_17, name, |_, _| {
        vec![("broken", "()Ljava/lang/Object;", 1, 0, vec![I::Iconst_0, I::Areturn])]
    })
}

/// Generated source: `big` has a forward branch and `loop` a backward goto of ~31 KB that the
/// exit probes push beyond ±32767; `tooBig` is ~59 KB and would pass 65535 bytes.
pub fn huge_source(package: &str) -> String {
    let mut s = format!("package {package};\npublic class Huge {{\n    static int sink;\n");
    s += "    public static void scenario() { sink = big(7) + big(2899) + big(-5) + loop(7) + loop(-1) + inTry(7) + inTry(-1) + tooBig(3); }\n";
    let stmts = |n: u32| (0..n).map(|k| format!("        if (x == {k}) return {k};\n")).collect::<String>();
    s += &format!("    static int big(int x) {{\n    if (x >= 0) {{\n{}    }}\n        return -1;\n    }}\n", stmts(2900));
    s += &format!("    static int loop(int x) {{\n        int i = 0;\n        while (i < 3) {{\n            i++;\n{}        }}\n        return i;\n    }}\n", stmts(2900));
    // The widened loop condition's nearest place for a trampoline is after the athrow inside the
    // try, whose handler frame has more locals (b) than the branch target: it must go elsewhere.
    s += &format!(
        "    static int inTry(int x) {{\n        int a = 0;\n        while (a < 3) {{\n            int b = a + 1;\n            try {{\n                if (x == -7) throw new IllegalStateException();\n{}                a = b;\n            }} catch (RuntimeException e) {{\n                a = b + 10;\n            }}\n        }}\n        return a;\n    }}\n",
        stmts(2900)
    );
    s += &format!("    static int tooBig(int x) {{\n{}        return -1;\n    }}\n}}\n", stmts(5400));
    s
}
