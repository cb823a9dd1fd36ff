package java.util.concurrent;

import java.util.AbstractQueue;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Queue;
import jdk.internal.rvm.Atomic;

/**
 * An unbounded non-blocking FIFO queue: a singly linked list with a dummy head node, elements
 * added by compare-and-set on the last node's next link and the tail pointer (helping a lagging
 * tail along), taken by compare-and-set on the head. Removal from the middle (remove(Object))
 * clears the element in its node, which poll then skips. size() counts, as in the JDK.
 */
public class ConcurrentLinkedQueue<E> extends AbstractQueue<E> implements Queue<E>, java.io.Serializable {
    private static final int HEAD = Atomic.offset(ConcurrentLinkedQueue.class, "head");
    private static final int TAIL = Atomic.offset(ConcurrentLinkedQueue.class, "tail");
    private static final int NEXT = Atomic.offset(Node.class, "next");
    private static final int ITEM = Atomic.offset(Node.class, "item");

    static final class Node {
        volatile Object item;
        volatile Node next;
        Node(Object item) { this.item = item; }
    }

    private volatile Node head;
    private volatile Node tail;

    public ConcurrentLinkedQueue() {
        Node dummy = new Node(null);
        head = dummy;
        tail = dummy;
    }
    public ConcurrentLinkedQueue(java.util.Collection<? extends E> c) {
        this();
        for (E e : c) offer(e);
    }

    private static Node next(Node n) { return (Node) Atomic.getRef(n, NEXT); }

    public boolean offer(E e) {
        if (e == null) throw new NullPointerException();
        Node node = new Node(e);
        for (;;) {
            Node t = (Node) Atomic.getRef(this, TAIL);
            Node n = next(t);
            if (n == null) {
                if (Atomic.casRef(t, NEXT, null, node)) {
                    Atomic.casRef(this, TAIL, t, node);
                    return true;
                }
            } else {
                Atomic.casRef(this, TAIL, t, n);
            }
        }
    }
    public boolean add(E e) { return offer(e); }

    @SuppressWarnings("unchecked")
    public E poll() {
        for (;;) {
            Node h = (Node) Atomic.getRef(this, HEAD);
            Node first = next(h);
            if (first == null) return null;
            if (Atomic.casRef(this, HEAD, h, first)) {
                Node t = (Node) Atomic.getRef(this, TAIL);
                if (t == h) Atomic.casRef(this, TAIL, t, first);
                Object item = Atomic.getAndSetRef(first, ITEM, null);
                if (item != null) return (E) item;
            }
        }
    }
    @SuppressWarnings("unchecked")
    public E peek() {
        for (Node n = next((Node) Atomic.getRef(this, HEAD)); n != null; n = next(n)) {
            Object item = Atomic.getRef(n, ITEM);
            if (item != null) return (E) item;
        }
        return null;
    }
    public boolean isEmpty() { return peek() == null; }
    public int size() {
        int count = 0;
        for (Node n = next((Node) Atomic.getRef(this, HEAD)); n != null; n = next(n)) {
            if (Atomic.getRef(n, ITEM) != null && ++count == Integer.MAX_VALUE) break;
        }
        return count;
    }
    public boolean contains(Object o) {
        if (o == null) return false;
        for (Node n = next((Node) Atomic.getRef(this, HEAD)); n != null; n = next(n)) {
            Object item = Atomic.getRef(n, ITEM);
            if (item != null && o.equals(item)) return true;
        }
        return false;
    }
    public boolean remove(Object o) {
        if (o == null) return false;
        for (Node n = next((Node) Atomic.getRef(this, HEAD)); n != null; n = next(n)) {
            Object item = Atomic.getRef(n, ITEM);
            if (item != null && o.equals(item) && Atomic.casRef(n, ITEM, item, null)) return true;
        }
        return false;
    }
    public Iterator<E> iterator() {
        final ArrayList<E> snapshot = new ArrayList<>();
        for (Node n = next((Node) Atomic.getRef(this, HEAD)); n != null; n = next(n)) {
            @SuppressWarnings("unchecked")
            E item = (E) Atomic.getRef(n, ITEM);
            if (item != null) snapshot.add(item);
        }
        final Iterator<E> it = snapshot.iterator();
        return new Iterator<E>() {
            E last;
            public boolean hasNext() { return it.hasNext(); }
            public E next() { return last = it.next(); }
            public void remove() {
                if (last == null) throw new IllegalStateException();
                ConcurrentLinkedQueue.this.remove(last);
                last = null;
            }
        };
    }
}
