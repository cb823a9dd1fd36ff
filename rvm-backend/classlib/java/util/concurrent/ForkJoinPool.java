package java.util.concurrent;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A pool of daemon worker threads for ForkJoinTasks, with the JDK's API. rvm's has no work
 * stealing: one queue per pool behind a ReentrantLock, from which idle workers (waiting on a
 * Condition, so parked) take tasks first in, first out; a worker that joins a task nobody has
 * taken runs it itself, and while it waits for one another runs it runs queued tasks (see
 * ForkJoinTask). Workers are started as tasks come, up to the parallelism, and are named as the
 * JDK names them ({@code ForkJoinPool-N-worker-M}, {@code ForkJoinPool.commonPool-worker-M}). The
 * common pool's parallelism is the number of processors less one (at least one), or the system
 * property {@code java.util.concurrent.ForkJoinPool.common.parallelism}; it ignores shutdown.
 */
public class ForkJoinPool extends AbstractExecutorService {
    public static interface ForkJoinWorkerThreadFactory {
        ForkJoinWorkerThread newThread(ForkJoinPool pool);
    }

    public static interface ManagedBlocker {
        boolean block() throws InterruptedException;
        boolean isReleasable();
    }

    private static final class DefaultFactory implements ForkJoinWorkerThreadFactory {
        public ForkJoinWorkerThread newThread(ForkJoinPool pool) { return new ForkJoinWorkerThread(pool); }
    }

    public static final ForkJoinWorkerThreadFactory defaultForkJoinWorkerThreadFactory = new DefaultFactory();

    private static final AtomicInteger poolIds = new AtomicInteger(1);

    static final ForkJoinPool common = new ForkJoinPool(commonParallelism(), true);

    private static int commonParallelism() {
        String p = System.getProperty("java.util.concurrent.ForkJoinPool.common.parallelism");
        if (p != null) {
            try {
                return Math.max(1, Math.min(Integer.parseInt(p), 32767));
            } catch (NumberFormatException ignore) {
            }
        }
        return Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
    }

    private final int parallelism;
    private final boolean isCommon;
    final String workerNamePrefix;
    private final ForkJoinWorkerThreadFactory factory;
    private final Thread.UncaughtExceptionHandler handler;
    private final boolean asyncMode;

    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when a task is queued or the pool shuts down. */
    private final Condition work = lock.newCondition();
    /** Signalled when the pool becomes quiescent or terminates. */
    private final Condition quiet = lock.newCondition();
    private final ArrayDeque<ForkJoinTask<?>> queue = new ArrayDeque<>();
    private final List<ForkJoinWorkerThread> workers = new ArrayList<>();
    private int idle, running, nextIndex;
    private boolean shutdown, stop, terminated;

    public ForkJoinPool() { this(Math.max(1, Runtime.getRuntime().availableProcessors()), defaultForkJoinWorkerThreadFactory, null, false); }
    public ForkJoinPool(int parallelism) { this(parallelism, defaultForkJoinWorkerThreadFactory, null, false); }
    public ForkJoinPool(int parallelism, ForkJoinWorkerThreadFactory factory, Thread.UncaughtExceptionHandler handler, boolean asyncMode) {
        if (parallelism <= 0 || parallelism > 32767) throw new IllegalArgumentException();
        if (factory == null) throw new NullPointerException();
        this.parallelism = parallelism;
        this.factory = factory;
        this.handler = handler;
        this.asyncMode = asyncMode;
        this.isCommon = false;
        this.workerNamePrefix = "ForkJoinPool-" + poolIds.getAndIncrement() + "-worker-";
    }
    private ForkJoinPool(int parallelism, boolean common) {
        this.parallelism = parallelism;
        this.factory = defaultForkJoinWorkerThreadFactory;
        this.handler = null;
        this.asyncMode = false;
        this.isCommon = common;
        this.workerNamePrefix = "ForkJoinPool.commonPool-worker-";
    }

    public static ForkJoinPool commonPool() { return common; }
    public static int getCommonPoolParallelism() { return common.parallelism; }

    int nextWorkerIndex() {
        lock.lock();
        try {
            return nextIndex++;
        } finally {
            lock.unlock();
        }
    }

    /** Queues a task, starting a worker if none is idle and fewer than the parallelism run. */
    final void push(ForkJoinTask<?> task) {
        ForkJoinWorkerThread start = null;
        lock.lock();
        try {
            if (shutdown && !isCommon) throw new RejectedExecutionException("Queue capacity exceeded");
            queue.addLast(task);
            if (idle > 0) {
                work.signal();
            } else if (workers.size() < parallelism) {
                start = factory.newThread(this);
                if (start != null) {
                    if (handler != null) start.setUncaughtExceptionHandler(handler);
                    workers.add(start);
                }
            }
        } finally {
            lock.unlock();
        }
        if (start != null) start.start();
    }

    /** Removes a queued task (ForkJoinTask.tryUnfork). */
    final boolean unqueue(ForkJoinTask<?> task) {
        lock.lock();
        try {
            return queue.removeFirstOccurrence(task);
        } finally {
            lock.unlock();
        }
    }

    /** Runs one queued task in the calling worker, if one is there; false if none was. */
    final boolean helpOne() {
        ForkJoinTask<?> t;
        lock.lock();
        try {
            t = queue.pollFirst();
            if (t == null) return false;
        } finally {
            lock.unlock();
        }
        t.tryExec();
        return true;
    }

    final void runWorker(ForkJoinWorkerThread w) {
        ForkJoinTask<?> t = null;
        for (;;) {
            lock.lock();
            try {
                if (t != null) running--;
                while ((t = queue.pollFirst()) == null) {
                    if (shutdown) return;
                    if (running == 0) quiet.signalAll();
                    idle++;
                    try {
                        work.awaitUninterruptibly();
                    } finally {
                        idle--;
                    }
                }
                running++;
            } finally {
                lock.unlock();
            }
            t.tryExec();
        }
    }

    final void workerExit(ForkJoinWorkerThread w) {
        lock.lock();
        try {
            workers.remove(w);
            if (shutdown && workers.isEmpty()) {
                terminated = true;
                quiet.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    public <T> T invoke(ForkJoinTask<T> task) {
        if (task == null) throw new NullPointerException();
        push(task);
        return task.join();
    }
    public void execute(ForkJoinTask<?> task) {
        if (task == null) throw new NullPointerException();
        push(task);
    }
    public void execute(Runnable task) {
        if (task == null) throw new NullPointerException();
        push(task instanceof ForkJoinTask ? (ForkJoinTask<?>) task : new ForkJoinTask.RunnableExecuteAction(task));
    }
    public <T> ForkJoinTask<T> submit(ForkJoinTask<T> task) {
        if (task == null) throw new NullPointerException();
        push(task);
        return task;
    }
    public <T> ForkJoinTask<T> submit(Callable<T> task) {
        ForkJoinTask<T> t = new ForkJoinTask.AdaptedCallable<T>(task);
        push(t);
        return t;
    }
    public <T> ForkJoinTask<T> submit(Runnable task, T result) {
        ForkJoinTask<T> t = new ForkJoinTask.AdaptedRunnable<T>(task, result);
        push(t);
        return t;
    }
    public ForkJoinTask<?> submit(Runnable task) {
        if (task == null) throw new NullPointerException();
        ForkJoinTask<?> t = task instanceof ForkJoinTask ? (ForkJoinTask<?>) task : new ForkJoinTask.AdaptedRunnable<Void>(task, null);
        push(t);
        return t;
    }
    protected <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) { return new ForkJoinTask.AdaptedRunnable<T>(runnable, value); }
    protected <T> RunnableFuture<T> newTaskFor(Callable<T> callable) { return new ForkJoinTask.AdaptedCallable<T>(callable); }

    public void shutdown() {
        if (isCommon) return;
        lock.lock();
        try {
            shutdown = true;
            work.signalAll();
            if (workers.isEmpty()) {
                terminated = true;
                quiet.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }
    public List<Runnable> shutdownNow() {
        if (isCommon) return new ArrayList<>();
        lock.lock();
        try {
            stop = true;
            for (ForkJoinTask<?> t : queue) t.cancel(false);
            queue.clear();
            for (ForkJoinWorkerThread w : workers) w.interrupt();
        } finally {
            lock.unlock();
        }
        shutdown();
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
            return terminated;
        } finally {
            lock.unlock();
        }
    }
    public boolean isTerminating() {
        lock.lock();
        try {
            return shutdown && !terminated;
        } finally {
            lock.unlock();
        }
    }
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        if (isCommon) {
            awaitQuiescence(timeout, unit);
            return false;
        }
        long nanos = unit.toNanos(timeout);
        lock.lock();
        try {
            while (!terminated) {
                if (nanos <= 0L) return false;
                nanos = quiet.awaitNanos(nanos);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Whether no task is queued and no worker runs one (under lock). */
    private boolean quiescent() { return queue.isEmpty() && running == 0; }

    public boolean awaitQuiescence(long timeout, TimeUnit unit) {
        long nanos = unit.toNanos(timeout);
        if (ForkJoinTask.getPool() == this) {
            while (helpOne()) {}
        }
        lock.lock();
        try {
            while (!quiescent()) {
                if (nanos <= 0L) return false;
                try {
                    nanos = quiet.awaitNanos(nanos);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
    public boolean isQuiescent() {
        lock.lock();
        try {
            return quiescent();
        } finally {
            lock.unlock();
        }
    }

    public int getParallelism() { return parallelism; }
    public int getPoolSize() {
        lock.lock();
        try {
            return workers.size();
        } finally {
            lock.unlock();
        }
    }
    public int getActiveThreadCount() {
        lock.lock();
        try {
            return running;
        } finally {
            lock.unlock();
        }
    }
    public int getRunningThreadCount() { return getActiveThreadCount(); }
    public long getQueuedTaskCount() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }
    public int getQueuedSubmissionCount() { return 0; }
    public boolean hasQueuedSubmissions() { return false; }
    public long getStealCount() { return 0L; }
    public boolean getAsyncMode() { return asyncMode; }
    public ForkJoinWorkerThreadFactory getFactory() { return factory; }
    public Thread.UncaughtExceptionHandler getUncaughtExceptionHandler() { return handler; }

    public String toString() {
        lock.lock();
        try {
            String level = terminated ? "Terminated" : shutdown ? "Shutting down" : "Running";
            return super.toString() + "[" + level + ", parallelism = " + parallelism + ", size = " + workers.size() + ", active = " + running + ", running = "
                    + running + ", steals = 0, tasks = " + queue.size() + ", submissions = 0]";
        } finally {
            lock.unlock();
        }
    }

    /** Blocks as the blocker says (rvm starts no compensating worker). */
    public static void managedBlock(ManagedBlocker blocker) throws InterruptedException {
        if (blocker == null) throw new NullPointerException();
        while (!blocker.isReleasable()) {
            if (blocker.block()) break;
        }
    }
}
