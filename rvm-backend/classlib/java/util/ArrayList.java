package java.util;

public class ArrayList<E> extends AbstractList<E> implements List<E>, RandomAccess, Cloneable, java.io.Serializable {
    private static final Object[] EMPTY = {};
    transient Object[] elementData;
    private int size;

    public ArrayList(int initialCapacity) {
        if (initialCapacity < 0) throw new IllegalArgumentException("Illegal Capacity: " + initialCapacity);
        elementData = initialCapacity == 0 ? EMPTY : new Object[initialCapacity];
    }
    public ArrayList() { elementData = EMPTY; }
    public ArrayList(Collection<? extends E> c) {
        Object[] a = c.toArray();
        size = a.length;
        elementData = size == 0 ? EMPTY : Arrays.copyOf(a, size, Object[].class);
    }
    public void trimToSize() { modCount++; if (size < elementData.length) elementData = Arrays.copyOf(elementData, size); }
    public void ensureCapacity(int minCapacity) { if (minCapacity > elementData.length) grow(minCapacity); }
    private Object[] grow(int minCapacity) {
        int oldCapacity = elementData.length;
        int newCapacity = Math.max(minCapacity, oldCapacity + (oldCapacity >> 1));
        if (elementData == EMPTY) newCapacity = Math.max(10, minCapacity);
        return elementData = Arrays.copyOf(elementData, newCapacity);
    }
    public int size() { return size; }
    public boolean isEmpty() { return size == 0; }
    public boolean contains(Object o) { return indexOf(o) >= 0; }
    public int indexOf(Object o) {
        Object[] es = elementData;
        if (o == null) { for (int i = 0; i < size; i++) if (es[i] == null) return i; }
        else { for (int i = 0; i < size; i++) if (o.equals(es[i])) return i; }
        return -1;
    }
    public int lastIndexOf(Object o) {
        Object[] es = elementData;
        for (int i = size - 1; i >= 0; i--) if (Objects.equals(o, es[i])) return i;
        return -1;
    }
    /** Object.clone (so a subclass's clone is of the subclass, its fields copied), with its own array. */
    public Object clone() {
        try {
            ArrayList<?> v = (ArrayList<?>) super.clone();
            v.elementData = Arrays.copyOf(elementData, size);
            v.modCount = 0;
            return v;
        } catch (CloneNotSupportedException e) {
            throw new InternalError(e);
        }
    }
    public Object[] toArray() { return Arrays.copyOf(elementData, size); }
    @SuppressWarnings("unchecked")
    public <T> T[] toArray(T[] a) {
        if (a.length < size) return (T[]) Arrays.copyOf(elementData, size, a.getClass());
        System.arraycopy(elementData, 0, a, 0, size);
        if (a.length > size) a[size] = null;
        return a;
    }
    @SuppressWarnings("unchecked")
    public E get(int index) {
        Objects.checkIndex(index, size);
        return (E) elementData[index];
    }
    @SuppressWarnings("unchecked")
    public E set(int index, E element) {
        Objects.checkIndex(index, size);
        E oldValue = (E) elementData[index];
        elementData[index] = element;
        return oldValue;
    }
    public boolean add(E e) {
        modCount++;
        if (size == elementData.length) grow(size + 1);
        elementData[size++] = e;
        return true;
    }
    public void add(int index, E element) {
        rangeCheckForAdd(index);
        modCount++;
        if (size == elementData.length) grow(size + 1);
        System.arraycopy(elementData, index, elementData, index + 1, size - index);
        elementData[index] = element;
        size++;
    }
    @SuppressWarnings("unchecked")
    public E remove(int index) {
        Objects.checkIndex(index, size);
        E oldValue = (E) elementData[index];
        fastRemove(index);
        return oldValue;
    }
    public boolean remove(Object o) {
        int i = indexOf(o);
        if (i < 0) return false;
        fastRemove(i);
        return true;
    }
    private void fastRemove(int i) {
        modCount++;
        int newSize = size - 1;
        if (newSize > i) System.arraycopy(elementData, i + 1, elementData, i, newSize - i);
        elementData[size = newSize] = null;
    }
    public void clear() {
        modCount++;
        for (int i = 0; i < size; i++) elementData[i] = null;
        size = 0;
    }
    public boolean addAll(Collection<? extends E> c) {
        Object[] a = c.toArray();
        modCount++;
        int numNew = a.length;
        if (numNew == 0) return false;
        if (numNew > elementData.length - size) grow(size + numNew);
        System.arraycopy(a, 0, elementData, size, numNew);
        size += numNew;
        return true;
    }
    protected void removeRange(int fromIndex, int toIndex) {
        modCount++;
        System.arraycopy(elementData, toIndex, elementData, fromIndex, size - toIndex);
        for (int i = size - (toIndex - fromIndex); i < size; i++) elementData[i] = null;
        size -= toIndex - fromIndex;
    }
    @SuppressWarnings("unchecked")
    public void sort(Comparator<? super E> c) {
        final int expectedModCount = modCount;
        Arrays.sort((E[]) elementData, 0, size, c);
        if (modCount != expectedModCount) throw new ConcurrentModificationException();
        modCount++;
    }
    public Iterator<E> iterator() { return new Itr(); }
    private class Itr implements Iterator<E> {
        int cursor;
        int lastRet = -1;
        int expectedModCount = modCount;
        public boolean hasNext() { return cursor != size; }
        @SuppressWarnings("unchecked")
        public E next() {
            if (modCount != expectedModCount) throw new ConcurrentModificationException();
            int i = cursor;
            if (i >= size) throw new NoSuchElementException();
            cursor = i + 1;
            return (E) elementData[lastRet = i];
        }
        public void remove() {
            if (lastRet < 0) throw new IllegalStateException();
            if (modCount != expectedModCount) throw new ConcurrentModificationException();
            ArrayList.this.remove(lastRet);
            cursor = lastRet;
            lastRet = -1;
            expectedModCount = modCount;
        }
    }
}
