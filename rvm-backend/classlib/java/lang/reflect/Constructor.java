package java.lang.reflect;

public final class Constructor<T> extends Executable {
    Constructor(Class<T> clazz, int slot) { super(clazz, slot); }
    @SuppressWarnings("unchecked")
    public Class<T> getDeclaringClass() { return (Class<T>) clazz; }
    public String getName() { return clazz.getName(); }
    @SuppressWarnings("unchecked")
    public T newInstance(Object... initargs) throws InstantiationException, IllegalAccessException, IllegalArgumentException, InvocationTargetException {
        if (Modifier.isAbstract(clazz.getModifiers())) throw new InstantiationException(null);
        return (T) call(null, initargs);
    }
    public boolean equals(Object obj) {
        if (!(obj instanceof Constructor)) return false;
        Constructor<?> other = (Constructor<?>) obj;
        return clazz == other.clazz && descriptor.equals(other.descriptor);
    }
    public int hashCode() { return clazz.getName().hashCode(); }
    public String toString() {
        String mods = Modifier.toString(getModifiers());
        return (mods.isEmpty() ? "" : mods + " ") + clazz.getTypeName() + paramList();
    }
}
