import java.util.*;
import java.util.concurrent.*;

/** ConcurrentSkipListMap and ConcurrentSkipListSet: order, navigation, views, atomic updates. */
public class LibSkipList {
    static String attempt(Runnable r) {
        try {
            r.run();
            return "ok";
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName();
        }
    }

    public static void main(String[] args) throws Exception {
        ConcurrentSkipListMap<String, Integer> m = new ConcurrentSkipListMap<>();
        for (String w : "pear apple fig banana cherry kiwi date grape lemon mango".split(" ")) m.put(w, w.length());
        System.out.println(m);
        System.out.println("size " + m.size() + " first " + m.firstKey() + " last " + m.lastKey() + " firstEntry " + m.firstEntry() + " lastEntry " + m.lastEntry());
        System.out.println("floor(c) " + m.floorKey("c") + " ceiling(c) " + m.ceilingKey("c") + " lower(fig) " + m.lowerKey("fig") + " higher(fig) " + m.higherKey("fig"));
        System.out.println("floorEntry(zz) " + m.floorEntry("zz") + " ceilingEntry(zz) " + m.ceilingEntry("zz") + " lowerEntry(apple) " + m.lowerEntry("apple"));
        System.out.println("head(date) " + m.headMap("date") + " tail(kiwi) " + m.tailMap("kiwi") + " sub(b,g) " + m.subMap("b", "g"));
        System.out.println("head(date, incl) " + m.headMap("date", true) + " sub(banana..fig excl) " + m.subMap("banana", false, "fig", false));
        System.out.println("descending " + m.descendingMap());
        System.out.println("keys " + m.keySet() + " descending keys " + m.descendingKeySet() + " values " + m.values());
        System.out.println("get fig " + m.get("fig") + " get nope " + m.get("nope") + " default " + m.getOrDefault("nope", -1) + " contains kiwi " + m.containsKey("kiwi") + " value 6 " + m.containsValue(6));

        // views write through, both ways
        ConcurrentNavigableMap<String, Integer> sub = m.subMap("c", "h");
        sub.put("coconut", 7);
        sub.remove("fig");
        System.out.println("after view changes: " + m + " view " + sub + " view size " + sub.size());
        System.out.println("out of range put: " + attempt(() -> sub.put("zebra", 5)));
        m.put("elderberry", 10);
        System.out.println("view sees a new key: " + sub.containsKey("elderberry") + " " + sub.firstKey() + ".." + sub.lastKey());
        System.out.println("descending view first " + m.descendingMap().firstKey() + " head of it " + m.descendingMap().headMap("kiwi"));

        // atomic updates
        System.out.println("putIfAbsent " + m.putIfAbsent("apple", 0) + " " + m.putIfAbsent("quince", 6) + " replace " + m.replace("quince", 60) + " "
                + m.replace("quince", 61, 62) + " " + m.replace("quince", 60, 66) + " remove(k,v) " + m.remove("quince", 1) + " " + m.remove("quince", 66));
        System.out.println("merge " + m.merge("apple", 100, Integer::sum) + " compute " + m.compute("apple", (k, v) -> v == null ? 0 : v * 2)
                + " computeIfAbsent " + m.computeIfAbsent("raisin", String::length) + " computeIfPresent " + m.computeIfPresent("raisin", (k, v) -> null)
                + " has raisin " + m.containsKey("raisin"));

        // polling, iterating and removing
        System.out.println("pollFirst " + m.pollFirstEntry() + " pollLast " + m.pollLastEntry() + " now " + m.firstKey() + ".." + m.lastKey());
        Iterator<Map.Entry<String, Integer>> it = m.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, Integer> e = it.next();
            if (e.getValue() % 2 == 0) it.remove();
        }
        System.out.println("odd lengths left " + m);
        System.out.println("entry setValue: " + attempt(() -> m.firstEntry().setValue(3)));
        System.out.println("null key: " + attempt(() -> m.put(null, 1)) + ", null value: " + attempt(() -> m.put("x", null)) + ", get null: " + attempt(() -> m.get(null)));
        // iterating while another thread changes the map: no ConcurrentModificationException
        int n = 0;
        for (String k : m.keySet()) {
            m.put("A" + k, 1);
            n++;
        }
        System.out.println("iterated " + n + " while adding; size now " + m.size());
        System.out.println("equals a TreeMap " + m.equals(new TreeMap<>(m)) + " hash " + (m.hashCode() == new TreeMap<>(m).hashCode()));
        ConcurrentSkipListMap<String, Integer> copy = m.clone();
        copy.clear();
        System.out.println("clone cleared, original size " + m.size() + ", key set add: " + attempt(() -> m.keySet().add("nope")));

        // a comparator
        ConcurrentSkipListMap<Integer, String> rev = new ConcurrentSkipListMap<>(Comparator.reverseOrder());
        for (int i = 1; i <= 6; i++) rev.put(i * 3 % 7, "v" + i);
        System.out.println("reversed " + rev + " first " + rev.firstKey() + " ceiling(4) " + rev.ceilingKey(4) + " head(3) " + rev.headMap(3));

        // counted from four threads: every merge is atomic
        ConcurrentSkipListMap<Integer, Integer> counts = new ConcurrentSkipListMap<>();
        Thread[] ts = new Thread[4];
        for (int t = 0; t < ts.length; t++) {
            final int id = t;
            ts[t] = new Thread(() -> {
                for (int i = 0; i < 2000; i++) counts.merge((i * 7 + id) % 13, 1, Integer::sum);
            });
            ts[t].start();
        }
        for (Thread t : ts) t.join();
        int total = 0;
        for (int v : counts.values()) total += v;
        System.out.println("counts " + counts + " total " + total);

        // the set
        ConcurrentSkipListSet<Integer> s = new ConcurrentSkipListSet<>();
        Thread[] adders = new Thread[4];
        for (int t = 0; t < adders.length; t++) {
            final int id = t;
            adders[t] = new Thread(() -> {
                for (int i = 0; i < 500; i++) s.add(i * 4 + id);
            });
            adders[t].start();
        }
        for (Thread t : adders) t.join();
        System.out.println("set size " + s.size() + " first " + s.first() + " last " + s.last() + " add again " + s.add(5) + " contains 1999 " + s.contains(1999));
        System.out.println("head(5) " + s.headSet(5) + " tail(1995) " + s.tailSet(1995) + " sub(10,15) " + s.subSet(10, 15) + " sub(10 excl, 15 incl) " + s.subSet(10, false, 15, true));
        System.out.println("lower(0) " + s.lower(0) + " floor(7) " + s.floor(7) + " ceiling(2000) " + s.ceiling(2000) + " higher(5) " + s.higher(5));
        NavigableSet<Integer> desc = s.descendingSet();
        System.out.println("descending first " + desc.first() + " head(1996) " + desc.headSet(1996) + " iterator " + s.descendingIterator().next());
        s.headSet(1000).clear();
        System.out.println("after clearing the head view: size " + s.size() + " first " + s.first() + " pollFirst " + s.pollFirst() + " pollLast " + s.pollLast());
        s.removeIf(x -> x % 3 != 0);
        System.out.println("multiples of 3: " + s.size() + " " + s.first() + " " + s.last());
        ConcurrentSkipListSet<String> words = new ConcurrentSkipListSet<>(Arrays.asList("b", "a", "c", "a"));
        System.out.println(words + " remove b " + words.remove("b") + " " + words + " equals " + words.equals(new TreeSet<>(Arrays.asList("a", "c"))));
        ConcurrentSkipListSet<String> byLength = new ConcurrentSkipListSet<>(Comparator.comparing(String::length).thenComparing(Comparator.naturalOrder()));
        byLength.addAll(Arrays.asList("ccc", "a", "bb", "aa", "dddd"));
        System.out.println(byLength + " comparator set " + (byLength.comparator() != null));
    }
}
