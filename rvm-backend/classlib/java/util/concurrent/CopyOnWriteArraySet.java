package java.util.concurrent;

import java.util.AbstractSet;
import java.util.Collection;
import java.util.Iterator;

/** A set over a CopyOnWriteArrayList (insertion order, snapshot iterators), as the JDK's. */
public class CopyOnWriteArraySet<E> extends AbstractSet<E> implements java.io.Serializable {
    private final CopyOnWriteArrayList<E> al;
    public CopyOnWriteArraySet() { al = new CopyOnWriteArrayList<E>(); }
    public CopyOnWriteArraySet(Collection<? extends E> c) {
        al = new CopyOnWriteArrayList<E>();
        for (E e : c) al.addIfAbsent(e);
    }
    public int size() { return al.size(); }
    public boolean isEmpty() { return al.isEmpty(); }
    public boolean contains(Object o) { return al.contains(o); }
    public Object[] toArray() { return al.toArray(); }
    public <T> T[] toArray(T[] a) { return al.toArray(a); }
    public void clear() { al.clear(); }
    public boolean remove(Object o) { return al.remove(o); }
    public boolean add(E e) { return al.addIfAbsent(e); }
    public Iterator<E> iterator() { return al.iterator(); }
}
