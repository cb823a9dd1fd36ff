package java.lang.reflect;

import jdk.internal.rvm.Accessor;
import jdk.internal.rvm.Reflect;

public final class Field extends AccessibleObject implements Member {
    private final Class<?> clazz;
    private final int slot;
    private final String name;
    private final int modifiers;
    private Class<?> type;
    private Accessor accessor;

    Field(Class<?> clazz, int slot) {
        this.clazz = clazz;
        this.slot = slot;
        this.name = Reflect.fieldName(clazz, slot);
        this.modifiers = Reflect.fieldModifiers(clazz, slot);
    }
    /** Reflection's factory: the declared fields of a class, in class-file order. */
    public static Field[] declared(Class<?> c) {
        int n = Reflect.fieldCount(c);
        Field[] fs = new Field[n];
        for (int i = 0; i < n; i++) fs[i] = new Field(c, i);
        return fs;
    }
    public Class<?> getDeclaringClass() { return clazz; }
    public String getName() { return name; }
    public int getModifiers() { return modifiers & Modifier.fieldModifiers(); }
    public boolean isSynthetic() { return (modifiers & 0x1000) != 0; }
    public boolean isEnumConstant() { return (modifiers & 0x4000) != 0; }
    public Class<?> getType() {
        if (type == null) type = Reflect.ofDescriptor(Reflect.fieldDescriptor(clazz, slot));
        return type;
    }
    public Type getGenericType() { return getType(); }
    int annotations(String typeDescriptor) { return Reflect.annotation(clazz, 1, slot, typeDescriptor); }

    private Accessor accessor(Object obj) {
        if (!Modifier.isStatic(modifiers)) {
            if (obj == null) throw new NullPointerException("Cannot invoke \"Object.getClass()\" because \"obj\" is null");
            if (!clazz.isInstance(obj)) throw new IllegalArgumentException("Can not set " + getType().getTypeName() + " field " + clazz.getTypeName() + "." + name + " to " + obj.getClass().getName());
        }
        Accessor a = accessor;
        if (a == null) accessor = a = Reflect.fieldAccessor(clazz, slot);
        return a;
    }

    public Object get(Object obj) throws IllegalArgumentException, IllegalAccessException { return accessor(obj).get(obj); }
    public void set(Object obj, Object value) throws IllegalArgumentException, IllegalAccessException {
        Accessor a = accessor(obj);
        if (Modifier.isFinal(modifiers) && (Modifier.isStatic(modifiers) || !override)) {
            throw new IllegalAccessException("Can not set " + (Modifier.isStatic(modifiers) ? "static " : "") + "final " + getType().getTypeName() + " field " + clazz.getTypeName() + "." + name + " to " + (value == null ? "null value" : value.getClass().getName()));
        }
        Class<?> t = getType();
        Object v;
        if (t.isPrimitive()) {
            v = Executable.widen(value, t);
            if (v == null) throw new IllegalArgumentException("Can not set " + t.getName() + " field " + clazz.getTypeName() + "." + name + " to " + (value == null ? "null value" : value.getClass().getName()));
        } else {
            if (value != null && !t.isInstance(value)) throw new IllegalArgumentException("Can not set " + t.getTypeName() + " field " + clazz.getTypeName() + "." + name + " to " + value.getClass().getName());
            v = value;
        }
        a.set(obj, v);
    }
    private Object prim(Object obj, Class<?> want) throws IllegalAccessException {
        Object v = get(obj);
        Object w = Executable.widen(v, want);
        if (w == null) throw new IllegalArgumentException("Attempt to get " + getType().getName() + " field \"" + clazz.getTypeName() + "." + name + "\" with illegal data type conversion to " + want.getName());
        return w;
    }
    public boolean getBoolean(Object obj) throws IllegalAccessException { return (Boolean) prim(obj, boolean.class); }
    public byte getByte(Object obj) throws IllegalAccessException { return (Byte) prim(obj, byte.class); }
    public char getChar(Object obj) throws IllegalAccessException { return (Character) prim(obj, char.class); }
    public short getShort(Object obj) throws IllegalAccessException { return (Short) prim(obj, short.class); }
    public int getInt(Object obj) throws IllegalAccessException { return (Integer) prim(obj, int.class); }
    public long getLong(Object obj) throws IllegalAccessException { return (Long) prim(obj, long.class); }
    public float getFloat(Object obj) throws IllegalAccessException { return (Float) prim(obj, float.class); }
    public double getDouble(Object obj) throws IllegalAccessException { return (Double) prim(obj, double.class); }
    public void setBoolean(Object obj, boolean z) throws IllegalAccessException { set(obj, z); }
    public void setByte(Object obj, byte b) throws IllegalAccessException { set(obj, b); }
    public void setChar(Object obj, char c) throws IllegalAccessException { set(obj, c); }
    public void setShort(Object obj, short s) throws IllegalAccessException { set(obj, s); }
    public void setInt(Object obj, int i) throws IllegalAccessException { set(obj, i); }
    public void setLong(Object obj, long l) throws IllegalAccessException { set(obj, l); }
    public void setFloat(Object obj, float f) throws IllegalAccessException { set(obj, f); }
    public void setDouble(Object obj, double d) throws IllegalAccessException { set(obj, d); }
    public boolean equals(Object obj) {
        if (!(obj instanceof Field)) return false;
        Field other = (Field) obj;
        return clazz == other.clazz && name.equals(other.name);
    }
    public int hashCode() { return clazz.getName().hashCode() ^ name.hashCode(); }
    public String toString() {
        int mod = getModifiers();
        return (((mod == 0) ? "" : (Modifier.toString(mod) + " ")) + getType().getTypeName() + " " + clazz.getTypeName() + "." + name);
    }
}
