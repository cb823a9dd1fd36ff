package java.lang;

import java.lang.annotation.*;

@Retention(RetentionPolicy.RUNTIME)
public @interface Deprecated {
    String since() default "";
    boolean forRemoval() default false;
}
