import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.StampedLock;

/** StampedLock: write, read and optimistic modes, conversions, and threads contending. */
public class LibStamped {
    static final StampedLock lock = new StampedLock();
    static int x, y;

    static String state(StampedLock l) {
        String s = l.toString();
        return s.substring(s.indexOf('[')) + " write " + l.isWriteLocked() + " read " + l.isReadLocked() + " readers " + l.getReadLockCount();
    }

    public static void main(String[] args) throws Exception {
        StampedLock l = new StampedLock();
        System.out.println("new: " + state(l));
        long w = l.writeLock();
        System.out.println("write stamp " + StampedLock.isWriteLockStamp(w) + " " + StampedLock.isReadLockStamp(w) + " lock stamp " + StampedLock.isLockStamp(w) + ": " + state(l));
        System.out.println("optimistic while write-locked " + l.tryOptimisticRead() + ", tryReadLock " + l.tryReadLock() + ", tryWriteLock " + l.tryWriteLock());
        try {
            l.unlockWrite(w + 1);
        } catch (IllegalMonitorStateException e) {
            System.out.println("unlockWrite with a wrong stamp: IllegalMonitorStateException");
        }
        l.unlockWrite(w);
        long o = l.tryOptimisticRead();
        System.out.println("optimistic " + (o != 0) + " optimistic stamp " + StampedLock.isOptimisticReadStamp(o) + " valid " + l.validate(o));
        long r1 = l.readLock();
        long r2 = l.readLock();
        System.out.println("two readers: " + state(l) + " read stamp " + StampedLock.isReadLockStamp(r1) + " optimistic still valid " + l.validate(o)
                + " tryWriteLock " + l.tryWriteLock());
        System.out.println("convert to write with two readers " + l.tryConvertToWriteLock(r1));
        l.unlockRead(r2);
        long cw = l.tryConvertToWriteLock(r1);
        System.out.println("convert to write with one reader " + (cw != 0) + ": " + state(l) + " old optimistic valid " + l.validate(o));
        long cr = l.tryConvertToReadLock(cw);
        System.out.println("back to read " + (cr != 0) + ": " + state(l));
        long co = l.tryConvertToOptimisticRead(cr);
        System.out.println("to optimistic " + (co != 0) + " valid " + l.validate(co) + ": " + state(l));
        long w2 = l.writeLock();
        System.out.println("after another write lock the optimistic stamp is valid: " + l.validate(co));
        l.unlock(w2);
        System.out.println("tryUnlockRead " + l.tryUnlockRead() + " tryUnlockWrite " + l.tryUnlockWrite() + ": " + state(l));

        Lock rl = l.asReadLock(), wl = l.asWriteLock();
        rl.lock();
        rl.lock();
        System.out.println("read view twice: " + state(l) + " write view tryLock " + wl.tryLock() + " timed " + wl.tryLock(20, TimeUnit.MILLISECONDS));
        rl.unlock();
        rl.unlock();
        wl.lock();
        System.out.println("write view: " + state(l) + " read view tryLock " + rl.tryLock());
        wl.unlock();
        System.out.println("read-write view: " + (l.asReadWriteLock().readLock() != null) + " " + state(l));

        // a writer waits for the readers, then gets the lock
        long r = l.readLock();
        boolean[] wrote = new boolean[1];
        Thread writer = new Thread(() -> {
            long s = l.writeLock();
            wrote[0] = true;
            l.unlockWrite(s);
        });
        writer.start();
        while (writer.getState() != Thread.State.WAITING) Thread.sleep(1);
        System.out.println("writer waiting, wrote " + wrote[0]);
        l.unlockRead(r);
        writer.join();
        System.out.println("writer wrote " + wrote[0]);

        // an interrupted wait
        long hold = l.writeLock();
        Thread interrupted = new Thread(() -> {
            try {
                l.readLockInterruptibly();
                System.out.println("read lock?");
            } catch (InterruptedException e) {
                System.out.println("readLockInterruptibly interrupted");
            }
        });
        interrupted.start();
        while (interrupted.getState() != Thread.State.WAITING) Thread.sleep(1);
        interrupted.interrupt();
        interrupted.join();
        System.out.println("timed tryReadLock while write-locked " + l.tryReadLock(20, TimeUnit.MILLISECONDS));
        l.unlockWrite(hold);

        // writers keep x == y; optimistic readers never accept a torn pair
        Thread[] ts = new Thread[6];
        int[] torn = new int[1];
        int[] reads = new int[1];
        for (int t = 0; t < ts.length; t++) {
            final boolean writes = t < 4;
            ts[t] = new Thread(() -> {
                for (int i = 0; i < 2000; i++) {
                    if (writes) {
                        long s = lock.writeLock();
                        try {
                            x++;
                            Thread.yield();
                            y++;
                        } finally {
                            lock.unlockWrite(s);
                        }
                    } else {
                        long s = lock.tryOptimisticRead();
                        int a = x, b = y;
                        if (!lock.validate(s)) {
                            s = lock.readLock();
                            try {
                                a = x;
                                b = y;
                            } finally {
                                lock.unlockRead(s);
                            }
                        }
                        synchronized (torn) {
                            if (a != b) torn[0]++;
                            reads[0]++;
                        }
                    }
                }
            });
            ts[t].start();
        }
        for (Thread t : ts) t.join();
        System.out.println("x " + x + " y " + y + " reads " + reads[0] + " torn " + torn[0]);
    }
}
