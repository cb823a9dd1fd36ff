package java.lang.reflect;

import java.lang.annotation.Annotation;

/** rvm checks no access: setAccessible records the flag, every member is accessible. */
public class AccessibleObject implements AnnotatedElement {
    boolean override;
    protected AccessibleObject() {}
    public void setAccessible(boolean flag) { override = flag; }
    public static void setAccessible(AccessibleObject[] array, boolean flag) { for (AccessibleObject ao : array) ao.setAccessible(flag); }
    public final boolean trySetAccessible() { override = true; return true; }
    @Deprecated
    public boolean isAccessible() { return override; }
    public final boolean canAccess(Object obj) { return true; }
    /** This member's runtime-visible annotations (of a type descriptor, or all: null), counted from the class file. */
    int annotations(String typeDescriptor) { return 0; }
    static String descriptorOf(Class<?> c) { return "L" + c.getName().replace('.', '/') + ";"; }
    /**
     * Whether there is such an annotation is known (the class file is read); an annotation object
     * cannot be made (rvm has no proxies): asking for one that is there throws.
     */
    public <T extends Annotation> T getAnnotation(Class<T> annotationClass) {
        if (annotationClass == null) throw new NullPointerException();
        if (annotations(descriptorOf(annotationClass)) == 0) return null;
        throw new UnsupportedOperationException("rvm: annotation objects are not supported (" + this + " is annotated @" + annotationClass.getName() + ")");
    }
    public boolean isAnnotationPresent(Class<? extends Annotation> annotationClass) {
        if (annotationClass == null) throw new NullPointerException();
        return annotations(descriptorOf(annotationClass)) != 0;
    }
    public Annotation[] getAnnotations() { return getDeclaredAnnotations(); }
    public Annotation[] getDeclaredAnnotations() {
        if (annotations(null) == 0) return new Annotation[0];
        throw new UnsupportedOperationException("rvm: annotation objects are not supported (" + this + " has annotations)");
    }
}
