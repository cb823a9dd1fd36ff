import java.util.function.IntSupplier;

/** A lambda (invokedynamic to LambdaMetafactory): rvm links it and prints what HotSpot prints. */
public class Lambda {
    public static void main(String[] args) {
        System.out.println("before");
        IntSupplier s = () -> 42;
        System.out.println(s.getAsInt());
    }
}
