import java.util.concurrent.locks.LockSupport;

/**
 * Two threads hand a turn back and forth with park and unpark (every hand-over parks one thread
 * and unparks the other), then a sleep and an Object.wait: the switches of this program name
 * each of those reasons.
 */
public class JucPark {
    static volatile int turn;
    static final int ROUNDS = 2000;

    public static void main(String[] args) throws Exception {
        Thread[] players = new Thread[2];
        for (int p = 0; p < 2; p++) {
            final int me = p;
            players[p] = new Thread(() -> {
                for (int i = 0; i < ROUNDS; i++) {
                    while (turn != me) LockSupport.park(JucPark.class);
                    turn = 1 - me;
                    LockSupport.unpark(players[1 - me]);
                }
            }, "player-" + p);
        }
        for (Thread t : players) t.start();
        for (Thread t : players) t.join();
        System.out.println("ping-pong " + ROUNDS + " rounds, turn " + turn);
        Thread.sleep(5);
        Object o = new Object();
        synchronized (o) {
            o.wait(5);
        }
        System.out.println("slept and waited");
    }
}
