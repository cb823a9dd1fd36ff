package java.util;

/** A sorted map on a treap (a randomized balanced search tree with deterministic priorities).
 * Observable behaviour (order, results, exceptions of the supported methods) is the JDK's;
 * iterators walk by key and detect concurrent modification. */
public class TreeMap<K, V> extends AbstractMap<K, V> implements NavigableMap<K, V>, Cloneable, java.io.Serializable {
    static final class Entry<K, V> implements Map.Entry<K, V> {
        K key;
        V value;
        Entry<K, V> left, right;
        final int priority;
        Entry(K key, V value, int priority) { this.key = key; this.value = value; this.priority = priority; }
        public K getKey() { return key; }
        public V getValue() { return value; }
        public V setValue(V value) { V old = this.value; this.value = value; return old; }
        public boolean equals(Object o) {
            if (!(o instanceof Map.Entry)) return false;
            Map.Entry<?, ?> e = (Map.Entry<?, ?>) o;
            return Objects.equals(key, e.getKey()) && Objects.equals(value, e.getValue());
        }
        public int hashCode() { return Objects.hashCode(key) ^ Objects.hashCode(value); }
        public String toString() { return key + "=" + value; }
    }

    private final Comparator<? super K> comparator;
    private Entry<K, V> root;
    private int size;
    private int modCount;
    private int seed = 0x2545F491;

    public TreeMap() { comparator = null; }
    public TreeMap(Comparator<? super K> comparator) { this.comparator = comparator; }
    public TreeMap(Map<? extends K, ? extends V> m) { comparator = null; putAll(m); }
    @SuppressWarnings("unchecked")
    public TreeMap(SortedMap<K, ? extends V> m) { comparator = (Comparator<? super K>) m.comparator(); putAll(m); }

    public Comparator<? super K> comparator() { return comparator; }
    public NavigableMap<K, V> subMap(K fromKey, boolean fromInclusive, K toKey, boolean toInclusive) { return new NavigableSubMap<>(this, false, fromKey, fromInclusive, false, toKey, toInclusive, false); }
    public NavigableMap<K, V> headMap(K toKey, boolean inclusive) { return new NavigableSubMap<>(this, true, null, true, false, toKey, inclusive, false); }
    public NavigableMap<K, V> tailMap(K fromKey, boolean inclusive) { return new NavigableSubMap<>(this, false, fromKey, inclusive, true, null, true, false); }
    public SortedMap<K, V> subMap(K fromKey, K toKey) { return subMap(fromKey, true, toKey, false); }
    public SortedMap<K, V> headMap(K toKey) { return headMap(toKey, false); }
    public SortedMap<K, V> tailMap(K fromKey) { return tailMap(fromKey, true); }
    public NavigableMap<K, V> descendingMap() { return new NavigableSubMap<>(this, true, null, true, true, null, true, true); }
    public NavigableSet<K> navigableKeySet() { return new NavigableSubMap.KeySetView<>(this); }
    public NavigableSet<K> descendingKeySet() { return descendingMap().navigableKeySet(); }
    public int size() { return size; }

    @SuppressWarnings("unchecked")
    final int compare(Object k1, Object k2) {
        return comparator == null ? ((Comparable<Object>) k1).compareTo(k2) : comparator.compare((K) k1, (K) k2);
    }
    private int nextPriority() {
        int x = seed;
        x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
        seed = x;
        return x;
    }

    final Entry<K, V> getEntry(Object key) {
        if (key == null && comparator == null) throw new NullPointerException();
        Entry<K, V> p = root;
        while (p != null) {
            int c = compare(key, p.key);
            if (c < 0) p = p.left; else if (c > 0) p = p.right; else return p;
        }
        return null;
    }
    public V get(Object key) { Entry<K, V> e = getEntry(key); return e == null ? null : e.value; }
    public boolean containsKey(Object key) { return getEntry(key) != null; }

    private V oldValue;
    private boolean found;

    public V put(K key, V value) {
        if (key == null && comparator == null) throw new NullPointerException();
        if (root == null) compare(key, key); // type check, as the JDK does
        found = false;
        root = insert(root, key, value);
        if (found) return oldValue;
        size++;
        modCount++;
        return null;
    }
    private Entry<K, V> insert(Entry<K, V> t, K key, V value) {
        if (t == null) return new Entry<>(key, value, nextPriority());
        int c = compare(key, t.key);
        if (c == 0) { found = true; oldValue = t.value; t.value = value; return t; }
        if (c < 0) {
            t.left = insert(t.left, key, value);
            if (t.left.priority > t.priority) t = rotateRight(t);
        } else {
            t.right = insert(t.right, key, value);
            if (t.right.priority > t.priority) t = rotateLeft(t);
        }
        return t;
    }
    private Entry<K, V> rotateRight(Entry<K, V> t) { Entry<K, V> l = t.left; t.left = l.right; l.right = t; return l; }
    private Entry<K, V> rotateLeft(Entry<K, V> t) { Entry<K, V> r = t.right; t.right = r.left; r.left = t; return r; }

    public V remove(Object key) {
        Entry<K, V> e = getEntry(key);
        if (e == null) return null;
        V v = e.value;
        root = delete(root, key);
        size--;
        modCount++;
        return v;
    }
    private Entry<K, V> delete(Entry<K, V> t, Object key) {
        int c = compare(key, t.key);
        if (c < 0) { t.left = delete(t.left, key); return t; }
        if (c > 0) { t.right = delete(t.right, key); return t; }
        return merge(t.left, t.right);
    }
    private Entry<K, V> merge(Entry<K, V> a, Entry<K, V> b) {
        if (a == null) return b;
        if (b == null) return a;
        if (a.priority > b.priority) { a.right = merge(a.right, b); return a; }
        b.left = merge(a, b.left);
        return b;
    }
    public void clear() { modCount++; size = 0; root = null; }

    private Entry<K, V> first() { Entry<K, V> p = root; if (p != null) while (p.left != null) p = p.left; return p; }
    private Entry<K, V> last() { Entry<K, V> p = root; if (p != null) while (p.right != null) p = p.right; return p; }
    /** The entry with the least key greater than (or equal to, when inclusive) key. */
    final Entry<K, V> ceilingEntry0(Object key, boolean inclusive) {
        Entry<K, V> p = root, best = null;
        while (p != null) {
            int c = compare(key, p.key);
            if (c < 0 || (c == 0 && inclusive)) { best = p; if (c == 0) return p; p = p.left; } else p = p.right;
        }
        return best;
    }
    final Entry<K, V> floorEntry0(Object key, boolean inclusive) {
        Entry<K, V> p = root, best = null;
        while (p != null) {
            int c = compare(key, p.key);
            if (c > 0 || (c == 0 && inclusive)) { best = p; if (c == 0) return p; p = p.right; } else p = p.left;
        }
        return best;
    }
    private static <K> K key(Entry<K, ?> e) { return e == null ? null : e.key; }
    private static <K> K keyOrThrow(Entry<K, ?> e) { if (e == null) throw new NoSuchElementException(); return e.key; }
    private static <K, V> Map.Entry<K, V> export(Entry<K, V> e) { return e == null ? null : new AbstractMap.SimpleEntry<>(e.key, e.value) {
        public V setValue(V v) { throw new UnsupportedOperationException(); } }; }

    public K firstKey() { return keyOrThrow(first()); }
    public K lastKey() { return keyOrThrow(last()); }
    public Map.Entry<K, V> firstEntry() { return export(first()); }
    public Map.Entry<K, V> lastEntry() { return export(last()); }
    public Map.Entry<K, V> pollFirstEntry() { Entry<K, V> e = first(); Map.Entry<K, V> r = export(e); if (e != null) remove(e.key); return r; }
    public Map.Entry<K, V> pollLastEntry() { Entry<K, V> e = last(); Map.Entry<K, V> r = export(e); if (e != null) remove(e.key); return r; }
    public Map.Entry<K, V> lowerEntry(K key) { return export(floorEntry0(key, false)); }
    public K lowerKey(K key) { return key(floorEntry0(key, false)); }
    public Map.Entry<K, V> floorEntry(K key) { return export(floorEntry0(key, true)); }
    public K floorKey(K key) { return key(floorEntry0(key, true)); }
    public Map.Entry<K, V> ceilingEntry(K key) { return export(ceilingEntry0(key, true)); }
    public K ceilingKey(K key) { return key(ceilingEntry0(key, true)); }
    public Map.Entry<K, V> higherEntry(K key) { return export(ceilingEntry0(key, false)); }
    public K higherKey(K key) { return key(ceilingEntry0(key, false)); }

    /** Walks entries in key order by successive "higher key" lookups, so removal through the
     * iterator is simple and safe. */
    abstract class Walker<T> implements Iterator<T> {
        Entry<K, V> next = first();
        Entry<K, V> lastReturned;
        int expectedModCount = modCount;
        public boolean hasNext() { return next != null; }
        final Entry<K, V> nextEntry() {
            if (next == null) throw new NoSuchElementException();
            if (modCount != expectedModCount) throw new ConcurrentModificationException();
            lastReturned = next;
            next = ceilingEntry0(next.key, false);
            return lastReturned;
        }
        public void remove() {
            if (lastReturned == null) throw new IllegalStateException();
            if (modCount != expectedModCount) throw new ConcurrentModificationException();
            K k = lastReturned.key;
            TreeMap.this.remove(k);
            next = next == null ? null : getEntry(next.key);
            lastReturned = null;
            expectedModCount = modCount;
        }
    }

    public Set<Map.Entry<K, V>> entrySet() {
        return new AbstractSet<Map.Entry<K, V>>() {
            public int size() { return size; }
            public Iterator<Map.Entry<K, V>> iterator() { return new Walker<Map.Entry<K, V>>() { public Map.Entry<K, V> next() { return nextEntry(); } }; }
            public void clear() { TreeMap.this.clear(); }
        };
    }
    public Set<K> keySet() {
        return new AbstractSet<K>() {
            public int size() { return size; }
            public Iterator<K> iterator() { return new Walker<K>() { public K next() { return nextEntry().key; } }; }
            public boolean contains(Object o) { return containsKey(o); }
            public boolean remove(Object o) { int s = size; TreeMap.this.remove(o); return size != s; }
            public void clear() { TreeMap.this.clear(); }
        };
    }
    public Collection<V> values() {
        return new AbstractCollection<V>() {
            public int size() { return size; }
            public Iterator<V> iterator() { return new Walker<V>() { public V next() { return nextEntry().value; } }; }
            public void clear() { TreeMap.this.clear(); }
        };
    }
    /** Object.clone (so a subclass's clone is of the subclass, its fields copied) with a copy of the
     * tree: new entries of the same shape and priorities. */
    @SuppressWarnings("unchecked")
    public Object clone() {
        TreeMap<K, V> m;
        try {
            m = (TreeMap<K, V>) super.clone();
        } catch (CloneNotSupportedException e) {
            throw new InternalError(e);
        }
        m.root = copy(root);
        m.modCount = 0;
        m.oldValue = null;
        m.found = false;
        return m;
    }
    private static <K, V> Entry<K, V> copy(Entry<K, V> e) {
        if (e == null) return null;
        Entry<K, V> c = new Entry<>(e.key, e.value, e.priority);
        c.left = copy(e.left);
        c.right = copy(e.right);
        return c;
    }
}
