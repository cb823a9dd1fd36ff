package java.util;

public interface NavigableSet<E> extends SortedSet<E> {
    E lower(E e);
    E floor(E e);
    E ceiling(E e);
    E higher(E e);
    E pollFirst();
    E pollLast();
    default NavigableSet<E> descendingSet() { throw new UnsupportedOperationException("rvm: sorted views (descendingSet) are not implemented"); }
    default Iterator<E> descendingIterator() { return descendingSet().iterator(); }
    default NavigableSet<E> subSet(E fromElement, boolean fromInclusive, E toElement, boolean toInclusive) { throw new UnsupportedOperationException("rvm: sorted views (subSet) are not implemented"); }
    default NavigableSet<E> headSet(E toElement, boolean inclusive) { throw new UnsupportedOperationException("rvm: sorted views (headSet) are not implemented"); }
    default NavigableSet<E> tailSet(E fromElement, boolean inclusive) { throw new UnsupportedOperationException("rvm: sorted views (tailSet) are not implemented"); }
}
