import java.util.*;

public class Inherit {
    interface Shape { double area(); default String describe() { return name() + " with area " + area(); } String name(); static Shape unit() { return new Square(1); } }
    interface Scalable { Shape scale(double f); }
    static abstract class Base implements Shape {
        static int created = 0;
        protected final int id;
        Base() { id = ++created; init(); }
        void init() { System.out.println("Base.init " + getClass().getName()); }
        public String name() { return "shape#" + id; }
        public String toString() { return describe(); }
    }
    static class Square extends Base implements Scalable {
        final double side;
        Square(double side) { super(); this.side = side; }
        public double area() { return side * side; }
        public Shape scale(double f) { return new Square(side * f); }
        public String name() { return "square(" + side + ")"; }
    }
    static class Circle extends Base {
        double r;
        Circle(double r) { this.r = r; }
        void init() { System.out.println("Circle.init r=" + r); }
        public double area() { return 3 * r * r; }
        public String describe() { return "round " + super.describe(); }
    }
    static class Cube extends Square {
        Cube(double s) { super(s); }
        public double area() { return 6 * super.area(); }
        public String name() { return "cube/" + super.name(); }
    }
    enum Op {
        ADD("+") { int apply(int a, int b) { return a + b; } },
        SUB("-") { int apply(int a, int b) { return a - b; } },
        MUL("*") { int apply(int a, int b) { return a * b; } };
        final String sym;
        Op(String sym) { this.sym = sym; }
        abstract int apply(int a, int b);
    }
    enum Color { RED, GREEN, BLUE }
    class Inner { int v() { return outerField * 2; } }
    int outerField = 21;
    static class Counter { private int n; Counter inc() { n++; return this; } int get() { return n; } }
    static class A { String f = "A.f"; String m() { return "A.m"; } static String s() { return "A.s"; } }
    static class B extends A { String f = "B.f"; String m() { return "B.m"; } static String s() { return "B.s"; } String sup() { return super.m() + "/" + super.f; } }
    public static void main(String[] args) {
        List<Shape> shapes = new ArrayList<>();
        shapes.add(new Square(2));
        shapes.add(new Circle(1.5));
        shapes.add(new Cube(1));
        shapes.add(Shape.unit());
        shapes.add(new Shape() { public double area() { return 42; } public String name() { return "anon"; } });
        for (Shape s : shapes) System.out.println(s.describe() + " | " + s.getClass().getSimpleName() + " " + (s instanceof Scalable) + " " + (s instanceof Base));
        Shape big = ((Scalable) shapes.get(0)).scale(3);
        System.out.println(big + " created=" + Base.created);
        for (Op op : Op.values()) System.out.println(op + " " + op.sym + " " + op.apply(7, 3) + " " + op.ordinal() + " " + op.name() + " " + op.getDeclaringClass().getSimpleName());
        System.out.println(Op.valueOf("MUL").apply(6, 7) + " " + Color.valueOf("GREEN").compareTo(Color.BLUE));
        try { Color.valueOf("PINK"); } catch (IllegalArgumentException e) { System.out.println(e.getMessage()); }
        for (Color c : Color.values()) {
            switch (c) {
                case RED: System.out.println("r"); break;
                case GREEN: System.out.println("g"); break;
                default: System.out.println("other " + c);
            }
        }
        Map<Color, Integer> em = new HashMap<>();
        em.put(Color.BLUE, 3);
        System.out.println(em.get(Color.BLUE) + " " + em.containsKey(Color.RED));
        Inherit outer = new Inherit();
        Inherit.Inner in = outer.new Inner();
        System.out.println(in.v() + " " + new Counter().inc().inc().inc().get());
        A a = new B();
        System.out.println(a.f + " " + ((B) a).f + " " + a.m() + " " + A.s() + " " + B.s() + " " + ((B) a).sup());
        Object o = new int[3];
        System.out.println((o instanceof int[]) + " " + (o instanceof Object[]) + " " + (new String[0] instanceof Object[]) + " " + o.getClass().getName() + " " + new String[0].getClass().getName() + " " + new Square[0][0].getClass().getSimpleName());
        Comparable<String> cs = "abc";
        System.out.println(cs.compareTo("abd") + " " + ((Object) 5).getClass().getName() + " " + Integer.class.getName() + " " + Runnable.class);
        Runnable r = new Runnable() { int calls; public void run() { calls++; System.out.println("run " + calls); } };
        r.run(); r.run();
        Object[] objs = { 1, "s", 2.5, 'c', null, new int[0] };
        int k = 0;
        for (Object x : objs) if (x instanceof Number) k += ((Number) x).intValue();
        System.out.println(k + " " + Objects.hashCode(objs[4]) + " " + objs[1].equals("s"));
    }
}
