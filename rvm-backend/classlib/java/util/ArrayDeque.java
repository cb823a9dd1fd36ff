package java.util;

/** A circular-array deque. */
public class ArrayDeque<E> extends AbstractCollection<E> implements Deque<E>, Cloneable, java.io.Serializable {
    private Object[] elements;
    private int head, size;
    private int modCount;

    public ArrayDeque() { elements = new Object[16]; }
    public ArrayDeque(int numElements) { elements = new Object[Math.max(1, numElements)]; }
    public ArrayDeque(Collection<? extends E> c) { this(c.size() + 1); addAll(c); }

    private void grow() {
        Object[] n = new Object[elements.length * 2];
        for (int i = 0; i < size; i++) n[i] = elements[(head + i) % elements.length];
        elements = n;
        head = 0;
    }
    public void addFirst(E e) {
        if (e == null) throw new NullPointerException();
        if (size == elements.length) grow();
        head = (head - 1 + elements.length) % elements.length;
        elements[head] = e;
        size++;
        modCount++;
    }
    public void addLast(E e) {
        if (e == null) throw new NullPointerException();
        if (size == elements.length) grow();
        elements[(head + size) % elements.length] = e;
        size++;
        modCount++;
    }
    public boolean offerFirst(E e) { addFirst(e); return true; }
    public boolean offerLast(E e) { addLast(e); return true; }
    @SuppressWarnings("unchecked")
    public E pollFirst() {
        if (size == 0) return null;
        E e = (E) elements[head];
        elements[head] = null;
        head = (head + 1) % elements.length;
        size--;
        modCount++;
        return e;
    }
    @SuppressWarnings("unchecked")
    public E pollLast() {
        if (size == 0) return null;
        int i = (head + size - 1) % elements.length;
        E e = (E) elements[i];
        elements[i] = null;
        size--;
        modCount++;
        return e;
    }
    public E removeFirst() { E e = pollFirst(); if (e == null) throw new NoSuchElementException(); return e; }
    public E removeLast() { E e = pollLast(); if (e == null) throw new NoSuchElementException(); return e; }
    @SuppressWarnings("unchecked")
    public E peekFirst() { return size == 0 ? null : (E) elements[head]; }
    @SuppressWarnings("unchecked")
    public E peekLast() { return size == 0 ? null : (E) elements[(head + size - 1) % elements.length]; }
    public E getFirst() { E e = peekFirst(); if (e == null) throw new NoSuchElementException(); return e; }
    public E getLast() { E e = peekLast(); if (e == null) throw new NoSuchElementException(); return e; }
    public boolean add(E e) { addLast(e); return true; }
    public boolean offer(E e) { addLast(e); return true; }
    public E remove() { return removeFirst(); }
    public E poll() { return pollFirst(); }
    public E element() { return getFirst(); }
    public E peek() { return peekFirst(); }
    public void push(E e) { addFirst(e); }
    public E pop() { return removeFirst(); }
    public int size() { return size; }
    public boolean isEmpty() { return size == 0; }
    public void clear() {
        for (int i = 0; i < size; i++) elements[(head + i) % elements.length] = null;
        head = 0;
        size = 0;
        modCount++;
    }
    @SuppressWarnings("unchecked")
    private E at(int i) { return (E) elements[(head + i) % elements.length]; }
    private void removeIndex(int idx) {
        for (int i = idx; i < size - 1; i++) elements[(head + i) % elements.length] = elements[(head + i + 1) % elements.length];
        elements[(head + size - 1) % elements.length] = null;
        size--;
        modCount++;
    }
    public boolean remove(Object o) {
        for (int i = 0; i < size; i++) if (o != null && o.equals(at(i))) { removeIndex(i); return true; }
        return false;
    }
    public boolean contains(Object o) {
        for (int i = 0; i < size; i++) if (o != null && o.equals(at(i))) return true;
        return false;
    }
    public Iterator<E> iterator() {
        return new Iterator<E>() {
            int i = 0, last = -1, expected = modCount;
            public boolean hasNext() { return i < size; }
            public E next() {
                if (expected != modCount) throw new ConcurrentModificationException();
                if (i >= size) throw new NoSuchElementException();
                last = i;
                return at(i++);
            }
            public void remove() {
                if (last < 0) throw new IllegalStateException();
                removeIndex(last);
                i = last;
                last = -1;
                expected = modCount;
            }
        };
    }
    public Iterator<E> descendingIterator() {
        return new Iterator<E>() {
            int i = size - 1;
            public boolean hasNext() { return i >= 0; }
            public E next() { if (i < 0) throw new NoSuchElementException(); return at(i--); }
        };
    }
    /** Object.clone (so a subclass's clone is of the subclass, its fields copied), with its own array. */
    @SuppressWarnings("unchecked")
    public ArrayDeque<E> clone() {
        try {
            ArrayDeque<E> result = (ArrayDeque<E>) super.clone();
            result.elements = elements.clone();
            result.modCount = 0;
            return result;
        } catch (CloneNotSupportedException e) {
            throw new InternalError(e);
        }
    }
}
