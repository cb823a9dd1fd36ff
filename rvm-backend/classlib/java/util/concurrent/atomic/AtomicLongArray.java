package java.util.concurrent.atomic;

/** Elements updated under the array's monitor (each operation atomic; no lock-free path). */
public class AtomicLongArray implements java.io.Serializable {
    private final long[] array;
    public AtomicLongArray(int length) { array = new long[length]; }
    public AtomicLongArray(long[] array) { this.array = array.clone(); }
    public final int length() { return array.length; }
    @SuppressWarnings("unchecked")
    public final synchronized long get(int i) { return array[i]; }
    public final synchronized void set(int i, long newValue) { array[i] = newValue; }
    public final void lazySet(int i, long newValue) { set(i, newValue); }
    public final long getPlain(int i) { return get(i); }
    public final long getAcquire(int i) { return get(i); }
    public final void setRelease(int i, long newValue) { set(i, newValue); }
    public final synchronized long getAndSet(int i, long newValue) { long old = get(i); array[i] = newValue; return old; }
    public final synchronized boolean compareAndSet(int i, long expectedValue, long newValue) {
        if (get(i) != expectedValue) return false;
        array[i] = newValue;
        return true;
    }
    public final boolean weakCompareAndSet(int i, long expectedValue, long newValue) { return compareAndSet(i, expectedValue, newValue); }
    public final boolean weakCompareAndSetPlain(int i, long expectedValue, long newValue) { return compareAndSet(i, expectedValue, newValue); }
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
    public final synchronized long getAndIncrement(int i) { return array[i]++; }
    public final synchronized long getAndDecrement(int i) { return array[i]--; }
    public final synchronized long getAndAdd(int i, long delta) { long old = array[i]; array[i] += delta; return old; }
    public final synchronized long incrementAndGet(int i) { return ++array[i]; }
    public final synchronized long decrementAndGet(int i) { return --array[i]; }
    public final synchronized long addAndGet(int i, long delta) { return array[i] += delta; }
}
