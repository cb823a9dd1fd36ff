package java.lang.reflect;

/** The interface (rvm's reflection answers erased classes and makes no generic array types). */
public interface GenericArrayType extends Type {
    Type getGenericComponentType();
}
