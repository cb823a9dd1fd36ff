package java.lang;

import java.lang.annotation.*;

@Retention(RetentionPolicy.RUNTIME)
public @interface FunctionalInterface {}
