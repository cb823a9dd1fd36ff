package java.util;

public interface Set<E> extends Collection<E> {
    @SafeVarargs
    static <E> Set<E> of(E... elements) {
        HashSet<E> s = new HashSet<>();
        for (E e : elements) {
            Objects.requireNonNull(e);
            if (!s.add(e)) throw new IllegalArgumentException("duplicate element: " + e);
        }
        return Collections.unmodifiableSet(s);
    }
}
