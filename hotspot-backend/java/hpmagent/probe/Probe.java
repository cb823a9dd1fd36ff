package hpmagent.probe;

import jdk.internal.vm.annotation.Contended;
import jdk.internal.vm.annotation.DontInline;

/**
 * The bytecode probes. The agent inserts {@code Probe.enter(id)} at the start of every instrumented
 * method, {@code Probe.exit(shadow, id)} before each of its returns, {@code caught(shadow, id)} at its
 * exception handlers and {@code thrown(shadow, id)} in a catch-all handler, and defines this class in
 * the boot loader at VM start-up (it is never instrumented itself). {@code enter} returns the
 * thread's {@link Shadow}, which the method keeps in a local variable of its own and hands to its
 * other probes (hpm-instrument's carried context), so only the entry probe looks the Shadow up
 * ({@link #current}: a field the agent added to {@code java.lang.Thread}, or a thread-local).
 *
 * Each thread keeps its own calling-context tree ({@link Shadow}) in Java arrays: entering a method
 * moves to (or creates) the child of the current context and counts a call; exiting moves back to the
 * parent. No native call and no system call happens per call: every probe is one out-of-line
 * call ({@code @DontInline}), which checks {@link #state} and does its work there. Time and
 * counters are not read here: the agent samples them and credits each sample to the context whose
 * id the probes keep in a per-thread native cell ({@code Shadow.cell}). In exact mode
 * ({@code metric-mode=exact}) each change of context instead goes through the agent
 * ({@link #switchTo}), which reads the metrics and credits them to the context being left.
 *
 * The agent reads the trees through {@link #export} and switches recording through {@link #state}.
 */
public final class Probe {
    private Probe() {}

    /**
     * Set by the agent: bit 0 = recording (probes do nothing while clear: one call, a load and a
     * branch); the rest grows by 2 each time a recording window opens, so each thread
     * re-synchronises its context with its real stack at its next probe. One volatile field, so a
     * probe reads one value.
     */
    static volatile int state;

    /**
     * jdk.internal.misc.Unsafe, in a class of its own, first used by the first probe that records:
     * resolving it needs java.base to export jdk.internal.misc to the probes, which the agent
     * arranges only when recording first starts (the export runs Java code that bootstraps lambdas,
     * about 10 ms, which a run that stays paused should not pay).
     */
    static final class Mem {
        static final jdk.internal.misc.Unsafe U = jdk.internal.misc.Unsafe.getUnsafe();

        /**
         * Where the field {@code hpmagent$shadow} is in a {@code java.lang.Thread}, or -1. The agent
         * adds that field to Thread at its load, when it is loaded at VM start-up (thread-field=on):
         * a probe then finds the thread's Shadow in three dependent loads (the thread, its object,
         * the field), where {@code ThreadLocal.get} takes seven (the map, its table, the entry, its
         * referent, its value), about 4 ns of the probed call. A constant to the JIT.
         */
        static final long SHADOW_AT = shadowField();

        private static long shadowField() {
            try {
                return U.objectFieldOffset(Thread.class, "hpmagent$shadow");
            } catch (Throwable t) {
                return -1; // not added: the agent was attached late, or thread-field=off
            }
        }
    }

    /** The calling thread's Shadow (created at its first probe). */
    static Shadow current() {
        long at = Mem.SHADOW_AT;
        if (at < 0) {
            return SHADOW.get();
        }
        Thread t = Thread.currentThread();
        Object s = Mem.U.getReference(t, at);
        return s != null ? (Shadow) s : adopt(t, at);
    }

    /**
     * The thread's first probe with the field: its Shadow (from the thread-local, which creates and
     * registers it) goes into its Thread. Only the thread itself writes the field.
     */
    private static Shadow adopt(Thread t, long at) {
        Shadow s = SHADOW.get();
        Mem.U.putReference(t, at, s);
        return s;
    }

    /** Set once by the agent before any probe runs: a constant to the JIT, so sampled mode pays nothing. */
    static final boolean EXACT = exactMode();

    /** Makes {@code k} the current context of the thread whose cell is {@code cell}. */
    static void moveTo(long cell, int k) {
        if (EXACT) {
            switchTo(cell, k);
        } else {
            Mem.U.putInt(cell, k);
        }
    }

    private static final ThreadLocal<Shadow> SHADOW = new ThreadLocal<Shadow>() {
        @Override
        protected Shadow initialValue() {
            // The JDK erases the thread locals of some threads between tasks (InnocuousThread:
            // Common-Cleaner, the common pool's workers): a thread the agent knows goes on in its
            // own tree. (No Java method is called here: with include=* it would have probes,
            // whose lookup would come back here.)
            Shadow s = existing();
            return s != null ? s : Shadow.create();
        }
    };

    /** The agent: the Shadow it already holds for the calling thread (null: none). */
    static native Shadow existing();

    /*
     * The Shadow a method's entry probe returned is the right one for its other probes: a frame
     * stays on its thread (a virtual thread's frames move with it from carrier to carrier, and its
     * thread-local is its own). It is null when recording was off at the entry; a window may have
     * opened since, so a probe that records with a null Shadow looks it up (as every probe did
     * before the Shadow was carried). Frames that began before the probes were in run their old
     * code and call no probe.
     *
     * Every probe is a call, never inlined. Inlined into every probed method (and into every
     * method the JIT inlines it into), the thread-local lookup and the tree's code made compiled
     * methods several times larger, so HotSpot inlined less and compiled more (on the H2 driver:
     * 4.7x as many C2 compilations, and 4.1x its time without the agent instead of 3.0x). Inlining
     * only the check of the state, with the work behind it out of line, still left a load, a test
     * and a call at each site: with the check inside the call too, the H2 driver's compilations
     * took 2.6 s instead of 3.0 s (JDK 17, -XX:+CITime) and its run 8% less time. The check gains
     * nothing inline anyway: while recording is stopped the classes carry no probes (they are
     * retransformed without them), so a probe runs almost only while recording. Inlining the
     * common path (the state, the Shadow from the Thread field, a hint that hits) with only the
     * rest out of line made fib 36% faster, but the H2 driver 50% and Sunflow 12% slower
     * (2026-11-29, JDK 17); left to C2's heuristics, or forced only into methods of at most 35
     * bytes, H2 still took 14% and 25% longer over a run with its warm-up, though once compiled it
     * ran 3-8% faster. Inlined, the probes' samples land in the caller's compiled method. Told
     * apart again there by the frames AsyncGetCallTrace names (with DebugNonSafepoints), the
     * inlined common path made fib 34% faster, H2's steady state no faster in a second series of
     * runs, and Sunflow's self times less faithful (WaldTriangle.intersect 8.4% against 16.6%
     * sampled; out of line 13-14%): the JIT moves the program's code across the inlined stores of
     * the context cell, and the program changes more around inlined probes (docs/agent.md).
     */
    /**
     * The entry of method {@code m}; returns the thread's Shadow for the method's other probes, or
     * null while not recording.
     */
    @DontInline
    public static Shadow enter(int m) {
        int st = state;
        if ((st & 1) == 0) {
            return null;
        }
        Shadow s = current();
        s.enter(m, st);
        return s;
    }

    /** An exit of {@code m}; {@code s}: what its entry returned. */
    @DontInline
    public static void exit(Shadow s, int m) {
        int st = state;
        if ((st & 1) == 0) {
            return;
        }
        if (s == null) {
            s = current();
        }
        s.exit(m, st);
    }

    /** An exit by exception (the catch-all handler): an exit, counted as thrown. */
    @DontInline
    public static void thrown(Shadow s, int m) {
        int st = state;
        if ((st & 1) == 0) {
            return;
        }
        if (s == null) {
            s = current();
        }
        s.thrown++;
        s.exit(m, st);
    }

    /**
     * The start of one of the method's own exception handlers: the method is current again. Frames
     * above it that left without an exit probe (an exception out of a super constructor call, which
     * no handler of the constructor may cover) are closed here.
     */
    @DontInline
    public static void caught(Shadow s, int m) {
        int st = state;
        if ((st & 1) == 0) {
            return;
        }
        if (s == null) {
            s = current();
        }
        if (s.epoch != st) {
            return; // the next probe re-synchronises with the stack anyway
        }
        int c = s.cur;
        if (s.method[c] != m) {
            int k = c;
            int popped = 0;
            while (k != 0 && s.method[k] != m) {
                k = s.parent[k];
                popped++;
            }
            if (k != 0) {
                s.cur = k;
                s.thrown += popped; // they left by the exception caught here
                moveTo(s.cell, k);
            }
        }
    }

    /** A private tree for {@link #calibrate}: never registered, its cell private memory. */
    private static final ThreadLocal<Shadow> CALIBRATION = new ThreadLocal<Shadow>() {
        @Override
        protected Shadow initialValue() {
            Shadow s = new Shadow();
            s.method[0] = -1;
            s.cell = Shadow.SPARE;
            return s;
        }
    };

    /**
     * The agent: the cost of one probed call (an entry probe with its thread-local lookup, and an
     * exit probe given the Shadow the entry returned) in ns, as the minimum over {@code rounds}
     * batches of {@code pairs} calls, minus the same loop without probes. Runs the probes' own code
     * on a private tree, so the JIT compiles it as it compiles the real probes; the first batches
     * are its warm-up.
     */
    static double calibrate(int rounds, int pairs) {
        // With the Thread field, the private tree takes the calling thread's field while this
        // runs (the thread runs no other probed code meanwhile), so the calibration's probes
        // look it up as the real ones do.
        long at = Mem.SHADOW_AT;
        Thread t = Thread.currentThread();
        Object saved = at >= 0 ? Mem.U.getReference(t, at) : null;
        if (at >= 0) {
            Mem.U.putReference(t, at, CALIBRATION.get());
        }
        try {
            return calibrateRounds(rounds, pairs);
        } finally {
            if (at >= 0) {
                Mem.U.putReference(t, at, saved);
            }
        }
    }

    private static double calibrateRounds(int rounds, int pairs) {
        int st = 1;
        double best = Double.MAX_VALUE;
        double empty = Double.MAX_VALUE;
        for (int r = 0; r < rounds; r++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < pairs; i++) {
                Shadow s = calibrationEnter(1, st);
                calibrationExit(s, 1, st);
            }
            long t1 = System.nanoTime();
            int sink = 0;
            for (int i = 0; i < pairs; i++) {
                sink += i & 1;
            }
            long t2 = System.nanoTime();
            blackhole = sink;
            best = Math.min(best, (t1 - t0) / (double) pairs);
            empty = Math.min(empty, (t2 - t1) / (double) pairs);
        }
        return Math.max(0.0, best - empty);
    }

    static volatile int blackhole;

    /** {@link #enter} on the private tree: the same out-of-line call, lookup and work. */
    @DontInline
    static Shadow calibrationEnter(int m, int st) {
        Shadow s = Mem.SHADOW_AT >= 0 ? current() : CALIBRATION.get();
        s.epoch = st;
        s.enter(m, st);
        return s;
    }

    /** {@link #exit} on the private tree, given its Shadow. */
    @DontInline
    static void calibrationExit(Shadow s, int m, int st) {
        if (s == null) {
            s = Mem.SHADOW_AT >= 0 ? current() : CALIBRATION.get();
        }
        s.exit(m, st);
    }

    /** The agent: registers the calling thread's tree; returns the address of its context cell, or 0. */
    static native long register(Shadow s);

    /** The agent: the probe ids of the calling thread's stack, outermost first (probed methods only). */
    static native int[] stack();

    /** The agent: whether the metrics are credited at every change of context (exact mode). */
    private static native boolean exactMode();

    /**
     * The agent, exact mode: credits the metrics the thread used since the last change to the
     * context in {@code cell}, then stores {@code k} there.
     */
    private static native void switchTo(long cell, int k);

    /**
     * The agent, from any thread: a copy of a tree as {@code [n, parent_1, method_1, calls_1, ...,
     * thrown]} for nodes 1..n-1 (node 0 is the root), then the exits by exception. Racy by design:
     * counts may be a few calls behind.
     */
    static long[] export(Shadow s) {
        int n = s.size; // volatile read: every node below n is complete
        int[] parent = s.parent;
        int[] method = s.method;
        long[] calls = s.calls;
        long[] out = new long[2 + 3 * (n - 1)];
        out[0] = n;
        out[out.length - 1] = s.thrown;
        for (int i = 1, j = 1; i < n; i++, j += 3) {
            out[j] = parent[i];
            out[j + 1] = method[i];
            out[j + 2] = calls[Shadow.PAD + i];
        }
        return out;
    }

    /**
     * One thread's calling-context tree. Node 0 is the root (the thread); arrays grow by doubling.
     *
     * Every probe writes {@code cur} and {@code calls}, and some {@code hints}: no other thread's
     * data may share their cache lines, or every call of two busy threads bounces a line between
     * their cores (false sharing). Each thread allocates its Shadow in its own TLAB, but a GC copies
     * live objects of many threads next to each other, so the padding is in the objects themselves:
     * {@code @Contended} puts 128 bytes before and after the fields (honoured without
     * -XX:-RestrictContended: this class is in the boot loader), and the written arrays keep
     * {@link #PAD} unused elements (128 bytes) at each end, so their used part never shares a line
     * with a neighbour. The other arrays are written only when a node is created.
     */
    @Contended
    static final class Shadow {
        /** Unused longs (128 bytes) at each end of {@link #calls}; ints at each end of {@link #hints}: 2 * PAD. */
        static final int PAD = 16;
        int cur;
        int epoch;
        /** Address of the native cell where the current node is mirrored for the agent's sampler. */
        long cell;
        /** Exits by exception. */
        long thrown;
        /** Set when a probe failed on this thread (out of memory): the thread is not recorded further. */
        boolean broken;
        /** Published after a node is complete; read by {@link #export}. */
        volatile int size = 1;
        /*
         * Small at first, doubled as needed: a program may run millions of virtual threads, each
         * with a tree of its own, most of them a few nodes.
         */
        int[] parent = new int[16];
        int[] method = new int[16];
        /**
         * {@link #HINTS} hints per node, at {@code 2 * PAD + HINTS * node}: the child last entered
         * from it for a method whose id ends in the slot's three bits (direct-mapped; a miss goes
         * to the index and puts the child found in the slot). Code that calls several methods in
         * turn from one context finds them all without the index: Sunflow's {@code Ray.transform}
         * calls six in a row, {@code KDTree.intersect} five; with the two most recent children
         * as hints (until 2026-11-29) 38% of Sunflow's probed calls went to the index, with these
         * slots 18% (methods of one class have consecutive ids, so they take different slots):
         * 7.5% less time on Sunflow, 2.7% on fib and on the H2 driver, for 24 more bytes a node.
         * Measured on Sunflow and not kept: the method id kept in the slot beside the child (a
         * long each, so a hit loads no {@code method[k]}), two-way slots, and all eight slots
         * searched before the index (index lookups 71% fewer): none took less time. The index
         * is not where the time goes (two-way slots cut its lookups by 14% for nothing), and
         * larger slots cost more in cache misses than the lookups they save.
         */
        int[] hints = new int[HINTS * 16 + 4 * PAD];
        /** Hint slots per node (a power of two). */
        static final int HINTS = 8;
        /** Calls per node, at {@code PAD + node}. */
        long[] calls = new long[16 + 2 * PAD];
        /** Open-addressing index (parent, method) → node for nodes with several children. */
        int[] index = new int[32];
        /** A private cell for threads the agent could not register, so probes never check. */
        static final long SPARE = Mem.U.allocateMemory(8);

        void enter(int m, int st) {
            if (epoch != st && !sync(m, true, st)) {
                return;
            }
            int c = cur;
            int at = 2 * PAD + HINTS * c + (m & (HINTS - 1));
            int k = hints[at];
            if (method[k] != m) { // node 0 (the root, method -1) is no method's child
                k = child(c, m);
                if (k < 0) {
                    return;
                }
                hints[at] = k; // child() may have grown the arrays
            }
            calls[PAD + k]++;
            cur = k;
            moveTo(cell, k);
        }

        void exit(int m, int st) {
            if (epoch != st && !sync(m, false, st)) {
                return;
            }
            int c = cur;
            if (method[c] == m) {
                c = parent[c];
            } else {
                c = unwindTo(c, m);
            }
            cur = c;
            moveTo(cell, c);
        }

        static Shadow create() {
            Shadow s = new Shadow();
            s.method[0] = -1;
            s.epoch = -1; // synchronise with the real stack at the first probe (state is never -1)
            long cell = 0;
            try {
                cell = register(s);
            } catch (Throwable t) {
                s.broken = true;
            }
            if (cell == 0) {
                s.broken = true;
                cell = SPARE;
            }
            s.cell = cell;
            return s;
        }

        /**
         * Makes the current context the thread's real stack (without counting calls): at the first
         * probe of a thread and of each recording window. {@code entering}: the innermost frame is the
         * method being entered, whose call the probe counts next. False if this thread is not recorded.
         */
        boolean sync(int m, boolean entering, int st) {
            if (broken) {
                return false;
            }
            try {
                int[] ids = stack();
                int n = ids.length;
                if (entering && n > 0 && ids[n - 1] == m) {
                    n--;
                }
                int c = 0;
                for (int i = 0; i < n; i++) {
                    int k = child(c, ids[i]);
                    if (k < 0) {
                        return false;
                    }
                    c = k;
                }
                cur = c;
                moveTo(cell, c);
                epoch = st;
                return true;
            } catch (StackOverflowError e) {
                return false; // the stack is nearly full: the next probe tries again
            } catch (Throwable t) {
                broken = true;
                return false;
            }
        }

        /**
         * An exit that does not match the current context: a frame below exited without its exit probe
         * (it started before the probes were in place). Closes contexts up to and including the nearest
         * one of {@code m}; if there is none, the exit is ignored.
         */
        int unwindTo(int c, int m) {
            for (int k = c; k != 0; k = parent[k]) {
                if (method[k] == m) {
                    return parent[k];
                }
            }
            return c;
        }

        /** The child of {@code c} for method {@code m}, created if new; -1 if out of memory. */
        int child(int c, int m) {
            if (broken) {
                return -1;
            }
            int[] idx = index;
            int mask = idx.length - 1;
            int h = hash(c, m) & mask;
            while (true) {
                int k = idx[h];
                if (k == 0) {
                    break;
                }
                if (parent[k] == c && method[k] == m) {
                    return k;
                }
                h = (h + 1) & mask;
            }
            try {
                int k = size;
                if (k == parent.length) {
                    grow();
                }
                parent[k] = c;
                method[k] = m;
                if (2 * (k + 1) > index.length) {
                    rehash(index.length * 2, k);
                } else {
                    place(index, k);
                }
                size = k + 1;
                return k;
            } catch (StackOverflowError e) {
                /*
                 * The program's stack is nearly full, and this probe's own frames overflowed it:
                 * this call is not counted, and the thread goes on being recorded. Its exit (or
                 * the exits of the frames that the error unwinds) close contexts up to the nearest
                 * one of their method, and the handler that catches the error makes its method
                 * current again (caught), so the tree is in step once the error is caught.
                 */
                return -1;
            } catch (Throwable t) { // OutOfMemoryError: stop recording this thread, never fail the program
                broken = true;
                return -1;
            }
        }

        private static int hash(int c, int m) {
            int h = c * 0x9E3779B1 + m;
            return h ^ (h >>> 15);
        }

        private void place(int[] idx, int k) {
            int mask = idx.length - 1;
            int h = hash(parent[k], method[k]) & mask;
            while (idx[h] != 0) {
                h = (h + 1) & mask;
            }
            idx[h] = k;
        }

        private void rehash(int capacity, int upTo) {
            int[] idx = new int[capacity];
            for (int k = 1; k <= upTo; k++) {
                place(idx, k);
            }
            index = idx;
        }

        private void grow() {
            int n = parent.length * 2;
            // Copies first, then publish: export() may read the arrays at any time.
            int[] p = new int[n];
            int[] me = new int[n];
            int[] l = new int[HINTS * n + 4 * PAD];
            long[] ca = new long[n + 2 * PAD];
            System.arraycopy(parent, 0, p, 0, parent.length);
            System.arraycopy(method, 0, me, 0, method.length);
            System.arraycopy(hints, 0, l, 0, 2 * PAD + HINTS * parent.length);
            System.arraycopy(calls, 0, ca, 0, PAD + parent.length);
            parent = p;
            method = me;
            hints = l;
            calls = ca;
        }
    }
}
