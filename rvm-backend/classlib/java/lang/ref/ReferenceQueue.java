package java.lang.ref;

/** References arrive here only through Reference.enqueue (rvm's collector enqueues none). */
public class ReferenceQueue<T> {
    private Reference<? extends T> head;
    public ReferenceQueue() {}
    @SuppressWarnings("unchecked")
    synchronized boolean enqueue(Reference<?> r) {
        if (r.enqueued) return false;
        r.enqueued = true;
        r.nextInQueue = head;
        head = (Reference<? extends T>) r;
        notifyAll();
        return true;
    }
    @SuppressWarnings("unchecked")
    public synchronized Reference<? extends T> poll() {
        Reference<? extends T> r = head;
        if (r != null) {
            head = (Reference<? extends T>) r.nextInQueue;
            r.nextInQueue = null;
        }
        return r;
    }
    public synchronized Reference<? extends T> remove(long timeout) throws InterruptedException {
        if (timeout < 0) throw new IllegalArgumentException("Negative timeout value");
        Reference<? extends T> r = poll();
        if (r != null) return r;
        long deadline = System.currentTimeMillis() + timeout;
        while (r == null) {
            if (timeout == 0) wait();
            else {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) return null;
                wait(left);
            }
            r = poll();
        }
        return r;
    }
    public Reference<? extends T> remove() throws InterruptedException { return remove(0); }
}
