package bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;

/**
 * The scaling benchmark's H2 program (bench/scaling.sh): THREADS client threads on one in-memory
 * H2 database (Debian's libh2-java), each running TRANSACTIONS transactions (an order with five
 * lines and five stock updates, one commit) and a range query after each (a sum over 200 stock
 * rows). Each client owns its stock rows, so clients never wait for each other's row locks: what
 * they share is H2 itself (its MVStore, its session and commit paths), as the clients of a real
 * server do.
 *
 * Prints {@code h2scaling THREADS MS CHECKSUM}: MS is the clients' own time, from the moment the
 * gate opens to the last client's end (schema, data loading, JVM start-up and exit are not in it).
 * With ROUNDS above 1 the clients run that many rounds of TRANSACTIONS each, all of them starting
 * a round together, and MS is the last round's time: the steady state, once the JIT has compiled
 * what the work runs (the earlier rounds' times go to stderr).
 * Args: THREADS TRANSACTIONS [ROUNDS] (default 1 2000 1).
 */
public class H2Scaling {
    static final int ITEMS = 1000; // stock rows per client

    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        int transactions = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
        int rounds = args.length > 2 ? Math.max(1, Integer.parseInt(args[2])) : 1;
        String url = "jdbc:h2:mem:scaling;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000";
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE stock(item INT PRIMARY KEY, qty INT, name VARCHAR(40))");
            s.execute("CREATE TABLE orders(id IDENTITY PRIMARY KEY, client INT, total INT)");
            s.execute("CREATE TABLE lines(order_id BIGINT, item INT, qty INT)");
            s.execute("CREATE INDEX lines_order ON lines(order_id)");
            try (PreparedStatement p = c.prepareStatement("INSERT INTO stock VALUES (?, ?, ?)")) {
                for (int i = 0; i < threads * ITEMS; i++) {
                    p.setInt(1, i);
                    p.setInt(2, 1_000_000);
                    p.setString(3, "item-" + i);
                    p.addBatch();
                }
                p.executeBatch();
            }
        }
        CountDownLatch gate = new CountDownLatch(1);
        // The time each round starts, and the last one's end: taken when every client is there.
        long[] marks = new long[rounds + 1];
        int[] mark = new int[1];
        CyclicBarrier between = rounds > 1 ? new CyclicBarrier(threads, () -> marks[mark[0]++] = System.nanoTime()) : null;
        long[] sums = new long[threads];
        Throwable[] failed = new Throwable[1];
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            final int w = t;
            ts[t] = new Thread(() -> {
                try (Connection c = DriverManager.getConnection(url)) {
                    gate.await();
                    for (int r = 0; r < rounds; r++) {
                        if (rounds > 1) {
                            between.await();
                        }
                        sums[w] += work(c, w, transactions);
                    }
                    if (rounds > 1) {
                        between.await();
                    }
                } catch (Throwable e) {
                    synchronized (failed) {
                        if (failed[0] == null) {
                            failed[0] = e; // the first cause, not the broken barrier it leaves
                        }
                    }
                    if (between != null) {
                        between.reset(); // the others stop waiting for this client
                    }
                }
            }, "h2-client-" + t);
            ts[t].start();
        }
        Thread.sleep(100); // every client connected and waiting at the gate
        long start = System.nanoTime();
        gate.countDown();
        long total = 0;
        for (int t = 0; t < threads; t++) {
            ts[t].join();
            total += sums[t];
        }
        long ms = (System.nanoTime() - start) / 1_000_000;
        if (failed[0] != null) {
            System.err.println("h2scaling: a client failed: " + failed[0]);
            System.exit(1);
        }
        if (rounds > 1) {
            StringBuilder each = new StringBuilder("h2scaling: rounds (ms):");
            for (int r = 0; r < rounds; r++) {
                each.append(' ').append((marks[r + 1] - marks[r]) / 1_000_000);
            }
            System.err.println(each);
            ms = (marks[rounds] - marks[rounds - 1]) / 1_000_000;
        }
        System.out.println("h2scaling " + threads + " " + ms + " " + total);
    }

    static long work(Connection c, int client, int transactions) throws Exception {
        long sum = 0;
        int x = client * 7919 + 1;
        int base = client * ITEMS;
        c.setAutoCommit(false);
        PreparedStatement order = c.prepareStatement("INSERT INTO orders(client, total) VALUES (?, ?)", Statement.RETURN_GENERATED_KEYS);
        PreparedStatement line = c.prepareStatement("INSERT INTO lines VALUES (?, ?, ?)");
        PreparedStatement stock = c.prepareStatement("UPDATE stock SET qty = qty - ? WHERE item = ?");
        PreparedStatement range = c.prepareStatement("SELECT COUNT(*), SUM(qty) FROM stock WHERE item BETWEEN ? AND ?");
        for (int t = 0; t < transactions; t++) {
            order.setInt(1, client);
            order.setInt(2, 0);
            order.executeUpdate();
            long id;
            try (ResultSet k = order.getGeneratedKeys()) {
                k.next();
                id = k.getLong(1);
            }
            for (int i = 0; i < 5; i++) {
                x = x * 1103515245 + 12345;
                int item = base + (x >>> 8) % ITEMS;
                int qty = 1 + (x >>> 20) % 9;
                line.setLong(1, id);
                line.setInt(2, item);
                line.setInt(3, qty);
                line.executeUpdate();
                stock.setInt(1, qty);
                stock.setInt(2, item);
                stock.executeUpdate();
                sum += qty;
            }
            c.commit();
            int from = base + (t * 37) % (ITEMS - 200);
            range.setInt(1, from);
            range.setInt(2, from + 199);
            try (ResultSet r = range.executeQuery()) {
                r.next();
                sum += r.getLong(1) + r.getLong(2) % 1000;
            }
            c.commit();
        }
        return sum;
    }
}
