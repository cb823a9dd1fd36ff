import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicInteger;

/** ForkJoinPool, RecursiveTask, RecursiveAction and the ForkJoinTask API. */
public class LibForkJoin {
    static final class Fib extends RecursiveTask<Long> {
        final int n;
        Fib(int n) { this.n = n; }
        protected Long compute() {
            if (n < 12) return slow(n);
            Fib f1 = new Fib(n - 1);
            f1.fork();
            Fib f2 = new Fib(n - 2);
            return f2.compute() + f1.join();
        }
        static long slow(int n) { return n < 2 ? n : slow(n - 1) + slow(n - 2); }
    }

    static final class Sum extends RecursiveTask<Long> {
        final long[] a;
        final int lo, hi;
        Sum(long[] a, int lo, int hi) { this.a = a; this.lo = lo; this.hi = hi; }
        protected Long compute() {
            if (hi - lo <= 1000) {
                long s = 0;
                for (int i = lo; i < hi; i++) s += a[i];
                return s;
            }
            int mid = (lo + hi) >>> 1;
            Sum left = new Sum(a, lo, mid), right = new Sum(a, mid, hi);
            invokeAll(left, right);
            return left.join() + right.join();
        }
    }

    static final class Square extends RecursiveAction {
        final long[] a;
        final int lo, hi;
        Square(long[] a, int lo, int hi) { this.a = a; this.lo = lo; this.hi = hi; }
        protected void compute() {
            if (hi - lo <= 500) {
                for (int i = lo; i < hi; i++) a[i] = a[i] * a[i] % 1_000_003;
                return;
            }
            List<Square> parts = new ArrayList<>();
            int step = (hi - lo + 3) / 4;
            for (int s = lo; s < hi; s += step) parts.add(new Square(a, s, Math.min(hi, s + step)));
            invokeAll(parts);
        }
    }

    static final class Boom extends RecursiveTask<Integer> {
        final int depth;
        Boom(int depth) { this.depth = depth; }
        protected Integer compute() {
            if (depth == 0) throw new IllegalStateException("boom at the bottom");
            Boom b = new Boom(depth - 1);
            b.fork();
            return b.join() + 1;
        }
    }

    public static void main(String[] args) throws Exception {
        ForkJoinPool pool = new ForkJoinPool(4);
        System.out.println("parallelism " + pool.getParallelism());
        System.out.println("fib(27) = " + pool.invoke(new Fib(27)));

        long[] a = new long[100_000];
        for (int i = 0; i < a.length; i++) a[i] = i * 7L % 1013;
        System.out.println("sum = " + pool.invoke(new Sum(a, 0, a.length)));
        System.out.println("common sum = " + ForkJoinPool.commonPool().invoke(new Sum(a, 0, a.length)));
        pool.invoke(new Square(a, 0, a.length));
        long check = 0;
        for (long v : a) check = check * 31 + v;
        System.out.println("squared checksum = " + check);

        Fib f = new Fib(20);
        ForkJoinTask<Long> submitted = pool.submit(f);
        System.out.println("submitted get = " + submitted.get() + " same task " + (submitted == f) + " done " + f.isDone()
                + " normally " + f.isCompletedNormally() + " raw " + f.getRawResult());

        System.out.println("callable = " + pool.submit(() -> "called").get());
        System.out.println("runnable = " + pool.submit(() -> {}).get());
        System.out.println("adapted = " + pool.invoke(ForkJoinTask.adapt(() -> 6 * 7)));
        CountDownLatch ran = new CountDownLatch(3);
        for (int i = 0; i < 3; i++) pool.execute(ran::countDown);
        System.out.println("executed all " + ran.await(10, TimeUnit.SECONDS));

        // exceptions: join rethrows the task's (class and message kept), get wraps it
        Boom boom = new Boom(5);
        try {
            pool.invoke(boom);
            System.out.println("no exception?");
        } catch (IllegalStateException e) {
            System.out.println("join threw " + e.getClass().getName() + " mentioning the bottom " + e.getMessage().contains("boom at the bottom"));
        }
        System.out.println("abnormally " + boom.isCompletedAbnormally() + " exception " + boom.getException().getClass().getName());
        try {
            pool.submit(new Boom(3)).get();
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            while (c.getCause() != null) c = c.getCause();
            System.out.println("get threw ExecutionException, root " + c.getClass().getName() + ": " + c.getMessage());
        }

        // a task cancelled before it runs
        Fib never = new Fib(5);
        System.out.println("cancel " + never.cancel(true) + " cancelled " + never.isCancelled() + " done " + never.isDone());
        try {
            never.join();
        } catch (CancellationException e) {
            System.out.println("join of a cancelled task: CancellationException");
        }

        // a task completed from outside
        Fib given = new Fib(30);
        given.complete(99L);
        System.out.println("completed " + given.join());

        // inside the pool, ForkJoinTask.getPool is the pool; outside it is null
        RecursiveTask<Boolean> where = new RecursiveTask<Boolean>() {
            protected Boolean compute() {
                RecursiveTask<Boolean> inner = new RecursiveTask<Boolean>() {
                    protected Boolean compute() { return ForkJoinTask.inForkJoinPool(); }
                };
                inner.fork();
                return inner.join();
            }
        };
        System.out.println("forked subtask in a pool " + pool.submit(where).get() + ", main in a pool " + ForkJoinTask.inForkJoinPool());

        // many small tasks from outside, counted exactly
        AtomicInteger count = new AtomicInteger();
        List<ForkJoinTask<?>> many = new ArrayList<>();
        for (int i = 0; i < 500; i++) many.add(pool.submit(() -> { count.incrementAndGet(); }));
        for (ForkJoinTask<?> t : many) t.join();
        System.out.println("500 tasks ran " + count.get());

        // invokeAll of callables (AbstractExecutorService)
        List<Callable<Integer>> calls = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            final int k = i;
            calls.add(() -> k * k);
        }
        int total = 0;
        for (Future<Integer> r : pool.invokeAll(calls)) total += r.get();
        System.out.println("invokeAll squares " + total);

        pool.shutdown();
        System.out.println("terminated " + pool.awaitTermination(10, TimeUnit.SECONDS) + " " + pool.isTerminated() + " shutdown " + pool.isShutdown());
        try {
            pool.submit(() -> 1);
            System.out.println("accepted after shutdown?");
        } catch (RejectedExecutionException e) {
            System.out.println("rejected after shutdown");
        }
        ForkJoinPool.commonPool().shutdown();
        System.out.println("common pool ignores shutdown: " + !ForkJoinPool.commonPool().isShutdown()
                + " fib(15) " + ForkJoinPool.commonPool().invoke(new Fib(15)));
        ExecutorService stealing = Executors.newWorkStealingPool(2);
        System.out.println("work-stealing pool " + (stealing instanceof ForkJoinPool) + " " + stealing.submit(() -> "ok").get());
        stealing.shutdown();
        System.out.println(Arrays.toString(new long[] {Fib.slow(10)}));
    }
}
