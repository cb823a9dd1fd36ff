package java.util;

/** A hash table with the JDK's layout (power-of-two table, hash spreading, 0.75 load factor, bins
 * split in order on resize), so iteration order matches HotSpot's (bins are never treeified). */
public class HashMap<K, V> extends AbstractMap<K, V> implements Map<K, V>, Cloneable, java.io.Serializable {
    static final int DEFAULT_INITIAL_CAPACITY = 16;
    static final int MAXIMUM_CAPACITY = 1 << 30;
    static final float DEFAULT_LOAD_FACTOR = 0.75f;

    static class Node<K, V> implements Map.Entry<K, V> {
        final int hash;
        final K key;
        V value;
        Node<K, V> next;
        Node(int hash, K key, V value, Node<K, V> next) { this.hash = hash; this.key = key; this.value = value; this.next = next; }
        public final K getKey() { return key; }
        public final V getValue() { return value; }
        public final String toString() { return key + "=" + value; }
        public final int hashCode() { return Objects.hashCode(key) ^ Objects.hashCode(value); }
        public final V setValue(V newValue) { V oldValue = value; value = newValue; return oldValue; }
        public final boolean equals(Object o) {
            if (o == this) return true;
            if (!(o instanceof Map.Entry)) return false;
            Map.Entry<?, ?> e = (Map.Entry<?, ?>) o;
            return Objects.equals(key, e.getKey()) && Objects.equals(value, e.getValue());
        }
    }

    static final int hash(Object key) {
        int h;
        return (key == null) ? 0 : (h = key.hashCode()) ^ (h >>> 16);
    }
    static final int tableSizeFor(int cap) {
        int n = -1 >>> Integer.numberOfLeadingZeros(cap - 1);
        return (n < 0) ? 1 : (n >= MAXIMUM_CAPACITY) ? MAXIMUM_CAPACITY : n + 1;
    }

    transient Node<K, V>[] table;
    transient int size;
    transient int modCount;
    int threshold;
    final float loadFactor;

    public HashMap(int initialCapacity, float loadFactor) {
        if (initialCapacity < 0) throw new IllegalArgumentException("Illegal initial capacity: " + initialCapacity);
        if (initialCapacity > MAXIMUM_CAPACITY) initialCapacity = MAXIMUM_CAPACITY;
        if (loadFactor <= 0 || Float.isNaN(loadFactor)) throw new IllegalArgumentException("Illegal load factor: " + loadFactor);
        this.loadFactor = loadFactor;
        this.threshold = tableSizeFor(initialCapacity);
    }
    public HashMap(int initialCapacity) { this(initialCapacity, DEFAULT_LOAD_FACTOR); }
    public HashMap() { this.loadFactor = DEFAULT_LOAD_FACTOR; }
    public HashMap(Map<? extends K, ? extends V> m) {
        this.loadFactor = DEFAULT_LOAD_FACTOR;
        putMapEntries(m, false);
    }
    /** `evict` false (a constructor, clone): LinkedHashMap does not ask removeEldestEntry, as the JDK's. */
    final void putMapEntries(Map<? extends K, ? extends V> m, boolean evict) {
        int s = m.size();
        if (s > 0) {
            if (table == null) {
                float ft = ((float) s / loadFactor) + 1.0F;
                int t = ((ft < (float) MAXIMUM_CAPACITY) ? (int) ft : MAXIMUM_CAPACITY);
                if (t > threshold) threshold = tableSizeFor(t);
            } else {
                while (s > threshold && table.length < MAXIMUM_CAPACITY) resize();
            }
            for (Map.Entry<? extends K, ? extends V> e : m.entrySet()) putVal(hash(e.getKey()), e.getKey(), e.getValue(), false, evict);
        }
    }
    public int size() { return size; }
    public boolean isEmpty() { return size == 0; }
    public V get(Object key) {
        Node<K, V> e = getNode(key);
        return e == null ? null : e.value;
    }
    final Node<K, V> getNode(Object key) {
        Node<K, V>[] tab = table;
        if (tab == null) return null;
        int hash = hash(key);
        Node<K, V> e = tab[(tab.length - 1) & hash];
        while (e != null) {
            Object k;
            if (e.hash == hash && ((k = e.key) == key || (key != null && key.equals(k)))) return e;
            e = e.next;
        }
        return null;
    }
    public boolean containsKey(Object key) { return getNode(key) != null; }
    public V put(K key, V value) { return putVal(hash(key), key, value, false, true); }
    public V putIfAbsent(K key, V value) { return putVal(hash(key), key, value, true, true); }
    final V putVal(int hash, K key, V value, boolean onlyIfAbsent, boolean evict) {
        Node<K, V>[] tab = table;
        int n, i;
        if (tab == null || (n = tab.length) == 0) n = (tab = resize()).length;
        Node<K, V> p = tab[i = (n - 1) & hash];
        if (p == null) {
            tab[i] = newNode(hash, key, value, null);
        } else {
            Node<K, V> e = null;
            for (;;) {
                Object k;
                if (p.hash == hash && ((k = p.key) == key || (key != null && key.equals(k)))) { e = p; break; }
                if (p.next == null) { p.next = newNode(hash, key, value, null); break; }
                p = p.next;
            }
            if (e != null) {
                V oldValue = e.value;
                if (!onlyIfAbsent || oldValue == null) e.value = value;
                afterNodeAccess(e);
                return oldValue;
            }
        }
        ++modCount;
        if (++size > threshold) resize();
        afterNodeInsertion(evict);
        return null;
    }
    // Hooks for LinkedHashMap.
    Node<K, V> newNode(int hash, K key, V value, Node<K, V> next) { return new Node<>(hash, key, value, next); }
    void afterNodeAccess(Node<K, V> p) {}
    void afterNodeInsertion(boolean evict) {}
    /** The state of a new, empty map (clone's, before it copies the entries). */
    void reinitialize() {
        table = null;
        modCount = 0;
        threshold = 0;
        size = 0;
    }
    void afterNodeRemoval(Node<K, V> p) {}
    @SuppressWarnings("unchecked")
    final Node<K, V>[] resize() {
        Node<K, V>[] oldTab = table;
        int oldCap = (oldTab == null) ? 0 : oldTab.length;
        int oldThr = threshold;
        int newCap, newThr = 0;
        if (oldCap > 0) {
            if (oldCap >= MAXIMUM_CAPACITY) { threshold = Integer.MAX_VALUE; return oldTab; }
            else if ((newCap = oldCap << 1) < MAXIMUM_CAPACITY && oldCap >= DEFAULT_INITIAL_CAPACITY) newThr = oldThr << 1;
        } else if (oldThr > 0) newCap = oldThr;
        else { newCap = DEFAULT_INITIAL_CAPACITY; newThr = (int) (DEFAULT_LOAD_FACTOR * DEFAULT_INITIAL_CAPACITY); }
        if (newThr == 0) {
            float ft = (float) newCap * loadFactor;
            newThr = (newCap < MAXIMUM_CAPACITY && ft < (float) MAXIMUM_CAPACITY ? (int) ft : Integer.MAX_VALUE);
        }
        threshold = newThr;
        Node<K, V>[] newTab = (Node<K, V>[]) new Node[newCap];
        table = newTab;
        if (oldTab != null) {
            for (int j = 0; j < oldCap; ++j) {
                Node<K, V> e = oldTab[j];
                if (e == null) continue;
                oldTab[j] = null;
                if (e.next == null) { newTab[e.hash & (newCap - 1)] = e; continue; }
                Node<K, V> loHead = null, loTail = null, hiHead = null, hiTail = null, next;
                do {
                    next = e.next;
                    if ((e.hash & oldCap) == 0) {
                        if (loTail == null) loHead = e; else loTail.next = e;
                        loTail = e;
                    } else {
                        if (hiTail == null) hiHead = e; else hiTail.next = e;
                        hiTail = e;
                    }
                } while ((e = next) != null);
                if (loTail != null) { loTail.next = null; newTab[j] = loHead; }
                if (hiTail != null) { hiTail.next = null; newTab[j + oldCap] = hiHead; }
            }
        }
        return newTab;
    }
    public void putAll(Map<? extends K, ? extends V> m) { putMapEntries(m, true); }
    public V remove(Object key) {
        Node<K, V> e = removeNode(hash(key), key);
        return e == null ? null : e.value;
    }
    final Node<K, V> removeNode(int hash, Object key) {
        Node<K, V>[] tab = table;
        if (tab == null) return null;
        int index = (tab.length - 1) & hash;
        Node<K, V> p = tab[index], prev = null;
        while (p != null) {
            Object k;
            if (p.hash == hash && ((k = p.key) == key || (key != null && key.equals(k)))) {
                if (prev == null) tab[index] = p.next; else prev.next = p.next;
                ++modCount;
                --size;
                afterNodeRemoval(p);
                return p;
            }
            prev = p;
            p = p.next;
        }
        return null;
    }
    public void clear() {
        modCount++;
        if (table != null && size > 0) {
            size = 0;
            for (int i = 0; i < table.length; ++i) table[i] = null;
        }
    }
    public boolean containsValue(Object value) {
        if (table != null && size > 0)
            for (Node<K, V> e : table)
                for (; e != null; e = e.next) if (Objects.equals(value, e.value)) return true;
        return false;
    }
    public V getOrDefault(Object key, V defaultValue) {
        Node<K, V> e = getNode(key);
        return e == null ? defaultValue : e.value;
    }
    /** Object.clone (so a subclass's clone is of the subclass, its fields and load factor copied),
     * then a new table with the entries put in again (in this map's iteration order), as the JDK's. */
    @SuppressWarnings("unchecked")
    public Object clone() {
        HashMap<K, V> result;
        try {
            result = (HashMap<K, V>) super.clone();
        } catch (CloneNotSupportedException e) {
            throw new InternalError(e);
        }
        result.reinitialize();
        result.putMapEntries(this, false);
        return result;
    }

    abstract class HashIterator {
        Node<K, V> next, current;
        int expectedModCount;
        int index;
        HashIterator() {
            expectedModCount = modCount;
            Node<K, V>[] t = table;
            current = next = null;
            index = 0;
            if (t != null && size > 0) { do {} while (index < t.length && (next = t[index++]) == null); }
        }
        public final boolean hasNext() { return next != null; }
        final Node<K, V> nextNode() {
            Node<K, V>[] t;
            Node<K, V> e = next;
            if (modCount != expectedModCount) throw new ConcurrentModificationException();
            if (e == null) throw new NoSuchElementException();
            if ((next = (current = e).next) == null && (t = table) != null) {
                do {} while (index < t.length && (next = t[index++]) == null);
            }
            return e;
        }
        public final void remove() {
            Node<K, V> p = current;
            if (p == null) throw new IllegalStateException();
            if (modCount != expectedModCount) throw new ConcurrentModificationException();
            current = null;
            removeNode(p.hash, p.key);
            expectedModCount = modCount;
        }
    }
    final class KeyIterator extends HashIterator implements Iterator<K> { public final K next() { return nextNode().key; } }
    final class ValueIterator extends HashIterator implements Iterator<V> { public final V next() { return nextNode().value; } }
    final class EntryIterator extends HashIterator implements Iterator<Map.Entry<K, V>> { public final Map.Entry<K, V> next() { return nextNode(); } }

    public Set<K> keySet() {
        return new AbstractSet<K>() {
            public int size() { return size; }
            public void clear() { HashMap.this.clear(); }
            public Iterator<K> iterator() { return new KeyIterator(); }
            public boolean contains(Object o) { return containsKey(o); }
            public boolean remove(Object key) { return removeNode(hash(key), key) != null; }
        };
    }
    public Collection<V> values() {
        return new AbstractCollection<V>() {
            public int size() { return size; }
            public void clear() { HashMap.this.clear(); }
            public Iterator<V> iterator() { return new ValueIterator(); }
            public boolean contains(Object o) { return containsValue(o); }
        };
    }
    public Set<Map.Entry<K, V>> entrySet() {
        return new AbstractSet<Map.Entry<K, V>>() {
            public int size() { return size; }
            public void clear() { HashMap.this.clear(); }
            public Iterator<Map.Entry<K, V>> iterator() { return new EntryIterator(); }
            public boolean contains(Object o) {
                if (!(o instanceof Map.Entry)) return false;
                Map.Entry<?, ?> e = (Map.Entry<?, ?>) o;
                Node<K, V> candidate = getNode(e.getKey());
                return candidate != null && candidate.equals(e);
            }
        };
    }
}
