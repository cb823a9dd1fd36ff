import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** java.util.regex: many patterns against inputs; every result is printed, compared with HotSpot's. */
public class LibRegex {
    static final Object[][] CASES = {
        {"abc", 0, "xxabcxxabc"},
        {"a.c", 0, "abc a\nc aXc"},
        {"a.c", Pattern.DOTALL, "abc a\nc"},
        {"[a-z]+", 0, "Hello World 42 foo_bar"},
        {"[^a-z ]+", 0, "Hello World 42 foo_bar"},
        {"[a-z&&[^aeiou]]+", 0, "programming language"},
        {"[\\w.-]+@[\\w-]+\\.[a-z]{2,}", 0, "mail bob@example.com and a.b-c@x-y.org now"},
        {"\\d+", 0, "a1b22c333d"},
        {"\\D+", 0, "a1b22c333d"},
        {"\\s+", 0, "a \t b\n\nc"},
        {"\\S+", 0, " one  two\tthree "},
        {"\\bcat\\b", 0, "cat concat cat's bobcat cat"},
        {"\\Bcat", 0, "cat concat bobcat"},
        {"^\\w+", 0, "first line\nsecond line"},
        {"^\\w+", Pattern.MULTILINE, "first line\nsecond line\n"},
        {"\\w+$", 0, "first line\nsecond line\n"},
        {"\\w+$", Pattern.MULTILINE, "first line\nsecond line"},
        {"(\\d{3})-(\\d{4})", 0, "call 555-1234 or 555-9876"},
        {"(?<area>\\d{3})-(?<num>\\d{4})", 0, "call 555-1234"},
        {"(a|b)*c", 0, "ababc abc c xc"},
        {"(a|ab)(c|bcd)(d*)", 0, "abcd"},
        {"a*?b", 0, "aaab ab b"},
        {"a+?", 0, "aaa"},
        {"a{2,3}", 0, "a aa aaa aaaa aaaaa"},
        {"a{2,}?", 0, "aaaaa"},
        {"a{3}", 0, "aaaaaaa"},
        {"x*", 0, "axxb"},
        {"a*+a", 0, "aaaa"},
        {"(?:ab)+", 0, "ababab abab"},
        {"(ab)+", 0, "ababab abab"},
        {"(\\w)\\1", 0, "hello bookkeeper"},
        {"(?i)hello", 0, "Hello HELLO hello hElLo"},
        {"hello", Pattern.CASE_INSENSITIVE, "Hello HELLO hello"},
        {"[a-c]+", Pattern.CASE_INSENSITIVE, "ABCabcXYZ"},
        {"(?i:ab)c", 0, "ABc ABC abc"},
        {"foo(?=bar)", 0, "foobar foobaz"},
        {"foo(?!bar)", 0, "foobar foobaz"},
        {"(?<=\\$)\\d+", 0, "cost $42 and 17 and $7"},
        {"(?<!\\$)\\b\\d+", 0, "cost $42 and 17 and $7"},
        {"(?>a+)b", 0, "aaab"},
        {"\\p{Upper}\\p{Lower}+", 0, "Hello World FOO Bar"},
        {"\\p{Alpha}+", 0, "abc123def"},
        {"\\p{Punct}", 0, "a,b.c!d?"},
        {"\\p{javaLowerCase}+", 0, "abcDEFghi"},
        {"[\\p{L}&&[^a]]+", 0, "banana"},
        {"\\Qa.b\\E+", 0, "a.bbb a.b axb"},
        {"\\t|\\n", 0, "a\tb\nc"},
        {"\\x41\\u0042\\0103", 0, "xABCx"},
        {"[.]", 0, "a.b"},
        {"a|b|c|", 0, "abcd"},
        {"", 0, "abc"},
        {"(a)|(b)", 0, "ab"},
        {"((a)(b(c)))", 0, "abc"},
        {"\\Aabc", 0, "abcabc"},
        {"abc\\z", 0, "abcabc"},
        {"abc\\Z", 0, "abcabc\n"},
        {"[0-9a-fA-F]+", 0, "0x1F ff G0"},
        {"\\d+(\\.\\d+)?", 0, "1 2.5 3. .4"},
        {"(\\w+)@(\\w+)\\.com", 0, "ann@x.com, bob@y.com"},
        {"[-+]?[0-9]*\\.?[0-9]+([eE][-+]?[0-9]+)?", 0, "3.14 -2e10 +.5E-3 7"},
        {"<([a-z]+)>(.*?)</\\1>", 0, "<b>bold</b> <i>it</i> <b>x</i>"},
        {"(?s)<!--.*?-->", 0, "a<!-- c\n d -->b<!--e-->"},
        {"(?x) a b  # comment\n c", 0, "abc"},
        {"\\R", 0, "a\r\nb\nc"},
        {"[\\[\\]]", 0, "[a]"},
        {"\\\\", 0, "a\\b"},
    };

    static String show(String s) { return s == null ? "null" : "'" + s.replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r") + "'"; }

    public static void main(String[] args) {
        for (Object[] c : CASES) {
            String regex = (String) c[0];
            int flags = (Integer) c[1];
            String input = (String) c[2];
            Pattern p = Pattern.compile(regex, flags);
            Matcher m = p.matcher(input);
            StringBuilder sb = new StringBuilder();
            sb.append(show(regex)).append(" flags=").append(flags).append(" on ").append(show(input)).append(": matches=").append(m.matches());
            sb.append(" lookingAt=").append(m.lookingAt());
            m.reset();
            int n = 0;
            while (m.find() && n++ < 20) {
                sb.append(" [").append(m.start()).append(',').append(m.end()).append(' ').append(show(m.group()));
                for (int g = 1; g <= m.groupCount(); g++) sb.append(" g").append(g).append('=').append(show(m.group(g))).append('@').append(m.start(g));
                sb.append(']');
            }
            System.out.println(sb);
            System.out.println("  replaceAll: " + show(p.matcher(input).replaceAll("<$0>")) + " replaceFirst: " + show(p.matcher(input).replaceFirst("#")));
            if (!regex.isEmpty()) System.out.println("  split: " + Arrays.toString(p.split(input)) + " " + Arrays.toString(p.split(input, 2)) + " " + Arrays.toString(p.split(input, -1)));
        }
        // named groups, group references in replacements, appendReplacement
        Matcher m = Pattern.compile("(?<key>\\w+)=(?<val>\\w+)").matcher("a=1, b=2, c=3");
        while (m.find()) System.out.println(m.group("key") + " -> " + m.group("val") + " " + m.start("val") + " " + m.end("key"));
        System.out.println("x=1 y=2".replaceAll("(\\w)=(\\d)", "$2=$1") + " " + "x=1".replaceAll("(?<k>\\w)=(?<v>\\d)", "${v}:${k}"));
        StringBuilder out = new StringBuilder();
        Matcher mm = Pattern.compile("\\d+").matcher("a1b22c333");
        while (mm.find()) mm.appendReplacement(out, String.valueOf(Integer.parseInt(mm.group()) * 2));
        mm.appendTail(out);
        System.out.println(out + " " + Matcher.quoteReplacement("$1\\x") + " " + Pattern.quote("a.b") + " " + "a.b".matches(Pattern.quote("a.b")));
        System.out.println(Pattern.compile("\\d").matcher("a1b2").replaceAll(r -> "[" + r.group() + "]"));
        // String methods on top of Pattern
        System.out.println(Arrays.toString("a1b2c3".split("\\d")) + " " + Arrays.toString("a, b;c ,d".split("\\s*[,;]\\s*")) + " " + Arrays.toString("boo:and:foo".split("o", -1)) + " " + Arrays.toString("boo:and:foo".split("o", 2)));
        System.out.println("2024-01-15".matches("\\d{4}-\\d{2}-\\d{2}") + " " + "x2024-01-15".matches("\\d{4}-\\d{2}-\\d{2}") + " " + "Hello World".replaceAll("[aeiou]", "*") + " " + "aaa".replaceFirst("a", "b"));
        System.out.println(Arrays.toString("one  two   three".split(" +")) + " " + Arrays.toString("a|b|c".split("\\|")) + " " + Arrays.toString("".split(",")) + " " + Arrays.toString(",a,,b,,".split(",")));
        // region, hitEnd, usePattern, toMatchResult, Pattern.matches, asPredicate
        Matcher r = Pattern.compile("\\d+").matcher("ab12cd345");
        r.region(3, 8);
        System.out.println(r.find() + " " + r.group() + " " + r.find() + " " + r.group() + " " + r.regionStart() + " " + r.regionEnd());
        System.out.println(Pattern.matches("a*b", "aaab") + " " + Pattern.compile("o").asPredicate().test("foo") + " " + Pattern.compile("o").asMatchPredicate().test("foo") + " " + Pattern.compile("x", Pattern.CASE_INSENSITIVE).flags());
        System.out.println(Pattern.compile("(a)(b)?").matcher("a").toString() + " " + Pattern.compile("a+").pattern());
        Matcher g = Pattern.compile("(a)(b)?").matcher("a");
        System.out.println(g.matches() + " " + g.groupCount() + " " + g.group(2) + " " + g.start(2) + " " + g.toMatchResult().group(1));
        try {
            g.group(3);
        } catch (IndexOutOfBoundsException e) {
            System.out.println("IOOBE " + e.getMessage());
        }
        try {
            Pattern.compile("a").matcher("b").group();
        } catch (IllegalStateException e) {
            System.out.println("ISE " + e.getMessage());
        }
        // syntax errors
        for (String bad : new String[] {"(abc", "[abc", "*a", "a{2", "a)", "\\p{Nope}", "(?<n>a)(?<n>b)", "\\k<zz>", "a{3,1}"}) {
            try {
                Pattern.compile(bad);
                System.out.println("compiled " + bad);
            } catch (PatternSyntaxException e) {
                System.out.println("bad " + show(bad) + ": " + e.getDescription() + " at " + e.getIndex());
            }
        }
        // a longer input: backtracking over thousands of characters
        StringBuilder big = new StringBuilder();
        for (int i = 0; i < 3000; i++) big.append(i % 7 == 0 ? ' ' : (char) ('a' + i % 26));
        Matcher words = Pattern.compile("\\b[a-z]+\\b").matcher(big);
        int count = 0, total = 0;
        while (words.find()) { count++; total += words.end() - words.start(); }
        System.out.println("words " + count + " letters " + total + " " + big.toString().replaceAll("[aeiou]+", "").length());
    }
}
