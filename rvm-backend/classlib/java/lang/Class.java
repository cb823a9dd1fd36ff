package java.lang;

public final class Class<T> {
    private int id;
    private String name;
    private Class() {}
    public String getName() { if (name == null) name = getName0(); return name; }
    private native String getName0();
    public native boolean isInterface();
    public native boolean isArray();
    public boolean isPrimitive() { return false; }
    public native boolean isInstance(Object obj);
    public native Class<? super T> getSuperclass();
    public String getSimpleName() {
        String n = getName();
        if (isArray()) {
            int dims = 0;
            while (n.charAt(dims) == '[') dims++;
            String base;
            switch (n.charAt(dims)) {
                case 'I': base = "int"; break;
                case 'J': base = "long"; break;
                case 'D': base = "double"; break;
                case 'F': base = "float"; break;
                case 'Z': base = "boolean"; break;
                case 'B': base = "byte"; break;
                case 'C': base = "char"; break;
                case 'S': base = "short"; break;
                default: base = simple(n.substring(dims + 1, n.length() - 1));
            }
            return base + "[]".repeat(dims);
        }
        return simple(n);
    }
    private static String simple(String n) {
        int i = Math.max(n.lastIndexOf('.'), n.lastIndexOf('$'));
        String s = n.substring(i + 1);
        if (!s.isEmpty() && Character.isDigit(s.charAt(0))) return "";
        return s;
    }
    public String toString() { return (isInterface() ? "interface " : "class ") + getName(); }
    public boolean desiredAssertionStatus() { return false; }
    public boolean isEnum() { return getSuperclass() == Enum.class; }
    @SuppressWarnings("unchecked")
    public T cast(Object obj) {
        if (obj != null && !isInstance(obj))
            throw new ClassCastException("Cannot cast " + obj.getClass().getName() + " to " + getName());
        return (T) obj;
    }
    private native Object[] getEnumConstants0();
    @SuppressWarnings("unchecked")
    public T[] getEnumConstants() { Object[] v = getEnumConstants0(); return v == null ? null : (T[]) v.clone(); }
    T[] getEnumConstantsShared() { return (T[]) getEnumConstants0(); }
}
