package java.lang.reflect;

/** The interface (rvm's reflection answers erased classes and makes no type variables). */
public interface TypeVariable<D extends GenericDeclaration> extends Type, AnnotatedElement {
    Type[] getBounds();
    D getGenericDeclaration();
    String getName();
}
