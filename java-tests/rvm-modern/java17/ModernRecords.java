import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** Records: javac's toString/equals/hashCode (ObjectMethods.bootstrap), accessors, compact and
 *  custom constructors, a record overriding one of the methods, records as map keys. */
public class ModernRecords {
    record Point(int x, int y) {}
    record Empty() {}
    record Mixed(byte b, short s, char c, boolean z, long l, float f, double d, String str, Object o) {}
    record Line(Point from, Point to) {
        Line {
            if (from == null) throw new IllegalArgumentException("from is null");
        }
        double length() { return Math.sqrt(Math.pow(to.x() - from.x(), 2) + Math.pow(to.y() - from.y(), 2)); }
    }
    record Named(String name, int n) {
        Named(String name) { this(name, name.length()); }
        @Override public String toString() { return "Named<" + name + ">"; }
    }
    record Generic<T>(T value, int count) {
        static <T> Generic<T> of(T v) { return new Generic<>(v, 1); }
    }
    interface Shape { double area(); }
    record Square(double side) implements Shape, Comparable<Square> {
        public double area() { return side * side; }
        public int compareTo(Square o) { return Double.compare(side, o.side); }
    }

    public static void main(String[] args) {
        Point p = new Point(1, 2), q = new Point(1, 2), r = new Point(2, 1);
        System.out.println(p);
        System.out.println(p.equals(q) + " " + p.equals(r) + " " + p.equals(null) + " " + p.equals("Point[x=1, y=2]"));
        System.out.println(p.hashCode() + " " + q.hashCode() + " " + r.hashCode() + " " + (p.hashCode() == q.hashCode()));
        System.out.println(new Empty() + " " + new Empty().equals(new Empty()) + " " + new Empty().hashCode());
        Mixed m = new Mixed((byte) -3, (short) 300, 'q', true, 1L << 40, 1.5f, -0.0, "s", null);
        Mixed m2 = new Mixed((byte) -3, (short) 300, 'q', true, 1L << 40, 1.5f, -0.0, "s", null);
        Mixed m3 = new Mixed((byte) -3, (short) 300, 'q', true, 1L << 40, 1.5f, 0.0, "s", null);
        System.out.println(m);
        System.out.println(m.equals(m2) + " " + m.equals(m3) + " " + m.hashCode() + " " + m3.hashCode());
        Mixed nan1 = new Mixed((byte) 0, (short) 0, 'a', false, 0, Float.NaN, Double.NaN, null, p);
        Mixed nan2 = new Mixed((byte) 0, (short) 0, 'a', false, 0, Float.NaN, Double.NaN, null, q);
        System.out.println(nan1 + " " + nan1.equals(nan2) + " " + nan1.hashCode());
        Line l = new Line(new Point(0, 0), new Point(3, 4));
        System.out.println(l + " length " + l.length() + " from.x " + l.from().x());
        System.out.println(l.equals(new Line(new Point(0, 0), new Point(3, 4))) + " " + l.hashCode());
        try {
            new Line(null, p);
        } catch (IllegalArgumentException e) {
            System.out.println("caught " + e.getMessage());
        }
        Named n = new Named("abc");
        System.out.println(n + " " + n.n() + " " + n.equals(new Named("abc", 3)) + " " + n.hashCode());
        Generic<String> g = Generic.of("v");
        System.out.println(g + " " + g.value().length() + " " + g.hashCode());
        Square s1 = new Square(2), s2 = new Square(3);
        Shape sh = s1;
        System.out.println(s1 + " " + sh.area() + " " + s1.compareTo(s2) + " " + (sh instanceof Record));
        Record rec = p;
        System.out.println("as Record: " + rec + " " + rec.equals(q));
        Map<Point, String> map = new HashMap<>();
        for (int i = 0; i < 20; i++) map.put(new Point(i % 5, i / 5), "v" + i);
        System.out.println(map.size() + " " + map.get(new Point(3, 2)) + " " + map);
        Set<Object> set = new HashSet<>();
        set.add(p); set.add(q); set.add(r); set.add(new Empty()); set.add(new Empty());
        System.out.println(set.size());
        record Local(String s, Point p) {
            record Deep(long v) {}
        }
        Local loc = new Local("in method", new Point(-1, -2));
        System.out.println(loc + " " + new Local.Deep(-5L) + " " + loc.hashCode() + " " + new Local.Deep(-5L).hashCode());
    }
}
