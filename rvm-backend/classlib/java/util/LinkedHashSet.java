package java.util;

public class LinkedHashSet<E> extends AbstractSet<E> implements Set<E>, Cloneable, java.io.Serializable {
    private final LinkedHashMap<E, Object> map;
    private static final Object PRESENT = new Object();
    public LinkedHashSet() { map = new LinkedHashMap<>(); }
    public LinkedHashSet(int initialCapacity) { map = new LinkedHashMap<>(initialCapacity); }
    public LinkedHashSet(int initialCapacity, float loadFactor) { map = new LinkedHashMap<>(initialCapacity, loadFactor); }
    public LinkedHashSet(Collection<? extends E> c) { map = new LinkedHashMap<>(Math.max(2 * c.size(), 11)); addAll(c); }
    public Iterator<E> iterator() { return map.keySet().iterator(); }
    public int size() { return map.size(); }
    public boolean contains(Object o) { return map.containsKey(o); }
    public boolean add(E e) { return map.put(e, PRESENT) == null; }
    public boolean remove(Object o) { return map.remove(o) == PRESENT; }
    public void clear() { map.clear(); }
}
