package jdk.internal.rvm;

/**
 * What reflection calls: for each method, constructor, field or class that is used reflectively,
 * rvm makes a hidden subclass (reflect.rs) whose override runs the real instructions (an invoke,
 * a field access, a class initialisation), as HotSpot generates accessor classes.
 */
public abstract class Accessor {
    /** A method (the receiver, ignored for static ones) or a constructor (a new instance). */
    public Object invoke(Object receiver, Object[] args) { throw new InternalError("not a method accessor"); }
    public Object get(Object receiver) { throw new InternalError("not a field accessor"); }
    public void set(Object receiver, Object value) { throw new InternalError("not a field accessor"); }
    /** Initialises the class (JVMS 5.5), running its static initialiser if it has not run. */
    public void init() { throw new InternalError("not a class initialiser"); }
}
