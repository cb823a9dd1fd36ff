package java.util.concurrent.atomic;

import java.util.function.IntBinaryOperator;
import java.util.function.IntUnaryOperator;
import jdk.internal.rvm.Atomic;

public class AtomicInteger extends Number implements java.io.Serializable {
    private static final int VALUE = Atomic.offset(AtomicInteger.class, "value");
    private volatile int value;

    public AtomicInteger(int initialValue) { value = initialValue; }
    public AtomicInteger() {}

    public final int get() { return Atomic.getInt(this, VALUE); }
    public final void set(int newValue) { Atomic.putInt(this, VALUE, newValue); }
    public final void lazySet(int newValue) { Atomic.putInt(this, VALUE, newValue); }
    public final int getPlain() { return value; }
    public final void setPlain(int newValue) { value = newValue; }
    public final int getAcquire() { return get(); }
    public final void setRelease(int newValue) { set(newValue); }
    public final int getOpaque() { return get(); }
    public final void setOpaque(int newValue) { set(newValue); }
    public final int getAndSet(int newValue) { return Atomic.getAndSetInt(this, VALUE, newValue); }
    public final boolean compareAndSet(int expectedValue, int newValue) { return Atomic.casInt(this, VALUE, expectedValue, newValue); }
    public final boolean weakCompareAndSet(int expectedValue, int newValue) { return compareAndSet(expectedValue, newValue); }
    public final boolean weakCompareAndSetPlain(int expectedValue, int newValue) { return compareAndSet(expectedValue, newValue); }
    public final boolean weakCompareAndSetVolatile(int expectedValue, int newValue) { return compareAndSet(expectedValue, newValue); }
    public final int compareAndExchange(int expectedValue, int newValue) {
        for (;;) {
            int v = get();
            if (v != expectedValue || compareAndSet(v, newValue)) return v;
        }
    }
    public final int getAndIncrement() { return Atomic.getAndAddInt(this, VALUE, 1); }
    public final int getAndDecrement() { return Atomic.getAndAddInt(this, VALUE, -1); }
    public final int getAndAdd(int delta) { return Atomic.getAndAddInt(this, VALUE, delta); }
    public final int incrementAndGet() { return Atomic.getAndAddInt(this, VALUE, 1) + 1; }
    public final int decrementAndGet() { return Atomic.getAndAddInt(this, VALUE, -1) - 1; }
    public final int addAndGet(int delta) { return Atomic.getAndAddInt(this, VALUE, delta) + delta; }
    public final int getAndUpdate(IntUnaryOperator f) {
        for (;;) {
            int prev = get(), next = f.applyAsInt(prev);
            if (compareAndSet(prev, next)) return prev;
        }
    }
    public final int updateAndGet(IntUnaryOperator f) {
        for (;;) {
            int prev = get(), next = f.applyAsInt(prev);
            if (compareAndSet(prev, next)) return next;
        }
    }
    public final int getAndAccumulate(int x, IntBinaryOperator f) {
        for (;;) {
            int prev = get(), next = f.applyAsInt(prev, x);
            if (compareAndSet(prev, next)) return prev;
        }
    }
    public final int accumulateAndGet(int x, IntBinaryOperator f) {
        for (;;) {
            int prev = get(), next = f.applyAsInt(prev, x);
            if (compareAndSet(prev, next)) return next;
        }
    }
    public String toString() { return Integer.toString(get()); }
    public int intValue() { return get(); }
    public long longValue() { return (long) get(); }
    public float floatValue() { return (float) get(); }
    public double doubleValue() { return (double) get(); }
}
