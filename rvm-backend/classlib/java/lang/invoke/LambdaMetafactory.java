package java.lang.invoke;

/** The bootstrap methods javac names for lambdas; rvm links those call sites itself (never calls these). */
public final class LambdaMetafactory {
    private LambdaMetafactory() {}
    public static final int FLAG_SERIALIZABLE = 1 << 0;
    public static final int FLAG_MARKERS = 1 << 1;
    public static final int FLAG_BRIDGES = 1 << 2;
    public static CallSite metafactory(MethodHandles.Lookup caller, String interfaceMethodName, MethodType factoryType, MethodType interfaceMethodType, MethodHandle implementation, MethodType dynamicMethodType) throws LambdaConversionException {
        throw new UnsupportedOperationException("rvm links lambdas itself");
    }
    public static CallSite altMetafactory(MethodHandles.Lookup caller, String interfaceMethodName, MethodType factoryType, Object... args) throws LambdaConversionException {
        throw new UnsupportedOperationException("rvm links lambdas itself");
    }
}
