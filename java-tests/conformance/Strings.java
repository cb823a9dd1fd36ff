import java.util.*;

public class Strings {
    public static void main(String[] args) {
        String a = "hello";
        String b = "hel" + "lo";
        String c = new String("hello");
        StringBuilder sb = new StringBuilder("hel");
        String d = sb.append("lo").toString();
        System.out.println((a == b) + " " + (a == c) + " " + a.equals(c) + " " + (a == d) + " " + (a == d.intern()) + " " + (c.intern() == a));
        System.out.println(a.hashCode() + " " + "".hashCode() + " " + "The quick brown fox".hashCode() + " " + "\u00e9t\u00e9".hashCode());
        System.out.println(a.length() + " " + a.charAt(1) + " " + a.indexOf('l') + " " + a.lastIndexOf("l") + " " + a.indexOf("lo") + " " + a.indexOf("x"));
        System.out.println(a.substring(1, 3) + " " + a.toUpperCase() + " " + "MiXeD".toLowerCase() + " " + "  trim me  ".trim() + "|");
        System.out.println(a.compareTo("help") + " " + a.compareTo("hello world") + " " + "B".compareToIgnoreCase("a") + " " + a.startsWith("he") + " " + a.endsWith("lo") + " " + a.contains("ell"));
        System.out.println(a.replace('l', 'L') + " " + "a-b-c".replace("-", "+") + " " + String.join(",", "x", "y", "z"));
        System.out.println(Arrays.toString("a,b,,c,,".split(",")) + " " + Arrays.toString(" x  y z ".split(" +")) + " " + Arrays.toString("abc".split("")) + " " + Arrays.toString("a.b.c".split("\\.")) + " " + Arrays.toString("a,b,c".split(",", 2)));
        System.out.println(String.valueOf(3.0) + String.valueOf(true) + String.valueOf('x') + String.valueOf(12L) + String.valueOf((Object) null));
        StringBuilder s2 = new StringBuilder();
        for (int i = 0; i < 10; i++) s2.append(i).append(',');
        s2.setLength(s2.length() - 1);
        s2.insert(0, "[").append("]").reverse();
        System.out.println(s2 + " " + s2.length() + " " + s2.indexOf("5"));
        s2.delete(0, 3).deleteCharAt(0).setCharAt(0, '#');
        System.out.println(s2);
        String text = "the rain in spain falls mainly on the plain";
        Map<Character, Integer> freq = new HashMap<>();
        for (char ch : text.toCharArray()) if (ch != ' ') freq.put(ch, freq.getOrDefault(ch, 0) + 1);
        System.out.println(freq);
        for (String w : new String[] { "apple", "banana", "cherry", "kiwi" }) {
            switch (w) {
                case "apple": System.out.println("A"); break;
                case "banana": System.out.println("B"); break;
                case "kiwi": System.out.println("K"); break;
                default: System.out.println("other " + w);
            }
        }
        char[] cs = { 'd', 'a', 'c', 'b' };
        Arrays.sort(cs);
        System.out.println(new String(cs) + " " + String.valueOf(cs, 1, 2) + " " + "x".isEmpty() + " " + "".isEmpty());
        System.out.println(String.format("%d|%5d|%-5d|%05d|%,d|%x|%X|%s|%10s|%-10s|%c|%b|%%|%n", 42, 42, 42, -42, 1234567, 255, 255, "str", "right", "left", 'c', true).trim());
        System.out.println(String.format("%.2f %.0f %.3f %10.4f %e %.2e %f", 3.14159, 2.5, -0.0005, Math.PI, 12345.678, 0.000123, 1.0 / 3));
        System.out.println(String.format("%.1f %.1f %.1f %.2f", 0.25, 0.35, 0.05, 1.005));
        Object o = "obj";
        System.out.println("concat: " + o + null + 1 + 2 + (1 + 2) + 'c' + 1.5f + true);
        try { "abc".charAt(5); } catch (StringIndexOutOfBoundsException e) { System.out.println("SIOOBE " + e.getMessage()); }
        try { "abc".substring(2, 1); } catch (StringIndexOutOfBoundsException e) { System.out.println("SIOOBE " + e.getMessage()); }
        System.out.println("Caf\u00e9 \u4e2d\u6587 \u00fcber");
        System.out.println(Integer.valueOf(5).equals(5) + " " + Long.valueOf(5).equals(5) + " " + "5".equals(5));
        List<String> words = new ArrayList<>(Arrays.asList("pear", "Apple", "fig", "banana", "apple"));
        Collections.sort(words);
        System.out.println(words);
        words.sort(String.CASE_INSENSITIVE_ORDER);
        System.out.println(words);
    }
}
