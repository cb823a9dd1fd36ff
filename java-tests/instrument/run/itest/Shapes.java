package itest;

/** Abstract, native, default and static interface methods: only those with code are offered. */
public class Shapes {
    interface Shape {
        double area();

        default String describe() {
            return kind() + " " + area();
        }

        static Shape unit() {
            return new Square(1);
        }

        private String kind() {
            return "shape";
        }
    }

    abstract static class Base implements Shape {
        abstract int sides();

        static native long nativeCall();
    }

    static final class Square extends Base {
        final double side;

        Square(double side) {
            this.side = side;
        }

        @Override
        public double area() {
            return side * side;
        }

        @Override
        int sides() {
            return 4;
        }
    }

    static String sink;

    public static void scenario() {
        Shape s = Shape.unit();
        sink = s.describe() + ((Base) s).sides();
    }
}
