import java.util.function.IntSupplier;

/** Needs invokedynamic (a lambda): rvm must refuse it with one clear error. */
public class Lambda {
    public static void main(String[] args) {
        System.out.println("before");
        IntSupplier s = () -> 42;
        System.out.println(s.getAsInt());
    }
}
