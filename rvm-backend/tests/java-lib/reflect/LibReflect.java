import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** Reflection: Class.forName, members, invoke, newInstance, fields, arrays; printed in a stable order. */
public class LibReflect {
    public interface Shape { double area(); default String kind() { return "shape"; } }
    public static abstract class Base implements Shape {
        protected String name = "base";
        public static int created;
        public String describe() { return kind() + " " + name; }
    }
    public static class Rect extends Base implements Comparable<Rect> {
        private final double w, h;
        public long tag = 7L;
        public boolean flag;
        private char letter = 'r';
        static { System.out.println("Rect initialised"); }
        public Rect() { this(1, 1); }
        public Rect(double w, double h) { this.w = w; this.h = h; name = "rect"; created++; }
        private Rect(int side) { this(side, side); name = "square"; }
        public double area() { return w * h; }
        public String kind() { return "rect"; }
        public int compareTo(Rect o) { return Double.compare(area(), o.area()); }
        public static int twice(int x) { return 2 * x; }
        public long sum(int a, long b, short c, byte d) { return a + b + c + d; }
        public double scale(float f) { return area() * f; }
        public static String join(String a, Object b, char c, boolean d) { return a + b + c + d; }
        private String secret() { return "secret " + letter; }
        public void fail(String why) { throw new IllegalStateException(why); }
        public int[] squares(int n) { int[] r = new int[n]; for (int i = 0; i < n; i++) r[i] = i * i; return r; }
        public String toString() { return "Rect(" + w + "x" + h + ")"; }
    }
    static class Lazy { static { System.out.println("Lazy initialised"); } static int v = 5; }
    enum Color { RED, GREEN }

    static String names(Class<?>[] cs) {
        List<String> l = new ArrayList<>();
        for (Class<?> c : cs) l.add(c.getName());
        return l.toString();
    }

    public static void main(String[] args) throws Exception {
        Class<?> rc = Class.forName("LibReflect$Rect");
        System.out.println(rc.getName() + " " + rc.getSimpleName() + " " + rc.getTypeName() + " " + rc.getCanonicalName() + " " + rc.getPackageName().isEmpty());
        System.out.println(rc.getSuperclass().getName() + " " + names(rc.getInterfaces()) + " " + names(Base.class.getInterfaces()) + " " + Modifier.toString(rc.getModifiers()) + " " + Modifier.toString(Base.class.getModifiers()));
        System.out.println(rc.isInterface() + " " + Shape.class.isInterface() + " " + rc.isArray() + " " + rc.isPrimitive() + " " + int.class.isPrimitive() + " " + Color.class.isEnum() + " " + rc.isAnonymousClass() + " " + rc.isMemberClass() + " " + rc.getDeclaringClass().getName());
        System.out.println(Shape.class.isAssignableFrom(rc) + " " + rc.isAssignableFrom(Base.class) + " " + Object.class.isAssignableFrom(int[].class) + " " + int.class.isAssignableFrom(int.class) + " " + long.class.isAssignableFrom(int.class) + " " + Number.class.isAssignableFrom(Integer.class));
        System.out.println(int.class + " " + int.class.getName() + " " + void.class + " " + Integer.TYPE + " " + (Integer.TYPE == int.class) + " " + double[].class.getName() + " " + double[].class.getSimpleName() + " " + String[][].class.getTypeName() + " " + String[].class.getComponentType() + " " + int[].class.getComponentType() + " " + String.class.getComponentType());
        Object r = rc.getDeclaredConstructor(double.class, double.class).newInstance(2.0, 3.0);
        System.out.println(r + " " + rc.isInstance(r) + " " + rc.getMethod("area").invoke(r) + " " + rc.getMethod("describe").invoke(r) + " " + rc.getMethod("kind").invoke(r));
        System.out.println(rc.getMethod("twice", int.class).invoke(null, 21) + " " + rc.getMethod("sum", int.class, long.class, short.class, byte.class).invoke(r, 1, 2L, (short) 3, (byte) 4) + " " + rc.getMethod("scale", float.class).invoke(r, 0.5f));
        System.out.println(rc.getMethod("join", String.class, Object.class, char.class, boolean.class).invoke(null, "a", 1, 'c', true));
        System.out.println(rc.getMethod("sum", int.class, long.class, short.class, byte.class).invoke(r, (byte) 1, 2, (short) 3, (byte) 4));
        System.out.println(Arrays.toString((int[]) rc.getMethod("squares", int.class).invoke(r, 5)) + " " + rc.getMethod("compareTo", rc).invoke(r, rc.newInstance()));
        Method secret = rc.getDeclaredMethod("secret");
        secret.setAccessible(true);
        System.out.println(secret.invoke(r) + " " + Modifier.isPrivate(secret.getModifiers()) + " " + secret.getReturnType() + " " + secret.getParameterCount());
        System.out.println(rc.getDeclaredConstructor(int.class).newInstance(4) + " " + rc.getConstructor().newInstance() + " " + rc.getConstructors().length + " " + rc.getDeclaredConstructors().length);
        try {
            rc.getMethod("fail", String.class).invoke(r, "boom");
        } catch (InvocationTargetException e) {
            System.out.println("ITE " + e.getCause());
        }
        try {
            rc.getMethod("twice", int.class).invoke(null, "x");
        } catch (IllegalArgumentException e) {
            System.out.println("IAE " + e.getClass().getName());
        }
        try {
            rc.getMethod("area").invoke("not a rect");
        } catch (IllegalArgumentException e) {
            System.out.println("IAE receiver"); // (the message differs between JDK 17 and 25)
        }
        try {
            rc.getMethod("nope");
        } catch (NoSuchMethodException e) {
            System.out.println("NSME " + e.getMessage());
        }
        try {
            Class.forName("no.such.Clazz");
        } catch (ClassNotFoundException e) {
            System.out.println("CNFE " + e.getMessage());
        }
        try {
            rc.getDeclaredField("nope");
        } catch (NoSuchFieldException e) {
            System.out.println("NSFE " + e.getMessage());
        }
        List<String> ms = new ArrayList<>();
        for (Method m : rc.getDeclaredMethods()) if (!m.isSynthetic() && !m.isBridge()) ms.add(m.getName() + Arrays.toString(m.getParameterTypes()) + ":" + m.getReturnType().getSimpleName());
        Collections.sort(ms);
        System.out.println(ms);
        List<String> pub = new ArrayList<>();
        for (Method m : rc.getMethods()) if (m.getDeclaringClass() != Object.class) pub.add(m.getDeclaringClass().getSimpleName() + "." + m.getName());
        Collections.sort(pub);
        System.out.println(pub);
        System.out.println(rc.getMethod("sum", int.class, long.class, short.class, byte.class));
        System.out.println(rc.getDeclaredConstructor(double.class, double.class) + " " + rc.getMethod("kind"));
        // fields
        List<String> fs = new ArrayList<>();
        for (Field f : rc.getDeclaredFields()) fs.add(Modifier.toString(f.getModifiers()) + " " + f.getType().getSimpleName() + " " + f.getName());
        Collections.sort(fs);
        System.out.println(fs);
        Field w = rc.getDeclaredField("w");
        w.setAccessible(true);
        Field tag = rc.getField("tag");
        Field name = Base.class.getDeclaredField("name");
        Field flag = rc.getField("flag");
        Field letter = rc.getDeclaredField("letter");
        System.out.println(w.get(r) + " " + w.getDouble(r) + " " + tag.get(r) + " " + tag.getLong(r) + " " + name.get(r) + " " + flag.get(r) + " " + letter.get(r) + " " + w);
        tag.set(r, 42L);
        tag.set(r, 5);
        tag.setLong(r, tag.getLong(r) + 1);
        name.set(r, "renamed");
        flag.setBoolean(r, true);
        letter.set(r, 'z');
        System.out.println(tag.get(r) + " " + rc.getMethod("describe").invoke(r) + " " + flag.get(r) + " " + secret.invoke(r));
        try {
            tag.set(r, "str");
        } catch (IllegalArgumentException e) {
            System.out.println("IAE " + e.getMessage());
        }
        Field created = Base.class.getField("created");
        System.out.println("created " + created.getInt(null) + " " + Modifier.isStatic(created.getModifiers()));
        created.setInt(null, 100);
        System.out.println("created " + Base.created);
        List<String> pf = new ArrayList<>();
        for (Field f : rc.getFields()) pf.add(f.getName());
        Collections.sort(pf);
        System.out.println(pf);
        // initialisation by forName, not by loading
        System.out.println("before Lazy");
        Class<?> lazy = Class.forName("LibReflect$Lazy", false, LibReflect.class.getClassLoader());
        System.out.println("loaded " + lazy.getSimpleName());
        Class.forName("LibReflect$Lazy");
        System.out.println("v=" + lazy.getDeclaredField("v").get(null));
        // arrays
        int[] ia = (int[]) Array.newInstance(int.class, 3);
        Array.set(ia, 1, 9);
        Array.setInt(ia, 2, 4);
        String[] sa = (String[]) Array.newInstance(String.class, 2);
        Array.set(sa, 0, "s");
        int[][] grid = (int[][]) Array.newInstance(int.class, 2, 3);
        System.out.println(Arrays.toString(ia) + " " + Array.getLength(ia) + " " + Array.get(ia, 1) + " " + Arrays.toString(sa) + " " + sa.getClass().getName() + " " + grid.length + "x" + grid[1].length + " " + grid.getClass().getName());
        try {
            Array.set(sa, 1, 5);
        } catch (IllegalArgumentException e) {
            System.out.println("IAE " + e.getMessage());
        }
        // enums, newInstance of collections, cast, primitives' wrappers
        System.out.println(Arrays.toString(Color.class.getEnumConstants()) + " " + Class.forName("java.util.ArrayList").getDeclaredConstructor().newInstance() + " " + String.class.cast("x") + " " + Class.forName("[Ljava.lang.String;").getSimpleName() + " " + Class.forName("[I").getComponentType());
        Object list = Class.forName("java.util.ArrayList").getConstructor().newInstance();
        list.getClass().getMethod("add", Object.class).invoke(list, "one");
        System.out.println(list + " " + list.getClass().getMethod("size").invoke(list) + " " + List.class.getMethod("get", int.class).invoke(list, 0));
        System.out.println(rc.getAnnotation(Deprecated.class) + " " + rc.getDeclaredAnnotations().length + " " + rc.isAnnotationPresent(Deprecated.class));
    }
}
