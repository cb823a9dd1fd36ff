package java.lang.invoke;

/** The type exists for javac; rvm has no method handles at run time. */
public final class MethodType implements java.io.Serializable {
    private MethodType() {}
    public static MethodType methodType(Class<?> rtype, Class<?>... ptypes) {
        throw new UnsupportedOperationException("rvm: method handles are not supported");
    }
}
