package java.util.concurrent;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Executors.newThreadPerTaskExecutor and newVirtualThreadPerTaskExecutor (Java 21): a new thread
 * from the factory for every task; shutdown lets them finish, shutdownNow interrupts them.
 */
final class ThreadPerTaskExecutor extends AbstractExecutorService {
    private final ThreadFactory factory;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition terminated = lock.newCondition();
    private final Set<Thread> threads = new HashSet<>();
    private boolean shutdown;

    ThreadPerTaskExecutor(ThreadFactory factory) {
        if (factory == null) throw new NullPointerException();
        this.factory = factory;
    }

    public void execute(Runnable task) {
        if (task == null) throw new NullPointerException();
        Thread[] self = new Thread[1];
        Thread t = factory.newThread(() -> {
            try {
                task.run();
            } finally {
                lock.lock();
                try {
                    threads.remove(self[0]);
                    if (shutdown && threads.isEmpty()) terminated.signalAll();
                } finally {
                    lock.unlock();
                }
            }
        });
        if (t == null) throw new RejectedExecutionException();
        self[0] = t;
        lock.lock();
        try {
            if (shutdown) throw new RejectedExecutionException();
            threads.add(t);
        } finally {
            lock.unlock();
        }
        t.start();
    }

    public void shutdown() {
        lock.lock();
        try {
            shutdown = true;
            if (threads.isEmpty()) terminated.signalAll();
        } finally {
            lock.unlock();
        }
    }

    public List<Runnable> shutdownNow() {
        lock.lock();
        try {
            shutdown = true;
            for (Thread t : threads) t.interrupt();
            if (threads.isEmpty()) terminated.signalAll();
        } finally {
            lock.unlock();
        }
        return new ArrayList<>();
    }

    public boolean isShutdown() {
        lock.lock();
        try {
            return shutdown;
        } finally {
            lock.unlock();
        }
    }

    public boolean isTerminated() {
        lock.lock();
        try {
            return shutdown && threads.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        lock.lock();
        try {
            while (!(shutdown && threads.isEmpty())) {
                if (nanos <= 0L) return false;
                nanos = terminated.awaitNanos(nanos);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
