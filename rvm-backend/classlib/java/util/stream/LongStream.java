package java.util.stream;

import java.util.*;
import java.util.function.*;

public interface LongStream extends BaseStream<Long, LongStream> {
    LongStream filter(LongPredicate predicate);
    LongStream map(LongUnaryOperator mapper);
    <U> Stream<U> mapToObj(LongFunction<? extends U> mapper);
    Stream<Long> boxed();
    LongStream flatMap(LongFunction<? extends LongStream> mapper);
    LongStream distinct();
    LongStream sorted();
    LongStream peek(LongConsumer action);
    LongStream limit(long maxSize);
    LongStream skip(long n);
    LongStream takeWhile(LongPredicate predicate);
    LongStream dropWhile(LongPredicate predicate);
    void forEach(LongConsumer action);
    void forEachOrdered(LongConsumer action);
    long[] toArray();
    long reduce(long identity, LongBinaryOperator op);
    OptionalLong reduce(LongBinaryOperator op);
    <R> R collect(Supplier<R> supplier, ObjLongConsumer<R> accumulator, BiConsumer<R, R> combiner);
    long sum();
    OptionalLong min();
    OptionalLong max();
    long count();
    OptionalDouble average();
    LongSummaryStatistics summaryStatistics();
    boolean anyMatch(LongPredicate predicate);
    boolean allMatch(LongPredicate predicate);
    boolean noneMatch(LongPredicate predicate);
    OptionalLong findFirst();
    OptionalLong findAny();
    PrimitiveIterator.OfLong iterator();
    IntStream mapToInt(LongToIntFunction mapper);
    DoubleStream mapToDouble(LongToDoubleFunction mapper);
    DoubleStream asDoubleStream();

    static LongStream empty() { return LongPipeline.ofArray(new long[0], 0, 0); }
    static LongStream of(long t) { return LongPipeline.ofArray(new long[] { t }, 0, 1); }
    static LongStream of(long... values) { return LongPipeline.ofArray(values, 0, values.length); }
    static LongStream iterate(final long seed, final LongUnaryOperator f) {
        return new LongPipeline(new PrimitiveIterator.OfLong() {
            boolean started;
            long t;
            public boolean hasNext() { return true; }
            public long nextLong() { t = started ? f.applyAsLong(t) : seed; started = true; return t; }
        });
    }
    static LongStream iterate(long seed, LongPredicate hasNext, LongUnaryOperator next) {
        return new LongPipeline(new PrimitiveIterator.OfLong() {
            boolean started, finished, ready;
            long t;
            public boolean hasNext() {
                if (ready) return true;
                if (finished) return false;
                long n = started ? next.applyAsLong(t) : seed;
                started = true;
                if (!hasNext.test(n)) { finished = true; return false; }
                t = n;
                ready = true;
                return true;
            }
            public long nextLong() {
                if (!hasNext()) throw new NoSuchElementException();
                ready = false;
                return t;
            }
        });
    }
    static LongStream generate(LongSupplier s) {
        return new LongPipeline(new PrimitiveIterator.OfLong() {
            public boolean hasNext() { return true; }
            public long nextLong() { return s.getAsLong(); }
        });
    }
    static LongStream concat(LongStream a, LongStream b) {
        final PrimitiveIterator.OfLong x = a.iterator(), y = b.iterator();
        return new LongPipeline(new PrimitiveIterator.OfLong() {
            public boolean hasNext() { return x.hasNext() || y.hasNext(); }
            public long nextLong() { return x.hasNext() ? x.nextLong() : y.nextLong(); }
        });
    }
    static LongStream range(long startInclusive, long endExclusive) {
        return new LongPipeline(new PrimitiveIterator.OfLong() {
            long i = startInclusive;
            public boolean hasNext() { return i < endExclusive; }
            public long nextLong() { if (i >= endExclusive) throw new NoSuchElementException(); return i++; }
        });
    }
    static LongStream rangeClosed(long startInclusive, long endInclusive) {
        return new LongPipeline(new PrimitiveIterator.OfLong() {
            long i = startInclusive;
            boolean done = startInclusive > endInclusive;
            public boolean hasNext() { return !done; }
            public long nextLong() {
                if (done) throw new NoSuchElementException();
                long r = i;
                if (i == endInclusive) done = true; else i++;
                return r;
            }
        });
    }
}
