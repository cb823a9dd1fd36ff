import java.util.*;

/** PriorityQueue (iteration order follows the JDK's heap layout) and ArrayDeque. */
public class Queues {
    public static void main(String[] args) {
        Random r = new Random(5);
        PriorityQueue<Integer> pq = new PriorityQueue<>();
        for (int i = 0; i < 30; i++) pq.add(r.nextInt(100));
        System.out.println(pq + " " + pq.peek() + " " + pq.size());
        pq.remove(Integer.valueOf(pq.toArray()[5].hashCode()));
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 10; i++) sb.append(pq.poll()).append(' ');
        System.out.println(sb + "| " + pq);
        Iterator<Integer> it = pq.iterator();
        int k = 0;
        while (it.hasNext()) { Integer x = it.next(); if (k++ % 3 == 0) it.remove(); }
        System.out.println(pq + " " + pq.size());
        PriorityQueue<String> ps = new PriorityQueue<>(Collections.reverseOrder());
        ps.addAll(Arrays.asList("m", "a", "z", "q", "b", "y"));
        System.out.println(ps + " " + ps.poll() + " " + ps);
        PriorityQueue<Integer> heapified = new PriorityQueue<>(Arrays.asList(9, 4, 7, 1, 8, 2, 6));
        System.out.println(heapified);
        long total = 0;
        PriorityQueue<long[]> events = new PriorityQueue<>(new Comparator<long[]>() {
            public int compare(long[] a, long[] b) { return Long.compare(a[0], b[0]) != 0 ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]); }
        });
        for (int i = 0; i < 2000; i++) events.add(new long[] { r.nextInt(500), i });
        while (!events.isEmpty()) { long[] e = events.poll(); total = total * 31 + e[1]; if (e[1] % 7 == 0 && e[0] < 400) events.add(new long[] { e[0] + 100, e[1] + 1 }); }
        System.out.println("events " + total);
        ArrayDeque<Integer> dq = new ArrayDeque<>();
        for (int i = 0; i < 40; i++) { if (i % 3 == 0) dq.addFirst(i); else dq.addLast(i); if (i % 5 == 0) dq.pollLast(); }
        System.out.println(dq + " " + dq.peekFirst() + " " + dq.peekLast() + " " + dq.size());
        dq.push(-1);
        System.out.println(dq.pop() + " " + dq.removeFirst() + " " + dq.remove(Integer.valueOf(13)) + " " + dq.contains(13));
        Iterator<Integer> di = dq.descendingIterator();
        StringBuilder d = new StringBuilder();
        while (di.hasNext()) d.append(di.next()).append(',');
        System.out.println(d);
        try { new ArrayDeque<Integer>().removeFirst(); } catch (NoSuchElementException e) { System.out.println("NSEE"); }
        try { dq.addFirst(null); } catch (NullPointerException e) { System.out.println("NPE"); }
    }
}
