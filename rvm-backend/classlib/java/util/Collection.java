package java.util;

public interface Collection<E> extends Iterable<E> {
    int size();
    boolean isEmpty();
    boolean contains(Object o);
    Object[] toArray();
    <T> T[] toArray(T[] a);
    boolean add(E e);
    boolean remove(Object o);
    boolean containsAll(Collection<?> c);
    boolean addAll(Collection<? extends E> c);
    boolean removeAll(Collection<?> c);
    boolean retainAll(Collection<?> c);
    void clear();
    default boolean removeIf(java.util.function.Predicate<? super E> filter) {
        Objects.requireNonNull(filter);
        boolean removed = false;
        final Iterator<E> each = iterator();
        while (each.hasNext()) {
            if (filter.test(each.next())) { each.remove(); removed = true; }
        }
        return removed;
    }
    default Spliterator<E> spliterator() { return Spliterators.spliterator(this, 0); }
    default java.util.stream.Stream<E> stream() { return java.util.stream.StreamSupport.lazy(this); }
    default java.util.stream.Stream<E> parallelStream() { return stream(); }
    default <T> T[] toArray(java.util.function.IntFunction<T[]> generator) { return toArray(generator.apply(0)); }
}
