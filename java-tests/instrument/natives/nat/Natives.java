package nat;

import java.io.IOException;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;

/**
 * Native methods of every shape for the native method wrappers: static and instance, every argument
 * and return kind, synchronized, throwing, calling back into Java, and one bound by RegisterNatives.
 * The native code is {@code c/natives.c}, loaded from the path in the system property {@code nat.lib}.
 * The scenarios throw AssertionError when a result is wrong.
 */
public class Natives {
    @Retention(RetentionPolicy.RUNTIME)
    @interface Marked {
        String value();
    }

    static {
        System.load(System.getProperty("nat.lib"));
    }

    int base = 7;

    static native int add(int a, int b);

    native long mix(long a, double d, int[] arr, String s);

    static native double half(double d);

    public static native String greet(String who);

    protected native float widen(float f, byte b, char c, short s, boolean z);

    synchronized native boolean holdsOwnLock();

    static synchronized native boolean holdsClassLock();

    @Marked("io")
    static native void fail(String msg) throws IOException;

    /** Calls {@link #twice} through JNI. */
    native int callback(int x);

    static native int registered(int x);

    static native void nothing();

    private native Object[] array(Object o);

    final native int sum(int... xs);

    int twice(int x) {
        return 2 * x + base;
    }

    static void expect(Object got, Object want) {
        if (!got.equals(want)) {
            throw new AssertionError("got " + got + ", expected " + want);
        }
    }

    public static void scenario() {
        expect(add(2, 3), 5);
        Natives n = new Natives();
        expect(n.mix(4, 2.5, new int[3], "abcd"), 4000L + 200 + 30 + 4);
        expect(half(5.0), 2.5);
        expect(greet("jni"), "hello, jni");
        expect(n.widen(0.5f, (byte) 1, 'a', (short) 2, true), 0.5f + 1 + 'a' + 2 + 1);
        expect(n.holdsOwnLock(), true);
        expect(holdsClassLock(), true);
        try {
            fail("from C");
            throw new AssertionError("fail() returned");
        } catch (IOException e) {
            expect(e.getMessage(), "from C");
        }
        expect(n.callback(5), 2 * 5 + 7 + 1);
        expect(registered(4), 12);
        nothing();
        Object[] a = n.array("x");
        expect(a.length, 1);
        expect(a[0], "x");
        expect(n.sum(1, 2, 3), 6);
    }

    static Method declared(String name, Class<?>... params) throws NoSuchMethodException {
        return Natives.class.getDeclaredMethod(name, params);
    }

    static void expectModifiers(Method m, int want) {
        int got = m.getModifiers() & (Modifier.PUBLIC | Modifier.PRIVATE | Modifier.PROTECTED | Modifier.STATIC
                | Modifier.FINAL | Modifier.SYNCHRONIZED | Modifier.NATIVE);
        if (got != want) {
            throw new AssertionError(m + ": modifiers " + Modifier.toString(got) + ", expected " + Modifier.toString(want));
        }
    }

    /**
     * What reflection sees: each wrapper with the original name, modifiers (without native), annotations,
     * exceptions and varargs; each renamed native private, synthetic and native.
     */
    public static void reflection() throws Exception {
        String prefix = System.getProperty("nat.prefix");
        Class<?>[] ii = {int.class, int.class};
        expectModifiers(declared("add", ii), Modifier.STATIC);
        expectModifiers(declared(prefix + "add", ii), Modifier.PRIVATE | Modifier.STATIC | Modifier.NATIVE);
        expectModifiers(declared("greet", String.class), Modifier.PUBLIC | Modifier.STATIC);
        expectModifiers(declared(prefix + "greet", String.class), Modifier.PRIVATE | Modifier.STATIC | Modifier.NATIVE);
        Class<?>[] w = {float.class, byte.class, char.class, short.class, boolean.class};
        expectModifiers(declared("widen", w), Modifier.PROTECTED);
        expectModifiers(declared("holdsOwnLock"), Modifier.SYNCHRONIZED);
        expectModifiers(declared(prefix + "holdsOwnLock"), Modifier.PRIVATE | Modifier.NATIVE);
        expectModifiers(declared("holdsClassLock"), Modifier.STATIC | Modifier.SYNCHRONIZED);
        expectModifiers(declared(prefix + "holdsClassLock"), Modifier.PRIVATE | Modifier.STATIC | Modifier.NATIVE);
        expectModifiers(declared("array", Object.class), Modifier.PRIVATE);
        expectModifiers(declared("sum", int[].class), Modifier.FINAL);
        expectModifiers(declared(prefix + "sum", int[].class), Modifier.PRIVATE | Modifier.FINAL | Modifier.NATIVE);
        expect(declared("sum", int[].class).isVarArgs(), true);
        expect(declared(prefix + "sum", int[].class).isVarArgs(), false);
        Method fail = declared("fail", String.class);
        expect(Arrays.asList(fail.getExceptionTypes()), Arrays.asList(IOException.class));
        expect(fail.getAnnotation(Marked.class).value(), "io");
        Method renamed = declared(prefix + "fail", String.class);
        expect(renamed.getExceptionTypes().length, 0);
        expect(renamed.getAnnotations().length, 0);
        int natives = 0;
        for (Method m : Natives.class.getDeclaredMethods()) {
            boolean isRenamed = m.getName().startsWith(prefix);
            expect(Modifier.isNative(m.getModifiers()), isRenamed);
            expect(m.isSynthetic(), isRenamed);
            natives += isRenamed ? 1 : 0;
        }
        expect(natives, 13);
    }
}
