package java.util;

/**
 * A view of a range of a navigable map (TreeMap's subMap, headMap, tailMap and descendingMap, and
 * views of views): every operation goes to the backing map, bounded by the range, in ascending or
 * descending order. Changes write through; a key put outside the range is refused.
 */
final class NavigableSubMap<K, V> extends AbstractMap<K, V> implements NavigableMap<K, V> {
    private final NavigableMap<K, V> m;
    private final boolean fromStart, toEnd, loInclusive, hiInclusive, descending;
    private final K lo, hi;

    NavigableSubMap(NavigableMap<K, V> m, boolean fromStart, K lo, boolean loInclusive, boolean toEnd, K hi, boolean hiInclusive, boolean descending) {
        if (!fromStart && !toEnd && compare(m, lo, hi) > 0) throw new IllegalArgumentException("fromKey > toKey");
        this.m = m;
        this.fromStart = fromStart;
        this.lo = lo;
        this.loInclusive = loInclusive;
        this.toEnd = toEnd;
        this.hi = hi;
        this.hiInclusive = hiInclusive;
        this.descending = descending;
    }

    @SuppressWarnings("unchecked")
    private static <K> int compare(NavigableMap<K, ?> m, Object a, Object b) {
        Comparator<? super K> c = m.comparator();
        return c == null ? ((Comparable<Object>) a).compareTo(b) : c.compare((K) a, (K) b);
    }
    private boolean tooLow(Object key) {
        if (fromStart) return false;
        int c = compare(m, key, lo);
        return c < 0 || (c == 0 && !loInclusive);
    }
    private boolean tooHigh(Object key) {
        if (toEnd) return false;
        int c = compare(m, key, hi);
        return c > 0 || (c == 0 && !hiInclusive);
    }
    private boolean inRange(Object key) { return !tooLow(key) && !tooHigh(key); }
    private boolean inClosedRange(Object key) {
        return (fromStart || compare(m, key, lo) >= 0) && (toEnd || compare(m, hi, key) >= 0);
    }
    private boolean inRange(Object key, boolean inclusive) { return inclusive ? inRange(key) : inClosedRange(key); }
    private Map.Entry<K, V> checked(Map.Entry<K, V> e) { return e == null || !inRange(e.getKey()) ? null : e; }

    // absolute (ascending) navigation within the range
    private Map.Entry<K, V> absLowest() { return checked(fromStart ? m.firstEntry() : (loInclusive ? m.ceilingEntry(lo) : m.higherEntry(lo))); }
    private Map.Entry<K, V> absHighest() { return checked(toEnd ? m.lastEntry() : (hiInclusive ? m.floorEntry(hi) : m.lowerEntry(hi))); }
    private Map.Entry<K, V> absCeiling(K key) { return tooLow(key) ? absLowest() : checked(m.ceilingEntry(key)); }
    private Map.Entry<K, V> absHigher(K key) { return tooLow(key) ? absLowest() : checked(m.higherEntry(key)); }
    private Map.Entry<K, V> absFloor(K key) { return tooHigh(key) ? absHighest() : checked(m.floorEntry(key)); }
    private Map.Entry<K, V> absLower(K key) { return tooHigh(key) ? absHighest() : checked(m.lowerEntry(key)); }

    public Comparator<? super K> comparator() {
        Comparator<? super K> c = m.comparator();
        if (!descending) return c;
        return c == null ? Collections.reverseOrder() : Collections.reverseOrder(c);
    }
    public Map.Entry<K, V> firstEntry() { return descending ? absHighest() : absLowest(); }
    public Map.Entry<K, V> lastEntry() { return descending ? absLowest() : absHighest(); }
    public Map.Entry<K, V> ceilingEntry(K key) { return descending ? absFloor(key) : absCeiling(key); }
    public Map.Entry<K, V> higherEntry(K key) { return descending ? absLower(key) : absHigher(key); }
    public Map.Entry<K, V> floorEntry(K key) { return descending ? absCeiling(key) : absFloor(key); }
    public Map.Entry<K, V> lowerEntry(K key) { return descending ? absHigher(key) : absLower(key); }
    private static <K> K key(Map.Entry<K, ?> e) { return e == null ? null : e.getKey(); }
    private static <K> K keyOrThrow(Map.Entry<K, ?> e) { if (e == null) throw new NoSuchElementException(); return e.getKey(); }
    public K firstKey() { return keyOrThrow(firstEntry()); }
    public K lastKey() { return keyOrThrow(lastEntry()); }
    public K ceilingKey(K key) { return key(ceilingEntry(key)); }
    public K higherKey(K key) { return key(higherEntry(key)); }
    public K floorKey(K key) { return key(floorEntry(key)); }
    public K lowerKey(K key) { return key(lowerEntry(key)); }
    public Map.Entry<K, V> pollFirstEntry() {
        Map.Entry<K, V> e = firstEntry();
        if (e != null) m.remove(e.getKey());
        return e;
    }
    public Map.Entry<K, V> pollLastEntry() {
        Map.Entry<K, V> e = lastEntry();
        if (e != null) m.remove(e.getKey());
        return e;
    }

    public boolean containsKey(Object key) { return inRange(key) && m.containsKey(key); }
    public V get(Object key) { return !inRange(key) ? null : m.get(key); }
    public V put(K key, V value) {
        if (!inRange(key)) throw new IllegalArgumentException("key out of range");
        return m.put(key, value);
    }
    public V remove(Object key) { return !inRange(key) ? null : m.remove(key); }
    public int size() {
        int n = 0;
        for (Map.Entry<K, V> e = firstEntry(); e != null; e = higherEntry(e.getKey())) n++;
        return n;
    }
    public boolean isEmpty() { return firstEntry() == null; }

    public Set<Map.Entry<K, V>> entrySet() {
        return new AbstractSet<Map.Entry<K, V>>() {
            public int size() { return NavigableSubMap.this.size(); }
            public Iterator<Map.Entry<K, V>> iterator() {
                return new Iterator<Map.Entry<K, V>>() {
                    Map.Entry<K, V> next = firstEntry(), last;
                    public boolean hasNext() { return next != null; }
                    public Map.Entry<K, V> next() {
                        if (next == null) throw new NoSuchElementException();
                        last = next;
                        next = higherEntry(next.getKey());
                        return last;
                    }
                    public void remove() {
                        if (last == null) throw new IllegalStateException();
                        m.remove(last.getKey());
                        last = null;
                    }
                };
            }
        };
    }
    public Set<K> keySet() { return navigableKeySet(); }
    public NavigableSet<K> navigableKeySet() { return new KeySetView<>(this); }
    public NavigableSet<K> descendingKeySet() { return descendingMap().navigableKeySet(); }

    public NavigableMap<K, V> descendingMap() { return new NavigableSubMap<>(m, fromStart, lo, loInclusive, toEnd, hi, hiInclusive, !descending); }
    public NavigableMap<K, V> subMap(K fromKey, boolean fromInclusive, K toKey, boolean toInclusive) {
        if (!inRange(fromKey, fromInclusive)) throw new IllegalArgumentException("fromKey out of range");
        if (!inRange(toKey, toInclusive)) throw new IllegalArgumentException("toKey out of range");
        if (descending) return new NavigableSubMap<>(m, false, toKey, toInclusive, false, fromKey, fromInclusive, true);
        return new NavigableSubMap<>(m, false, fromKey, fromInclusive, false, toKey, toInclusive, false);
    }
    public NavigableMap<K, V> headMap(K toKey, boolean inclusive) {
        if (!inRange(toKey, inclusive)) throw new IllegalArgumentException("toKey out of range");
        if (descending) return new NavigableSubMap<>(m, false, toKey, inclusive, toEnd, hi, hiInclusive, true);
        return new NavigableSubMap<>(m, fromStart, lo, loInclusive, false, toKey, inclusive, false);
    }
    public NavigableMap<K, V> tailMap(K fromKey, boolean inclusive) {
        if (!inRange(fromKey, inclusive)) throw new IllegalArgumentException("fromKey out of range");
        if (descending) return new NavigableSubMap<>(m, fromStart, lo, loInclusive, false, fromKey, inclusive, true);
        return new NavigableSubMap<>(m, false, fromKey, inclusive, toEnd, hi, hiInclusive, false);
    }
    public SortedMap<K, V> subMap(K fromKey, K toKey) { return subMap(fromKey, true, toKey, false); }
    public SortedMap<K, V> headMap(K toKey) { return headMap(toKey, false); }
    public SortedMap<K, V> tailMap(K fromKey) { return tailMap(fromKey, true); }

    /** The keys of a navigable map as a navigable set (TreeMap's and its views' key sets, TreeSet's views). */
    static final class KeySetView<E> extends AbstractSet<E> implements NavigableSet<E> {
        private final NavigableMap<E, ?> m;
        KeySetView(NavigableMap<E, ?> m) { this.m = m; }
        public Iterator<E> iterator() {
            final Iterator<? extends Map.Entry<E, ?>> it = m.entrySet().iterator();
            return new Iterator<E>() {
                public boolean hasNext() { return it.hasNext(); }
                public E next() { return it.next().getKey(); }
                public void remove() { it.remove(); }
            };
        }
        public int size() { return m.size(); }
        public boolean isEmpty() { return m.isEmpty(); }
        public boolean contains(Object o) { return m.containsKey(o); }
        public boolean remove(Object o) {
            if (!m.containsKey(o)) return false;
            m.remove(o);
            return true;
        }
        public void clear() {
            for (Iterator<E> it = iterator(); it.hasNext(); ) { it.next(); it.remove(); }
        }
        public Comparator<? super E> comparator() { return m.comparator(); }
        public E first() { return m.firstKey(); }
        public E last() { return m.lastKey(); }
        public E lower(E e) { return m.lowerKey(e); }
        public E floor(E e) { return m.floorKey(e); }
        public E ceiling(E e) { return m.ceilingKey(e); }
        public E higher(E e) { return m.higherKey(e); }
        public E pollFirst() { Map.Entry<E, ?> e = m.pollFirstEntry(); return e == null ? null : e.getKey(); }
        public E pollLast() { Map.Entry<E, ?> e = m.pollLastEntry(); return e == null ? null : e.getKey(); }
        public NavigableSet<E> descendingSet() { return new KeySetView<>(m.descendingMap()); }
        public Iterator<E> descendingIterator() { return descendingSet().iterator(); }
        public NavigableSet<E> subSet(E fromElement, boolean fromInclusive, E toElement, boolean toInclusive) { return new KeySetView<>(m.subMap(fromElement, fromInclusive, toElement, toInclusive)); }
        public NavigableSet<E> headSet(E toElement, boolean inclusive) { return new KeySetView<>(m.headMap(toElement, inclusive)); }
        public NavigableSet<E> tailSet(E fromElement, boolean inclusive) { return new KeySetView<>(m.tailMap(fromElement, inclusive)); }
        public SortedSet<E> subSet(E fromElement, E toElement) { return subSet(fromElement, true, toElement, false); }
        public SortedSet<E> headSet(E toElement) { return headSet(toElement, false); }
        public SortedSet<E> tailSet(E fromElement) { return tailSet(fromElement, true); }
    }
}
