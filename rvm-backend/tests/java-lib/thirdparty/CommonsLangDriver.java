import org.apache.commons.lang3.ArrayUtils;
import org.apache.commons.lang3.BooleanUtils;
import org.apache.commons.lang3.CharUtils;
import org.apache.commons.lang3.ObjectUtils;
import org.apache.commons.lang3.StringUtils;
import org.apache.commons.lang3.Validate;
import org.apache.commons.lang3.builder.EqualsBuilder;
import org.apache.commons.lang3.builder.HashCodeBuilder;
import org.apache.commons.lang3.builder.ToStringBuilder;
import org.apache.commons.lang3.builder.ToStringStyle;
import org.apache.commons.lang3.math.NumberUtils;
import org.apache.commons.lang3.mutable.MutableInt;
import org.apache.commons.lang3.tuple.ImmutablePair;
import org.apache.commons.lang3.tuple.Pair;
import org.apache.commons.lang3.tuple.Triple;
import org.apache.commons.lang3.Range;
import org.apache.commons.lang3.text.WordUtils;
import java.util.Arrays;
import java.util.Random;
import org.apache.commons.lang3.ClassUtils;
import org.apache.commons.lang3.RandomStringUtils;
import org.apache.commons.lang3.StringEscapeUtils;
import org.apache.commons.lang3.builder.ReflectionToStringBuilder;
import org.apache.commons.lang3.builder.EqualsBuilder;
import org.apache.commons.lang3.reflect.FieldUtils;
import org.apache.commons.lang3.reflect.MethodUtils;
import org.apache.commons.lang3.reflect.ConstructorUtils;
import org.apache.commons.lang3.concurrent.ConcurrentUtils;
import org.apache.commons.lang3.concurrent.LazyInitializer;
import org.apache.commons.lang3.concurrent.BasicThreadFactory;

/** Common utilities of Debian's commons-lang3: the same output on rvm as on HotSpot. */
public class CommonsLangDriver {
    static class Person {
        final String name; final int age;
        Person(String name, int age) { this.name = name; this.age = age; }
        @Override public boolean equals(Object o) {
            if (!(o instanceof Person)) return false;
            Person p = (Person) o;
            return new EqualsBuilder().append(name, p.name).append(age, p.age).isEquals();
        }
        @Override public int hashCode() { return new HashCodeBuilder(17, 37).append(name).append(age).toHashCode(); }
        @Override public String toString() { return new ToStringBuilder(this, ToStringStyle.SHORT_PREFIX_STYLE).append("name", name).append("age", age).toString(); }
    }

    public static class Point {
        private int x;
        private final String label;
        public Point() { this(0, "origin"); }
        public Point(int x, String label) { this.x = x; this.label = label; }
        public int getX() { return x; }
        public String shout(String suffix, int times) { return (label + suffix).toUpperCase().repeat(times); }
        public static String kind() { return "point"; }
    }

    public static void main(String[] args) throws Exception {
        // StringUtils
        System.out.println(StringUtils.isBlank("  ") + " " + StringUtils.isEmpty("") + " " + StringUtils.isNotBlank(" x "));
        System.out.println(StringUtils.capitalize("hello") + " " + StringUtils.uncapitalize("World") + " " + StringUtils.swapCase("AbC"));
        System.out.println(StringUtils.join(new String[] {"a", "b", "c"}, "-") + " " + StringUtils.join(Arrays.asList(1, 2, 3), ','));
        System.out.println(Arrays.toString(StringUtils.split("a,b,,c", ',')) + " " + Arrays.toString(StringUtils.splitPreserveAllTokens("a,b,,c", ',')));
        System.out.println(Arrays.toString(StringUtils.split("  one two  three ")));
        System.out.println(StringUtils.abbreviate("The quick brown fox", 10) + "|" + StringUtils.leftPad("42", 6, '0') + "|" + StringUtils.rightPad("x", 4, "ab") + "|" + StringUtils.center("mid", 9, '*'));
        System.out.println(StringUtils.reverse("stressed") + " " + StringUtils.countMatches("banana", "an") + " " + StringUtils.substringBetween("a[b]c", "[", "]"));
        System.out.println("[" + StringUtils.strip("  xy  ") + "] [" + StringUtils.trimToNull("   ") + "] [" + StringUtils.stripEnd("abcxx", "x") + "]");
        System.out.println(StringUtils.difference("abcde", "abxyz") + " " + StringUtils.indexOfDifference("abcde", "abxyz") + " " + StringUtils.getLevenshteinDistance("kitten", "sitting"));
        System.out.println(StringUtils.replace("aaa", "a", "b", 2) + " " + StringUtils.replaceEach("abcde", new String[] {"ab", "d"}, new String[] {"w", "t"}) + " " + StringUtils.remove("queued", 'u'));
        System.out.println(StringUtils.defaultIfBlank(" ", "dflt") + " " + StringUtils.containsIgnoreCase("ABC", "bc") + " " + StringUtils.startsWithAny("apple", "x", "ap"));
        System.out.println(StringUtils.repeat("ab", 3) + " " + StringUtils.repeat("x", ",", 3) + " " + StringUtils.wrap("q", "'") + " " + StringUtils.chomp("line\n") + "|");
        System.out.println(StringUtils.deleteWhitespace(" a b\tc\n") + " " + StringUtils.isNumeric("12345") + " " + StringUtils.isAlpha("abc1") + " " + StringUtils.isAlphanumericSpace("ab 12"));
        System.out.println(Arrays.toString(StringUtils.splitByCharacterTypeCamelCase("parseHTTPResponseCode42")));
        System.out.println(StringUtils.normalizeSpace("  a   b  c ") + "|" + StringUtils.substringAfterLast("a.b.c", ".") + "|" + StringUtils.substringBefore("key=value", "="));
        System.out.println(StringUtils.left("abcdef", 3) + StringUtils.right("abcdef", 2) + StringUtils.mid("abcdef", 2, 2) + " " + StringUtils.ordinalIndexOf("aabaabaa", "b", 2));
        System.out.println(StringUtils.upperCase("mixed Case") + " " + StringUtils.lowerCase("MIXED") + " " + StringUtils.equalsIgnoreCase("Ab", "aB") + " " + StringUtils.compare("a", "b"));
        System.out.println(StringUtils.getCommonPrefix("interspecies", "interstellar", "interstate") + " " + StringUtils.truncate("abcdefg", 4) + " " + StringUtils.removeStart("www.example.com", "www."));
        System.out.println(StringUtils.replacePattern("ABCabc123", "[^A-Z0-9]+", "") + " " + StringUtils.removePattern("a1b2c3", "\\d"));
        System.out.println(StringUtils.stripAccents("\u00c9cole na\u00efve \u00e0 Z\u00fcrich, \u0158e\u017e") + " " + StringUtils.isAllLowerCase("abc") + " " + StringUtils.isMixedCase("aB"));
        // WordUtils
        System.out.println(WordUtils.capitalizeFully("the QUICK brown fox") + " | " + WordUtils.initials("Ben John Lee") + " | " + WordUtils.wrap("The quick brown fox jumps over the lazy dog", 15).replace('\n', '/'));
        // ArrayUtils
        int[] ints = {3, 1, 2};
        System.out.println(Arrays.toString(ArrayUtils.add(ints, 9)) + " " + Arrays.toString(ArrayUtils.remove(ints, 0)) + " " + ArrayUtils.contains(ints, 2) + " " + ArrayUtils.indexOf(ints, 2));
        Integer[] boxed = ArrayUtils.toObject(ints);
        ArrayUtils.reverse(boxed);
        System.out.println(Arrays.toString(boxed) + " " + Arrays.toString(ArrayUtils.subarray(new String[] {"a", "b", "c", "d"}, 1, 3)) + " " + ArrayUtils.isEmpty(new long[0]));
        System.out.println(Arrays.toString(ArrayUtils.addAll(new String[] {"x"}, "y", "z")) + " " + Arrays.toString(ArrayUtils.toPrimitive(new Long[] {1L, 2L})) + " " + ArrayUtils.toString(new int[] {1, 2}));
        // ObjectUtils, BooleanUtils, CharUtils, NumberUtils
        System.out.println(ObjectUtils.defaultIfNull(null, "d") + " " + ObjectUtils.firstNonNull(null, null, "third") + " " + ObjectUtils.max(3, 9, 4) + " " + ObjectUtils.compare(null, 1));
        System.out.println(BooleanUtils.toBoolean("yes") + " " + BooleanUtils.toStringOnOff(true) + " " + BooleanUtils.xor(new boolean[] {true, false}) + " " + BooleanUtils.toInteger(false));
        System.out.println(CharUtils.isAsciiAlpha('q') + " " + CharUtils.toIntValue('7') + " " + CharUtils.unicodeEscaped('A'));
        System.out.println(NumberUtils.toInt("12x", -1) + " " + NumberUtils.toInt("77") + " " + NumberUtils.max(4, 8, 2) + " " + NumberUtils.createNumber("0x1F") + " " + NumberUtils.createNumber("3.5") + " " + NumberUtils.createNumber("123456789012345678901234") + " " + NumberUtils.createNumber("-0x1FFFFFFFFFFFFFFFF") + " " + NumberUtils.isCreatable("1e5") + " " + NumberUtils.isDigits("12a"));
        // builders, tuples, mutable, range, validate
        Person a = new Person("Ann", 31), b = new Person("Ann", 31), c = new Person("Bob", 40);
        System.out.println(a.equals(b) + " " + a.equals(c) + " " + (a.hashCode() == b.hashCode()) + " " + a.hashCode() + " " + a);
        Pair<String, Integer> p = Pair.of("k", 7);
        System.out.println(p + " " + p.getLeft() + " " + p.getRight() + " " + new ImmutablePair<>("l", "r").toString("<%s|%s>") + " " + Triple.of(1, "two", 3.0));
        MutableInt mi = new MutableInt(5);
        mi.add(3);
        mi.increment();
        System.out.println(mi + " " + mi.intValue());
        Range<Integer> r = Range.between(5, 10);
        System.out.println(r + " " + r.contains(7) + " " + r.contains(11) + " " + r.isAfter(3) + " " + r.intersectionWith(Range.between(8, 20)));
        try {
            Validate.isTrue(1 > 2, "bad value %d", 42);
        } catch (IllegalArgumentException e) {
            System.out.println("validate: " + e.getMessage());
        }
        try {
            Validate.notBlank("  ", "name must not be blank");
        } catch (IllegalArgumentException e) {
            System.out.println("validate: " + e.getMessage());
        }
        // reflection through commons-lang3
        Point pt = new Point(3, "p");
        System.out.println(ReflectionToStringBuilder.toString(pt, ToStringStyle.SHORT_PREFIX_STYLE) + " " + EqualsBuilder.reflectionEquals(pt, new Point(3, "p")) + " " + EqualsBuilder.reflectionEquals(pt, new Point(4, "p")));
        System.out.println(FieldUtils.readField(pt, "x", true) + " " + FieldUtils.readDeclaredField(pt, "label", true) + " " + MethodUtils.invokeMethod(pt, "shout", "!", 2) + " " + MethodUtils.invokeStaticMethod(Point.class, "kind") + " " + MethodUtils.invokeMethod(pt, "getX"));
        FieldUtils.writeField(pt, "x", 9, true);
        System.out.println(pt.getX() + " " + ConstructorUtils.invokeConstructor(Point.class).getX() + " " + ConstructorUtils.invokeConstructor(Point.class, 5, "five").shout("?", 1));
        System.out.println(ClassUtils.getShortClassName(Point.class) + " " + ClassUtils.getPackageName(StringUtils.class) + " " + ClassUtils.getAllInterfaces(java.util.ArrayList.class).contains(java.util.List.class) + " " + ClassUtils.isAssignable(Integer.class, int.class) + " " + ClassUtils.primitiveToWrapper(long.class) + " " + ClassUtils.getClass("java.lang.String").getSimpleName());
        // escaping, seeded random strings
        System.out.println(StringEscapeUtils.escapeJava("tab\tquote\"uni\u00e9") + " " + StringEscapeUtils.escapeHtml4("<a href=\"x\">&</a>") + " " + StringEscapeUtils.unescapeHtml4("&lt;b&gt; &amp; &eacute;") + " " + StringEscapeUtils.escapeXml11("'x' & \"y\""));
        System.out.println(RandomStringUtils.random(12, 0, 0, true, true, null, new Random(42)) + " " + RandomStringUtils.random(8, 'a', 'z' + 1, false, false, null, new Random(7)));
        // concurrency utilities
        LazyInitializer<String> lazy = new LazyInitializer<String>() {
            @Override protected String initialize() { return "computed once"; }
        };
        System.out.println(lazy.get() + " " + (lazy.get() == lazy.get()) + " " + ConcurrentUtils.constantFuture("done").get());
        BasicThreadFactory factory = new BasicThreadFactory.Builder().namingPattern("worker-%d").daemon(true).build();
        Thread t1 = factory.newThread(() -> {});
        Thread t2 = factory.newThread(() -> {});
        System.out.println(t1.getName() + " " + t2.getName() + " " + t1.isDaemon() + " " + factory.getThreadCount());
    }
}
