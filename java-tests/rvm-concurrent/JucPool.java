import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Executors, futures and CompletableFuture. */
public class JucPool {
    public static void main(String[] args) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<Long>> futures = new ArrayList<>();
        TreeSet<String> names = new TreeSet<>();
        for (int i = 1; i <= 200; i++) {
            final long k = i;
            futures.add(pool.submit(() -> {
                synchronized (names) {
                    names.add(Thread.currentThread().getName());
                }
                long s = 0;
                for (long j = 1; j <= k * 100; j++) s += j;
                return s;
            }));
        }
        long total = 0;
        for (Future<Long> f : futures) total += f.get();
        System.out.println("fixed pool total " + total + " done " + futures.get(199).isDone());
        System.out.println("threads " + names);

        List<Callable<String>> tasks = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            final int k = i;
            tasks.add(() -> "task" + k + ":" + (k * k));
        }
        StringBuilder sb = new StringBuilder();
        for (Future<String> f : pool.invokeAll(tasks)) sb.append(f.get()).append(' ');
        System.out.println("invokeAll " + sb.toString().trim());
        System.out.println("invokeAny in {task...}: " + pool.invokeAny(tasks).startsWith("task"));

        Future<Integer> failing = pool.submit(() -> {
            if (names.size() > 0) throw new IllegalStateException("boom");
            return 1;
        });
        try {
            failing.get();
        } catch (ExecutionException e) {
            System.out.println("ExecutionException caused by " + e.getCause().getClass().getName() + ": " + e.getCause().getMessage());
        }
        CountDownLatch block = new CountDownLatch(1);
        Future<?> slow = pool.submit(() -> {
            try {
                block.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            slow.get(10, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            System.out.println("get with timeout: TimeoutException");
        }
        System.out.println("cancel " + slow.cancel(true) + " cancelled " + slow.isCancelled() + " done " + slow.isDone());
        Future<String> withResult = pool.submit(() -> { }, "fixed result");
        System.out.println("submit(Runnable, T): " + withResult.get());
        pool.shutdown();
        System.out.println("shutdown " + pool.isShutdown() + ", terminated in time " + pool.awaitTermination(5, TimeUnit.SECONDS) + ", isTerminated " + pool.isTerminated());
        try {
            pool.submit(() -> 1);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            System.out.println("submit after shutdown: RejectedExecutionException");
        }

        // A single-thread executor runs tasks in order.
        ExecutorService single = Executors.newSingleThreadExecutor();
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            final int k = i;
            single.execute(() -> order.add(k));
        }
        single.shutdown();
        single.awaitTermination(5, TimeUnit.SECONDS);
        System.out.println("single thread order " + order);

        // A cached pool makes a thread for each task that waits for all the others.
        ExecutorService cached = Executors.newCachedThreadPool();
        final int parties = 6;
        CountDownLatch all = new CountDownLatch(parties);
        List<Future<String>> waiting = new ArrayList<>();
        for (int i = 0; i < parties; i++) {
            final int k = i;
            waiting.add(cached.submit(() -> {
                all.countDown();
                all.await();
                return "p" + k;
            }));
        }
        StringBuilder got = new StringBuilder();
        for (Future<String> f : waiting) got.append(f.get()).append(' ');
        System.out.println("cached pool " + got.toString().trim());
        cached.shutdown();
        System.out.println("cached terminated " + cached.awaitTermination(5, TimeUnit.SECONDS));

        // CompletableFuture basics.
        CompletableFuture<Integer> a = CompletableFuture.supplyAsync(() -> 6);
        CompletableFuture<Integer> b = a.thenApply(x -> x * 7);
        CompletableFuture<String> c = b.thenCombine(CompletableFuture.supplyAsync(() -> "!"), (x, s) -> x + s);
        System.out.println("completable " + b.join() + " " + c.get() + " " + a.thenCompose(x -> CompletableFuture.supplyAsync(() -> x + 1)).join());
        CompletableFuture<Integer> bad = CompletableFuture.supplyAsync(() -> {
            throw new IllegalArgumentException("nope");
        });
        try {
            bad.join();
        } catch (CompletionException e) {
            System.out.println("join: CompletionException caused by " + e.getCause());
        }
        try {
            bad.thenApply(x -> x + 1).get();
        } catch (ExecutionException e) {
            System.out.println("get: ExecutionException caused by " + e.getCause());
        }
        System.out.println("exceptionally " + bad.exceptionally(t -> -1).join() + ", handle " + bad.handle((v, t) -> t != null ? "failed" : "ok").join());
        CompletableFuture<String> manual = new CompletableFuture<>();
        CompletableFuture<Void> printed = manual.thenAccept(s -> System.out.println("accepted " + s));
        System.out.println("manual done before complete: " + manual.isDone() + ", getNow " + manual.getNow("absent"));
        manual.complete("hello");
        printed.join();
        CompletableFuture<Void> both = CompletableFuture.allOf(CompletableFuture.runAsync(() -> { }), CompletableFuture.completedFuture(1));
        both.join();
        System.out.println("allOf done " + both.isDone());
        System.out.println("TimeUnit " + TimeUnit.SECONDS.toMillis(3) + " " + TimeUnit.MILLISECONDS.toSeconds(4500) + " " + TimeUnit.HOURS.convert(180, TimeUnit.MINUTES) + " " + TimeUnit.DAYS.toNanos(1) + " " + TimeUnit.NANOSECONDS.toMicros(-1999) + " " + TimeUnit.DAYS.toNanos(Long.MAX_VALUE / 2));
    }
}
