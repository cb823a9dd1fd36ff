public class StaticInit {
    static { System.out.println("StaticInit <clinit>"); }
    static class P { static { System.out.println("P init"); } static int pv = log("P.pv", 1); static void touch() {} }
    static class C extends P { static { System.out.println("C init"); } static int cv = log("C.cv", P.pv + 1); static final int CONST = 99; static final String SCONST = "const"; }
    static class D extends C { static int dv = log("D.dv", cv * 10); }
    interface I { int X = log("I.X", 5); }
    static class Impl implements I { static { System.out.println("Impl init"); } }
    static class Cycle1 { static int a = log("Cycle1.a", Cycle2.b + 1); }
    static class Cycle2 { static int b = log("Cycle2.b", Cycle1.a + 10); }
    static class Lazy { static { System.out.println("Lazy init"); } static int v = 7; }
    static int log(String what, int v) { System.out.println("init " + what + " = " + v); return v; }
    public static void main(String[] args) {
        System.out.println("main start");
        System.out.println(C.CONST + " " + C.SCONST);
        System.out.println("D.dv=" + D.dv);
        System.out.println("C.cv=" + C.cv);
        new Impl();
        System.out.println("I.X=" + I.X);
        System.out.println("cycle " + Cycle1.a + " " + Cycle2.b);
        Lazy[] arr = new Lazy[3];
        System.out.println("array made " + arr.length);
        System.out.println(Lazy.v);
        P.touch();
    }
}
