package java.util.concurrent.locks;

import java.util.Collection;
import java.util.concurrent.TimeUnit;

/**
 * A reentrant mutual-exclusion lock on rvm's AbstractQueuedSynchronizer. A fair lock makes a
 * thread that arrives while others wait queue behind them; an unfair one lets it take a free
 * lock at once.
 */
public class ReentrantLock implements Lock, java.io.Serializable {
    private final Sync sync;

    static final class Sync extends AbstractQueuedSynchronizer {
        final boolean fair;
        Sync(boolean fair) { this.fair = fair; }

        protected boolean tryAcquire(int acquires) {
            Thread current = Thread.currentThread();
            int c = getState();
            if (c == 0) {
                if ((!fair || !hasQueuedPredecessors()) && compareAndSetState(0, acquires)) {
                    setExclusiveOwnerThread(current);
                    return true;
                }
            } else if (current == getExclusiveOwnerThread()) {
                int next = c + acquires;
                if (next < 0) throw new Error("Maximum lock count exceeded");
                setState(next);
                return true;
            }
            return false;
        }
        /** Without fairness: tryLock() takes a free lock even when others wait, as in the JDK. */
        boolean tryLockNow() {
            Thread current = Thread.currentThread();
            int c = getState();
            if (c == 0) {
                if (compareAndSetState(0, 1)) {
                    setExclusiveOwnerThread(current);
                    return true;
                }
            } else if (current == getExclusiveOwnerThread()) {
                if (c + 1 < 0) throw new Error("Maximum lock count exceeded");
                setState(c + 1);
                return true;
            }
            return false;
        }
        protected boolean tryRelease(int releases) {
            if (Thread.currentThread() != getExclusiveOwnerThread()) throw new IllegalMonitorStateException();
            int c = getState() - releases;
            boolean free = c == 0;
            if (free) setExclusiveOwnerThread(null);
            setState(c);
            return free;
        }
        protected boolean isHeldExclusively() { return getExclusiveOwnerThread() == Thread.currentThread(); }
        Thread owner() { return getState() == 0 ? null : getExclusiveOwnerThread(); }
        int holds() { return isHeldExclusively() ? getState() : 0; }
        ConditionObject newCondition() { return new ConditionObject(); }
    }

    public ReentrantLock() { this(false); }
    public ReentrantLock(boolean fair) { sync = new Sync(fair); }

    public void lock() { sync.acquire(1); }
    public void lockInterruptibly() throws InterruptedException { sync.acquireInterruptibly(1); }
    public boolean tryLock() { return sync.tryLockNow(); }
    public boolean tryLock(long timeout, TimeUnit unit) throws InterruptedException { return sync.tryAcquireNanos(1, unit.toNanos(timeout)); }
    public void unlock() { sync.release(1); }
    public Condition newCondition() { return sync.newCondition(); }
    public int getHoldCount() { return sync.holds(); }
    public boolean isHeldByCurrentThread() { return sync.isHeldExclusively(); }
    public boolean isLocked() { return sync.owner() != null; }
    public final boolean isFair() { return sync.fair; }
    protected Thread getOwner() { return sync.owner(); }
    public final boolean hasQueuedThreads() { return sync.hasQueuedThreads(); }
    public final boolean hasQueuedThread(Thread thread) { return sync.isQueued(thread); }
    public final int getQueueLength() { return sync.getQueueLength(); }
    protected Collection<Thread> getQueuedThreads() { return sync.getQueuedThreads(); }
    public String toString() {
        Thread o = sync.owner();
        return super.toString() + (o == null ? "[Unlocked]" : "[Locked by thread " + o.getName() + "]");
    }
}
