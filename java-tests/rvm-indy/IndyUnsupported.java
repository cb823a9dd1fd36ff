import java.util.function.IntSupplier;

/** A lambda; the test rewrites its bootstrap method's name so rvm meets one it does not know. */
public class IndyUnsupported {
    public static void main(String[] args) {
        System.out.println("before");
        IntSupplier s = () -> 42;
        System.out.println(s.getAsInt());
    }
}
