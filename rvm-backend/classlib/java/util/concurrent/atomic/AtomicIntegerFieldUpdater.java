package java.util.concurrent.atomic;

import java.util.function.IntUnaryOperator;
import java.util.function.IntBinaryOperator;
import jdk.internal.rvm.Atomic;

/**
 * Atomic updates of a volatile int field named at creation, in objects of one class (rvm: by
 * the field's word offset, as the Atomic classes; the field is checked by reflection).
 */
public abstract class AtomicIntegerFieldUpdater<T> {
    public static <U> AtomicIntegerFieldUpdater<U> newUpdater(Class<U> tclass, String fieldName) { return new Impl<U>(tclass, offsetOf(tclass, fieldName, int.class)); }

    protected AtomicIntegerFieldUpdater() {}

    public abstract boolean compareAndSet(T obj, int expect, int update);
    public boolean weakCompareAndSet(T obj, int expect, int update) { return compareAndSet(obj, expect, update); }
    public abstract void set(T obj, int newValue);
    public void lazySet(T obj, int newValue) { set(obj, newValue); }
    public abstract int get(T obj);

    public int getAndSet(T obj, int newValue) {
        int prev;
        do { prev = get(obj); } while (!compareAndSet(obj, prev, newValue));
        return prev;
    }
    
    public int getAndIncrement(T obj) { return getAndAdd(obj, 1); }
    public int getAndDecrement(T obj) { return getAndAdd(obj, -1); }
    public int getAndAdd(T obj, int delta) {
        int prev;
        do { prev = get(obj); } while (!compareAndSet(obj, prev, prev + delta));
        return prev;
    }
    public int incrementAndGet(T obj) { return getAndAdd(obj, 1) + 1; }
    public int decrementAndGet(T obj) { return getAndAdd(obj, -1) - 1; }
    public int addAndGet(T obj, int delta) { return getAndAdd(obj, delta) + delta; }

    public final int getAndUpdate(T obj, IntUnaryOperator f) {
        int prev, next;
        do { prev = get(obj); next = f.applyAsInt(prev); } while (!compareAndSet(obj, prev, next));
        return prev;
    }
    public final int updateAndGet(T obj, IntUnaryOperator f) {
        int prev, next;
        do { prev = get(obj); next = f.applyAsInt(prev); } while (!compareAndSet(obj, prev, next));
        return next;
    }
    public final int getAndAccumulate(T obj, int x, IntBinaryOperator f) {
        int prev, next;
        do { prev = get(obj); next = f.applyAsInt(prev, x); } while (!compareAndSet(obj, prev, next));
        return prev;
    }
    public final int accumulateAndGet(T obj, int x, IntBinaryOperator f) {
        int prev, next;
        do { prev = get(obj); next = f.applyAsInt(prev, x); } while (!compareAndSet(obj, prev, next));
        return next;
    }

    /** The word offset of field {@code name} of {@code c}, after checking it is a volatile field of
     * {@code type} (any reference type: null). The Long and Reference updaters use it too. */
    static int offsetOf(Class<?> c, String name, Class<?> type) {
        java.lang.reflect.Field f;
        try {
            f = c.getDeclaredField(name);
        } catch (NoSuchFieldException e) {
            throw new RuntimeException(e);
        }
        if (type != null && f.getType() != type) throw new IllegalArgumentException("Must be " + type.getName() + " type");
        if (!java.lang.reflect.Modifier.isVolatile(f.getModifiers())) throw new IllegalArgumentException("Must be volatile type");
        if (java.lang.reflect.Modifier.isStatic(f.getModifiers())) throw new IllegalArgumentException();
        return Atomic.offset(c, name);
    }

    private static final class Impl<T> extends AtomicIntegerFieldUpdater<T> {
        private final Class<T> holder;
        private final int offset;
        Impl(Class<T> holder, int offset) { this.holder = holder; this.offset = offset; }
        private void check(T obj) {
            if (!holder.isInstance(obj)) throw new ClassCastException("Cannot cast " + (obj == null ? "null" : obj.getClass().getName()) + " to " + holder.getName());
        }
        public boolean compareAndSet(T obj, int expect, int update) { check(obj); return Atomic.casInt(obj, offset, expect, update); }
        public void set(T obj, int newValue) { check(obj); Atomic.putInt(obj, offset, newValue); }
        public int get(T obj) { check(obj); return Atomic.getInt(obj, offset); }
    }
}
