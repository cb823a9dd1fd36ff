package java.util.concurrent.atomic;

/** Elements updated under the array's monitor (each operation atomic; no lock-free path). */
public class AtomicIntegerArray implements java.io.Serializable {
    private final int[] array;
    public AtomicIntegerArray(int length) { array = new int[length]; }
    public AtomicIntegerArray(int[] array) { this.array = array.clone(); }
    public final int length() { return array.length; }
    @SuppressWarnings("unchecked")
    public final synchronized int get(int i) { return array[i]; }
    public final synchronized void set(int i, int newValue) { array[i] = newValue; }
    public final void lazySet(int i, int newValue) { set(i, newValue); }
    public final int getPlain(int i) { return get(i); }
    public final int getAcquire(int i) { return get(i); }
    public final void setRelease(int i, int newValue) { set(i, newValue); }
    public final synchronized int getAndSet(int i, int newValue) { int old = get(i); array[i] = newValue; return old; }
    public final synchronized boolean compareAndSet(int i, int expectedValue, int newValue) {
        if (get(i) != expectedValue) return false;
        array[i] = newValue;
        return true;
    }
    public final boolean weakCompareAndSet(int i, int expectedValue, int newValue) { return compareAndSet(i, expectedValue, newValue); }
    public final boolean weakCompareAndSetPlain(int i, int expectedValue, int newValue) { return compareAndSet(i, expectedValue, newValue); }
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
    public final synchronized int getAndIncrement(int i) { return array[i]++; }
    public final synchronized int getAndDecrement(int i) { return array[i]--; }
    public final synchronized int getAndAdd(int i, int delta) { int old = array[i]; array[i] += delta; return old; }
    public final synchronized int incrementAndGet(int i) { return ++array[i]; }
    public final synchronized int decrementAndGet(int i) { return --array[i]; }
    public final synchronized int addAndGet(int i, int delta) { return array[i] += delta; }
}
