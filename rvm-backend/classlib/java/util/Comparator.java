package java.util;

public interface Comparator<T> {
    int compare(T o1, T o2);
    default Comparator<T> reversed() { return Collections.reverseOrder(this); }
    default Comparator<T> thenComparing(Comparator<? super T> other) {
        final Comparator<T> self = this;
        return new Comparator<T>() {
            public int compare(T a, T b) {
                int r = self.compare(a, b);
                return r != 0 ? r : other.compare(a, b);
            }
        };
    }
    default <U extends Comparable<? super U>> Comparator<T> thenComparing(java.util.function.Function<? super T, ? extends U> keyExtractor) {
        return thenComparing(comparing(keyExtractor));
    }
    default Comparator<T> thenComparingInt(java.util.function.ToIntFunction<? super T> keyExtractor) {
        return thenComparing(comparingInt(keyExtractor));
    }
    public static <T, U extends Comparable<? super U>> Comparator<T> comparing(final java.util.function.Function<? super T, ? extends U> keyExtractor) {
        Objects.requireNonNull(keyExtractor);
        return new Comparator<T>() {
            public int compare(T c1, T c2) { return keyExtractor.apply(c1).compareTo(keyExtractor.apply(c2)); }
        };
    }
    public static <T, U> Comparator<T> comparing(final java.util.function.Function<? super T, ? extends U> keyExtractor, final Comparator<? super U> keyComparator) {
        return new Comparator<T>() {
            public int compare(T c1, T c2) { return keyComparator.compare(keyExtractor.apply(c1), keyExtractor.apply(c2)); }
        };
    }
    public static <T> Comparator<T> comparingInt(final java.util.function.ToIntFunction<? super T> keyExtractor) {
        Objects.requireNonNull(keyExtractor);
        return new Comparator<T>() {
            public int compare(T c1, T c2) { return Integer.compare(keyExtractor.applyAsInt(c1), keyExtractor.applyAsInt(c2)); }
        };
    }
    public static <T> Comparator<T> comparingLong(final java.util.function.ToLongFunction<? super T> keyExtractor) {
        return new Comparator<T>() {
            public int compare(T c1, T c2) { return Long.compare(keyExtractor.applyAsLong(c1), keyExtractor.applyAsLong(c2)); }
        };
    }
    public static <T> Comparator<T> comparingDouble(final java.util.function.ToDoubleFunction<? super T> keyExtractor) {
        return new Comparator<T>() {
            public int compare(T c1, T c2) { return Double.compare(keyExtractor.applyAsDouble(c1), keyExtractor.applyAsDouble(c2)); }
        };
    }
    @SuppressWarnings("unchecked")
    public static <T> Comparator<T> nullsFirst(Comparator<? super T> comparator) { return nulls(true, comparator); }
    public static <T> Comparator<T> nullsLast(Comparator<? super T> comparator) { return nulls(false, comparator); }
    private static <T> Comparator<T> nulls(final boolean nullFirst, final Comparator<? super T> real) {
        return new Comparator<T>() {
            public int compare(T a, T b) {
                if (a == null) return (b == null) ? 0 : (nullFirst ? -1 : 1);
                if (b == null) return nullFirst ? 1 : -1;
                return (real == null) ? 0 : real.compare(a, b);
            }
        };
    }
    public static <T extends Comparable<? super T>> Comparator<T> naturalOrder() { return (Comparator<T>) Collections.NaturalOrder.INSTANCE; }
    public static <T extends Comparable<? super T>> Comparator<T> reverseOrder() { return Collections.reverseOrder(); }
}
