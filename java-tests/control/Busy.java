import java.io.BufferedReader;
import java.io.InputStreamReader;

/**
 * A program that is busy before an agent is attached to it (agent/tests/control.rs): a thread
 * named "cruncher" computes in {@code crunch} until stdin says "quit"; main waits on stdin. Prints
 * "ready" once the cruncher runs, and "sum N" at the end.
 */
public class Busy {
    static volatile boolean stop;

    static long crunch(long seed) {
        long x = seed;
        for (int i = 0; i < 100_000; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            x ^= x >>> 29;
        }
        return x;
    }

    public static void main(String[] args) throws Exception {
        long[] sum = new long[1];
        Thread cruncher = new Thread(() -> {
            long s = 0;
            while (!stop) {
                s += crunch(s);
            }
            sum[0] = s;
        }, "cruncher");
        cruncher.start();
        System.out.println("ready");
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null && !line.trim().equals("quit")) {
            System.out.println("unknown " + line);
        }
        stop = true;
        cruncher.join();
        System.out.println("sum " + (sum[0] != 0));
    }
}
