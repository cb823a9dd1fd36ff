package java.util.concurrent;

import java.util.AbstractSet;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableSet;
import java.util.SortedSet;

/**
 * A sorted concurrent set: the keys of a ConcurrentSkipListMap (see there: a TreeMap behind a
 * lock, iterators over snapshots); its views write through. The key set of a map is the same
 * class, to which nothing can be added.
 */
public class ConcurrentSkipListSet<E> extends AbstractSet<E> implements NavigableSet<E>, Cloneable, java.io.Serializable {
    private final ConcurrentNavigableMap<E, Object> m;
    /** The key set of a map: add is not supported. */
    private final boolean keysOfMap;

    public ConcurrentSkipListSet() { this(new ConcurrentSkipListMap<E, Object>(), false); }
    public ConcurrentSkipListSet(Comparator<? super E> comparator) { this(new ConcurrentSkipListMap<E, Object>(comparator), false); }
    public ConcurrentSkipListSet(Collection<? extends E> c) {
        this(new ConcurrentSkipListMap<E, Object>(), false);
        addAll(c);
    }
    public ConcurrentSkipListSet(SortedSet<E> s) {
        this(new ConcurrentSkipListMap<E, Object>(s.comparator()), false);
        addAll(s);
    }
    @SuppressWarnings("unchecked")
    ConcurrentSkipListSet(ConcurrentNavigableMap<E, ?> m, boolean keysOfMap) {
        this.m = (ConcurrentNavigableMap<E, Object>) m;
        this.keysOfMap = keysOfMap;
    }

    private ConcurrentSkipListSet<E> view(ConcurrentNavigableMap<E, Object> sub) { return new ConcurrentSkipListSet<E>(sub, keysOfMap); }

    public int size() { return m.size(); }
    public boolean isEmpty() { return m.isEmpty(); }
    public boolean contains(Object o) { return m.containsKey(o); }
    public boolean add(E e) {
        if (keysOfMap) throw new UnsupportedOperationException();
        return m.putIfAbsent(e, Boolean.TRUE) == null;
    }
    public boolean remove(Object o) { return m.remove(o) != null; }
    public void clear() { m.clear(); }
    public Iterator<E> iterator() { return ((ConcurrentSkipListMap<E, Object>) m).keyIterator(); }
    public Iterator<E> descendingIterator() { return descendingSet().iterator(); }

    public E lower(E e) { return m.lowerKey(e); }
    public E floor(E e) { return m.floorKey(e); }
    public E ceiling(E e) { return m.ceilingKey(e); }
    public E higher(E e) { return m.higherKey(e); }
    public E pollFirst() {
        Map.Entry<E, Object> e = m.pollFirstEntry();
        return e == null ? null : e.getKey();
    }
    public E pollLast() {
        Map.Entry<E, Object> e = m.pollLastEntry();
        return e == null ? null : e.getKey();
    }
    public Comparator<? super E> comparator() { return m.comparator(); }
    public E first() { return m.firstKey(); }
    public E last() { return m.lastKey(); }

    public NavigableSet<E> subSet(E fromElement, boolean fromInclusive, E toElement, boolean toInclusive) { return view(m.subMap(fromElement, fromInclusive, toElement, toInclusive)); }
    public NavigableSet<E> headSet(E toElement, boolean inclusive) { return view(m.headMap(toElement, inclusive)); }
    public NavigableSet<E> tailSet(E fromElement, boolean inclusive) { return view(m.tailMap(fromElement, inclusive)); }
    public NavigableSet<E> subSet(E fromElement, E toElement) { return subSet(fromElement, true, toElement, false); }
    public NavigableSet<E> headSet(E toElement) { return headSet(toElement, false); }
    public NavigableSet<E> tailSet(E fromElement) { return tailSet(fromElement, true); }
    public NavigableSet<E> descendingSet() { return view(m.descendingMap()); }

    public boolean removeAll(Collection<?> c) {
        boolean changed = false;
        for (Object e : c) if (remove(e)) changed = true;
        return changed;
    }

    public ConcurrentSkipListSet<E> clone() { return new ConcurrentSkipListSet<E>(((ConcurrentSkipListMap<E, Object>) m).clone(), false); }
}
