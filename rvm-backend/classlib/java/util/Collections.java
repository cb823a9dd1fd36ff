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
    public static <K, V> Map<K, V> unmodifiableMap(Map<? extends K, ? extends V> m) {
        final Map<K, V> mm = new HashMap<K, V>(m);
        return new AbstractMap<K, V>() {
            public Set<Map.Entry<K, V>> entrySet() { return unmodifiableSet(mm.entrySet()); }
            public V get(Object k) { return mm.get(k); }
            public boolean containsKey(Object k) { return mm.containsKey(k); }
            public int size() { return mm.size(); }
        };
    }
    public static <T> Collection<T> unmodifiableCollection(Collection<? extends T> c) { return unmodifiableList(new ArrayList<T>(c)); }
    public static <T> List<T> synchronizedList(List<T> list) { return list; }
    public static <K, V> Map<K, V> synchronizedMap(Map<K, V> m) { return m; }
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
