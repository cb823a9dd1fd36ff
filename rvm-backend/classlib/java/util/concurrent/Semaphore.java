package java.util.concurrent;

import java.util.Collection;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;

public class Semaphore implements java.io.Serializable {
    private static final class Sync extends AbstractQueuedSynchronizer {
        final boolean fair;
        Sync(int permits, boolean fair) {
            setState(permits);
            this.fair = fair;
        }
        int permits() { return getState(); }
        protected int tryAcquireShared(int acquires) {
            for (;;) {
                if (fair && hasQueuedPredecessors()) return -1;
                int available = getState();
                int remaining = available - acquires;
                if (remaining < 0 || compareAndSetState(available, remaining)) return remaining;
            }
        }
        int tryNow(int acquires) {
            for (;;) {
                int available = getState();
                int remaining = available - acquires;
                if (remaining < 0 || compareAndSetState(available, remaining)) return remaining;
            }
        }
        protected boolean tryReleaseShared(int releases) {
            for (;;) {
                int current = getState();
                int next = current + releases;
                if (next < current) throw new Error("Maximum permit count exceeded");
                if (compareAndSetState(current, next)) return true;
            }
        }
        void reduce(int reductions) {
            for (;;) {
                int current = getState();
                int next = current - reductions;
                if (next > current) throw new Error("Permit count underflow");
                if (compareAndSetState(current, next)) return;
            }
        }
        int drain() {
            for (;;) {
                int current = getState();
                if (current == 0 || compareAndSetState(current, 0)) return current;
            }
        }
        Collection<Thread> queued() { return getQueuedThreads(); }
    }

    private final Sync sync;

    public Semaphore(int permits) { this(permits, false); }
    public Semaphore(int permits, boolean fair) { sync = new Sync(permits, fair); }

    public void acquire() throws InterruptedException { sync.acquireSharedInterruptibly(1); }
    public void acquireUninterruptibly() { sync.acquireShared(1); }
    public boolean tryAcquire() { return sync.tryNow(1) >= 0; }
    public boolean tryAcquire(long timeout, TimeUnit unit) throws InterruptedException { return sync.tryAcquireSharedNanos(1, unit.toNanos(timeout)); }
    public void release() { sync.releaseShared(1); }
    public void acquire(int permits) throws InterruptedException {
        if (permits < 0) throw new IllegalArgumentException();
        sync.acquireSharedInterruptibly(permits);
    }
    public void acquireUninterruptibly(int permits) {
        if (permits < 0) throw new IllegalArgumentException();
        sync.acquireShared(permits);
    }
    public boolean tryAcquire(int permits) {
        if (permits < 0) throw new IllegalArgumentException();
        return sync.tryNow(permits) >= 0;
    }
    public boolean tryAcquire(int permits, long timeout, TimeUnit unit) throws InterruptedException {
        if (permits < 0) throw new IllegalArgumentException();
        return sync.tryAcquireSharedNanos(permits, unit.toNanos(timeout));
    }
    public void release(int permits) {
        if (permits < 0) throw new IllegalArgumentException();
        sync.releaseShared(permits);
    }
    public int availablePermits() { return sync.permits(); }
    public int drainPermits() { return sync.drain(); }
    protected void reducePermits(int reduction) {
        if (reduction < 0) throw new IllegalArgumentException();
        sync.reduce(reduction);
    }
    public boolean isFair() { return sync.fair; }
    public final boolean hasQueuedThreads() { return sync.hasQueuedThreads(); }
    public final int getQueueLength() { return sync.getQueueLength(); }
    protected Collection<Thread> getQueuedThreads() { return sync.queued(); }
    public String toString() { return super.toString() + "[Permits = " + sync.permits() + "]"; }
}
