package java.util;

/**
 * The JDK's table layout (its hash spreading, new entries at a bucket's head, iteration from the
 * last bucket down), so it iterates in HotSpot's order. rvm's collector never clears weak
 * references, so entries stay until removed: keys are held strongly.
 */
public class WeakHashMap<K, V> extends AbstractMap<K, V> implements Map<K, V> {
    private static final Object NULL_KEY = new Object();
    private Entry<K, V>[] table;
    private int size;
    private int threshold;
    private final float loadFactor;

    private static final class Entry<K, V> {
        final Object key;
        V value;
        final int hash;
        Entry<K, V> next;
        Entry(Object key, V value, int hash, Entry<K, V> next) { this.key = key; this.value = value; this.hash = hash; this.next = next; }
    }

    @SuppressWarnings("unchecked")
    private Entry<K, V>[] newTable(int n) { return (Entry<K, V>[]) new Entry<?, ?>[n]; }

    public WeakHashMap(int initialCapacity, float loadFactor) {
        if (initialCapacity < 0) throw new IllegalArgumentException("Illegal Initial Capacity: " + initialCapacity);
        if (loadFactor <= 0 || Float.isNaN(loadFactor)) throw new IllegalArgumentException("Illegal Load factor: " + loadFactor);
        int capacity = 1;
        while (capacity < initialCapacity) capacity <<= 1;
        table = newTable(capacity);
        this.loadFactor = loadFactor;
        threshold = (int) (capacity * loadFactor);
    }
    public WeakHashMap(int initialCapacity) { this(initialCapacity, 0.75f); }
    public WeakHashMap() { this(16, 0.75f); }
    public WeakHashMap(Map<? extends K, ? extends V> m) {
        this(Math.max((int) Math.min(m.size() / 0.75f + 1, 1 << 30), 16), 0.75f);
        putAll(m);
    }

    private static Object maskNull(Object key) { return (key == null) ? NULL_KEY : key; }
    @SuppressWarnings("unchecked")
    static <K> K unmaskNull(Object key) { return (K) (key == NULL_KEY ? null : key); }
    final int hash(Object k) {
        int h = k.hashCode();
        h ^= (h >>> 20) ^ (h >>> 12);
        return h ^ (h >>> 7) ^ (h >>> 4);
    }
    private static int indexFor(int h, int length) { return h & (length - 1); }

    public int size() { return size; }
    public boolean isEmpty() { return size == 0; }
    public V get(Object key) {
        Object k = maskNull(key);
        int h = hash(k);
        for (Entry<K, V> e = table[indexFor(h, table.length)]; e != null; e = e.next) if (e.hash == h && Objects.equals(k, e.key)) return e.value;
        return null;
    }
    public boolean containsKey(Object key) {
        Object k = maskNull(key);
        int h = hash(k);
        for (Entry<K, V> e = table[indexFor(h, table.length)]; e != null; e = e.next) if (e.hash == h && Objects.equals(k, e.key)) return true;
        return false;
    }
    public V put(K key, V value) {
        Object k = maskNull(key);
        int h = hash(k);
        int i = indexFor(h, table.length);
        for (Entry<K, V> e = table[i]; e != null; e = e.next) {
            if (h == e.hash && Objects.equals(k, e.key)) {
                V oldValue = e.value;
                if (value != oldValue) e.value = value;
                return oldValue;
            }
        }
        table[i] = new Entry<>(k, value, h, table[i]);
        if (++size >= threshold) resize(table.length * 2);
        return null;
    }
    private void resize(int newCapacity) {
        Entry<K, V>[] oldTable = table;
        Entry<K, V>[] newTable = newTable(newCapacity);
        for (int j = 0; j < oldTable.length; ++j) {
            Entry<K, V> e = oldTable[j];
            oldTable[j] = null;
            while (e != null) {
                Entry<K, V> next = e.next;
                int i = indexFor(e.hash, newTable.length);
                e.next = newTable[i];
                newTable[i] = e;
                e = next;
            }
        }
        table = newTable;
        threshold = (int) (newCapacity * loadFactor);
    }
    public V remove(Object key) {
        Object k = maskNull(key);
        int h = hash(k);
        int i = indexFor(h, table.length);
        Entry<K, V> prev = table[i];
        Entry<K, V> e = prev;
        while (e != null) {
            Entry<K, V> next = e.next;
            if (h == e.hash && Objects.equals(k, e.key)) {
                size--;
                if (prev == e) table[i] = next; else prev.next = next;
                return e.value;
            }
            prev = e;
            e = next;
        }
        return null;
    }
    public void clear() {
        Arrays.fill(table, null);
        size = 0;
    }
    public Set<Map.Entry<K, V>> entrySet() {
        return new AbstractSet<Map.Entry<K, V>>() {
            public int size() { return size; }
            public Iterator<Map.Entry<K, V>> iterator() {
                return new Iterator<Map.Entry<K, V>>() {
                    private int index = isEmpty() ? 0 : table.length;
                    private Entry<K, V> entry, lastReturned;
                    public boolean hasNext() {
                        Entry<K, V>[] t = table;
                        while (entry == null && index > 0) entry = t[--index];
                        return entry != null;
                    }
                    public Map.Entry<K, V> next() {
                        if (!hasNext()) throw new NoSuchElementException();
                        lastReturned = entry;
                        entry = entry.next;
                        final Entry<K, V> e = lastReturned;
                        return new AbstractMap.SimpleEntry<K, V>(WeakHashMap.<K>unmaskNull(e.key), e.value) {
                            public V setValue(V v) { super.setValue(v); V old = e.value; e.value = v; return old; }
                        };
                    }
                    public void remove() {
                        if (lastReturned == null) throw new IllegalStateException();
                        WeakHashMap.this.remove(unmaskNull(lastReturned.key));
                        lastReturned = null;
                    }
                };
            }
        };
    }
}
