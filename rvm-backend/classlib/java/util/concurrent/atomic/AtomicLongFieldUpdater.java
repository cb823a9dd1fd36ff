package java.util.concurrent.atomic;

import java.util.function.LongUnaryOperator;
import java.util.function.LongBinaryOperator;
import jdk.internal.rvm.Atomic;

/**
 * Atomic updates of a volatile long field named at creation, in objects of one class (rvm: by
 * the field's word offset, as the Atomic classes; the field is checked by reflection).
 */
public abstract class AtomicLongFieldUpdater<T> {
    public static <U> AtomicLongFieldUpdater<U> newUpdater(Class<U> tclass, String fieldName) { return new Impl<U>(tclass, AtomicIntegerFieldUpdater.offsetOf(tclass, fieldName, long.class)); }

    protected AtomicLongFieldUpdater() {}

    public abstract boolean compareAndSet(T obj, long expect, long update);
    public boolean weakCompareAndSet(T obj, long expect, long update) { return compareAndSet(obj, expect, update); }
    public abstract void set(T obj, long newValue);
    public void lazySet(T obj, long newValue) { set(obj, newValue); }
    public abstract long get(T obj);

    public long getAndSet(T obj, long newValue) {
        long prev;
        do { prev = get(obj); } while (!compareAndSet(obj, prev, newValue));
        return prev;
    }
    
    public long getAndIncrement(T obj) { return getAndAdd(obj, 1); }
    public long getAndDecrement(T obj) { return getAndAdd(obj, -1); }
    public long getAndAdd(T obj, long delta) {
        long prev;
        do { prev = get(obj); } while (!compareAndSet(obj, prev, prev + delta));
        return prev;
    }
    public long incrementAndGet(T obj) { return getAndAdd(obj, 1) + 1; }
    public long decrementAndGet(T obj) { return getAndAdd(obj, -1) - 1; }
    public long addAndGet(T obj, long delta) { return getAndAdd(obj, delta) + delta; }

    public final long getAndUpdate(T obj, LongUnaryOperator f) {
        long prev, next;
        do { prev = get(obj); next = f.applyAsLong(prev); } while (!compareAndSet(obj, prev, next));
        return prev;
    }
    public final long updateAndGet(T obj, LongUnaryOperator f) {
        long prev, next;
        do { prev = get(obj); next = f.applyAsLong(prev); } while (!compareAndSet(obj, prev, next));
        return next;
    }
    public final long getAndAccumulate(T obj, long x, LongBinaryOperator f) {
        long prev, next;
        do { prev = get(obj); next = f.applyAsLong(prev, x); } while (!compareAndSet(obj, prev, next));
        return prev;
    }
    public final long accumulateAndGet(T obj, long x, LongBinaryOperator f) {
        long prev, next;
        do { prev = get(obj); next = f.applyAsLong(prev, x); } while (!compareAndSet(obj, prev, next));
        return next;
    }

    private static final class Impl<T> extends AtomicLongFieldUpdater<T> {
        private final Class<T> holder;
        private final int offset;
        Impl(Class<T> holder, int offset) { this.holder = holder; this.offset = offset; }
        private void check(T obj) {
            if (!holder.isInstance(obj)) throw new ClassCastException("Cannot cast " + (obj == null ? "null" : obj.getClass().getName()) + " to " + holder.getName());
        }
        public boolean compareAndSet(T obj, long expect, long update) { check(obj); return Atomic.casLong(obj, offset, expect, update); }
        public void set(T obj, long newValue) { check(obj); Atomic.putLong(obj, offset, newValue); }
        public long get(T obj) { check(obj); return Atomic.getLong(obj, offset); }
    }
}
