package phases;

/**
 * A switch-heavy program: two threads hand a token back and forth {@code ROUNDS} times (default
 * 15,000) through one monitor's wait and notify, so every hand-over is a thread switch, with a
 * little work per turn ({@code WORK} steps, default 20: the second argument sets how dense the
 * switches are). Prints the rounds and a checksum.
 */
public class PingPong {
    static final Object LOCK = new Object();
    static int turn;
    static long sum;
    static int steps = 20;

    static long work(long x) {
        for (int i = 0; i < steps; i++) x = x * 31 + i;
        return x;
    }

    static void player(int me, int rounds) {
        long x = me;
        for (int r = 0; r < rounds; r++) {
            synchronized (LOCK) {
                while (turn != me) {
                    try {
                        LOCK.wait();
                    } catch (InterruptedException e) {
                        throw new RuntimeException(e);
                    }
                }
                x = work(x);
                turn = 1 - me;
                LOCK.notifyAll();
            }
        }
        synchronized (LOCK) {
            sum += x;
        }
    }

    /** A player's thread (no lambda: the research VM runs no invokedynamic). */
    static final class Player extends Thread {
        final int me, rounds;

        Player(int me, int rounds) {
            super(me == 0 ? "ping" : "pong");
            this.me = me;
            this.rounds = rounds;
        }

        @Override
        public void run() {
            player(me, rounds);
        }
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15_000;
        if (args.length > 1) steps = Integer.parseInt(args[1]);
        Thread a = new Player(0, rounds);
        Thread b = new Player(1, rounds);
        a.start();
        b.start();
        a.join();
        b.join();
        System.out.println("pingpong " + rounds + " " + sum);
    }
}
