package java.util;

/** A binary heap with the JDK's sift algorithms, so iteration order and toString match. */
public class PriorityQueue<E> extends AbstractQueue<E> implements java.io.Serializable {
    private Object[] queue;
    private int size;
    private final Comparator<? super E> comparator;
    private int modCount;

    public PriorityQueue() { this(11, null); }
    public PriorityQueue(int initialCapacity) { this(initialCapacity, null); }
    public PriorityQueue(Comparator<? super E> comparator) { this(11, comparator); }
    public PriorityQueue(int initialCapacity, Comparator<? super E> comparator) {
        if (initialCapacity < 1) throw new IllegalArgumentException();
        this.queue = new Object[initialCapacity];
        this.comparator = comparator;
    }
    public PriorityQueue(Collection<? extends E> c) {
        this.comparator = null;
        Object[] a = c.toArray();
        this.queue = a.length == 0 ? new Object[1] : a;
        this.size = a.length;
        for (Object o : a) if (o == null) throw new NullPointerException();
        for (int i = (size >>> 1) - 1; i >= 0; i--) siftDown(i, queue[i]);
    }
    private void grow(int minCapacity) {
        int oldCapacity = queue.length;
        int newCapacity = oldCapacity + ((oldCapacity < 64) ? (oldCapacity + 2) : (oldCapacity >> 1));
        if (newCapacity < minCapacity) newCapacity = minCapacity;
        queue = Arrays.copyOf(queue, newCapacity);
    }
    public boolean add(E e) { return offer(e); }
    public boolean offer(E e) {
        if (e == null) throw new NullPointerException();
        modCount++;
        int i = size;
        if (i >= queue.length) grow(i + 1);
        siftUp(i, e);
        size = i + 1;
        return true;
    }
    @SuppressWarnings("unchecked")
    public E peek() { return (E) queue[0]; }
    private int indexOf(Object o) {
        if (o != null) for (int i = 0; i < size; i++) if (o.equals(queue[i])) return i;
        return -1;
    }
    public boolean remove(Object o) {
        int i = indexOf(o);
        if (i == -1) return false;
        removeAt(i);
        return true;
    }
    public boolean contains(Object o) { return indexOf(o) >= 0; }
    public Object[] toArray() { return Arrays.copyOf(queue, size); }
    public int size() { return size; }
    public void clear() {
        modCount++;
        for (int i = 0; i < size; i++) queue[i] = null;
        size = 0;
    }
    @SuppressWarnings("unchecked")
    public E poll() {
        final Object[] es = queue;
        final E result = (E) es[0];
        if (result != null) {
            modCount++;
            final int n = --size;
            final E x = (E) es[n];
            es[n] = null;
            if (n > 0) siftDown(0, x);
        }
        return result;
    }
    @SuppressWarnings("unchecked")
    E removeAt(int i) {
        final Object[] es = queue;
        modCount++;
        int s = --size;
        if (s == i) es[i] = null;
        else {
            E moved = (E) es[s];
            es[s] = null;
            siftDown(i, moved);
            if (es[i] == moved) {
                siftUp(i, moved);
                if (es[i] != moved) return moved;
            }
        }
        return null;
    }
    @SuppressWarnings("unchecked")
    private int cmp(Object a, Object b) {
        return comparator == null ? ((Comparable<Object>) a).compareTo(b) : comparator.compare((E) a, (E) b);
    }
    private void siftUp(int k, Object x) {
        Object[] es = queue;
        while (k > 0) {
            int parent = (k - 1) >>> 1;
            Object e = es[parent];
            if (cmp(x, e) >= 0) break;
            es[k] = e;
            k = parent;
        }
        es[k] = x;
    }
    private void siftDown(int k, Object x) {
        Object[] es = queue;
        int n = size;
        int half = n >>> 1;
        while (k < half) {
            int child = (k << 1) + 1;
            Object c = es[child];
            int right = child + 1;
            if (right < n && cmp(c, es[right]) > 0) c = es[child = right];
            if (cmp(x, c) <= 0) break;
            es[k] = c;
            k = child;
        }
        es[k] = x;
    }
    public Comparator<? super E> comparator() { return comparator; }
    public Iterator<E> iterator() {
        return new Iterator<E>() {
            private int cursor;
            private int lastRet = -1;
            private ArrayDeque<E> forgetMeNot;
            private E lastRetElt;
            private int expectedModCount = modCount;
            public boolean hasNext() { return cursor < size || (forgetMeNot != null && !forgetMeNot.isEmpty()); }
            @SuppressWarnings("unchecked")
            public E next() {
                if (expectedModCount != modCount) throw new ConcurrentModificationException();
                if (cursor < size) return (E) queue[lastRet = cursor++];
                if (forgetMeNot != null) {
                    lastRet = -1;
                    lastRetElt = forgetMeNot.poll();
                    if (lastRetElt != null) return lastRetElt;
                }
                throw new NoSuchElementException();
            }
            public void remove() {
                if (expectedModCount != modCount) throw new ConcurrentModificationException();
                if (lastRet != -1) {
                    E moved = PriorityQueue.this.removeAt(lastRet);
                    lastRet = -1;
                    if (moved == null) cursor--;
                    else {
                        if (forgetMeNot == null) forgetMeNot = new ArrayDeque<>();
                        forgetMeNot.add(moved);
                    }
                } else if (lastRetElt != null) {
                    for (int i = 0; i < size; i++) if (queue[i] == lastRetElt) { PriorityQueue.this.removeAt(i); break; }
                    lastRetElt = null;
                } else {
                    throw new IllegalStateException();
                }
                expectedModCount = modCount;
            }
        };
    }
}
