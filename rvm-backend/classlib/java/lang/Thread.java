package java.lang;

public class Thread implements Runnable {
    private ClassLoader contextClassLoader = ClassLoader.getSystemClassLoader();
    public ClassLoader getContextClassLoader() { return contextClassLoader; }
    private java.util.IdentityHashMap<ThreadLocal<?>, Object> threadLocals;
    java.util.IdentityHashMap<ThreadLocal<?>, Object> threadLocals(boolean create) {
        if (threadLocals == null && create) threadLocals = new java.util.IdentityHashMap<>();
        return threadLocals;
    }
    public void setContextClassLoader(ClassLoader cl) { contextClassLoader = cl; }
    public static final int MIN_PRIORITY = 1;
    public static final int NORM_PRIORITY = 5;
    public static final int MAX_PRIORITY = 10;

    private volatile String name;
    private int priority = NORM_PRIORITY;
    private boolean daemon;
    private Runnable target;
    /** The VM's thread id (-1 until started). */
    private int tid = -1;
    private boolean started;
    private volatile boolean alive;
    private UncaughtExceptionHandler uncaughtExceptionHandler;
    /** What this thread is parked on (LockSupport.getBlocker), set through jdk.internal.rvm.Atomic. */
    private volatile Object parkBlocker;

    private static int threadInitNumber;
    private static long threadSeqNumber = 1;
    private final long id;

    public interface UncaughtExceptionHandler {
        void uncaughtException(Thread t, Throwable e);
    }
    private static UncaughtExceptionHandler defaultHandler;

    private static synchronized int nextThreadNum() { return threadInitNumber++; }
    private static synchronized long nextThreadId() { return ++threadSeqNumber; }

    public Thread() { this(null, null); }
    public Thread(Runnable target) { this(target, null); }
    public Thread(String name) { this(null, name); }
    public Thread(Runnable target, String name) {
        if (name == null) name = "Thread-" + nextThreadNum();
        this.name = name;
        this.target = target;
        Thread parent = currentThread();
        if (parent != null) {
            this.daemon = parent.daemon;
            this.priority = parent.priority;
        }
        this.id = nextThreadId();
        this.virtual = false;
    }
    public Thread(ThreadGroup group, Runnable target, String name) { this(target, name); }
    /** A thread made by a Thread.Builder: its name as given ("" for none), virtual or not. */
    Thread(Runnable target, String name, boolean virtual) {
        this.name = name == null ? "" : name;
        this.target = target;
        this.virtual = virtual;
        Thread parent = currentThread();
        if (virtual) {
            this.daemon = true;
        } else if (parent != null) {
            this.daemon = parent.daemon;
            this.priority = parent.priority;
        }
        this.id = nextThreadId();
    }

    /** A virtual thread is an ordinary rvm thread (rvm's threads are green threads already), daemon. */
    private final boolean virtual;
    public final boolean isVirtual() { return virtual; }
    public final long threadId() { return id; }

    public static Builder.OfVirtual ofVirtual() { return new ThreadBuilders.OfVirtualBuilder(); }
    public static Builder.OfPlatform ofPlatform() { return new ThreadBuilders.OfPlatformBuilder(); }
    public static Thread startVirtualThread(Runnable task) {
        if (task == null) throw new NullPointerException();
        Thread t = new Thread(task, "", true);
        t.start();
        return t;
    }

    /** Thread.Builder (Java 21): makes platform or virtual threads. */
    public interface Builder {
        Builder name(String name);
        Builder name(String prefix, long start);
        Builder inheritInheritableThreadLocals(boolean inherit);
        Builder uncaughtExceptionHandler(UncaughtExceptionHandler ueh);
        Thread unstarted(Runnable task);
        Thread start(Runnable task);
        java.util.concurrent.ThreadFactory factory();

        interface OfPlatform extends Builder {
            OfPlatform name(String name);
            OfPlatform name(String prefix, long start);
            OfPlatform inheritInheritableThreadLocals(boolean inherit);
            OfPlatform uncaughtExceptionHandler(UncaughtExceptionHandler ueh);
            OfPlatform group(ThreadGroup group);
            default OfPlatform daemon() { return daemon(true); }
            OfPlatform daemon(boolean on);
            OfPlatform priority(int priority);
            OfPlatform stackSize(long stackSize);
        }

        interface OfVirtual extends Builder {
            OfVirtual name(String name);
            OfVirtual name(String prefix, long start);
            OfVirtual inheritInheritableThreadLocals(boolean inherit);
            OfVirtual uncaughtExceptionHandler(UncaughtExceptionHandler ueh);
        }
    }

    public static native Thread currentThread();

    public synchronized void start() {
        if (started) throw new IllegalThreadStateException();
        started = true;
        alive = true;
        start0();
    }
    private native void start0();

    public void run() { if (target != null) target.run(); }

    /** First frame of every started thread. */
    private void runThread() {
        try {
            run();
        } catch (Throwable t) {
            dispatchUncaught(t);
        } finally {
            exit();
        }
    }
    private void dispatchUncaught(Throwable t) {
        UncaughtExceptionHandler h = uncaughtExceptionHandler != null ? uncaughtExceptionHandler : defaultHandler;
        if (h != null) {
            h.uncaughtException(this, t);
        } else {
            System.err.print("Exception in thread \"" + getName() + "\" ");
            t.printStackTrace(System.err);
        }
    }
    /** Called by the VM when the main thread ends with an exception. */
    private void uncaughtFromVm(Throwable t) {
        try {
            dispatchUncaught(t);
        } finally {
            exit();
        }
    }
    private void exit() {
        synchronized (this) {
            alive = false;
            notifyAll();
        }
    }

    public final boolean isAlive() { return alive; }
    public final void join() throws InterruptedException {
        synchronized (this) {
            while (alive) wait(0);
        }
    }
    public final void join(long millis) throws InterruptedException {
        if (millis < 0) throw new IllegalArgumentException("timeout value is negative");
        if (millis == 0) { join(); return; }
        synchronized (this) {
            long deadline = System.currentTimeMillis() + millis;
            while (alive) {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) break;
                wait(left);
            }
        }
    }
    public static void sleep(long millis) throws InterruptedException {
        if (millis < 0) throw new IllegalArgumentException("timeout value is negative");
        sleep0(millis);
    }
    public static void sleep(long millis, int nanos) throws InterruptedException {
        if (nanos > 0 && millis < Long.MAX_VALUE) millis++;
        sleep(millis);
    }
    private static native void sleep0(long millis) throws InterruptedException;
    public static void yield() { yield0(); }
    private static native void yield0();
    public static void onSpinWait() { yield0(); }

    public void interrupt() { interrupt0(tid); }
    private native void interrupt0(int tid);
    public static boolean interrupted() { Thread t = currentThread(); return t.isInterrupted0(t.tid, true); }
    public boolean isInterrupted() { return isInterrupted0(tid, false); }
    private native boolean isInterrupted0(int tid, boolean clear);
    public static native boolean holdsLock(Object obj);

    public final String getName() { return name; }
    public final synchronized void setName(String name) {
        if (name == null) throw new NullPointerException("name cannot be null");
        this.name = name;
    }
    public final boolean isDaemon() { return daemon; }
    public final void setDaemon(boolean on) {
        if (started) throw new IllegalThreadStateException();
        daemon = on;
    }
    public final int getPriority() { return priority; }
    public final void setPriority(int newPriority) {
        if (newPriority > MAX_PRIORITY || newPriority < MIN_PRIORITY) throw new IllegalArgumentException();
        priority = newPriority;
    }
    public long getId() { return id; }
    public State getState() {
        if (!started) return State.NEW;
        if (!alive) return State.TERMINATED;
        switch (state0(tid)) {
            case 1: return State.BLOCKED;
            case 2: return State.WAITING;
            case 3: return State.TIMED_WAITING;
            case 4: return State.TERMINATED;
            default: return State.RUNNABLE;
        }
    }
    private native int state0(int tid);
    public enum State { NEW, RUNNABLE, BLOCKED, WAITING, TIMED_WAITING, TERMINATED }
    public void setUncaughtExceptionHandler(UncaughtExceptionHandler h) { uncaughtExceptionHandler = h; }
    public UncaughtExceptionHandler getUncaughtExceptionHandler() { return uncaughtExceptionHandler; }
    public static void setDefaultUncaughtExceptionHandler(UncaughtExceptionHandler h) { defaultHandler = h; }
    public ThreadGroup getThreadGroup() { return (started && !alive) ? null : ThreadGroup.MAIN; }
    public String toString() {
        ThreadGroup g = getThreadGroup();
        return "Thread[" + getName() + "," + getPriority() + "," + (g == null ? "" : g.getName()) + "]";
    }
}
