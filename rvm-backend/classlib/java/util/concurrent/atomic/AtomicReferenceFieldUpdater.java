package java.util.concurrent.atomic;

import java.util.function.BinaryOperator;
import java.util.function.UnaryOperator;
import jdk.internal.rvm.Atomic;

/**
 * Atomic updates of a volatile reference field named at creation, in objects of one class (rvm: by
 * the field's word offset, as the Atomic classes; the field is checked by reflection).
 */
public abstract class AtomicReferenceFieldUpdater<T, V> {
    public static <U, W> AtomicReferenceFieldUpdater<U, W> newUpdater(Class<U> tclass, Class<W> vclass, String fieldName) {
        java.lang.reflect.Field f;
        try {
            f = tclass.getDeclaredField(fieldName);
        } catch (NoSuchFieldException e) {
            throw new RuntimeException(e);
        }
        // As the JDK's: a field of another type than vclass is a ClassCastException here.
        if (f.getType() != vclass) throw new ClassCastException();
        int offset = AtomicIntegerFieldUpdater.offsetOf(tclass, fieldName, null);
        return new Impl<U, W>(tclass, vclass, offset);
    }

    protected AtomicReferenceFieldUpdater() {}

    public abstract boolean compareAndSet(T obj, V expect, V update);
    public boolean weakCompareAndSet(T obj, V expect, V update) { return compareAndSet(obj, expect, update); }
    public abstract void set(T obj, V newValue);
    public void lazySet(T obj, V newValue) { set(obj, newValue); }
    public abstract V get(T obj);

    public V getAndSet(T obj, V newValue) {
        V prev;
        do { prev = get(obj); } while (!compareAndSet(obj, prev, newValue));
        return prev;
    }
    public final V getAndUpdate(T obj, UnaryOperator<V> f) {
        V prev, next;
        do { prev = get(obj); next = f.apply(prev); } while (!compareAndSet(obj, prev, next));
        return prev;
    }
    public final V updateAndGet(T obj, UnaryOperator<V> f) {
        V prev, next;
        do { prev = get(obj); next = f.apply(prev); } while (!compareAndSet(obj, prev, next));
        return next;
    }
    public final V getAndAccumulate(T obj, V x, BinaryOperator<V> f) {
        V prev, next;
        do { prev = get(obj); next = f.apply(prev, x); } while (!compareAndSet(obj, prev, next));
        return prev;
    }
    public final V accumulateAndGet(T obj, V x, BinaryOperator<V> f) {
        V prev, next;
        do { prev = get(obj); next = f.apply(prev, x); } while (!compareAndSet(obj, prev, next));
        return next;
    }

    private static final class Impl<T, V> extends AtomicReferenceFieldUpdater<T, V> {
        private final Class<T> holder;
        private final Class<V> type;
        private final int offset;
        Impl(Class<T> holder, Class<V> type, int offset) { this.holder = holder; this.type = type; this.offset = offset; }
        private void check(T obj, V value) {
            if (!holder.isInstance(obj)) throw new ClassCastException("Cannot cast " + (obj == null ? "null" : obj.getClass().getName()) + " to " + holder.getName());
            if (value != null && !type.isInstance(value)) throw new ClassCastException("Cannot cast " + value.getClass().getName() + " to " + type.getName());
        }
        public boolean compareAndSet(T obj, V expect, V update) { check(obj, update); return Atomic.casRef(obj, offset, expect, update); }
        public void set(T obj, V newValue) { check(obj, newValue); Atomic.putRef(obj, offset, newValue); }
        @SuppressWarnings("unchecked")
        public V get(T obj) { check(obj, null); return (V) Atomic.getRef(obj, offset); }
    }
}
