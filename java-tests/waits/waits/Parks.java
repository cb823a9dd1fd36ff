package waits;

import java.lang.reflect.Method;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Threads that park in known ways, each named after what it does (the test finds them by name):
 * <ul>
 * <li>{@code lock-waiter}: {@code ReentrantLock.lock()} while {@code lock-holder} holds it for
 * 300 ms (blocker {@code ReentrantLock$NonfairSync});
 * <li>{@code latch-waiter}: {@code CountDownLatch.await()}, counted down by main after 250 ms
 * (blocker {@code CountDownLatch$Sync});
 * <li>{@code future-waiter}: {@code Future.get()} of a task that sleeps 250 ms (blocker
 * {@code FutureTask});
 * <li>{@code nanos-parker}: {@code LockSupport.parkNanos(new Marker(), 200 ms)}, which times out;
 * <li>{@code plain-parker}: {@code LockSupport.parkNanos(50 ms)} without a blocker;
 * <li>{@code until-parker}: {@code LockSupport.parkUntil(new UntilMarker(), now + 120 ms)};
 * <li>{@code waiter}: {@code Object.wait(100)} for comparison;
 * <li>on JDK 21 and later a virtual thread parks like {@code nanos-parker} with a {@code VMarker}
 * for 150 ms.
 * </ul>
 * With the argument {@code stdin} it prints {@code ready} and starts once it reads a line.
 */
public class Parks {
    static final class Marker {}

    static final class VMarker {}

    static final class UntilMarker {}

    static void parkUntilPlanted() {
        LockSupport.parkUntil(new UntilMarker(), System.currentTimeMillis() + 120);
    }

    static void parkPlanted() {
        LockSupport.parkNanos(new Marker(), 200_000_000L);
    }

    static void waitPlanted() {
        Object monitor = new Object();
        synchronized (monitor) {
            try {
                monitor.wait(100);
            } catch (InterruptedException e) {
                throw new RuntimeException(e);
            }
        }
    }

    static void parkVirtual() {
        LockSupport.parkNanos(new VMarker(), 150_000_000L);
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("stdin")) {
            // For an agent attached later: parks start after a line on stdin.
            System.out.println("ready");
            System.out.flush();
            new java.io.BufferedReader(new java.io.InputStreamReader(System.in)).readLine();
        }
        ReentrantLock lock = new ReentrantLock();
        CountDownLatch held = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            lock.lock();
            try {
                held.countDown();
                sleep(300);
            } finally {
                lock.unlock();
            }
        }, "lock-holder");
        holder.start();
        held.await();
        Thread lockWaiter = new Thread(() -> {
            lock.lock();
            lock.unlock();
        }, "lock-waiter");

        CountDownLatch gate = new CountDownLatch(1);
        Thread latchWaiter = new Thread(() -> {
            try {
                gate.await();
            } catch (InterruptedException e) {
                throw new RuntimeException(e);
            }
        }, "latch-waiter");

        ExecutorService pool = Executors.newSingleThreadExecutor();
        Future<?> task = pool.submit(() -> sleep(250));
        Thread futureWaiter = new Thread(() -> {
            try {
                task.get();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }, "future-waiter");

        Thread nanosParker = new Thread(Parks::parkPlanted, "nanos-parker");
        Thread plainParker = new Thread(() -> LockSupport.parkNanos(50_000_000L), "plain-parker");
        Thread untilParker = new Thread(Parks::parkUntilPlanted, "until-parker");
        Thread waiter = new Thread(Parks::waitPlanted, "waiter");

        Thread[] all = {lockWaiter, latchWaiter, futureWaiter, nanosParker, plainParker, untilParker, waiter};
        for (Thread t : all) {
            t.start();
        }
        Thread virtual = startVirtual(Parks::parkVirtual);
        sleep(250);
        gate.countDown();
        for (Thread t : all) {
            t.join();
        }
        holder.join();
        if (virtual != null) {
            virtual.join();
        }
        pool.shutdown();
        System.out.println("parks done");
    }

    /** A started virtual thread (JDK 21+), or null. */
    static Thread startVirtual(Runnable r) throws Exception {
        Method start;
        try {
            start = Thread.class.getMethod("startVirtualThread", Runnable.class);
        } catch (NoSuchMethodException e) {
            return null;
        }
        return (Thread) start.invoke(null, r);
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            throw new RuntimeException(e);
        }
    }
}
