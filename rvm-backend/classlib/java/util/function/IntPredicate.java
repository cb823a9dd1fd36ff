package java.util.function;

@FunctionalInterface
public interface IntPredicate {
    boolean test(int value);
}
