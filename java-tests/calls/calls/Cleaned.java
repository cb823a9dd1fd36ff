package calls;

import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * 100 objects registered with a Cleaner, each cleaned by an action that calls clean() once. A
 * Cleaner's thread is an InnocuousThread, whose thread locals the JDK erases after every action:
 * the probes must go on recording it in its one tree (100 calls of Action.run and of clean on the
 * thread "Cleaner-0"), not start a second tree that is not recorded.
 */
public class Cleaned {
    static final AtomicInteger CLEANED = new AtomicInteger();

    static void clean() {
        CLEANED.incrementAndGet();
    }

    static final class Action implements Runnable {
        @Override
        public void run() {
            clean();
        }
    }

    public static void main(String[] args) throws Exception {
        Cleaner cleaner = Cleaner.create();
        for (int i = 0; i < 100; i++) {
            cleaner.register(new Object(), new Action());
        }
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (CLEANED.get() < 100 && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(20);
        }
        System.out.println("cleaned " + CLEANED.get());
    }
}
