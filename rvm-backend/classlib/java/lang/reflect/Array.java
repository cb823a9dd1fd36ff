package java.lang.reflect;

public final class Array {
    private Array() {}
    public static Object newInstance(Class<?> componentType, int length) throws NegativeArraySizeException {
        if (componentType == null) throw new NullPointerException();
        if (componentType == void.class) throw new IllegalArgumentException("Illegal component type");
        if (length < 0) throw new NegativeArraySizeException(String.valueOf(length));
        return jdk.internal.rvm.Reflect.newArray(componentType, length);
    }
    public static Object newInstance(Class<?> componentType, int... dimensions) {
        if (dimensions.length == 0) throw new IllegalArgumentException("Empty dimensions array");
        return multi(componentType, dimensions, 0);
    }
    private static Object multi(Class<?> componentType, int[] dims, int k) {
        if (k == dims.length - 1) return newInstance(componentType, dims[k]);
        Class<?> c = componentType;
        for (int i = k + 1; i < dims.length; i++) c = c.arrayType();
        Object[] a = (Object[]) newInstance(c, dims[k]);
        for (int i = 0; i < a.length; i++) a[i] = multi(componentType, dims, k + 1);
        return a;
    }
    private static IllegalArgumentException notArray(Object array) {
        return new IllegalArgumentException(array == null ? "Argument is not an array" : "Argument is not an array");
    }
    public static int getLength(Object array) {
        if (array == null) throw new NullPointerException();
        if (array instanceof Object[]) return ((Object[]) array).length;
        if (array instanceof int[]) return ((int[]) array).length;
        if (array instanceof long[]) return ((long[]) array).length;
        if (array instanceof double[]) return ((double[]) array).length;
        if (array instanceof byte[]) return ((byte[]) array).length;
        if (array instanceof char[]) return ((char[]) array).length;
        if (array instanceof boolean[]) return ((boolean[]) array).length;
        if (array instanceof short[]) return ((short[]) array).length;
        if (array instanceof float[]) return ((float[]) array).length;
        throw notArray(array);
    }
    public static Object get(Object array, int index) {
        if (array == null) throw new NullPointerException();
        if (array instanceof Object[]) return ((Object[]) array)[index];
        if (array instanceof int[]) return ((int[]) array)[index];
        if (array instanceof long[]) return ((long[]) array)[index];
        if (array instanceof double[]) return ((double[]) array)[index];
        if (array instanceof byte[]) return ((byte[]) array)[index];
        if (array instanceof char[]) return ((char[]) array)[index];
        if (array instanceof boolean[]) return ((boolean[]) array)[index];
        if (array instanceof short[]) return ((short[]) array)[index];
        if (array instanceof float[]) return ((float[]) array)[index];
        throw notArray(array);
    }
    public static void set(Object array, int index, Object value) {
        if (array == null) throw new NullPointerException();
        if (array instanceof Object[]) {
            Class<?> ct = array.getClass().getComponentType();
            if (value != null && !ct.isInstance(value)) throw new IllegalArgumentException("array element type mismatch");
            ((Object[]) array)[index] = value;
            return;
        }
        Class<?> ct = array.getClass().getComponentType();
        if (ct == null) throw notArray(array);
        Object w = Executable.widen(value, ct);
        if (w == null) throw new IllegalArgumentException("argument type mismatch");
        if (array instanceof int[]) ((int[]) array)[index] = (Integer) w;
        else if (array instanceof long[]) ((long[]) array)[index] = (Long) w;
        else if (array instanceof double[]) ((double[]) array)[index] = (Double) w;
        else if (array instanceof byte[]) ((byte[]) array)[index] = (Byte) w;
        else if (array instanceof char[]) ((char[]) array)[index] = (Character) w;
        else if (array instanceof boolean[]) ((boolean[]) array)[index] = (Boolean) w;
        else if (array instanceof short[]) ((short[]) array)[index] = (Short) w;
        else if (array instanceof float[]) ((float[]) array)[index] = (Float) w;
    }
    public static int getInt(Object array, int index) { Object v = get(array, index); Object w = Executable.widen(v, int.class); if (w == null) throw new IllegalArgumentException("Argument is not an array of a type convertible to int"); return (Integer) w; }
    public static long getLong(Object array, int index) { Object v = get(array, index); Object w = Executable.widen(v, long.class); if (w == null) throw new IllegalArgumentException("Argument is not an array of a type convertible to long"); return (Long) w; }
    public static double getDouble(Object array, int index) { Object v = get(array, index); Object w = Executable.widen(v, double.class); if (w == null) throw new IllegalArgumentException("Argument is not an array of a type convertible to double"); return (Double) w; }
    public static boolean getBoolean(Object array, int index) { return (Boolean) get(array, index); }
    public static char getChar(Object array, int index) { return (Character) get(array, index); }
    public static void setInt(Object array, int index, int i) { set(array, index, i); }
    public static void setLong(Object array, int index, long l) { set(array, index, l); }
    public static void setDouble(Object array, int index, double d) { set(array, index, d); }
    public static void setBoolean(Object array, int index, boolean z) { set(array, index, z); }
}
