package java.util;

public interface SortedMap<K, V> extends Map<K, V> {
    Comparator<? super K> comparator();
    K firstKey();
    K lastKey();
    default SortedMap<K, V> subMap(K fromKey, K toKey) { throw new UnsupportedOperationException("rvm: sorted views (subMap) are not implemented"); }
    default SortedMap<K, V> headMap(K toKey) { throw new UnsupportedOperationException("rvm: sorted views (headMap) are not implemented"); }
    default SortedMap<K, V> tailMap(K fromKey) { throw new UnsupportedOperationException("rvm: sorted views (tailMap) are not implemented"); }
}
