package java.util.concurrent.atomic;

import java.util.function.BinaryOperator;
import java.util.function.UnaryOperator;
import jdk.internal.rvm.Atomic;

public class AtomicReference<V> implements java.io.Serializable {
    private static final int VALUE = Atomic.offset(AtomicReference.class, "value");
    private volatile V value;

    public AtomicReference(V initialValue) { value = initialValue; }
    public AtomicReference() {}

    @SuppressWarnings("unchecked")
    public final V get() { return (V) Atomic.getRef(this, VALUE); }
    public final void set(V newValue) { Atomic.putRef(this, VALUE, newValue); }
    public final void lazySet(V newValue) { set(newValue); }
    /** Identity comparison, as in the JDK. */
    public final boolean compareAndSet(V expectedValue, V newValue) { return Atomic.casRef(this, VALUE, expectedValue, newValue); }
    public final boolean weakCompareAndSet(V expectedValue, V newValue) { return compareAndSet(expectedValue, newValue); }
    public final boolean weakCompareAndSetPlain(V expectedValue, V newValue) { return compareAndSet(expectedValue, newValue); }
    public final boolean weakCompareAndSetVolatile(V expectedValue, V newValue) { return compareAndSet(expectedValue, newValue); }
    public final V compareAndExchange(V expectedValue, V newValue) {
        for (;;) {
            V v = get();
            if (v != expectedValue || compareAndSet(v, newValue)) return v;
        }
    }
    @SuppressWarnings("unchecked")
    public final V getAndSet(V newValue) { return (V) Atomic.getAndSetRef(this, VALUE, newValue); }
    public final V getPlain() { return value; }
    public final void setPlain(V newValue) { value = newValue; }
    public final V getAcquire() { return get(); }
    public final void setRelease(V newValue) { set(newValue); }
    public final V getOpaque() { return get(); }
    public final void setOpaque(V newValue) { set(newValue); }
    public final V getAndUpdate(UnaryOperator<V> f) {
        for (;;) {
            V prev = get(), next = f.apply(prev);
            if (compareAndSet(prev, next)) return prev;
        }
    }
    public final V updateAndGet(UnaryOperator<V> f) {
        for (;;) {
            V prev = get(), next = f.apply(prev);
            if (compareAndSet(prev, next)) return next;
        }
    }
    public final V getAndAccumulate(V x, BinaryOperator<V> f) {
        for (;;) {
            V prev = get(), next = f.apply(prev, x);
            if (compareAndSet(prev, next)) return prev;
        }
    }
    public final V accumulateAndGet(V x, BinaryOperator<V> f) {
        for (;;) {
            V prev = get(), next = f.apply(prev, x);
            if (compareAndSet(prev, next)) return next;
        }
    }
    public String toString() { return String.valueOf(get()); }
}
