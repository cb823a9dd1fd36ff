package jdk.internal.rvm;

/**
 * Atomic operations on a field of an object, by the field's word offset ({@link #offset}): what
 * java.util.concurrent is built on in rvm. Natives in the VM's juc.rs: 32-bit slots (int, boolean,
 * references) with the heap word's own atomic instructions, 64-bit slots under a lock per address.
 * Every access here is sequentially consistent, like a volatile access.
 */
public final class Atomic {
    private Atomic() {}

    /** The word offset of instance field {@code name} of class {@code c} or a superclass. */
    public static native int offset(Class<?> c, String name);

    public static native int getInt(Object o, int offset);
    public static native void putInt(Object o, int offset, int v);
    public static native boolean casInt(Object o, int offset, int expect, int update);
    public static native int getAndAddInt(Object o, int offset, int delta);
    public static native int getAndSetInt(Object o, int offset, int v);

    public static native long getLong(Object o, int offset);
    public static native void putLong(Object o, int offset, long v);
    public static native boolean casLong(Object o, int offset, long expect, long update);
    public static native long getAndAddLong(Object o, int offset, long delta);
    public static native long getAndSetLong(Object o, int offset, long v);

    public static native Object getRef(Object o, int offset);
    public static native void putRef(Object o, int offset, Object v);
    public static native boolean casRef(Object o, int offset, Object expect, Object update);
    public static native Object getAndSetRef(Object o, int offset, Object v);
}
