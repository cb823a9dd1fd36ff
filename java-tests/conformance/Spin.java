public class Spin {
    static volatile boolean stop = false;
    static volatile long spins = 0;
    public static void main(String[] args) throws Exception {
        Thread spinner = new Thread(new Runnable() {
            public void run() {
                long n = 0;
                while (!stop) { n++; }
                spins = n;
            }
        });
        spinner.start();
        Thread hog = new Thread(new Runnable() {
            public void run() { int x = 0; while (true) { x++; } }
        });
        hog.setDaemon(true);
        hog.start();
        Thread.sleep(50);
        System.out.println("main ran while others spin");
        stop = true;
        spinner.join();
        System.out.println("spinner stopped after spinning: " + (spins > 0));
    }
}
