package java.util.concurrent.atomic;

/** Elements updated under the array's monitor (each operation atomic; no lock-free path). */
public class AtomicReferenceArray<E> implements java.io.Serializable {
    private final Object[] array;
    public AtomicReferenceArray(int length) { array = new Object[length]; }
    public AtomicReferenceArray(E[] array) { this.array = java.util.Arrays.copyOf(array, array.length, Object[].class); }
    public final int length() { return array.length; }
    @SuppressWarnings("unchecked")
    public final synchronized E get(int i) { return (E) array[i]; }
    public final synchronized void set(int i, E newValue) { array[i] = newValue; }
    public final void lazySet(int i, E newValue) { set(i, newValue); }
    public final E getPlain(int i) { return get(i); }
    public final E getAcquire(int i) { return get(i); }
    public final void setRelease(int i, E newValue) { set(i, newValue); }
    public final synchronized E getAndSet(int i, E newValue) { E old = get(i); array[i] = newValue; return old; }
    public final synchronized boolean compareAndSet(int i, E expectedValue, E newValue) {
        if (get(i) != expectedValue) return false;
        array[i] = newValue;
        return true;
    }
    public final boolean weakCompareAndSet(int i, E expectedValue, E newValue) { return compareAndSet(i, expectedValue, newValue); }
    public final boolean weakCompareAndSetPlain(int i, E expectedValue, E newValue) { return compareAndSet(i, expectedValue, newValue); }
    public String toString() {
        int iMax = array.length - 1;
        if (iMax == -1) return "[]";
        StringBuilder b = new StringBuilder();
        b.append('[');
        for (int i = 0; ; i++) {
            b.append(get(i));
            if (i == iMax) return b.append(']').toString();
            b.append(',').append(' ');
        }
    }
    public final synchronized E getAndUpdate(int i, java.util.function.UnaryOperator<E> f) { E prev = get(i); array[i] = f.apply(prev); return prev; }
    public final synchronized E updateAndGet(int i, java.util.function.UnaryOperator<E> f) { E next = f.apply(get(i)); array[i] = next; return next; }
    public final synchronized E accumulateAndGet(int i, E x, java.util.function.BinaryOperator<E> f) { E next = f.apply(get(i), x); array[i] = next; return next; }
}
