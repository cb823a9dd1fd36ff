public class Exceptions {
    static class MyException extends Exception {
        final int code;
        MyException(String msg, int code) { super(msg); this.code = code; }
    }
    static class Res implements AutoCloseable {
        final String name;
        Res(String name) { this.name = name; System.out.println("open " + name); }
        public void close() throws Exception { System.out.println("close " + name); if (name.equals("bad")) throw new IllegalStateException("close failed"); }
    }
    static int depth = 0;
    static void recurse() { depth++; recurse(); }
    static int tryFinally() {
        try { return 1; } finally { System.out.println("finally runs"); }
    }
    @SuppressWarnings("finally")
    static int finallyOverrides() {
        try { throw new RuntimeException("x"); } finally { return 2; }
    }
    static void thrower(int n) throws MyException {
        if (n == 0) throw new MyException("bottom", 42);
        try { thrower(n - 1); } finally { System.out.println("unwind " + n); }
    }
    static class Bad {
        static int v = init();
        static int init() { throw new IllegalArgumentException("bad init"); }
    }
    public static void main(String[] args) throws Exception {
        try { thrower(3); } catch (MyException e) { System.out.println("caught " + e.getMessage() + " code " + e.code + " " + e); }
        System.out.println(tryFinally() + " " + finallyOverrides());
        try { Object o = "s"; Integer i = (Integer) o; System.out.println(i); } catch (ClassCastException e) { System.out.println("CCE"); }
        try { String s = null; s.length(); } catch (NullPointerException e) { System.out.println("NPE"); }
        try { int[] a = new int[-1]; } catch (NegativeArraySizeException e) { System.out.println("NASE " + e.getMessage()); }
        try { Object[] a = new String[1]; a[0] = 1; } catch (ArrayStoreException e) { System.out.println("ASE " + e.getMessage()); }
        try { recurse(); } catch (StackOverflowError e) { System.out.println("SOE " + (depth > 1000)); }
        try { throw new Error("custom error"); } catch (Throwable t) { System.out.println(t); }
        try {
            try { throw new IllegalStateException("inner"); }
            catch (IllegalStateException e) { throw new RuntimeException("outer", e); }
        } catch (RuntimeException e) { System.out.println(e + " cause=" + e.getCause()); }
        try (Res a = new Res("a"); Res b = new Res("bad")) {
            System.out.println("body");
            throw new RuntimeException("in body");
        } catch (RuntimeException e) {
            System.out.println(e.getMessage() + " suppressed=" + e.getSuppressed().length + " " + e.getSuppressed()[0].getMessage());
        }
        for (int i = 0; i < 2; i++) {
            try { System.out.println(Bad.v); }
            catch (ExceptionInInitializerError e) { System.out.println("EIIE cause=" + e.getCause()); }
            catch (NoClassDefFoundError e) { System.out.println("NCDFE " + e.getMessage()); }
        }
        int count = 0;
        for (int i = 0; i < 10000; i++) {
            try { if (i % 3 == 0) throw new MyException("m", i); count++; }
            catch (MyException e) { count += e.code % 7; }
            finally { count ^= 1; }
        }
        System.out.println("count " + count);
        Throwable t = new Throwable();
        System.out.println(t.getMessage() + " " + t.getCause() + " " + new RuntimeException(new Error("e")).getMessage());
        try { assert false : "not enabled"; System.out.println("asserts off"); } catch (AssertionError e) { System.out.println("assert"); }
        label:
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                try { if (j == 1) continue label; if (i == 2) break label; }
                finally { System.out.print(i + "" + j + " "); }
            }
        }
        System.out.println();
        try { thrower(0); } catch (MyException e) {
            StackTraceElement top = e.getStackTrace()[0];
            System.out.println(top + " " + top.getMethodName() + " " + top.getLineNumber() + " " + e.getStackTrace()[1].getMethodName());
        }
    }
}
