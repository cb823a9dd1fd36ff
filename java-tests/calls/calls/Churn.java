package calls;

/**
 * Daemon threads churn-N start and end continuously while main returns: the agent's dump at VM death
 * runs while threads end. Each churn thread calls spin() once.
 */
public class Churn {
    static volatile long sink;

    static void spin() {
        for (int i = 0; i < 1000; i++) sink += i;
    }

    static final class ChurnThread extends Thread {
        ChurnThread(int i) {
            super("churn-" + i);
            setDaemon(true);
        }

        @Override
        public void run() { spin(); }
    }

    static final class Spawner extends Thread {
        Spawner() { super("spawner"); }

        @Override
        public void run() {
            for (int i = 0; ; i++) {
                Thread t = new ChurnThread(i);
                t.start();
                try {
                    t.join();
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    public static void main(String[] args) throws Exception {
        Thread spawner = new Spawner();
        spawner.setDaemon(true);
        spawner.start();
        Thread.sleep(300);
        System.out.println("churn main done");
    }
}
