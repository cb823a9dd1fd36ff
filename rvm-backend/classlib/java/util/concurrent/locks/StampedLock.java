package java.util.concurrent.locks;

import java.util.concurrent.TimeUnit;
import jdk.internal.rvm.Atomic;

/**
 * A capability-based lock with write, read and optimistic read modes, as the JDK's. rvm's keeps
 * the JDK's stamp layout in one {@code long} state: a version in the bits above the write bit
 * (128), which each write lock and unlock adds to (so a write leaves a different version), and
 * the write bit while write-locked; readers are counted apart. An optimistic read's stamp is the
 * version it saw, and {@code validate} checks that no write lock was taken since. Blocking
 * acquisitions wait on a Condition of an internal ReentrantLock (they park); a waiting writer
 * holds back new readers, so writers are not starved. Not reentrant, as the JDK's.
 */
public class StampedLock implements java.io.Serializable {
    private static final long WBIT = 1L << 7;
    /** The bits of a stamp that are compared (the JDK's: everything above the reader bits). */
    private static final long SBITS = ~(WBIT - 1L);
    private static final long ORIGIN = WBIT << 1;
    private static final int STATE = Atomic.offset(StampedLock.class, "state");

    /** Version and write bit; written under {@code lock}, read without it by optimistic readers. */
    private volatile long state = ORIGIN;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private int readers;
    private int waitingWriters;

    public StampedLock() {}

    private long state() { return Atomic.getLong(this, STATE); }
    private void setState(long s) { Atomic.putLong(this, STATE, s); }

    /** Under lock. */
    private long takeWrite() {
        long s = state() + WBIT;
        setState(s);
        return s;
    }

    /** Under lock: the read stamp. */
    private long takeRead() {
        readers++;
        return state() + readers;
    }

    private boolean canWrite() { return (state() & WBIT) == 0 && readers == 0; }
    private boolean canRead() { return (state() & WBIT) == 0 && waitingWriters == 0 && readers < (int) (WBIT - 1); }

    public long writeLock() {
        lock.lock();
        try {
            waitingWriters++;
            try {
                while (!canWrite()) changed.awaitUninterruptibly();
            } finally {
                waitingWriters--;
            }
            return takeWrite();
        } finally {
            lock.unlock();
        }
    }

    public long tryWriteLock() {
        lock.lock();
        try {
            return canWrite() ? takeWrite() : 0L;
        } finally {
            lock.unlock();
        }
    }

    public long tryWriteLock(long time, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(time);
        if (Thread.interrupted()) throw new InterruptedException();
        lock.lockInterruptibly();
        try {
            waitingWriters++;
            try {
                while (!canWrite()) {
                    if (nanos <= 0L) return 0L;
                    nanos = changed.awaitNanos(nanos);
                }
            } finally {
                waitingWriters--;
                // readers held back by this writer may go on if it gave up
                changed.signalAll();
            }
            return takeWrite();
        } finally {
            lock.unlock();
        }
    }

    public long writeLockInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) throw new InterruptedException();
        lock.lockInterruptibly();
        try {
            waitingWriters++;
            try {
                while (!canWrite()) changed.await();
            } finally {
                waitingWriters--;
                // readers held back by this writer may go on if it gave up
                changed.signalAll();
            }
            return takeWrite();
        } finally {
            lock.unlock();
        }
    }

    public long readLock() {
        lock.lock();
        try {
            while (!canRead()) changed.awaitUninterruptibly();
            return takeRead();
        } finally {
            lock.unlock();
        }
    }

    public long tryReadLock() {
        lock.lock();
        try {
            return (state() & WBIT) == 0 && readers < (int) (WBIT - 1) ? takeRead() : 0L;
        } finally {
            lock.unlock();
        }
    }

    public long tryReadLock(long time, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(time);
        if (Thread.interrupted()) throw new InterruptedException();
        lock.lockInterruptibly();
        try {
            while (!canRead()) {
                if (nanos <= 0L) return 0L;
                nanos = changed.awaitNanos(nanos);
            }
            return takeRead();
        } finally {
            lock.unlock();
        }
    }

    public long readLockInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) throw new InterruptedException();
        lock.lockInterruptibly();
        try {
            while (!canRead()) changed.await();
            return takeRead();
        } finally {
            lock.unlock();
        }
    }

    public long tryOptimisticRead() {
        long s = state();
        return (s & WBIT) == 0L ? s & SBITS : 0L;
    }

    public boolean validate(long stamp) { return (stamp & SBITS) == (state() & SBITS); }

    public void unlockWrite(long stamp) {
        lock.lock();
        try {
            long s = state();
            if (s != stamp || (stamp & WBIT) == 0L) throw new IllegalMonitorStateException();
            setState(s + WBIT);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    public void unlockRead(long stamp) {
        lock.lock();
        try {
            long s = state();
            if ((stamp & SBITS) != (s & SBITS) || (stamp & (WBIT - 1)) == 0L || readers == 0 || (s & WBIT) != 0L) throw new IllegalMonitorStateException();
            if (--readers == 0) changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    public void unlock(long stamp) {
        if ((stamp & WBIT) != 0L) unlockWrite(stamp);
        else unlockRead(stamp);
    }

    /** A write stamp from a write, read or optimistic stamp if that can be had at once, else 0. */
    public long tryConvertToWriteLock(long stamp) {
        lock.lock();
        try {
            long s = state();
            if ((stamp & SBITS) != (s & SBITS)) return 0L;
            if ((s & WBIT) != 0L) return stamp == s ? stamp : 0L;
            long r = stamp & (WBIT - 1);
            if (r == 0L) {
                // optimistic: the lock must be free
                return readers == 0 ? takeWrite() : 0L;
            }
            if (readers == 1) {
                readers = 0;
                return takeWrite();
            }
            return 0L;
        } finally {
            lock.unlock();
        }
    }

    /** A read stamp from a write, read or optimistic stamp, else 0. */
    public long tryConvertToReadLock(long stamp) {
        lock.lock();
        try {
            long s = state();
            if ((stamp & SBITS) != (s & SBITS)) return 0L;
            if ((s & WBIT) != 0L) {
                if (stamp != s) return 0L;
                setState(s + WBIT);
                long r = takeRead();
                changed.signalAll();
                return r;
            }
            if ((stamp & (WBIT - 1)) != 0L) return stamp;
            return readers < (int) (WBIT - 1) ? takeRead() : 0L;
        } finally {
            lock.unlock();
        }
    }

    /** An optimistic stamp from a write, read or optimistic stamp (releasing the lock), else 0. */
    public long tryConvertToOptimisticRead(long stamp) {
        lock.lock();
        try {
            long s = state();
            if ((stamp & SBITS) != (s & SBITS)) return 0L;
            if ((s & WBIT) != 0L) {
                if (stamp != s) return 0L;
                setState(s + WBIT);
                changed.signalAll();
                return (s + WBIT) & SBITS;
            }
            if ((stamp & (WBIT - 1)) != 0L) {
                if (readers == 0) return 0L;
                if (--readers == 0) changed.signalAll();
            }
            return s & SBITS;
        } finally {
            lock.unlock();
        }
    }

    public boolean tryUnlockWrite() {
        lock.lock();
        try {
            long s = state();
            if ((s & WBIT) == 0L) return false;
            setState(s + WBIT);
            changed.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    public boolean tryUnlockRead() {
        lock.lock();
        try {
            if (readers == 0) return false;
            if (--readers == 0) changed.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    public boolean isWriteLocked() { return (state() & WBIT) != 0L; }
    public boolean isReadLocked() {
        lock.lock();
        try {
            return readers > 0;
        } finally {
            lock.unlock();
        }
    }
    public int getReadLockCount() {
        lock.lock();
        try {
            return readers;
        } finally {
            lock.unlock();
        }
    }
    public static boolean isWriteLockStamp(long stamp) { return (stamp & WBIT) != 0L; }
    public static boolean isReadLockStamp(long stamp) { return (stamp & WBIT) == 0L && (stamp & (WBIT - 1)) != 0L; }
    public static boolean isOptimisticReadStamp(long stamp) { return (stamp & WBIT) == 0L && (stamp & (WBIT - 1)) == 0L && stamp != 0L; }
    public static boolean isLockStamp(long stamp) { return (stamp & (WBIT | (WBIT - 1))) != 0L; }

    public String toString() {
        long s = state();
        lock.lock();
        try {
            return super.toString() + ((s & WBIT) != 0L ? "[Write-locked]" : readers > 0 ? "[Read-locks:" + readers + "]" : "[Unlocked]");
        } finally {
            lock.unlock();
        }
    }

    public Lock asReadLock() { return new ReadLockView(); }
    public Lock asWriteLock() { return new WriteLockView(); }
    public ReadWriteLock asReadWriteLock() {
        return new ReadWriteLock() {
            public Lock readLock() { return asReadLock(); }
            public Lock writeLock() { return asWriteLock(); }
        };
    }

    private final class ReadLockView implements Lock {
        public void lock() { readLock(); }
        public void lockInterruptibly() throws InterruptedException { readLockInterruptibly(); }
        public boolean tryLock() { return tryReadLock() != 0L; }
        public boolean tryLock(long time, TimeUnit unit) throws InterruptedException { return tryReadLock(time, unit) != 0L; }
        public void unlock() {
            if (!tryUnlockRead()) throw new IllegalMonitorStateException();
        }
        public Condition newCondition() { throw new UnsupportedOperationException(); }
    }

    private final class WriteLockView implements Lock {
        public void lock() { writeLock(); }
        public void lockInterruptibly() throws InterruptedException { writeLockInterruptibly(); }
        public boolean tryLock() { return tryWriteLock() != 0L; }
        public boolean tryLock(long time, TimeUnit unit) throws InterruptedException { return tryWriteLock(time, unit) != 0L; }
        public void unlock() {
            if (!tryUnlockWrite()) throw new IllegalMonitorStateException();
        }
        public Condition newCondition() { throw new UnsupportedOperationException(); }
    }
}
