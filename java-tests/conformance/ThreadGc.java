import java.util.*;

/** Threads that allocate, synchronize and wait/notify while collections happen under a small heap. */
public class ThreadGc {
    static final LinkedList<String> queue = new LinkedList<>();
    static final int PRODUCERS = 4, ITEMS = 3000;
    static int produced = 0;

    public static void main(String[] args) throws Exception {
        Thread[] ps = new Thread[PRODUCERS];
        for (int p = 0; p < PRODUCERS; p++) {
            final int id = p;
            ps[p] = new Thread(new Runnable() {
                public void run() {
                    Random r = new Random(id);
                    for (int i = 0; i < ITEMS; i++) {
                        StringBuilder sb = new StringBuilder();
                        for (int k = 0; k < 20 + r.nextInt(20); k++) sb.append((char) ('a' + r.nextInt(26)));
                        int[] junk = new int[100 + r.nextInt(400)];
                        junk[0] = i;
                        synchronized (queue) {
                            while (queue.size() >= 16) {
                                try { queue.wait(); } catch (InterruptedException e) { return; }
                            }
                            queue.addLast(sb.toString());
                            produced++;
                            queue.notifyAll();
                        }
                    }
                }
            }, "producer-" + p);
        }
        final long[] hash = new long[2];
        final int[] counts = new int[2];
        Thread[] cs = new Thread[2];
        for (int c = 0; c < 2; c++) {
            final int id = c;
            cs[c] = new Thread(new Runnable() {
                public void run() {
                    Map<Integer, Integer> lengths = new HashMap<>();
                    for (int i = 0; i < PRODUCERS * ITEMS / 2; i++) {
                        String s;
                        synchronized (queue) {
                            while (queue.isEmpty()) {
                                try { queue.wait(); } catch (InterruptedException e) { return; }
                            }
                            s = queue.removeFirst();
                            queue.notifyAll();
                        }
                        hash[id] += s.hashCode();
                        counts[id]++;
                        Integer old = lengths.get(s.length());
                        lengths.put(s.length(), old == null ? 1 : old + 1);
                    }
                }
            });
        }
        for (Thread t : ps) t.start();
        for (Thread t : cs) t.start();
        for (Thread t : ps) t.join();
        for (Thread t : cs) t.join();
        System.out.println("produced " + produced + " consumed " + (counts[0] + counts[1]) + " hash " + (hash[0] + hash[1]));
    }
}
