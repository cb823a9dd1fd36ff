package java.util;

/**
 * The JDK's table layout (11 buckets, index (hash & 0x7FFFFFFF) % length, new entries at a
 * bucket's head, rehash to 2n+1 at 3/4 load, iteration from the last bucket down), so it
 * iterates and prints in HotSpot's order. Every method is synchronized.
 */
public class Hashtable<K, V> extends Dictionary<K, V> implements Map<K, V>, Cloneable, java.io.Serializable {
    private Entry<?, ?>[] table;
    private int count;
    private int threshold;
    private final float loadFactor;
    private int modCount = 0;

    private static class Entry<K, V> implements Map.Entry<K, V> {
        final int hash;
        final K key;
        V value;
        Entry<K, V> next;
        Entry(int hash, K key, V value, Entry<K, V> next) { this.hash = hash; this.key = key; this.value = value; this.next = next; }
        public K getKey() { return key; }
        public V getValue() { return value; }
        public V setValue(V value) {
            if (value == null) throw new NullPointerException();
            V oldValue = this.value;
            this.value = value;
            return oldValue;
        }
        public boolean equals(Object o) {
            if (!(o instanceof Map.Entry)) return false;
            Map.Entry<?, ?> e = (Map.Entry<?, ?>) o;
            return (key == null ? e.getKey() == null : key.equals(e.getKey())) && (value == null ? e.getValue() == null : value.equals(e.getValue()));
        }
        public int hashCode() { return hash ^ Objects.hashCode(value); }
        public String toString() { return key.toString() + "=" + value.toString(); }
    }

    public Hashtable(int initialCapacity, float loadFactor) {
        if (initialCapacity < 0) throw new IllegalArgumentException("Illegal Capacity: " + initialCapacity);
        if (loadFactor <= 0 || Float.isNaN(loadFactor)) throw new IllegalArgumentException("Illegal Load: " + loadFactor);
        if (initialCapacity == 0) initialCapacity = 1;
        this.loadFactor = loadFactor;
        table = new Entry<?, ?>[initialCapacity];
        threshold = (int) Math.min(initialCapacity * loadFactor, Integer.MAX_VALUE - 8 + 1);
    }
    public Hashtable(int initialCapacity) { this(initialCapacity, 0.75f); }
    public Hashtable() { this(11, 0.75f); }
    public Hashtable(Map<? extends K, ? extends V> t) {
        this(Math.max(2 * t.size(), 11), 0.75f);
        putAll(t);
    }
    /** For Properties, which keeps its entries elsewhere. */
    Hashtable(Void dummy) { loadFactor = 0.75f; table = new Entry<?, ?>[1]; }

    public synchronized int size() { return count; }
    public synchronized boolean isEmpty() { return count == 0; }
    public synchronized Enumeration<K> keys() { return Collections.enumeration(new ArrayList<>(keySet())); }
    public synchronized Enumeration<V> elements() { return Collections.enumeration(new ArrayList<>(values())); }
    public synchronized boolean contains(Object value) {
        if (value == null) throw new NullPointerException();
        Entry<?, ?>[] tab = table;
        for (int i = tab.length; i-- > 0;) {
            for (Entry<?, ?> e = tab[i]; e != null; e = e.next) if (e.value.equals(value)) return true;
        }
        return false;
    }
    public boolean containsValue(Object value) { return contains(value); }
    public synchronized boolean containsKey(Object key) {
        Entry<?, ?>[] tab = table;
        int hash = key.hashCode();
        int index = (hash & 0x7FFFFFFF) % tab.length;
        for (Entry<?, ?> e = tab[index]; e != null; e = e.next) if ((e.hash == hash) && e.key.equals(key)) return true;
        return false;
    }
    @SuppressWarnings("unchecked")
    public synchronized V get(Object key) {
        Entry<?, ?>[] tab = table;
        int hash = key.hashCode();
        int index = (hash & 0x7FFFFFFF) % tab.length;
        for (Entry<?, ?> e = tab[index]; e != null; e = e.next) if ((e.hash == hash) && e.key.equals(key)) return (V) e.value;
        return null;
    }
    @SuppressWarnings("unchecked")
    protected void rehash() {
        int oldCapacity = table.length;
        Entry<?, ?>[] oldMap = table;
        int newCapacity = (oldCapacity << 1) + 1;
        Entry<?, ?>[] newMap = new Entry<?, ?>[newCapacity];
        modCount++;
        threshold = (int) Math.min(newCapacity * loadFactor, Integer.MAX_VALUE - 8 + 1);
        table = newMap;
        for (int i = oldCapacity; i-- > 0;) {
            for (Entry<K, V> old = (Entry<K, V>) oldMap[i]; old != null;) {
                Entry<K, V> e = old;
                old = old.next;
                int index = (e.hash & 0x7FFFFFFF) % newCapacity;
                e.next = (Entry<K, V>) newMap[index];
                newMap[index] = e;
            }
        }
    }
    @SuppressWarnings("unchecked")
    private void addEntry(int hash, K key, V value, int index) {
        Entry<?, ?>[] tab = table;
        if (count >= threshold) {
            rehash();
            tab = table;
            hash = key.hashCode();
            index = (hash & 0x7FFFFFFF) % tab.length;
        }
        Entry<K, V> e = (Entry<K, V>) tab[index];
        tab[index] = new Entry<>(hash, key, value, e);
        count++;
        modCount++;
    }
    @SuppressWarnings("unchecked")
    public synchronized V put(K key, V value) {
        if (value == null) throw new NullPointerException();
        Entry<?, ?>[] tab = table;
        int hash = key.hashCode();
        int index = (hash & 0x7FFFFFFF) % tab.length;
        Entry<K, V> entry = (Entry<K, V>) tab[index];
        for (; entry != null; entry = entry.next) {
            if ((entry.hash == hash) && entry.key.equals(key)) {
                V old = entry.value;
                entry.value = value;
                return old;
            }
        }
        addEntry(hash, key, value, index);
        return null;
    }
    @SuppressWarnings("unchecked")
    public synchronized V remove(Object key) {
        Entry<?, ?>[] tab = table;
        int hash = key.hashCode();
        int index = (hash & 0x7FFFFFFF) % tab.length;
        Entry<K, V> e = (Entry<K, V>) tab[index];
        for (Entry<K, V> prev = null; e != null; prev = e, e = e.next) {
            if ((e.hash == hash) && e.key.equals(key)) {
                if (prev != null) prev.next = e.next; else tab[index] = e.next;
                modCount++;
                count--;
                V oldValue = e.value;
                e.value = null;
                return oldValue;
            }
        }
        return null;
    }
    public synchronized void putAll(Map<? extends K, ? extends V> t) {
        for (Map.Entry<? extends K, ? extends V> e : t.entrySet()) put(e.getKey(), e.getValue());
    }
    public synchronized void clear() {
        Entry<?, ?>[] tab = table;
        for (int index = tab.length; --index >= 0;) tab[index] = null;
        modCount++;
        count = 0;
    }
    /** Object.clone (so a subclass's clone is of the subclass, its fields copied) with a table of
     * new entries in the same buckets and chain order, as the JDK's. */
    @SuppressWarnings("unchecked")
    public synchronized Object clone() {
        Hashtable<K, V> t = (Hashtable<K, V>) cloneHashtable();
        t.table = new Entry<?, ?>[table.length];
        for (int i = table.length; i-- > 0;) t.table[i] = copyChain((Entry<K, V>) table[i]);
        t.modCount = 0;
        return t;
    }
    private static <K, V> Entry<K, V> copyChain(Entry<K, V> e) {
        Entry<K, V> head = null, tail = null;
        for (; e != null; e = e.next) {
            Entry<K, V> c = new Entry<>(e.hash, e.key, e.value, null);
            if (tail == null) head = c; else tail.next = c;
            tail = c;
        }
        return head;
    }
    /** Object.clone, for Properties (whose entries are not in the table). */
    final Object cloneHashtable() {
        try {
            return super.clone();
        } catch (CloneNotSupportedException e) {
            throw new InternalError(e);
        }
    }
    public synchronized String toString() {
        int max = size() - 1;
        if (max == -1) return "{}";
        StringBuilder sb = new StringBuilder();
        Iterator<Map.Entry<K, V>> it = entrySet().iterator();
        sb.append('{');
        for (int i = 0;; i++) {
            Map.Entry<K, V> e = it.next();
            K key = e.getKey();
            V value = e.getValue();
            sb.append(key == this ? "(this Map)" : key.toString());
            sb.append('=');
            sb.append(value == this ? "(this Map)" : value.toString());
            if (i == max) return sb.append('}').toString();
            sb.append(", ");
        }
    }

    /** The entries in iteration order (last bucket first). */
    @SuppressWarnings("unchecked")
    private ArrayList<Entry<K, V>> entryList() {
        ArrayList<Entry<K, V>> all = new ArrayList<>(count);
        for (int i = table.length; i-- > 0;) for (Entry<K, V> e = (Entry<K, V>) table[i]; e != null; e = e.next) all.add(e);
        return all;
    }

    private class EntryIterator implements Iterator<Map.Entry<K, V>> {
        final Iterator<Entry<K, V>> it = entryList().iterator();
        Entry<K, V> last;
        public boolean hasNext() { return it.hasNext(); }
        public Map.Entry<K, V> next() { return last = it.next(); }
        public void remove() {
            if (last == null) throw new IllegalStateException("Hashtable Enumerator");
            Hashtable.this.remove(last.key);
            last = null;
        }
    }

    public Set<K> keySet() {
        return new AbstractSet<K>() {
            public Iterator<K> iterator() {
                final EntryIterator it = new EntryIterator();
                return new Iterator<K>() {
                    public boolean hasNext() { return it.hasNext(); }
                    public K next() { return it.next().getKey(); }
                    public void remove() { it.remove(); }
                };
            }
            public int size() { return count; }
            public boolean contains(Object o) { return containsKey(o); }
            public boolean remove(Object o) { return Hashtable.this.remove(o) != null; }
            public void clear() { Hashtable.this.clear(); }
        };
    }
    public Set<Map.Entry<K, V>> entrySet() {
        return new AbstractSet<Map.Entry<K, V>>() {
            public Iterator<Map.Entry<K, V>> iterator() { return new EntryIterator(); }
            public int size() { return count; }
            public void clear() { Hashtable.this.clear(); }
        };
    }
    public Collection<V> values() {
        return new AbstractCollection<V>() {
            public Iterator<V> iterator() {
                final EntryIterator it = new EntryIterator();
                return new Iterator<V>() {
                    public boolean hasNext() { return it.hasNext(); }
                    public V next() { return it.next().getValue(); }
                    public void remove() { it.remove(); }
                };
            }
            public int size() { return count; }
            public void clear() { Hashtable.this.clear(); }
        };
    }
    public synchronized boolean equals(Object o) {
        if (o == this) return true;
        if (!(o instanceof Map)) return false;
        Map<?, ?> t = (Map<?, ?>) o;
        if (t.size() != size()) return false;
        for (Map.Entry<K, V> e : entrySet()) {
            K key = e.getKey();
            V value = e.getValue();
            if (!value.equals(t.get(key))) return false;
        }
        return true;
    }
    public synchronized int hashCode() {
        int h = 0;
        for (Map.Entry<K, V> e : entrySet()) h += e.hashCode();
        return h;
    }
}
