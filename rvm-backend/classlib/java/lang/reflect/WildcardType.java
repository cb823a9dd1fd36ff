package java.lang.reflect;

/** The interface (rvm's reflection answers erased classes and makes no wildcard types). */
public interface WildcardType extends Type {
    Type[] getUpperBounds();
    Type[] getLowerBounds();
}
