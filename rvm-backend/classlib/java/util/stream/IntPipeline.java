package java.util.stream;

import java.util.*;
import java.util.function.*;

final class IntPipeline implements IntStream {
    private PrimitiveIterator.OfInt source;
    private boolean used;
    private List<Runnable> closeHandlers;

    IntPipeline(PrimitiveIterator.OfInt source) { this.source = source; }

    static IntPipeline ofArray(final int[] a, final int from, final int to) {
        return new IntPipeline(new PrimitiveIterator.OfInt() {
            int i = from;
            public boolean hasNext() { return i < to; }
            public int nextInt() { if (i >= to) throw new NoSuchElementException(); return a[i++]; }
        });
    }

    private PrimitiveIterator.OfInt take() {
        if (used) throw new IllegalStateException("stream has already been operated upon or closed");
        used = true;
        return source;
    }
    private IntPipeline chain(PrimitiveIterator.OfInt it) {
        IntPipeline r = new IntPipeline(it);
        r.closeHandlers = closeHandlers;
        return r;
    }

    public PrimitiveIterator.OfInt iterator() { return take(); }
    public Spliterator<Integer> spliterator() { return Spliterators.spliteratorUnknownSize(take(), 0); }
    public boolean isParallel() { return false; }
    public IntStream sequential() { return this; }
    public IntStream parallel() { return this; }
    public IntStream unordered() { return this; }
    public IntStream onClose(Runnable closeHandler) {
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
    abstract static class Step implements PrimitiveIterator.OfInt {
        private boolean ready, done;
        int next;
        abstract boolean advance();
        public boolean hasNext() {
            if (ready) return true;
            if (done) return false;
            if (advance()) { ready = true; return true; }
            done = true;
            return false;
        }
        public int nextInt() {
            if (!hasNext()) throw new NoSuchElementException();
            ready = false;
            return next;
        }
    }

    public IntStream filter(IntPredicate predicate) {
        final PrimitiveIterator.OfInt in = take();
        return chain(new Step() {
            boolean advance() {
                while (in.hasNext()) {
                    int t = in.nextInt();
                    if (predicate.test(t)) { next = t; return true; }
                }
                return false;
            }
        });
    }
    public IntStream map(IntUnaryOperator mapper) {
        final PrimitiveIterator.OfInt in = take();
        return chain(new PrimitiveIterator.OfInt() {
            public boolean hasNext() { return in.hasNext(); }
            public int nextInt() { return mapper.applyAsInt(in.nextInt()); }
        });
    }
    public <U> Stream<U> mapToObj(IntFunction<? extends U> mapper) {
        final PrimitiveIterator.OfInt in = take();
        return new RefPipeline<U>(new Iterator<U>() {
            public boolean hasNext() { return in.hasNext(); }
            public U next() { return mapper.apply(in.nextInt()); }
        });
    }
    public Stream<Integer> boxed() { return mapToObj(Integer::valueOf); }
    public LongStream mapToLong(IntToLongFunction mapper) {
        final PrimitiveIterator.OfInt in = take();
        return new LongPipeline(new PrimitiveIterator.OfLong() {
            public boolean hasNext() { return in.hasNext(); }
            public long nextLong() { return mapper.applyAsLong(in.nextInt()); }
        });
    }
    public DoubleStream mapToDouble(IntToDoubleFunction mapper) {
        final PrimitiveIterator.OfInt in = take();
        return new DoublePipeline(new PrimitiveIterator.OfDouble() {
            public boolean hasNext() { return in.hasNext(); }
            public double nextDouble() { return mapper.applyAsDouble(in.nextInt()); }
        });
    }
    public LongStream asLongStream() { return mapToLong(i -> (long) i); }
    public DoubleStream asDoubleStream() { return mapToDouble(i -> (double) i); }
    public IntStream flatMap(IntFunction<? extends IntStream> mapper) {
        final PrimitiveIterator.OfInt in = take();
        return chain(new Step() {
            PrimitiveIterator.OfInt cur;
            boolean advance() {
                while (cur == null || !cur.hasNext()) {
                    if (!in.hasNext()) return false;
                    IntStream s = mapper.apply(in.nextInt());
                    cur = s == null ? null : s.iterator();
                }
                next = cur.nextInt();
                return true;
            }
        });
    }
    public IntStream distinct() {
        final PrimitiveIterator.OfInt in = take();
        return chain(new Step() {
            final HashSet<Integer> seen = new HashSet<>();
            boolean advance() {
                while (in.hasNext()) {
                    int t = in.nextInt();
                    if (seen.add(t)) { next = t; return true; }
                }
                return false;
            }
        });
    }
    public IntStream sorted() {
        final PrimitiveIterator.OfInt in = take();
        return chain(new Step() {
            int[] all;
            int i;
            boolean advance() {
                if (all == null) { all = drain(in); Arrays.sort(all); }
                if (i >= all.length) return false;
                next = all[i++];
                return true;
            }
        });
    }
    public IntStream peek(IntConsumer action) {
        final PrimitiveIterator.OfInt in = take();
        return chain(new PrimitiveIterator.OfInt() {
            public boolean hasNext() { return in.hasNext(); }
            public int nextInt() { int t = in.nextInt(); action.accept(t); return t; }
        });
    }
    public IntStream limit(long maxSize) {
        if (maxSize < 0) throw new IllegalArgumentException(Long.toString(maxSize));
        final PrimitiveIterator.OfInt in = take();
        return chain(new PrimitiveIterator.OfInt() {
            long left = maxSize;
            public boolean hasNext() { return left > 0 && in.hasNext(); }
            public int nextInt() {
                if (left <= 0) throw new NoSuchElementException();
                left--;
                return in.nextInt();
            }
        });
    }
    public IntStream skip(long n) {
        if (n < 0) throw new IllegalArgumentException(Long.toString(n));
        final PrimitiveIterator.OfInt in = take();
        return chain(new PrimitiveIterator.OfInt() {
            long toSkip = n;
            public boolean hasNext() {
                while (toSkip > 0 && in.hasNext()) { in.nextInt(); toSkip--; }
                return in.hasNext();
            }
            public int nextInt() { hasNext(); return in.nextInt(); }
        });
    }
    public IntStream takeWhile(IntPredicate predicate) {
        final PrimitiveIterator.OfInt in = take();
        return chain(new Step() {
            boolean advance() {
                if (!in.hasNext()) return false;
                int t = in.nextInt();
                if (!predicate.test(t)) return false;
                next = t;
                return true;
            }
        });
    }
    public IntStream dropWhile(IntPredicate predicate) {
        final PrimitiveIterator.OfInt in = take();
        return chain(new Step() {
            boolean dropping = true;
            boolean advance() {
                while (in.hasNext()) {
                    int t = in.nextInt();
                    if (dropping && predicate.test(t)) continue;
                    dropping = false;
                    next = t;
                    return true;
                }
                return false;
            }
        });
    }
    public void forEach(IntConsumer action) {
        PrimitiveIterator.OfInt in = take();
        while (in.hasNext()) action.accept(in.nextInt());
    }
    public void forEachOrdered(IntConsumer action) { forEach(action); }
    static int[] drain(PrimitiveIterator.OfInt in) {
        int[] a = new int[16];
        int n = 0;
        while (in.hasNext()) {
            if (n == a.length) a = Arrays.copyOf(a, n * 2);
            a[n++] = in.nextInt();
        }
        return Arrays.copyOf(a, n);
    }
    public int[] toArray() { return drain(take()); }
    public int reduce(int identity, IntBinaryOperator op) {
        PrimitiveIterator.OfInt in = take();
        int r = identity;
        while (in.hasNext()) r = op.applyAsInt(r, in.nextInt());
        return r;
    }
    public OptionalInt reduce(IntBinaryOperator op) {
        PrimitiveIterator.OfInt in = take();
        if (!in.hasNext()) return OptionalInt.empty();
        int r = in.nextInt();
        while (in.hasNext()) r = op.applyAsInt(r, in.nextInt());
        return OptionalInt.of(r);
    }
    public <R> R collect(Supplier<R> supplier, ObjIntConsumer<R> accumulator, BiConsumer<R, R> combiner) {
        R r = supplier.get();
        PrimitiveIterator.OfInt in = take();
        while (in.hasNext()) accumulator.accept(r, in.nextInt());
        return r;
    }
    public OptionalInt min() { return reduce(Math::min); }
    public OptionalInt max() { return reduce(Math::max); }
    public long count() {
        PrimitiveIterator.OfInt in = take();
        long n = 0;
        while (in.hasNext()) { in.nextInt(); n++; }
        return n;
    }
    public IntSummaryStatistics summaryStatistics() {
        IntSummaryStatistics s = new IntSummaryStatistics();
        forEach(s);
        return s;
    }
    public OptionalDouble average() {
        IntSummaryStatistics s = summaryStatistics();
        return s.getCount() == 0 ? OptionalDouble.empty() : OptionalDouble.of(s.getAverage());
    }
    public int sum() { return (int) summaryStatistics().getSum(); }
    public boolean anyMatch(IntPredicate predicate) {
        PrimitiveIterator.OfInt in = take();
        while (in.hasNext()) if (predicate.test(in.nextInt())) return true;
        return false;
    }
    public boolean allMatch(IntPredicate predicate) {
        PrimitiveIterator.OfInt in = take();
        while (in.hasNext()) if (!predicate.test(in.nextInt())) return false;
        return true;
    }
    public boolean noneMatch(IntPredicate predicate) { return !anyMatch(predicate); }
    public OptionalInt findFirst() {
        PrimitiveIterator.OfInt in = take();
        return in.hasNext() ? OptionalInt.of(in.nextInt()) : OptionalInt.empty();
    }
    public OptionalInt findAny() { return findFirst(); }
}
