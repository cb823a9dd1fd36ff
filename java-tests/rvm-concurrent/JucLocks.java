import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/** Locks, conditions, latches, semaphores and park/unpark between green threads. */
public class JucLocks {
    /** A bounded buffer on a ReentrantLock with two conditions. */
    static final class Buffer {
        final ReentrantLock lock = new ReentrantLock();
        final Condition notFull = lock.newCondition(), notEmpty = lock.newCondition();
        final int[] items = new int[8];
        int head, count;

        void put(int v) throws InterruptedException {
            lock.lock();
            try {
                while (count == items.length) notFull.await();
                items[(head + count) % items.length] = v;
                count++;
                notEmpty.signal();
            } finally {
                lock.unlock();
            }
        }
        int take() throws InterruptedException {
            lock.lock();
            try {
                while (count == 0) notEmpty.await();
                int v = items[head];
                head = (head + 1) % items.length;
                count--;
                notFull.signal();
                return v;
            } finally {
                lock.unlock();
            }
        }
    }

    static long counter;

    static Thread start(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.start();
        return t;
    }

    public static void main(String[] args) throws Exception {
        // Producers and consumers on a lock and conditions.
        Buffer buf = new Buffer();
        final int producers = 4, perProducer = 5000;
        long[] consumed = new long[4];
        int[] taken = new int[4];
        List<Thread> ts = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            final int id = p;
            ts.add(start("producer-" + p, () -> {
                try {
                    for (int i = 1; i <= perProducer; i++) buf.put(id * perProducer + i);
                } catch (InterruptedException e) {
                    throw new RuntimeException(e);
                }
            }));
        }
        for (int c = 0; c < 4; c++) {
            final int id = c;
            ts.add(start("consumer-" + c, () -> {
                try {
                    for (int i = 0; i < perProducer; i++) {
                        consumed[id] += buf.take();
                        taken[id]++;
                    }
                } catch (InterruptedException e) {
                    throw new RuntimeException(e);
                }
            }));
        }
        for (Thread t : ts) t.join();
        long sum = 0;
        int n = 0;
        for (int c = 0; c < 4; c++) {
            sum += consumed[c];
            n += taken[c];
        }
        long all = (long) producers * perProducer;
        System.out.println("buffer: " + n + " items, sum " + sum + " expected " + all * (all + 1) / 2 + ", left " + buf.count);

        // Mutual exclusion: a plain counter under a ReentrantLock, re-entered.
        ReentrantLock lock = new ReentrantLock();
        ts.clear();
        for (int t = 0; t < 6; t++) {
            ts.add(start("locker-" + t, () -> {
                for (int i = 0; i < 20000; i++) {
                    lock.lock();
                    try {
                        lock.lock();
                        try {
                            counter++;
                        } finally {
                            lock.unlock();
                        }
                    } finally {
                        lock.unlock();
                    }
                }
            }));
        }
        for (Thread t : ts) t.join();
        System.out.println("lock counter " + counter + " locked " + lock.isLocked() + " holds " + lock.getHoldCount());

        // tryLock while another thread holds it; timed tryLock; interruptible lock.
        CountDownLatch held = new CountDownLatch(1), release = new CountDownLatch(1);
        Thread holder = start("holder", () -> {
            lock.lock();
            held.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new RuntimeException(e);
            } finally {
                lock.unlock();
            }
        });
        held.await();
        System.out.println("tryLock while held: " + lock.tryLock() + ", timed: " + lock.tryLock(20, TimeUnit.MILLISECONDS) + ", locked " + lock.isLocked() + ", by me " + lock.isHeldByCurrentThread());
        AtomicInteger interrupted = new AtomicInteger();
        Thread waiter = start("interruptible", () -> {
            try {
                lock.lockInterruptibly();
                lock.unlock();
            } catch (InterruptedException e) {
                interrupted.incrementAndGet();
            }
        });
        while (!lock.hasQueuedThread(waiter)) Thread.sleep(1);
        System.out.println("queued " + lock.getQueueLength());
        waiter.interrupt();
        waiter.join();
        System.out.println("lockInterruptibly interrupted: " + interrupted.get() + ", queued " + lock.getQueueLength());
        release.countDown();
        holder.join();
        System.out.println("after release tryLock: " + lock.tryLock());
        lock.unlock();
        try {
            lock.unlock();
        } catch (IllegalMonitorStateException e) {
            System.out.println("unlock when not owner: IllegalMonitorStateException");
        }

        // Condition: await with timeout that expires, signalAll waking every waiter.
        Condition cond = lock.newCondition();
        lock.lock();
        long t0 = System.nanoTime();
        boolean signalled = cond.await(30, TimeUnit.MILLISECONDS);
        long waitedMs = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("await timed out: " + !signalled + ", waited at least 25 ms: " + (waitedMs >= 25) + ", holds again " + lock.isHeldByCurrentThread());
        lock.unlock();
        AtomicInteger woken = new AtomicInteger();
        int[] ready = new int[1];
        ts.clear();
        for (int t = 0; t < 5; t++) {
            ts.add(start("awaiter-" + t, () -> {
                lock.lock();
                try {
                    ready[0]++;
                    cond.await();
                    woken.incrementAndGet();
                } catch (InterruptedException e) {
                    throw new RuntimeException(e);
                } finally {
                    lock.unlock();
                }
            }));
        }
        for (;;) {
            lock.lock();
            try {
                if (ready[0] == 5) {
                    cond.signalAll();
                    break;
                }
            } finally {
                lock.unlock();
            }
            Thread.sleep(1);
        }
        for (Thread t : ts) t.join();
        System.out.println("signalAll woke " + woken.get());
        try {
            cond.signal();
        } catch (IllegalMonitorStateException e) {
            System.out.println("signal without the lock: IllegalMonitorStateException");
        }

        // Read-write lock: readers share, writers exclude.
        ReentrantReadWriteLock rw = new ReentrantReadWriteLock();
        int[] data = new int[2];
        AtomicInteger inconsistent = new AtomicInteger(), maxReaders = new AtomicInteger(), readers = new AtomicInteger();
        ts.clear();
        for (int t = 0; t < 3; t++) {
            ts.add(start("writer-" + t, () -> {
                for (int i = 0; i < 3000; i++) {
                    rw.writeLock().lock();
                    try {
                        data[0]++;
                        data[1]++;
                    } finally {
                        rw.writeLock().unlock();
                    }
                }
            }));
            ts.add(start("reader-" + t, () -> {
                for (int i = 0; i < 3000; i++) {
                    rw.readLock().lock();
                    try {
                        maxReaders.accumulateAndGet(readers.incrementAndGet(), Math::max);
                        if (data[0] != data[1]) inconsistent.incrementAndGet();
                        readers.decrementAndGet();
                    } finally {
                        rw.readLock().unlock();
                    }
                }
            }));
        }
        for (Thread t : ts) t.join();
        System.out.println("rw: " + data[0] + " " + data[1] + ", inconsistent reads " + inconsistent.get() + ", readers at most 3: " + (maxReaders.get() <= 3) + ", write locked " + rw.isWriteLocked() + ", read locks " + rw.getReadLockCount());

        // Semaphore: at most 3 holders at once.
        Semaphore sem = new Semaphore(3);
        AtomicInteger inside = new AtomicInteger(), most = new AtomicInteger();
        ts.clear();
        for (int t = 0; t < 8; t++) {
            ts.add(start("permit-" + t, () -> {
                for (int i = 0; i < 200; i++) {
                    sem.acquireUninterruptibly();
                    try {
                        most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                        if ((i & 31) == 0) Thread.yield();
                        inside.decrementAndGet();
                    } finally {
                        sem.release();
                    }
                }
            }));
        }
        for (Thread t : ts) t.join();
        System.out.println("semaphore: at most 3 inside " + (most.get() <= 3) + ", permits " + sem.availablePermits() + ", tryAcquire(4) " + sem.tryAcquire(4) + ", drain " + sem.drainPermits() + ", timed " + sem.tryAcquire(10, TimeUnit.MILLISECONDS));

        // CountDownLatch as a start gate and a finish line.
        CountDownLatch gate = new CountDownLatch(1), finish = new CountDownLatch(6);
        AtomicInteger beforeGate = new AtomicInteger();
        for (int t = 0; t < 6; t++) {
            start("runner-" + t, () -> {
                try {
                    gate.await();
                    beforeGate.incrementAndGet();
                } catch (InterruptedException e) {
                    throw new RuntimeException(e);
                }
                finish.countDown();
            });
        }
        Thread.sleep(5);
        System.out.println("before the gate opens: " + beforeGate.get() + ", count " + finish.getCount());
        gate.countDown();
        finish.await();
        System.out.println("after: " + beforeGate.get() + ", count " + finish.getCount() + ", timed await " + new CountDownLatch(1).await(5, TimeUnit.MILLISECONDS));

        // park/unpark: a permit given before park makes it return at once; unpark wakes a parked thread.
        LockSupport.unpark(Thread.currentThread());
        LockSupport.park();
        System.out.println("park with a permit returned");
        Object blocker = new Object();
        Thread parker = start("parker", () -> {
            LockSupport.park(blocker);
            System.out.println("parker unparked");
        });
        while (LockSupport.getBlocker(parker) != blocker) Thread.sleep(1);
        System.out.println("parker's blocker is ours: true");
        LockSupport.unpark(parker);
        parker.join();
        System.out.println("blocker after: " + LockSupport.getBlocker(parker));
        long p0 = System.nanoTime();
        LockSupport.parkNanos(20_000_000L);
        System.out.println("parkNanos waited at least 15 ms: " + ((System.nanoTime() - p0) / 1_000_000 >= 15));
        Thread.currentThread().interrupt();
        LockSupport.park();
        System.out.println("park returns when interrupted, status kept: " + Thread.interrupted());
    }
}
