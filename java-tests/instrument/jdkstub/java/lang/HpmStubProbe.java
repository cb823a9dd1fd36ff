package java.lang;

/**
 * Probe stub for verifying the instrumented JDK. It lives in java.base because classes of java.base run
 * before the module system is up, when the boot loader loads nothing outside java.base (a probe on
 * -Xbootclasspath/a cannot be resolved then).
 */
public final class HpmStubProbe {
    private HpmStubProbe() {}

    public static void enter(int id) {}

    public static void exit(int id) {}

    public static void thrown(int id) {}

    public static void caught(int id) {}

    /** With a carried context: the entry probe's result, handed to the other probes. */
    public static Object enterCarried(int id) {
        return null;
    }

    public static void exit(Object context, int id) {}

    public static void thrown(Object context, int id) {}

    public static void caught(Object context, int id) {}
}
