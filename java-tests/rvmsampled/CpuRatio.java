/** Two threads (on two processors) call light() and heavy() in turn; heavy() runs three times the
 * iterations of the same loop, so it uses three times the CPU time. The agent tests compare the
 * sampled cpu-time of the two against that ratio. Argument: rounds per thread. */
public class CpuRatio {
    static volatile long sink;

    static long spin(int n) {
        long x = 1;
        for (int i = 0; i < n; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }

    static void light() {
        sink += spin(2_000);
    }

    static void heavy() {
        sink += spin(6_000);
    }

    static class Worker extends Thread {
        final int rounds;

        Worker(String name, int rounds) {
            super(name);
            this.rounds = rounds;
        }

        public void run() {
            for (int i = 0; i < rounds; i++) {
                light();
                heavy();
            }
        }
    }

    public static void main(String[] args) throws InterruptedException {
        int rounds = Integer.parseInt(args[0]);
        Worker a = new Worker("worker-a", rounds);
        Worker b = new Worker("worker-b", rounds);
        a.start();
        b.start();
        a.join();
        b.join();
        System.out.println("rounds " + rounds);
    }
}
