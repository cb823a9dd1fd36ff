package java.util.concurrent.locks;

import java.util.ArrayList;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import jdk.internal.rvm.Atomic;

/**
 * rvm's queued synchronizer, with the JDK's API for subclasses (tryAcquire/tryRelease,
 * tryAcquireShared/tryReleaseShared, isHeldExclusively, ConditionObject) but an implementation of
 * its own: the state is an int changed with compare-and-set (jdk.internal.rvm.Atomic); the
 * waiting threads are a FIFO list guarded by a monitor of the synchronizer (held for a few list
 * operations only, never while parked); a waiter parks (LockSupport.park, which rvm's scheduler
 * implements) and retries when it is first in the list. A release unparks the first waiter; a
 * shared acquisition unparks the next shared waiter, so a release reaches every shared waiter in
 * turn. Acquisition is not FIFO-fair by itself: a thread arriving at a free synchronizer takes it
 * without queueing (subclasses may check hasQueuedPredecessors).
 */
public abstract class AbstractQueuedSynchronizer extends AbstractOwnableSynchronizer {
    private static final int STATE = Atomic.offset(AbstractQueuedSynchronizer.class, "state");

    private volatile int state;
    /** Guards the wait list and the conditions' waiter lists. */
    private final Object queueLock = new Object();
    private Node head, tail;

    static final class Node {
        final Thread thread;
        final boolean shared;
        Node prev, next;
        /** A condition waiter that has been signalled (set under queueLock). */
        boolean signalled;
        Node(Thread thread, boolean shared) {
            this.thread = thread;
            this.shared = shared;
        }
    }

    protected AbstractQueuedSynchronizer() {}

    protected final int getState() { return Atomic.getInt(this, STATE); }
    protected final void setState(int newState) { Atomic.putInt(this, STATE, newState); }
    protected final boolean compareAndSetState(int expect, int update) { return Atomic.casInt(this, STATE, expect, update); }

    protected boolean tryAcquire(int arg) { throw new UnsupportedOperationException(); }
    protected boolean tryRelease(int arg) { throw new UnsupportedOperationException(); }
    protected int tryAcquireShared(int arg) { throw new UnsupportedOperationException(); }
    protected boolean tryReleaseShared(int arg) { throw new UnsupportedOperationException(); }
    protected boolean isHeldExclusively() { throw new UnsupportedOperationException(); }

    private void enqueue(Node node) {
        synchronized (queueLock) {
            node.prev = tail;
            if (tail == null) head = node;
            else tail.next = node;
            tail = node;
        }
    }

    /** Takes {@code node} out of the wait list; returns the new first waiter if it was first. */
    private Node dequeue(Node node) {
        synchronized (queueLock) {
            boolean wasFirst = head == node;
            if (node.prev != null) node.prev.next = node.next;
            else if (head == node) head = node.next;
            if (node.next != null) node.next.prev = node.prev;
            else if (tail == node) tail = node.prev;
            node.prev = node.next = null;
            return wasFirst ? head : null;
        }
    }

    private boolean isFirst(Node node) {
        synchronized (queueLock) {
            return head == node;
        }
    }

    private void unparkFirst() {
        Node h;
        synchronized (queueLock) {
            h = head;
        }
        if (h != null) LockSupport.unpark(h.thread);
    }

    /** Waits in the list until the acquisition succeeds: 1, or times out: 0, or is interrupted: -1. */
    private int acquireQueued(int arg, boolean shared, boolean interruptible, boolean timed, long nanos) {
        Thread me = Thread.currentThread();
        Node node = new Node(me, shared);
        enqueue(node);
        long deadline = timed ? System.nanoTime() + nanos : 0L;
        boolean interrupted = false;
        for (;;) {
            if (isFirst(node) && (shared ? tryAcquireShared(arg) >= 0 : tryAcquire(arg))) {
                Node next = dequeue(node);
                if (shared && next != null && next.shared) LockSupport.unpark(next.thread);
                if (interrupted) me.interrupt();
                return 1;
            }
            if (timed) {
                nanos = deadline - System.nanoTime();
                if (nanos <= 0L) {
                    cancel(node);
                    return 0;
                }
                LockSupport.parkNanos(this, nanos);
            } else {
                LockSupport.park(this);
            }
            if (Thread.interrupted()) {
                if (interruptible) {
                    cancel(node);
                    return -1;
                }
                interrupted = true;
            }
        }
    }

    /** A waiter gives up: if it was first, the next one may be able to go now. */
    private void cancel(Node node) {
        Node next = dequeue(node);
        if (next != null) LockSupport.unpark(next.thread);
    }

    public final void acquire(int arg) {
        if (!tryAcquire(arg)) acquireQueued(arg, false, false, false, 0L);
    }
    public final void acquireInterruptibly(int arg) throws InterruptedException {
        if (Thread.interrupted()) throw new InterruptedException();
        if (!tryAcquire(arg) && acquireQueued(arg, false, true, false, 0L) < 0) throw new InterruptedException();
    }
    public final boolean tryAcquireNanos(int arg, long nanosTimeout) throws InterruptedException {
        if (Thread.interrupted()) throw new InterruptedException();
        return tryAcquire(arg) || acquireTimed(arg, false, nanosTimeout);
    }
    /** Queues for at most {@code nanos}: whether it acquired; InterruptedException when interrupted. */
    private boolean acquireTimed(int arg, boolean shared, long nanos) throws InterruptedException {
        if (nanos <= 0L) return false;
        int r = acquireQueued(arg, shared, true, true, nanos);
        if (r < 0) throw new InterruptedException();
        return r > 0;
    }
    public final boolean release(int arg) {
        if (tryRelease(arg)) {
            unparkFirst();
            return true;
        }
        return false;
    }
    public final void acquireShared(int arg) {
        if (tryAcquireShared(arg) < 0) acquireQueued(arg, true, false, false, 0L);
    }
    public final void acquireSharedInterruptibly(int arg) throws InterruptedException {
        if (Thread.interrupted()) throw new InterruptedException();
        if (tryAcquireShared(arg) < 0 && acquireQueued(arg, true, true, false, 0L) < 0) throw new InterruptedException();
    }
    public final boolean tryAcquireSharedNanos(int arg, long nanosTimeout) throws InterruptedException {
        if (Thread.interrupted()) throw new InterruptedException();
        return tryAcquireShared(arg) >= 0 || acquireTimed(arg, true, nanosTimeout);
    }
    public final boolean releaseShared(int arg) {
        if (tryReleaseShared(arg)) {
            unparkFirst();
            return true;
        }
        return false;
    }

    public final boolean hasQueuedThreads() {
        synchronized (queueLock) {
            return head != null;
        }
    }
    public final boolean hasContended() { return hasQueuedThreads(); }
    public final Thread getFirstQueuedThread() {
        synchronized (queueLock) {
            return head == null ? null : head.thread;
        }
    }
    public final boolean isQueued(Thread thread) {
        if (thread == null) throw new NullPointerException();
        synchronized (queueLock) {
            for (Node n = head; n != null; n = n.next) if (n.thread == thread) return true;
        }
        return false;
    }
    public final boolean hasQueuedPredecessors() {
        synchronized (queueLock) {
            return head != null && head.thread != Thread.currentThread();
        }
    }
    public final int getQueueLength() {
        int n = 0;
        synchronized (queueLock) {
            for (Node p = head; p != null; p = p.next) n++;
        }
        return n;
    }
    public final Collection<Thread> getQueuedThreads() {
        ArrayList<Thread> list = new ArrayList<>();
        synchronized (queueLock) {
            for (Node p = head; p != null; p = p.next) list.add(p.thread);
        }
        return list;
    }
    public String toString() {
        return super.toString() + "[State = " + getState() + ", " + (hasQueuedThreads() ? "non" : "") + "empty queue]";
    }

    /**
     * A condition of an exclusive synchronizer: waiters in a FIFO list (under the synchronizer's
     * list monitor); await releases the synchronizer fully, parks until signalled (or
     * interrupted, or timed out), then acquires it again with the saved state.
     */
    public class ConditionObject implements Condition, java.io.Serializable {
        private Node firstWaiter, lastWaiter;

        public ConditionObject() {}

        private Node addWaiter() {
            if (!isHeldExclusively()) throw new IllegalMonitorStateException();
            Node node = new Node(Thread.currentThread(), false);
            synchronized (queueLock) {
                if (lastWaiter == null) firstWaiter = node;
                else lastWaiter.next = node;
                lastWaiter = node;
            }
            return node;
        }

        /** Removes a waiter that was not signalled; false if it was (it must go on as signalled). */
        private boolean unlink(Node node) {
            synchronized (queueLock) {
                if (node.signalled) return false;
                Node prev = null;
                for (Node p = firstWaiter; p != null; prev = p, p = p.next) {
                    if (p == node) {
                        if (prev == null) firstWaiter = p.next;
                        else prev.next = p.next;
                        if (lastWaiter == p) lastWaiter = prev;
                        p.next = null;
                        return true;
                    }
                }
                return false;
            }
        }

        private boolean isSignalled(Node node) {
            synchronized (queueLock) {
                return node.signalled;
            }
        }

        private int fullyRelease(Node node) {
            int saved = getState();
            if (!release(saved)) {
                unlink(node);
                throw new IllegalMonitorStateException();
            }
            return saved;
        }

        private Node takeFirst() {
            synchronized (queueLock) {
                Node n = firstWaiter;
                if (n != null) {
                    firstWaiter = n.next;
                    if (firstWaiter == null) lastWaiter = null;
                    n.next = null;
                    n.signalled = true;
                }
                return n;
            }
        }

        public final void signal() {
            if (!isHeldExclusively()) throw new IllegalMonitorStateException();
            Node n = takeFirst();
            if (n != null) LockSupport.unpark(n.thread);
        }

        public final void signalAll() {
            if (!isHeldExclusively()) throw new IllegalMonitorStateException();
            for (Node n; (n = takeFirst()) != null;) LockSupport.unpark(n.thread);
        }

        public final void awaitUninterruptibly() {
            Node node = addWaiter();
            int saved = fullyRelease(node);
            boolean interrupted = false;
            while (!isSignalled(node)) {
                LockSupport.park(this);
                if (Thread.interrupted()) interrupted = true;
            }
            acquire(saved);
            if (interrupted) Thread.currentThread().interrupt();
        }

        public final void await() throws InterruptedException {
            if (Thread.interrupted()) throw new InterruptedException();
            Node node = addWaiter();
            int saved = fullyRelease(node);
            boolean throwIt = false, reinterrupt = false;
            while (!isSignalled(node)) {
                LockSupport.park(this);
                if (Thread.interrupted()) {
                    if (unlink(node)) {
                        throwIt = true;
                        break;
                    }
                    reinterrupt = true;
                }
            }
            acquire(saved);
            if (throwIt) throw new InterruptedException();
            if (reinterrupt) Thread.currentThread().interrupt();
        }

        public final long awaitNanos(long nanosTimeout) throws InterruptedException {
            if (Thread.interrupted()) throw new InterruptedException();
            Node node = addWaiter();
            int saved = fullyRelease(node);
            long deadline = System.nanoTime() + nanosTimeout;
            boolean throwIt = false, reinterrupt = false;
            while (!isSignalled(node)) {
                long left = deadline - System.nanoTime();
                if (left <= 0L) {
                    if (unlink(node)) break;
                    continue; // signalled meanwhile
                }
                LockSupport.parkNanos(this, left);
                if (Thread.interrupted()) {
                    if (unlink(node)) {
                        throwIt = true;
                        break;
                    }
                    reinterrupt = true;
                }
            }
            acquire(saved);
            if (throwIt) throw new InterruptedException();
            if (reinterrupt) Thread.currentThread().interrupt();
            long left = deadline - System.nanoTime();
            return isSignalled(node) ? Math.max(left, 1L) : Math.min(left, 0L);
        }

        public final boolean await(long time, TimeUnit unit) throws InterruptedException {
            return awaitNanos(unit.toNanos(time)) > 0L;
        }

        protected final boolean hasWaiters() {
            if (!isHeldExclusively()) throw new IllegalMonitorStateException();
            synchronized (queueLock) {
                return firstWaiter != null;
            }
        }

        protected final int getWaitQueueLength() {
            if (!isHeldExclusively()) throw new IllegalMonitorStateException();
            int n = 0;
            synchronized (queueLock) {
                for (Node p = firstWaiter; p != null; p = p.next) n++;
            }
            return n;
        }
    }
}
