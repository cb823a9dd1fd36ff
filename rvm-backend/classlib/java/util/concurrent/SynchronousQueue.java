package java.util.concurrent;

import java.util.AbstractQueue;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A blocking queue without capacity: each put waits for a take and each take for a put. rvm's is
 * one ReentrantLock over a list of waiting nodes, all of one mode (puts with their items, or
 * takes), each with a Condition its thread parks on until a thread of the other mode matches it.
 * As in the JDK, a fair queue matches the longest-waiting node first and an unfair one (the
 * default) the most recent.
 */
public class SynchronousQueue<E> extends AbstractQueue<E> implements BlockingQueue<E>, java.io.Serializable {
    private static final class Node {
        final boolean isData;
        Object item;
        boolean matched;
        final Condition cond;
        Node(boolean isData, Object item, Condition cond) {
            this.isData = isData;
            this.item = item;
            this.cond = cond;
        }
    }

    private final boolean fair;
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Node> waiting = new ArrayDeque<>();

    public SynchronousQueue() { this(false); }
    public SynchronousQueue(boolean fair) { this.fair = fair; }

    /**
     * Hands {@code e} to a taker (e != null) or takes an item from a putter (e == null), waiting
     * if {@code wait} (at most {@code nanos} if {@code timed}). Returns the item taken, or
     * {@code e} once handed over; null if none matched in time.
     */
    @SuppressWarnings("unchecked")
    private Object transfer(Object e, boolean wait, boolean timed, long nanos) throws InterruptedException {
        boolean isData = e != null;
        lock.lock();
        try {
            Node other = waiting.isEmpty() || waiting.peekFirst().isData == isData ? null : (fair ? waiting.pollFirst() : waiting.pollLast());
            if (other != null) {
                Object x = other.item;
                other.item = e;
                other.matched = true;
                other.cond.signal();
                return isData ? e : x;
            }
            if (!wait || (timed && nanos <= 0L)) return null;
            if (Thread.interrupted()) throw new InterruptedException();
            Node me = new Node(isData, e, lock.newCondition());
            waiting.addLast(me);
            try {
                while (!me.matched) {
                    if (!timed) {
                        me.cond.await();
                    } else {
                        if (nanos <= 0L) break;
                        nanos = me.cond.awaitNanos(nanos);
                    }
                }
            } catch (InterruptedException ie) {
                if (!me.matched) {
                    waiting.remove(me);
                    throw ie;
                }
                // matched as the interrupt came: the transfer happened, the interrupt stays
                Thread.currentThread().interrupt();
            }
            if (!me.matched) {
                waiting.remove(me);
                return null;
            }
            return isData ? e : me.item;
        } finally {
            lock.unlock();
        }
    }

    public void put(E e) throws InterruptedException {
        if (e == null) throw new NullPointerException();
        transfer(e, true, false, 0L);
    }

    public boolean offer(E e, long timeout, TimeUnit unit) throws InterruptedException {
        if (e == null) throw new NullPointerException();
        return transfer(e, true, true, unit.toNanos(timeout)) != null;
    }

    public boolean offer(E e) {
        if (e == null) throw new NullPointerException();
        try {
            return transfer(e, false, false, 0L) != null;
        } catch (InterruptedException ie) {
            throw new IllegalStateException(ie);
        }
    }

    @SuppressWarnings("unchecked")
    public E take() throws InterruptedException { return (E) transfer(null, true, false, 0L); }

    @SuppressWarnings("unchecked")
    public E poll(long timeout, TimeUnit unit) throws InterruptedException { return (E) transfer(null, true, true, unit.toNanos(timeout)); }

    @SuppressWarnings("unchecked")
    public E poll() {
        try {
            return (E) transfer(null, false, false, 0L);
        } catch (InterruptedException ie) {
            throw new IllegalStateException(ie);
        }
    }

    public boolean isEmpty() { return true; }
    public int size() { return 0; }
    public int remainingCapacity() { return 0; }
    public void clear() {}
    public boolean contains(Object o) { return false; }
    public boolean remove(Object o) { return false; }
    public boolean containsAll(Collection<?> c) { return c.isEmpty(); }
    public boolean removeAll(Collection<?> c) { return false; }
    public boolean retainAll(Collection<?> c) { return false; }
    public E peek() { return null; }
    public Iterator<E> iterator() { return Collections.emptyIterator(); }
    public Object[] toArray() { return new Object[0]; }
    public <T> T[] toArray(T[] a) {
        if (a.length > 0) a[0] = null;
        return a;
    }
    public String toString() { return "[]"; }

    public int drainTo(Collection<? super E> c) { return drainTo(c, Integer.MAX_VALUE); }
    public int drainTo(Collection<? super E> c, int maxElements) {
        if (c == null) throw new NullPointerException();
        if (c == this) throw new IllegalArgumentException();
        int n = 0;
        for (E e; n < maxElements && (e = poll()) != null; n++) c.add(e);
        return n;
    }
}
