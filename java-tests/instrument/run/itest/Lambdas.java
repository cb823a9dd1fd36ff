package itest;

import java.util.function.IntUnaryOperator;

/** Lambda bodies are methods of this class (lambda$...): instrumented; their proxies are hidden classes. */
public class Lambdas {
    static int sink;

    public static void scenario() {
        IntUnaryOperator f = y -> helper(y) + 1;
        sink = f.applyAsInt(2);
        Runnable r = () -> {
            throw new IllegalStateException("lambda");
        };
        try {
            r.run();
        } catch (IllegalStateException e) {
            sink = -1;
        }
        IntUnaryOperator ref = Lambdas::helper;
        sink = ref.applyAsInt(3);
    }

    static int helper(int y) {
        return y * 2;
    }
}
