package java.lang.reflect;

public final class Method extends Executable {
    Method(Class<?> clazz, int slot) { super(clazz, slot); }
    public String getName() { return name; }
    public Class<?> getReturnType() { return ret(); }
    public Type getGenericReturnType() { return ret(); }
    public boolean isDefault() { return ((getModifiers() & (Modifier.ABSTRACT | Modifier.PUBLIC | Modifier.STATIC)) == Modifier.PUBLIC) && clazz.isInterface(); }
    public boolean isBridge() { return (modifiers & 0x40) != 0; }
    public Object getDefaultValue() { return null; }
    public Object invoke(Object obj, Object... args) throws IllegalAccessException, InvocationTargetException {
        if (!Modifier.isStatic(modifiers)) {
            if (obj == null) throw new NullPointerException("Cannot invoke \"Object.getClass()\" because \"obj\" is null");
            if (!clazz.isInstance(obj)) throw new IllegalArgumentException("object is not an instance of declaring class");
        }
        return call(obj, args);
    }
    public boolean equals(Object obj) {
        if (!(obj instanceof Method)) return false;
        Method other = (Method) obj;
        return clazz == other.clazz && name.equals(other.name) && descriptor.equals(other.descriptor);
    }
    public int hashCode() { return clazz.getName().hashCode() ^ name.hashCode(); }
    public String toString() {
        StringBuilder sb = new StringBuilder();
        String mods = Modifier.toString(getModifiers() & ~(isDefault() ? Modifier.ABSTRACT : 0));
        if (!mods.isEmpty()) sb.append(mods).append(' ');
        if (isDefault()) sb.append("default ");
        sb.append(ret().getTypeName()).append(' ');
        sb.append(clazz.getTypeName()).append('.').append(name).append(paramList());
        return sb.toString();
    }
}
