package java.lang.invoke;

/**
 * The type exists for javac (lambdas compile to invokedynamic with method handle arguments);
 * rvm links those call sites itself and has no method handles at run time.
 */
public abstract class MethodHandle {
    MethodHandle() {}
    public MethodType type() { throw new UnsupportedOperationException("rvm: method handles are not supported"); }
    public final Object invoke(Object... args) throws Throwable { throw new UnsupportedOperationException("rvm: method handles are not supported"); }
    public final Object invokeExact(Object... args) throws Throwable { throw new UnsupportedOperationException("rvm: method handles are not supported"); }
}
