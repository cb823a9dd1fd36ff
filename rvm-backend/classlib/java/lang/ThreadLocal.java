package java.lang;

import java.util.function.Supplier;

/** Values per thread, in a map each Thread keeps (no hashing tricks, no weak keys). */
public class ThreadLocal<T> {
    public ThreadLocal() {}
    protected T initialValue() { return null; }
    public static <S> ThreadLocal<S> withInitial(Supplier<? extends S> supplier) {
        java.util.Objects.requireNonNull(supplier);
        return new ThreadLocal<S>() {
            protected S initialValue() { return supplier.get(); }
        };
    }
    @SuppressWarnings("unchecked")
    public T get() {
        java.util.IdentityHashMap<ThreadLocal<?>, Object> m = Thread.currentThread().threadLocals(true);
        if (m.containsKey(this)) return (T) m.get(this);
        T v = initialValue();
        m.put(this, v);
        return v;
    }
    public void set(T value) { Thread.currentThread().threadLocals(true).put(this, value); }
    public void remove() {
        java.util.IdentityHashMap<ThreadLocal<?>, Object> m = Thread.currentThread().threadLocals(false);
        if (m != null) m.remove(this);
    }
}
