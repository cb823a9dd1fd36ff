package java.lang.ref;

/**
 * References arrive through Reference.enqueue and from the collector (Reference.enqueuePending,
 * called by poll and remove: there is no reference-handler thread, so a remove waiting for one
 * looks for newly cleared references every 10 ms).
 */
public class ReferenceQueue<T> {
    private Reference<? extends T> head;
    public ReferenceQueue() {}
    @SuppressWarnings("unchecked")
    synchronized boolean enqueue(Reference<?> r) {
        if (r.queueState != 0) return false;
        r.queueState = 1;
        r.nextInQueue = head;
        head = (Reference<? extends T>) r;
        notifyAll();
        return true;
    }
    @SuppressWarnings("unchecked")
    public Reference<? extends T> poll() {
        Reference.enqueuePending();
        return take();
    }
    @SuppressWarnings("unchecked")
    private synchronized Reference<? extends T> take() {
        Reference<? extends T> r = head;
        if (r != null) {
            head = (Reference<? extends T>) r.nextInQueue;
            r.nextInQueue = null;
            r.queueState = 2;
        }
        return r;
    }
    public Reference<? extends T> remove(long timeout) throws InterruptedException {
        if (timeout < 0) throw new IllegalArgumentException("Negative timeout value");
        long deadline = System.currentTimeMillis() + timeout;
        for (;;) {
            // (the collector's references are moved to their queues outside this queue's monitor:
            // they may belong to other queues)
            Reference<? extends T> r = poll();
            if (r != null) return r;
            synchronized (this) {
                if (head == null) {
                    long slice = 10;
                    if (timeout != 0) {
                        long left = deadline - System.currentTimeMillis();
                        if (left <= 0) return null;
                        slice = Math.min(left, 10);
                    }
                    wait(slice);
                }
            }
        }
    }
    public Reference<? extends T> remove() throws InterruptedException { return remove(0); }
}
