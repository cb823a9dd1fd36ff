package java.util;

/** A HashMap that iterates in insertion order (or access order), with removeEldestEntry. */
public class LinkedHashMap<K, V> extends HashMap<K, V> implements Map<K, V> {
    static class Entry<K, V> extends HashMap.Node<K, V> {
        Entry<K, V> before, after;
        Entry(int hash, K key, V value, Node<K, V> next) { super(hash, key, value, next); }
    }
    transient Entry<K, V> head, tail;
    final boolean accessOrder;

    public LinkedHashMap() { super(); accessOrder = false; }
    public LinkedHashMap(int initialCapacity) { super(initialCapacity); accessOrder = false; }
    public LinkedHashMap(int initialCapacity, float loadFactor) { super(initialCapacity, loadFactor); accessOrder = false; }
    public LinkedHashMap(int initialCapacity, float loadFactor, boolean accessOrder) { super(initialCapacity, loadFactor); this.accessOrder = accessOrder; }
    public LinkedHashMap(Map<? extends K, ? extends V> m) { super(); accessOrder = false; putMapEntries(m, false); }

    private void linkLast(Entry<K, V> p) {
        Entry<K, V> last = tail;
        tail = p;
        if (last == null) head = p; else { p.before = last; last.after = p; }
    }
    Node<K, V> newNode(int hash, K key, V value, Node<K, V> e) {
        Entry<K, V> p = new Entry<>(hash, key, value, e);
        linkLast(p);
        return p;
    }
    void afterNodeRemoval(Node<K, V> e) {
        Entry<K, V> p = (Entry<K, V>) e, b = p.before, a = p.after;
        p.before = p.after = null;
        if (b == null) head = a; else b.after = a;
        if (a == null) tail = b; else a.before = b;
    }
    void reinitialize() {
        super.reinitialize();
        head = tail = null;
    }
    void afterNodeInsertion(boolean evict) {
        Entry<K, V> first = head;
        if (evict && first != null && removeEldestEntry(first)) removeNode(hash(first.key), first.key);
    }
    void afterNodeAccess(Node<K, V> e) {
        Entry<K, V> last = tail;
        if (accessOrder && last != e) {
            Entry<K, V> p = (Entry<K, V>) e, b = p.before, a = p.after;
            p.after = null;
            if (b == null) head = a; else b.after = a;
            if (a != null) a.before = b; else last = b;
            if (last == null) head = p; else { p.before = last; last.after = p; }
            tail = p;
            ++modCount;
        }
    }
    protected boolean removeEldestEntry(Map.Entry<K, V> eldest) { return false; }
    public V get(Object key) {
        Node<K, V> e = getNode(key);
        if (e == null) return null;
        if (accessOrder) afterNodeAccess(e);
        return e.value;
    }
    public V getOrDefault(Object key, V defaultValue) {
        Node<K, V> e = getNode(key);
        if (e == null) return defaultValue;
        if (accessOrder) afterNodeAccess(e);
        return e.value;
    }
    public void clear() { super.clear(); head = tail = null; }
    public boolean containsValue(Object value) {
        for (Entry<K, V> e = head; e != null; e = e.after) if (Objects.equals(value, e.value)) return true;
        return false;
    }

    abstract class LinkedIterator {
        Entry<K, V> next = head;
        Entry<K, V> current;
        int expectedModCount = modCount;
        public final boolean hasNext() { return next != null; }
        final Entry<K, V> nextNode() {
            Entry<K, V> e = next;
            if (modCount != expectedModCount) throw new ConcurrentModificationException();
            if (e == null) throw new NoSuchElementException();
            current = e;
            next = e.after;
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
    public Set<K> keySet() {
        return new AbstractSet<K>() {
            public int size() { return size; }
            public void clear() { LinkedHashMap.this.clear(); }
            public boolean contains(Object o) { return containsKey(o); }
            public boolean remove(Object key) { return removeNode(hash(key), key) != null; }
            public Iterator<K> iterator() { return new KeyIt(); }
        };
    }
    public Collection<V> values() {
        return new AbstractCollection<V>() {
            public int size() { return size; }
            public void clear() { LinkedHashMap.this.clear(); }
            public Iterator<V> iterator() { return new ValueIt(); }
        };
    }
    public Set<Map.Entry<K, V>> entrySet() {
        return new AbstractSet<Map.Entry<K, V>>() {
            public int size() { return size; }
            public void clear() { LinkedHashMap.this.clear(); }
            public Iterator<Map.Entry<K, V>> iterator() { return new EntryIt(); }
        };
    }
    final class KeyIt extends LinkedIterator implements Iterator<K> { public K next() { return nextNode().getKey(); } }
    final class ValueIt extends LinkedIterator implements Iterator<V> { public V next() { return nextNode().value; } }
    final class EntryIt extends LinkedIterator implements Iterator<Map.Entry<K, V>> { public Map.Entry<K, V> next() { return nextNode(); } }
}
