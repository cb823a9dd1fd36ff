import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicInteger;

/** ScheduledThreadPoolExecutor: delays in order, fixed rate and fixed delay, cancellation, shutdown. */
public class LibScheduled {
    public static void main(String[] args) throws Exception {
        ScheduledExecutorService ses = Executors.newScheduledThreadPool(2);
        System.out.println("a ScheduledThreadPoolExecutor " + (ses instanceof ScheduledThreadPoolExecutor));
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch three = new CountDownLatch(3);
        long t0 = System.nanoTime();
        // one worker, so that tasks due at once still run in time order; the delays count from one
        // instant, so that a main thread delayed between the calls (a loaded machine) keeps the order
        ScheduledExecutorService one = Executors.newScheduledThreadPool(1);
        long base = t0 + 100_000_000L;
        for (int ms : new int[] {150, 30, 90}) {
            one.schedule(() -> {
                order.add(ms + " ms");
                three.countDown();
            }, base + ms * 1_000_000L - System.nanoTime(), TimeUnit.NANOSECONDS);
        }
        three.await();
        one.shutdown();
        long took = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("ran in order " + order + " after at least 250 ms: " + (took >= 250));

        ScheduledFuture<String> later = ses.schedule(() -> "called later", 20, TimeUnit.MILLISECONDS);
        // (how much of the delay is left depends on the machine's load; it is never more than the delay)
        System.out.println("delay at most 20 ms " + (later.getDelay(TimeUnit.MILLISECONDS) <= 20) + ", get " + later.get() + ", done " + later.isDone()
                + ", delay now " + (later.getDelay(TimeUnit.MILLISECONDS) <= 0));

        ScheduledFuture<?> far = ses.schedule(() -> System.out.println("never"), 1, TimeUnit.HOURS);
        System.out.println("far delay in minutes " + far.getDelay(TimeUnit.MINUTES) + " cancel " + far.cancel(false) + " cancelled " + far.isCancelled());
        try {
            far.get();
        } catch (CancellationException e) {
            System.out.println("get of a cancelled task: CancellationException");
        }

        // fixed rate and fixed delay: each cancels itself on its fifth run
        AtomicInteger rate = new AtomicInteger(), delay = new AtomicInteger();
        ScheduledFuture<?>[] self = new ScheduledFuture<?>[2];
        CountDownLatch both = new CountDownLatch(2);
        Object gate = new Object();
        synchronized (gate) {
            self[0] = ses.scheduleAtFixedRate(() -> {
                synchronized (gate) {
                    if (rate.incrementAndGet() == 5) {
                        self[0].cancel(false);
                        both.countDown();
                    }
                }
            }, 5, 10, TimeUnit.MILLISECONDS);
            self[1] = ses.scheduleWithFixedDelay(() -> {
                synchronized (gate) {
                    if (delay.incrementAndGet() == 5) {
                        self[1].cancel(false);
                        both.countDown();
                    }
                }
            }, 5, 10, TimeUnit.MILLISECONDS);
        }
        both.await();
        Thread.sleep(60);
        System.out.println("fixed rate ran " + rate.get() + ", fixed delay ran " + delay.get() + ", cancelled " + self[0].isCancelled() + " " + self[1].isCancelled()
                + ", periodic " + ((RunnableScheduledFuture<?>) self[0]).isPeriodic());

        // a periodic task that throws is not run again; get reports the exception
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> failing = ses.scheduleAtFixedRate(() -> {
            if (runs.incrementAndGet() == 3) throw new IllegalStateException("third run fails");
        }, 0, 5, TimeUnit.MILLISECONDS);
        try {
            failing.get();
        } catch (ExecutionException e) {
            System.out.println("periodic task failed: " + e.getCause().getMessage());
        }
        Thread.sleep(40);
        System.out.println("runs " + runs.get() + " done " + failing.isDone() + " cancelled " + failing.isCancelled());

        // execute and submit run at once
        CountDownLatch executed = new CountDownLatch(1);
        ses.execute(executed::countDown);
        System.out.println("executed " + executed.await(10, TimeUnit.SECONDS) + " submitted " + ses.submit(() -> 6 * 7).get());
        try {
            ses.scheduleAtFixedRate(() -> {}, 0, 0, TimeUnit.MILLISECONDS);
        } catch (IllegalArgumentException e) {
            System.out.println("period 0: IllegalArgumentException");
        }

        // shutdown: delayed tasks still run, periodic ones are cancelled
        ScheduledThreadPoolExecutor stpe = new ScheduledThreadPoolExecutor(1);
        boolean[] ran = new boolean[1];
        stpe.schedule(() -> { ran[0] = true; }, 300, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> periodic = stpe.scheduleWithFixedDelay(() -> {}, 1, 1, TimeUnit.HOURS);
        System.out.println("queued " + stpe.getQueue().size());
        stpe.shutdown();
        System.out.println("periodic cancelled at shutdown " + periodic.isCancelled() + ", queued " + stpe.getQueue().size());
        System.out.println("terminated " + stpe.awaitTermination(10, TimeUnit.SECONDS) + " delayed task ran " + ran[0]);
        try {
            stpe.schedule(() -> {}, 1, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            System.out.println("rejected after shutdown");
        }

        // shutdownNow returns the tasks not yet run
        ScheduledThreadPoolExecutor now = new ScheduledThreadPoolExecutor(1);
        for (int i = 0; i < 3; i++) now.schedule(() -> {}, 10, TimeUnit.SECONDS);
        System.out.println("shutdownNow returned " + now.shutdownNow().size() + " tasks; terminated " + now.awaitTermination(10, TimeUnit.SECONDS));

        ScheduledExecutorService single = Executors.newSingleThreadScheduledExecutor();
        String[] name = new String[1];
        single.schedule(() -> { name[0] = Thread.currentThread().getName(); }, 1, TimeUnit.MILLISECONDS).get();
        System.out.println("worker named like pool-N-thread-1: " + name[0].matches("pool-\\d+-thread-1"));
        single.shutdown();
        ses.shutdown();
        System.out.println("all terminated " + single.awaitTermination(10, TimeUnit.SECONDS) + " " + ses.awaitTermination(10, TimeUnit.SECONDS));
    }
}
