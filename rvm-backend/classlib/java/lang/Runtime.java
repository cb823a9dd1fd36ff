package java.lang;

public class Runtime {
    private static final Runtime currentRuntime = new Runtime();
    private Runtime() {}
    public static Runtime getRuntime() { return currentRuntime; }
    public int availableProcessors() { return availableProcessors0(); }
    public long maxMemory() { return maxMemory0(); }
    public long totalMemory() { return totalMemory0(); }
    public long freeMemory() { return freeMemory0(); }
    public void gc() { System.gc(); }
    public void exit(int status) { System.exit(status); }
    public void halt(int status) { System.halt(status); }

    // Shutdown hooks: registered as on the JDK and run by System.exit / Runtime.exit (each started,
    // then all joined) before the VM ends. rvm does not run them when the program ends because its
    // last non-daemon thread ended, nor on a termination signal.
    private static java.util.IdentityHashMap<Thread, Thread> hooks = new java.util.IdentityHashMap<>();
    private static boolean shuttingDown;

    public void addShutdownHook(Thread hook) {
        if (hook == null) throw new NullPointerException();
        synchronized (Runtime.class) {
            if (shuttingDown) throw new IllegalStateException("Shutdown in progress");
            if (hook.isAlive()) throw new IllegalArgumentException("Hook already running");
            if (hooks.containsKey(hook)) throw new IllegalArgumentException("Hook previously registered");
            hooks.put(hook, hook);
        }
    }

    public boolean removeShutdownHook(Thread hook) {
        if (hook == null) throw new NullPointerException();
        synchronized (Runtime.class) {
            if (shuttingDown) throw new IllegalStateException("Shutdown in progress");
            return hooks.remove(hook) != null;
        }
    }

    /** Starts every registered hook and waits for all of them; once only (a later exit halts at once). */
    static void runHooks() {
        java.util.Collection<Thread> threads;
        synchronized (Runtime.class) {
            if (shuttingDown) return;
            shuttingDown = true;
            threads = hooks.keySet();
        }
        for (Thread hook : threads) hook.start();
        for (Thread hook : threads) {
            while (true) {
                try {
                    hook.join();
                    break;
                } catch (InterruptedException ignored) {
                    // as the JDK: keep waiting
                }
            }
        }
    }
    private static native int availableProcessors0();
    private static native long maxMemory0();
    private static native long totalMemory0();
    private static native long freeMemory0();
}
