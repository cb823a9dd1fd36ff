package java.util.concurrent;

import java.util.Collection;

/** An optionally bounded blocking FIFO queue (rvm: one lock for both ends; see LockedQueue). */
public class LinkedBlockingQueue<E> extends LockedQueue<E> {
    public LinkedBlockingQueue() { this(Integer.MAX_VALUE); }
    public LinkedBlockingQueue(int capacity) { super(capacity, false); }
    public LinkedBlockingQueue(Collection<? extends E> c) {
        this(Integer.MAX_VALUE);
        for (E e : c) {
            if (e == null) throw new NullPointerException();
            if (!offer(e)) throw new IllegalStateException("Queue full");
        }
    }
}
