package java.util.concurrent;

import jdk.internal.rvm.Atomic;

/** A cancellable computation; waiters block on a CountDownLatch that completion counts down. */
public class FutureTask<V> implements RunnableFuture<V> {
    private static final int STATE = Atomic.offset(FutureTask.class, "state");
    private static final int RUNNER = Atomic.offset(FutureTask.class, "runner");

    private static final int NEW = 0, COMPLETING = 1, NORMAL = 2, EXCEPTIONAL = 3, CANCELLED = 4, INTERRUPTING = 5, INTERRUPTED = 6;

    private volatile int state;
    private volatile Thread runner;
    private Callable<V> callable;
    private Object outcome;
    private final CountDownLatch done = new CountDownLatch(1);

    public FutureTask(Callable<V> callable) {
        if (callable == null) throw new NullPointerException();
        this.callable = callable;
    }
    public FutureTask(Runnable runnable, V result) { this(Executors.callable(runnable, result)); }

    private int state() { return Atomic.getInt(this, STATE); }
    public boolean isCancelled() { return state() >= CANCELLED; }
    public boolean isDone() { return state() != NEW; }

    public boolean cancel(boolean mayInterruptIfRunning) {
        if (!Atomic.casInt(this, STATE, NEW, mayInterruptIfRunning ? INTERRUPTING : CANCELLED)) return false;
        if (mayInterruptIfRunning) {
            Thread t = runner;
            if (t != null) t.interrupt();
            Atomic.putInt(this, STATE, INTERRUPTED);
        }
        finish();
        return true;
    }

    private void finish() {
        done.countDown();
        done();
        callable = null;
    }

    @SuppressWarnings("unchecked")
    private V report(int s) throws ExecutionException {
        if (s == NORMAL) return (V) outcome;
        if (s >= CANCELLED) throw new CancellationException();
        throw new ExecutionException((Throwable) outcome);
    }

    public V get() throws InterruptedException, ExecutionException {
        done.await();
        return report(awaitSettled());
    }
    public V get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        if (unit == null) throw new NullPointerException();
        if (!done.await(timeout, unit)) throw new TimeoutException();
        return report(awaitSettled());
    }
    /** The final state (a cancel that interrupts passes through INTERRUPTING briefly). */
    private int awaitSettled() {
        int s;
        while ((s = state()) == INTERRUPTING || s == COMPLETING) Thread.yield();
        return s;
    }

    protected void done() {}

    protected void set(V v) {
        if (Atomic.casInt(this, STATE, NEW, COMPLETING)) {
            outcome = v;
            Atomic.putInt(this, STATE, NORMAL);
            finish();
        }
    }
    protected void setException(Throwable t) {
        if (Atomic.casInt(this, STATE, NEW, COMPLETING)) {
            outcome = t;
            Atomic.putInt(this, STATE, EXCEPTIONAL);
            finish();
        }
    }

    public void run() {
        if (state() != NEW || !Atomic.casRef(this, RUNNER, null, Thread.currentThread())) return;
        try {
            Callable<V> c = callable;
            if (c != null && state() == NEW) {
                V result;
                boolean ran;
                try {
                    result = c.call();
                    ran = true;
                } catch (Throwable ex) {
                    result = null;
                    ran = false;
                    setException(ex);
                }
                if (ran) set(result);
            }
        } finally {
            runner = null;
            // a cancel(true) racing with the end: its interrupt is meant for this task only
            while (state() == INTERRUPTING) Thread.yield();
        }
    }

    /**
     * Runs the computation without setting a result, leaving the task to run again (periodic
     * tasks); false if it threw, was cancelled or had completed.
     */
    protected boolean runAndReset() {
        if (state() != NEW || !Atomic.casRef(this, RUNNER, null, Thread.currentThread())) return false;
        boolean ran = false;
        try {
            Callable<V> c = callable;
            if (c != null && state() == NEW) {
                try {
                    c.call();
                    ran = true;
                } catch (Throwable ex) {
                    setException(ex);
                }
            }
        } finally {
            runner = null;
            while (state() == INTERRUPTING) Thread.yield();
        }
        return ran && state() == NEW;
    }

    public String toString() {
        String status;
        switch (state()) {
        case NORMAL: status = "[Completed normally]"; break;
        case EXCEPTIONAL: status = "[Completed exceptionally: " + outcome + "]"; break;
        case CANCELLED: case INTERRUPTING: case INTERRUPTED: status = "[Cancelled]"; break;
        default: status = callable == null ? "[Not completed]" : "[Not completed, task = " + callable + "]";
        }
        return super.toString() + status;
    }
}
