package java.util.stream;

import java.util.*;
import java.util.function.*;

final class LongPipeline implements LongStream {
    private PrimitiveIterator.OfLong source;
    private boolean used;
    private List<Runnable> closeHandlers;

    LongPipeline(PrimitiveIterator.OfLong source) { this.source = source; }

    static LongPipeline ofArray(final long[] a, final int from, final int to) {
        return new LongPipeline(new PrimitiveIterator.OfLong() {
            int i = from;
            public boolean hasNext() { return i < to; }
            public long nextLong() { if (i >= to) throw new NoSuchElementException(); return a[i++]; }
        });
    }

    private PrimitiveIterator.OfLong take() {
        if (used) throw new IllegalStateException("stream has already been operated upon or closed");
        used = true;
        return source;
    }
    private LongPipeline chain(PrimitiveIterator.OfLong it) {
        LongPipeline r = new LongPipeline(it);
        r.closeHandlers = closeHandlers;
        return r;
    }

    public PrimitiveIterator.OfLong iterator() { return take(); }
    public Spliterator<Long> spliterator() { return Spliterators.spliteratorUnknownSize(take(), 0); }
    public boolean isParallel() { return false; }
    public LongStream sequential() { return this; }
    public LongStream parallel() { return this; }
    public LongStream unordered() { return this; }
    public LongStream onClose(Runnable closeHandler) {
        if (closeHandlers == null) closeHandlers = new ArrayList<>();
        closeHandlers.add(closeHandler);
        return this;
    }
    public void close() {
        used = true;
        if (closeHandlers != null) {
            List<Runnable> hs = closeHandlers;
            closeHandlers = null;
            for (Runnable r : hs) r.run();
        }
    }

    /** Elements computed on demand: advance() sets {@code next} and says whether there is one. */
    abstract static class Step implements PrimitiveIterator.OfLong {
        private boolean ready, done;
        long next;
        abstract boolean advance();
        public boolean hasNext() {
            if (ready) return true;
            if (done) return false;
            if (advance()) { ready = true; return true; }
            done = true;
            return false;
        }
        public long nextLong() {
            if (!hasNext()) throw new NoSuchElementException();
            ready = false;
            return next;
        }
    }

    public LongStream filter(LongPredicate predicate) {
        final PrimitiveIterator.OfLong in = take();
        return chain(new Step() {
            boolean advance() {
                while (in.hasNext()) {
                    long t = in.nextLong();
                    if (predicate.test(t)) { next = t; return true; }
                }
                return false;
            }
        });
    }
    public LongStream map(LongUnaryOperator mapper) {
        final PrimitiveIterator.OfLong in = take();
        return chain(new PrimitiveIterator.OfLong() {
            public boolean hasNext() { return in.hasNext(); }
            public long nextLong() { return mapper.applyAsLong(in.nextLong()); }
        });
    }
    public <U> Stream<U> mapToObj(LongFunction<? extends U> mapper) {
        final PrimitiveIterator.OfLong in = take();
        return new RefPipeline<U>(new Iterator<U>() {
            public boolean hasNext() { return in.hasNext(); }
            public U next() { return mapper.apply(in.nextLong()); }
        });
    }
    public Stream<Long> boxed() { return mapToObj(Long::valueOf); }
    public IntStream mapToInt(LongToIntFunction mapper) {
        final PrimitiveIterator.OfLong in = take();
        return new IntPipeline(new PrimitiveIterator.OfInt() {
            public boolean hasNext() { return in.hasNext(); }
            public int nextInt() { return mapper.applyAsInt(in.nextLong()); }
        });
    }
    public DoubleStream mapToDouble(LongToDoubleFunction mapper) {
        final PrimitiveIterator.OfLong in = take();
        return new DoublePipeline(new PrimitiveIterator.OfDouble() {
            public boolean hasNext() { return in.hasNext(); }
            public double nextDouble() { return mapper.applyAsDouble(in.nextLong()); }
        });
    }
    public DoubleStream asDoubleStream() { return mapToDouble(i -> (double) i); }
    public LongStream flatMap(LongFunction<? extends LongStream> mapper) {
        final PrimitiveIterator.OfLong in = take();
        return chain(new Step() {
            PrimitiveIterator.OfLong cur;
            boolean advance() {
                while (cur == null || !cur.hasNext()) {
                    if (!in.hasNext()) return false;
                    LongStream s = mapper.apply(in.nextLong());
                    cur = s == null ? null : s.iterator();
                }
                next = cur.nextLong();
                return true;
            }
        });
    }
    public LongStream distinct() {
        final PrimitiveIterator.OfLong in = take();
        return chain(new Step() {
            final HashSet<Long> seen = new HashSet<>();
            boolean advance() {
                while (in.hasNext()) {
                    long t = in.nextLong();
                    if (seen.add(t)) { next = t; return true; }
                }
                return false;
            }
        });
    }
    public LongStream sorted() {
        final PrimitiveIterator.OfLong in = take();
        return chain(new Step() {
            long[] all;
            int i;
            boolean advance() {
                if (all == null) { all = drain(in); Arrays.sort(all); }
                if (i >= all.length) return false;
                next = all[i++];
                return true;
            }
        });
    }
    public LongStream peek(LongConsumer action) {
        final PrimitiveIterator.OfLong in = take();
        return chain(new PrimitiveIterator.OfLong() {
            public boolean hasNext() { return in.hasNext(); }
            public long nextLong() { long t = in.nextLong(); action.accept(t); return t; }
        });
    }
    public LongStream limit(long maxSize) {
        if (maxSize < 0) throw new IllegalArgumentException(Long.toString(maxSize));
        final PrimitiveIterator.OfLong in = take();
        return chain(new PrimitiveIterator.OfLong() {
            long left = maxSize;
            public boolean hasNext() { return left > 0 && in.hasNext(); }
            public long nextLong() {
                if (left <= 0) throw new NoSuchElementException();
                left--;
                return in.nextLong();
            }
        });
    }
    public LongStream skip(long n) {
        if (n < 0) throw new IllegalArgumentException(Long.toString(n));
        final PrimitiveIterator.OfLong in = take();
        return chain(new PrimitiveIterator.OfLong() {
            long toSkip = n;
            public boolean hasNext() {
                while (toSkip > 0 && in.hasNext()) { in.nextLong(); toSkip--; }
                return in.hasNext();
            }
            public long nextLong() { hasNext(); return in.nextLong(); }
        });
    }
    public LongStream takeWhile(LongPredicate predicate) {
        final PrimitiveIterator.OfLong in = take();
        return chain(new Step() {
            boolean advance() {
                if (!in.hasNext()) return false;
                long t = in.nextLong();
                if (!predicate.test(t)) return false;
                next = t;
                return true;
            }
        });
    }
    public LongStream dropWhile(LongPredicate predicate) {
        final PrimitiveIterator.OfLong in = take();
        return chain(new Step() {
            boolean dropping = true;
            boolean advance() {
                while (in.hasNext()) {
                    long t = in.nextLong();
                    if (dropping && predicate.test(t)) continue;
                    dropping = false;
                    next = t;
                    return true;
                }
                return false;
            }
        });
    }
    public void forEach(LongConsumer action) {
        PrimitiveIterator.OfLong in = take();
        while (in.hasNext()) action.accept(in.nextLong());
    }
    public void forEachOrdered(LongConsumer action) { forEach(action); }
    static long[] drain(PrimitiveIterator.OfLong in) {
        long[] a = new long[16];
        int n = 0;
        while (in.hasNext()) {
            if (n == a.length) a = Arrays.copyOf(a, n * 2);
            a[n++] = in.nextLong();
        }
        return Arrays.copyOf(a, n);
    }
    public long[] toArray() { return drain(take()); }
    public long reduce(long identity, LongBinaryOperator op) {
        PrimitiveIterator.OfLong in = take();
        long r = identity;
        while (in.hasNext()) r = op.applyAsLong(r, in.nextLong());
        return r;
    }
    public OptionalLong reduce(LongBinaryOperator op) {
        PrimitiveIterator.OfLong in = take();
        if (!in.hasNext()) return OptionalLong.empty();
        long r = in.nextLong();
        while (in.hasNext()) r = op.applyAsLong(r, in.nextLong());
        return OptionalLong.of(r);
    }
    public <R> R collect(Supplier<R> supplier, ObjLongConsumer<R> accumulator, BiConsumer<R, R> combiner) {
        R r = supplier.get();
        PrimitiveIterator.OfLong in = take();
        while (in.hasNext()) accumulator.accept(r, in.nextLong());
        return r;
    }
    public OptionalLong min() { return reduce(Math::min); }
    public OptionalLong max() { return reduce(Math::max); }
    public long count() {
        PrimitiveIterator.OfLong in = take();
        long n = 0;
        while (in.hasNext()) { in.nextLong(); n++; }
        return n;
    }
    public LongSummaryStatistics summaryStatistics() {
        LongSummaryStatistics s = new LongSummaryStatistics();
        forEach(s);
        return s;
    }
    public OptionalDouble average() {
        LongSummaryStatistics s = summaryStatistics();
        return s.getCount() == 0 ? OptionalDouble.empty() : OptionalDouble.of(s.getAverage());
    }
    public long sum() { return (long) summaryStatistics().getSum(); }
    public boolean anyMatch(LongPredicate predicate) {
        PrimitiveIterator.OfLong in = take();
        while (in.hasNext()) if (predicate.test(in.nextLong())) return true;
        return false;
    }
    public boolean allMatch(LongPredicate predicate) {
        PrimitiveIterator.OfLong in = take();
        while (in.hasNext()) if (!predicate.test(in.nextLong())) return false;
        return true;
    }
    public boolean noneMatch(LongPredicate predicate) { return !anyMatch(predicate); }
    public OptionalLong findFirst() {
        PrimitiveIterator.OfLong in = take();
        return in.hasNext() ? OptionalLong.of(in.nextLong()) : OptionalLong.empty();
    }
    public OptionalLong findAny() { return findFirst(); }
}
