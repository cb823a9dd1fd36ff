package java.lang;

import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import jdk.internal.rvm.Reflect;

public final class Class<T> implements java.io.Serializable, java.lang.reflect.GenericDeclaration, java.lang.reflect.Type {
    private int id;
    private String name;
    private transient Method[] declaredMethods;
    private transient Constructor<T>[] declaredConstructors;
    private transient Field[] declaredFields;
    private transient jdk.internal.rvm.Accessor initializer;
    private Class() {}

    public static Class<?> forName(String className) throws ClassNotFoundException { return forName(className, true, null); }
    public static Class<?> forName(String name, boolean initialize, ClassLoader loader) throws ClassNotFoundException {
        if (name == null) throw new NullPointerException();
        Class<?> c = name.indexOf('/') >= 0 ? null : Reflect.load(name);
        if (c == null || c.isPrimitive()) throw new ClassNotFoundException(name);
        if (initialize) c.ensureInitialized();
        return c;
    }
    static Class<?> getPrimitiveClass(String name) { return Reflect.primitive(name); }

    /** Runs the static initialiser if it has not run (a thread initialising it already: returns at once). */
    void ensureInitialized() {
        if (isPrimitive() || isArray()) return;
        jdk.internal.rvm.Accessor a = initializer;
        if (a == null) initializer = a = Reflect.initializer(this);
        a.init();
    }

    public String getName() { if (name == null) name = getName0(); return name; }
    private native String getName0();
    public native boolean isInterface();
    public native boolean isArray();
    public boolean isPrimitive() { return Reflect.isPrimitive(this); }
    public native boolean isInstance(Object obj);
    public boolean isAssignableFrom(Class<?> cls) {
        if (cls == null) throw new NullPointerException();
        return Reflect.isAssignableFrom(this, cls);
    }
    public native Class<? super T> getSuperclass();
    public java.lang.reflect.Type getGenericSuperclass() { return getSuperclass(); }
    public Class<?>[] getInterfaces() {
        int n = Reflect.interfaceCount(this);
        Class<?>[] r = new Class<?>[n];
        for (int i = 0; i < n; i++) r[i] = Reflect.interfaceAt(this, i);
        return r;
    }
    public java.lang.reflect.Type[] getGenericInterfaces() { return getInterfaces(); }
    public Class<?> getComponentType() { return isArray() ? Reflect.componentType(this) : null; }
    public Class<?> componentType() { return getComponentType(); }
    public Class<?> arrayType() { return Reflect.arrayType(this); }
    public int getModifiers() { return Reflect.classModifiers(this) & ~0x20; }
    public boolean isAnnotation() { return (Reflect.classModifiers(this) & 0x2000) != 0; }
    public boolean isSynthetic() { return (Reflect.classModifiers(this) & 0x1000) != 0; }
    public boolean isRecord() { return getSuperclass() == Record.class; }
    public boolean isAnonymousClass() { return !isArray() && !isPrimitive() && getSimpleName().isEmpty(); }
    public boolean isMemberClass() { return !isAnonymousClass() && Reflect.declaringClass(this) != null; }
    public boolean isLocalClass() { return false; }
    public Class<?> getDeclaringClass() { return isAnonymousClass() ? null : Reflect.declaringClass(this); }
    public Class<?> getEnclosingClass() { return Reflect.declaringClass(this); }
    public ClassLoader getClassLoader() {
        String n = getName();
        if (isPrimitive() || n.startsWith("java.") || n.startsWith("jdk.")) return null;
        return ClassLoader.getSystemClassLoader();
    }
    public String getPackageName() {
        Class<?> c = this;
        while (c.isArray()) c = c.getComponentType();
        if (c.isPrimitive()) return "java.lang";
        String cn = c.getName();
        int dot = cn.lastIndexOf('.');
        return dot != -1 ? cn.substring(0, dot) : "";
    }
    public String getSimpleName() {
        String n = getName();
        if (isArray()) return getComponentType().getSimpleName() + "[]";
        if (isPrimitive()) return n;
        return simple(n);
    }
    private static String simple(String n) {
        int i = Math.max(n.lastIndexOf('.'), n.lastIndexOf('$'));
        String s = n.substring(i + 1);
        if (!s.isEmpty() && Character.isDigit(s.charAt(0))) return "";
        return s;
    }
    public String getTypeName() {
        if (isArray()) return getComponentType().getTypeName() + "[]";
        return getName();
    }
    public String getCanonicalName() {
        if (isArray()) {
            String c = getComponentType().getCanonicalName();
            return c == null ? null : c + "[]";
        }
        if (isAnonymousClass()) return null;
        Class<?> d = getDeclaringClass();
        if (d == null) return getName();
        String dc = d.getCanonicalName();
        return dc == null ? null : dc + "." + getSimpleName();
    }
    public String toString() { return (isInterface() ? "interface " : (isPrimitive() ? "" : "class ")) + getName(); }
    public boolean desiredAssertionStatus() { return false; }
    public boolean isEnum() { return getSuperclass() == Enum.class; }
    @SuppressWarnings("unchecked")
    public T cast(Object obj) {
        if (obj != null && !isInstance(obj))
            throw new ClassCastException("Cannot cast " + obj.getClass().getName() + " to " + getName());
        return (T) obj;
    }
    @SuppressWarnings("unchecked")
    public <U> Class<? extends U> asSubclass(Class<U> clazz) {
        if (clazz.isAssignableFrom(this)) return (Class<? extends U>) this;
        throw new ClassCastException(this.toString());
    }
    private native Object[] getEnumConstants0();
    @SuppressWarnings("unchecked")
    public T[] getEnumConstants() {
        if (!isEnum()) return null;
        ensureInitialized();
        Object[] v = getEnumConstants0();
        return v == null ? null : (T[]) v.clone();
    }
    @SuppressWarnings("unchecked")
    T[] getEnumConstantsShared() { ensureInitialized(); return (T[]) getEnumConstants0(); }

    // ---- members

    private Method[] declaredMethods0() {
        Method[] m = declaredMethods;
        if (m == null) {
            Executable[] es = Executable.declared(this, false);
            m = new Method[es.length];
            for (int i = 0; i < es.length; i++) m[i] = (Method) es[i];
            declaredMethods = m;
        }
        return m;
    }
    @SuppressWarnings("unchecked")
    private Constructor<T>[] declaredConstructors0() {
        Constructor<T>[] c = declaredConstructors;
        if (c == null) {
            Executable[] es = Executable.declared(this, true);
            c = (Constructor<T>[]) new Constructor<?>[es.length];
            for (int i = 0; i < es.length; i++) c[i] = (Constructor<T>) es[i];
            declaredConstructors = c;
        }
        return c;
    }
    private Field[] declaredFields0() {
        Field[] f = declaredFields;
        if (f == null) declaredFields = f = Field.declared(this);
        return f;
    }

    public Method[] getDeclaredMethods() { return declaredMethods0().clone(); }
    public Field[] getDeclaredFields() { return declaredFields0().clone(); }
    @SuppressWarnings("unchecked")
    public Constructor<?>[] getDeclaredConstructors() { return declaredConstructors0().clone(); }
    public Constructor<?>[] getConstructors() {
        ArrayList<Constructor<?>> out = new ArrayList<>();
        for (Constructor<T> c : declaredConstructors0()) if (Modifier.isPublic(c.getModifiers())) out.add(c);
        return out.toArray(new Constructor<?>[0]);
    }

    /** Public methods of this class, its superclasses and superinterfaces; an override hides what it overrides. */
    public Method[] getMethods() {
        LinkedHashMap<String, Method> found = new LinkedHashMap<>();
        collectPublicMethods(this, found);
        return found.values().toArray(new Method[0]);
    }
    private static void collectPublicMethods(Class<?> c, LinkedHashMap<String, Method> found) {
        for (Method m : c.declaredMethods0()) {
            if (!Modifier.isPublic(m.getModifiers())) continue;
            String key = m.getName() + sig(m);
            Method prev = found.get(key);
            if (prev == null) found.put(key, m);
        }
        Class<?> s = c.getSuperclass();
        if (s != null) collectPublicMethods(s, found);
        for (Class<?> i : c.getInterfaces()) {
            for (Method m : i.declaredMethods0()) {
                if (!Modifier.isPublic(m.getModifiers()) || Modifier.isStatic(m.getModifiers())) continue;
                String key = m.getName() + sig(m);
                if (!found.containsKey(key)) found.put(key, m);
            }
            collectInterfaceMethods(i, found);
        }
    }
    private static void collectInterfaceMethods(Class<?> i, LinkedHashMap<String, Method> found) {
        for (Class<?> j : i.getInterfaces()) {
            for (Method m : j.declaredMethods0()) {
                if (!Modifier.isPublic(m.getModifiers()) || Modifier.isStatic(m.getModifiers())) continue;
                String key = m.getName() + sig(m);
                if (!found.containsKey(key)) found.put(key, m);
            }
            collectInterfaceMethods(j, found);
        }
    }
    private static String sig(Method m) {
        StringBuilder sb = new StringBuilder("(");
        for (Class<?> p : m.getParameterTypes()) sb.append(p.getName()).append(';');
        return sb.append(')').toString();
    }
    private static boolean sameParams(Class<?>[] a, Class<?>[] b) {
        if (b == null) b = new Class<?>[0];
        if (a.length != b.length) return false;
        for (int i = 0; i < a.length; i++) if (a[i] != b[i]) return false;
        return true;
    }
    private String methodNotFound(String name, Class<?>[] params) {
        StringBuilder sb = new StringBuilder(getName()).append('.').append(name).append('(');
        if (params != null) {
            for (int i = 0; i < params.length; i++) {
                if (i > 0) sb.append(", ");
                sb.append(params[i] == null ? "null" : params[i].getName());
            }
        }
        return sb.append(')').toString();
    }

    public Method getDeclaredMethod(String name, Class<?>... parameterTypes) throws NoSuchMethodException {
        Method best = null;
        for (Method m : declaredMethods0()) {
            if (m.getName().equals(name) && sameParams(m.getParameterTypes(), parameterTypes)) {
                if (best == null || best.getReturnType().isAssignableFrom(m.getReturnType())) best = m;
            }
        }
        if (best == null) throw new NoSuchMethodException(methodNotFound(name, parameterTypes));
        return best;
    }
    public Method getMethod(String name, Class<?>... parameterTypes) throws NoSuchMethodException {
        Method best = null;
        for (Method m : getMethods()) {
            if (m.getName().equals(name) && sameParams(m.getParameterTypes(), parameterTypes)) {
                if (best == null || best.getReturnType().isAssignableFrom(m.getReturnType())) best = m;
            }
        }
        if (best == null) throw new NoSuchMethodException(methodNotFound(name, parameterTypes));
        return best;
    }
    public Constructor<T> getDeclaredConstructor(Class<?>... parameterTypes) throws NoSuchMethodException {
        for (Constructor<T> c : declaredConstructors0()) if (sameParams(c.getParameterTypes(), parameterTypes)) return c;
        throw new NoSuchMethodException(methodNotFound("<init>", parameterTypes));
    }
    public Constructor<T> getConstructor(Class<?>... parameterTypes) throws NoSuchMethodException {
        for (Constructor<T> c : declaredConstructors0()) {
            if (Modifier.isPublic(c.getModifiers()) && sameParams(c.getParameterTypes(), parameterTypes)) return c;
        }
        throw new NoSuchMethodException(methodNotFound("<init>", parameterTypes));
    }
    public Field getDeclaredField(String name) throws NoSuchFieldException {
        for (Field f : declaredFields0()) if (f.getName().equals(name)) return f;
        throw new NoSuchFieldException(name);
    }
    /** Public fields: this class's, its superinterfaces', then its superclass's (JLS lookup order). */
    public Field[] getFields() {
        ArrayList<Field> out = new ArrayList<>();
        collectPublicFields(this, out, new java.util.HashSet<>());
        return out.toArray(new Field[0]);
    }
    private static void collectPublicFields(Class<?> c, ArrayList<Field> out, java.util.HashSet<Class<?>> seen) {
        if (!seen.add(c)) return;
        for (Field f : c.declaredFields0()) if (Modifier.isPublic(f.getModifiers())) out.add(f);
        for (Class<?> i : c.getInterfaces()) collectPublicFields(i, out, seen);
        Class<?> s = c.getSuperclass();
        if (s != null) collectPublicFields(s, out, seen);
    }
    public Field getField(String name) throws NoSuchFieldException {
        for (Field f : getFields()) if (f.getName().equals(name)) return f;
        throw new NoSuchFieldException(name);
    }

    @Deprecated
    public T newInstance() throws InstantiationException, IllegalAccessException {
        if (isInterface() || Modifier.isAbstract(getModifiers()) || isArray() || isPrimitive()) throw new InstantiationException(getName());
        Constructor<T> c;
        try {
            c = getDeclaredConstructor();
        } catch (NoSuchMethodException e) {
            throw new InstantiationException(getName());
        }
        try {
            return c.newInstance();
        } catch (InvocationTargetException e) {
            Throwable t = e.getCause();
            if (t instanceof RuntimeException) throw (RuntimeException) t;
            if (t instanceof Error) throw (Error) t;
            throw new RuntimeException(t);
        }
    }

    // ---- annotations and resources

    private static String descriptorOf(Class<?> c) { return "L" + c.getName().replace('.', '/') + ";"; }
    /** Whether there is such an annotation is read from the class file; annotation objects cannot be made (no proxies). */
    public <A extends java.lang.annotation.Annotation> A getAnnotation(Class<A> annotationClass) {
        if (annotationClass == null) throw new NullPointerException();
        if (Reflect.annotation(this, 0, -1, descriptorOf(annotationClass)) == 0) return null;
        throw new UnsupportedOperationException("rvm: annotation objects are not supported (" + this + " is annotated @" + annotationClass.getName() + ")");
    }
    public boolean isAnnotationPresent(Class<? extends java.lang.annotation.Annotation> annotationClass) {
        return Reflect.annotation(this, 0, -1, descriptorOf(annotationClass)) != 0;
    }
    public java.lang.annotation.Annotation[] getAnnotations() { return getDeclaredAnnotations(); }
    public java.lang.annotation.Annotation[] getDeclaredAnnotations() {
        if (Reflect.annotation(this, 0, -1, null) == 0) return new java.lang.annotation.Annotation[0];
        throw new UnsupportedOperationException("rvm: annotation objects are not supported (" + this + " has annotations)");
    }
    public java.io.InputStream getResourceAsStream(String name) {
        if (name.startsWith("/")) {
            name = name.substring(1);
        } else {
            String p = getPackageName();
            if (!p.isEmpty()) name = p.replace('.', '/') + "/" + name;
        }
        return ClassLoader.getSystemClassLoader().getResourceAsStream(name);
    }
    /** rvm has one class path loader and no code sources or protection domains. */
    public java.security.ProtectionDomain getProtectionDomain() {
        throw new UnsupportedOperationException("rvm: protection domains are not supported");
    }
    public java.net.URL getResource(String name) { return ClassLoader.getSystemClassLoader().getResource(name); }
}
