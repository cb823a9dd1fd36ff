package java.util.concurrent;

import java.util.AbstractQueue;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Iterator;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What rvm's LinkedBlockingQueue, ArrayBlockingQueue and PriorityBlockingQueue share: a queue (a
 * FIFO, or a priority heap) of at most {@code capacity} elements behind one ReentrantLock with
 * the conditions notEmpty and notFull (so a blocked take or put parks). Iterators iterate over a
 * snapshot.
 */
abstract class LockedQueue<E> extends AbstractQueue<E> implements BlockingQueue<E>, java.io.Serializable {
    final int capacity;
    final java.util.Queue<E> items;
    final ReentrantLock lock;
    private final Condition notEmpty, notFull;

    LockedQueue(int capacity, boolean fair) { this(capacity, fair, new ArrayDeque<>()); }

    LockedQueue(int capacity, boolean fair, java.util.Queue<E> items) {
        if (capacity <= 0) throw new IllegalArgumentException();
        this.capacity = capacity;
        this.items = items;
        lock = new ReentrantLock(fair);
        notEmpty = lock.newCondition();
        notFull = lock.newCondition();
    }

    /** Under the lock. */
    private void enqueue(E e) {
        items.offer(e);
        notEmpty.signal();
    }
    private E dequeue() {
        E e = items.poll();
        notFull.signal();
        return e;
    }

    public boolean offer(E e) {
        if (e == null) throw new NullPointerException();
        lock.lock();
        try {
            if (items.size() >= capacity) return false;
            enqueue(e);
            return true;
        } finally {
            lock.unlock();
        }
    }
    public void put(E e) throws InterruptedException {
        if (e == null) throw new NullPointerException();
        lock.lockInterruptibly();
        try {
            while (items.size() >= capacity) notFull.await();
            enqueue(e);
        } finally {
            lock.unlock();
        }
    }
    public boolean offer(E e, long timeout, TimeUnit unit) throws InterruptedException {
        if (e == null) throw new NullPointerException();
        long nanos = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            while (items.size() >= capacity) {
                if (nanos <= 0L) return false;
                nanos = notFull.awaitNanos(nanos);
            }
            enqueue(e);
            return true;
        } finally {
            lock.unlock();
        }
    }
    public E take() throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (items.isEmpty()) notEmpty.await();
            return dequeue();
        } finally {
            lock.unlock();
        }
    }
    public E poll(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            while (items.isEmpty()) {
                if (nanos <= 0L) return null;
                nanos = notEmpty.awaitNanos(nanos);
            }
            return dequeue();
        } finally {
            lock.unlock();
        }
    }
    public E poll() {
        lock.lock();
        try {
            return items.isEmpty() ? null : dequeue();
        } finally {
            lock.unlock();
        }
    }
    public E peek() {
        lock.lock();
        try {
            return items.peek();
        } finally {
            lock.unlock();
        }
    }
    public int size() {
        lock.lock();
        try {
            return items.size();
        } finally {
            lock.unlock();
        }
    }
    public int remainingCapacity() {
        lock.lock();
        try {
            return capacity - items.size();
        } finally {
            lock.unlock();
        }
    }
    public boolean remove(Object o) {
        if (o == null) return false;
        lock.lock();
        try {
            boolean removed = items.remove(o);
            if (removed) notFull.signal();
            return removed;
        } finally {
            lock.unlock();
        }
    }
    public boolean contains(Object o) {
        if (o == null) return false;
        lock.lock();
        try {
            return items.contains(o);
        } finally {
            lock.unlock();
        }
    }
    public void clear() {
        lock.lock();
        try {
            items.clear();
            notFull.signalAll();
        } finally {
            lock.unlock();
        }
    }
    public int drainTo(Collection<? super E> c) { return drainTo(c, Integer.MAX_VALUE); }
    public int drainTo(Collection<? super E> c, int maxElements) {
        if (c == null) throw new NullPointerException();
        if (c == this) throw new IllegalArgumentException();
        lock.lock();
        try {
            int n = 0;
            while (n < maxElements && !items.isEmpty()) {
                c.add(items.poll());
                n++;
            }
            if (n > 0) notFull.signalAll();
            return n;
        } finally {
            lock.unlock();
        }
    }
    public Object[] toArray() {
        lock.lock();
        try {
            return items.toArray();
        } finally {
            lock.unlock();
        }
    }
    public <T> T[] toArray(T[] a) {
        lock.lock();
        try {
            return items.toArray(a);
        } finally {
            lock.unlock();
        }
    }
    public Iterator<E> iterator() {
        final Object[] snapshot = toArray();
        return new Iterator<E>() {
            int next;
            Object last;
            public boolean hasNext() { return next < snapshot.length; }
            @SuppressWarnings("unchecked")
            public E next() {
                if (next >= snapshot.length) throw new java.util.NoSuchElementException();
                return (E) (last = snapshot[next++]);
            }
            public void remove() {
                if (last == null) throw new IllegalStateException();
                LockedQueue.this.remove(last);
                last = null;
            }
        };
    }
}
