package java.util.function;

@FunctionalInterface
public interface DoubleConsumer {
    void accept(double value);
}
