package java.lang.reflect;

import java.lang.annotation.Annotation;

public interface AnnotatedElement {
    <T extends Annotation> T getAnnotation(Class<T> annotationClass);
    Annotation[] getAnnotations();
    Annotation[] getDeclaredAnnotations();
    default boolean isAnnotationPresent(Class<? extends Annotation> annotationClass) { return getAnnotation(annotationClass) != null; }
    default <T extends Annotation> T getDeclaredAnnotation(Class<T> annotationClass) { return getAnnotation(annotationClass); }
}
