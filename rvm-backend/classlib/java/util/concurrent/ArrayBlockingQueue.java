package java.util.concurrent;

import java.util.Collection;

/** A bounded blocking FIFO queue (rvm: see LockedQueue; {@code fair} makes its lock fair). */
public class ArrayBlockingQueue<E> extends LockedQueue<E> {
    public ArrayBlockingQueue(int capacity) { this(capacity, false); }
    public ArrayBlockingQueue(int capacity, boolean fair) { super(capacity, fair); }
    public ArrayBlockingQueue(int capacity, boolean fair, Collection<? extends E> c) {
        this(capacity, fair);
        for (E e : c) {
            if (e == null) throw new NullPointerException();
            if (!offer(e)) throw new IllegalArgumentException();
        }
    }
}
