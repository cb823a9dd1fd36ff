package java.util;

public class TreeSet<E> extends AbstractSet<E> implements NavigableSet<E>, Cloneable, java.io.Serializable {
    private TreeMap<E, Object> m;
    private static final Object PRESENT = new Object();
    public TreeSet() { m = new TreeMap<>(); }
    public TreeSet(Comparator<? super E> comparator) { m = new TreeMap<>(comparator); }
    public TreeSet(Collection<? extends E> c) { this(); addAll(c); }
    public Iterator<E> iterator() { return m.keySet().iterator(); }
    public int size() { return m.size(); }
    public boolean isEmpty() { return m.isEmpty(); }
    public boolean contains(Object o) { return m.containsKey(o); }
    public boolean add(E e) { return m.put(e, PRESENT) == null; }
    public boolean remove(Object o) { return m.remove(o) == PRESENT; }
    public void clear() { m.clear(); }
    public Comparator<? super E> comparator() { return m.comparator(); }
    public E first() { return m.firstKey(); }
    public E last() { return m.lastKey(); }
    public E lower(E e) { return m.lowerKey(e); }
    public E floor(E e) { return m.floorKey(e); }
    public E ceiling(E e) { return m.ceilingKey(e); }
    public E higher(E e) { return m.higherKey(e); }
    public E pollFirst() { Map.Entry<E, ?> e = m.pollFirstEntry(); return e == null ? null : e.getKey(); }
    public E pollLast() { Map.Entry<E, ?> e = m.pollLastEntry(); return e == null ? null : e.getKey(); }
    /** Object.clone (so a subclass's clone is of the subclass, its fields copied) with a clone of the
     * map (the same comparator). */
    @SuppressWarnings("unchecked")
    public Object clone() {
        try {
            TreeSet<E> clone = (TreeSet<E>) super.clone();
            clone.m = (TreeMap<E, Object>) m.clone();
            return clone;
        } catch (CloneNotSupportedException e) {
            throw new InternalError(e);
        }
    }
    private NavigableSet<E> keys() { return new NavigableSubMap.KeySetView<>(m); }
    public NavigableSet<E> descendingSet() { return keys().descendingSet(); }
    public Iterator<E> descendingIterator() { return descendingSet().iterator(); }
    public NavigableSet<E> subSet(E fromElement, boolean fromInclusive, E toElement, boolean toInclusive) { return keys().subSet(fromElement, fromInclusive, toElement, toInclusive); }
    public NavigableSet<E> headSet(E toElement, boolean inclusive) { return keys().headSet(toElement, inclusive); }
    public NavigableSet<E> tailSet(E fromElement, boolean inclusive) { return keys().tailSet(fromElement, inclusive); }
    public SortedSet<E> subSet(E fromElement, E toElement) { return subSet(fromElement, true, toElement, false); }
    public SortedSet<E> headSet(E toElement) { return headSet(toElement, false); }
    public SortedSet<E> tailSet(E fromElement) { return tailSet(fromElement, true); }
}
