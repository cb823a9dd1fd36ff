package calls.counters;

/** Single-threaded: main burns CPU in work() (about a second interpreted with the agent). */
public class Busy {
    static volatile long sink;

    static long step(long x) {
        for (int i = 0; i < 200; i++) x = x * 31 + i;
        return x;
    }

    static void work(int steps) {
        long x = 0;
        for (int i = 0; i < steps; i++) x = step(x);
        sink += x;
    }

    public static void main(String[] args) {
        work(args.length > 0 ? Integer.parseInt(args[0]) : 200_000);
    }
}
