package itest;

/** Loops whose head is the method's first instruction: a branch back to offset 0. */
public class Loops {
    static int sink;

    public static void scenario() {
        sink = whileAtZero(3);
        sink = doWhileAtZero(2);
    }

    static int whileAtZero(int n) {
        while (n > 0) {
            n = step(n);
        }
        return n;
    }

    static int doWhileAtZero(int n) {
        do {
            n = step(n);
        } while (n > 0);
        return n;
    }

    static int step(int n) {
        return n - 1;
    }
}
