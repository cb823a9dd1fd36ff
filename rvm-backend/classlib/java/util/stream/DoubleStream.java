package java.util.stream;

import java.util.*;
import java.util.function.*;

public interface DoubleStream extends BaseStream<Double, DoubleStream> {
    DoubleStream filter(DoublePredicate predicate);
    DoubleStream map(DoubleUnaryOperator mapper);
    <U> Stream<U> mapToObj(DoubleFunction<? extends U> mapper);
    Stream<Double> boxed();
    DoubleStream flatMap(DoubleFunction<? extends DoubleStream> mapper);
    DoubleStream distinct();
    DoubleStream sorted();
    DoubleStream peek(DoubleConsumer action);
    DoubleStream limit(long maxSize);
    DoubleStream skip(long n);
    DoubleStream takeWhile(DoublePredicate predicate);
    DoubleStream dropWhile(DoublePredicate predicate);
    void forEach(DoubleConsumer action);
    void forEachOrdered(DoubleConsumer action);
    double[] toArray();
    double reduce(double identity, DoubleBinaryOperator op);
    OptionalDouble reduce(DoubleBinaryOperator op);
    <R> R collect(Supplier<R> supplier, ObjDoubleConsumer<R> accumulator, BiConsumer<R, R> combiner);
    double sum();
    OptionalDouble min();
    OptionalDouble max();
    long count();
    OptionalDouble average();
    DoubleSummaryStatistics summaryStatistics();
    boolean anyMatch(DoublePredicate predicate);
    boolean allMatch(DoublePredicate predicate);
    boolean noneMatch(DoublePredicate predicate);
    OptionalDouble findFirst();
    OptionalDouble findAny();
    PrimitiveIterator.OfDouble iterator();
    IntStream mapToInt(DoubleToIntFunction mapper);
    LongStream mapToLong(DoubleToLongFunction mapper);

    static DoubleStream empty() { return DoublePipeline.ofArray(new double[0], 0, 0); }
    static DoubleStream of(double t) { return DoublePipeline.ofArray(new double[] { t }, 0, 1); }
    static DoubleStream of(double... values) { return DoublePipeline.ofArray(values, 0, values.length); }
    static DoubleStream iterate(final double seed, final DoubleUnaryOperator f) {
        return new DoublePipeline(new PrimitiveIterator.OfDouble() {
            boolean started;
            double t;
            public boolean hasNext() { return true; }
            public double nextDouble() { t = started ? f.applyAsDouble(t) : seed; started = true; return t; }
        });
    }
    static DoubleStream iterate(double seed, DoublePredicate hasNext, DoubleUnaryOperator next) {
        return new DoublePipeline(new PrimitiveIterator.OfDouble() {
            boolean started, finished, ready;
            double t;
            public boolean hasNext() {
                if (ready) return true;
                if (finished) return false;
                double n = started ? next.applyAsDouble(t) : seed;
                started = true;
                if (!hasNext.test(n)) { finished = true; return false; }
                t = n;
                ready = true;
                return true;
            }
            public double nextDouble() {
                if (!hasNext()) throw new NoSuchElementException();
                ready = false;
                return t;
            }
        });
    }
    static DoubleStream generate(DoubleSupplier s) {
        return new DoublePipeline(new PrimitiveIterator.OfDouble() {
            public boolean hasNext() { return true; }
            public double nextDouble() { return s.getAsDouble(); }
        });
    }
    static DoubleStream concat(DoubleStream a, DoubleStream b) {
        final PrimitiveIterator.OfDouble x = a.iterator(), y = b.iterator();
        return new DoublePipeline(new PrimitiveIterator.OfDouble() {
            public boolean hasNext() { return x.hasNext() || y.hasNext(); }
            public double nextDouble() { return x.hasNext() ? x.nextDouble() : y.nextDouble(); }
        });
    }
}
