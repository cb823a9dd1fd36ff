package java.util;

public interface NavigableMap<K, V> extends SortedMap<K, V> {
    Map.Entry<K, V> lowerEntry(K key);
    K lowerKey(K key);
    Map.Entry<K, V> floorEntry(K key);
    K floorKey(K key);
    Map.Entry<K, V> ceilingEntry(K key);
    K ceilingKey(K key);
    Map.Entry<K, V> higherEntry(K key);
    K higherKey(K key);
    Map.Entry<K, V> firstEntry();
    Map.Entry<K, V> lastEntry();
    Map.Entry<K, V> pollFirstEntry();
    Map.Entry<K, V> pollLastEntry();
    default NavigableMap<K, V> descendingMap() { throw new UnsupportedOperationException("rvm: sorted views (descendingMap) are not implemented"); }
    default NavigableSet<K> navigableKeySet() { throw new UnsupportedOperationException("rvm: sorted views (navigableKeySet) are not implemented"); }
    default NavigableSet<K> descendingKeySet() { throw new UnsupportedOperationException("rvm: sorted views (descendingKeySet) are not implemented"); }
    default NavigableMap<K, V> subMap(K fromKey, boolean fromInclusive, K toKey, boolean toInclusive) { throw new UnsupportedOperationException("rvm: sorted views (subMap) are not implemented"); }
    default NavigableMap<K, V> headMap(K toKey, boolean inclusive) { throw new UnsupportedOperationException("rvm: sorted views (headMap) are not implemented"); }
    default NavigableMap<K, V> tailMap(K fromKey, boolean inclusive) { throw new UnsupportedOperationException("rvm: sorted views (tailMap) are not implemented"); }
}
