import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.zip.Deflater;

/**
 * Long calls for testing collection windows that open or close while a thread is inside one call.
 * `Windows SCENARIO MS` prints "ready" and waits for a line on stdin (so that the test reads the
 * kernel's account of each thread while it stands still), runs the scenario for about MS
 * milliseconds, prints "done", then waits for another line (or the end of stdin) before it exits,
 * so that the test decides when the JVM ends.
 *
 * spin:    two threads "spinner-0" and "spinner-1" each stay MS ms inside spin(), whose loop calls
 *          only JDK methods (not recorded by default).
 * deflate: the main thread stays inside compress(), in one call of the native Deflater.deflate sized
 *          to take about MS ms (no method event happens during it).
 * sleep:   the main thread stays MS ms inside nap(), in one Thread.sleep.
 */
public class Windows {
    public static void main(String[] args) throws Exception {
        String scenario = args[0];
        long ms = Long.parseLong(args[1]);
        BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in));
        long result;
        switch (scenario) {
            case "spin": {
                long[] sums = new long[2];
                Thread[] ts = new Thread[2];
                for (int i = 0; i < ts.length; i++) {
                    final int w = i;
                    ts[i] = new Thread(() -> sums[w] = spin(ms), "spinner-" + i);
                }
                say("ready", stdin);
                for (Thread t : ts) t.start();
                for (Thread t : ts) t.join();
                result = sums[0] + sums[1];
                break;
            }
            case "deflate": {
                byte[] input = input(ms);
                say("ready", stdin);
                result = compress(input);
                break;
            }
            case "sleep":
                say("ready", stdin);
                result = nap(ms);
                break;
            default:
                throw new IllegalArgumentException("unknown scenario " + scenario);
        }
        say("done " + result, stdin);
    }

    /** Prints a line, then waits for one on stdin. */
    static void say(String s, BufferedReader stdin) throws java.io.IOException {
        System.out.println(s);
        System.out.flush();
        stdin.readLine();
    }

    static long spin(long ms) {
        long end = System.nanoTime() + ms * 1_000_000L;
        StringBuilder sb = new StringBuilder();
        long n = 0;
        while (System.nanoTime() < end) {
            sb.setLength(0);
            sb.append(n++).append('x').append(Long.toHexString(n));
        }
        return n + sb.length();
    }

    static long compress(byte[] input) {
        Deflater d = new Deflater(9);
        d.setInput(input);
        d.finish();
        byte[] out = new byte[input.length + input.length / 100 + 1024];
        int n = d.deflate(out); // one native call: the whole input
        d.end();
        return n;
    }

    static long nap(long ms) throws InterruptedException {
        Thread.sleep(ms);
        return ms;
    }

    /** Pseudo-random words, as much as level-9 deflate takes about ms milliseconds for here. */
    static byte[] input(long ms) {
        byte[] probe = words(1 << 20);
        long t0 = System.nanoTime();
        compress(probe);
        compress(probe);
        double perMiB = (System.nanoTime() - t0) / 2e6;
        long size = (long) (ms / Math.max(perMiB, 0.01)) << 20;
        return words((int) Math.min(size, 1L << 30));
    }

    static byte[] words(int size) {
        byte[] b = new byte[size];
        long x = 88172645463325252L;
        for (int i = 0; i < size; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            int r = (int) (x & 31);
            b[i] = (byte) (r < 26 ? 'a' + r : ' ');
        }
        return b;
    }
}
