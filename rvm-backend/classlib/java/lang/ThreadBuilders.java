package java.lang;

import java.util.concurrent.ThreadFactory;

/** The Thread.Builder implementations: platform and virtual threads (both rvm green threads). */
final class ThreadBuilders {
    private ThreadBuilders() {}

    private abstract static class Base<B> {
        String name;
        long counter = -1;
        Thread.UncaughtExceptionHandler ueh;

        abstract B self();

        public B name(String name) {
            if (name == null) throw new NullPointerException();
            this.name = name;
            this.counter = -1;
            return self();
        }
        public B name(String prefix, long start) {
            if (prefix == null) throw new NullPointerException();
            if (start < 0) throw new IllegalArgumentException("'start' is negative");
            this.name = prefix;
            this.counter = start;
            return self();
        }
        public B inheritInheritableThreadLocals(boolean inherit) { return self(); }
        public B uncaughtExceptionHandler(Thread.UncaughtExceptionHandler ueh) {
            if (ueh == null) throw new NullPointerException();
            this.ueh = ueh;
            return self();
        }
        /** The next thread's name (a counted name advances the counter). */
        synchronized String nextName() {
            if (name != null && counter >= 0) return name + (counter++);
            return name;
        }
    }

    static final class OfPlatformBuilder extends Base<Thread.Builder.OfPlatform> implements Thread.Builder.OfPlatform {
        private Boolean daemon;
        private int priority;

        Thread.Builder.OfPlatform self() { return this; }
        public Thread.Builder.OfPlatform group(ThreadGroup group) {
            if (group == null) throw new NullPointerException();
            return this;
        }
        public Thread.Builder.OfPlatform daemon(boolean on) {
            daemon = on;
            return this;
        }
        public Thread.Builder.OfPlatform priority(int priority) {
            if (priority < Thread.MIN_PRIORITY || priority > Thread.MAX_PRIORITY) throw new IllegalArgumentException();
            this.priority = priority;
            return this;
        }
        public Thread.Builder.OfPlatform stackSize(long stackSize) {
            if (stackSize < 0) throw new IllegalArgumentException();
            return this;
        }
        public Thread unstarted(Runnable task) {
            if (task == null) throw new NullPointerException();
            String n = nextName();
            Thread t = n == null ? new Thread(task) : new Thread(task, n);
            if (daemon != null) t.setDaemon(daemon);
            if (priority != 0) t.setPriority(priority);
            if (ueh != null) t.setUncaughtExceptionHandler(ueh);
            return t;
        }
        public Thread start(Runnable task) {
            Thread t = unstarted(task);
            t.start();
            return t;
        }
        public ThreadFactory factory() { return this::unstarted; }
    }

    static final class OfVirtualBuilder extends Base<Thread.Builder.OfVirtual> implements Thread.Builder.OfVirtual {
        Thread.Builder.OfVirtual self() { return this; }
        public Thread unstarted(Runnable task) {
            if (task == null) throw new NullPointerException();
            Thread t = new Thread(task, nextName(), true);
            if (ueh != null) t.setUncaughtExceptionHandler(ueh);
            return t;
        }
        public Thread start(Runnable task) {
            Thread t = unstarted(task);
            t.start();
            return t;
        }
        public ThreadFactory factory() { return this::unstarted; }
    }
}
