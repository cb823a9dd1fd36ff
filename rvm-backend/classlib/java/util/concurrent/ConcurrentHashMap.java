package java.util.concurrent;

import java.util.AbstractCollection;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Collection;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * rvm's concurrent hash map: one hash table behind one lock (a ReentrantLock, so an uncontended
 * operation costs a compare-and-set and a contended one parks), every operation atomic, the
 * compute and merge functions called under the lock. The table follows the JDK's layout — hash
 * spreading, power-of-two sizes, resizing when the size reaches three quarters of the table,
 * new nodes at the end of their bin, the order a resize leaves a bin in — so iteration order
 * is HotSpot's for maps without large collision bins (the JDK turns a bin of 8 or more into a
 * tree; this table does not) and without bulk presizing (putAll adds one entry at a time).
 * Iterators and views iterate over a snapshot taken when they are created, which is one of the
 * states weak consistency allows.
 */
public class ConcurrentHashMap<K, V> extends AbstractMap<K, V> implements ConcurrentMap<K, V>, java.io.Serializable {
    private static final int MAXIMUM_CAPACITY = 1 << 30;
    private static final int DEFAULT_CAPACITY = 16;
    private static final int HASH_BITS = 0x7fffffff;

    static final class Node<K, V> implements Map.Entry<K, V> {
        final int hash;
        final K key;
        V val;
        Node<K, V> next;
        Node(int hash, K key, V val) {
            this.hash = hash;
            this.key = key;
            this.val = val;
        }
        public K getKey() { return key; }
        public V getValue() { return val; }
        public V setValue(V value) { throw new UnsupportedOperationException(); }
        public int hashCode() { return key.hashCode() ^ val.hashCode(); }
        public String toString() { return key + "=" + val; }
        public boolean equals(Object o) {
            if (!(o instanceof Map.Entry)) return false;
            Map.Entry<?, ?> e = (Map.Entry<?, ?>) o;
            Object k = e.getKey(), v = e.getValue();
            return k != null && v != null && (k == key || k.equals(key)) && (v == val || v.equals(val));
        }
    }

    /** An entry handed out by iterators: setValue writes through to the map. */
    final class MapEntry implements Map.Entry<K, V> {
        final K key;
        V val;
        MapEntry(K key, V val) {
            this.key = key;
            this.val = val;
        }
        public K getKey() { return key; }
        public V getValue() { return val; }
        public V setValue(V value) {
            if (value == null) throw new NullPointerException();
            V v = val;
            val = value;
            put(key, value);
            return v;
        }
        public int hashCode() { return key.hashCode() ^ val.hashCode(); }
        public String toString() { return key + "=" + val; }
        public boolean equals(Object o) {
            if (!(o instanceof Map.Entry)) return false;
            Map.Entry<?, ?> e = (Map.Entry<?, ?>) o;
            Object k = e.getKey(), v = e.getValue();
            return k != null && v != null && (k == key || k.equals(key)) && (v == val || v.equals(val));
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    private Node<K, V>[] table;
    private int count;
    /** Table size to allocate first (0: the default). */
    private int initialCapacity;

    static final int spread(int h) { return (h ^ (h >>> 16)) & HASH_BITS; }

    private static int tableSizeFor(int c) {
        int n = -1 >>> Integer.numberOfLeadingZeros(c - 1);
        return (n < 0) ? 1 : (n >= MAXIMUM_CAPACITY) ? MAXIMUM_CAPACITY : n + 1;
    }

    public ConcurrentHashMap() {}
    public ConcurrentHashMap(int initialCapacity) { this(initialCapacity, 0.75f, 1); }
    public ConcurrentHashMap(int initialCapacity, float loadFactor) { this(initialCapacity, loadFactor, 1); }
    public ConcurrentHashMap(int initialCapacity, float loadFactor, int concurrencyLevel) {
        if (!(loadFactor > 0.0f) || initialCapacity < 0 || concurrencyLevel <= 0) throw new IllegalArgumentException();
        if (initialCapacity < concurrencyLevel) initialCapacity = concurrencyLevel;
        long size = (long) (1.0 + (long) initialCapacity / loadFactor);
        this.initialCapacity = (size >= (long) MAXIMUM_CAPACITY) ? MAXIMUM_CAPACITY : tableSizeFor((int) size);
    }
    public ConcurrentHashMap(Map<? extends K, ? extends V> m) {
        this();
        putAll(m);
    }

    @SuppressWarnings("unchecked")
    private Node<K, V>[] newTable(int n) { return (Node<K, V>[]) new Node[n]; }

    /** Under the lock: the node of {@code key}, or null. */
    private Node<K, V> find(Object key) {
        if (key == null) throw new NullPointerException();
        Node<K, V>[] tab = table;
        if (tab == null) return null;
        int h = spread(key.hashCode());
        for (Node<K, V> e = tab[(tab.length - 1) & h]; e != null; e = e.next) {
            if (e.hash == h && (e.key == key || key.equals(e.key))) return e;
        }
        return null;
    }

    /** Under the lock: adds a node for a key that is not in the map, resizing as the JDK does. */
    private void insert(K key, V value) {
        if (table == null) table = newTable(initialCapacity > 0 ? initialCapacity : DEFAULT_CAPACITY);
        int h = spread(key.hashCode());
        int i = (table.length - 1) & h;
        Node<K, V> node = new Node<>(h, key, value);
        Node<K, V> e = table[i];
        if (e == null) {
            table[i] = node;
        } else {
            while (e.next != null) e = e.next;
            e.next = node;
        }
        count++;
        int n = table.length;
        if (count >= n - (n >>> 2) && n < MAXIMUM_CAPACITY) resize();
    }

    /**
     * Doubles the table. Each bin splits into a low and a high bin: the longest tail run of nodes
     * that go to the same half stays as it is, and the nodes before it are put in front of their
     * half's list one by one (so in reverse order), which is the order the JDK's transfer leaves.
     */
    private void resize() {
        Node<K, V>[] tab = table;
        int n = tab.length;
        Node<K, V>[] nt = newTable(n << 1);
        for (int i = 0; i < n; i++) {
            Node<K, V> f = tab[i];
            if (f == null) continue;
            int runBit = f.hash & n;
            Node<K, V> lastRun = f;
            for (Node<K, V> p = f.next; p != null; p = p.next) {
                int b = p.hash & n;
                if (b != runBit) {
                    runBit = b;
                    lastRun = p;
                }
            }
            Node<K, V> ln = null, hn = null;
            if (runBit == 0) ln = lastRun;
            else hn = lastRun;
            for (Node<K, V> p = f; p != lastRun; p = p.next) {
                Node<K, V> copy = new Node<>(p.hash, p.key, p.val);
                if ((p.hash & n) == 0) {
                    copy.next = ln;
                    ln = copy;
                } else {
                    copy.next = hn;
                    hn = copy;
                }
            }
            nt[i] = ln;
            nt[i + n] = hn;
        }
        table = nt;
    }

    /** Under the lock: unlinks the node of {@code key}; returns it, or null. */
    private Node<K, V> unlink(Object key) {
        Node<K, V>[] tab = table;
        if (tab == null) return null;
        int h = spread(key.hashCode());
        int i = (tab.length - 1) & h;
        Node<K, V> prev = null;
        for (Node<K, V> e = tab[i]; e != null; prev = e, e = e.next) {
            if (e.hash == h && (e.key == key || key.equals(e.key))) {
                if (prev == null) tab[i] = e.next;
                else prev.next = e.next;
                count--;
                return e;
            }
        }
        return null;
    }

    public int size() {
        lock.lock();
        try {
            return count;
        } finally {
            lock.unlock();
        }
    }
    public long mappingCount() { return size(); }
    public boolean isEmpty() { return size() == 0; }

    public V get(Object key) {
        lock.lock();
        try {
            Node<K, V> e = find(key);
            return e == null ? null : e.val;
        } finally {
            lock.unlock();
        }
    }
    public V getOrDefault(Object key, V defaultValue) {
        V v = get(key);
        return v == null ? defaultValue : v;
    }
    public boolean containsKey(Object key) { return get(key) != null; }
    public boolean containsValue(Object value) {
        if (value == null) throw new NullPointerException();
        for (Node<K, V> e : snapshot()) if (value == e.val || value.equals(e.val)) return true;
        return false;
    }
    public boolean contains(Object value) { return containsValue(value); }

    private V putVal(K key, V value, boolean onlyIfAbsent) {
        if (key == null || value == null) throw new NullPointerException();
        lock.lock();
        try {
            Node<K, V> e = find(key);
            if (e != null) {
                V old = e.val;
                if (!onlyIfAbsent) e.val = value;
                return old;
            }
            insert(key, value);
            return null;
        } finally {
            lock.unlock();
        }
    }
    public V put(K key, V value) { return putVal(key, value, false); }
    public V putIfAbsent(K key, V value) { return putVal(key, value, true); }
    public void putAll(Map<? extends K, ? extends V> m) {
        for (Map.Entry<? extends K, ? extends V> e : m.entrySet()) put(e.getKey(), e.getValue());
    }

    public V remove(Object key) {
        if (key == null) throw new NullPointerException();
        lock.lock();
        try {
            Node<K, V> e = unlink(key);
            return e == null ? null : e.val;
        } finally {
            lock.unlock();
        }
    }
    public boolean remove(Object key, Object value) {
        if (key == null) throw new NullPointerException();
        if (value == null) return false;
        lock.lock();
        try {
            Node<K, V> e = find(key);
            if (e == null || !(value == e.val || value.equals(e.val))) return false;
            unlink(key);
            return true;
        } finally {
            lock.unlock();
        }
    }
    public boolean replace(K key, V oldValue, V newValue) {
        if (key == null || oldValue == null || newValue == null) throw new NullPointerException();
        lock.lock();
        try {
            Node<K, V> e = find(key);
            if (e == null || !(oldValue == e.val || oldValue.equals(e.val))) return false;
            e.val = newValue;
            return true;
        } finally {
            lock.unlock();
        }
    }
    public V replace(K key, V value) {
        if (key == null || value == null) throw new NullPointerException();
        lock.lock();
        try {
            Node<K, V> e = find(key);
            if (e == null) return null;
            V old = e.val;
            e.val = value;
            return old;
        } finally {
            lock.unlock();
        }
    }
    public void clear() {
        lock.lock();
        try {
            if (table != null) {
                for (int i = 0; i < table.length; i++) table[i] = null;
            }
            count = 0;
        } finally {
            lock.unlock();
        }
    }

    public V computeIfAbsent(K key, Function<? super K, ? extends V> mappingFunction) {
        if (key == null || mappingFunction == null) throw new NullPointerException();
        lock.lock();
        try {
            Node<K, V> e = find(key);
            if (e != null) return e.val;
            V v = mappingFunction.apply(key);
            if (v != null) insert(key, v);
            return v;
        } finally {
            lock.unlock();
        }
    }
    public V computeIfPresent(K key, BiFunction<? super K, ? super V, ? extends V> remappingFunction) {
        if (key == null || remappingFunction == null) throw new NullPointerException();
        lock.lock();
        try {
            Node<K, V> e = find(key);
            if (e == null) return null;
            V v = remappingFunction.apply(key, e.val);
            if (v == null) unlink(key);
            else e.val = v;
            return v;
        } finally {
            lock.unlock();
        }
    }
    public V compute(K key, BiFunction<? super K, ? super V, ? extends V> remappingFunction) {
        if (key == null || remappingFunction == null) throw new NullPointerException();
        lock.lock();
        try {
            Node<K, V> e = find(key);
            V v = remappingFunction.apply(key, e == null ? null : e.val);
            if (e != null) {
                if (v == null) unlink(key);
                else e.val = v;
            } else if (v != null) {
                insert(key, v);
            }
            return v;
        } finally {
            lock.unlock();
        }
    }
    public V merge(K key, V value, BiFunction<? super V, ? super V, ? extends V> remappingFunction) {
        if (key == null || value == null || remappingFunction == null) throw new NullPointerException();
        lock.lock();
        try {
            Node<K, V> e = find(key);
            if (e == null) {
                insert(key, value);
                return value;
            }
            V v = remappingFunction.apply(e.val, value);
            if (v == null) unlink(key);
            else e.val = v;
            return v;
        } finally {
            lock.unlock();
        }
    }

    /** The nodes in table order, copied under the lock. */
    @SuppressWarnings("unchecked")
    private Node<K, V>[] snapshot() {
        lock.lock();
        try {
            Node<K, V>[] out = newTable(count);
            int k = 0;
            if (table != null) {
                for (Node<K, V> b : table) for (Node<K, V> e = b; e != null; e = e.next) out[k++] = new Node<>(e.hash, e.key, e.val);
            }
            return out;
        } finally {
            lock.unlock();
        }
    }

    public void forEach(BiConsumer<? super K, ? super V> action) {
        if (action == null) throw new NullPointerException();
        for (Node<K, V> e : snapshot()) action.accept(e.key, e.val);
    }
    public void replaceAll(BiFunction<? super K, ? super V, ? extends V> function) {
        if (function == null) throw new NullPointerException();
        for (Node<K, V> e : snapshot()) {
            V v = function.apply(e.key, e.val);
            if (v == null) throw new NullPointerException();
            replace(e.key, e.val, v);
        }
    }

    /** Iterates over a snapshot; remove() removes the last key from the map. */
    abstract class SnapshotIterator<T> implements Iterator<T> {
        final Node<K, V>[] nodes = snapshot();
        int next;
        Node<K, V> last;
        public boolean hasNext() { return next < nodes.length; }
        Node<K, V> nextNode() {
            if (next >= nodes.length) throw new NoSuchElementException();
            return last = nodes[next++];
        }
        public void remove() {
            if (last == null) throw new IllegalStateException();
            ConcurrentHashMap.this.remove(last.key);
            last = null;
        }
    }

    public KeySetView<K, V> keySet() { return new KeySetView<>(this, null); }
    public KeySetView<K, V> keySet(V mappedValue) {
        if (mappedValue == null) throw new NullPointerException();
        return new KeySetView<>(this, mappedValue);
    }
    public static <K> KeySetView<K, Boolean> newKeySet() { return new KeySetView<>(new ConcurrentHashMap<K, Boolean>(), Boolean.TRUE); }
    public static <K> KeySetView<K, Boolean> newKeySet(int initialCapacity) {
        return new KeySetView<>(new ConcurrentHashMap<K, Boolean>(initialCapacity), Boolean.TRUE);
    }

    public Collection<V> values() {
        return new AbstractCollection<V>() {
            public Iterator<V> iterator() {
                return new SnapshotIterator<V>() {
                    public V next() { return nextNode().val; }
                };
            }
            public int size() { return ConcurrentHashMap.this.size(); }
            public boolean contains(Object o) { return containsValue(o); }
            public void clear() { ConcurrentHashMap.this.clear(); }
        };
    }

    public Set<Map.Entry<K, V>> entrySet() {
        return new AbstractSet<Map.Entry<K, V>>() {
            public Iterator<Map.Entry<K, V>> iterator() {
                return new SnapshotIterator<Map.Entry<K, V>>() {
                    public Map.Entry<K, V> next() {
                        Node<K, V> e = nextNode();
                        return new MapEntry(e.key, e.val);
                    }
                };
            }
            public int size() { return ConcurrentHashMap.this.size(); }
            public boolean contains(Object o) {
                if (!(o instanceof Map.Entry)) return false;
                Map.Entry<?, ?> e = (Map.Entry<?, ?>) o;
                Object k = e.getKey(), v = e.getValue();
                if (k == null || v == null) return false;
                Object mine = get(k);
                return mine != null && (mine == v || mine.equals(v));
            }
            public boolean remove(Object o) {
                if (!(o instanceof Map.Entry)) return false;
                Map.Entry<?, ?> e = (Map.Entry<?, ?>) o;
                return e.getKey() != null && ConcurrentHashMap.this.remove(e.getKey(), e.getValue());
            }
            public void clear() { ConcurrentHashMap.this.clear(); }
        };
    }

    Iterator<K> keyIterator() {
        return new SnapshotIterator<K>() {
            public K next() { return nextNode().key; }
        };
    }

    public int hashCode() {
        int h = 0;
        for (Node<K, V> e : snapshot()) h += e.key.hashCode() ^ e.val.hashCode();
        return h;
    }
    public String toString() {
        Node<K, V>[] nodes = snapshot();
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < nodes.length; i++) {
            if (i > 0) sb.append(", ");
            Object k = nodes[i].key, v = nodes[i].val;
            sb.append(k == this ? "(this Map)" : k).append('=').append(v == this ? "(this Map)" : v);
        }
        return sb.append('}').toString();
    }

    /** The map's keys as a set; with a default value, add() puts it (as newKeySet's sets do). */
    public static class KeySetView<K, V> extends AbstractSet<K> implements java.io.Serializable {
        private final ConcurrentHashMap<K, V> map;
        private final V value;
        KeySetView(ConcurrentHashMap<K, V> map, V value) {
            this.map = map;
            this.value = value;
        }
        public ConcurrentHashMap<K, V> getMap() { return map; }
        public V getMappedValue() { return value; }
        public Iterator<K> iterator() { return map.keyIterator(); }
        public int size() { return map.size(); }
        public boolean isEmpty() { return map.isEmpty(); }
        public boolean contains(Object o) { return map.containsKey(o); }
        public boolean remove(Object o) { return map.remove(o) != null; }
        public void clear() { map.clear(); }
        public boolean add(K e) {
            if (value == null) throw new UnsupportedOperationException();
            return map.putIfAbsent(e, value) == null;
        }
    }
}
