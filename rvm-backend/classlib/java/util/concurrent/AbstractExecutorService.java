package java.util.concurrent;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

public abstract class AbstractExecutorService implements ExecutorService {
    public AbstractExecutorService() {}

    protected <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) { return new FutureTask<T>(runnable, value); }
    protected <T> RunnableFuture<T> newTaskFor(Callable<T> callable) { return new FutureTask<T>(callable); }

    public Future<?> submit(Runnable task) {
        if (task == null) throw new NullPointerException();
        RunnableFuture<Void> f = newTaskFor(task, null);
        execute(f);
        return f;
    }
    public <T> Future<T> submit(Runnable task, T result) {
        if (task == null) throw new NullPointerException();
        RunnableFuture<T> f = newTaskFor(task, result);
        execute(f);
        return f;
    }
    public <T> Future<T> submit(Callable<T> task) {
        if (task == null) throw new NullPointerException();
        RunnableFuture<T> f = newTaskFor(task);
        execute(f);
        return f;
    }

    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks) throws InterruptedException {
        if (tasks == null) throw new NullPointerException();
        ArrayList<Future<T>> futures = new ArrayList<>(tasks.size());
        try {
            for (Callable<T> t : tasks) {
                RunnableFuture<T> f = newTaskFor(t);
                futures.add(f);
                execute(f);
            }
            for (Future<T> f : futures) {
                if (!f.isDone()) {
                    try {
                        f.get();
                    } catch (CancellationException | ExecutionException ignore) {
                    }
                }
            }
            return futures;
        } catch (Throwable t) {
            for (Future<T> f : futures) f.cancel(true);
            throw t;
        }
    }

    /** Runs the tasks and returns the result of one that completed normally (the first in list order). */
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks) throws InterruptedException, ExecutionException {
        if (tasks == null) throw new NullPointerException();
        if (tasks.isEmpty()) throw new IllegalArgumentException();
        ArrayList<Future<T>> futures = new ArrayList<>(tasks.size());
        try {
            for (Callable<T> t : tasks) futures.add(submit(t));
            ExecutionException last = null;
            for (Future<T> f : futures) {
                try {
                    return f.get();
                } catch (ExecutionException e) {
                    last = e;
                } catch (CancellationException e) {
                    last = new ExecutionException(e);
                }
            }
            throw last;
        } finally {
            for (Future<T> f : futures) f.cancel(true);
        }
    }
}
