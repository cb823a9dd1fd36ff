/** Sealed classes and interfaces (PermittedSubclasses), with records, non-sealed and final
 *  subclasses, dispatched with instanceof patterns (Java 16). */
public class ModernSealed {
    sealed interface Expr permits Num, Add, Mul, Neg {}
    record Num(int v) implements Expr {}
    record Add(Expr l, Expr r) implements Expr {}
    record Mul(Expr l, Expr r) implements Expr {}
    static final class Neg implements Expr {
        final Expr e;
        Neg(Expr e) { this.e = e; }
        public String toString() { return "-(" + e + ")"; }
    }
    static abstract sealed class Animal permits Dog, Cat, Other {
        abstract String sound();
    }
    static final class Dog extends Animal { String sound() { return "woof"; } }
    static final class Cat extends Animal { String sound() { return "meow"; } }
    static non-sealed class Other extends Animal { String sound() { return "..."; } }
    static class Fox extends Other { String sound() { return "ring-ding"; } }

    static int eval(Expr e) {
        if (e instanceof Num n) return n.v();
        if (e instanceof Add a) return eval(a.l()) + eval(a.r());
        if (e instanceof Mul m && m.l() instanceof Num n && n.v() == 0) return 0;
        if (e instanceof Mul m) return eval(m.l()) * eval(m.r());
        if (e instanceof Neg n) return -eval(n.e);
        throw new AssertionError(e);
    }

    public static void main(String[] args) {
        Expr e = new Add(new Num(2), new Mul(new Num(3), new Neg(new Num(4))));
        System.out.println(e + " = " + eval(e));
        System.out.println(eval(new Mul(new Num(0), new Num(9))));
        Animal[] zoo = { new Dog(), new Cat(), new Other(), new Fox() };
        for (Animal a : zoo) System.out.println(a.getClass().getName() + " " + a.sound());
    }
}
