package java.util.concurrent;

/** A worker of a ForkJoinPool (a daemon thread named as the JDK names them). */
public class ForkJoinWorkerThread extends Thread {
    final ForkJoinPool pool;
    final int index;

    protected ForkJoinWorkerThread(ForkJoinPool pool) {
        super("aForkJoinWorkerThread");
        this.pool = pool;
        this.index = pool.nextWorkerIndex();
        setName(pool.workerNamePrefix + (index + 1));
        setDaemon(true);
    }

    public ForkJoinPool getPool() { return pool; }
    public int getPoolIndex() { return index; }

    protected void onStart() {}
    protected void onTermination(Throwable exception) {}

    public void run() {
        Throwable ex = null;
        try {
            onStart();
            pool.runWorker(this);
        } catch (Throwable t) {
            ex = t;
        } finally {
            try {
                onTermination(ex);
            } finally {
                pool.workerExit(this);
            }
        }
    }
}
