package java.util.stream;

import java.util.*;
import java.util.function.*;

final class DoublePipeline implements DoubleStream {
    private PrimitiveIterator.OfDouble source;
    private boolean used;
    private List<Runnable> closeHandlers;

    DoublePipeline(PrimitiveIterator.OfDouble source) { this.source = source; }

    static DoublePipeline ofArray(final double[] a, final int from, final int to) {
        return new DoublePipeline(new PrimitiveIterator.OfDouble() {
            int i = from;
            public boolean hasNext() { return i < to; }
            public double nextDouble() { if (i >= to) throw new NoSuchElementException(); return a[i++]; }
        });
    }

    private PrimitiveIterator.OfDouble take() {
        if (used) throw new IllegalStateException("stream has already been operated upon or closed");
        used = true;
        return source;
    }
    private DoublePipeline chain(PrimitiveIterator.OfDouble it) {
        DoublePipeline r = new DoublePipeline(it);
        r.closeHandlers = closeHandlers;
        return r;
    }

    public PrimitiveIterator.OfDouble iterator() { return take(); }
    public Spliterator<Double> spliterator() { return Spliterators.spliteratorUnknownSize(take(), 0); }
    public boolean isParallel() { return false; }
    public DoubleStream sequential() { return this; }
    public DoubleStream parallel() { return this; }
    public DoubleStream unordered() { return this; }
    public DoubleStream onClose(Runnable closeHandler) {
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
    abstract static class Step implements PrimitiveIterator.OfDouble {
        private boolean ready, done;
        double next;
        abstract boolean advance();
        public boolean hasNext() {
            if (ready) return true;
            if (done) return false;
            if (advance()) { ready = true; return true; }
            done = true;
            return false;
        }
        public double nextDouble() {
            if (!hasNext()) throw new NoSuchElementException();
            ready = false;
            return next;
        }
    }

    public DoubleStream filter(DoublePredicate predicate) {
        final PrimitiveIterator.OfDouble in = take();
        return chain(new Step() {
            boolean advance() {
                while (in.hasNext()) {
                    double t = in.nextDouble();
                    if (predicate.test(t)) { next = t; return true; }
                }
                return false;
            }
        });
    }
    public DoubleStream map(DoubleUnaryOperator mapper) {
        final PrimitiveIterator.OfDouble in = take();
        return chain(new PrimitiveIterator.OfDouble() {
            public boolean hasNext() { return in.hasNext(); }
            public double nextDouble() { return mapper.applyAsDouble(in.nextDouble()); }
        });
    }
    public <U> Stream<U> mapToObj(DoubleFunction<? extends U> mapper) {
        final PrimitiveIterator.OfDouble in = take();
        return new RefPipeline<U>(new Iterator<U>() {
            public boolean hasNext() { return in.hasNext(); }
            public U next() { return mapper.apply(in.nextDouble()); }
        });
    }
    public Stream<Double> boxed() { return mapToObj(Double::valueOf); }
    public IntStream mapToInt(DoubleToIntFunction mapper) {
        final PrimitiveIterator.OfDouble in = take();
        return new IntPipeline(new PrimitiveIterator.OfInt() {
            public boolean hasNext() { return in.hasNext(); }
            public int nextInt() { return mapper.applyAsInt(in.nextDouble()); }
        });
    }
    public LongStream mapToLong(DoubleToLongFunction mapper) {
        final PrimitiveIterator.OfDouble in = take();
        return new LongPipeline(new PrimitiveIterator.OfLong() {
            public boolean hasNext() { return in.hasNext(); }
            public long nextLong() { return mapper.applyAsLong(in.nextDouble()); }
        });
    }
    public DoubleStream flatMap(DoubleFunction<? extends DoubleStream> mapper) {
        final PrimitiveIterator.OfDouble in = take();
        return chain(new Step() {
            PrimitiveIterator.OfDouble cur;
            boolean advance() {
                while (cur == null || !cur.hasNext()) {
                    if (!in.hasNext()) return false;
                    DoubleStream s = mapper.apply(in.nextDouble());
                    cur = s == null ? null : s.iterator();
                }
                next = cur.nextDouble();
                return true;
            }
        });
    }
    public DoubleStream distinct() {
        final PrimitiveIterator.OfDouble in = take();
        return chain(new Step() {
            final HashSet<Double> seen = new HashSet<>();
            boolean advance() {
                while (in.hasNext()) {
                    double t = in.nextDouble();
                    if (seen.add(t)) { next = t; return true; }
                }
                return false;
            }
        });
    }
    public DoubleStream sorted() {
        final PrimitiveIterator.OfDouble in = take();
        return chain(new Step() {
            double[] all;
            int i;
            boolean advance() {
                if (all == null) { all = drain(in); Arrays.sort(all); }
                if (i >= all.length) return false;
                next = all[i++];
                return true;
            }
        });
    }
    public DoubleStream peek(DoubleConsumer action) {
        final PrimitiveIterator.OfDouble in = take();
        return chain(new PrimitiveIterator.OfDouble() {
            public boolean hasNext() { return in.hasNext(); }
            public double nextDouble() { double t = in.nextDouble(); action.accept(t); return t; }
        });
    }
    public DoubleStream limit(long maxSize) {
        if (maxSize < 0) throw new IllegalArgumentException(Long.toString(maxSize));
        final PrimitiveIterator.OfDouble in = take();
        return chain(new PrimitiveIterator.OfDouble() {
            long left = maxSize;
            public boolean hasNext() { return left > 0 && in.hasNext(); }
            public double nextDouble() {
                if (left <= 0) throw new NoSuchElementException();
                left--;
                return in.nextDouble();
            }
        });
    }
    public DoubleStream skip(long n) {
        if (n < 0) throw new IllegalArgumentException(Long.toString(n));
        final PrimitiveIterator.OfDouble in = take();
        return chain(new PrimitiveIterator.OfDouble() {
            long toSkip = n;
            public boolean hasNext() {
                while (toSkip > 0 && in.hasNext()) { in.nextDouble(); toSkip--; }
                return in.hasNext();
            }
            public double nextDouble() { hasNext(); return in.nextDouble(); }
        });
    }
    public DoubleStream takeWhile(DoublePredicate predicate) {
        final PrimitiveIterator.OfDouble in = take();
        return chain(new Step() {
            boolean advance() {
                if (!in.hasNext()) return false;
                double t = in.nextDouble();
                if (!predicate.test(t)) return false;
                next = t;
                return true;
            }
        });
    }
    public DoubleStream dropWhile(DoublePredicate predicate) {
        final PrimitiveIterator.OfDouble in = take();
        return chain(new Step() {
            boolean dropping = true;
            boolean advance() {
                while (in.hasNext()) {
                    double t = in.nextDouble();
                    if (dropping && predicate.test(t)) continue;
                    dropping = false;
                    next = t;
                    return true;
                }
                return false;
            }
        });
    }
    public void forEach(DoubleConsumer action) {
        PrimitiveIterator.OfDouble in = take();
        while (in.hasNext()) action.accept(in.nextDouble());
    }
    public void forEachOrdered(DoubleConsumer action) { forEach(action); }
    static double[] drain(PrimitiveIterator.OfDouble in) {
        double[] a = new double[16];
        int n = 0;
        while (in.hasNext()) {
            if (n == a.length) a = Arrays.copyOf(a, n * 2);
            a[n++] = in.nextDouble();
        }
        return Arrays.copyOf(a, n);
    }
    public double[] toArray() { return drain(take()); }
    public double reduce(double identity, DoubleBinaryOperator op) {
        PrimitiveIterator.OfDouble in = take();
        double r = identity;
        while (in.hasNext()) r = op.applyAsDouble(r, in.nextDouble());
        return r;
    }
    public OptionalDouble reduce(DoubleBinaryOperator op) {
        PrimitiveIterator.OfDouble in = take();
        if (!in.hasNext()) return OptionalDouble.empty();
        double r = in.nextDouble();
        while (in.hasNext()) r = op.applyAsDouble(r, in.nextDouble());
        return OptionalDouble.of(r);
    }
    public <R> R collect(Supplier<R> supplier, ObjDoubleConsumer<R> accumulator, BiConsumer<R, R> combiner) {
        R r = supplier.get();
        PrimitiveIterator.OfDouble in = take();
        while (in.hasNext()) accumulator.accept(r, in.nextDouble());
        return r;
    }
    public OptionalDouble min() { return reduce(Math::min); }
    public OptionalDouble max() { return reduce(Math::max); }
    public long count() {
        PrimitiveIterator.OfDouble in = take();
        long n = 0;
        while (in.hasNext()) { in.nextDouble(); n++; }
        return n;
    }
    public DoubleSummaryStatistics summaryStatistics() {
        DoubleSummaryStatistics s = new DoubleSummaryStatistics();
        forEach(s);
        return s;
    }
    public OptionalDouble average() {
        DoubleSummaryStatistics s = summaryStatistics();
        return s.getCount() == 0 ? OptionalDouble.empty() : OptionalDouble.of(s.getAverage());
    }
    public double sum() { return (double) summaryStatistics().getSum(); }
    public boolean anyMatch(DoublePredicate predicate) {
        PrimitiveIterator.OfDouble in = take();
        while (in.hasNext()) if (predicate.test(in.nextDouble())) return true;
        return false;
    }
    public boolean allMatch(DoublePredicate predicate) {
        PrimitiveIterator.OfDouble in = take();
        while (in.hasNext()) if (!predicate.test(in.nextDouble())) return false;
        return true;
    }
    public boolean noneMatch(DoublePredicate predicate) { return !anyMatch(predicate); }
    public OptionalDouble findFirst() {
        PrimitiveIterator.OfDouble in = take();
        return in.hasNext() ? OptionalDouble.of(in.nextDouble()) : OptionalDouble.empty();
    }
    public OptionalDouble findAny() { return findFirst(); }
}
