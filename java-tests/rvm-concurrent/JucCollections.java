import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** Concurrent collections used by many threads at once. */
public class JucCollections {
    static void joinAll(List<Thread> ts) throws InterruptedException {
        for (Thread t : ts) t.start();
        for (Thread t : ts) t.join();
    }

    public static void main(String[] args) throws Exception {
        // ConcurrentHashMap: merged counts from 8 threads.
        ConcurrentHashMap<String, Integer> counts = new ConcurrentHashMap<>();
        // The keys go in first, in one order: keys that share a bin print in the order they went
        // in, which the threads' interleaving would otherwise decide (on HotSpot as on rvm).
        for (int i = 0; i < 50; i++) counts.put("w" + i, 0);
        counts.put("total", 0);
        ConcurrentHashMap<Integer, List<Integer>> groups = new ConcurrentHashMap<>();
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            final int id = t;
            ts.add(new Thread(() -> {
                for (int i = 0; i < 5000; i++) {
                    counts.merge("w" + (i % 50), 1, Integer::sum);
                    if (i % 100 == 0) {
                        List<Integer> g = groups.computeIfAbsent(i / 1000, k -> new CopyOnWriteArrayList<>());
                        g.add(id);
                    }
                    counts.compute("total", (k, v) -> v == null ? 1 : v + 1);
                }
            }));
        }
        joinAll(ts);
        boolean all800 = true;
        for (Map.Entry<String, Integer> e : counts.entrySet()) if (!e.getKey().equals("total") && e.getValue() != 800) all800 = false;
        System.out.println("chm size " + counts.size() + ", total " + counts.get("total") + ", w7 " + counts.get("w7") + ", all 800: " + all800);
        System.out.println("chm as HotSpot prints it: " + counts);
        System.out.println("keys " + counts.keySet());
        int groupSizes = 0;
        for (List<Integer> g : groups.values()) groupSizes += g.size();
        System.out.println("groups " + groups.size() + " members " + groupSizes);
        ConcurrentMap<String, Integer> m = new ConcurrentHashMap<>();
        System.out.println(m.putIfAbsent("a", 1) + " " + m.putIfAbsent("a", 2) + " " + m.get("a") + " " + m.replace("a", 1, 3) + " " + m.replace("a", 1, 4) + " " + m.remove("a", 4) + " " + m.remove("a", 3) + " " + m.isEmpty());
        for (int i = 0; i < 20; i++) m.put("k" + i, i);
        m.computeIfPresent("k3", (k, v) -> null);
        m.merge("k4", 100, (x, y) -> x + y);
        System.out.println(m.getOrDefault("k3", -1) + " " + m.get("k4") + " " + m.containsKey("k19") + " " + m.containsValue(19) + " " + m);
        long[] visited = new long[1];
        m.forEach((k, v) -> visited[0] += v);
        Iterator<Map.Entry<String, Integer>> it = m.entrySet().iterator();
        while (it.hasNext()) if (it.next().getValue() % 2 == 0) it.remove();
        System.out.println("forEach sum " + visited[0] + ", odd values left " + new TreeMap<>(m));
        try {
            m.put(null, 1);
        } catch (NullPointerException e) {
            System.out.println("null key: NullPointerException");
        }
        ConcurrentHashMap<Integer, Integer> big = new ConcurrentHashMap<>(4);
        for (int i = 0; i < 300; i += 7) big.put(i * 31, i);
        System.out.println("presized " + big);
        var set = ConcurrentHashMap.<String>newKeySet();
        set.add("x");
        set.add("y");
        set.add("x");
        System.out.println("newKeySet " + set + " " + set.size());

        // ConcurrentLinkedQueue: 4 producers, 4 consumers.
        ConcurrentLinkedQueue<Integer> q = new ConcurrentLinkedQueue<>();
        AtomicLong sum = new AtomicLong(), taken = new AtomicLong();
        ts.clear();
        for (int t = 0; t < 4; t++) {
            final int id = t;
            ts.add(new Thread(() -> {
                for (int i = 1; i <= 10000; i++) q.offer(id * 10000 + i);
            }));
            ts.add(new Thread(() -> {
                while (taken.get() < 40000) {
                    Integer v = q.poll();
                    if (v != null) {
                        sum.addAndGet(v);
                        taken.incrementAndGet();
                    } else {
                        Thread.yield();
                    }
                }
            }));
        }
        joinAll(ts);
        System.out.println("clq taken " + taken.get() + " sum " + sum.get() + " empty " + q.isEmpty() + " poll " + q.poll());
        q.addAll(Arrays.asList(1, 2, 3, 2));
        q.remove(2);
        System.out.println("clq " + q + " size " + q.size() + " peek " + q.peek() + " contains 3 " + q.contains(3));

        // CopyOnWriteArrayList: concurrent adds; iterators see a snapshot.
        CopyOnWriteArrayList<Integer> cow = new CopyOnWriteArrayList<>();
        ts.clear();
        for (int t = 0; t < 4; t++) {
            final int id = t;
            ts.add(new Thread(() -> {
                for (int i = 0; i < 500; i++) cow.add(id * 500 + i);
            }));
        }
        joinAll(ts);
        long cowSum = 0;
        for (int v : cow) cowSum += v;
        System.out.println("cow size " + cow.size() + " sum " + cowSum);
        CopyOnWriteArrayList<String> small = new CopyOnWriteArrayList<>(Arrays.asList("a", "b"));
        Iterator<String> snap = small.iterator();
        small.add("c");
        small.addIfAbsent("a");
        small.set(0, "A");
        StringBuilder sb = new StringBuilder();
        while (snap.hasNext()) sb.append(snap.next());
        System.out.println("snapshot " + sb + " now " + small + " indexOf c " + small.indexOf("c"));

        // Blocking queues: producers and consumers with poison pills.
        for (BlockingQueue<Integer> bq : List.<BlockingQueue<Integer>>of(new LinkedBlockingQueue<>(), new ArrayBlockingQueue<>(4), new LinkedBlockingQueue<>(2))) {
            AtomicLong got = new AtomicLong(), n = new AtomicLong();
            ts.clear();
            for (int t = 0; t < 3; t++) {
                final int id = t;
                ts.add(new Thread(() -> {
                    try {
                        for (int i = 1; i <= 3000; i++) bq.put(id * 3000 + i);
                    } catch (InterruptedException e) {
                        throw new RuntimeException(e);
                    }
                }));
                ts.add(new Thread(() -> {
                    try {
                        for (;;) {
                            int v = bq.take();
                            if (v < 0) return;
                            got.addAndGet(v);
                            n.incrementAndGet();
                        }
                    } catch (InterruptedException e) {
                        throw new RuntimeException(e);
                    }
                }));
            }
            for (Thread t : ts) t.start();
            for (int i = 0; i < ts.size(); i += 2) ts.get(i).join();
            for (int t = 0; t < 3; t++) bq.put(-1);
            for (Thread t : ts) t.join();
            System.out.println(bq.getClass().getSimpleName() + ": " + n.get() + " items, sum " + got.get() + ", left " + bq.size());
        }
        ArrayBlockingQueue<String> abq = new ArrayBlockingQueue<>(2);
        System.out.println(abq.offer("a") + " " + abq.offer("b") + " " + abq.offer("c") + " " + abq.offer("c", 10, TimeUnit.MILLISECONDS) + " " + abq.remainingCapacity() + " " + abq);
        List<String> drained = new ArrayList<>();
        System.out.println("drained " + abq.drainTo(drained) + " " + drained + " poll " + abq.poll(10, TimeUnit.MILLISECONDS) + " " + abq.peek());
        try {
            abq.add("x");
            abq.add("y");
            abq.add("z");
        } catch (IllegalStateException e) {
            System.out.println("add to a full queue: " + e.getMessage());
        }

        int r = ThreadLocalRandom.current().nextInt(5, 10);
        long rl = ThreadLocalRandom.current().nextLong(1000);
        double rd = ThreadLocalRandom.current().nextDouble(1.0, 2.0);
        System.out.println("ThreadLocalRandom in range: " + (r >= 5 && r < 10) + " " + (rl >= 0 && rl < 1000) + " " + (rd >= 1.0 && rd < 2.0));
    }
}
