package java.util.concurrent;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A reusable barrier with a varying number of parties, as the JDK's, built on a ReentrantLock and
 * a Condition (waiters park until the phase advances): phases count up from 0 (wrapping to 0
 * after Integer.MAX_VALUE); the last party to arrive runs onAdvance and opens the next phase, or
 * terminates the phaser (the phase still advances, and reads as a negative number from then on). rvm's Phaser is not tiered: a
 * parent phaser is not supported (the constructors that take one throw
 * UnsupportedOperationException for a non-null parent).
 */
public class Phaser {
    private static final int MAX_PARTIES = 0xffff;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition advanced = lock.newCondition();
    private int phase;
    private int parties;
    private int unarrived;
    private boolean terminated;

    public Phaser() { this(null, 0); }
    public Phaser(int parties) { this(null, parties); }
    public Phaser(Phaser parent) { this(parent, 0); }
    public Phaser(Phaser parent, int parties) {
        if (parties < 0 || parties > MAX_PARTIES) throw new IllegalArgumentException("Illegal number of parties");
        if (parent != null) throw new UnsupportedOperationException("rvm: tiered phasers are not supported");
        this.parties = parties;
        this.unarrived = parties;
    }

    /** Under lock: the phase as getPhase reports it. */
    private int phaseNow() { return terminated ? phase | Integer.MIN_VALUE : phase; }

    private String stateString() {
        return super.toString() + "[phase = " + phaseNow() + " parties = " + parties + " arrived = " + (parties - unarrived) + "]";
    }

    private int doRegister(int n) {
        lock.lock();
        try {
            if (terminated) return phaseNow();
            if (parties + n > MAX_PARTIES) throw new IllegalStateException("Attempt to register more than " + MAX_PARTIES + " parties for " + stateString());
            parties += n;
            unarrived += n;
            return phase;
        } finally {
            lock.unlock();
        }
    }

    public int register() { return doRegister(1); }

    public int bulkRegister(int parties) {
        if (parties < 0) throw new IllegalArgumentException();
        if (parties == 0) return getPhase();
        return doRegister(parties);
    }

    /** Under lock: the phase ends; onAdvance says whether the phaser terminates. */
    private void advance() {
        boolean end;
        try {
            end = onAdvance(phase, parties);
        } catch (RuntimeException | Error e) {
            end = false;
            openNext();
            throw e;
        }
        if (end) {
            // as the JDK's: the phase still advances, with the termination mark
            phase = (phase + 1) & Integer.MAX_VALUE;
            terminated = true;
            advanced.signalAll();
        } else {
            openNext();
        }
    }

    private void openNext() {
        phase = (phase + 1) & Integer.MAX_VALUE;
        unarrived = parties;
        advanced.signalAll();
    }

    /** Arrives (and deregisters if asked); returns the arrival phase, or the negative phase if terminated. */
    private int doArrive(boolean deregister) {
        lock.lock();
        try {
            if (terminated) return phaseNow();
            if (unarrived <= 0) throw new IllegalStateException("Attempted arrival of unregistered party for " + stateString());
            int p = phase;
            unarrived--;
            if (deregister) parties--;
            if (unarrived == 0) advance();
            return p;
        } finally {
            lock.unlock();
        }
    }

    public int arrive() { return doArrive(false); }
    public int arriveAndDeregister() { return doArrive(true); }

    public int arriveAndAwaitAdvance() {
        lock.lock();
        try {
            if (terminated) return phaseNow();
            if (unarrived <= 0) throw new IllegalStateException("Attempted arrival of unregistered party for " + stateString());
            int p = phase;
            unarrived--;
            if (unarrived == 0) {
                advance();
                return phaseNow();
            }
            while (phase == p && !terminated) advanced.awaitUninterruptibly();
            return phaseNow();
        } finally {
            lock.unlock();
        }
    }

    public int awaitAdvance(int phase) {
        if (phase < 0) return phase;
        lock.lock();
        try {
            while (this.phase == phase && !terminated) advanced.awaitUninterruptibly();
            return phaseNow();
        } finally {
            lock.unlock();
        }
    }

    public int awaitAdvanceInterruptibly(int phase) throws InterruptedException {
        if (phase < 0) return phase;
        lock.lock();
        try {
            while (this.phase == phase && !terminated) advanced.await();
            return phaseNow();
        } finally {
            lock.unlock();
        }
    }

    public int awaitAdvanceInterruptibly(int phase, long timeout, TimeUnit unit) throws InterruptedException, TimeoutException {
        if (phase < 0) return phase;
        long nanos = unit.toNanos(timeout);
        lock.lock();
        try {
            while (this.phase == phase && !terminated) {
                if (nanos <= 0L) throw new TimeoutException();
                nanos = advanced.awaitNanos(nanos);
            }
            return phaseNow();
        } finally {
            lock.unlock();
        }
    }

    public void forceTermination() {
        lock.lock();
        try {
            if (!terminated) {
                terminated = true;
                advanced.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    public final int getPhase() {
        lock.lock();
        try {
            return phaseNow();
        } finally {
            lock.unlock();
        }
    }

    public int getRegisteredParties() {
        lock.lock();
        try {
            return parties;
        } finally {
            lock.unlock();
        }
    }

    public int getArrivedParties() {
        lock.lock();
        try {
            return parties - unarrived;
        } finally {
            lock.unlock();
        }
    }

    public int getUnarrivedParties() {
        lock.lock();
        try {
            return unarrived;
        } finally {
            lock.unlock();
        }
    }

    public Phaser getParent() { return null; }
    public Phaser getRoot() { return this; }

    public boolean isTerminated() {
        lock.lock();
        try {
            return terminated;
        } finally {
            lock.unlock();
        }
    }

    /** Whether the phaser terminates when a phase ends: by default when no party is registered. */
    protected boolean onAdvance(int phase, int registeredParties) { return registeredParties == 0; }

    public String toString() {
        lock.lock();
        try {
            return stateString();
        } finally {
            lock.unlock();
        }
    }
}
