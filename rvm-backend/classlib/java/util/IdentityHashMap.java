package java.util;

/** Keys compared with ==, hashed with System.identityHashCode (open addressing, as the JDK's). */
public class IdentityHashMap<K, V> extends AbstractMap<K, V> implements Map<K, V>, java.io.Serializable, Cloneable {
    private static final Object NULL_KEY = new Object();
    private Object[] table;
    private int size;

    public IdentityHashMap() { table = new Object[64]; }
    public IdentityHashMap(int expectedMaxSize) {
        int cap = 4;
        while (cap < expectedMaxSize * 3 / 2) cap <<= 1;
        table = new Object[2 * Math.max(cap, 4)];
    }
    public IdentityHashMap(Map<? extends K, ? extends V> m) { this((int) ((1 + m.size()) * 1.1)); putAll(m); }

    private static Object maskNull(Object key) { return (key == null ? NULL_KEY : key); }
    @SuppressWarnings("unchecked")
    static <K> K unmaskNull(Object key) { return (K) (key == NULL_KEY ? null : key); }
    private static int hash(Object x, int length) {
        int h = System.identityHashCode(x);
        return ((h << 1) - (h << 8)) & (length - 1);
    }
    private static int nextKeyIndex(int i, int len) { return (i + 2 < len ? i + 2 : 0); }

    public int size() { return size; }
    public boolean isEmpty() { return size == 0; }
    @SuppressWarnings("unchecked")
    public V get(Object key) {
        Object k = maskNull(key);
        Object[] tab = table;
        int len = tab.length;
        int i = hash(k, len);
        while (true) {
            Object item = tab[i];
            if (item == k) return (V) tab[i + 1];
            if (item == null) return null;
            i = nextKeyIndex(i, len);
        }
    }
    public boolean containsKey(Object key) {
        Object k = maskNull(key);
        Object[] tab = table;
        int len = tab.length;
        int i = hash(k, len);
        while (true) {
            Object item = tab[i];
            if (item == k) return true;
            if (item == null) return false;
            i = nextKeyIndex(i, len);
        }
    }
    public boolean containsValue(Object value) {
        Object[] tab = table;
        for (int i = 1; i < tab.length; i += 2) if (tab[i] == value && tab[i - 1] != null) return true;
        return false;
    }
    @SuppressWarnings("unchecked")
    public V put(K key, V value) {
        final Object k = maskNull(key);
        while (true) {
            Object[] tab = table;
            int len = tab.length;
            int i = hash(k, len);
            for (Object item; (item = tab[i]) != null; i = nextKeyIndex(i, len)) {
                if (item == k) {
                    V oldValue = (V) tab[i + 1];
                    tab[i + 1] = value;
                    return oldValue;
                }
            }
            final int s = size + 1;
            if (s + (s << 1) > len && resize(len)) continue;
            tab[i] = k;
            tab[i + 1] = value;
            size = s;
            return null;
        }
    }
    private boolean resize(int newCapacity) {
        int newLength = newCapacity * 2;
        Object[] oldTable = table;
        int oldLength = oldTable.length;
        if (oldLength >= newLength) return false;
        Object[] newTable = new Object[newLength];
        for (int j = 0; j < oldLength; j += 2) {
            Object key = oldTable[j];
            if (key != null) {
                Object value = oldTable[j + 1];
                oldTable[j] = null;
                oldTable[j + 1] = null;
                int i = hash(key, newLength);
                while (newTable[i] != null) i = nextKeyIndex(i, newLength);
                newTable[i] = key;
                newTable[i + 1] = value;
            }
        }
        table = newTable;
        return true;
    }
    @SuppressWarnings("unchecked")
    public V remove(Object key) {
        Object k = maskNull(key);
        Object[] tab = table;
        int len = tab.length;
        int i = hash(k, len);
        while (true) {
            Object item = tab[i];
            if (item == k) {
                size--;
                V oldValue = (V) tab[i + 1];
                tab[i + 1] = null;
                tab[i] = null;
                closeDeletion(i);
                return oldValue;
            }
            if (item == null) return null;
            i = nextKeyIndex(i, len);
        }
    }
    private void closeDeletion(int d) {
        Object[] tab = table;
        int len = tab.length;
        Object item;
        for (int i = nextKeyIndex(d, len); (item = tab[i]) != null; i = nextKeyIndex(i, len)) {
            int r = hash(item, len);
            if ((i < r && (r <= d || d <= i)) || (r <= d && d <= i)) {
                tab[d] = item;
                tab[d + 1] = tab[i + 1];
                tab[i] = null;
                tab[i + 1] = null;
                d = i;
            }
        }
    }
    public void clear() {
        Arrays.fill(table, null);
        size = 0;
    }
    public Set<Map.Entry<K, V>> entrySet() {
        return new AbstractSet<Map.Entry<K, V>>() {
            public int size() { return size; }
            public Iterator<Map.Entry<K, V>> iterator() {
                // over the keys there are now (a removal reorders the table)
                final ArrayList<K> keys = new ArrayList<>(size);
                for (int i = 0; i < table.length; i += 2) if (table[i] != null) keys.add(unmaskNull(table[i]));
                return new Iterator<Map.Entry<K, V>>() {
                    int index;
                    K last;
                    boolean canRemove;
                    public boolean hasNext() { return index < keys.size(); }
                    public Map.Entry<K, V> next() {
                        if (!hasNext()) throw new NoSuchElementException();
                        final K key = keys.get(index++);
                        last = key;
                        canRemove = true;
                        return new AbstractMap.SimpleEntry<K, V>(key, get(key)) {
                            public V setValue(V v) { super.setValue(v); return put(key, v); }
                        };
                    }
                    public void remove() {
                        if (!canRemove) throw new IllegalStateException();
                        IdentityHashMap.this.remove(last);
                        canRemove = false;
                    }
                };
            }
        };
    }
    /** Object.clone (so a subclass's clone is of the subclass, its fields copied) with its own table. */
    @SuppressWarnings("unchecked")
    public Object clone() {
        try {
            IdentityHashMap<K, V> m = (IdentityHashMap<K, V>) super.clone();
            m.table = table.clone();
            return m;
        } catch (CloneNotSupportedException e) {
            throw new InternalError(e);
        }
    }
}
