package java.util.concurrent;

import java.util.concurrent.locks.AbstractQueuedSynchronizer;

public class CountDownLatch {
    private static final class Sync extends AbstractQueuedSynchronizer {
        Sync(int count) { setState(count); }
        int count() { return getState(); }
        protected int tryAcquireShared(int acquires) { return getState() == 0 ? 1 : -1; }
        protected boolean tryReleaseShared(int releases) {
            for (;;) {
                int c = getState();
                if (c == 0) return false;
                if (compareAndSetState(c, c - 1)) return c == 1;
            }
        }
    }

    private final Sync sync;

    public CountDownLatch(int count) {
        if (count < 0) throw new IllegalArgumentException("count < 0");
        sync = new Sync(count);
    }
    public void await() throws InterruptedException { sync.acquireSharedInterruptibly(1); }
    public boolean await(long timeout, TimeUnit unit) throws InterruptedException { return sync.tryAcquireSharedNanos(1, unit.toNanos(timeout)); }
    public void countDown() { sync.releaseShared(1); }
    public long getCount() { return sync.count(); }
    public String toString() { return super.toString() + "[Count = " + sync.count() + "]"; }
}
