package calls;

/**
 * Like Churn, for dumps while threads run: threads longchurn-N start and end one after the other for
 * `args[0]` ms (default 2000) while main prints "ready" and waits; each calls spin() once.
 */
public class ChurnLong {
    static volatile long sink;

    static void spin() {
        for (int i = 0; i < 200000; i++) sink += i;
    }

    static final class Worker extends Thread {
        Worker(int i) { super("longchurn-" + i); }

        @Override
        public void run() { spin(); }
    }

    public static void main(String[] args) throws Exception {
        long ms = args.length > 0 ? Long.parseLong(args[0]) : 2000;
        long end = System.currentTimeMillis() + ms;
        System.out.println("ready");
        System.out.flush();
        int i = 0;
        while (System.currentTimeMillis() < end) {
            Thread t = new Worker(i++);
            t.start();
            t.join();
        }
        System.out.println("done " + i);
    }
}
