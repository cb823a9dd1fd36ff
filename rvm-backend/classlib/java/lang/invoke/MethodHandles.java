package java.lang.invoke;

/** The types exist for javac; rvm has no method handles at run time. */
public final class MethodHandles {
    private MethodHandles() {}
    public static Lookup lookup() { throw new UnsupportedOperationException("rvm: method handles are not supported"); }
    public static final class Lookup {
        private Lookup() {}
    }
}
