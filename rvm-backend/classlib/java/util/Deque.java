package java.util;

public interface Deque<E> extends Queue<E> {
    void addFirst(E e);
    void addLast(E e);
    boolean offerFirst(E e);
    boolean offerLast(E e);
    E removeFirst();
    E removeLast();
    E pollFirst();
    E pollLast();
    E getFirst();
    E getLast();
    E peekFirst();
    E peekLast();
    void push(E e);
    E pop();
    Iterator<E> descendingIterator();
    default boolean removeFirstOccurrence(Object o) {
        for (Iterator<E> it = iterator(); it.hasNext(); ) {
            if (Objects.equals(o, it.next())) { it.remove(); return true; }
        }
        return false;
    }
    default boolean removeLastOccurrence(Object o) {
        for (Iterator<E> it = descendingIterator(); it.hasNext(); ) {
            if (Objects.equals(o, it.next())) { it.remove(); return true; }
        }
        return false;
    }
}
