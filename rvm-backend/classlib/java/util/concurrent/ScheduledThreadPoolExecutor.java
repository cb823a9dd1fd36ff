package java.util.concurrent;

import java.util.AbstractQueue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A thread pool that runs tasks after a delay or periodically, as the JDK's: a fixed number of
 * core workers (started as tasks are scheduled) take tasks from a delay queue, a priority queue
 * ordered by trigger time (then by submission) behind a ReentrantLock, where a worker waits
 * (parks) on a Condition until the first task is due. A periodic task puts itself back with its
 * next time after each run; one that throws is not run again. After shutdown, delayed tasks still
 * run and periodic ones are cancelled (the JDK's default policies, which can be changed).
 */
public class ScheduledThreadPoolExecutor extends ThreadPoolExecutor implements ScheduledExecutorService {
    private static final AtomicLong sequencer = new AtomicLong();

    private volatile boolean continueExistingPeriodicTasksAfterShutdown;
    private volatile boolean executeExistingDelayedTasksAfterShutdown = true;
    volatile boolean removeOnCancel;

    public ScheduledThreadPoolExecutor(int corePoolSize) {
        super(corePoolSize, Integer.MAX_VALUE, 10L, TimeUnit.MILLISECONDS, new DelayedWorkQueue());
    }
    public ScheduledThreadPoolExecutor(int corePoolSize, ThreadFactory threadFactory) {
        super(corePoolSize, Integer.MAX_VALUE, 10L, TimeUnit.MILLISECONDS, new DelayedWorkQueue(), threadFactory);
    }
    public ScheduledThreadPoolExecutor(int corePoolSize, RejectedExecutionHandler handler) {
        super(corePoolSize, Integer.MAX_VALUE, 10L, TimeUnit.MILLISECONDS, new DelayedWorkQueue(), handler);
    }
    public ScheduledThreadPoolExecutor(int corePoolSize, ThreadFactory threadFactory, RejectedExecutionHandler handler) {
        super(corePoolSize, Integer.MAX_VALUE, 10L, TimeUnit.MILLISECONDS, new DelayedWorkQueue(), threadFactory, handler);
    }

    private class ScheduledFutureTask<V> extends FutureTask<V> implements RunnableScheduledFuture<V> {
        private final long sequenceNumber;
        /** System.nanoTime at which the task is due. */
        private volatile long time;
        /** 0: once; > 0: at a fixed rate; < 0: with a fixed delay (its negation). */
        private final long period;
        RunnableScheduledFuture<V> outerTask = this;

        ScheduledFutureTask(Runnable r, V result, long triggerTime, long period) {
            super(r, result);
            this.time = triggerTime;
            this.period = period;
            this.sequenceNumber = sequencer.getAndIncrement();
        }
        ScheduledFutureTask(Callable<V> callable, long triggerTime) {
            super(callable);
            this.time = triggerTime;
            this.period = 0;
            this.sequenceNumber = sequencer.getAndIncrement();
        }

        public long getDelay(TimeUnit unit) { return unit.convert(time - System.nanoTime(), TimeUnit.NANOSECONDS); }

        public int compareTo(Delayed other) {
            if (other == this) return 0;
            if (other instanceof ScheduledFutureTask) {
                ScheduledFutureTask<?> x = (ScheduledFutureTask<?>) other;
                long diff = time - x.time;
                if (diff < 0) return -1;
                if (diff > 0) return 1;
                return sequenceNumber < x.sequenceNumber ? -1 : 1;
            }
            long diff = getDelay(TimeUnit.NANOSECONDS) - other.getDelay(TimeUnit.NANOSECONDS);
            return diff < 0 ? -1 : diff > 0 ? 1 : 0;
        }

        public boolean isPeriodic() { return period != 0; }

        private void setNextRunTime() {
            long p = period;
            if (p > 0) time += p;
            else time = triggerTime(-p);
        }

        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = super.cancel(mayInterruptIfRunning);
            if (cancelled && removeOnCancel) remove(this);
            return cancelled;
        }

        public void run() {
            if (!canRunInCurrentRunState(this)) cancel(false);
            else if (!isPeriodic()) super.run();
            else if (super.runAndReset()) {
                setNextRunTime();
                reExecutePeriodic(outerTask);
            }
        }
    }

    boolean canRunInCurrentRunState(RunnableScheduledFuture<?> task) {
        if (!isShutdown()) return true;
        if (isStopped()) return false;
        return task.isPeriodic() ? continueExistingPeriodicTasksAfterShutdown
                : (executeExistingDelayedTasksAfterShutdown || task.getDelay(TimeUnit.NANOSECONDS) <= 0);
    }

    private void delayedExecute(RunnableScheduledFuture<?> task) {
        if (isShutdown()) {
            reject(task);
        } else {
            getQueue().add(task);
            if (!canRunInCurrentRunState(task) && remove(task)) task.cancel(false);
            else ensurePrestart();
        }
    }

    void reExecutePeriodic(RunnableScheduledFuture<?> task) {
        if (canRunInCurrentRunState(task)) {
            getQueue().add(task);
            if (canRunInCurrentRunState(task) || !remove(task)) {
                ensurePrestart();
                return;
            }
        }
        task.cancel(false);
    }

    @Override
    void onShutdown() {
        BlockingQueue<Runnable> q = getQueue();
        boolean keepDelayed = getExecuteExistingDelayedTasksAfterShutdownPolicy();
        boolean keepPeriodic = getContinueExistingPeriodicTasksAfterShutdownPolicy();
        for (Object e : q.toArray()) {
            if (e instanceof RunnableScheduledFuture) {
                RunnableScheduledFuture<?> t = (RunnableScheduledFuture<?>) e;
                if ((t.isPeriodic() ? !keepPeriodic : (!keepDelayed && t.getDelay(TimeUnit.NANOSECONDS) > 0)) || t.isCancelled()) {
                    if (q.remove(t)) t.cancel(false);
                }
            }
        }
    }

    protected <V> RunnableScheduledFuture<V> decorateTask(Runnable runnable, RunnableScheduledFuture<V> task) { return task; }
    protected <V> RunnableScheduledFuture<V> decorateTask(Callable<V> callable, RunnableScheduledFuture<V> task) { return task; }

    private static long triggerTime(long delayNanos) {
        long now = System.nanoTime();
        long d = delayNanos < 0 ? 0 : delayNanos;
        return d > Long.MAX_VALUE / 2 ? now + Long.MAX_VALUE / 2 : now + d;
    }

    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        if (command == null || unit == null) throw new NullPointerException();
        RunnableScheduledFuture<Void> t = decorateTask(command, new ScheduledFutureTask<Void>(command, null, triggerTime(unit.toNanos(delay)), 0));
        delayedExecute(t);
        return t;
    }

    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        if (callable == null || unit == null) throw new NullPointerException();
        RunnableScheduledFuture<V> t = decorateTask(callable, new ScheduledFutureTask<V>(callable, triggerTime(unit.toNanos(delay))));
        delayedExecute(t);
        return t;
    }

    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        if (command == null || unit == null) throw new NullPointerException();
        if (period <= 0L) throw new IllegalArgumentException();
        ScheduledFutureTask<Void> sft = new ScheduledFutureTask<Void>(command, null, triggerTime(unit.toNanos(initialDelay)), unit.toNanos(period));
        RunnableScheduledFuture<Void> t = decorateTask(command, sft);
        sft.outerTask = t;
        delayedExecute(t);
        return t;
    }

    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        if (command == null || unit == null) throw new NullPointerException();
        if (delay <= 0L) throw new IllegalArgumentException();
        ScheduledFutureTask<Void> sft = new ScheduledFutureTask<Void>(command, null, triggerTime(unit.toNanos(initialDelay)), -unit.toNanos(delay));
        RunnableScheduledFuture<Void> t = decorateTask(command, sft);
        sft.outerTask = t;
        delayedExecute(t);
        return t;
    }

    public void execute(Runnable command) { schedule(command, 0, TimeUnit.NANOSECONDS); }
    public Future<?> submit(Runnable task) { return schedule(task, 0, TimeUnit.NANOSECONDS); }
    public <T> Future<T> submit(Runnable task, T result) { return schedule(Executors.callable(task, result), 0, TimeUnit.NANOSECONDS); }
    public <T> Future<T> submit(Callable<T> task) { return schedule(task, 0, TimeUnit.NANOSECONDS); }

    public void setContinueExistingPeriodicTasksAfterShutdownPolicy(boolean value) {
        continueExistingPeriodicTasksAfterShutdown = value;
        if (!value && isShutdown()) onShutdown();
    }
    public boolean getContinueExistingPeriodicTasksAfterShutdownPolicy() { return continueExistingPeriodicTasksAfterShutdown; }
    public void setExecuteExistingDelayedTasksAfterShutdownPolicy(boolean value) {
        executeExistingDelayedTasksAfterShutdown = value;
        if (!value && isShutdown()) onShutdown();
    }
    public boolean getExecuteExistingDelayedTasksAfterShutdownPolicy() { return executeExistingDelayedTasksAfterShutdown; }
    public void setRemoveOnCancelPolicy(boolean value) { removeOnCancel = value; }
    public boolean getRemoveOnCancelPolicy() { return removeOnCancel; }

    public void shutdown() { super.shutdown(); }
    public List<Runnable> shutdownNow() { return super.shutdownNow(); }
    public BlockingQueue<Runnable> getQueue() { return super.getQueue(); }

    /**
     * The work queue: Runnables that are RunnableScheduledFutures, by trigger time, behind a
     * ReentrantLock; take waits on a Condition until the first is due. drainTo takes every task,
     * due or not (shutdownNow returns them all).
     */
    static class DelayedWorkQueue extends AbstractQueue<Runnable> implements BlockingQueue<Runnable> {
        private final PriorityQueue<RunnableScheduledFuture<?>> q = new PriorityQueue<>();
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition available = lock.newCondition();

        public boolean offer(Runnable x) {
            if (x == null) throw new NullPointerException();
            lock.lock();
            try {
                q.add((RunnableScheduledFuture<?>) x);
                available.signalAll();
            } finally {
                lock.unlock();
            }
            return true;
        }
        public void put(Runnable e) { offer(e); }
        public boolean add(Runnable e) { return offer(e); }
        public boolean offer(Runnable e, long timeout, TimeUnit unit) { return offer(e); }

        public RunnableScheduledFuture<?> poll() {
            lock.lock();
            try {
                RunnableScheduledFuture<?> first = q.peek();
                return first == null || first.getDelay(TimeUnit.NANOSECONDS) > 0 ? null : q.poll();
            } finally {
                lock.unlock();
            }
        }
        public RunnableScheduledFuture<?> take() throws InterruptedException {
            lock.lockInterruptibly();
            try {
                for (;;) {
                    RunnableScheduledFuture<?> first = q.peek();
                    if (first == null) {
                        available.await();
                    } else {
                        long delay = first.getDelay(TimeUnit.NANOSECONDS);
                        if (delay <= 0L) return q.poll();
                        available.awaitNanos(delay);
                    }
                }
            } finally {
                lock.unlock();
            }
        }
        public RunnableScheduledFuture<?> poll(long timeout, TimeUnit unit) throws InterruptedException {
            long nanos = unit.toNanos(timeout);
            lock.lockInterruptibly();
            try {
                for (;;) {
                    RunnableScheduledFuture<?> first = q.peek();
                    if (first == null) {
                        if (nanos <= 0L) return null;
                        nanos = available.awaitNanos(nanos);
                    } else {
                        long delay = first.getDelay(TimeUnit.NANOSECONDS);
                        if (delay <= 0L) return q.poll();
                        if (nanos <= 0L) return null;
                        long before = System.nanoTime();
                        available.awaitNanos(Math.min(delay, nanos));
                        nanos -= System.nanoTime() - before;
                    }
                }
            } finally {
                lock.unlock();
            }
        }
        public RunnableScheduledFuture<?> peek() {
            lock.lock();
            try {
                return q.peek();
            } finally {
                lock.unlock();
            }
        }
        public int size() {
            lock.lock();
            try {
                return q.size();
            } finally {
                lock.unlock();
            }
        }
        public boolean isEmpty() { return size() == 0; }
        public int remainingCapacity() { return Integer.MAX_VALUE; }
        public boolean remove(Object x) {
            lock.lock();
            try {
                Iterator<RunnableScheduledFuture<?>> it = q.iterator();
                while (it.hasNext()) {
                    if (it.next() == x) {
                        it.remove();
                        return true;
                    }
                }
                return false;
            } finally {
                lock.unlock();
            }
        }
        public boolean contains(Object x) {
            lock.lock();
            try {
                for (Object e : q) if (e == x) return true;
                return false;
            } finally {
                lock.unlock();
            }
        }
        public void clear() {
            lock.lock();
            try {
                q.clear();
            } finally {
                lock.unlock();
            }
        }
        public Object[] toArray() {
            lock.lock();
            try {
                return q.toArray();
            } finally {
                lock.unlock();
            }
        }
        @SuppressWarnings("unchecked")
        public <T> T[] toArray(T[] a) {
            Object[] all = toArray();
            if (a.length < all.length) return (T[]) Arrays.copyOf(all, all.length, a.getClass());
            System.arraycopy(all, 0, a, 0, all.length);
            if (a.length > all.length) a[all.length] = null;
            return a;
        }
        public Iterator<Runnable> iterator() {
            final Object[] snapshot = toArray();
            return new Iterator<Runnable>() {
                int cursor;
                int last = -1;
                public boolean hasNext() { return cursor < snapshot.length; }
                public Runnable next() {
                    if (cursor >= snapshot.length) throw new java.util.NoSuchElementException();
                    last = cursor;
                    return (Runnable) snapshot[cursor++];
                }
                public void remove() {
                    if (last < 0) throw new IllegalStateException();
                    DelayedWorkQueue.this.remove(snapshot[last]);
                    last = -1;
                }
            };
        }
        public int drainTo(Collection<? super Runnable> c) { return drainTo(c, Integer.MAX_VALUE); }
        public int drainTo(Collection<? super Runnable> c, int maxElements) {
            if (c == null) throw new NullPointerException();
            if (c == this) throw new IllegalArgumentException();
            lock.lock();
            try {
                int n = 0;
                while (n < maxElements && !q.isEmpty()) {
                    c.add(q.poll());
                    n++;
                }
                return n;
            } finally {
                lock.unlock();
            }
        }
    }
}
