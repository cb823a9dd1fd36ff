package java.util.concurrent;

import java.util.concurrent.atomic.AtomicInteger;

public class Executors {
    private Executors() {}

    public static ExecutorService newFixedThreadPool(int nThreads) {
        return new ThreadPoolExecutor(nThreads, nThreads, 0L, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<Runnable>());
    }
    public static ExecutorService newFixedThreadPool(int nThreads, ThreadFactory threadFactory) {
        return new ThreadPoolExecutor(nThreads, nThreads, 0L, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<Runnable>(), threadFactory);
    }
    public static ExecutorService newSingleThreadExecutor() { return newFixedThreadPool(1); }
    public static ExecutorService newSingleThreadExecutor(ThreadFactory threadFactory) { return newFixedThreadPool(1, threadFactory); }
    /** Threads made when no idle one can take a task, ending after 60 s without one. */
    public static ExecutorService newCachedThreadPool() {
        return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60L, TimeUnit.SECONDS, new LinkedBlockingQueue<Runnable>());
    }
    public static ExecutorService newCachedThreadPool(ThreadFactory threadFactory) {
        return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60L, TimeUnit.SECONDS, new LinkedBlockingQueue<Runnable>(), threadFactory);
    }

    public static ScheduledExecutorService newScheduledThreadPool(int corePoolSize) { return new ScheduledThreadPoolExecutor(corePoolSize); }
    public static ScheduledExecutorService newScheduledThreadPool(int corePoolSize, ThreadFactory threadFactory) {
        return new ScheduledThreadPoolExecutor(corePoolSize, threadFactory);
    }
    public static ScheduledExecutorService newSingleThreadScheduledExecutor() { return new ScheduledThreadPoolExecutor(1); }
    public static ScheduledExecutorService newSingleThreadScheduledExecutor(ThreadFactory threadFactory) {
        return new ScheduledThreadPoolExecutor(1, threadFactory);
    }
    /** A ForkJoinPool of {@code parallelism} workers (rvm's runs tasks first in, first out). */
    public static ExecutorService newWorkStealingPool(int parallelism) { return new ForkJoinPool(parallelism); }
    public static ExecutorService newWorkStealingPool() { return new ForkJoinPool(); }

    /** A new thread per task (Java 21). */
    public static ExecutorService newThreadPerTaskExecutor(ThreadFactory threadFactory) { return new ThreadPerTaskExecutor(threadFactory); }
    /** A new virtual thread per task (Java 21; rvm's virtual threads are its ordinary green threads). */
    public static ExecutorService newVirtualThreadPerTaskExecutor() { return new ThreadPerTaskExecutor(Thread.ofVirtual().factory()); }

    public static ThreadFactory defaultThreadFactory() { return new DefaultThreadFactory(); }

    public static <T> Callable<T> callable(Runnable task, T result) {
        if (task == null) throw new NullPointerException();
        return new RunnableAdapter<T>(task, result);
    }
    public static Callable<Object> callable(Runnable task) { return callable(task, null); }

    private static final class RunnableAdapter<T> implements Callable<T> {
        private final Runnable task;
        private final T result;
        RunnableAdapter(Runnable task, T result) {
            this.task = task;
            this.result = result;
        }
        public T call() {
            task.run();
            return result;
        }
        public String toString() { return super.toString() + "[Wrapped task = " + task + "]"; }
    }

    /** Names threads pool-N-thread-M, non-daemon, normal priority, as the JDK's. */
    private static final class DefaultThreadFactory implements ThreadFactory {
        private static final AtomicInteger poolNumber = new AtomicInteger(1);
        private final AtomicInteger threadNumber = new AtomicInteger(1);
        private final String namePrefix;
        DefaultThreadFactory() { namePrefix = "pool-" + poolNumber.getAndIncrement() + "-thread-"; }
        public Thread newThread(Runnable r) {
            Thread t = new Thread(r, namePrefix + threadNumber.getAndIncrement());
            if (t.isDaemon()) t.setDaemon(false);
            if (t.getPriority() != Thread.NORM_PRIORITY) t.setPriority(Thread.NORM_PRIORITY);
            return t;
        }
    }
}
