package java.lang.reflect;

import jdk.internal.rvm.Accessor;
import jdk.internal.rvm.Reflect;

/** A method or constructor: its class, its index in the class's methods, its descriptor. */
public abstract class Executable extends AccessibleObject implements Member, GenericDeclaration {
    final Class<?> clazz;
    final int slot;
    final String name;
    final String descriptor;
    final int modifiers;
    private Class<?>[] parameterTypes;
    private Class<?> returnType;
    private Accessor accessor;

    Executable(Class<?> clazz, int slot) {
        this.clazz = clazz;
        this.slot = slot;
        this.name = Reflect.methodName(clazz, slot);
        this.descriptor = Reflect.methodDescriptor(clazz, slot);
        this.modifiers = Reflect.methodModifiers(clazz, slot);
    }

    /** Reflection's factory: the declared methods (or constructors) of a class, in class-file order. */
    public static Executable[] declared(Class<?> c, boolean constructors) {
        int n = Reflect.methodCount(c);
        java.util.ArrayList<Executable> out = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            String nm = Reflect.methodName(c, i);
            if (nm.equals("<clinit>")) continue;
            if (nm.equals("<init>") != constructors) continue;
            out.add(constructors ? new Constructor<>(c, i) : new Method(c, i));
        }
        return out.toArray(new Executable[0]);
    }

    private void parse() {
        java.util.ArrayList<Class<?>> ps = new java.util.ArrayList<>();
        int i = 1;
        while (descriptor.charAt(i) != ')') {
            int start = i;
            while (descriptor.charAt(i) == '[') i++;
            if (descriptor.charAt(i) == 'L') i = descriptor.indexOf(';', i);
            i++;
            ps.add(Reflect.ofDescriptor(descriptor.substring(start, i)));
        }
        parameterTypes = ps.toArray(new Class<?>[0]);
        returnType = Reflect.ofDescriptor(descriptor.substring(i + 1));
    }
    Class<?>[] params() { if (parameterTypes == null) parse(); return parameterTypes; }
    Class<?> ret() { if (returnType == null) parse(); return returnType; }

    public Class<?> getDeclaringClass() { return clazz; }
    public int getModifiers() { return modifiers & Modifier.methodModifiers(); }
    public boolean isSynthetic() { return (modifiers & 0x1000) != 0; }
    public boolean isVarArgs() { return (modifiers & 0x80) != 0; }
    public Class<?>[] getParameterTypes() { return params().clone(); }
    public int getParameterCount() { return params().length; }
    public Type[] getGenericParameterTypes() { return getParameterTypes(); }
    public Class<?>[] getExceptionTypes() {
        throw new UnsupportedOperationException("rvm: the Exceptions attribute is not read");
    }
    int annotations(String typeDescriptor) { return Reflect.annotation(clazz, 2, slot, typeDescriptor); }

    boolean sameSignature(Executable other) { return name.equals(other.name) && descriptor.substring(0, descriptor.indexOf(')')).equals(other.descriptor.substring(0, other.descriptor.indexOf(')'))); }

    String paramList() {
        StringBuilder sb = new StringBuilder("(");
        Class<?>[] ps = params();
        for (int i = 0; i < ps.length; i++) {
            if (i > 0) sb.append(',');
            sb.append(ps[i].getTypeName());
        }
        return sb.append(')').toString();
    }

    /** Checks and converts the arguments as the JDK's reflection does (widening, unboxing), then calls. */
    Object call(Object receiver, Object[] args) throws InvocationTargetException {
        Class<?>[] ps = params();
        int n = args == null ? 0 : args.length;
        if (n != ps.length) throw new IllegalArgumentException("wrong number of arguments: " + n + " expected: " + ps.length);
        Object[] conv = new Object[n];
        for (int i = 0; i < n; i++) conv[i] = convert(args[i], ps[i]);
        Accessor a = accessor;
        if (a == null) accessor = a = Reflect.methodAccessor(clazz, slot);
        try {
            return a.invoke(receiver, conv);
        } catch (Throwable t) {
            throw new InvocationTargetException(t);
        }
    }

    /** The value converted to parameter (or field) type t: a wrapper of exactly t's primitive type, or a t. */
    static Object convert(Object v, Class<?> t) {
        if (!t.isPrimitive()) {
            if (v != null && !t.isInstance(v)) throw new IllegalArgumentException("argument type mismatch");
            return v;
        }
        Object w = widen(v, t);
        if (w == null) throw new IllegalArgumentException(v == null ? "argument type mismatch" : "argument type mismatch");
        return w;
    }

    static Object widen(Object v, Class<?> t) {
        if (v == null) return null;
        if (t == boolean.class) return v instanceof Boolean ? v : null;
        if (t == char.class) return v instanceof Character ? v : null;
        long l;
        double d;
        boolean integral;
        if (v instanceof Byte) { l = (Byte) v; integral = true; if (t == byte.class) return v; }
        else if (v instanceof Short) { l = (Short) v; integral = true; if (t == byte.class) return null; }
        else if (v instanceof Character) { l = (Character) v; integral = true; if (t == byte.class || t == short.class) return null; }
        else if (v instanceof Integer) { l = (Integer) v; integral = true; if (t == byte.class || t == short.class) return null; }
        else if (v instanceof Long) { l = (Long) v; integral = true; if (t == byte.class || t == short.class || t == int.class) return null; }
        else if (v instanceof Float) { d = (Float) v; if (t == float.class) return v; if (t == double.class) return (double) (Float) v; return null; }
        else if (v instanceof Double) { return t == double.class ? v : null; }
        else return null;
        if (t == short.class) return (short) l;
        if (t == int.class) return (int) l;
        if (t == long.class) return l;
        if (t == float.class) return v instanceof Long ? (float) (Long) v : (float) (int) l;
        if (t == double.class) return v instanceof Long ? (double) (Long) v : (double) (int) l;
        return null;
    }
}
