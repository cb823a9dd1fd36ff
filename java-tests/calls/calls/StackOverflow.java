package calls;

/**
 * Overflows the stack by unbounded recursion, catches the StackOverflowError, then makes known
 * calls: 3 rounds, each 1000 calls of leaf() and one of after(). Whatever the depth reached, every
 * call after the error is caught must be recorded (with probes, an error thrown inside the
 * probes' own frames once stopped the thread's recording for good).
 */
public class StackOverflow {
    static int depth(int n) {
        return depth(n + 1) + 1;
    }

    static int leaf(int i) {
        return i * 2;
    }

    static void after() {}

    public static void main(String[] args) {
        long s = 0;
        for (int r = 0; r < 3; r++) {
            try {
                depth(0);
            } catch (StackOverflowError e) {
                s++;
            }
            for (int i = 0; i < 1000; i++) {
                s += leaf(i);
            }
            after();
        }
        System.out.println("overflows " + s);
    }
}
