package java.util.concurrent;

import java.util.AbstractCollection;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A sorted concurrent map with the JDK's API. rvm's is not a skip list: it is a TreeMap (or one of
 * its range or descending views) behind a ReentrantLock shared by the map and all its views, so
 * every operation, compute and merge functions included, is atomic, and the views write through.
 * Keys and values may not be null. Iterators iterate over a snapshot taken when they are made
 * (weakly consistent, never throwing ConcurrentModificationException), and the entries they
 * return are immutable snapshots, as the JDK's.
 */
public class ConcurrentSkipListMap<K, V> extends AbstractMap<K, V> implements ConcurrentNavigableMap<K, V>, Cloneable, java.io.Serializable {
    final ReentrantLock lock;
    final NavigableMap<K, V> m;
    private final Comparator<? super K> comparator;

    public ConcurrentSkipListMap() { this((Comparator<? super K>) null); }
    public ConcurrentSkipListMap(Comparator<? super K> comparator) {
        this.comparator = comparator;
        this.m = new TreeMap<>(comparator);
        this.lock = new ReentrantLock();
    }
    public ConcurrentSkipListMap(Map<? extends K, ? extends V> map) {
        this((Comparator<? super K>) null);
        putAll(map);
    }
    @SuppressWarnings("unchecked")
    public ConcurrentSkipListMap(SortedMap<K, ? extends V> map) {
        this((Comparator<? super K>) map.comparator());
        putAll(map);
    }
    /** A view: {@code m} is a view of the map whose lock is {@code lock}. */
    private ConcurrentSkipListMap(ReentrantLock lock, NavigableMap<K, V> m) {
        this.lock = lock;
        this.m = m;
        this.comparator = m.comparator();
    }

    private static void check(Object o) {
        if (o == null) throw new NullPointerException();
    }

    public Comparator<? super K> comparator() { return comparator; }

    public int size() {
        lock.lock();
        try {
            return m.size();
        } finally {
            lock.unlock();
        }
    }
    public boolean isEmpty() { return size() == 0; }
    public boolean containsKey(Object key) {
        check(key);
        lock.lock();
        try {
            return m.containsKey(key);
        } finally {
            lock.unlock();
        }
    }
    public boolean containsValue(Object value) {
        check(value);
        lock.lock();
        try {
            return m.containsValue(value);
        } finally {
            lock.unlock();
        }
    }
    public V get(Object key) {
        check(key);
        lock.lock();
        try {
            return m.get(key);
        } finally {
            lock.unlock();
        }
    }
    public V getOrDefault(Object key, V defaultValue) {
        V v = get(key);
        return v == null ? defaultValue : v;
    }
    public V put(K key, V value) {
        check(key);
        check(value);
        lock.lock();
        try {
            return m.put(key, value);
        } finally {
            lock.unlock();
        }
    }
    public void putAll(Map<? extends K, ? extends V> map) {
        for (Map.Entry<? extends K, ? extends V> e : map.entrySet()) put(e.getKey(), e.getValue());
    }
    public V remove(Object key) {
        check(key);
        lock.lock();
        try {
            return m.remove(key);
        } finally {
            lock.unlock();
        }
    }
    public void clear() {
        lock.lock();
        try {
            m.clear();
        } finally {
            lock.unlock();
        }
    }
    public V putIfAbsent(K key, V value) {
        check(key);
        check(value);
        lock.lock();
        try {
            V v = m.get(key);
            if (v == null) m.put(key, value);
            return v;
        } finally {
            lock.unlock();
        }
    }
    public boolean remove(Object key, Object value) {
        check(key);
        if (value == null) return false;
        lock.lock();
        try {
            V v = m.get(key);
            if (v == null || !v.equals(value)) return false;
            m.remove(key);
            return true;
        } finally {
            lock.unlock();
        }
    }
    public boolean replace(K key, V oldValue, V newValue) {
        check(key);
        check(oldValue);
        check(newValue);
        lock.lock();
        try {
            V v = m.get(key);
            if (v == null || !v.equals(oldValue)) return false;
            m.put(key, newValue);
            return true;
        } finally {
            lock.unlock();
        }
    }
    public V replace(K key, V value) {
        check(key);
        check(value);
        lock.lock();
        try {
            V v = m.get(key);
            if (v != null) m.put(key, value);
            return v;
        } finally {
            lock.unlock();
        }
    }
    public V computeIfAbsent(K key, Function<? super K, ? extends V> f) {
        check(key);
        check(f);
        lock.lock();
        try {
            V v = m.get(key);
            if (v == null && (v = f.apply(key)) != null) m.put(key, v);
            return v;
        } finally {
            lock.unlock();
        }
    }
    public V computeIfPresent(K key, BiFunction<? super K, ? super V, ? extends V> f) {
        check(key);
        check(f);
        lock.lock();
        try {
            V v = m.get(key);
            if (v == null) return null;
            V r = f.apply(key, v);
            if (r == null) m.remove(key);
            else m.put(key, r);
            return r;
        } finally {
            lock.unlock();
        }
    }
    public V compute(K key, BiFunction<? super K, ? super V, ? extends V> f) {
        check(key);
        check(f);
        lock.lock();
        try {
            V r = f.apply(key, m.get(key));
            if (r == null) m.remove(key);
            else m.put(key, r);
            return r;
        } finally {
            lock.unlock();
        }
    }
    public V merge(K key, V value, BiFunction<? super V, ? super V, ? extends V> f) {
        check(key);
        check(value);
        check(f);
        lock.lock();
        try {
            V v = m.get(key);
            V r = v == null ? value : f.apply(v, value);
            if (r == null) m.remove(key);
            else m.put(key, r);
            return r;
        } finally {
            lock.unlock();
        }
    }
    public void forEach(BiConsumer<? super K, ? super V> action) {
        check(action);
        for (Map.Entry<K, V> e : snapshot()) action.accept(e.getKey(), e.getValue());
    }
    public void replaceAll(BiFunction<? super K, ? super V, ? extends V> f) {
        check(f);
        for (Map.Entry<K, V> e : snapshot()) {
            V r = f.apply(e.getKey(), e.getValue());
            check(r);
            replace(e.getKey(), e.getValue(), r);
        }
    }

    /** The entries now, as immutable entries, in this map's order. */
    final ArrayList<Map.Entry<K, V>> snapshot() {
        lock.lock();
        try {
            ArrayList<Map.Entry<K, V>> l = new ArrayList<>(m.size());
            for (Map.Entry<K, V> e : m.entrySet()) l.add(new AbstractMap.SimpleImmutableEntry<>(e.getKey(), e.getValue()));
            return l;
        } finally {
            lock.unlock();
        }
    }

    private static <K, V> Map.Entry<K, V> snap(Map.Entry<K, V> e) { return e == null ? null : new AbstractMap.SimpleImmutableEntry<>(e.getKey(), e.getValue()); }

    /** Iterates over a snapshot; remove removes the last key from the map. */
    private abstract class SnapshotIterator<T> implements Iterator<T> {
        final Iterator<Map.Entry<K, V>> it = snapshot().iterator();
        Map.Entry<K, V> last;
        public boolean hasNext() { return it.hasNext(); }
        Map.Entry<K, V> nextEntry() {
            last = it.next();
            return last;
        }
        public void remove() {
            if (last == null) throw new IllegalStateException();
            ConcurrentSkipListMap.this.remove(last.getKey());
            last = null;
        }
    }

    final Iterator<K> keyIterator() {
        return new SnapshotIterator<K>() {
            public K next() { return nextEntry().getKey(); }
        };
    }

    public Set<Map.Entry<K, V>> entrySet() {
        return new AbstractSet<Map.Entry<K, V>>() {
            public Iterator<Map.Entry<K, V>> iterator() {
                return new SnapshotIterator<Map.Entry<K, V>>() {
                    public Map.Entry<K, V> next() { return nextEntry(); }
                };
            }
            public int size() { return ConcurrentSkipListMap.this.size(); }
            public boolean contains(Object o) {
                if (!(o instanceof Map.Entry)) return false;
                Map.Entry<?, ?> e = (Map.Entry<?, ?>) o;
                V v = e.getKey() == null ? null : ConcurrentSkipListMap.this.get(e.getKey());
                return v != null && v.equals(e.getValue());
            }
            public boolean remove(Object o) {
                if (!(o instanceof Map.Entry)) return false;
                Map.Entry<?, ?> e = (Map.Entry<?, ?>) o;
                return e.getKey() != null && ConcurrentSkipListMap.this.remove(e.getKey(), e.getValue());
            }
            public void clear() { ConcurrentSkipListMap.this.clear(); }
        };
    }

    public Collection<V> values() {
        return new AbstractCollection<V>() {
            public Iterator<V> iterator() {
                return new SnapshotIterator<V>() {
                    public V next() { return nextEntry().getValue(); }
                };
            }
            public int size() { return ConcurrentSkipListMap.this.size(); }
            public boolean contains(Object o) { return o != null && ConcurrentSkipListMap.this.containsValue(o); }
            public void clear() { ConcurrentSkipListMap.this.clear(); }
        };
    }

    public NavigableSet<K> keySet() { return new ConcurrentSkipListSet<K>(this, true); }
    public NavigableSet<K> navigableKeySet() { return keySet(); }
    public NavigableSet<K> descendingKeySet() { return descendingMap().navigableKeySet(); }

    public ConcurrentNavigableMap<K, V> subMap(K fromKey, boolean fromInclusive, K toKey, boolean toInclusive) {
        check(fromKey);
        check(toKey);
        lock.lock();
        try {
            return new ConcurrentSkipListMap<>(lock, m.subMap(fromKey, fromInclusive, toKey, toInclusive));
        } finally {
            lock.unlock();
        }
    }
    public ConcurrentNavigableMap<K, V> headMap(K toKey, boolean inclusive) {
        check(toKey);
        lock.lock();
        try {
            return new ConcurrentSkipListMap<>(lock, m.headMap(toKey, inclusive));
        } finally {
            lock.unlock();
        }
    }
    public ConcurrentNavigableMap<K, V> tailMap(K fromKey, boolean inclusive) {
        check(fromKey);
        lock.lock();
        try {
            return new ConcurrentSkipListMap<>(lock, m.tailMap(fromKey, inclusive));
        } finally {
            lock.unlock();
        }
    }
    public ConcurrentNavigableMap<K, V> subMap(K fromKey, K toKey) { return subMap(fromKey, true, toKey, false); }
    public ConcurrentNavigableMap<K, V> headMap(K toKey) { return headMap(toKey, false); }
    public ConcurrentNavigableMap<K, V> tailMap(K fromKey) { return tailMap(fromKey, true); }
    public ConcurrentNavigableMap<K, V> descendingMap() {
        lock.lock();
        try {
            return new ConcurrentSkipListMap<>(lock, m.descendingMap());
        } finally {
            lock.unlock();
        }
    }

    public Map.Entry<K, V> lowerEntry(K key) {
        check(key);
        lock.lock();
        try {
            return snap(m.lowerEntry(key));
        } finally {
            lock.unlock();
        }
    }
    public K lowerKey(K key) {
        check(key);
        lock.lock();
        try {
            return m.lowerKey(key);
        } finally {
            lock.unlock();
        }
    }
    public Map.Entry<K, V> floorEntry(K key) {
        check(key);
        lock.lock();
        try {
            return snap(m.floorEntry(key));
        } finally {
            lock.unlock();
        }
    }
    public K floorKey(K key) {
        check(key);
        lock.lock();
        try {
            return m.floorKey(key);
        } finally {
            lock.unlock();
        }
    }
    public Map.Entry<K, V> ceilingEntry(K key) {
        check(key);
        lock.lock();
        try {
            return snap(m.ceilingEntry(key));
        } finally {
            lock.unlock();
        }
    }
    public K ceilingKey(K key) {
        check(key);
        lock.lock();
        try {
            return m.ceilingKey(key);
        } finally {
            lock.unlock();
        }
    }
    public Map.Entry<K, V> higherEntry(K key) {
        check(key);
        lock.lock();
        try {
            return snap(m.higherEntry(key));
        } finally {
            lock.unlock();
        }
    }
    public K higherKey(K key) {
        check(key);
        lock.lock();
        try {
            return m.higherKey(key);
        } finally {
            lock.unlock();
        }
    }
    public Map.Entry<K, V> firstEntry() {
        lock.lock();
        try {
            return snap(m.firstEntry());
        } finally {
            lock.unlock();
        }
    }
    public Map.Entry<K, V> lastEntry() {
        lock.lock();
        try {
            return snap(m.lastEntry());
        } finally {
            lock.unlock();
        }
    }
    public Map.Entry<K, V> pollFirstEntry() {
        lock.lock();
        try {
            return snap(m.pollFirstEntry());
        } finally {
            lock.unlock();
        }
    }
    public Map.Entry<K, V> pollLastEntry() {
        lock.lock();
        try {
            return snap(m.pollLastEntry());
        } finally {
            lock.unlock();
        }
    }
    public K firstKey() {
        lock.lock();
        try {
            return m.firstKey();
        } finally {
            lock.unlock();
        }
    }
    public K lastKey() {
        lock.lock();
        try {
            return m.lastKey();
        } finally {
            lock.unlock();
        }
    }

    @SuppressWarnings("unchecked")
    public ConcurrentSkipListMap<K, V> clone() {
        ConcurrentSkipListMap<K, V> c = new ConcurrentSkipListMap<>(comparator);
        for (Map.Entry<K, V> e : snapshot()) c.m.put(e.getKey(), e.getValue());
        return c;
    }
}
