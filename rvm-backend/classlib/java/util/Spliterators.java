package java.util;

import java.util.function.Consumer;

public final class Spliterators {
    private Spliterators() {}

    public static <T> Spliterator<T> spliteratorUnknownSize(Iterator<? extends T> iterator, int characteristics) {
        return new IteratorSpliterator<>(iterator, Long.MAX_VALUE, characteristics & ~(Spliterator.SIZED | Spliterator.SUBSIZED));
    }
    public static <T> Spliterator<T> spliterator(Iterator<? extends T> iterator, long size, int characteristics) {
        return new IteratorSpliterator<>(iterator, size, characteristics | Spliterator.SIZED);
    }
    public static <T> Spliterator<T> spliterator(Collection<? extends T> c, int characteristics) {
        return new IteratorSpliterator<>(c.iterator(), c.size(), characteristics | Spliterator.SIZED);
    }
    @SuppressWarnings("unchecked")
    public static <T> Spliterator<T> spliterator(Object[] array, int characteristics) {
        List<T> l = (List<T>) Arrays.asList(array);
        return spliterator(l.iterator(), array.length, characteristics);
    }
    public static <T> Spliterator<T> emptySpliterator() { return spliterator(Collections.<T>emptyList().iterator(), 0, 0); }

    public static <T> Iterator<T> iterator(Spliterator<? extends T> spliterator) {
        return new Iterator<T>() {
            boolean ready;
            T next;
            public boolean hasNext() {
                if (!ready) ready = spliterator.tryAdvance(t -> next = t);
                return ready;
            }
            public T next() {
                if (!hasNext()) throw new NoSuchElementException();
                ready = false;
                T t = next;
                next = null;
                return t;
            }
        };
    }

    /** A spliterator defined by tryAdvance; it never splits (rvm's streams are sequential). */
    public abstract static class AbstractSpliterator<T> implements Spliterator<T> {
        private final int characteristics;
        private long est;
        protected AbstractSpliterator(long est, int additionalCharacteristics) {
            this.est = est;
            this.characteristics = ((additionalCharacteristics & Spliterator.SIZED) != 0) ? additionalCharacteristics | Spliterator.SUBSIZED : additionalCharacteristics;
        }
        public Spliterator<T> trySplit() { return null; }
        public long estimateSize() { return est; }
        public int characteristics() { return characteristics; }
    }

    static final class IteratorSpliterator<T> implements Spliterator<T> {
        private final Iterator<? extends T> it;
        private long size;
        private final int characteristics;
        IteratorSpliterator(Iterator<? extends T> it, long size, int characteristics) { this.it = it; this.size = size; this.characteristics = characteristics; }
        public boolean tryAdvance(Consumer<? super T> action) {
            if (!it.hasNext()) return false;
            action.accept(it.next());
            if (size != Long.MAX_VALUE && size > 0) size--;
            return true;
        }
        public void forEachRemaining(Consumer<? super T> action) { while (it.hasNext()) action.accept(it.next()); }
        public long estimateSize() { return size; }
        public int characteristics() { return characteristics; }
    }
}
