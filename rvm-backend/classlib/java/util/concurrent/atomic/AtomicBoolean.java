package java.util.concurrent.atomic;

import jdk.internal.rvm.Atomic;

public class AtomicBoolean implements java.io.Serializable {
    private static final int VALUE = Atomic.offset(AtomicBoolean.class, "value");
    /** 0 or 1: a word the natives compare and swap. */
    private volatile int value;

    public AtomicBoolean(boolean initialValue) { value = initialValue ? 1 : 0; }
    public AtomicBoolean() {}

    public final boolean get() { return Atomic.getInt(this, VALUE) != 0; }
    public final boolean compareAndSet(boolean expectedValue, boolean newValue) {
        return Atomic.casInt(this, VALUE, expectedValue ? 1 : 0, newValue ? 1 : 0);
    }
    public boolean weakCompareAndSet(boolean expectedValue, boolean newValue) { return compareAndSet(expectedValue, newValue); }
    public boolean weakCompareAndSetPlain(boolean expectedValue, boolean newValue) { return compareAndSet(expectedValue, newValue); }
    public boolean weakCompareAndSetVolatile(boolean expectedValue, boolean newValue) { return compareAndSet(expectedValue, newValue); }
    public final boolean compareAndExchange(boolean expectedValue, boolean newValue) {
        for (;;) {
            boolean v = get();
            if (v != expectedValue || compareAndSet(v, newValue)) return v;
        }
    }
    public final void set(boolean newValue) { Atomic.putInt(this, VALUE, newValue ? 1 : 0); }
    public final void lazySet(boolean newValue) { set(newValue); }
    public final boolean getAndSet(boolean newValue) { return Atomic.getAndSetInt(this, VALUE, newValue ? 1 : 0) != 0; }
    public final boolean getPlain() { return value != 0; }
    public final void setPlain(boolean newValue) { value = newValue ? 1 : 0; }
    public final boolean getAcquire() { return get(); }
    public final void setRelease(boolean newValue) { set(newValue); }
    public final boolean getOpaque() { return get(); }
    public final void setOpaque(boolean newValue) { set(newValue); }
    public String toString() { return Boolean.toString(get()); }
}
