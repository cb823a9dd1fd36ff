package java.util.stream;

import java.util.*;
import java.util.function.*;

public interface IntStream extends BaseStream<Integer, IntStream> {
    IntStream filter(IntPredicate predicate);
    IntStream map(IntUnaryOperator mapper);
    <U> Stream<U> mapToObj(IntFunction<? extends U> mapper);
    Stream<Integer> boxed();
    IntStream flatMap(IntFunction<? extends IntStream> mapper);
    IntStream distinct();
    IntStream sorted();
    IntStream peek(IntConsumer action);
    IntStream limit(long maxSize);
    IntStream skip(long n);
    IntStream takeWhile(IntPredicate predicate);
    IntStream dropWhile(IntPredicate predicate);
    void forEach(IntConsumer action);
    void forEachOrdered(IntConsumer action);
    int[] toArray();
    int reduce(int identity, IntBinaryOperator op);
    OptionalInt reduce(IntBinaryOperator op);
    <R> R collect(Supplier<R> supplier, ObjIntConsumer<R> accumulator, BiConsumer<R, R> combiner);
    int sum();
    OptionalInt min();
    OptionalInt max();
    long count();
    OptionalDouble average();
    IntSummaryStatistics summaryStatistics();
    boolean anyMatch(IntPredicate predicate);
    boolean allMatch(IntPredicate predicate);
    boolean noneMatch(IntPredicate predicate);
    OptionalInt findFirst();
    OptionalInt findAny();
    PrimitiveIterator.OfInt iterator();
    LongStream mapToLong(IntToLongFunction mapper);
    DoubleStream mapToDouble(IntToDoubleFunction mapper);
    LongStream asLongStream();
    DoubleStream asDoubleStream();

    static IntStream empty() { return IntPipeline.ofArray(new int[0], 0, 0); }
    static IntStream of(int t) { return IntPipeline.ofArray(new int[] { t }, 0, 1); }
    static IntStream of(int... values) { return IntPipeline.ofArray(values, 0, values.length); }
    static IntStream iterate(final int seed, final IntUnaryOperator f) {
        return new IntPipeline(new PrimitiveIterator.OfInt() {
            boolean started;
            int t;
            public boolean hasNext() { return true; }
            public int nextInt() { t = started ? f.applyAsInt(t) : seed; started = true; return t; }
        });
    }
    static IntStream iterate(int seed, IntPredicate hasNext, IntUnaryOperator next) {
        return new IntPipeline(new PrimitiveIterator.OfInt() {
            boolean started, finished, ready;
            int t;
            public boolean hasNext() {
                if (ready) return true;
                if (finished) return false;
                int n = started ? next.applyAsInt(t) : seed;
                started = true;
                if (!hasNext.test(n)) { finished = true; return false; }
                t = n;
                ready = true;
                return true;
            }
            public int nextInt() {
                if (!hasNext()) throw new NoSuchElementException();
                ready = false;
                return t;
            }
        });
    }
    static IntStream generate(IntSupplier s) {
        return new IntPipeline(new PrimitiveIterator.OfInt() {
            public boolean hasNext() { return true; }
            public int nextInt() { return s.getAsInt(); }
        });
    }
    static IntStream concat(IntStream a, IntStream b) {
        final PrimitiveIterator.OfInt x = a.iterator(), y = b.iterator();
        return new IntPipeline(new PrimitiveIterator.OfInt() {
            public boolean hasNext() { return x.hasNext() || y.hasNext(); }
            public int nextInt() { return x.hasNext() ? x.nextInt() : y.nextInt(); }
        });
    }
    static IntStream range(int startInclusive, int endExclusive) {
        return new IntPipeline(new PrimitiveIterator.OfInt() {
            int i = startInclusive;
            public boolean hasNext() { return i < endExclusive; }
            public int nextInt() { if (i >= endExclusive) throw new NoSuchElementException(); return i++; }
        });
    }
    static IntStream rangeClosed(int startInclusive, int endInclusive) {
        return new IntPipeline(new PrimitiveIterator.OfInt() {
            int i = startInclusive;
            boolean done = startInclusive > endInclusive;
            public boolean hasNext() { return !done; }
            public int nextInt() {
                if (done) throw new NoSuchElementException();
                int r = i;
                if (i == endInclusive) done = true; else i++;
                return r;
            }
        });
    }
}
