import java.util.*;

/** TreeMap and TreeSet under random operations, compared with HotSpot's. */
public class Trees {
    public static void main(String[] args) {
        Random r = new Random(31);
        TreeMap<Integer, String> m = new TreeMap<>();
        long acc = 0;
        for (int i = 0; i < 20000; i++) {
            int k = r.nextInt(2000);
            switch (r.nextInt(6)) {
                case 0: case 1: { String old = m.put(k, "v" + i); acc += old == null ? 1 : old.length(); break; }
                case 2: { String old = m.remove(k); acc += old == null ? 3 : 7; break; }
                case 3: { Integer f = m.floorKey(k), c = m.ceilingKey(k); acc += (f == null ? -1 : f) * 31 + (c == null ? -1 : c); break; }
                case 4: { Integer h = m.higherKey(k), l = m.lowerKey(k); acc += (h == null ? -5 : h) - (l == null ? -5 : l); break; }
                default: acc += m.containsKey(k) ? 11 : 13;
            }
        }
        System.out.println(m.size() + " " + acc + " " + m.firstKey() + " " + m.lastKey() + " " + m.firstEntry() + " " + m.lastEntry());
        int n = 0;
        long sum = 0;
        Integer prev = null;
        for (Map.Entry<Integer, String> e : m.entrySet()) {
            if (prev != null && prev >= e.getKey()) throw new AssertionError("order");
            prev = e.getKey();
            sum += e.getKey() * (long) e.getValue().length();
            n++;
        }
        System.out.println(n + " " + sum);
        Iterator<Integer> it = m.keySet().iterator();
        while (it.hasNext()) if (it.next() % 3 == 0) it.remove();
        System.out.println(m.size() + " " + m.firstKey() + " " + m.ceilingKey(1000));
        System.out.println(m.pollFirstEntry() + " " + m.pollLastEntry() + " " + m.size());
        TreeMap<String, Integer> byLen = new TreeMap<>(new Comparator<String>() {
            public int compare(String a, String b) { return a.length() != b.length() ? a.length() - b.length() : b.compareTo(a); }
        });
        for (String w : "the quick brown fox jumps over the lazy dog again and again".split(" ")) { Integer c = byLen.get(w); byLen.put(w, c == null ? 1 : c + 1); }
        System.out.println(byLen);
        TreeSet<String> ts = new TreeSet<>(Arrays.asList("pear", "apple", "fig", "kiwi", "banana", "apple"));
        System.out.println(ts + " " + ts.first() + " " + ts.last() + " " + ts.ceiling("c") + " " + ts.floor("c") + " " + ts.higher("kiwi") + " " + ts.lower("apple"));
        System.out.println(ts.pollFirst() + " " + ts + " " + ts.contains("fig") + " " + ts.remove("fig") + " " + ts);
        try { new TreeMap<Integer, Integer>().firstKey(); } catch (NoSuchElementException e) { System.out.println("NSEE"); }
        try { new TreeMap<Object, Integer>().put(null, 1); } catch (NullPointerException e) { System.out.println("NPE"); }
        try { for (Integer k : m.keySet()) m.put(k + 100000, "x"); } catch (ConcurrentModificationException e) { System.out.println("CME"); }
    }
}
