import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicInteger;

/** CyclicBarrier and Phaser: rounds of threads, barrier actions, breaking, timeouts, termination. */
public class LibBarriers {
    static void waitUntilWaiting(Thread t) throws InterruptedException {
        while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING) Thread.sleep(1);
    }

    static void cyclicBarrier() throws Exception {
        AtomicInteger sum = new AtomicInteger();
        List<String> actions = Collections.synchronizedList(new ArrayList<>());
        int[] round = new int[1];
        CyclicBarrier b = new CyclicBarrier(4, () -> {
            actions.add("round " + round[0] + " sum " + sum.getAndSet(0));
            round[0]++;
        });
        System.out.println("parties " + b.getParties() + " waiting " + b.getNumberWaiting() + " broken " + b.isBroken());
        List<List<Integer>> indices = new ArrayList<>();
        for (int r = 0; r < 3; r++) indices.add(Collections.synchronizedList(new ArrayList<>()));
        Thread[] ts = new Thread[4];
        for (int t = 0; t < ts.length; t++) {
            final int id = t;
            ts[t] = new Thread(() -> {
                try {
                    for (int r = 0; r < 3; r++) {
                        sum.addAndGet((id + 1) * (r + 1));
                        indices.get(r).add(b.await());
                    }
                } catch (Exception e) {
                    System.out.println("worker " + id + ": " + e);
                }
            });
            ts[t].start();
        }
        for (Thread t : ts) t.join();
        System.out.println(actions);
        for (List<Integer> l : indices) {
            List<Integer> s = new ArrayList<>(l);
            Collections.sort(s);
            System.out.println("arrival indices " + s);
        }

        // reset breaks the waiters' generation
        CyclicBarrier two = new CyclicBarrier(2);
        Thread waiter = new Thread(() -> {
            try {
                two.await();
                System.out.println("passed?");
            } catch (BrokenBarrierException e) {
                System.out.println("waiter: BrokenBarrierException after reset");
            } catch (InterruptedException e) {
                System.out.println("waiter interrupted?");
            }
        });
        waiter.start();
        while (two.getNumberWaiting() != 1) Thread.sleep(1);
        System.out.println("one waiting");
        two.reset();
        waiter.join();
        System.out.println("after reset broken " + two.isBroken() + " waiting " + two.getNumberWaiting());

        // a timeout breaks the barrier for the others
        try {
            two.await(30, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            System.out.println("timed out; broken " + two.isBroken());
        }
        try {
            two.await();
        } catch (BrokenBarrierException e) {
            System.out.println("await on a broken barrier: BrokenBarrierException");
        }
        two.reset();
        System.out.println("reset: broken " + two.isBroken());

        // an interrupted waiter breaks it too
        CyclicBarrier three = new CyclicBarrier(3);
        List<String> outcomes = Collections.synchronizedList(new ArrayList<>());
        Thread a = new Thread(() -> {
            try {
                three.await();
            } catch (InterruptedException e) {
                outcomes.add("a interrupted");
            } catch (BrokenBarrierException e) {
                outcomes.add("a broken");
            }
        });
        a.start();
        while (three.getNumberWaiting() != 1) Thread.sleep(1);
        Thread c = new Thread(() -> {
            try {
                three.await();
            } catch (InterruptedException e) {
                outcomes.add("c interrupted");
            } catch (BrokenBarrierException e) {
                outcomes.add("c broken");
            }
        });
        c.start();
        while (three.getNumberWaiting() != 2) Thread.sleep(1);
        a.interrupt();
        a.join();
        c.join();
        Collections.sort(outcomes);
        System.out.println(outcomes + " broken " + three.isBroken());

        // a failing barrier action: the tripping thread gets its exception, the others a broken barrier
        CyclicBarrier failing = new CyclicBarrier(2, () -> { throw new IllegalStateException("action failed"); });
        String[] otherGot = new String[1];
        Thread other = new Thread(() -> {
            try {
                failing.await();
            } catch (Exception e) {
                otherGot[0] = e.getClass().getSimpleName();
            }
        });
        other.start();
        while (failing.getNumberWaiting() != 1) Thread.sleep(1);
        try {
            failing.await();
        } catch (IllegalStateException e) {
            System.out.println("tripping thread: " + e.getMessage());
        }
        other.join();
        System.out.println("other: " + otherGot[0]);
    }

    static void phaser() throws Exception {
        Phaser ph = new Phaser(1);
        System.out.println("phase " + ph.getPhase() + " registered " + ph.getRegisteredParties() + " unarrived " + ph.getUnarrivedParties());
        List<String> log = Collections.synchronizedList(new ArrayList<>());
        Thread[] ts = new Thread[3];
        for (int t = 0; t < ts.length; t++) {
            final int id = t;
            ph.register();
            ts[t] = new Thread(() -> {
                for (int i = 0; i < 3; i++) {
                    int p = ph.getPhase();
                    log.add("phase " + p + " worker " + id);
                    int next = ph.arriveAndAwaitAdvance();
                    if (next != p + 1) log.add("worker " + id + " got phase " + next);
                }
                ph.arriveAndDeregister();
            });
        }
        System.out.println("registered " + ph.getRegisteredParties());
        for (Thread t : ts) t.start();
        int p0 = ph.arriveAndDeregister();
        for (Thread t : ts) t.join();
        System.out.println("main arrived at phase " + p0);
        List<String> sorted = new ArrayList<>(log);
        Collections.sort(sorted);
        for (String s : sorted) System.out.println(s);
        System.out.println("terminated " + ph.isTerminated() + " phase negative " + (ph.getPhase() < 0) + " registered " + ph.getRegisteredParties());

        // onAdvance ends it after phase 1; arrive returns the phase arrived at
        Phaser two = new Phaser(2) {
            protected boolean onAdvance(int phase, int parties) {
                System.out.println("onAdvance phase " + phase + " parties " + parties);
                return phase >= 1;
            }
        };
        System.out.println("arrive " + two.arrive() + " arrived " + two.getArrivedParties() + " unarrived " + two.getUnarrivedParties());
        System.out.println("arrive " + two.arrive() + " now phase " + two.getPhase());
        System.out.println("arrive " + two.arrive() + " arrive " + two.arrive() + " terminated " + two.isTerminated() + " phase " + two.getPhase()
                + " as non-negative " + (two.getPhase() & Integer.MAX_VALUE));
        System.out.println("register when terminated " + (two.register() < 0) + " awaitAdvance " + (two.awaitAdvance(0) < 0));

        // a phase that does not advance in time, then a forced termination
        Phaser waits = new Phaser(2);
        try {
            waits.awaitAdvanceInterruptibly(waits.arrive(), 30, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            System.out.println("awaitAdvance timed out at phase " + waits.getPhase() + " arrived " + waits.getArrivedParties());
        }
        System.out.println("awaitAdvance of another phase returns at once: " + waits.awaitAdvance(5));
        Thread stuck = new Thread(() -> System.out.println("released with negative phase " + (waits.awaitAdvance(0) < 0)));
        stuck.start();
        waitUntilWaiting(stuck);
        waits.forceTermination();
        stuck.join();

        Phaser bulk = new Phaser();
        System.out.println("bulkRegister " + bulk.bulkRegister(3) + " parties " + bulk.getRegisteredParties());
        bulk.arriveAndDeregister();
        bulk.arriveAndDeregister();
        System.out.println("left " + bulk.getRegisteredParties() + " phase " + bulk.getPhase());
        String s = bulk.toString();
        System.out.println(s.substring(s.indexOf('[')));
        bulk.arriveAndDeregister();
        System.out.println("all deregistered: terminated " + bulk.isTerminated());
        try {
            new Phaser().arrive();
        } catch (IllegalStateException e) {
            System.out.println("arrive without parties: IllegalStateException");
        }
    }

    public static void main(String[] args) throws Exception {
        cyclicBarrier();
        phaser();
    }
}
