package java.util.function;

@FunctionalInterface
public interface BinaryOperator<T> extends BiFunction<T, T, T> {

}
