package calls;

import java.util.concurrent.CountDownLatch;

/**
 * The scaling benchmark's worker program (bench/scaling.sh): THREADS independent worker threads,
 * each doing the same application-level work with calls of every kind: inserts into and finds in
 * a binary search tree of its own (recursive, small value objects as keys, a comparator method),
 * and a recursive walk of the tree. Nothing is shared between the workers but the start gate.
 *
 * Prints {@code scaling THREADS MS CHECKSUM}: MS is the workers' own time, from the moment the gate
 * opens to the last worker's end (the JVM's start-up and exit are not in it).
 * Args: THREADS ROUNDS (default 1 40).
 */
public class Scaling {
    /** A small value object: the JIT keeps many of them off the heap once the calls are inlined. */
    static final class Key {
        final int major;
        final int minor;

        Key(int major, int minor) {
            this.major = major;
            this.minor = minor;
        }

        int compare(Key o) {
            if (major != o.major) {
                return major < o.major ? -1 : 1;
            }
            return Integer.compare(minor, o.minor);
        }
    }

    static final class Node {
        final Key key;
        Node left;
        Node right;
        int hits;

        Node(Key key) {
            this.key = key;
        }
    }

    static final class Tree {
        Node root;
        int size;

        void insert(Key k) {
            root = insert(root, k);
        }

        private Node insert(Node n, Key k) {
            if (n == null) {
                size++;
                return new Node(k);
            }
            int c = k.compare(n.key);
            if (c < 0) {
                n.left = insert(n.left, k);
            } else if (c > 0) {
                n.right = insert(n.right, k);
            } else {
                n.hits++;
            }
            return n;
        }

        boolean contains(Key k) {
            Node n = root;
            while (n != null) {
                int c = k.compare(n.key);
                if (c == 0) {
                    return true;
                }
                n = c < 0 ? n.left : n.right;
            }
            return false;
        }

        int depth() {
            return depth(root);
        }

        private static int depth(Node n) {
            return n == null ? 0 : 1 + Math.max(depth(n.left), depth(n.right));
        }
    }

    static int next(int x) {
        return x * 1103515245 + 12345;
    }

    /** One worker's work: ROUNDS trees of 4,000 keys, each searched 4,000 times. */
    static long work(int worker, int rounds) {
        long sum = 0;
        int x = 7919 * (worker + 1);
        for (int r = 0; r < rounds; r++) {
            Tree t = new Tree();
            for (int i = 0; i < 4000; i++) {
                x = next(x);
                t.insert(new Key((x >>> 12) & 1023, (x >>> 4) & 255));
            }
            for (int i = 0; i < 4000; i++) {
                x = next(x);
                if (t.contains(new Key((x >>> 12) & 1023, (x >>> 4) & 255))) {
                    sum++;
                }
            }
            sum += t.depth() + t.size;
        }
        return sum;
    }

    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 40;
        CountDownLatch gate = new CountDownLatch(1);
        long[] sums = new long[threads];
        Thread[] ts = new Thread[threads];
        for (int w = 0; w < threads; w++) {
            final int id = w;
            ts[w] = new Thread(() -> {
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    return;
                }
                sums[id] = work(id, rounds);
            }, "worker-" + w);
            ts[w].start();
        }
        long start = System.nanoTime();
        gate.countDown();
        long total = 0;
        for (int w = 0; w < threads; w++) {
            ts[w].join();
            total += sums[w];
        }
        long ms = (System.nanoTime() - start) / 1_000_000;
        System.out.println("scaling " + threads + " " + ms + " " + total);
    }
}
