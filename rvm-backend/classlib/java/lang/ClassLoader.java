package java.lang;

import java.io.InputStream;

/** One loader: the class path's (rvm has no user-defined class loaders that define classes). */
public abstract class ClassLoader {
    private static final ClassLoader SYSTEM = new ClassLoader() {};
    private final ClassLoader parent;
    protected ClassLoader() { this(null); }
    protected ClassLoader(ClassLoader parent) { this.parent = parent; }
    public static ClassLoader getSystemClassLoader() { return SYSTEM; }
    public static ClassLoader getPlatformClassLoader() { return SYSTEM; }
    public final ClassLoader getParent() { return parent; }
    public Class<?> loadClass(String name) throws ClassNotFoundException { return Class.forName(name, false, this); }
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException { return loadClass(name); }
    protected Class<?> findClass(String name) throws ClassNotFoundException { throw new ClassNotFoundException(name); }
    protected final Class<?> defineClass(String name, byte[] b, int off, int len) throws ClassFormatError {
        throw new UnsupportedOperationException("rvm: defining classes at run time is not supported");
    }
    public java.net.URL getResource(String name) { throw new UnsupportedOperationException("rvm: resource URLs are not supported (use getResourceAsStream)"); }
    public InputStream getResourceAsStream(String name) {
        byte[] b = jdk.internal.rvm.Reflect.resource(name);
        return b == null ? null : new java.io.ByteArrayInputStream(b);
    }
    public static InputStream getSystemResourceAsStream(String name) { return SYSTEM.getResourceAsStream(name); }
    public void setDefaultAssertionStatus(boolean enabled) {}
}
