package java.util.concurrent;

import java.util.Collection;
import java.util.Comparator;
import java.util.PriorityQueue;

/** An unbounded blocking priority queue (rvm: a PriorityQueue behind one lock; see LockedQueue). */
public class PriorityBlockingQueue<E> extends LockedQueue<E> {
    private final Comparator<? super E> comparator;

    public PriorityBlockingQueue() { this(11, null); }
    public PriorityBlockingQueue(int initialCapacity) { this(initialCapacity, null); }
    public PriorityBlockingQueue(int initialCapacity, Comparator<? super E> comparator) {
        super(Integer.MAX_VALUE, false, new PriorityQueue<E>(Math.max(1, initialCapacity), comparator));
        if (initialCapacity < 1) throw new IllegalArgumentException();
        this.comparator = comparator;
    }
    public PriorityBlockingQueue(Collection<? extends E> c) {
        this(11, null);
        addAll(c);
    }

    public Comparator<? super E> comparator() { return comparator; }

    public boolean offer(E e) {
        if (e == null) throw new NullPointerException();
        return super.offer(e);
    }
}
