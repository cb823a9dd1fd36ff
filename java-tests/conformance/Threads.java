public class Threads {
    static int counter = 0;
    static long staticCounter = 0;
    static synchronized void incStatic() { staticCounter++; }
    private int inst;
    synchronized void inc() { inst++; }
    public static void main(String[] args) throws Exception {
        System.out.println(Thread.currentThread().getName() + " " + Thread.currentThread().isDaemon());
        final long[] sums = new long[6];
        Thread[] ts = new Thread[6];
        for (int t = 0; t < ts.length; t++) {
            final int id = t;
            ts[t] = new Thread() {
                public void run() {
                    long s = 0;
                    for (int i = 0; i < 200000; i++) s += (i ^ id) % 1000;
                    sums[id] = s;
                }
            };
        }
        for (Thread t : ts) t.start();
        for (Thread t : ts) t.join();
        for (int t = 0; t < ts.length; t++) System.out.println(ts[t].getName() + " sum=" + sums[t] + " alive=" + ts[t].isAlive());

        final Threads shared = new Threads();
        final Object lock = new Object();
        Thread[] ws = new Thread[4];
        for (int t = 0; t < ws.length; t++) {
            ws[t] = new Thread(new Runnable() {
                public void run() {
                    for (int i = 0; i < 20000; i++) {
                        shared.inc();
                        incStatic();
                        synchronized (lock) { counter++; }
                    }
                }
            }, "worker-" + t);
            ws[t].start();
        }
        for (Thread t : ws) t.join();
        System.out.println("inst=" + shared.inst + " static=" + staticCounter + " block=" + counter);

        Thread sleeper = new Thread(new Runnable() {
            public void run() {
                try { Thread.sleep(100000); System.out.println("woke normally"); }
                catch (InterruptedException e) { System.out.println("sleeper interrupted: " + e.getMessage()); }
            }
        });
        sleeper.start();
        Thread.sleep(20);
        sleeper.interrupt();
        sleeper.join();

        Thread daemon = new Thread(new Runnable() {
            public void run() { while (true) { try { Thread.sleep(5); } catch (InterruptedException e) { } } }
        }, "daemon");
        daemon.setDaemon(true);
        daemon.start();
        System.out.println(daemon.getName() + " daemon=" + daemon.isDaemon() + " " + daemon.isAlive());

        long t0 = System.currentTimeMillis();
        Thread.sleep(30);
        long slept = System.currentTimeMillis() - t0;
        System.out.println("slept enough: " + (slept >= 29));
        Thread.yield();
        Thread.currentThread().interrupt();
        System.out.println(Thread.interrupted() + " " + Thread.interrupted());
        try { Thread.currentThread().interrupt(); Thread.sleep(10); } catch (InterruptedException e) { System.out.println("pre-interrupted sleep"); }
        Thread t2 = new Thread("named");
        try { t2.start(); t2.start(); } catch (IllegalThreadStateException e) { System.out.println("double start"); }
        t2.join();
        System.out.println(t2 + " done");
    }
}
