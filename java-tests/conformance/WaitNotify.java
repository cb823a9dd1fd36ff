import java.util.*;

public class WaitNotify {
    static final Object lock = new Object();
    static int turn = 0;

    static class Buffer {
        private final int[] items = new int[4];
        private int head, tail, count;
        synchronized void put(int v) throws InterruptedException {
            while (count == items.length) wait();
            items[tail] = v; tail = (tail + 1) % items.length; count++;
            notifyAll();
        }
        synchronized int take() throws InterruptedException {
            while (count == 0) wait();
            int v = items[head]; head = (head + 1) % items.length; count--;
            notifyAll();
            return v;
        }
    }

    public static void main(String[] args) throws Exception {
        final List<String> log = Collections.synchronizedList(new ArrayList<String>());
        Thread[] players = new Thread[3];
        for (int p = 0; p < 3; p++) {
            final int me = p;
            players[p] = new Thread(new Runnable() {
                public void run() {
                    for (int round = 0; round < 5; round++) {
                        synchronized (lock) {
                            while (turn % 3 != me) {
                                try { lock.wait(); } catch (InterruptedException e) { return; }
                            }
                            System.out.println("player " + me + " round " + round);
                            turn++;
                            lock.notifyAll();
                        }
                    }
                }
            });
        }
        for (Thread t : players) t.start();
        for (Thread t : players) t.join();

        final Buffer buf = new Buffer();
        final long[] consumed = new long[2];
        Thread[] producers = new Thread[3];
        Thread[] consumers = new Thread[2];
        for (int i = 0; i < 3; i++) {
            final int base = i * 1000;
            producers[i] = new Thread(new Runnable() {
                public void run() {
                    try { for (int k = 0; k < 500; k++) buf.put(base + k); } catch (InterruptedException e) { }
                }
            });
        }
        for (int i = 0; i < 2; i++) {
            final int me = i;
            consumers[i] = new Thread(new Runnable() {
                public void run() {
                    try { for (int k = 0; k < 750; k++) consumed[me] += buf.take(); } catch (InterruptedException e) { }
                }
            });
        }
        for (Thread t : producers) t.start();
        for (Thread t : consumers) t.start();
        for (Thread t : producers) t.join();
        for (Thread t : consumers) t.join();
        System.out.println("consumed total " + (consumed[0] + consumed[1]));

        synchronized (lock) {
            long t0 = System.currentTimeMillis();
            lock.wait(30);
            System.out.println("timed wait returned " + (System.currentTimeMillis() - t0 >= 29));
        }
        try { lock.notify(); } catch (IllegalMonitorStateException e) { System.out.println("IMSE notify"); }
        try { lock.wait(); } catch (IllegalMonitorStateException e) { System.out.println("IMSE wait"); }

        final Object a = new Object();
        final boolean[] flag = new boolean[1];
        Thread waiter = new Thread(new Runnable() {
            public void run() {
                synchronized (a) {
                    try { while (!flag[0]) a.wait(); System.out.println("waiter saw flag"); }
                    catch (InterruptedException e) { System.out.println("waiter interrupted"); }
                }
            }
        });
        waiter.start();
        Thread.sleep(10);
        waiter.interrupt();
        waiter.join();
        System.out.println("holds " + Thread.holdsLock(a));
        synchronized (a) { synchronized (a) { System.out.println("reentrant holds " + Thread.holdsLock(a)); } }
    }
}
