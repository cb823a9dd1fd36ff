import java.util.*;

/** Collections.synchronizedList, Map, Set and Collection: threads adding at once lose nothing. */
public class LibSyncWrappers {
    public static void main(String[] args) throws Exception {
        List<Integer> list = Collections.synchronizedList(new ArrayList<>());
        List<Integer> linked = Collections.synchronizedList(new LinkedList<>());
        Map<Integer, Integer> map = Collections.synchronizedMap(new HashMap<>());
        Set<Integer> set = Collections.synchronizedSet(new HashSet<>());
        Collection<Integer> coll = Collections.synchronizedCollection(new ArrayDeque<>());
        Thread[] ts = new Thread[4];
        for (int t = 0; t < ts.length; t++) {
            final int id = t;
            ts[t] = new Thread(() -> {
                for (int i = 0; i < 5000; i++) {
                    list.add(i);
                    linked.add(i);
                    map.merge(i % 100, 1, Integer::sum);
                    set.add(i * 4 + id);
                    coll.add(i);
                }
            });
            ts[t].start();
        }
        for (Thread t : ts) t.join();
        long sum = 0;
        synchronized (list) {
            for (int v : list) sum += v;
        }
        System.out.println("list " + list.size() + " sum " + sum + " linked " + linked.size() + " set " + set.size() + " collection " + coll.size());
        int total = 0;
        for (int v : map.values()) total += v;
        System.out.println("map keys " + map.size() + " total " + total + " key 7 " + map.get(7));
        List<Integer> sub = list.subList(0, 3);
        System.out.println("sub " + sub.size() + " random access " + (list instanceof RandomAccess) + " " + (linked instanceof RandomAccess));
        System.out.println("equal to a copy " + list.equals(new ArrayList<>(list)) + " " + set.equals(new HashSet<>(set)) + " " + map.equals(new HashMap<>(map)));
        System.out.println(Collections.synchronizedMap(new TreeMap<>(Map.of(2, "b", 1, "a"))) + " " + Collections.synchronizedList(new ArrayList<>(List.of(3, 1, 2))));
    }
}
