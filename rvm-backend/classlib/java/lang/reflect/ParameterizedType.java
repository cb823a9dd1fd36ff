package java.lang.reflect;

/** The interface (rvm's reflection answers erased classes and makes no parameterized types). */
public interface ParameterizedType extends Type {
    Type[] getActualTypeArguments();
    Type getRawType();
    Type getOwnerType();
}
