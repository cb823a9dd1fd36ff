package java.util.concurrent;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A pool of worker threads taking tasks from a blocking queue. rvm's own, simpler than the JDK's:
 * execute starts a new worker while fewer than corePoolSize run; beyond that the task is queued,
 * and a new worker (up to maximumPoolSize) is started only when no worker is idle waiting for a
 * task (which is how a cached pool, with a SynchronousQueue in the JDK, behaves). Workers beyond
 * the core size (or all, with allowCoreThreadTimeOut) end after keepAliveTime without a task.
 * shutdown lets queued tasks finish; shutdownNow interrupts the workers and returns the queue.
 */
public class ThreadPoolExecutor extends AbstractExecutorService {
    private final BlockingQueue<Runnable> workQueue;
    private final ReentrantLock mainLock = new ReentrantLock();
    private final Condition termination = mainLock.newCondition();
    private final HashSet<Worker> workers = new HashSet<>();
    private volatile ThreadFactory threadFactory;
    private volatile RejectedExecutionHandler handler;
    private volatile int corePoolSize, maximumPoolSize;
    private volatile long keepAliveNanos;
    private volatile boolean allowCoreThreadTimeOut;
    /**
     * Guarded by mainLock: workers waiting for a task, and tasks queued by execute that no worker
     * has taken yet. A worker that has just taken a task counts in both until it updates them
     * (together), so {@code pending > idle} says exactly that a queued task has no worker.
     */
    private int idle, pending, largestPoolSize;
    private long completedTasks;
    private boolean shutdown, stop, terminated;

    private static final RejectedExecutionHandler defaultHandler = new AbortPolicy();

    private final class Worker implements Runnable {
        Runnable firstTask;
        final Thread thread;
        /** Waiting for a task (guarded by mainLock): shutdown interrupts only these. */
        boolean waiting;
        long completed;
        Worker(Runnable firstTask) {
            this.firstTask = firstTask;
            this.thread = threadFactory.newThread(this);
        }
        public void run() { runWorker(this); }
    }

    public ThreadPoolExecutor(int corePoolSize, int maximumPoolSize, long keepAliveTime, TimeUnit unit, BlockingQueue<Runnable> workQueue) {
        this(corePoolSize, maximumPoolSize, keepAliveTime, unit, workQueue, Executors.defaultThreadFactory(), defaultHandler);
    }
    public ThreadPoolExecutor(int corePoolSize, int maximumPoolSize, long keepAliveTime, TimeUnit unit, BlockingQueue<Runnable> workQueue, ThreadFactory threadFactory) {
        this(corePoolSize, maximumPoolSize, keepAliveTime, unit, workQueue, threadFactory, defaultHandler);
    }
    public ThreadPoolExecutor(int corePoolSize, int maximumPoolSize, long keepAliveTime, TimeUnit unit, BlockingQueue<Runnable> workQueue, RejectedExecutionHandler handler) {
        this(corePoolSize, maximumPoolSize, keepAliveTime, unit, workQueue, Executors.defaultThreadFactory(), handler);
    }
    public ThreadPoolExecutor(int corePoolSize, int maximumPoolSize, long keepAliveTime, TimeUnit unit, BlockingQueue<Runnable> workQueue, ThreadFactory threadFactory, RejectedExecutionHandler handler) {
        if (corePoolSize < 0 || maximumPoolSize <= 0 || maximumPoolSize < corePoolSize || keepAliveTime < 0) throw new IllegalArgumentException();
        if (workQueue == null || threadFactory == null || handler == null) throw new NullPointerException();
        this.corePoolSize = corePoolSize;
        this.maximumPoolSize = maximumPoolSize;
        this.keepAliveNanos = unit.toNanos(keepAliveTime);
        this.workQueue = workQueue;
        this.threadFactory = threadFactory;
        this.handler = handler;
    }

    public void execute(Runnable command) {
        if (command == null) throw new NullPointerException();
        boolean rejectIt = false;
        mainLock.lock();
        try {
            if (shutdown) {
                rejectIt = true;
            } else if (workers.size() < corePoolSize) {
                addWorker(command);
            } else if (workQueue.offer(command)) {
                pending++;
                // more tasks waiting than idle workers to take them: one more worker, if allowed
                if (workers.isEmpty() || (pending > idle && workers.size() < maximumPoolSize)) addWorker(null);
            } else if (workers.size() < maximumPoolSize) {
                addWorker(command);
            } else {
                rejectIt = true;
            }
        } finally {
            mainLock.unlock();
        }
        if (rejectIt) reject(command);
    }

    final void reject(Runnable command) { handler.rejectedExecution(command, this); }

    /** Under mainLock. */
    private void addWorker(Runnable first) {
        Worker w = new Worker(first);
        workers.add(w);
        if (workers.size() > largestPoolSize) largestPoolSize = workers.size();
        w.thread.start();
    }

    private void runWorker(Worker w) {
        Runnable task = w.firstTask;
        w.firstTask = null;
        try {
            while (task != null || (task = getTask(w)) != null) {
                // an interrupt meant for an idle worker (shutdown) must not reach a task
                if (!stop) Thread.interrupted();
                beforeExecute(w.thread, task);
                Throwable thrown = null;
                try {
                    task.run();
                } catch (RuntimeException | Error x) {
                    thrown = x;
                    throw x;
                } finally {
                    afterExecute(task, thrown);
                    task = null;
                    w.completed++;
                }
            }
        } finally {
            workerExit(w);
        }
    }

    /** The next task, or null when the worker should end. */
    private Runnable getTask(Worker w) {
        boolean timedOut = false;
        for (;;) {
            boolean timed;
            mainLock.lock();
            try {
                if (stop || (shutdown && workQueue.isEmpty())) return null;
                timed = allowCoreThreadTimeOut || workers.size() > corePoolSize;
                if (timed && timedOut && workQueue.isEmpty()) return null;
                idle++;
                w.waiting = true;
            } finally {
                mainLock.unlock();
            }
            Runnable r = null;
            try {
                r = timed ? workQueue.poll(keepAliveNanos, TimeUnit.NANOSECONDS) : workQueue.take();
            } catch (InterruptedException retry) {
            } finally {
                mainLock.lock();
                idle--;
                if (r != null && pending > 0) pending--;
                w.waiting = false;
                mainLock.unlock();
            }
            if (r != null) return r;
            timedOut = timed;
        }
    }

    private void workerExit(Worker w) {
        mainLock.lock();
        try {
            completedTasks += w.completed;
            workers.remove(w);
            if (!stop && !shutdown && workers.isEmpty() && !workQueue.isEmpty()) addWorker(null);
            else if (!stop && !shutdown && workers.size() < corePoolSize && !allowCoreThreadTimeOut) {
                // a task threw: replace the worker, as the JDK does
                addWorker(null);
            }
            tryTerminate();
        } finally {
            mainLock.unlock();
        }
    }

    /** Under mainLock. */
    private void tryTerminate() {
        if (terminated || !shutdown || !workers.isEmpty()) return;
        if (!stop && !workQueue.isEmpty()) return;
        terminated = true;
        terminated();
        termination.signalAll();
    }

    /** Starts a worker (without a first task) if fewer than the core size run, or none. */
    void ensurePrestart() {
        mainLock.lock();
        try {
            if (!stop && (workers.size() < corePoolSize || workers.isEmpty())) addWorker(null);
        } finally {
            mainLock.unlock();
        }
    }

    public boolean prestartCoreThread() {
        mainLock.lock();
        try {
            if (shutdown || workers.size() >= corePoolSize) return false;
            addWorker(null);
            return true;
        } finally {
            mainLock.unlock();
        }
    }

    public int prestartAllCoreThreads() {
        int n = 0;
        while (prestartCoreThread()) n++;
        return n;
    }

    /** Called by shutdown under mainLock, after the state says shut down (for subclasses here). */
    void onShutdown() {}

    public void shutdown() {
        mainLock.lock();
        try {
            shutdown = true;
            onShutdown();
            for (Worker w : workers) if (w.waiting) w.thread.interrupt();
            tryTerminate();
        } finally {
            mainLock.unlock();
        }
    }

    public List<Runnable> shutdownNow() {
        ArrayList<Runnable> tasks = new ArrayList<>();
        mainLock.lock();
        try {
            shutdown = true;
            stop = true;
            for (Worker w : workers) w.thread.interrupt();
            workQueue.drainTo(tasks);
            pending = 0;
            tryTerminate();
        } finally {
            mainLock.unlock();
        }
        return tasks;
    }

    public boolean isShutdown() { return shutdown; }
    /** shutdownNow was called (for subclasses here). */
    boolean isStopped() { return stop; }
    public boolean isTerminating() {
        mainLock.lock();
        try {
            return shutdown && !terminated;
        } finally {
            mainLock.unlock();
        }
    }
    public boolean isTerminated() {
        mainLock.lock();
        try {
            return terminated;
        } finally {
            mainLock.unlock();
        }
    }
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        mainLock.lock();
        try {
            while (!terminated) {
                if (nanos <= 0L) return false;
                nanos = termination.awaitNanos(nanos);
            }
            return true;
        } finally {
            mainLock.unlock();
        }
    }

    protected void beforeExecute(Thread t, Runnable r) {}
    protected void afterExecute(Runnable r, Throwable t) {}
    protected void terminated() {}

    public BlockingQueue<Runnable> getQueue() { return workQueue; }
    public boolean remove(Runnable task) {
        mainLock.lock();
        try {
            boolean removed = workQueue.remove(task);
            if (removed && pending > 0) pending--;
            return removed;
        } finally {
            mainLock.unlock();
        }
    }
    public void setThreadFactory(ThreadFactory threadFactory) {
        if (threadFactory == null) throw new NullPointerException();
        this.threadFactory = threadFactory;
    }
    public ThreadFactory getThreadFactory() { return threadFactory; }
    public void setRejectedExecutionHandler(RejectedExecutionHandler handler) {
        if (handler == null) throw new NullPointerException();
        this.handler = handler;
    }
    public RejectedExecutionHandler getRejectedExecutionHandler() { return handler; }
    public void setCorePoolSize(int corePoolSize) {
        if (corePoolSize < 0 || maximumPoolSize < corePoolSize) throw new IllegalArgumentException();
        this.corePoolSize = corePoolSize;
    }
    public int getCorePoolSize() { return corePoolSize; }
    public void setMaximumPoolSize(int maximumPoolSize) {
        if (maximumPoolSize <= 0 || maximumPoolSize < corePoolSize) throw new IllegalArgumentException();
        this.maximumPoolSize = maximumPoolSize;
    }
    public int getMaximumPoolSize() { return maximumPoolSize; }
    public void setKeepAliveTime(long time, TimeUnit unit) { keepAliveNanos = unit.toNanos(time); }
    public long getKeepAliveTime(TimeUnit unit) { return unit.convert(keepAliveNanos, TimeUnit.NANOSECONDS); }
    public void allowCoreThreadTimeOut(boolean value) { allowCoreThreadTimeOut = value; }
    public boolean allowsCoreThreadTimeOut() { return allowCoreThreadTimeOut; }
    public int getPoolSize() {
        mainLock.lock();
        try {
            return workers.size();
        } finally {
            mainLock.unlock();
        }
    }
    public int getActiveCount() {
        mainLock.lock();
        try {
            return workers.size() - idle;
        } finally {
            mainLock.unlock();
        }
    }
    public int getLargestPoolSize() {
        mainLock.lock();
        try {
            return largestPoolSize;
        } finally {
            mainLock.unlock();
        }
    }
    public long getCompletedTaskCount() {
        mainLock.lock();
        try {
            long n = completedTasks;
            for (Worker w : workers) n += w.completed;
            return n;
        } finally {
            mainLock.unlock();
        }
    }

    public static class AbortPolicy implements RejectedExecutionHandler {
        public AbortPolicy() {}
        public void rejectedExecution(Runnable r, ThreadPoolExecutor e) {
            throw new RejectedExecutionException("Task " + r.toString() + " rejected from " + e.toString());
        }
    }
    public static class CallerRunsPolicy implements RejectedExecutionHandler {
        public CallerRunsPolicy() {}
        public void rejectedExecution(Runnable r, ThreadPoolExecutor e) {
            if (!e.isShutdown()) r.run();
        }
    }
    public static class DiscardPolicy implements RejectedExecutionHandler {
        public DiscardPolicy() {}
        public void rejectedExecution(Runnable r, ThreadPoolExecutor e) {}
    }
    public static class DiscardOldestPolicy implements RejectedExecutionHandler {
        public DiscardOldestPolicy() {}
        public void rejectedExecution(Runnable r, ThreadPoolExecutor e) {
            if (!e.isShutdown()) {
                e.getQueue().poll();
                e.execute(r);
            }
        }
    }
}
