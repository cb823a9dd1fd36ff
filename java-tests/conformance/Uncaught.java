public class Uncaught {
    public static void main(String[] args) throws Exception {
        Thread t = new Thread(new Runnable() {
            public void run() { throw new IllegalArgumentException("from thread"); }
        }, "bad-thread");
        t.start();
        t.join();
        System.out.println("main continues after thread died: " + !t.isAlive());
        throw new IllegalStateException("boom");
    }
}
