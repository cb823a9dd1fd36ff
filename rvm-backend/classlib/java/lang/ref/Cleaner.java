package java.lang.ref;

import java.util.concurrent.ThreadFactory;

/**
 * Runs cleaning actions when objects become phantom reachable, as the JDK's: each registration
 * is a phantom reference (kept in the cleaner's list) on the cleaner's queue, and a daemon thread
 * ("Cleaner-N" by default) takes the references the collector enqueues and runs their actions.
 * An action runs at most once, from that thread or from an explicit clean().
 */
public final class Cleaner {
    public interface Cleanable {
        void clean();
    }

    private static int threadNumber;

    final ReferenceQueue<Object> queue = new ReferenceQueue<>();
    /** The sentinel of the registered cleanables' list (guarded by it). */
    final PhantomCleanable list = new PhantomCleanable();

    private Cleaner() {}

    public static Cleaner create() {
        int n;
        synchronized (Cleaner.class) {
            n = threadNumber++;
        }
        return start(r -> new Thread(r, "Cleaner-" + n));
    }

    public static Cleaner create(ThreadFactory threadFactory) {
        if (threadFactory == null) throw new NullPointerException("threadFactory");
        return start(threadFactory);
    }

    private static Cleaner start(ThreadFactory f) {
        Cleaner c = new Cleaner();
        Thread t = f.newThread(c::run);
        if (t == null) throw new IllegalStateException("ThreadFactory returned null");
        t.setDaemon(true);
        t.start();
        return c;
    }

    private void run() {
        for (;;) {
            try {
                Reference<?> r = queue.remove(60_000L);
                if (r instanceof PhantomCleanable) ((PhantomCleanable) r).clean();
            } catch (Throwable e) {
                // as the JDK's: an action's exception is ignored
            }
        }
    }

    public Cleanable register(Object obj, Runnable action) {
        if (obj == null) throw new NullPointerException("obj");
        if (action == null) throw new NullPointerException("action");
        return new PhantomCleanable(obj, this, action);
    }

    static final class PhantomCleanable extends PhantomReference<Object> implements Cleanable {
        private final Runnable action;
        private final PhantomCleanable list;
        private PhantomCleanable prev = this, next = this;

        /** The list's sentinel. */
        PhantomCleanable() {
            super(null, null);
            this.action = null;
            this.list = this;
        }

        PhantomCleanable(Object referent, Cleaner cleaner, Runnable action) {
            super(referent, cleaner.queue);
            this.action = action;
            this.list = cleaner.list;
            synchronized (list) {
                next = list.next;
                prev = list;
                list.next.prev = this;
                list.next = this;
            }
        }

        /** Takes this out of the list; false if it was not in it (cleaned already). */
        private boolean unlink() {
            synchronized (list) {
                if (next == this) return false;
                prev.next = next;
                next.prev = prev;
                prev = next = this;
                return true;
            }
        }

        public void clean() {
            if (unlink()) {
                super.clear();
                action.run();
            }
        }

        public void clear() {
            if (unlink()) super.clear();
        }
    }
}
