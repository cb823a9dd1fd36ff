//! Native methods of the bundled class library, bound by "class.name(descriptor)".
//!
//! A native that allocates must be restartable: on `NeedGc` the invoke instruction is executed
//! again after the collection, so a native allocates before it has any other effect.

use crate::class::Kind;
use crate::heap::{Ref, Space};
use crate::hooks::{hook, JavaStack};
use crate::vm::{Alloc, JThread, Value, Vm};
use rustc_hash::FxHashMap;
use std::sync::atomic::Ordering::*;

pub struct NCtx<'a> {
    pub vm: &'a Vm,
    pub vp: usize,
    pub th: &'a mut JThread,
    pub space: &'a Space,
    /// The native method being called.
    pub method: u32,
}

impl NCtx<'_> {
    /// The calling thread, as the allocator of the native's result.
    fn alloc(&self) -> Alloc<'_> {
        Alloc::Java(self.th, self.method)
    }
}

pub enum NRes {
    Ret(Option<Value>),
    Throw(Ref),
    ThrowNew(&'static str, String),
    NeedGc,
    /// The call completed and the thread parks (sleep, wait).
    Block,
    /// The call completed and the thread yields its processor.
    Yield,
    Exit(i32),
    /// The native pushed frames on the thread; the interpreter continues with them.
    #[allow(dead_code)]
    StartFrames,
}

pub type NativeFn = fn(&mut NCtx, &[Value]) -> NRes;
pub type NativeTable = FxHashMap<&'static str, NativeFn>;

pub(crate) fn r(v: &Value) -> Ref {
    match v {
        Value::Ref(r) => *r,
        _ => panic!("rvm: native expected a reference, got {v:?}"),
    }
}
pub(crate) fn i(v: &Value) -> i32 {
    match v {
        Value::Int(i) => *i,
        _ => panic!("rvm: native expected an int, got {v:?}"),
    }
}
pub(crate) fn l(v: &Value) -> i64 {
    match v {
        Value::Long(i) => *i,
        _ => panic!("rvm: native expected a long, got {v:?}"),
    }
}
fn d(v: &Value) -> f64 {
    match v {
        Value::Double(i) => *i,
        _ => panic!("rvm: native expected a double, got {v:?}"),
    }
}
fn f(v: &Value) -> f32 {
    match v {
        Value::Float(i) => *i,
        _ => panic!("rvm: native expected a float, got {v:?}"),
    }
}
pub(crate) fn ret_i(x: i32) -> NRes {
    NRes::Ret(Some(Value::Int(x)))
}
pub(crate) fn ret_l(x: i64) -> NRes {
    NRes::Ret(Some(Value::Long(x)))
}
fn ret_d(x: f64) -> NRes {
    NRes::Ret(Some(Value::Double(x)))
}
pub(crate) fn ret_r(x: Ref) -> NRes {
    NRes::Ret(Some(Value::Ref(x)))
}
fn void() -> NRes {
    NRes::Ret(None)
}
/// Returns a new string (for the natives of other modules).
pub(crate) fn string_res(c: &mut NCtx, s: &str) -> NRes {
    string(c, s)
}
fn string(c: &mut NCtx, s: &str) -> NRes {
    match c.vm.new_string(c.space, s, c.alloc()) {
        Some(r) => ret_r(r),
        None => NRes::NeedGc,
    }
}

pub fn identity_hash(vm: &Vm, sp: &Space, obj: Ref) -> i32 {
    let h = sp.get(obj as usize + 1);
    if h != 0 {
        return h as i32;
    }
    let n = vm.next_hash();
    match sp.w[obj as usize + 1].compare_exchange(0, n, Relaxed, Relaxed) {
        Ok(_) => n as i32,
        Err(x) => x as i32,
    }
}

/// Formats a double as JDK 17's `Double.toString`: the shortest decimal that rounds to the value
/// (ties between two shortest candidates go to the even digit), with at least two significant
/// digits, except that integer values below 2^63 print, as JDK 17's FloatingDecimal does, their
/// exact digits rounded half-up to all but the "insignificant" trailing ones (about
/// (binary exponent - 54) * log10(2) of them), which is often more digits than the shortest form.
pub fn java_double(x: f64) -> String {
    let sci = || match jdk17_integer_digits(x.abs(), 53) {
        Some(d) => d,
        None if is_pow2(x.abs(), f64::MIN_POSITIVE) => pow2_digits(x.abs(), x.abs() / (1u64 << 54) as f64),
        None => shortest(format!("{:e}", x.abs()), |n| format!("{:.*e}", n, x.abs())),
    };
    java_fp(x.is_nan(), x.is_infinite(), x == 0.0, x.is_sign_negative(), sci)
}
/// `Float.toString` under the same rules (24 significant bits; every float of 2^27 and more is an
/// integer).
pub fn java_float(x: f32) -> String {
    let sci = || match jdk17_integer_digits(x.abs() as f64, 24) {
        Some(d) => d,
        None if is_pow2(x.abs() as f64, f32::MIN_POSITIVE as f64) => pow2_digits(x.abs() as f64, x.abs() as f64 / (1u64 << 25) as f64),
        None => shortest(format!("{:e}", x.abs()), |n| format!("{:.*e}", n, x.abs())),
    };
    java_fp(x.is_nan(), x.is_infinite(), x == 0.0, x.is_sign_negative(), sci)
}

/// A normal power of two (at least `min_normal`): its lower neighbour is twice as close as the
/// upper one.
fn is_pow2(v: f64, min_normal: f64) -> bool {
    v >= min_normal && v.is_finite() && (v.to_bits() & ((1u64 << 52) - 1)) == 0
}

/// For a power of two JDK 17 takes the shortest decimal within half the *lower* gap on both sides
/// (`half`), which can need one digit more than the usual shortest form. Decided exactly on
/// decimal expansions.
fn pow2_digits(v: f64, half: f64) -> String {
    let exact_v = Dec::parse(&format!("{:.800e}", v));
    let exact_h = Dec::parse(&format!("{:.800e}", half));
    for n in 1..=20 {
        let c = format!("{:.*e}", n - 1, v);
        if Dec::parse(&c).distance_below(&exact_v, &exact_h) {
            let (m, e) = c.split_once('e').unwrap();
            let m = if m.contains('.') { m.trim_end_matches('0').trim_end_matches('.') } else { m };
            let m = if m.len() == 1 { format!("{m}.0") } else { m.to_string() };
            return format!("{m}e{e}");
        }
    }
    format!("{:e}", v)
}

/// A non-negative decimal: digits × 10^scale.
struct Dec {
    digits: Vec<u8>,
    scale: i64,
}

impl Dec {
    /// Parses Rust's `{:e}` output ("d.ddde-x").
    fn parse(s: &str) -> Dec {
        let (m, e) = s.split_once('e').unwrap();
        let e: i64 = e.parse().unwrap();
        let frac = m.split_once('.').map_or(0, |(_, f)| f.len()) as i64;
        let digits: Vec<u8> = m.bytes().filter(|b| *b != b'.').map(|b| b - b'0').collect();
        Dec { digits, scale: e - frac }
    }
    /// Digits aligned to `scale` (which must not exceed self.scale).
    fn at_scale(&self, scale: i64) -> Vec<u8> {
        let mut d = self.digits.clone();
        d.extend(std::iter::repeat_n(0u8, (self.scale - scale) as usize));
        d
    }
    /// |self - v| < h ?
    fn distance_below(&self, v: &Dec, h: &Dec) -> bool {
        let scale = self.scale.min(v.scale).min(h.scale);
        let (a, b, hh) = (self.at_scale(scale), v.at_scale(scale), h.at_scale(scale));
        let diff = if cmp_big(&a, &b) != std::cmp::Ordering::Less { sub_big(&a, &b) } else { sub_big(&b, &a) };
        cmp_big(&diff, &hh) == std::cmp::Ordering::Less
    }
}

fn trim(a: &[u8]) -> &[u8] {
    let i = a.iter().position(|d| *d != 0).unwrap_or(a.len());
    &a[i..]
}
fn cmp_big(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    let (a, b) = (trim(a), trim(b));
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}
/// a - b for a >= b (digit vectors, most significant first).
fn sub_big(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut r = a.to_vec();
    let mut borrow = 0i16;
    for i in 0..r.len() {
        let ai = r.len() - 1 - i;
        let bd = if i < b.len() { b[b.len() - 1 - i] as i16 } else { 0 };
        let mut d = r[ai] as i16 - bd - borrow;
        borrow = if d < 0 { d += 10; 1 } else { 0 };
        r[ai] = d as u8;
    }
    r
}

/// JDK 17 prints an integer value v below 2^63 with binary exponent e (2^e <= v < 2^(e+1)) and
/// `sig` significant bits as its exact decimal digits, less floor((e - sig - 1) * log10 2) low
/// digits (when that is positive) removed with half-up rounding. Returns the digits in `{:e}` form.
fn jdk17_integer_digits(v: f64, sig: i32) -> Option<String> {
    if !(v.is_finite() && (1.0..2f64.powi(63)).contains(&v) && v.fract() == 0.0) {
        return None;
    }
    let e = 63 - (v as u64).leading_zeros() as i32;
    let p2 = e - sig - 1;
    let insignificant = if p2 > 1 { (p2 as f64 * std::f64::consts::LOG10_2).floor() as u32 } else { 0 };
    let lv = v as u64;
    let pow10 = 10u64.pow(insignificant);
    let mut q = lv / pow10;
    if insignificant > 0 && lv % pow10 >= pow10 / 2 {
        q += 1;
    }
    let digits = q.to_string();
    let exp = digits.len() as u32 + insignificant - 1;
    let trimmed = digits.trim_end_matches('0');
    let mant = if trimmed.len() > 1 { format!("{}.{}", &trimmed[..1], &trimmed[1..]) } else { trimmed.to_string() };
    Some(format!("{mant}e{exp}"))
}

/// Rust's shortest round-trip digits (`{:e}`), adjusted to Java's rules: when the value lies
/// exactly halfway between two shortest candidates Java takes the even one (Rust may take the
/// other), and Java never prints fewer than two significant digits (4.9E-324, not 5.0E-324).
fn shortest(short: String, exact: impl Fn(usize) -> String) -> String {
    let (mant, exp) = short.split_once('e').unwrap();
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    let n = digits.len();
    if n == 1 {
        return exact(1);
    }
    // The exact expansion with plenty of digits: is the value a midpoint after n digits?
    let long = exact(n + 40);
    let (lm, le) = long.split_once('e').unwrap();
    let ld: String = lm.chars().filter(|c| *c != '.').collect();
    if le == exp && ld.as_bytes()[n] == b'5' && ld[n + 1..].bytes().all(|b| b == b'0') {
        let floor = &ld[..n];
        let last = floor.as_bytes()[n - 1] - b'0';
        if last.is_multiple_of(2) && floor != digits {
            return format!("{}.{}e{}", &floor[..1], &floor[1..], exp);
        }
    }
    short
}

fn java_fp(nan: bool, inf: bool, zero: bool, neg: bool, sci: impl Fn() -> String) -> String {
    if nan {
        return "NaN".into();
    }
    let sign = if neg { "-" } else { "" };
    if inf {
        return format!("{sign}Infinity");
    }
    if zero {
        return format!("{sign}0.0");
    }
    let s = sci();
    let (mant, exp) = s.split_once('e').unwrap();
    let exp: i32 = exp.parse().unwrap();
    let mut digits: String = mant.chars().filter(|c| *c != '.').collect();
    while digits.len() > 1 && digits.ends_with('0') {
        digits.pop();
    }
    let mut out = String::from(sign);
    if (-3..7).contains(&exp) {
        if exp >= 0 {
            let e = exp as usize;
            if digits.len() > e + 1 {
                out.push_str(&digits[..e + 1]);
                out.push('.');
                out.push_str(&digits[e + 1..]);
            } else {
                out.push_str(&digits);
                out.push_str(&"0".repeat(e + 1 - digits.len()));
                out.push_str(".0");
            }
        } else {
            out.push_str("0.");
            out.push_str(&"0".repeat((-exp - 1) as usize));
            out.push_str(&digits);
        }
    } else {
        out.push_str(&digits[..1]);
        out.push('.');
        if digits.len() > 1 {
            out.push_str(&digits[1..]);
        } else {
            out.push('0');
        }
        out.push('E');
        out.push_str(&exp.to_string());
    }
    out
}

fn arraycopy(c: &mut NCtx, a: &[Value]) -> NRes {
    let (src, sp0, dst, dp0, len) = (r(&a[0]), i(&a[1]), r(&a[2]), i(&a[3]), i(&a[4]));
    if src == 0 || dst == 0 {
        return NRes::ThrowNew("java/lang/NullPointerException", String::new());
    }
    let sp = c.space;
    let sc = c.vm.class_of(sp, src);
    let dc = c.vm.class_of(sp, dst);
    let (Some(se), Some(de)) = (sc.elem, dc.elem) else {
        let which = if sc.elem.is_none() { ("source", &sc) } else { ("destination", &dc) };
        return NRes::ThrowNew(
            "java/lang/ArrayStoreException",
            format!("arraycopy: {} type {} is not an array", which.0, which.1.java_name()),
        );
    };
    if se != de {
        return NRes::ThrowNew(
            "java/lang/ArrayStoreException",
            format!("arraycopy: type mismatch: can not copy {}[] into {}[]", elem_name(&sc), elem_name(&dc)),
        );
    }
    let (sl, dl) = (sp.array_len(src) as i64, sp.array_len(dst) as i64);
    let (s0, d0, n) = (sp0 as i64, dp0 as i64, len as i64);
    if s0 < 0 || d0 < 0 || n < 0 || s0 + n > sl || d0 + n > dl {
        let msg = if s0 < 0 {
            format!("arraycopy: source index {s0} out of bounds for {}[{sl}]", elem_name(&sc))
        } else if d0 < 0 {
            format!("arraycopy: destination index {d0} out of bounds for {}[{dl}]", elem_name(&dc))
        } else if n < 0 {
            format!("arraycopy: length {n} is negative")
        } else if s0 + n > sl {
            format!("arraycopy: last source index {} out of bounds for {}[{sl}]", s0 + n, elem_name(&sc))
        } else {
            format!("arraycopy: last destination index {} out of bounds for {}[{dl}]", d0 + n, elem_name(&dc))
        };
        return NRes::ThrowNew("java/lang/ArrayIndexOutOfBoundsException", msg);
    }
    let size = se.elem_size();
    let (s0, d0, n) = (s0 as usize, d0 as usize, n as usize);
    let check = se == Kind::L && !sc.is_subtype_of(&dc);
    let comp = dc.component.clone();
    let copy_one = |k: usize| -> bool {
        let v = sp.array_get(src, size, s0 + k);
        if check && v != 0 && !crate::interp::is_instance(c.vm, sp, v as Ref, comp.as_ref().unwrap()) {
            return false;
        }
        sp.array_set(dst, size, d0 + k, v);
        true
    };
    if src == dst && s0 < d0 {
        for k in (0..n).rev() {
            copy_one(k);
        }
    } else {
        for k in 0..n {
            if !copy_one(k) {
                let v = sp.array_get(src, size, s0 + k) as Ref;
                return NRes::ThrowNew(
                    "java/lang/ArrayStoreException",
                    format!(
                        "arraycopy: element type mismatch: can not cast one of the elements of {}[] to the type of the destination array, {}",
                        elem_name(&sc),
                        c.vm.class_of(sp, v).java_name()
                    ),
                );
            }
        }
    }
    void()
}

fn elem_name(c: &crate::class::Class) -> String {
    match c.elem {
        Some(Kind::L) => c.component.as_ref().unwrap().java_name(),
        Some(k) => match k {
            Kind::Z => "boolean",
            Kind::B => "byte",
            Kind::C => "char",
            Kind::S => "short",
            Kind::I => "int",
            Kind::F => "float",
            Kind::J => "long",
            Kind::D => "double",
            Kind::L => unreachable!(),
        }
        .into(),
        None => c.java_name(),
    }
}

fn clone(c: &mut NCtx, a: &[Value]) -> NRes {
    let o = r(&a[0]);
    let sp = c.space;
    let cl = c.vm.class_of(sp, o);
    if !cl.is_array() {
        let cloneable = c.vm.reg.load("java/lang/Cloneable").unwrap();
        if !cl.is_subtype_of(&cloneable) {
            return NRes::ThrowNew("java/lang/CloneNotSupportedException", cl.java_name());
        }
    }
    let words = c.vm.object_words(sp, o, &cl);
    let Some(at) = c.vm.alloc_clone(cl.id, words, c.alloc()) else { return NRes::NeedGc };
    for k in 0..words {
        sp.set(at + k, sp.get(o as usize + k));
    }
    sp.set(at + 1, 0); // fresh identity hash
    sp.set(at + 2, 0); // no monitor
    ret_r(at as Ref)
}

fn thread_field(c: &NCtx, name: &str, desc: &str) -> usize {
    c.vm.field_offset("java/lang/Thread", name, desc)
}

fn start_thread(c: &mut NCtx, a: &[Value]) -> NRes {
    let obj = r(&a[0]);
    let vm = c.vm;
    let sp = c.space;
    let name = vm.rust_string(sp, sp.get(obj as usize + thread_field(c, "name", "Ljava/lang/String;")));
    let daemon = sp.get(obj as usize + thread_field(c, "daemon", "Z")) != 0;
    let tc = vm.reg.load("java/lang/Thread").unwrap();
    let m = tc.find_method("runThread", "()V").expect("Thread.runThread");
    let kind = if daemon { rvm_abi::thread_kind::DAEMON } else { rvm_abi::thread_kind::APPLICATION };
    let tid = crate::sched::register_thread(vm, kind, |tid| JThread::new(tid, name, obj, daemon, false));
    sp.set(obj as usize + thread_field(c, "tid", "I"), tid);
    let t = vm.sched.thread(tid);
    {
        let mut th = t.lock().unwrap();
        if let Err(e) = crate::interp::call_bottom(vm, &mut th, m, &[Value::Ref(obj)]) {
            return NRes::ThrowNew("java/lang/InternalError", e);
        }
    }
    let mut st = vm.sched.lock();
    crate::sched::make_ready(vm, &mut st, tid);
    void()
}

fn stack_line(c: &mut NCtx, a: &[Value]) -> NRes {
    let (t, k) = (r(&a[0]), i(&a[1]) as usize);
    let sp = c.space;
    let bt = sp.get(t as usize + c.vm.field_offset("java/lang/Throwable", "backtrace", "Ljava/lang/Object;"));
    if bt == 0 {
        return ret_r(0);
    }
    let mid = sp.array_get(bt, 4, 2 * k) as u32;
    let line = sp.array_get(bt, 4, 2 * k + 1) as u32 as i32;
    let m = c.vm.reg.method(mid);
    let cl = c.vm.reg.class(m.class_id);
    let loc = match (line, &cl.source_file) {
        (-2, _) => "Native Method".to_string(),
        (0, Some(f)) => f.clone(),
        (n, Some(f)) => format!("{f}:{n}"),
        (_, None) => "Unknown Source".into(),
    };
    let s = format!("{}.{}({})", cl.java_name(), m.name, loc);
    string(c, &s)
}

fn math1(a: &[Value], f: fn(f64) -> f64) -> NRes {
    ret_d(f(d(&a[0])))
}

pub fn table() -> NativeTable {
    let mut t: NativeTable = FxHashMap::default();
    macro_rules! n {
        ($k:expr, $f:expr) => {
            t.insert($k, $f as NativeFn);
        };
    }
    // java.lang.Object
    n!("java/lang/Object.getClass()Ljava/lang/Class;", |c, a| {
        let cl = c.vm.class_of(c.space, r(&a[0]));
        ret_r(c.vm.mirror(&cl))
    });
    n!("java/lang/Object.hashCode()I", |c, a| ret_i(identity_hash(c.vm, c.space, r(&a[0]))));
    n!("java/lang/Object.clone()Ljava/lang/Object;", clone);
    n!("java/lang/Object.notify()V", |c, a| match crate::sched::notify(c.vm, c.th.id, r(&a[0]), false) {
        Ok(()) => void(),
        Err(crate::sched::NotOwner) => NRes::ThrowNew("java/lang/IllegalMonitorStateException", "current thread is not owner".into()),
    });
    n!("java/lang/Object.notifyAll()V", |c, a| match crate::sched::notify(c.vm, c.th.id, r(&a[0]), true) {
        Ok(()) => void(),
        Err(crate::sched::NotOwner) => NRes::ThrowNew("java/lang/IllegalMonitorStateException", "current thread is not owner".into()),
    });
    n!("java/lang/Object.wait0(J)V", |c, a| {
        let ms = l(&a[1]);
        if ms < 0 {
            return NRes::ThrowNew("java/lang/IllegalArgumentException", "timeout value is negative".into());
        }
        match crate::sched::wait(c.vm, c.th, r(&a[0]), ms) {
            crate::sched::WaitResult::Blocked => {
                c.th.waiting = true;
                c.th.switch_reason = rvm_abi::switch_reason::WAIT;
                let class = c.space.class_id(r(&a[0]));
                hook!(c.vm, monitor_wait(c.th.id, class, ms, JavaStack::with_native(&c.th.frames, c.method)));
                NRes::Block
            }
            crate::sched::WaitResult::NotOwner => {
                NRes::ThrowNew("java/lang/IllegalMonitorStateException", "current thread is not owner".into())
            }
            crate::sched::WaitResult::Interrupted => NRes::ThrowNew("java/lang/InterruptedException", String::new()),
        }
    });
    // hpmagent.Trace (the marker API; without an agent a marker does nothing)
    n!("hpmagent/Trace.mark0(IILjava/lang/String;)V", |c, a| {
        let (kind, run, text) = (i(&a[0]) as u32, i(&a[1]) as u32, r(&a[2]));
        hook!(c.vm, marker(c.vp as u32, c.th.id, kind, run, &c.vm.rust_string(c.space, text), JavaStack::with_native(&c.th.frames, c.method)));
        void()
    });
    // java.lang.Class
    n!("java/lang/Class.getName0()Ljava/lang/String;", |c, a| {
        let id = c.space.get(r(&a[0]) as usize + c.vm.field_offset("java/lang/Class", "id", "I"));
        let cl = c.vm.reg.class(id);
        let name = cl.java_name();
        string(c, &name)
    });
    n!("java/lang/Class.isInterface()Z", |c, a| {
        let id = c.space.get(r(&a[0]) as usize + c.vm.field_offset("java/lang/Class", "id", "I"));
        ret_i(c.vm.reg.class(id).is_interface as i32)
    });
    n!("java/lang/Class.isArray()Z", |c, a| {
        let id = c.space.get(r(&a[0]) as usize + c.vm.field_offset("java/lang/Class", "id", "I"));
        ret_i(c.vm.reg.class(id).is_array() as i32)
    });
    n!("java/lang/Class.isInstance(Ljava/lang/Object;)Z", |c, a| {
        let id = c.space.get(r(&a[0]) as usize + c.vm.field_offset("java/lang/Class", "id", "I"));
        let o = r(&a[1]);
        ret_i((o != 0 && crate::interp::is_instance(c.vm, c.space, o, c.vm.reg.class(id))) as i32)
    });
    n!("java/lang/Class.getSuperclass()Ljava/lang/Class;", |c, a| {
        let id = c.space.get(r(&a[0]) as usize + c.vm.field_offset("java/lang/Class", "id", "I"));
        let cl = c.vm.reg.class(id);
        match &cl.super_class {
            Some(s) if !cl.is_interface => ret_r(c.vm.mirror(s)),
            _ => ret_r(0),
        }
    });
    n!("java/lang/Class.getEnumConstants0()[Ljava/lang/Object;", |c, a| {
        let id = c.space.get(r(&a[0]) as usize + c.vm.field_offset("java/lang/Class", "id", "I"));
        let cl = c.vm.reg.class(id);
        match cl.fields.iter().find(|f| f.is_static && f.name == "$VALUES") {
            Some(f) if cl.initialized.load(Acquire) => ret_r(cl.statics[f.offset].load(Relaxed)),
            _ => ret_r(0),
        }
    });
    // java.lang.System
    n!("java/lang/System.arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V", arraycopy);
    n!("java/lang/System.currentTimeMillis()J", |_c, _a| {
        let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
        ret_l(t.as_millis() as i64)
    });
    n!("java/lang/System.nanoTime()J", |_c, _a| {
        static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        let s = START.get_or_init(std::time::Instant::now);
        ret_l(s.elapsed().as_nanos() as i64 + 1_000_000_000)
    });
    n!("java/lang/System.exit0(I)V", |c, a| {
        c.vm.flush_out();
        NRes::Exit(i(&a[0]))
    });
    n!("java/lang/System.identityHashCode(Ljava/lang/Object;)I", |c, a| {
        let o = r(&a[0]);
        ret_i(if o == 0 { 0 } else { identity_hash(c.vm, c.space, o) })
    });
    n!("java/lang/System.gc0()V", |c, _a| {
        let mut st = c.vm.sched.lock();
        crate::sched::request_gc(c.vm, &mut st);
        NRes::Yield
    });
    n!("java/lang/Runtime.availableProcessors0()I", |c, _a| ret_i(c.vm.opts.vps as i32));
    n!("java/lang/Runtime.maxMemory0()J", |c, _a| ret_l((c.vm.heap.max_semi_words * 4) as i64));
    n!("java/lang/Runtime.totalMemory0()J", |c, _a| ret_l((c.vm.heap.current().w.len() * 4) as i64));
    n!("java/lang/Runtime.freeMemory0()J", |c, _a| {
        let h = &c.vm.heap;
        ret_l((h.limit.load(Relaxed).saturating_sub(h.top.load(Relaxed)) * 4) as i64)
    });
    // java.io.PrintStream
    n!("java/io/PrintStream.write0(ILjava/lang/String;Z)V", |c, a| {
        let mut s = c.vm.rust_string(c.space, r(&a[1]));
        if i(&a[2]) != 0 {
            s.push('\n');
        }
        c.vm.write_out(i(&a[0]), s.as_bytes());
        void()
    });
    n!("java/io/PrintStream.writeBytes0(I[BII)V", |c, a| {
        let (arr, off, len) = (r(&a[1]), i(&a[2]) as usize, i(&a[3]) as usize);
        let b: Vec<u8> = (0..len).map(|k| c.space.array_get(arr, 1, off + k) as u8).collect();
        c.vm.write_out(i(&a[0]), &b);
        void()
    });
    n!("java/io/PrintStream.flush0(I)V", |c, _a| {
        c.vm.flush_out();
        void()
    });
    // java.lang.Thread
    n!("java/lang/Thread.currentThread()Ljava/lang/Thread;", |c, _a| ret_r(c.th.obj));
    n!("java/lang/Thread.start0()V", start_thread);
    n!("java/lang/Thread.sleep0(J)V", |c, a| {
        if crate::sched::sleep(c.vm, c.th.id, l(&a[0])) {
            c.th.switch_reason = rvm_abi::switch_reason::SLEEP;
            NRes::Block
        } else {
            NRes::ThrowNew("java/lang/InterruptedException", "sleep interrupted".into())
        }
    });
    n!("java/lang/Thread.yield0()V", |_c, _a| NRes::Yield);
    n!("java/lang/Thread.interrupt0(I)V", |c, a| {
        let tid = i(&a[1]);
        if tid >= 0 {
            crate::sched::interrupt(c.vm, tid as u32);
        }
        void()
    });
    n!("java/lang/Thread.isInterrupted0(IZ)Z", |c, a| {
        let tid = i(&a[1]);
        if tid < 0 {
            return ret_i(0);
        }
        let mut st = c.vm.sched.lock();
        let v = st.interrupted[tid as usize];
        if i(&a[2]) != 0 {
            st.interrupted[tid as usize] = false;
        }
        ret_i(v as i32)
    });
    n!("java/lang/Thread.state0(I)I", |c, a| {
        let tid = i(&a[1]);
        ret_i(if tid < 0 { 0 } else { crate::sched::thread_state(c.vm, tid as u32) })
    });
    n!("java/lang/management/ManagementFactory.currentThreadCpuTime0()J", |c, _a| {
        ret_l((c.th.cpu_ns + crate::agent::thread_cpu_ns().saturating_sub(c.th.cpu_start)) as i64)
    });
    n!("jdk/internal/rvm/Stdin.read0([BII)I", crate::stdin::read);
    n!("jdk/internal/rvm/Stdin.available0()I", crate::stdin::available);
    n!("java/lang/Thread.holdsLock(Ljava/lang/Object;)Z", |c, a| {
        ret_i(crate::sched::holds_lock(c.vm, c.th.id, r(&a[0])) as i32)
    });
    // java.lang.String
    n!("java/lang/String.intern()Ljava/lang/String;", |c, a| {
        let s = r(&a[0]);
        let units = c.vm.string_units(c.space, s);
        let mut table = c.vm.interned.lock().unwrap();
        if let Some(&i) = table.get(&units) {
            return ret_r(c.vm.root(i));
        }
        let i = c.vm.add_root(s);
        table.insert(units, i);
        ret_r(s)
    });
    // Floating point.
    n!("java/lang/Float.floatToRawIntBits(F)I", |_c, a| ret_i(f(&a[0]).to_bits() as i32));
    n!("java/lang/Float.intBitsToFloat(I)F", |_c, a| NRes::Ret(Some(Value::Float(f32::from_bits(i(&a[0]) as u32)))));
    n!("java/lang/Double.doubleToRawLongBits(D)J", |_c, a| ret_l(d(&a[0]).to_bits() as i64));
    n!("java/lang/Double.longBitsToDouble(J)D", |_c, a| ret_d(f64::from_bits(l(&a[0]) as u64)));
    n!("java/lang/Double.toString(D)Ljava/lang/String;", |c, a| {
        let s = java_double(d(&a[0]));
        string(c, &s)
    });
    n!("java/lang/Float.toString(F)Ljava/lang/String;", |c, a| {
        let s = java_float(f(&a[0]));
        string(c, &s)
    });
    n!("java/lang/Double.parse0(Ljava/lang/String;)D", |c, a| {
        let s = c.vm.rust_string(c.space, r(&a[0]));
        let t = s.trim().trim_end_matches(['d', 'D', 'f', 'F']);
        let v = match t {
            "NaN" | "+NaN" | "-NaN" => Some(f64::NAN),
            "Infinity" | "+Infinity" => Some(f64::INFINITY),
            "-Infinity" => Some(f64::NEG_INFINITY),
            _ if t.chars().all(|ch| ch.is_ascii_digit() || "+-.eE".contains(ch)) && !t.is_empty() => t.parse::<f64>().ok(),
            _ => None,
        };
        match v {
            Some(v) => ret_d(v),
            None => NRes::ThrowNew(
                "java/lang/NumberFormatException",
                if s.trim().is_empty() { "empty String".into() } else { format!("For input string: \"{s}\"") },
            ),
        }
    });
    // java.lang.Math: for each function the implementation that agrees most often with HotSpot
    // (measured on 20 000 random arguments): fdlibm ports (libm crate, fdlibm_cbrt) where HotSpot
    // uses StrictMath, the platform libm where HotSpot uses its own intrinsics.
    n!("java/lang/Math.sin(D)D", |_c, a| math1(a, f64::sin));
    n!("java/lang/Math.cos(D)D", |_c, a| math1(a, f64::cos));
    n!("java/lang/Math.tan(D)D", |_c, a| math1(a, f64::tan));
    n!("java/lang/Math.asin(D)D", |_c, a| math1(a, libm::asin));
    n!("java/lang/Math.acos(D)D", |_c, a| math1(a, libm::acos));
    n!("java/lang/Math.atan(D)D", |_c, a| math1(a, libm::atan));
    n!("java/lang/Math.exp(D)D", |_c, a| math1(a, f64::exp));
    n!("java/lang/Math.log(D)D", |_c, a| math1(a, f64::ln));
    n!("java/lang/Math.log10(D)D", |_c, a| math1(a, libm::log10));
    n!("java/lang/Math.sqrt(D)D", |_c, a| math1(a, f64::sqrt));
    n!("java/lang/Math.cbrt(D)D", |_c, a| math1(a, fdlibm_cbrt));
    n!("java/lang/Math.floor(D)D", |_c, a| math1(a, f64::floor));
    n!("java/lang/Math.ceil(D)D", |_c, a| math1(a, f64::ceil));
    n!("java/lang/Math.rint(D)D", |_c, a| math1(a, f64::round_ties_even));
    n!("java/lang/Math.sinh(D)D", |_c, a| math1(a, libm::sinh));
    n!("java/lang/Math.cosh(D)D", |_c, a| math1(a, libm::cosh));
    n!("java/lang/Math.tanh(D)D", |_c, a| math1(a, f64::tanh));
    n!("java/lang/Math.expm1(D)D", |_c, a| math1(a, libm::expm1));
    n!("java/lang/Math.log1p(D)D", |_c, a| math1(a, f64::ln_1p));
    n!("java/lang/Math.atan2(DD)D", |_c, a| ret_d(libm::atan2(d(&a[0]), d(&a[2]))));
    n!("java/lang/Math.hypot(DD)D", |_c, a| ret_d(libm::hypot(d(&a[0]), d(&a[2]))));
    n!("java/lang/Math.pow(DD)D", |_c, a| ret_d(java_pow(d(&a[0]), d(&a[2]))));
    // java.lang.Throwable
    n!("java/lang/Throwable.fillInStackTrace0()V", |c, a| {
        let t = r(&a[0]);
        let Some(bt) = crate::interp::backtrace(c.vm, c.space, c.th, c.alloc()) else { return NRes::NeedGc };
        c.space.set(t as usize + c.vm.field_offset("java/lang/Throwable", "backtrace", "Ljava/lang/Object;"), bt);
        void()
    });
    n!("java/lang/Throwable.stackDepth0()I", |c, a| {
        let t = r(&a[0]);
        let bt = c.space.get(t as usize + c.vm.field_offset("java/lang/Throwable", "backtrace", "Ljava/lang/Object;"));
        ret_i(if bt == 0 { 0 } else { (c.space.array_len(bt) / 2) as i32 })
    });
    n!("java/lang/Throwable.stackLine0(I)Ljava/lang/String;", stack_line);
    // java.util.Arrays
    n!("java/util/Arrays.newArrayLike([Ljava/lang/Object;I)[Ljava/lang/Object;", |c, a| {
        let cl = c.vm.class_of(c.space, r(&a[0]));
        let n = i(&a[1]);
        if n < 0 {
            return NRes::ThrowNew("java/lang/NegativeArraySizeException", n.to_string());
        }
        match c.vm.alloc_array(c.space, &cl, n as usize, c.alloc()) {
            Some(x) => ret_r(x),
            None => NRes::NeedGc,
        }
    });
    n!("java/util/Arrays.newArray0(Ljava/lang/Class;I)[Ljava/lang/Object;", |c, a| {
        let id = c.space.get(r(&a[0]) as usize + c.vm.field_offset("java/lang/Class", "id", "I"));
        let cl = c.vm.reg.class(id);
        let n = i(&a[1]);
        if n < 0 {
            return NRes::ThrowNew("java/lang/NegativeArraySizeException", n.to_string());
        }
        if !cl.is_array() {
            return NRes::ThrowNew("java/lang/IllegalArgumentException", "not an array class".into());
        }
        match c.vm.alloc_array(c.space, cl, n as usize, c.alloc()) {
            Some(x) => ret_r(x),
            None => NRes::NeedGc,
        }
    });
    crate::juc::register(&mut t);
    crate::fileio::register(&mut t);
    crate::inflate::register(&mut t);
    crate::deflate::register(&mut t);
    crate::reflect::register(&mut t);
    t
}

/// fdlibm's cbrt (Java's StrictMath.cbrt, which Math.cbrt uses): a bit-level estimate refined by
/// one rational and one Newton step. The constants are fdlibm's, digit for digit.
#[allow(clippy::excessive_precision)]
fn fdlibm_cbrt(x: f64) -> f64 {
    const B1: u32 = 715094163;
    const B2: u32 = 696219795;
    const C: f64 = 5.42857142857142815906e-01;
    const D: f64 = -7.05306122448979611050e-01;
    const E: f64 = 1.41428571428571436819e+00;
    const F: f64 = 1.60714285714285720630e+00;
    const G: f64 = 3.57142857142857150787e-01;
    let bits = x.to_bits();
    let hi = (bits >> 32) as u32;
    let sign = hi & 0x8000_0000;
    let hx = hi & 0x7fff_ffff;
    if hx >= 0x7ff0_0000 {
        return x + x;
    }
    if (hx as u64 | (bits & 0xffff_ffff)) == 0 {
        return x;
    }
    let x = f64::from_bits(bits & 0x7fff_ffff_ffff_ffff);
    let with_high = |v: f64, h: u32| f64::from_bits((v.to_bits() & 0xffff_ffff) | ((h as u64) << 32));
    let mut t = if hx < 0x0010_0000 {
        let t = f64::from_bits(0x4350_0000_0000_0000) * x; // 2^54 * x
        with_high(t, ((t.to_bits() >> 32) as u32) / 3 + B2)
    } else {
        f64::from_bits(((hx / 3 + B1) as u64) << 32)
    };
    let r = t * t / x;
    let s = C + r * t;
    t *= G + F / (s + E + D / s);
    // chop to 20 bits and make it larger than cbrt(x)
    t = f64::from_bits(((((t.to_bits() >> 32) as u32) + 1) as u64) << 32);
    let s = t * t;
    let mut r = x / s;
    let w = t + t;
    r = (r - t) / (w + r);
    t += t * r;
    f64::from_bits(t.to_bits() | ((sign as u64) << 32))
}

/// `Math.pow` with Java's special cases (Rust's `powf` differs for pow(±1, NaN/∞)).
fn java_pow(x: f64, y: f64) -> f64 {
    if y.is_nan() {
        return f64::NAN;
    }
    if (x == 1.0 || x == -1.0) && y.is_infinite() {
        return f64::NAN;
    }
    if x.is_nan() && y != 0.0 {
        return f64::NAN;
    }
    x.powf(y)
}
