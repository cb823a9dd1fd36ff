package java.util;

import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * The wrappers of Collections.synchronizedCollection, Set, List and Map, as the JDK's: every
 * method runs in a {@code synchronized} block on one mutex (the wrapper, or the map's wrapper for
 * its views); iterators are not synchronized, so a program iterating holds the mutex itself.
 */
final class SynchronizedCollections {
    private SynchronizedCollections() {}

    static class SyncCollection<E> implements Collection<E>, java.io.Serializable {
        final Collection<E> c;
        final Object mutex;
        SyncCollection(Collection<E> c) {
            this.c = Objects.requireNonNull(c);
            this.mutex = this;
        }
        SyncCollection(Collection<E> c, Object mutex) {
            this.c = Objects.requireNonNull(c);
            this.mutex = Objects.requireNonNull(mutex);
        }
        public int size() { synchronized (mutex) { return c.size(); } }
        public boolean isEmpty() { synchronized (mutex) { return c.isEmpty(); } }
        public boolean contains(Object o) { synchronized (mutex) { return c.contains(o); } }
        public Object[] toArray() { synchronized (mutex) { return c.toArray(); } }
        public <T> T[] toArray(T[] a) { synchronized (mutex) { return c.toArray(a); } }
        public Iterator<E> iterator() { return c.iterator(); }
        public boolean add(E e) { synchronized (mutex) { return c.add(e); } }
        public boolean remove(Object o) { synchronized (mutex) { return c.remove(o); } }
        public boolean containsAll(Collection<?> coll) { synchronized (mutex) { return c.containsAll(coll); } }
        public boolean addAll(Collection<? extends E> coll) { synchronized (mutex) { return c.addAll(coll); } }
        public boolean removeAll(Collection<?> coll) { synchronized (mutex) { return c.removeAll(coll); } }
        public boolean retainAll(Collection<?> coll) { synchronized (mutex) { return c.retainAll(coll); } }
        public void clear() { synchronized (mutex) { c.clear(); } }
        public String toString() { synchronized (mutex) { return c.toString(); } }
        public void forEach(Consumer<? super E> action) { synchronized (mutex) { c.forEach(action); } }
        public boolean removeIf(Predicate<? super E> filter) { synchronized (mutex) { return c.removeIf(filter); } }
    }

    static class SyncSet<E> extends SyncCollection<E> implements Set<E> {
        SyncSet(Set<E> s) { super(s); }
        SyncSet(Set<E> s, Object mutex) { super(s, mutex); }
        public boolean equals(Object o) {
            if (this == o) return true;
            synchronized (mutex) { return c.equals(o); }
        }
        public int hashCode() { synchronized (mutex) { return c.hashCode(); } }
    }

    static class SyncList<E> extends SyncCollection<E> implements List<E> {
        final List<E> list;
        SyncList(List<E> list) {
            super(list);
            this.list = list;
        }
        SyncList(List<E> list, Object mutex) {
            super(list, mutex);
            this.list = list;
        }
        public boolean equals(Object o) {
            if (this == o) return true;
            synchronized (mutex) { return list.equals(o); }
        }
        public int hashCode() { synchronized (mutex) { return list.hashCode(); } }
        public E get(int index) { synchronized (mutex) { return list.get(index); } }
        public E set(int index, E element) { synchronized (mutex) { return list.set(index, element); } }
        public void add(int index, E element) { synchronized (mutex) { list.add(index, element); } }
        public E remove(int index) { synchronized (mutex) { return list.remove(index); } }
        public int indexOf(Object o) { synchronized (mutex) { return list.indexOf(o); } }
        public int lastIndexOf(Object o) { synchronized (mutex) { return list.lastIndexOf(o); } }
        public boolean addAll(int index, Collection<? extends E> coll) { synchronized (mutex) { return list.addAll(index, coll); } }
        public ListIterator<E> listIterator() { return list.listIterator(); }
        public ListIterator<E> listIterator(int index) { return list.listIterator(index); }
        public List<E> subList(int fromIndex, int toIndex) { synchronized (mutex) { return new SyncList<>(list.subList(fromIndex, toIndex), mutex); } }
        public void replaceAll(UnaryOperator<E> operator) { synchronized (mutex) { list.replaceAll(operator); } }
        public void sort(Comparator<? super E> cmp) { synchronized (mutex) { list.sort(cmp); } }
    }

    static final class SyncRandomAccessList<E> extends SyncList<E> implements RandomAccess {
        SyncRandomAccessList(List<E> list) { super(list); }
    }

    static class SyncMap<K, V> implements Map<K, V>, java.io.Serializable {
        private final Map<K, V> m;
        final Object mutex;
        SyncMap(Map<K, V> m) {
            this.m = Objects.requireNonNull(m);
            this.mutex = this;
        }
        public int size() { synchronized (mutex) { return m.size(); } }
        public boolean isEmpty() { synchronized (mutex) { return m.isEmpty(); } }
        public boolean containsKey(Object key) { synchronized (mutex) { return m.containsKey(key); } }
        public boolean containsValue(Object value) { synchronized (mutex) { return m.containsValue(value); } }
        public V get(Object key) { synchronized (mutex) { return m.get(key); } }
        public V put(K key, V value) { synchronized (mutex) { return m.put(key, value); } }
        public V remove(Object key) { synchronized (mutex) { return m.remove(key); } }
        public void putAll(Map<? extends K, ? extends V> map) { synchronized (mutex) { m.putAll(map); } }
        public void clear() { synchronized (mutex) { m.clear(); } }
        public Set<K> keySet() { synchronized (mutex) { return new SyncSet<>(m.keySet(), mutex); } }
        public Set<Map.Entry<K, V>> entrySet() { synchronized (mutex) { return new SyncSet<>(m.entrySet(), mutex); } }
        public Collection<V> values() { synchronized (mutex) { return new SyncCollection<>(m.values(), mutex); } }
        public boolean equals(Object o) {
            if (this == o) return true;
            synchronized (mutex) { return m.equals(o); }
        }
        public int hashCode() { synchronized (mutex) { return m.hashCode(); } }
        public String toString() { synchronized (mutex) { return m.toString(); } }
        public V getOrDefault(Object k, V defaultValue) { synchronized (mutex) { return m.getOrDefault(k, defaultValue); } }
        public void forEach(BiConsumer<? super K, ? super V> action) { synchronized (mutex) { m.forEach(action); } }
        public void replaceAll(BiFunction<? super K, ? super V, ? extends V> function) { synchronized (mutex) { m.replaceAll(function); } }
        public V putIfAbsent(K key, V value) { synchronized (mutex) { return m.putIfAbsent(key, value); } }
        public boolean remove(Object key, Object value) { synchronized (mutex) { return m.remove(key, value); } }
        public boolean replace(K key, V oldValue, V newValue) { synchronized (mutex) { return m.replace(key, oldValue, newValue); } }
        public V replace(K key, V value) { synchronized (mutex) { return m.replace(key, value); } }
        public V computeIfAbsent(K key, Function<? super K, ? extends V> f) { synchronized (mutex) { return m.computeIfAbsent(key, f); } }
        public V computeIfPresent(K key, BiFunction<? super K, ? super V, ? extends V> f) { synchronized (mutex) { return m.computeIfPresent(key, f); } }
        public V compute(K key, BiFunction<? super K, ? super V, ? extends V> f) { synchronized (mutex) { return m.compute(key, f); } }
        public V merge(K key, V value, BiFunction<? super V, ? super V, ? extends V> f) { synchronized (mutex) { return m.merge(key, value, f); } }
    }
}
