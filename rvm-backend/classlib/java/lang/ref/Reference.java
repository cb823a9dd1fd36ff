package java.lang.ref;

/**
 * rvm's collector does not treat references specially: a referent stays reachable through its
 * reference, so get() returns it until clear() (references act as strong ones). enqueue() puts a
 * reference on its queue as the JDK's does.
 */
public abstract class Reference<T> {
    private T referent;
    final ReferenceQueue<? super T> queue;
    Reference<?> nextInQueue;
    boolean enqueued;

    Reference(T referent) { this(referent, null); }
    Reference(T referent, ReferenceQueue<? super T> queue) {
        this.referent = referent;
        this.queue = queue;
    }
    public T get() { return referent; }
    public final boolean refersTo(T obj) { return referent == obj; }
    public void clear() { referent = null; }
    public boolean isEnqueued() { return enqueued; }
    public boolean enqueue() {
        referent = null;
        return queue != null && queue.enqueue(this);
    }
    public static void reachabilityFence(Object ref) {}
    protected Object clone() throws CloneNotSupportedException { throw new CloneNotSupportedException(); }
}
