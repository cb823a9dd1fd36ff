package java.util.stream;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.PrimitiveIterator;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.BinaryOperator;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/** The reference stream: a stage is an iterator over the previous stage's iterator. */
final class RefPipeline<T> implements Stream<T> {
    private Iterator<T> source;
    private boolean used;
    private List<Runnable> closeHandlers;

    RefPipeline(Iterator<T> source) { this.source = source; }

    /** An iterator taken from a supplier at the first pull. */
    static final class Lazy<T> implements Iterator<T> {
        private Supplier<Iterator<T>> supplier;
        private Iterator<T> it;
        Lazy(Supplier<Iterator<T>> supplier) { this.supplier = supplier; }
        private Iterator<T> it() {
            if (it == null) { it = supplier.get(); supplier = null; }
            return it;
        }
        public boolean hasNext() { return it().hasNext(); }
        public T next() { return it().next(); }
    }

    /** An iterator defined by "advance": compute the next element or report the end. */
    abstract static class Step<R> implements Iterator<R> {
        private boolean ready, done;
        private R next;
        abstract boolean advance();
        final void emit(R r) { next = r; }
        public boolean hasNext() {
            if (ready) return true;
            if (done) return false;
            if (advance()) { ready = true; return true; }
            done = true;
            return false;
        }
        public R next() {
            if (!hasNext()) throw new NoSuchElementException();
            ready = false;
            R r = next;
            next = null;
            return r;
        }
    }

    Iterator<T> take() {
        if (used) throw new IllegalStateException("stream has already been operated upon or closed");
        used = true;
        return source;
    }

    private <R> RefPipeline<R> chain(Iterator<R> it) {
        RefPipeline<R> r = new RefPipeline<>(it);
        r.closeHandlers = closeHandlers;
        return r;
    }

    public Iterator<T> iterator() { return take(); }
    public Spliterator<T> spliterator() { return Spliterators.spliteratorUnknownSize(take(), 0); }
    public boolean isParallel() { return false; }
    public Stream<T> sequential() { return this; }
    public Stream<T> parallel() { return this; }
    public Stream<T> unordered() { return this; }
    public Stream<T> onClose(Runnable closeHandler) {
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

    public Stream<T> filter(Predicate<? super T> predicate) {
        Objects.requireNonNull(predicate);
        final Iterator<T> in = take();
        return chain(new Step<T>() {
            boolean advance() {
                while (in.hasNext()) {
                    T t = in.next();
                    if (predicate.test(t)) { emit(t); return true; }
                }
                return false;
            }
        });
    }

    public <R> Stream<R> map(Function<? super T, ? extends R> mapper) {
        Objects.requireNonNull(mapper);
        final Iterator<T> in = take();
        return chain(new Iterator<R>() {
            public boolean hasNext() { return in.hasNext(); }
            public R next() { return mapper.apply(in.next()); }
        });
    }

    public IntStream mapToInt(ToIntFunction<? super T> mapper) {
        final Iterator<T> in = take();
        return new IntPipeline(new PrimitiveIterator.OfInt() {
            public boolean hasNext() { return in.hasNext(); }
            public int nextInt() { return mapper.applyAsInt(in.next()); }
        });
    }
    public LongStream mapToLong(ToLongFunction<? super T> mapper) {
        final Iterator<T> in = take();
        return new LongPipeline(new PrimitiveIterator.OfLong() {
            public boolean hasNext() { return in.hasNext(); }
            public long nextLong() { return mapper.applyAsLong(in.next()); }
        });
    }
    public DoubleStream mapToDouble(ToDoubleFunction<? super T> mapper) {
        final Iterator<T> in = take();
        return new DoublePipeline(new PrimitiveIterator.OfDouble() {
            public boolean hasNext() { return in.hasNext(); }
            public double nextDouble() { return mapper.applyAsDouble(in.next()); }
        });
    }

    public <R> Stream<R> flatMap(Function<? super T, ? extends Stream<? extends R>> mapper) {
        Objects.requireNonNull(mapper);
        final Iterator<T> in = take();
        return chain(new Step<R>() {
            Iterator<? extends R> cur;
            Stream<? extends R> curStream;
            boolean advance() {
                while (true) {
                    if (cur != null && cur.hasNext()) { emit(cur.next()); return true; }
                    if (curStream != null) { curStream.close(); curStream = null; cur = null; }
                    if (!in.hasNext()) return false;
                    curStream = mapper.apply(in.next());
                    if (curStream != null) cur = curStream.iterator();
                }
            }
        });
    }

    public IntStream flatMapToInt(Function<? super T, ? extends IntStream> mapper) {
        final Iterator<T> in = take();
        return new IntPipeline(new PrimitiveIterator.OfInt() {
            PrimitiveIterator.OfInt cur;
            public boolean hasNext() {
                while (cur == null || !cur.hasNext()) {
                    if (!in.hasNext()) return false;
                    IntStream s = mapper.apply(in.next());
                    cur = s == null ? null : s.iterator();
                }
                return true;
            }
            public int nextInt() {
                if (!hasNext()) throw new NoSuchElementException();
                return cur.nextInt();
            }
        });
    }

    public <R> Stream<R> mapMulti(BiConsumer<? super T, ? super Consumer<R>> mapper) {
        return flatMap(t -> {
            ArrayList<R> buffer = new ArrayList<>();
            mapper.accept(t, (Consumer<R>) buffer::add);
            return buffer.stream();
        });
    }

    public Stream<T> distinct() {
        final Iterator<T> in = take();
        return chain(new Step<T>() {
            final HashSet<T> seen = new HashSet<>();
            boolean advance() {
                while (in.hasNext()) {
                    T t = in.next();
                    if (seen.add(t)) { emit(t); return true; }
                }
                return false;
            }
        });
    }

    public Stream<T> sorted() { return sorted(null); }

    @SuppressWarnings("unchecked")
    public Stream<T> sorted(Comparator<? super T> comparator) {
        final Iterator<T> in = take();
        return chain(new Lazy<T>(() -> {
            ArrayList<T> all = new ArrayList<>();
            while (in.hasNext()) all.add(in.next());
            Object[] a = all.toArray();
            if (comparator == null) {
                for (Object o : a) if (!(o instanceof Comparable)) throw new ClassCastException(o.getClass().getName() + " cannot be cast to class java.lang.Comparable");
                Arrays.sort(a);
            } else {
                Arrays.sort((T[]) a, comparator);
            }
            return (Iterator<T>) Arrays.asList(a).iterator();
        }));
    }

    public Stream<T> peek(Consumer<? super T> action) {
        final Iterator<T> in = take();
        return chain(new Iterator<T>() {
            public boolean hasNext() { return in.hasNext(); }
            public T next() { T t = in.next(); action.accept(t); return t; }
        });
    }

    public Stream<T> limit(long maxSize) {
        if (maxSize < 0) throw new IllegalArgumentException(Long.toString(maxSize));
        final Iterator<T> in = take();
        return chain(new Iterator<T>() {
            long left = maxSize;
            public boolean hasNext() { return left > 0 && in.hasNext(); }
            public T next() {
                if (left <= 0) throw new NoSuchElementException();
                left--;
                return in.next();
            }
        });
    }

    public Stream<T> skip(long n) {
        if (n < 0) throw new IllegalArgumentException(Long.toString(n));
        final Iterator<T> in = take();
        return chain(new Iterator<T>() {
            long toSkip = n;
            public boolean hasNext() {
                while (toSkip > 0 && in.hasNext()) { in.next(); toSkip--; }
                return in.hasNext();
            }
            public T next() {
                hasNext();
                return in.next();
            }
        });
    }

    public Stream<T> takeWhile(Predicate<? super T> predicate) {
        final Iterator<T> in = take();
        return chain(new Step<T>() {
            boolean advance() {
                if (!in.hasNext()) return false;
                T t = in.next();
                if (!predicate.test(t)) return false;
                emit(t);
                return true;
            }
        });
    }

    public Stream<T> dropWhile(Predicate<? super T> predicate) {
        final Iterator<T> in = take();
        return chain(new Step<T>() {
            boolean dropping = true;
            boolean advance() {
                while (in.hasNext()) {
                    T t = in.next();
                    if (dropping && predicate.test(t)) continue;
                    dropping = false;
                    emit(t);
                    return true;
                }
                return false;
            }
        });
    }

    public void forEach(Consumer<? super T> action) {
        Objects.requireNonNull(action);
        Iterator<T> in = take();
        while (in.hasNext()) action.accept(in.next());
    }
    public void forEachOrdered(Consumer<? super T> action) { forEach(action); }

    private ArrayList<T> drain() {
        Iterator<T> in = take();
        ArrayList<T> all = new ArrayList<>();
        while (in.hasNext()) all.add(in.next());
        return all;
    }

    public Object[] toArray() { return drain().toArray(); }

    public <A> A[] toArray(IntFunction<A[]> generator) {
        ArrayList<T> all = drain();
        A[] a = generator.apply(all.size());
        if (a.length != all.size()) throw new IllegalStateException("Begin size " + all.size() + " is not equal to fixed size " + a.length);
        for (int i = 0; i < a.length; i++) {
            Object o = all.get(i);
            if (o != null && !a.getClass().getComponentType().isInstance(o)) throw new ArrayStoreException(o.getClass().getName());
            ((Object[]) a)[i] = o;
        }
        return a;
    }

    public T reduce(T identity, BinaryOperator<T> accumulator) {
        T result = identity;
        Iterator<T> in = take();
        while (in.hasNext()) result = accumulator.apply(result, in.next());
        return result;
    }

    public Optional<T> reduce(BinaryOperator<T> accumulator) {
        Iterator<T> in = take();
        if (!in.hasNext()) return Optional.empty();
        T result = in.next();
        while (in.hasNext()) result = accumulator.apply(result, in.next());
        return Optional.of(result);
    }

    public <U> U reduce(U identity, BiFunction<U, ? super T, U> accumulator, BinaryOperator<U> combiner) {
        U result = identity;
        Iterator<T> in = take();
        while (in.hasNext()) result = accumulator.apply(result, in.next());
        return result;
    }

    public <R> R collect(Supplier<R> supplier, BiConsumer<R, ? super T> accumulator, BiConsumer<R, R> combiner) {
        R container = supplier.get();
        Iterator<T> in = take();
        while (in.hasNext()) accumulator.accept(container, in.next());
        return container;
    }

    public <R, A> R collect(Collector<? super T, A, R> collector) {
        A container = collector.supplier().get();
        BiConsumer<A, ? super T> acc = collector.accumulator();
        Iterator<T> in = take();
        while (in.hasNext()) acc.accept(container, in.next());
        return collector.finisher().apply(container);
    }

    @SuppressWarnings("unchecked")
    public List<T> toList() {
        return (List<T>) Collections.unmodifiableList(new ArrayList<>(Arrays.asList(drain().toArray())));
    }

    public Optional<T> min(Comparator<? super T> comparator) { return reduce(BinaryOperator.minBy(comparator)); }
    public Optional<T> max(Comparator<? super T> comparator) { return reduce(BinaryOperator.maxBy(comparator)); }

    public long count() {
        Iterator<T> in = take();
        long n = 0;
        while (in.hasNext()) { in.next(); n++; }
        return n;
    }

    public boolean anyMatch(Predicate<? super T> predicate) {
        Iterator<T> in = take();
        while (in.hasNext()) if (predicate.test(in.next())) return true;
        return false;
    }
    public boolean allMatch(Predicate<? super T> predicate) {
        Iterator<T> in = take();
        while (in.hasNext()) if (!predicate.test(in.next())) return false;
        return true;
    }
    public boolean noneMatch(Predicate<? super T> predicate) { return !anyMatch(predicate); }

    public Optional<T> findFirst() {
        Iterator<T> in = take();
        return in.hasNext() ? Optional.of(in.next()) : Optional.empty();
    }
    public Optional<T> findAny() { return findFirst(); }
}
