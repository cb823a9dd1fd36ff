package java.util.function;

@FunctionalInterface
public interface LongPredicate {
    boolean test(long value);
}
