package calls.counters;

/** A thread "napper" sleeps 5 ms 40 times in nap(); main waits for it in busy-free join. */
public class Naps {
    static void nap() throws InterruptedException {
        for (int i = 0; i < 40; i++) Thread.sleep(5);
    }

    public static void main(String[] args) throws Exception {
        Thread t = new Thread(() -> {
            try { nap(); } catch (InterruptedException e) { }
        }, "napper");
        t.start();
        t.join();
    }
}
