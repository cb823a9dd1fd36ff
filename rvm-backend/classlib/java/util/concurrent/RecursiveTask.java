package java.util.concurrent;

/** A ForkJoinTask that computes a result. */
public abstract class RecursiveTask<V> extends ForkJoinTask<V> {
    V result;

    public RecursiveTask() {}

    protected abstract V compute();

    public final V getRawResult() { return result; }
    protected final void setRawResult(V value) { result = value; }
    protected final boolean exec() {
        result = compute();
        return true;
    }
}
