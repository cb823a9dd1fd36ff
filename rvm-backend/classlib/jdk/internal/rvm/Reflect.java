package jdk.internal.rvm;

/** The natives of reflection (rvm's reflect.rs). Members are numbered by their index in the class. */
public final class Reflect {
    private Reflect() {}
    /** Loads a class by binary name ("java.lang.String", "[I"); null if there is none. */
    public static native Class<?> load(String binaryName);
    /** The class a field descriptor names ("I", "Ljava/lang/String;", "[J"), loading it. */
    public static native Class<?> ofDescriptor(String descriptor);
    public static native Class<?> primitive(String name);
    public static native boolean isPrimitive(Class<?> c);
    public static native Class<?> componentType(Class<?> c);
    public static native Class<?> arrayType(Class<?> c);
    public static native boolean isAssignableFrom(Class<?> to, Class<?> from);
    public static native int interfaceCount(Class<?> c);
    public static native Class<?> interfaceAt(Class<?> c, int i);
    /** The class's access flags (of its InnerClasses entry for a member class). */
    public static native int classModifiers(Class<?> c);
    public static native int methodCount(Class<?> c);
    public static native String methodName(Class<?> c, int i);
    public static native String methodDescriptor(Class<?> c, int i);
    public static native int methodModifiers(Class<?> c, int i);
    public static native int fieldCount(Class<?> c);
    public static native String fieldName(Class<?> c, int i);
    public static native String fieldDescriptor(Class<?> c, int i);
    public static native int fieldModifiers(Class<?> c, int i);
    /**
     * The runtime-visible annotations of the class (kind 0), a field (1) or a method (2): with a
     * type descriptor, 1 if one of that type is there, else 0; with null, how many there are.
     */
    public static native int annotation(Class<?> c, int kind, int member, String typeDescriptor);
    /** The class declaring a member class, from its InnerClasses attribute; null if none. */
    public static native Class<?> declaringClass(Class<?> c);
    public static native Accessor methodAccessor(Class<?> c, int i);
    public static native Accessor fieldAccessor(Class<?> c, int i);
    public static native Accessor initializer(Class<?> c);
    public static native Object newArray(Class<?> componentType, int length);
    /** A resource from the class path (directories and jars, in order); null if none has it. */
    public static native byte[] resource(String name);
}
