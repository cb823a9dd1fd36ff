package java.util.concurrent.atomic;

/**
 * A sum kept in a few cells, one chosen by the adding thread's id, so that threads on different
 * processors mostly update different words. Each cell is an AtomicLong (exact, never lost);
 * {@link #sum} adds the cells up and is exact when no add runs concurrently, as in the JDK.
 */
public class LongAdder extends Number implements java.io.Serializable {
    private static final int CELLS = 8;
    private final AtomicLong[] cells = new AtomicLong[CELLS];

    public LongAdder() {
        for (int i = 0; i < CELLS; i++) cells[i] = new AtomicLong();
    }
    private AtomicLong cell() { return cells[(int) (Thread.currentThread().getId() & (CELLS - 1))]; }
    public void add(long x) { cell().getAndAdd(x); }
    public void increment() { add(1L); }
    public void decrement() { add(-1L); }
    public long sum() {
        long s = 0;
        for (AtomicLong c : cells) s += c.get();
        return s;
    }
    public void reset() {
        for (AtomicLong c : cells) c.set(0L);
    }
    public long sumThenReset() {
        long s = 0;
        for (AtomicLong c : cells) s += c.getAndSet(0L);
        return s;
    }
    public String toString() { return Long.toString(sum()); }
    public long longValue() { return sum(); }
    public int intValue() { return (int) sum(); }
    public float floatValue() { return (float) sum(); }
    public double doubleValue() { return (double) sum(); }
}
