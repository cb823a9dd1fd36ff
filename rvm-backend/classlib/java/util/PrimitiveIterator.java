package java.util;

import java.util.function.Consumer;
import java.util.function.DoubleConsumer;
import java.util.function.IntConsumer;
import java.util.function.LongConsumer;

public interface PrimitiveIterator<T, T_CONS> extends Iterator<T> {
    void forEachRemaining(T_CONS action);

    interface OfInt extends PrimitiveIterator<Integer, IntConsumer> {
        int nextInt();
        default Integer next() { return nextInt(); }
        default void forEachRemaining(IntConsumer action) { while (hasNext()) action.accept(nextInt()); }
        default void forEachRemaining(Consumer<? super Integer> action) { while (hasNext()) action.accept(nextInt()); }
    }
    interface OfLong extends PrimitiveIterator<Long, LongConsumer> {
        long nextLong();
        default Long next() { return nextLong(); }
        default void forEachRemaining(LongConsumer action) { while (hasNext()) action.accept(nextLong()); }
        default void forEachRemaining(Consumer<? super Long> action) { while (hasNext()) action.accept(nextLong()); }
    }
    interface OfDouble extends PrimitiveIterator<Double, DoubleConsumer> {
        double nextDouble();
        default Double next() { return nextDouble(); }
        default void forEachRemaining(DoubleConsumer action) { while (hasNext()) action.accept(nextDouble()); }
        default void forEachRemaining(Consumer<? super Double> action) { while (hasNext()) action.accept(nextDouble()); }
    }
}
