package java.util.concurrent;

import java.util.ArrayList;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The basics of CompletableFuture on rvm: async suppliers and runnables, dependent stages run by
 * whichever thread completes the source (or at once, by the caller, when it is complete already),
 * join/get/getNow, explicit completion, allOf. Exceptions travel as the JDK's do: a stage that
 * throws, or depends on one that failed, completes with a CompletionException around the cause.
 * The default executor is a cached pool of daemon threads named like the JDK's common pool.
 */
public class CompletableFuture<T> implements Future<T>, CompletionStage<T> {
    private static final class Failure {
        final Throwable ex;
        Failure(Throwable ex) { this.ex = ex; }
    }

    private static volatile ExecutorService asyncPool;

    private static Executor defaultExecutor() {
        ExecutorService p = asyncPool;
        if (p == null) {
            synchronized (CompletableFuture.class) {
                p = asyncPool;
                if (p == null) {
                    final java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger(1);
                    asyncPool = p = Executors.newCachedThreadPool(new ThreadFactory() {
                        public Thread newThread(Runnable r) {
                            Thread t = new Thread(r, "ForkJoinPool.commonPool-worker-" + n.getAndIncrement());
                            t.setDaemon(true);
                            return t;
                        }
                    });
                }
            }
        }
        return p;
    }

    /** null while incomplete; a Failure, or the value (NIL for null). */
    private Object result;
    private ArrayList<Runnable> dependents;
    private final CountDownLatch done = new CountDownLatch(1);
    private static final Object NIL = new Object();

    public CompletableFuture() {}

    /** Sets the result once; runs the dependents. */
    private boolean settle(Object r) {
        ArrayList<Runnable> deps;
        synchronized (this) {
            if (result != null) return false;
            result = r;
            deps = dependents;
            dependents = null;
        }
        done.countDown();
        if (deps != null) for (Runnable d : deps) d.run();
        return true;
    }
    /** Runs {@code action} when complete (now if already). */
    private void onDone(Runnable action) {
        synchronized (this) {
            if (result == null) {
                if (dependents == null) dependents = new ArrayList<>();
                dependents.add(action);
                return;
            }
        }
        action.run();
    }
    private static CompletionException wrap(Throwable x) { return (x instanceof CompletionException) ? (CompletionException) x : new CompletionException(x); }
    private synchronized Object raw() { return result; }
    @SuppressWarnings("unchecked")
    private T value(Object r) { return r == NIL ? null : (T) r; }

    public boolean complete(T value) { return settle(value == null ? NIL : value); }
    public boolean completeExceptionally(Throwable ex) {
        if (ex == null) throw new NullPointerException();
        return settle(new Failure(ex));
    }
    public boolean cancel(boolean mayInterruptIfRunning) { return settle(new Failure(new CancellationException())) || isCancelled(); }
    public boolean isCancelled() {
        Object r = raw();
        return r instanceof Failure && ((Failure) r).ex instanceof CancellationException;
    }
    public boolean isDone() { return raw() != null; }
    public boolean isCompletedExceptionally() { return raw() instanceof Failure; }

    public static <U> CompletableFuture<U> completedFuture(U value) {
        CompletableFuture<U> f = new CompletableFuture<>();
        f.complete(value);
        return f;
    }
    public static <U> CompletableFuture<U> failedFuture(Throwable ex) {
        CompletableFuture<U> f = new CompletableFuture<>();
        f.completeExceptionally(ex);
        return f;
    }
    public static <U> CompletableFuture<U> supplyAsync(Supplier<U> supplier) { return supplyAsync(supplier, defaultExecutor()); }
    public static <U> CompletableFuture<U> supplyAsync(final Supplier<U> supplier, Executor executor) {
        if (supplier == null || executor == null) throw new NullPointerException();
        final CompletableFuture<U> f = new CompletableFuture<>();
        executor.execute(new Runnable() {
            public void run() {
                try {
                    f.complete(supplier.get());
                } catch (Throwable t) {
                    f.settle(new Failure(wrap(t)));
                }
            }
        });
        return f;
    }
    public static CompletableFuture<Void> runAsync(Runnable runnable) { return runAsync(runnable, defaultExecutor()); }
    public static CompletableFuture<Void> runAsync(final Runnable runnable, Executor executor) {
        if (runnable == null) throw new NullPointerException();
        return supplyAsync(new Supplier<Void>() {
            public Void get() {
                runnable.run();
                return null;
            }
        }, executor);
    }

    /** Completes {@code d} with {@code fn} of this (complete) stage's value; failures pass through wrapped. */
    private <U> Runnable applyTo(final CompletableFuture<U> d, final Function<? super T, ? extends U> fn) {
        return new Runnable() {
            public void run() {
                Object r = raw();
                if (r instanceof Failure) {
                    d.settle(new Failure(wrap(((Failure) r).ex)));
                    return;
                }
                try {
                    d.complete(fn.apply(value(r)));
                } catch (Throwable t) {
                    d.settle(new Failure(wrap(t)));
                }
            }
        };
    }
    private <U> CompletableFuture<U> then(Function<? super T, ? extends U> fn) {
        CompletableFuture<U> d = new CompletableFuture<>();
        onDone(applyTo(d, fn));
        return d;
    }
    public <U> CompletableFuture<U> thenApply(Function<? super T, ? extends U> fn) {
        if (fn == null) throw new NullPointerException();
        return then(fn);
    }
    public CompletableFuture<Void> thenAccept(final Consumer<? super T> action) {
        if (action == null) throw new NullPointerException();
        return then(new Function<T, Void>() {
            public Void apply(T v) {
                action.accept(v);
                return null;
            }
        });
    }
    public CompletableFuture<Void> thenRun(final Runnable action) {
        if (action == null) throw new NullPointerException();
        return then(new Function<T, Void>() {
            public Void apply(T v) {
                action.run();
                return null;
            }
        });
    }
    public <U> CompletableFuture<U> thenApplyAsync(Function<? super T, ? extends U> fn) { return thenApplyAsync(fn, defaultExecutor()); }
    public <U> CompletableFuture<U> thenApplyAsync(Function<? super T, ? extends U> fn, final Executor executor) {
        if (fn == null || executor == null) throw new NullPointerException();
        CompletableFuture<U> d = new CompletableFuture<>();
        final Runnable step = applyTo(d, fn);
        onDone(new Runnable() {
            public void run() { executor.execute(step); }
        });
        return d;
    }
    public <U, V> CompletableFuture<V> thenCombine(CompletionStage<? extends U> other, final BiFunction<? super T, ? super U, ? extends V> fn) {
        if (other == null || fn == null) throw new NullPointerException();
        final CompletableFuture<? extends U> o = other.toCompletableFuture();
        final CompletableFuture<V> d = new CompletableFuture<>();
        onDone(new Runnable() {
            public void run() {
                o.onDone(new Runnable() {
                    public void run() {
                        Object r = raw(), s = o.raw();
                        if (r instanceof Failure || s instanceof Failure) {
                            d.settle(new Failure(wrap(((Failure) (r instanceof Failure ? r : s)).ex)));
                            return;
                        }
                        try {
                            d.complete(fn.apply(value(r), o.value(s)));
                        } catch (Throwable t) {
                            d.settle(new Failure(wrap(t)));
                        }
                    }
                });
            }
        });
        return d;
    }
    public CompletableFuture<T> toCompletableFuture() { return this; }
    public <U> CompletableFuture<U> thenCompose(final Function<? super T, ? extends CompletionStage<U>> fn) {
        if (fn == null) throw new NullPointerException();
        final CompletableFuture<U> d = new CompletableFuture<>();
        onDone(new Runnable() {
            public void run() {
                Object r = raw();
                if (r instanceof Failure) {
                    d.settle(new Failure(wrap(((Failure) r).ex)));
                    return;
                }
                try {
                    final CompletableFuture<U> next = fn.apply(value(r)).toCompletableFuture();
                    next.onDone(new Runnable() {
                        public void run() {
                            Object nr = next.raw();
                            d.settle(nr instanceof Failure ? new Failure(wrap(((Failure) nr).ex)) : nr);
                        }
                    });
                } catch (Throwable t) {
                    d.settle(new Failure(wrap(t)));
                }
            }
        });
        return d;
    }
    public CompletableFuture<T> exceptionally(final Function<Throwable, ? extends T> fn) {
        if (fn == null) throw new NullPointerException();
        final CompletableFuture<T> d = new CompletableFuture<>();
        onDone(new Runnable() {
            public void run() {
                Object r = raw();
                if (!(r instanceof Failure)) {
                    d.settle(r);
                    return;
                }
                try {
                    d.complete(fn.apply(((Failure) r).ex));
                } catch (Throwable t) {
                    d.settle(new Failure(wrap(t)));
                }
            }
        });
        return d;
    }
    public <U> CompletableFuture<U> handle(final BiFunction<? super T, Throwable, ? extends U> fn) {
        if (fn == null) throw new NullPointerException();
        final CompletableFuture<U> d = new CompletableFuture<>();
        onDone(new Runnable() {
            public void run() {
                Object r = raw();
                try {
                    d.complete(r instanceof Failure ? fn.apply(null, ((Failure) r).ex) : fn.apply(value(r), null));
                } catch (Throwable t) {
                    d.settle(new Failure(wrap(t)));
                }
            }
        });
        return d;
    }
    public CompletableFuture<T> whenComplete(final BiConsumer<? super T, ? super Throwable> action) {
        if (action == null) throw new NullPointerException();
        final CompletableFuture<T> d = new CompletableFuture<>();
        onDone(new Runnable() {
            public void run() {
                Object r = raw();
                try {
                    if (r instanceof Failure) action.accept(null, ((Failure) r).ex);
                    else action.accept(value(r), null);
                } catch (Throwable t) {
                    if (!(r instanceof Failure)) {
                        d.settle(new Failure(wrap(t)));
                        return;
                    }
                }
                d.settle(r instanceof Failure ? new Failure(wrap(((Failure) r).ex)) : r);
            }
        });
        return d;
    }

    public static CompletableFuture<Void> allOf(CompletableFuture<?>... cfs) {
        final CompletableFuture<Void> d = new CompletableFuture<>();
        if (cfs.length == 0) {
            d.complete(null);
            return d;
        }
        final java.util.concurrent.atomic.AtomicInteger left = new java.util.concurrent.atomic.AtomicInteger(cfs.length);
        final CompletableFuture<?>[] all = cfs.clone();
        for (CompletableFuture<?> f : all) {
            f.onDone(new Runnable() {
                public void run() {
                    if (left.decrementAndGet() == 0) {
                        for (CompletableFuture<?> g : all) {
                            Object r = g.raw();
                            if (r instanceof Failure) {
                                d.settle(new Failure(wrap(((Failure) r).ex)));
                                return;
                            }
                        }
                        d.complete(null);
                    }
                }
            });
        }
        return d;
    }

    public T join() {
        boolean interrupted = false;
        for (;;) {
            try {
                done.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
        Object r = raw();
        if (r instanceof Failure) {
            Throwable x = ((Failure) r).ex;
            if (x instanceof CancellationException) throw (CancellationException) x;
            throw wrap(x);
        }
        return value(r);
    }
    public T get() throws InterruptedException, ExecutionException {
        done.await();
        return reportGet();
    }
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        if (!done.await(timeout, unit)) throw new TimeoutException();
        return reportGet();
    }
    private T reportGet() throws ExecutionException {
        Object r = raw();
        if (r instanceof Failure) {
            Throwable x = ((Failure) r).ex;
            if (x instanceof CancellationException) throw (CancellationException) x;
            if (x instanceof CompletionException && x.getCause() != null) x = x.getCause();
            throw new ExecutionException(x);
        }
        return value(r);
    }
    public T getNow(T valueIfAbsent) {
        Object r = raw();
        if (r == null) return valueIfAbsent;
        if (r instanceof Failure) throw wrap(((Failure) r).ex);
        return value(r);
    }
    public String toString() {
        Object r = raw();
        int waiting;
        synchronized (this) {
            waiting = dependents == null ? 0 : dependents.size();
        }
        return super.toString() + (r == null ? (waiting == 0 ? "[Incomplete]" : "[Incomplete with " + waiting + " dependents]")
                : r instanceof Failure ? "[Completed exceptionally: " + ((Failure) r).ex + "]" : "[Completed normally]");
    }
}
