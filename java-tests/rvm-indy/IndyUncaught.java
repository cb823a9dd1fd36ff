import java.util.function.Supplier;

/** An exception thrown in a lambda body and not caught: the trace shows no frame of the lambda's class. */
public class IndyUncaught {
    public static void main(String[] args) {
        Supplier<String> s = () -> {
            throw new IllegalStateException("thrown in a lambda " + args.length);
        };
        System.out.println("before");
        s.get();
    }
}
