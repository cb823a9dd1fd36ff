package java.util.concurrent.locks;

import java.util.concurrent.TimeUnit;

/**
 * A read-write lock on rvm's AbstractQueuedSynchronizer: the state's low 16 bits count the
 * writer's holds, the high 16 bits the read holds of all readers. A writer may also take the read
 * lock (downgrading); a reader cannot take the write lock. Readers are not held back by queued
 * writers (so a steady stream of readers can keep a writer waiting), and read holds are counted
 * in total, not per thread: getReadHoldCount is not available.
 */
public class ReentrantReadWriteLock implements ReadWriteLock, java.io.Serializable {
    static final int SHARED_UNIT = 1 << 16;
    static final int MAX_COUNT = (1 << 16) - 1;
    static final int EXCLUSIVE_MASK = (1 << 16) - 1;

    private final Sync sync;
    private final ReadLock readerLock;
    private final WriteLock writerLock;

    static final class Sync extends AbstractQueuedSynchronizer {
        final boolean fair;
        Sync(boolean fair) { this.fair = fair; }

        protected boolean tryAcquire(int acquires) {
            Thread current = Thread.currentThread();
            int c = getState();
            int w = c & EXCLUSIVE_MASK;
            if (c != 0) {
                if (w == 0 || current != getExclusiveOwnerThread()) return false;
                if (w + acquires > MAX_COUNT) throw new Error("Maximum lock count exceeded");
                setState(c + acquires);
                return true;
            }
            if ((fair && hasQueuedPredecessors()) || !compareAndSetState(c, c + acquires)) return false;
            setExclusiveOwnerThread(current);
            return true;
        }
        protected boolean tryRelease(int releases) {
            if (!isHeldExclusively()) throw new IllegalMonitorStateException();
            int next = getState() - releases;
            boolean free = (next & EXCLUSIVE_MASK) == 0;
            if (free) setExclusiveOwnerThread(null);
            setState(next);
            return free;
        }
        protected int tryAcquireShared(int unused) {
            for (;;) {
                int c = getState();
                if ((c & EXCLUSIVE_MASK) != 0 && getExclusiveOwnerThread() != Thread.currentThread()) return -1;
                if ((c >>> 16) == MAX_COUNT) throw new Error("Maximum lock count exceeded");
                if (compareAndSetState(c, c + SHARED_UNIT)) return 1;
            }
        }
        protected boolean tryReleaseShared(int unused) {
            for (;;) {
                int c = getState();
                if ((c >>> 16) == 0) throw new IllegalMonitorStateException("attempt to unlock read lock, not locked by current thread");
                int next = c - SHARED_UNIT;
                if (compareAndSetState(c, next)) return next == 0;
            }
        }
        protected boolean isHeldExclusively() { return getExclusiveOwnerThread() == Thread.currentThread(); }
        int writeHolds() { return isHeldExclusively() ? getState() & EXCLUSIVE_MASK : 0; }
        ConditionObject newCondition() { return new ConditionObject(); }
    }

    public ReentrantReadWriteLock() { this(false); }
    public ReentrantReadWriteLock(boolean fair) {
        sync = new Sync(fair);
        readerLock = new ReadLock(this);
        writerLock = new WriteLock(this);
    }
    public ReentrantReadWriteLock.WriteLock writeLock() { return writerLock; }
    public ReentrantReadWriteLock.ReadLock readLock() { return readerLock; }
    public final boolean isFair() { return sync.fair; }
    public int getReadLockCount() { return sync.getState() >>> 16; }
    public boolean isWriteLocked() { return (sync.getState() & EXCLUSIVE_MASK) != 0; }
    public boolean isWriteLockedByCurrentThread() { return sync.isHeldExclusively(); }
    public int getWriteHoldCount() { return sync.writeHolds(); }
    public final boolean hasQueuedThreads() { return sync.hasQueuedThreads(); }
    public final int getQueueLength() { return sync.getQueueLength(); }

    public static class ReadLock implements Lock, java.io.Serializable {
        private final Sync sync;
        protected ReadLock(ReentrantReadWriteLock lock) { sync = lock.sync; }
        public void lock() { sync.acquireShared(1); }
        public void lockInterruptibly() throws InterruptedException { sync.acquireSharedInterruptibly(1); }
        public boolean tryLock() { return sync.tryAcquireShared(1) >= 0; }
        public boolean tryLock(long timeout, TimeUnit unit) throws InterruptedException { return sync.tryAcquireSharedNanos(1, unit.toNanos(timeout)); }
        public void unlock() { sync.releaseShared(1); }
        public Condition newCondition() { throw new UnsupportedOperationException(); }
    }

    public static class WriteLock implements Lock, java.io.Serializable {
        private final Sync sync;
        protected WriteLock(ReentrantReadWriteLock lock) { sync = lock.sync; }
        public void lock() { sync.acquire(1); }
        public void lockInterruptibly() throws InterruptedException { sync.acquireInterruptibly(1); }
        public boolean tryLock() { return sync.tryAcquire(1); }
        public boolean tryLock(long timeout, TimeUnit unit) throws InterruptedException { return sync.tryAcquireNanos(1, unit.toNanos(timeout)); }
        public void unlock() { sync.release(1); }
        public Condition newCondition() { return sync.newCondition(); }
        public boolean isHeldByCurrentThread() { return sync.isHeldExclusively(); }
        public int getHoldCount() { return sync.writeHolds(); }
    }
}
