package java.lang;

/** As ThreadLocal: rvm does not copy values into child threads. */
public class InheritableThreadLocal<T> extends ThreadLocal<T> {
    public InheritableThreadLocal() {}
    protected T childValue(T parentValue) { return parentValue; }
}
