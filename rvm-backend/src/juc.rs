//! Natives under `java.util.concurrent`: the atomic operations on heap slots that the atomics,
//! locks and concurrent collections of the class library are built on (`jdk.internal.rvm.Atomic`),
//! and `LockSupport`'s park and unpark, which the scheduler implements (`sched::park`,
//! `sched::unpark`).
//!
//! Why the atomics are atomic: the processors are OS threads running in parallel on one heap, and
//! every heap word is an `AtomicU32` (`heap.rs`), so a 32-bit slot (`int`, `boolean`, a reference)
//! is compared-and-swapped, added to and exchanged with the word's own atomic instructions
//! (`SeqCst`: they also order the plain, relaxed accesses around them, as a volatile access does
//! in Java). Nothing can move the object meanwhile: a collection starts only when every processor
//! has stopped at a yieldpoint, and a native call is none. A 64-bit slot is two words, which no
//! single instruction on them updates together, so its operations (reads and writes included) are
//! made under one of [`LONG_LOCKS`], chosen by the slot's address; every access of the long value
//! of an atomic class goes through these natives, so none of them sees half an update. No
//! `unsafe` is needed.

use crate::heap::Space;
use crate::native::{i, l, r, ret_i, ret_l, ret_r, NCtx, NRes, NativeFn, NativeTable};
use crate::vm::Value;
use rvm_abi::switch_reason;
use std::sync::atomic::Ordering::SeqCst;
use std::sync::Mutex;

/// Locks of the 64-bit slots, by word address: held only inside one native (no yieldpoint, no
/// allocation, no other lock taken), so they cannot deadlock or span a collection.
static LONG_LOCKS: [Mutex<()>; 64] = [const { Mutex::new(()) }; 64];

fn long_lock(at: usize) -> std::sync::MutexGuard<'static, ()> {
    LONG_LOCKS[at % LONG_LOCKS.len()].lock().unwrap_or_else(|e| e.into_inner())
}

/// The word index of field slot `off` of `o`, or the exception for a null object.
fn slot(a: &[Value]) -> Result<usize, NRes> {
    let o = r(&a[0]);
    if o == 0 {
        return Err(NRes::ThrowNew("java/lang/NullPointerException", String::new()));
    }
    Ok(o as usize + i(&a[1]) as usize)
}

fn get_long(sp: &Space, at: usize) -> i64 {
    sp.get64(at) as i64
}

/// `Atomic.offset(Class, String)`: the word offset of the named instance field of the class (or
/// of a superclass), for the other natives.
fn offset(c: &mut NCtx, a: &[Value]) -> NRes {
    let (mirror, name) = (r(&a[0]), r(&a[1]));
    let id = c.space.get(mirror as usize + c.vm.field_offset("java/lang/Class", "id", "I"));
    let name = c.vm.rust_string(c.space, name);
    let mut class = Some(c.vm.reg.class(id).clone());
    while let Some(cl) = class {
        if let Some(f) = cl.fields.iter().find(|f| !f.is_static && f.name == name) {
            return NRes::Ret(Some(Value::Int(f.offset as i32)));
        }
        class = cl.super_class.clone();
    }
    let owner = c.vm.reg.class(id).java_name();
    NRes::ThrowNew("java/lang/NoSuchFieldError", format!("{owner}.{name}"))
}

macro_rules! at {
    ($a:expr) => {
        match slot($a) {
            Ok(at) => at,
            Err(e) => return e,
        }
    };
}

pub fn register(t: &mut NativeTable) {
    macro_rules! n {
        ($k:expr, $f:expr) => {
            t.insert(concat!("jdk/internal/rvm/Atomic.", $k), $f as NativeFn);
        };
    }
    n!("offset(Ljava/lang/Class;Ljava/lang/String;)I", offset);
    // 32-bit slots: int, boolean (0/1) and references are one heap word each.
    n!("getInt(Ljava/lang/Object;I)I", |c, a| ret_i(c.space.w[at!(a)].load(SeqCst) as i32));
    n!("putInt(Ljava/lang/Object;II)V", |c, a| {
        c.space.w[at!(a)].store(i(&a[2]) as u32, SeqCst);
        NRes::Ret(None)
    });
    n!("casInt(Ljava/lang/Object;III)Z", |c, a| {
        let ok = c.space.w[at!(a)].compare_exchange(i(&a[2]) as u32, i(&a[3]) as u32, SeqCst, SeqCst).is_ok();
        ret_i(ok as i32)
    });
    n!("getAndAddInt(Ljava/lang/Object;II)I", |c, a| ret_i(c.space.w[at!(a)].fetch_add(i(&a[2]) as u32, SeqCst) as i32));
    n!("getAndSetInt(Ljava/lang/Object;II)I", |c, a| ret_i(c.space.w[at!(a)].swap(i(&a[2]) as u32, SeqCst) as i32));
    n!("getRef(Ljava/lang/Object;I)Ljava/lang/Object;", |c, a| ret_r(c.space.w[at!(a)].load(SeqCst)));
    n!("putRef(Ljava/lang/Object;ILjava/lang/Object;)V", |c, a| {
        c.space.w[at!(a)].store(r(&a[2]), SeqCst);
        NRes::Ret(None)
    });
    // A reference is the object's word index, so comparing words is comparing identities.
    n!("casRef(Ljava/lang/Object;ILjava/lang/Object;Ljava/lang/Object;)Z", |c, a| {
        let ok = c.space.w[at!(a)].compare_exchange(r(&a[2]), r(&a[3]), SeqCst, SeqCst).is_ok();
        ret_i(ok as i32)
    });
    n!("getAndSetRef(Ljava/lang/Object;ILjava/lang/Object;)Ljava/lang/Object;", |c, a| ret_r(c.space.w[at!(a)].swap(r(&a[2]), SeqCst)));
    // 64-bit slots (two words) under their lock; a long argument takes two stack slots.
    n!("getLong(Ljava/lang/Object;I)J", |c, a| {
        let at = at!(a);
        let _g = long_lock(at);
        ret_l(get_long(c.space, at))
    });
    n!("putLong(Ljava/lang/Object;IJ)V", |c, a| {
        let at = at!(a);
        let _g = long_lock(at);
        c.space.set64(at, l(&a[2]) as u64);
        NRes::Ret(None)
    });
    n!("casLong(Ljava/lang/Object;IJJ)Z", |c, a| {
        let at = at!(a);
        let _g = long_lock(at);
        let ok = get_long(c.space, at) == l(&a[2]);
        if ok {
            c.space.set64(at, l(&a[4]) as u64);
        }
        ret_i(ok as i32)
    });
    n!("getAndAddLong(Ljava/lang/Object;IJ)J", |c, a| {
        let at = at!(a);
        let _g = long_lock(at);
        let old = get_long(c.space, at);
        c.space.set64(at, old.wrapping_add(l(&a[2])) as u64);
        ret_l(old)
    });
    n!("getAndSetLong(Ljava/lang/Object;IJ)J", |c, a| {
        let at = at!(a);
        let _g = long_lock(at);
        let old = get_long(c.space, at);
        c.space.set64(at, l(&a[2]) as u64);
        ret_l(old)
    });

    // LockSupport: the permit and the parked state are the scheduler's (`sched::park`).
    t.insert("java/util/concurrent/locks/LockSupport.park0(J)V", (|c, a| {
        if crate::sched::park(c.vm, c.th.id, l(&a[0])) {
            c.th.switch_reason = switch_reason::PARK;
            NRes::Block
        } else {
            NRes::Ret(None)
        }
    }) as NativeFn);
    t.insert("java/util/concurrent/locks/LockSupport.unpark0(Ljava/lang/Thread;)V", (|c, a| {
        let obj = r(&a[0]);
        let tid = c.space.get(obj as usize + c.vm.field_offset("java/lang/Thread", "tid", "I")) as i32;
        if tid < 0 {
            // not started: the JDK does not promise anything either
            return NRes::Ret(None);
        }
        crate::sched::unpark(c.vm, tid as u32);
        // A quantum boundary: the unparking thread offers its processor (to the woken thread if
        // it was queued here), and the trace says why.
        c.th.switch_reason = switch_reason::UNPARK;
        NRes::Yield
    }) as NativeFn);
}
