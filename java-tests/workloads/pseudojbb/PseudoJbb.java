package pseudojbb;

import hpmagent.Trace;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Random;

/**
 * A pseudojbb-like workload (after SPECjbb2000 as used in the Jikes RVM papers): one thread per
 * warehouse runs a fixed number of transactions (new order, payment, order status, delivery, stock
 * level) against in-memory trees and maps. Each thread has a deterministic seed; district state is
 * updated under {@code synchronized (district)}; updates that cross warehouses are commutative, so
 * the final checksum is the same for every interleaving, on HotSpot and on rvm with any number of
 * virtual processors.
 *
 * Usage: PseudoJbb [warehouses] [transactions per warehouse]
 *
 * <p>Places hpmagent trace markers: application start and end, and run 1 around the transaction
 * phase (without a profiler they do nothing).
 */
public class PseudoJbb {
    static final int DISTRICTS = 10;
    static final int CUSTOMERS = 120;
    static final int ITEMS = 2000;
    /** Orders kept per district (older ones are deleted, so the live data stays bounded). */
    static final int ORDER_WINDOW = 400;

    static Item[] items;
    static Warehouse[] warehouses;

    public static void main(String[] args) throws InterruptedException {
        Trace.appStart("pseudojbb");
        int nw = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int tx = args.length > 1 ? Integer.parseInt(args[1]) : 20000;
        Random setup = new Random(2004);
        items = new Item[ITEMS];
        for (int i = 0; i < ITEMS; i++) items[i] = new Item(i, "item-" + i, 100 + setup.nextInt(9900));
        warehouses = new Warehouse[nw];
        for (int w = 0; w < nw; w++) warehouses[w] = new Warehouse(w, setup);
        long start = System.nanoTime();
        Trace.runStart(1, "pseudojbb " + nw + " warehouses x " + tx + " transactions");
        Thread[] threads = new Thread[nw];
        for (int w = 0; w < nw; w++) {
            threads[w] = new Thread(new Terminal(warehouses[w], tx, 1000L + 17 * w), "Warehouse-" + w);
            threads[w].start();
        }
        for (Thread t : threads) t.join();
        long elapsed = System.nanoTime() - start;
        Trace.runComplete(1, "pseudojbb");
        long checksum = 17;
        for (Warehouse w : warehouses) {
            long c = w.checksum();
            System.out.println("warehouse " + w.id + ": " + w.summary() + " checksum " + Long.toHexString(c));
            checksum = checksum * 1000003 + c;
        }
        System.out.println("transactions " + (long) nw * tx + " checksum " + Long.toHexString(checksum));
        if (System.getProperty("pseudojbb.time") != null || (args.length > 2 && args[2].equals("time")))
            System.err.println("elapsed ms " + elapsed / 1000000);
        Trace.appComplete("pseudojbb");
    }

    static final class Item {
        final int id;
        final String name;
        final int price;
        Item(int id, String name, int price) { this.id = id; this.name = name; this.price = price; }
    }

    static final class Stock {
        int quantity;
        long ytd;
        int orderCount;
        int remoteCount;
        Stock(int q) { quantity = q; }
    }

    static final class Customer {
        final int id;
        final String last;
        long balance;
        long ytdPayment;
        int paymentCount;
        Order lastOrder;
        Customer(int id, String last) { this.id = id; this.last = last; }
    }

    static final class OrderLine {
        final int item;
        final int supplyWarehouse;
        final int quantity;
        final long amount;
        OrderLine(int item, int supplyWarehouse, int quantity, long amount) {
            this.item = item; this.supplyWarehouse = supplyWarehouse; this.quantity = quantity; this.amount = amount;
        }
    }

    static final class Order {
        final int id;
        final Customer customer;
        final OrderLine[] lines;
        long total;
        int carrier = -1;
        Order(int id, Customer customer, OrderLine[] lines) { this.id = id; this.customer = customer; this.lines = lines; }
    }

    /** A binary search tree of orders keyed by order id (ids grow, so it is kept balanced by rotation-free
     * insertion at random-ish keys: the key is scrambled). */
    static final class OrderTree {
        static final class Node {
            final int key;
            Order order;
            Node left, right;
            Node(int key, Order order) { this.key = key; this.order = order; }
        }
        Node root;
        int size;
        static int scramble(int id) { return Integer.reverse(id) ^ 0x5bd1e995; }
        void put(Order o) {
            int k = scramble(o.id);
            if (root == null) { root = new Node(k, o); size++; return; }
            Node n = root;
            while (true) {
                if (k < n.key) { if (n.left == null) { n.left = new Node(k, o); size++; return; } n = n.left; }
                else if (k > n.key) { if (n.right == null) { n.right = new Node(k, o); size++; return; } n = n.right; }
                else { n.order = o; return; }
            }
        }
        /** Removes the order with this id (standard BST deletion). */
        void remove(int id) {
            int k = scramble(id);
            Node parent = null, n = root;
            while (n != null && n.key != k) { parent = n; n = k < n.key ? n.left : n.right; }
            if (n == null) return;
            if (n.left != null && n.right != null) {
                Node sp = n, s = n.right;
                while (s.left != null) { sp = s; s = s.left; }
                Node repl = new Node(s.key, s.order);
                if (sp == n) sp.right = s.right; else sp.left = s.right;
                repl.left = n.left;
                repl.right = n.right;
                if (sp == n) repl.right = s.right;
                replace(parent, n, repl);
            } else {
                replace(parent, n, n.left != null ? n.left : n.right);
            }
            size--;
        }
        private void replace(Node parent, Node old, Node with) {
            if (parent == null) root = with; else if (parent.left == old) parent.left = with; else parent.right = with;
        }
        Order get(int id) {
            int k = scramble(id);
            Node n = root;
            while (n != null) {
                if (k < n.key) n = n.left; else if (k > n.key) n = n.right; else return n.order;
            }
            return null;
        }
        long sum(Node n) { return n == null ? 0 : n.order.total + sum(n.left) + sum(n.right); }
    }

    static final class District {
        final int id;
        int nextOrderId = 1;
        long ytd;
        final OrderTree orders = new OrderTree();
        final LinkedList<Order> newOrders = new LinkedList<>();
        final Customer[] customers = new Customer[CUSTOMERS];
        final HashMap<String, List<Customer>> byLastName = new HashMap<>();
        final List<String> history = new ArrayList<>();
        District(int id, Random r) {
            this.id = id;
            for (int c = 0; c < CUSTOMERS; c++) {
                String last = "NAME" + (r.nextInt(40));
                Customer cu = new Customer(c, last);
                customers[c] = cu;
                List<Customer> l = byLastName.get(last);
                if (l == null) { l = new ArrayList<>(); byLastName.put(last, l); }
                l.add(cu);
            }
        }
    }

    static final class Warehouse {
        final int id;
        final District[] districts = new District[DISTRICTS];
        final HashMap<Integer, Stock> stock = new HashMap<>();
        long ytd;
        final int[] txCounts = new int[5];
        Warehouse(int id, Random r) {
            this.id = id;
            for (int d = 0; d < DISTRICTS; d++) districts[d] = new District(d, r);
            for (int i = 0; i < ITEMS; i++) stock.put(i, new Stock(10 + r.nextInt(91)));
        }
        long checksum() {
            long c = ytd;
            for (District d : districts) {
                c = c * 31 + d.ytd;
                c = c * 31 + d.nextOrderId;
                c = c * 31 + d.orders.size;
                c = c * 31 + d.orders.sum(d.orders.root);
                c = c * 31 + d.newOrders.size();
                c = c * 31 + d.history.size();
                for (Customer cu : d.customers) c = c * 7 + cu.balance + cu.paymentCount;
            }
            for (int i = 0; i < ITEMS; i++) {
                Stock s = stock.get(i);
                c = c * 13 + s.quantity + s.ytd * 3 + s.orderCount * 5 + s.remoteCount * 11;
            }
            return c;
        }
        String summary() {
            return "new " + txCounts[0] + " pay " + txCounts[1] + " status " + txCounts[2] + " delivery " + txCounts[3] + " stock " + txCounts[4];
        }
    }

    static final class Terminal implements Runnable {
        final Warehouse home;
        final int transactions;
        final Random r;
        Terminal(Warehouse home, int transactions, long seed) { this.home = home; this.transactions = transactions; this.r = new Random(seed); }

        public void run() {
            for (int t = 0; t < transactions; t++) {
                int p = r.nextInt(100);
                if (p < 45) newOrder();
                else if (p < 88) payment();
                else if (p < 92) orderStatus();
                else if (p < 96) delivery();
                else stockLevel();
            }
        }

        void newOrder() {
            District d = home.districts[r.nextInt(DISTRICTS)];
            Customer c = d.customers[r.nextInt(CUSTOMERS)];
            int n = 5 + r.nextInt(11);
            OrderLine[] lines = new OrderLine[n];
            long total = 0;
            for (int i = 0; i < n; i++) {
                int item = r.nextInt(ITEMS);
                int qty = 1 + r.nextInt(10);
                int supply = home.id;
                if (warehouses.length > 1 && r.nextInt(100) == 0) {
                    supply = r.nextInt(warehouses.length);
                }
                Warehouse sw = warehouses[supply];
                long amount = (long) qty * items[item].price;
                if (sw == home) {
                    Stock s = home.stock.get(item);
                    synchronized (s) {
                        if (s.quantity >= qty + 10) s.quantity -= qty; else s.quantity = s.quantity - qty + 91;
                        s.ytd += qty;
                        s.orderCount++;
                    }
                } else {
                    Stock s = sw.stock.get(item);
                    synchronized (s) {
                        // commutative updates only: the result does not depend on thread order
                        s.ytd += qty;
                        s.remoteCount++;
                    }
                }
                lines[i] = new OrderLine(item, supply, qty, amount);
                total += amount;
            }
            synchronized (d) {
                Order o = new Order(d.nextOrderId++, c, lines);
                o.total = total;
                d.orders.put(o);
                if (o.id > ORDER_WINDOW) d.orders.remove(o.id - ORDER_WINDOW);
                d.newOrders.addLast(o);
                if (d.newOrders.size() > ORDER_WINDOW) d.newOrders.removeFirst();
                c.lastOrder = o;
            }
            home.txCounts[0]++;
        }

        void payment() {
            District d = home.districts[r.nextInt(DISTRICTS)];
            long amount = 100 + r.nextInt(500000);
            Customer c;
            synchronized (d) {
                if (r.nextInt(100) < 60) {
                    List<Customer> l = d.byLastName.get("NAME" + r.nextInt(40));
                    c = (l == null || l.isEmpty()) ? d.customers[0] : l.get(l.size() / 2);
                } else {
                    c = d.customers[r.nextInt(CUSTOMERS)];
                }
                d.ytd += amount;
                c.balance -= amount;
                c.ytdPayment += amount;
                c.paymentCount++;
                StringBuilder h = new StringBuilder();
                h.append("W").append(home.id).append("D").append(d.id).append("C").append(c.id).append(" paid ").append(amount / 100).append('.').append(amount % 100);
                d.history.add(h.toString());
                if (d.history.size() > 200) d.history.subList(0, 100).clear();
            }
            synchronized (home) { home.ytd += amount; }
            home.txCounts[1]++;
        }

        void orderStatus() {
            District d = home.districts[r.nextInt(DISTRICTS)];
            synchronized (d) {
                Customer c = d.customers[r.nextInt(CUSTOMERS)];
                Order o = c.lastOrder;
                if (o != null) {
                    Order again = d.orders.get(o.id);
                    if (again == null) again = o;
                    long s = 0;
                    for (OrderLine l : again.lines) s += l.amount;
                    if (s != again.total) throw new IllegalStateException("corrupt order");
                }
            }
            home.txCounts[2]++;
        }

        void delivery() {
            int carrier = r.nextInt(10);
            for (District d : home.districts) {
                synchronized (d) {
                    Order o = d.newOrders.pollFirst();
                    if (o != null) {
                        o.carrier = carrier;
                        o.customer.balance += o.total;
                    }
                }
            }
            home.txCounts[3]++;
        }

        void stockLevel() {
            District d = home.districts[r.nextInt(DISTRICTS)];
            int threshold = 10 + r.nextInt(11);
            int low = 0;
            synchronized (d) {
                int last = d.nextOrderId;
                for (int id = Math.max(1, last - 20); id < last; id++) {
                    Order o = d.orders.get(id);
                    if (o == null) continue;
                    for (OrderLine l : o.lines) {
                        if (l.supplyWarehouse != home.id) continue;
                        Stock s = home.stock.get(l.item);
                        synchronized (s) { if (s.quantity < threshold) low++; }
                    }
                }
            }
            home.txCounts[4] += low >= 0 ? 1 : 0;
        }
    }
}
