package itest;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.ArrayList;
import java.util.List;

/**
 * Debug attributes whose code offsets the pass remaps: line numbers (checked through stack traces),
 * local variables, generic local variable types and type annotations on code.
 */
public class Attrs {
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.TYPE_USE)
    @interface Tag {}

    static int sink;

    /** Prints the line numbers in stack traces taken in instrumented code, as "L" lines. */
    public static void lines() {
        StringBuilder out = new StringBuilder("L");
        out.append(' ').append(lineHere());
        try {
            thrower(2);
        } catch (IllegalStateException e) {
            for (StackTraceElement f : e.getStackTrace()) {
                if (f.getClassName().equals(Attrs.class.getName())) {
                    out.append(' ').append(f.getMethodName()).append(':').append(f.getLineNumber());
                }
            }
        }
        out.append(' ').append(loopLines(3));
        System.out.println(out);
    }

    static int lineHere() {
        return new Throwable().getStackTrace()[1].getLineNumber();
    }

    static void thrower(int n) {
        if (n == 0) {
            throw new IllegalStateException("line");
        }
        thrower(n - 1);
    }

    static int loopLines(int n) {
        int sum = 0;
        while (n > 0) {
            sum = sum * 100 + lineHere();
            n--;
        }
        return sum;
    }

    /** Locals of generic type, a type-annotated local, cast, new and instanceof. */
    static int typed(Object o) {
        List<String> names = new ArrayList<>();
        @Tag List<@Tag String> tagged = new @Tag ArrayList<>();
        for (int i = 0; i < 3; i++) {
            names.add("n" + i);
        }
        if (o instanceof @Tag String) {
            tagged.add((@Tag String) o);
        }
        return names.size() + tagged.size();
    }

    public static void scenario() {
        sink = typed("x");
    }
}
