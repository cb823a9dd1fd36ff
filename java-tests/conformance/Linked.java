import java.util.*;

/** LinkedHashMap in insertion and access order (an LRU cache), LinkedHashSet. */
public class Linked {
    static class Lru<K, V> extends LinkedHashMap<K, V> {
        final int cap;
        Lru(int cap) { super(16, 0.75f, true); this.cap = cap; }
        protected boolean removeEldestEntry(Map.Entry<K, V> eldest) { return size() > cap; }
    }
    public static void main(String[] args) {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (String w : "zeta alpha mu beta alpha omega kappa beta".split(" ")) m.put(w, m.getOrDefault(w, 0) + 1);
        System.out.println(m + " " + m.keySet() + " " + m.values());
        m.remove("mu");
        m.put("mu", 9);
        Iterator<Map.Entry<String, Integer>> it = m.entrySet().iterator();
        while (it.hasNext()) if (it.next().getValue() == 2) it.remove();
        System.out.println(m + " " + m.containsValue(9) + " " + m.equals(new HashMap<>(m)));
        Lru<Integer, String> lru = new Lru<>(4);
        Random r = new Random(8);
        int hits = 0;
        for (int i = 0; i < 200; i++) {
            int k = r.nextInt(8);
            if (lru.get(k) != null) hits++; else lru.put(k, "v" + k);
        }
        System.out.println(lru + " hits " + hits);
        Set<Character> s = new LinkedHashSet<>();
        for (char c : "mississippi river".toCharArray()) s.add(c);
        System.out.println(s + " " + s.size() + " " + s.contains('v'));
        LinkedHashMap<Integer, Integer> big = new LinkedHashMap<>();
        for (int i = 0; i < 1000; i++) big.put((i * 7919) % 1000, i);
        long h = 0;
        for (int k : big.keySet()) h = h * 31 + k;
        System.out.println(big.size() + " " + h);
    }
}
