package java.util.concurrent;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import jdk.internal.rvm.Atomic;

/**
 * A task run in a ForkJoinPool, with the JDK's API (fork, join, invoke, invokeAll, the Future
 * methods). rvm's: a task is claimed by a compare-and-set of its status, by a worker taking it from
 * its pool's queue or by a worker that joins it while it is still unclaimed (which then runs it
 * itself, as the JDK's workers run their own forked tasks). A thread joining a task another runs
 * first helps with its pool's queued tasks (if it is a worker), then parks on the task's list of
 * waiters until the task completes and unparks them. join rethrows the task's own exception
 * (the JDK may rethrow a copy made in the joining thread, with the original as its cause).
 */
public abstract class ForkJoinTask<V> implements Future<V>, java.io.Serializable {
    static final int NEW = 0, CLAIMED = 1, NORMAL = 2, EXCEPTIONAL = 3, CANCELLED = 4;
    private static final int STATUS = Atomic.offset(ForkJoinTask.class, "status");
    private static final int WAITERS = Atomic.offset(ForkJoinTask.class, "waiters");

    private static final class WaitNode {
        final Thread thread;
        WaitNode next;
        WaitNode(Thread thread) { this.thread = thread; }
    }

    private volatile int status;
    private volatile WaitNode waiters;
    private Throwable exception;

    public ForkJoinTask() {}

    public abstract V getRawResult();
    protected abstract void setRawResult(V value);
    /** Runs the task; true if it completed normally. */
    protected abstract boolean exec();

    final int status() { return Atomic.getInt(this, STATUS); }

    /** Claims and runs the task if nobody has; true if this call ran it. */
    final boolean tryExec() {
        if (!Atomic.casInt(this, STATUS, NEW, CLAIMED)) return false;
        boolean done;
        try {
            done = exec();
        } catch (Throwable t) {
            setExceptional(t);
            return true;
        }
        if (done) setDone(NORMAL);
        return true;
    }

    /** Sets the final status (once) and unparks the waiters. */
    private boolean setDone(int s) {
        for (;;) {
            int cur = status();
            if (cur >= NORMAL) return false;
            if (Atomic.casInt(this, STATUS, cur, s)) break;
        }
        WaitNode w = (WaitNode) Atomic.getAndSetRef(this, WAITERS, null);
        for (; w != null; w = w.next) LockSupport.unpark(w.thread);
        return true;
    }

    private void setExceptional(Throwable t) {
        exception = t;
        setDone(EXCEPTIONAL);
    }

    /** Waits until done: runs the task if unclaimed (a worker), helps its pool, then parks. */
    private void awaitDone(boolean interruptible, boolean timed, long nanos) throws InterruptedException {
        Thread t = Thread.currentThread();
        ForkJoinPool pool = t instanceof ForkJoinWorkerThread ? ((ForkJoinWorkerThread) t).pool : null;
        if (pool != null && status() == NEW) tryExec();
        while (pool != null && status() < NORMAL && pool.helpOne()) {}
        if (status() >= NORMAL) return;
        long deadline = timed ? System.nanoTime() + nanos : 0L;
        WaitNode node = new WaitNode(t);
        for (;;) {
            WaitNode h = waiters;
            node.next = h;
            if (Atomic.casRef(this, WAITERS, h, node)) break;
        }
        while (status() < NORMAL) {
            if (interruptible && Thread.interrupted()) throw new InterruptedException();
            if (timed) {
                long left = deadline - System.nanoTime();
                if (left <= 0L) return;
                LockSupport.parkNanos(this, left);
            } else {
                LockSupport.park(this);
            }
        }
    }

    private void awaitUninterruptibly() {
        boolean interrupted = false;
        for (;;) {
            try {
                awaitDone(false, false, 0L);
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }

    private V reportJoin() {
        int s = status();
        if (s == CANCELLED) throw new CancellationException();
        if (s == EXCEPTIONAL) throw ForkJoinTask.<RuntimeException>uncheck(exception);
        return getRawResult();
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T uncheck(Throwable t) throws T { throw (T) t; }

    private V reportGet() throws ExecutionException {
        int s = status();
        if (s == CANCELLED) throw new CancellationException();
        if (s == EXCEPTIONAL) throw new ExecutionException(exception);
        return getRawResult();
    }

    public final ForkJoinTask<V> fork() {
        Thread t = Thread.currentThread();
        ForkJoinPool p = t instanceof ForkJoinWorkerThread ? ((ForkJoinWorkerThread) t).pool : ForkJoinPool.common;
        p.push(this);
        return this;
    }

    public final V join() {
        if (status() < NORMAL) awaitUninterruptibly();
        return reportJoin();
    }

    public final V invoke() {
        tryExec();
        return join();
    }

    public static void invokeAll(ForkJoinTask<?> t1, ForkJoinTask<?> t2) {
        t2.fork();
        t1.invoke();
        t2.join();
    }

    public static void invokeAll(ForkJoinTask<?>... tasks) {
        Throwable ex = null;
        for (int i = tasks.length - 1; i > 0; i--) tasks[i].fork();
        if (tasks.length > 0) {
            tasks[0].quietlyInvoke();
            if (tasks[0].status() != NORMAL) ex = tasks[0].thrown();
        }
        for (int i = 1; i < tasks.length; i++) {
            tasks[i].quietlyJoin();
            if (ex == null && tasks[i].status() != NORMAL) ex = tasks[i].thrown();
        }
        if (ex != null) throw ForkJoinTask.<RuntimeException>uncheck(ex);
    }

    public static <T extends ForkJoinTask<?>> Collection<T> invokeAll(Collection<T> tasks) {
        List<T> l = new ArrayList<>(tasks);
        invokeAll(l.toArray(new ForkJoinTask<?>[0]));
        return tasks;
    }

    private Throwable thrown() { return status() == CANCELLED ? new CancellationException() : exception; }

    public final void quietlyJoin() {
        if (status() < NORMAL) awaitUninterruptibly();
    }
    public final void quietlyInvoke() {
        tryExec();
        quietlyJoin();
    }
    public final V get() throws InterruptedException, ExecutionException {
        if (Thread.interrupted()) throw new InterruptedException();
        if (status() < NORMAL) awaitDone(true, false, 0L);
        return reportGet();
    }
    public final V get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        long nanos = unit.toNanos(timeout);
        if (Thread.interrupted()) throw new InterruptedException();
        if (status() < NORMAL) awaitDone(true, true, nanos);
        if (status() < NORMAL) throw new TimeoutException();
        return reportGet();
    }

    public boolean cancel(boolean mayInterruptIfRunning) {
        if (Atomic.casInt(this, STATUS, NEW, CLAIMED)) setDone(CANCELLED);
        return status() == CANCELLED;
    }
    public final boolean isDone() { return status() >= NORMAL; }
    public final boolean isCancelled() { return status() == CANCELLED; }
    public final boolean isCompletedAbnormally() { return status() >= EXCEPTIONAL; }
    public final boolean isCompletedNormally() { return status() == NORMAL; }
    public final Throwable getException() {
        int s = status();
        return s == CANCELLED ? new CancellationException() : s == EXCEPTIONAL ? exception : null;
    }

    public void complete(V value) {
        setRawResult(value);
        setDone(NORMAL);
    }
    public void completeExceptionally(Throwable ex) {
        setExceptional(ex instanceof RuntimeException || ex instanceof Error ? ex : new RuntimeException(ex));
    }
    public final void quietlyComplete() { setDone(NORMAL); }
    public void reinitialize() {
        exception = null;
        Atomic.putInt(this, STATUS, NEW);
    }
    /** Takes the task back from its pool's queue if no worker has taken it yet. */
    public boolean tryUnfork() {
        Thread t = Thread.currentThread();
        ForkJoinPool p = t instanceof ForkJoinWorkerThread ? ((ForkJoinWorkerThread) t).pool : ForkJoinPool.common;
        return status() == NEW && p.unqueue(this);
    }

    public static ForkJoinPool getPool() {
        Thread t = Thread.currentThread();
        return t instanceof ForkJoinWorkerThread ? ((ForkJoinWorkerThread) t).pool : null;
    }
    public static boolean inForkJoinPool() { return Thread.currentThread() instanceof ForkJoinWorkerThread; }
    public static void helpQuiesce() {
        ForkJoinPool p = getPool();
        if (p != null) while (p.helpOne()) {}
    }
    public static int getQueuedTaskCount() {
        ForkJoinPool p = getPool();
        return p == null ? 0 : (int) p.getQueuedTaskCount();
    }
    public static int getSurplusQueuedTaskCount() { return getQueuedTaskCount(); }

    public static ForkJoinTask<?> adapt(Runnable runnable) { return new AdaptedRunnable<Void>(runnable, null); }
    public static <T> ForkJoinTask<T> adapt(Runnable runnable, T result) { return new AdaptedRunnable<T>(runnable, result); }
    public static <T> ForkJoinTask<T> adapt(Callable<? extends T> callable) { return new AdaptedCallable<T>(callable); }

    static final class AdaptedRunnable<T> extends ForkJoinTask<T> implements RunnableFuture<T> {
        final Runnable runnable;
        T result;
        AdaptedRunnable(Runnable runnable, T result) {
            if (runnable == null) throw new NullPointerException();
            this.runnable = runnable;
            this.result = result;
        }
        public T getRawResult() { return result; }
        protected void setRawResult(T v) { result = v; }
        protected boolean exec() {
            runnable.run();
            return true;
        }
        public void run() { invoke(); }
        public String toString() { return super.toString() + "[Wrapped task = " + runnable + "]"; }
    }

    /** A Runnable given to execute: its exception goes to the worker's uncaught-exception handler. */
    static final class RunnableExecuteAction extends ForkJoinTask<Void> {
        final Runnable runnable;
        RunnableExecuteAction(Runnable runnable) {
            if (runnable == null) throw new NullPointerException();
            this.runnable = runnable;
        }
        public Void getRawResult() { return null; }
        protected void setRawResult(Void v) {}
        protected boolean exec() {
            try {
                runnable.run();
            } catch (Throwable t) {
                Thread w = Thread.currentThread();
                Thread.UncaughtExceptionHandler h = w.getUncaughtExceptionHandler();
                if (h != null) {
                    h.uncaughtException(w, t);
                } else {
                    System.err.print("Exception in thread \"" + w.getName() + "\" ");
                    t.printStackTrace();
                }
                throw t;
            }
            return true;
        }
    }

    static final class AdaptedCallable<T> extends ForkJoinTask<T> implements RunnableFuture<T> {
        final Callable<? extends T> callable;
        T result;
        AdaptedCallable(Callable<? extends T> callable) {
            if (callable == null) throw new NullPointerException();
            this.callable = callable;
        }
        public T getRawResult() { return result; }
        protected void setRawResult(T v) { result = v; }
        protected boolean exec() {
            try {
                result = callable.call();
                return true;
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }
        public void run() { invoke(); }
        public String toString() { return super.toString() + "[Wrapped task = " + callable + "]"; }
    }
}
