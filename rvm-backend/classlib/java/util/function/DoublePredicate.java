package java.util.function;

@FunctionalInterface
public interface DoublePredicate {
    boolean test(double value);
}
