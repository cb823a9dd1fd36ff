import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.*;

/** SynchronousQueue: hand-offs between producers and consumers, timeouts, fairness, in a pool. */
public class LibSyncQueue {
    static void waitUntilWaiting(Thread t) throws InterruptedException {
        while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING) Thread.sleep(1);
    }

    static String consumersMatch(boolean fair) throws Exception {
        SynchronousQueue<String> q = new SynchronousQueue<>(fair);
        String[] got = new String[2];
        Thread a = new Thread(() -> { try { got[0] = q.take(); } catch (InterruptedException e) { got[0] = "interrupted"; } });
        a.start();
        waitUntilWaiting(a);
        Thread b = new Thread(() -> { try { got[1] = q.take(); } catch (InterruptedException e) { got[1] = "interrupted"; } });
        b.start();
        waitUntilWaiting(b);
        q.put("x");
        q.put("y");
        a.join();
        b.join();
        return "first waiter got " + got[0] + ", second got " + got[1];
    }

    public static void main(String[] args) throws Exception {
        SynchronousQueue<Integer> q = new SynchronousQueue<>();
        System.out.println("offer without taker " + q.offer(1) + ", poll " + q.poll() + ", size " + q.size() + ", empty " + q.isEmpty()
                + ", capacity " + q.remainingCapacity() + ", peek " + q.peek() + ", " + q + ", contains " + q.contains(1));
        System.out.println("timed poll " + q.poll(30, TimeUnit.MILLISECONDS) + ", timed offer " + q.offer(2, 30, TimeUnit.MILLISECONDS));

        Thread producer = new Thread(() -> {
            try {
                for (int i = 1; i <= 5; i++) q.put(i * 10);
            } catch (InterruptedException e) {
                System.out.println("producer interrupted");
            }
        });
        producer.start();
        List<Integer> taken = new ArrayList<>();
        for (int i = 0; i < 5; i++) taken.add(q.take());
        producer.join();
        System.out.println("taken in order " + taken);

        // put blocks until a take
        boolean[] handed = new boolean[1];
        Thread putter = new Thread(() -> {
            try {
                q.put(7);
                handed[0] = true;
            } catch (InterruptedException e) {
            }
        });
        putter.start();
        waitUntilWaiting(putter);
        System.out.println("putter waiting, handed " + handed[0] + ", state " + putter.getState());
        System.out.println("took " + q.take());
        putter.join();
        System.out.println("handed " + handed[0]);

        // several consumers, each gets one of the values
        List<Integer> seen = Collections.synchronizedList(new ArrayList<>());
        List<Thread> consumers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Thread t = new Thread(() -> {
                try {
                    seen.add(q.take());
                } catch (InterruptedException e) {
                }
            });
            t.start();
            consumers.add(t);
        }
        for (int i = 0; i < 3; i++) q.put(100 + i);
        for (Thread t : consumers) t.join();
        List<Integer> sorted = new ArrayList<>(seen);
        Collections.sort(sorted);
        System.out.println("consumers got " + sorted);

        System.out.println("unfair: " + consumersMatch(false));
        System.out.println("fair: " + consumersMatch(true));

        // an interrupted take
        Thread waiter = new Thread(() -> {
            try {
                q.take();
                System.out.println("took?");
            } catch (InterruptedException e) {
                System.out.println("take interrupted");
            }
        });
        waiter.start();
        waitUntilWaiting(waiter);
        waiter.interrupt();
        waiter.join();
        System.out.println("after the interrupt, offer " + q.offer(5));

        // drainTo takes what producers offer right now
        Thread offerer = new Thread(() -> {
            try {
                q.put(42);
            } catch (InterruptedException e) {
            }
        });
        offerer.start();
        waitUntilWaiting(offerer);
        List<Integer> drained = new ArrayList<>();
        System.out.println("drained " + q.drainTo(drained) + " " + drained);
        offerer.join();

        // a pool on a SynchronousQueue starts a thread per task up to its maximum, then rejects
        CountDownLatch release = new CountDownLatch(1);
        ThreadPoolExecutor pool = new ThreadPoolExecutor(0, 3, 1, TimeUnit.SECONDS, new SynchronousQueue<Runnable>());
        for (int i = 0; i < 3; i++) {
            pool.execute(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                }
            });
        }
        System.out.println("pool size " + pool.getPoolSize());
        try {
            pool.execute(() -> {});
            System.out.println("fourth accepted?");
        } catch (RejectedExecutionException e) {
            System.out.println("fourth task rejected");
        }
        release.countDown();
        pool.shutdown();
        System.out.println("pool terminated " + pool.awaitTermination(10, TimeUnit.SECONDS));
    }
}
