package java.util.stream;

import java.util.Iterator;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Supplier;

public final class StreamSupport {
    private StreamSupport() {}
    public static <T> Stream<T> stream(Spliterator<T> spliterator, boolean parallel) {
        return new RefPipeline<>(Spliterators.iterator(spliterator));
    }
    public static <T> Stream<T> stream(Supplier<? extends Spliterator<T>> supplier, int characteristics, boolean parallel) {
        return new RefPipeline<>(new RefPipeline.Lazy<T>(() -> Spliterators.iterator(supplier.get())));
    }
    /** A stream over an iterable whose iterator is taken when the stream is first pulled. */
    public static <T> Stream<T> lazy(Iterable<T> source) {
        return new RefPipeline<>(new RefPipeline.Lazy<T>(() -> source.iterator()));
    }
    static <T> Stream<T> of(Iterator<T> it) { return new RefPipeline<>(it); }
}
