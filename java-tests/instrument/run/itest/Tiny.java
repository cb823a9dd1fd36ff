package itest;

/** Small methods, trivial or not (hpm-instrument's MethodInfo::trivial); never run. */
public class Tiny {
    int x;
    static int total;

    int get() { return x; }

    void set(int v) { x = v; }

    static int max(int a, int b) { return a > b ? a : b; }

    static void add(int v) { total += v; }

    synchronized int lockedGet() { return x; }

    static int guarded(int[] a) {
        try {
            return a[0];
        } catch (ArrayIndexOutOfBoundsException e) {
            return 0;
        }
    }

    static int sum(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) s += i;
        return s;
    }

    int getViaCall() { return get(); }

    static int[] make() { return new int[1]; }
}
