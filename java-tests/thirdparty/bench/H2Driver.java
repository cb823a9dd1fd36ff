package bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * A small transaction driver for Debian's H2 database (libh2-java): THREADS threads each run
 * TRANSACTIONS transactions against one in-memory database: insert an order with five lines and
 * update the five stock rows (one commit), then read the order back and one stock row by key. `H2Driver THREADS TRANSACTIONS` prints a checksum.
 * `H2Driver THREADS TRANSACTIONS separate` gives each worker a database of its own: the same work
 * without the workers' contention on shared tables, whose spinning makes a run on 2 cores switch
 * between a fast and a slow pace (a factor of 2) for seconds at a time.
 * Each transaction locks its stock rows in item order, so two workers never deadlock (H2 would roll
 * one back and the run would do less work); a worker that fails anyway fails the program.
 */
public class H2Driver {
    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        int transactions = args.length > 1 ? Integer.parseInt(args[1]) : 300;
        boolean separate = args.length > 2 && args[2].equals("separate");
        String url = "jdbc:h2:mem:bench;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000";
        String[] urls = new String[threads];
        for (int t = 0; t < threads; t++) {
            urls[t] = separate ? url.replace("mem:bench", "mem:bench" + t) : url;
            if (separate || t == 0) {
                setup(urls[t]);
            }
        }
        long[] sums = new long[threads];
        Throwable[] failed = new Throwable[1];
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            final int w = t;
            ts[t] = new Thread(() -> {
                try {
                    sums[w] = work(urls[w], w, transactions);
                } catch (Throwable e) {
                    synchronized (failed) {
                        failed[0] = e;
                    }
                }
            }, "h2-worker-" + t);
            ts[t].start();
        }
        long total = 0;
        for (int t = 0; t < threads; t++) {
            ts[t].join();
            total += sums[t];
        }
        if (failed[0] != null) {
            System.err.println("h2 driver: a worker failed: " + failed[0]);
            System.exit(1);
        }
        System.out.println("h2 " + total);
    }

    static void setup(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE stock(item INT PRIMARY KEY, qty INT, name VARCHAR(40))");
            s.execute("CREATE TABLE orders(id IDENTITY PRIMARY KEY, worker INT, total INT)");
            s.execute("CREATE TABLE lines(order_id BIGINT, item INT, qty INT)");
            s.execute("CREATE INDEX lines_order ON lines(order_id)");
            try (PreparedStatement p = c.prepareStatement("INSERT INTO stock VALUES (?, ?, ?)")) {
                for (int i = 0; i < 1000; i++) {
                    p.setInt(1, i);
                    p.setInt(2, 1_000_000);
                    p.setString(3, "item-" + i);
                    p.addBatch();
                }
                p.executeBatch();
            }
        }
    }

    static long work(String url, int worker, int transactions) throws Exception {
        long sum = 0;
        int x = worker * 7919 + 1;
        try (Connection c = DriverManager.getConnection(url)) {
            c.setAutoCommit(false);
            PreparedStatement order = c.prepareStatement("INSERT INTO orders(worker, total) VALUES (?, ?)", Statement.RETURN_GENERATED_KEYS);
            PreparedStatement line = c.prepareStatement("INSERT INTO lines VALUES (?, ?, ?)");
            PreparedStatement stock = c.prepareStatement("UPDATE stock SET qty = qty - ? WHERE item = ?");
            PreparedStatement summary = c.prepareStatement("SELECT COUNT(*), COALESCE(SUM(qty), 0) FROM lines WHERE order_id = ?");
            PreparedStatement byItem = c.prepareStatement("SELECT qty, name FROM stock WHERE item = ?");
            for (int t = 0; t < transactions; t++) {
                int total = 0;
                order.setInt(1, worker);
                order.setInt(2, 0);
                order.executeUpdate();
                long id;
                try (ResultSet k = order.getGeneratedKeys()) {
                    k.next();
                    id = k.getLong(1);
                }
                long[] picks = new long[5]; // item << 8 | qty, sorted by item: rows locked in order
                for (int i = 0; i < 5; i++) {
                    x = x * 1103515245 + 12345;
                    picks[i] = (long) ((x >>> 8) % 1000) << 8 | (1 + (x >>> 20) % 9);
                }
                java.util.Arrays.sort(picks);
                for (long pick : picks) {
                    int item = (int) (pick >>> 8);
                    int qty = (int) (pick & 0xff);
                    line.setLong(1, id);
                    line.setInt(2, item);
                    line.setInt(3, qty);
                    line.executeUpdate();
                    stock.setInt(1, qty);
                    stock.setInt(2, item);
                    stock.executeUpdate();
                    total += qty;
                }
                c.commit();
                summary.setLong(1, id);
                try (ResultSet r = summary.executeQuery()) {
                    r.next();
                    sum += r.getLong(1) + r.getLong(2);
                }
                byItem.setInt(1, t % 1000);
                try (ResultSet r = byItem.executeQuery()) {
                    r.next();
                    sum += r.getString(2).length();
                }
                sum += total;
            }
        }
        return sum;
    }
}
