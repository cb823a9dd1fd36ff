package java.util;

/** Values in an array indexed by the keys' ordinals; iterates in ordinal order, as the JDK's. */
public class EnumMap<K extends Enum<K>, V> extends AbstractMap<K, V> implements java.io.Serializable, Cloneable {
    private final Class<K> keyType;
    private final K[] keyUniverse;
    private Object[] vals;
    private int size = 0;
    private static final Object NULL = new Object();

    public EnumMap(Class<K> keyType) {
        this.keyType = keyType;
        keyUniverse = keyType.getEnumConstants();
        if (keyUniverse == null) throw new NullPointerException(keyType + " is not an enum type");
        vals = new Object[keyUniverse.length];
    }
    public EnumMap(EnumMap<K, ? extends V> m) {
        keyType = m.keyType;
        keyUniverse = m.keyUniverse;
        vals = m.vals.clone();
        size = m.size;
    }
    @SuppressWarnings("unchecked")
    public EnumMap(Map<K, ? extends V> m) {
        if (m instanceof EnumMap) {
            EnumMap<K, ? extends V> em = (EnumMap<K, ? extends V>) m;
            keyType = em.keyType;
            keyUniverse = em.keyUniverse;
            vals = em.vals.clone();
            size = em.size;
        } else {
            if (m.isEmpty()) throw new IllegalArgumentException("Specified map is empty");
            keyType = m.keySet().iterator().next().getDeclaringClass();
            keyUniverse = keyType.getEnumConstants();
            vals = new Object[keyUniverse.length];
            putAll(m);
        }
    }
    private Object maskNull(Object value) { return (value == null ? NULL : value); }
    @SuppressWarnings("unchecked")
    private V unmaskNull(Object value) { return (V) (value == NULL ? null : value); }
    private boolean isValidKey(Object key) {
        if (key == null) return false;
        Class<?> keyClass = key.getClass();
        return keyClass == keyType || keyClass.getSuperclass() == keyType;
    }
    public int size() { return size; }
    public boolean containsValue(Object value) {
        value = maskNull(value);
        for (Object val : vals) if (value.equals(val)) return true;
        return false;
    }
    public boolean containsKey(Object key) { return isValidKey(key) && vals[((Enum<?>) key).ordinal()] != null; }
    public V get(Object key) { return (isValidKey(key) ? unmaskNull(vals[((Enum<?>) key).ordinal()]) : null); }
    public V put(K key, V value) {
        if (!isValidKey(key)) throw new ClassCastException(key == null ? "null key" : key.getClass() + " != " + keyType);
        int index = key.ordinal();
        Object oldValue = vals[index];
        vals[index] = maskNull(value);
        if (oldValue == null) size++;
        return unmaskNull(oldValue);
    }
    public V remove(Object key) {
        if (!isValidKey(key)) return null;
        int index = ((Enum<?>) key).ordinal();
        Object oldValue = vals[index];
        vals[index] = null;
        if (oldValue != null) size--;
        return unmaskNull(oldValue);
    }
    public void clear() {
        Arrays.fill(vals, null);
        size = 0;
    }
    public Set<Map.Entry<K, V>> entrySet() {
        return new AbstractSet<Map.Entry<K, V>>() {
            public int size() { return size; }
            public Iterator<Map.Entry<K, V>> iterator() {
                return new Iterator<Map.Entry<K, V>>() {
                    int index = 0;
                    int lastReturnedIndex = -1;
                    public boolean hasNext() {
                        while (index < vals.length && vals[index] == null) index++;
                        return index != vals.length;
                    }
                    public Map.Entry<K, V> next() {
                        if (!hasNext()) throw new NoSuchElementException();
                        final int i = index++;
                        lastReturnedIndex = i;
                        return new AbstractMap.SimpleEntry<K, V>(keyUniverse[i], unmaskNull(vals[i])) {
                            public V setValue(V value) {
                                super.setValue(value);
                                V old = unmaskNull(vals[i]);
                                vals[i] = maskNull(value);
                                return old;
                            }
                        };
                    }
                    public void remove() {
                        if (lastReturnedIndex < 0) throw new IllegalStateException();
                        if (vals[lastReturnedIndex] != null) {
                            vals[lastReturnedIndex] = null;
                            size--;
                        }
                        lastReturnedIndex = -1;
                    }
                };
            }
        };
    }
    /** Object.clone (so a subclass's clone is of the subclass, its fields copied) with its own values. */
    @SuppressWarnings("unchecked")
    public EnumMap<K, V> clone() {
        try {
            EnumMap<K, V> result = (EnumMap<K, V>) super.clone();
            result.vals = vals.clone();
            return result;
        } catch (CloneNotSupportedException e) {
            throw new InternalError(e);
        }
    }
}
