import java.util.*;

public class GcHeavy {
    static class Node { Node left, right; int val; byte[] pad; Node(int v) { val = v; pad = new byte[16]; } }
    static Node build(int depth, int[] counter) {
        Node n = new Node(counter[0]++);
        if (depth > 0) { n.left = build(depth - 1, counter); n.right = build(depth - 1, counter); }
        return n;
    }
    static long check(Node n) { return n == null ? 0 : n.val + 3 * check(n.left) + 7 * check(n.right) % 1000003; }
    public static void main(String[] args) {
        Node keep = build(14, new int[1]);
        long before = check(keep);
        long churn = 0;
        Map<Integer, String> cache = new HashMap<>();
        for (int round = 0; round < 40; round++) {
            List<int[]> tmp = new ArrayList<>();
            for (int i = 0; i < 2000; i++) {
                int[] a = new int[64 + (i % 64)];
                a[i % a.length] = i;
                tmp.add(a);
                churn += a.length;
            }
            for (int i = 0; i < 300; i++) cache.put(round * 1000 + i, "v" + round + "/" + i);
            if (cache.size() > 3000) {
                Iterator<Integer> it = cache.keySet().iterator();
                for (int i = 0; i < 300 && it.hasNext(); i++) { it.next(); it.remove(); }
            }
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < 500; i++) sb.append(i % 10);
            churn += sb.toString().hashCode() & 0xff;
        }
        System.out.println("tree intact: " + (check(keep) == before) + " " + before);
        System.out.println("churn " + churn + " cache " + cache.size());
    }
}
