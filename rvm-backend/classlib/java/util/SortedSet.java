package java.util;

public interface SortedSet<E> extends Set<E> {
    Comparator<? super E> comparator();
    E first();
    E last();
    default SortedSet<E> subSet(E fromElement, E toElement) { throw new UnsupportedOperationException("rvm: sorted views (subSet) are not implemented"); }
    default SortedSet<E> headSet(E toElement) { throw new UnsupportedOperationException("rvm: sorted views (headSet) are not implemented"); }
    default SortedSet<E> tailSet(E fromElement) { throw new UnsupportedOperationException("rvm: sorted views (tailSet) are not implemented"); }
}
