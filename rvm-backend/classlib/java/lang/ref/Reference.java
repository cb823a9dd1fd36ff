package java.lang.ref;

/**
 * rvm's collector clears weak and phantom references whose referents are no longer strongly
 * reachable and puts those with a queue on {@code pending} (linked through {@code pendingNext},
 * the last pointing to itself); ReferenceQueue's poll and remove move them to their queues (rvm
 * has no reference-handler thread). Soft references are never cleared by the collector.
 */
public abstract class Reference<T> {
    private T referent;
    final ReferenceQueue<? super T> queue;
    Reference<?> nextInQueue;
    /** 0: never enqueued; 1: on its queue; 2: taken off it (it is never enqueued again). */
    int queueState;
    /** Set by the collector: cleared references with a queue, not yet enqueued. */
    private static Reference<?> pending;
    private Reference<?> pendingNext;

    Reference(T referent) { this(referent, null); }
    Reference(T referent, ReferenceQueue<? super T> queue) {
        this.referent = referent;
        this.queue = queue;
    }
    public T get() { return referent; }
    public final boolean refersTo(T obj) { return referent == obj; }
    public void clear() { referent = null; }
    public boolean isEnqueued() { return queueState == 1; }
    public boolean enqueue() {
        referent = null;
        return queue != null && queue.enqueue(this);
    }
    public static void reachabilityFence(Object ref) {}
    protected Object clone() throws CloneNotSupportedException { throw new CloneNotSupportedException(); }

    /** Moves the references the collector cleared to their queues. */
    static void enqueuePending() {
        Reference<?> p;
        synchronized (Reference.class) {
            p = pending;
            pending = null;
        }
        while (p != null) {
            Reference<?> next = p.pendingNext;
            p.pendingNext = null;
            if (p.queue != null) p.queue.enqueue(p);
            p = next == p ? null : next;
        }
    }
}
