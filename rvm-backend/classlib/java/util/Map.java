package java.util;

public interface Map<K, V> {
    int size();
    boolean isEmpty();
    boolean containsKey(Object key);
    boolean containsValue(Object value);
    V get(Object key);
    V put(K key, V value);
    V remove(Object key);
    void putAll(Map<? extends K, ? extends V> m);
    void clear();
    Set<K> keySet();
    Collection<V> values();
    Set<Map.Entry<K, V>> entrySet();
    default V getOrDefault(Object key, V defaultValue) {
        V v = get(key);
        return (v != null || containsKey(key)) ? v : defaultValue;
    }
    default V putIfAbsent(K key, V value) {
        V v = get(key);
        if (v == null) v = put(key, value);
        return v;
    }
    default void forEach(java.util.function.BiConsumer<? super K, ? super V> action) {
        Objects.requireNonNull(action);
        for (Map.Entry<K, V> entry : entrySet()) action.accept(entry.getKey(), entry.getValue());
    }
    default V computeIfAbsent(K key, java.util.function.Function<? super K, ? extends V> mappingFunction) {
        V v = get(key);
        if (v == null) {
            V newValue = mappingFunction.apply(key);
            if (newValue != null) { put(key, newValue); return newValue; }
        }
        return v;
    }
    default V computeIfPresent(K key, java.util.function.BiFunction<? super K, ? super V, ? extends V> remappingFunction) {
        V oldValue = get(key);
        if (oldValue != null) {
            V newValue = remappingFunction.apply(key, oldValue);
            if (newValue != null) { put(key, newValue); return newValue; } else { remove(key); return null; }
        }
        return null;
    }
    default V compute(K key, java.util.function.BiFunction<? super K, ? super V, ? extends V> remappingFunction) {
        V oldValue = get(key);
        V newValue = remappingFunction.apply(key, oldValue);
        if (newValue == null) {
            if (oldValue != null || containsKey(key)) remove(key);
            return null;
        }
        put(key, newValue);
        return newValue;
    }
    default V merge(K key, V value, java.util.function.BiFunction<? super V, ? super V, ? extends V> remappingFunction) {
        Objects.requireNonNull(value);
        V oldValue = get(key);
        V newValue = (oldValue == null) ? value : remappingFunction.apply(oldValue, value);
        if (newValue == null) remove(key); else put(key, newValue);
        return newValue;
    }
    default boolean remove(Object key, Object value) {
        Object curValue = get(key);
        if (!Objects.equals(curValue, value) || (curValue == null && !containsKey(key))) return false;
        remove(key);
        return true;
    }
    default V replace(K key, V value) {
        V curValue;
        if (((curValue = get(key)) != null) || containsKey(key)) curValue = put(key, value);
        return curValue;
    }
    default boolean replace(K key, V oldValue, V newValue) {
        Object curValue = get(key);
        if (!Objects.equals(curValue, oldValue) || (curValue == null && !containsKey(key))) return false;
        put(key, newValue);
        return true;
    }
    default void replaceAll(java.util.function.BiFunction<? super K, ? super V, ? extends V> function) {
        Objects.requireNonNull(function);
        for (Map.Entry<K, V> entry : entrySet()) entry.setValue(function.apply(entry.getKey(), entry.getValue()));
    }
    interface Entry<K, V> {
        K getKey();
        V getValue();
        V setValue(V value);
        boolean equals(Object o);
        int hashCode();
        static <K extends Comparable<? super K>, V> Comparator<Map.Entry<K, V>> comparingByKey() {
            return (c1, c2) -> c1.getKey().compareTo(c2.getKey());
        }
        static <K, V extends Comparable<? super V>> Comparator<Map.Entry<K, V>> comparingByValue() {
            return (c1, c2) -> c1.getValue().compareTo(c2.getValue());
        }
        static <K, V> Comparator<Map.Entry<K, V>> comparingByKey(Comparator<? super K> cmp) {
            Objects.requireNonNull(cmp);
            return (c1, c2) -> cmp.compare(c1.getKey(), c2.getKey());
        }
        static <K, V> Comparator<Map.Entry<K, V>> comparingByValue(Comparator<? super V> cmp) {
            Objects.requireNonNull(cmp);
            return (c1, c2) -> cmp.compare(c1.getValue(), c2.getValue());
        }
        @SuppressWarnings("unchecked")
        static <K, V> Map.Entry<K, V> copyOf(Map.Entry<? extends K, ? extends V> e) {
            return (Map.Entry<K, V>) Map.entry(e.getKey(), e.getValue());
        }
    }
    /** An unmodifiable entry (no nulls), as the JDK's KeyValueHolder. */
    static <K, V> Map.Entry<K, V> entry(K k, V v) {
        return new AbstractMap.SimpleImmutableEntry<>(Objects.requireNonNull(k), Objects.requireNonNull(v));
    }
    /**
     * Unmodifiable maps. HotSpot's iterate in an order that changes from run to run (a random
     * salt); rvm's iterate in the order of the arguments.
     */
    @SafeVarargs
    @SuppressWarnings("varargs")
    static <K, V> Map<K, V> ofEntries(Map.Entry<? extends K, ? extends V>... entries) {
        LinkedHashMap<K, V> m = new LinkedHashMap<>();
        for (Map.Entry<? extends K, ? extends V> e : entries) {
            K k = Objects.requireNonNull(e.getKey());
            V v = Objects.requireNonNull(e.getValue());
            if (m.put(k, v) != null) throw new IllegalArgumentException("duplicate key: " + k);
        }
        return Collections.unmodifiableMap(m);
    }
    @SuppressWarnings("unchecked")
    private static <K, V> Map<K, V> ofPairs(Object... kv) {
        Map.Entry<K, V>[] es = new Map.Entry[kv.length / 2];
        for (int i = 0; i < es.length; i++) es[i] = Map.entry((K) Objects.requireNonNull(kv[2 * i]), (V) Objects.requireNonNull(kv[2 * i + 1]));
        return ofEntries(es);
    }
    static <K, V> Map<K, V> of() { return ofPairs(); }
    static <K, V> Map<K, V> of(K k1, V v1) { return ofPairs(k1, v1); }
    static <K, V> Map<K, V> of(K k1, V v1, K k2, V v2) { return ofPairs(k1, v1, k2, v2); }
    static <K, V> Map<K, V> of(K k1, V v1, K k2, V v2, K k3, V v3) { return ofPairs(k1, v1, k2, v2, k3, v3); }
    static <K, V> Map<K, V> of(K k1, V v1, K k2, V v2, K k3, V v3, K k4, V v4) { return ofPairs(k1, v1, k2, v2, k3, v3, k4, v4); }
    static <K, V> Map<K, V> of(K k1, V v1, K k2, V v2, K k3, V v3, K k4, V v4, K k5, V v5) { return ofPairs(k1, v1, k2, v2, k3, v3, k4, v4, k5, v5); }
    static <K, V> Map<K, V> of(K k1, V v1, K k2, V v2, K k3, V v3, K k4, V v4, K k5, V v5, K k6, V v6) { return ofPairs(k1, v1, k2, v2, k3, v3, k4, v4, k5, v5, k6, v6); }
    static <K, V> Map<K, V> of(K k1, V v1, K k2, V v2, K k3, V v3, K k4, V v4, K k5, V v5, K k6, V v6, K k7, V v7) { return ofPairs(k1, v1, k2, v2, k3, v3, k4, v4, k5, v5, k6, v6, k7, v7); }
    static <K, V> Map<K, V> of(K k1, V v1, K k2, V v2, K k3, V v3, K k4, V v4, K k5, V v5, K k6, V v6, K k7, V v7, K k8, V v8) { return ofPairs(k1, v1, k2, v2, k3, v3, k4, v4, k5, v5, k6, v6, k7, v7, k8, v8); }
    static <K, V> Map<K, V> copyOf(Map<? extends K, ? extends V> map) {
        LinkedHashMap<K, V> m = new LinkedHashMap<>();
        for (Map.Entry<? extends K, ? extends V> e : map.entrySet()) m.put(Objects.requireNonNull(e.getKey()), Objects.requireNonNull(e.getValue()));
        return Collections.unmodifiableMap(m);
    }
}
