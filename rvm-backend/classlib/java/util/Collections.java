package java.util;

public class Collections {
    private Collections() {}
    public static <T extends Comparable<? super T>> void sort(List<T> list) { list.sort(null); }
    public static <T> void sort(List<T> list, Comparator<? super T> c) { list.sort(c); }
    public static void reverse(List<?> list) {
        int size = list.size();
        for (int i = 0, mid = size >> 1, j = size - 1; i < mid; i++, j--) swap(list, i, j);
    }
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static void swap(List<?> list, int i, int j) {
        final List l = list;
        l.set(i, l.set(j, l.get(i)));
    }
    private static Random r;
    public static void shuffle(List<?> list) {
        if (r == null) r = new Random();
        shuffle(list, r);
    }
    public static void shuffle(List<?> list, Random rnd) {
        for (int i = list.size(); i > 1; i--) swap(list, i - 1, rnd.nextInt(i));
    }
    public static <T> void fill(List<? super T> list, T obj) {
        for (int i = 0; i < list.size(); i++) list.set(i, obj);
    }
    @SafeVarargs
    public static <T> boolean addAll(Collection<? super T> c, T... elements) {
        boolean result = false;
        for (T element : elements) result |= c.add(element);
        return result;
    }
    public static int frequency(Collection<?> c, Object o) {
        int result = 0;
        for (Object e : c) if (Objects.equals(o, e)) result++;
        return result;
    }
    public static <T extends Object & Comparable<? super T>> T max(Collection<? extends T> coll) {
        Iterator<? extends T> i = coll.iterator();
        T candidate = i.next();
        while (i.hasNext()) { T next = i.next(); if (next.compareTo(candidate) > 0) candidate = next; }
        return candidate;
    }
    public static <T> T max(Collection<? extends T> coll, Comparator<? super T> comp) {
        Iterator<? extends T> i = coll.iterator();
        T candidate = i.next();
        while (i.hasNext()) { T next = i.next(); if (comp.compare(next, candidate) > 0) candidate = next; }
        return candidate;
    }
    public static <T extends Object & Comparable<? super T>> T min(Collection<? extends T> coll) {
        Iterator<? extends T> i = coll.iterator();
        T candidate = i.next();
        while (i.hasNext()) { T next = i.next(); if (next.compareTo(candidate) < 0) candidate = next; }
        return candidate;
    }
    public static <T> T min(Collection<? extends T> coll, Comparator<? super T> comp) {
        Iterator<? extends T> i = coll.iterator();
        T candidate = i.next();
        while (i.hasNext()) { T next = i.next(); if (comp.compare(next, candidate) < 0) candidate = next; }
        return candidate;
    }
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static <T> int binarySearch(List<? extends Comparable<? super T>> list, T key) {
        int low = 0, high = list.size() - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            int cmp = ((Comparable) list.get(mid)).compareTo(key);
            if (cmp < 0) low = mid + 1; else if (cmp > 0) high = mid - 1; else return mid;
        }
        return -(low + 1);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static final class NaturalOrder implements Comparator<Comparable<Object>> {
        static final NaturalOrder INSTANCE = new NaturalOrder();
        public int compare(Comparable<Object> c1, Comparable<Object> c2) { return c1.compareTo(c2); }
        public Comparator<Comparable<Object>> reversed() { return Collections.reverseOrder(); }
    }
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static final class ReverseComparator implements Comparator<Comparable<Object>> {
        static final ReverseComparator REVERSE_ORDER = new ReverseComparator();
        public int compare(Comparable<Object> c1, Comparable<Object> c2) { return c2.compareTo(c1); }
        public Comparator<Comparable<Object>> reversed() { return (Comparator) NaturalOrder.INSTANCE; }
    }
    @SuppressWarnings("unchecked")
    public static <T> Comparator<T> reverseOrder() { return (Comparator<T>) ReverseComparator.REVERSE_ORDER; }
    @SuppressWarnings("unchecked")
    public static <T> Comparator<T> reverseOrder(Comparator<T> cmp) {
        if (cmp == null) return (Comparator<T>) ReverseComparator.REVERSE_ORDER;
        if (cmp instanceof ReverseComparator2) return ((ReverseComparator2<T>) cmp).cmp;
        return new ReverseComparator2<>(cmp);
    }
    private static class ReverseComparator2<T> implements Comparator<T> {
        final Comparator<T> cmp;
        ReverseComparator2(Comparator<T> cmp) { this.cmp = cmp; }
        public int compare(T t1, T t2) { return cmp.compare(t2, t1); }
        public Comparator<T> reversed() { return cmp; }
    }

    public static <T> List<T> unmodifiableList(List<? extends T> list) { return new UnmodifiableList<>(list); }
    static class UnmodifiableList<E> extends AbstractList<E> implements RandomAccess {
        final List<? extends E> list;
        UnmodifiableList(List<? extends E> list) { this.list = Objects.requireNonNull(list); }
        public E get(int index) { return list.get(index); }
        public int size() { return list.size(); }
        public boolean equals(Object o) { return o == this || list.equals(o); }
        public int hashCode() { return list.hashCode(); }
        public void sort(Comparator<? super E> c) { throw new UnsupportedOperationException(); }
    }
    public static <T> Set<T> unmodifiableSet(Set<? extends T> s) { return new UnmodifiableSet<>(s); }
    static class UnmodifiableSet<E> extends AbstractSet<E> {
        final Set<? extends E> s;
        UnmodifiableSet(Set<? extends E> s) { this.s = s; }
        public int size() { return s.size(); }
        public boolean contains(Object o) { return s.contains(o); }
        public Iterator<E> iterator() {
            final Iterator<? extends E> i = s.iterator();
            return new Iterator<E>() {
                public boolean hasNext() { return i.hasNext(); }
                public E next() { return i.next(); }
            };
        }
    }
    public static <K, V> Map<K, V> unmodifiableMap(Map<? extends K, ? extends V> m) { return new UnmodifiableMap<>(m); }
    static class UnmodifiableMap<K, V> extends AbstractMap<K, V> {
        final Map<? extends K, ? extends V> m;
        UnmodifiableMap(Map<? extends K, ? extends V> m) { this.m = Objects.requireNonNull(m); }
        public int size() { return m.size(); }
        public boolean isEmpty() { return m.isEmpty(); }
        public boolean containsKey(Object k) { return m.containsKey(k); }
        public boolean containsValue(Object v) { return m.containsValue(v); }
        public V get(Object k) { return m.get(k); }
        public V put(K key, V value) { throw new UnsupportedOperationException(); }
        public V remove(Object key) { throw new UnsupportedOperationException(); }
        public void putAll(Map<? extends K, ? extends V> mm) { throw new UnsupportedOperationException(); }
        public void clear() { throw new UnsupportedOperationException(); }
        public Set<K> keySet() { return unmodifiableSet(m.keySet()); }
        public Collection<V> values() { return unmodifiableCollection(m.values()); }
        public Set<Map.Entry<K, V>> entrySet() {
            return new AbstractSet<Map.Entry<K, V>>() {
                public int size() { return m.size(); }
                public Iterator<Map.Entry<K, V>> iterator() {
                    final Iterator<? extends Map.Entry<? extends K, ? extends V>> i = m.entrySet().iterator();
                    return new Iterator<Map.Entry<K, V>>() {
                        public boolean hasNext() { return i.hasNext(); }
                        public Map.Entry<K, V> next() { return new AbstractMap.SimpleImmutableEntry<K, V>(i.next()); }
                    };
                }
            };
        }
        public boolean equals(Object o) { return o == this || m.equals(o); }
        public int hashCode() { return m.hashCode(); }
        public String toString() { return m.toString(); }
    }
    public static <T> Collection<T> unmodifiableCollection(final Collection<? extends T> c) {
        Objects.requireNonNull(c);
        return new AbstractCollection<T>() {
            public int size() { return c.size(); }
            public boolean contains(Object o) { return c.contains(o); }
            public Iterator<T> iterator() {
                final Iterator<? extends T> i = c.iterator();
                return new Iterator<T>() {
                    public boolean hasNext() { return i.hasNext(); }
                    public T next() { return i.next(); }
                };
            }
            public String toString() { return c.toString(); }
        };
    }
    public static <T> SortedSet<T> unmodifiableSortedSet(final SortedSet<T> s) { return new UnmodifiableSortedSet<>(s); }
    public static <T> NavigableSet<T> unmodifiableNavigableSet(NavigableSet<T> s) { return new UnmodifiableSortedSet<>(s); }
    static class UnmodifiableSortedSet<E> extends UnmodifiableSet<E> implements NavigableSet<E> {
        final SortedSet<E> ss;
        UnmodifiableSortedSet(SortedSet<E> s) { super(s); ss = s; }
        private NavigableSet<E> nav() {
            if (ss instanceof NavigableSet) return (NavigableSet<E>) ss;
            throw new UnsupportedOperationException("not a NavigableSet");
        }
        public Comparator<? super E> comparator() { return ss.comparator(); }
        public E first() { return ss.first(); }
        public E last() { return ss.last(); }
        public SortedSet<E> subSet(E fromElement, E toElement) { return new UnmodifiableSortedSet<>(ss.subSet(fromElement, toElement)); }
        public SortedSet<E> headSet(E toElement) { return new UnmodifiableSortedSet<>(ss.headSet(toElement)); }
        public SortedSet<E> tailSet(E fromElement) { return new UnmodifiableSortedSet<>(ss.tailSet(fromElement)); }
        public E lower(E e) { return nav().lower(e); }
        public E floor(E e) { return nav().floor(e); }
        public E ceiling(E e) { return nav().ceiling(e); }
        public E higher(E e) { return nav().higher(e); }
        public E pollFirst() { throw new UnsupportedOperationException(); }
        public E pollLast() { throw new UnsupportedOperationException(); }
        public NavigableSet<E> descendingSet() { return new UnmodifiableSortedSet<>(nav().descendingSet()); }
        public Iterator<E> descendingIterator() { return descendingSet().iterator(); }
        public NavigableSet<E> subSet(E fromElement, boolean fromInclusive, E toElement, boolean toInclusive) { return new UnmodifiableSortedSet<>(nav().subSet(fromElement, fromInclusive, toElement, toInclusive)); }
        public NavigableSet<E> headSet(E toElement, boolean inclusive) { return new UnmodifiableSortedSet<>(nav().headSet(toElement, inclusive)); }
        public NavigableSet<E> tailSet(E fromElement, boolean inclusive) { return new UnmodifiableSortedSet<>(nav().tailSet(fromElement, inclusive)); }
    }
    public static <K, V> SortedMap<K, V> unmodifiableSortedMap(SortedMap<K, ? extends V> m) { return new UnmodifiableSortedMap<>(m); }
    static class UnmodifiableSortedMap<K, V> extends UnmodifiableMap<K, V> implements SortedMap<K, V> {
        final SortedMap<K, ? extends V> sm;
        UnmodifiableSortedMap(SortedMap<K, ? extends V> m) { super(m); sm = m; }
        public Comparator<? super K> comparator() { return sm.comparator(); }
        public SortedMap<K, V> subMap(K fromKey, K toKey) { return new UnmodifiableSortedMap<>(sm.subMap(fromKey, toKey)); }
        public SortedMap<K, V> headMap(K toKey) { return new UnmodifiableSortedMap<>(sm.headMap(toKey)); }
        public SortedMap<K, V> tailMap(K fromKey) { return new UnmodifiableSortedMap<>(sm.tailMap(fromKey)); }
        public K firstKey() { return sm.firstKey(); }
        public K lastKey() { return sm.lastKey(); }
    }
    public static <T> Set<T> synchronizedSet(Set<T> s) { return new SynchronizedCollections.SyncSet<>(s); }
    public static <T> Collection<T> synchronizedCollection(Collection<T> c) { return new SynchronizedCollections.SyncCollection<>(c); }
    public static <T> int binarySearch(List<? extends T> list, T key, Comparator<? super T> c) {
        if (c == null) {
            @SuppressWarnings("unchecked") List<Comparable<Object>> l = (List<Comparable<Object>>) list;
            return binarySearch(l, key);
        }
        int low = 0, high = list.size() - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            int cmp = c.compare(list.get(mid), key);
            if (cmp < 0) low = mid + 1; else if (cmp > 0) high = mid - 1; else return mid;
        }
        return -(low + 1);
    }
    public static boolean disjoint(Collection<?> c1, Collection<?> c2) {
        for (Object e : c1) if (c2.contains(e)) return false;
        return true;
    }
    public static <E> Set<E> newSetFromMap(final Map<E, Boolean> map) {
        if (!map.isEmpty()) throw new IllegalArgumentException("Map is non-empty");
        return new AbstractSet<E>() {
            public int size() { return map.size(); }
            public boolean isEmpty() { return map.isEmpty(); }
            public boolean contains(Object o) { return map.containsKey(o); }
            public boolean remove(Object o) { return map.remove(o) != null; }
            public boolean add(E e) { return map.put(e, Boolean.TRUE) == null; }
            public Iterator<E> iterator() { return map.keySet().iterator(); }
            public void clear() { map.clear(); }
        };
    }
    public static <E> SortedSet<E> emptySortedSet() { return unmodifiableSortedSet(new TreeSet<E>()); }
    public static <K, V> SortedMap<K, V> emptySortedMap() { return unmodifiableSortedMap(new TreeMap<K, V>()); }
    public static <K, V> Map<K, V> singletonMap(K key, V value) {
        HashMap<K, V> m = new HashMap<>(1);
        m.put(key, value);
        return unmodifiableMap(m);
    }
    public static <T> List<T> synchronizedList(List<T> list) {
        return list instanceof RandomAccess ? new SynchronizedCollections.SyncRandomAccessList<>(list) : new SynchronizedCollections.SyncList<>(list);
    }
    public static <K, V> Map<K, V> synchronizedMap(Map<K, V> m) { return new SynchronizedCollections.SyncMap<>(m); }
    public static <T> Enumeration<T> enumeration(final Collection<T> c) {
        return new Enumeration<T>() {
            private final Iterator<T> i = c.iterator();
            public boolean hasMoreElements() { return i.hasNext(); }
            public T nextElement() { return i.next(); }
        };
    }
    public static <T> ArrayList<T> list(Enumeration<T> e) {
        ArrayList<T> l = new ArrayList<>();
        while (e.hasMoreElements()) l.add(e.nextElement());
        return l;
    }
    public static <T> Enumeration<T> emptyEnumeration() { return enumeration(Collections.<T>emptyList()); }
    public static <T> Iterator<T> emptyIterator() {
        return new Iterator<T>() {
            public boolean hasNext() { return false; }
            public T next() { throw new NoSuchElementException(); }
        };
    }
    public static <T> List<T> emptyList() { return unmodifiableList(new ArrayList<T>()); }
    public static <T> Set<T> emptySet() { return unmodifiableSet(new HashSet<T>()); }
    public static <K, V> Map<K, V> emptyMap() { return unmodifiableMap(new HashMap<K, V>()); }
    public static <T> List<T> singletonList(T o) { ArrayList<T> l = new ArrayList<>(1); l.add(o); return unmodifiableList(l); }
    public static <T> Set<T> singleton(T o) { HashSet<T> s = new HashSet<>(); s.add(o); return unmodifiableSet(s); }
    public static <T> List<T> nCopies(int n, T o) {
        if (n < 0) throw new IllegalArgumentException("List length = " + n);
        ArrayList<T> l = new ArrayList<>(n);
        for (int i = 0; i < n; i++) l.add(o);
        return unmodifiableList(l);
    }
}
