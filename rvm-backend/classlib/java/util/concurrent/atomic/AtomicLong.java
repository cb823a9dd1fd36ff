package java.util.concurrent.atomic;

import java.util.function.LongBinaryOperator;
import java.util.function.LongUnaryOperator;
import jdk.internal.rvm.Atomic;

public class AtomicLong extends Number implements java.io.Serializable {
    private static final int VALUE = Atomic.offset(AtomicLong.class, "value");
    private volatile long value;

    public AtomicLong(long initialValue) { value = initialValue; }
    public AtomicLong() {}

    public final long get() { return Atomic.getLong(this, VALUE); }
    public final void set(long newValue) { Atomic.putLong(this, VALUE, newValue); }
    public final void lazySet(long newValue) { Atomic.putLong(this, VALUE, newValue); }
    public final long getPlain() { return value; }
    public final void setPlain(long newValue) { value = newValue; }
    public final long getAcquire() { return get(); }
    public final void setRelease(long newValue) { set(newValue); }
    public final long getOpaque() { return get(); }
    public final void setOpaque(long newValue) { set(newValue); }
    public final long getAndSet(long newValue) { return Atomic.getAndSetLong(this, VALUE, newValue); }
    public final boolean compareAndSet(long expectedValue, long newValue) { return Atomic.casLong(this, VALUE, expectedValue, newValue); }
    public final boolean weakCompareAndSet(long expectedValue, long newValue) { return compareAndSet(expectedValue, newValue); }
    public final boolean weakCompareAndSetPlain(long expectedValue, long newValue) { return compareAndSet(expectedValue, newValue); }
    public final boolean weakCompareAndSetVolatile(long expectedValue, long newValue) { return compareAndSet(expectedValue, newValue); }
    public final long compareAndExchange(long expectedValue, long newValue) {
        for (;;) {
            long v = get();
            if (v != expectedValue || compareAndSet(v, newValue)) return v;
        }
    }
    public final long getAndIncrement() { return Atomic.getAndAddLong(this, VALUE, 1); }
    public final long getAndDecrement() { return Atomic.getAndAddLong(this, VALUE, -1); }
    public final long getAndAdd(long delta) { return Atomic.getAndAddLong(this, VALUE, delta); }
    public final long incrementAndGet() { return Atomic.getAndAddLong(this, VALUE, 1) + 1; }
    public final long decrementAndGet() { return Atomic.getAndAddLong(this, VALUE, -1) - 1; }
    public final long addAndGet(long delta) { return Atomic.getAndAddLong(this, VALUE, delta) + delta; }
    public final long getAndUpdate(LongUnaryOperator f) {
        for (;;) {
            long prev = get(), next = f.applyAsLong(prev);
            if (compareAndSet(prev, next)) return prev;
        }
    }
    public final long updateAndGet(LongUnaryOperator f) {
        for (;;) {
            long prev = get(), next = f.applyAsLong(prev);
            if (compareAndSet(prev, next)) return next;
        }
    }
    public final long getAndAccumulate(long x, LongBinaryOperator f) {
        for (;;) {
            long prev = get(), next = f.applyAsLong(prev, x);
            if (compareAndSet(prev, next)) return prev;
        }
    }
    public final long accumulateAndGet(long x, LongBinaryOperator f) {
        for (;;) {
            long prev = get(), next = f.applyAsLong(prev, x);
            if (compareAndSet(prev, next)) return next;
        }
    }
    public String toString() { return Long.toString(get()); }
    public int intValue() { return (int) get(); }
    public long longValue() { return get(); }
    public float floatValue() { return (float) get(); }
    public double doubleValue() { return (double) get(); }
}
