package java.util.concurrent;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.RandomAccess;

/**
 * A list whose every change copies its array (under the list's monitor) and whose reads and
 * iterators use the array of the moment without locking: iterators never see later changes and
 * do not support remove.
 */
public class CopyOnWriteArrayList<E> extends AbstractList<E> implements List<E>, RandomAccess, Cloneable, java.io.Serializable {
    private volatile Object[] array;
    private final Object lock = new Object();

    public CopyOnWriteArrayList() { array = new Object[0]; }
    public CopyOnWriteArrayList(Collection<? extends E> c) { array = c.toArray(); }
    public CopyOnWriteArrayList(E[] toCopyIn) { array = Arrays.copyOf(toCopyIn, toCopyIn.length, Object[].class); }

    public int size() { return array.length; }
    public boolean isEmpty() { return array.length == 0; }
    @SuppressWarnings("unchecked")
    public E get(int index) {
        Object[] a = array;
        if (index < 0 || index >= a.length) throw new IndexOutOfBoundsException("Index " + index + " out of bounds for length " + a.length);
        return (E) a[index];
    }
    public int indexOf(Object o) {
        Object[] a = array;
        for (int i = 0; i < a.length; i++) if (o == null ? a[i] == null : o.equals(a[i])) return i;
        return -1;
    }
    public boolean contains(Object o) { return indexOf(o) >= 0; }
    public Object[] toArray() { return array.clone(); }

    public E set(int index, E element) {
        synchronized (lock) {
            E old = get(index);
            Object[] a = array.clone();
            a[index] = element;
            array = a;
            return old;
        }
    }
    public boolean add(E e) {
        synchronized (lock) {
            Object[] a = Arrays.copyOf(array, array.length + 1);
            a[a.length - 1] = e;
            array = a;
            return true;
        }
    }
    public void add(int index, E element) {
        synchronized (lock) {
            Object[] old = array;
            if (index < 0 || index > old.length) throw new IndexOutOfBoundsException("Index: " + index + ", Size: " + old.length);
            Object[] a = new Object[old.length + 1];
            System.arraycopy(old, 0, a, 0, index);
            a[index] = element;
            System.arraycopy(old, index, a, index + 1, old.length - index);
            array = a;
        }
    }
    public E remove(int index) {
        synchronized (lock) {
            E old = get(index);
            Object[] a = array;
            Object[] n = new Object[a.length - 1];
            System.arraycopy(a, 0, n, 0, index);
            System.arraycopy(a, index + 1, n, index, a.length - index - 1);
            array = n;
            return old;
        }
    }
    public boolean remove(Object o) {
        synchronized (lock) {
            int i = indexOf(o);
            if (i < 0) return false;
            remove(i);
            return true;
        }
    }
    public boolean addIfAbsent(E e) {
        synchronized (lock) {
            if (indexOf(e) >= 0) return false;
            return add(e);
        }
    }
    public boolean addAll(Collection<? extends E> c) {
        Object[] more = c.toArray();
        if (more.length == 0) return false;
        synchronized (lock) {
            Object[] a = Arrays.copyOf(array, array.length + more.length);
            System.arraycopy(more, 0, a, array.length, more.length);
            array = a;
            return true;
        }
    }
    public void clear() {
        synchronized (lock) {
            array = new Object[0];
        }
    }
    public Iterator<E> iterator() {
        final Object[] snapshot = array;
        return new Iterator<E>() {
            int next;
            public boolean hasNext() { return next < snapshot.length; }
            @SuppressWarnings("unchecked")
            public E next() {
                if (next >= snapshot.length) throw new NoSuchElementException();
                return (E) snapshot[next++];
            }
        };
    }
}
