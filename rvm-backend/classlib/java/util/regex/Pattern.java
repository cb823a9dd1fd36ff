package java.util.regex;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Regular expressions: a backtracking matcher over a graph of nodes, in the manner of the JDK's
 * (each node matches at a position and calls its successor; a failure returns and the caller tries
 * its next choice). Characters are UTF-16 units; supplementary characters are two units.
 */
public final class Pattern implements java.io.Serializable {
    public static final int UNIX_LINES = 0x01;
    public static final int CASE_INSENSITIVE = 0x02;
    public static final int COMMENTS = 0x04;
    public static final int MULTILINE = 0x08;
    public static final int LITERAL = 0x10;
    public static final int DOTALL = 0x20;
    public static final int UNICODE_CASE = 0x40;
    public static final int CANON_EQ = 0x80;
    public static final int UNICODE_CHARACTER_CLASS = 0x100;

    static final int GREEDY = 0, LAZY = 1, POSSESSIVE = 2;
    static final int INF = Integer.MAX_VALUE;

    private final String pattern;
    private final int flags;
    Node root;
    int capturingGroupCount;
    int localCount;
    Map<String, Integer> namedGroups = new HashMap<>();

    // parser state
    private String src;
    private int cursor;
    private int flags0;

    private Pattern(String p, int f) {
        pattern = p;
        flags = f;
        flags0 = f;
        src = p;
        cursor = 0;
        capturingGroupCount = 1;
        Node accept = new Accept();
        if ((f & LITERAL) != 0) {
            Node head = accept;
            for (int i = p.length() - 1; i >= 0; i--) {
                Node n = new CharNode(single(p.charAt(i)));
                n.next = head;
                head = n;
            }
            root = head;
        } else {
            root = expr(accept);
            if (cursor < src.length()) {
                if (src.charAt(cursor) == ')') throw error("Unmatched closing ')'", cursor - 1);
                throw error("Unexpected internal error", cursor);
            }
        }
        src = null;
    }

    public static Pattern compile(String regex) { return new Pattern(regex, 0); }
    public static Pattern compile(String regex, int flags) { return new Pattern(regex, flags); }
    public String pattern() { return pattern; }
    public String toString() { return pattern; }
    public int flags() { return flags; }
    public Matcher matcher(CharSequence input) { return new Matcher(this, input); }
    public static boolean matches(String regex, CharSequence input) { return compile(regex).matcher(input).matches(); }
    public Map<String, Integer> namedGroups() { return java.util.Collections.unmodifiableMap(namedGroups); }

    public Predicate<String> asPredicate() { return s -> matcher(s).find(); }
    public Predicate<String> asMatchPredicate() { return s -> matcher(s).matches(); }

    public static String quote(String s) {
        int slashEIndex = s.indexOf("\\E");
        if (slashEIndex == -1) return "\\Q" + s + "\\E";
        StringBuilder sb = new StringBuilder(s.length() * 2);
        sb.append("\\Q");
        int current = 0;
        while ((slashEIndex = s.indexOf("\\E", current)) != -1) {
            sb.append(s, current, slashEIndex);
            current = slashEIndex + 2;
            sb.append("\\E\\\\E\\Q");
        }
        sb.append(s, current, s.length());
        sb.append("\\E");
        return sb.toString();
    }

    public String[] split(CharSequence input) { return split(input, 0); }
    public String[] split(CharSequence input, int limit) {
        int index = 0;
        boolean matchLimited = limit > 0;
        ArrayList<String> matchList = new ArrayList<>();
        Matcher m = matcher(input);
        while (m.find()) {
            if (!matchLimited || matchList.size() < limit - 1) {
                if (index == 0 && index == m.start() && m.start() == m.end()) continue;
                matchList.add(input.subSequence(index, m.start()).toString());
                index = m.end();
            } else if (matchList.size() == limit - 1) {
                matchList.add(input.subSequence(index, input.length()).toString());
                index = m.end();
            }
        }
        if (index == 0) return new String[] { input.toString() };
        if (!matchLimited || matchList.size() < limit) matchList.add(input.subSequence(index, input.length()).toString());
        int resultSize = matchList.size();
        if (limit == 0) while (resultSize > 0 && matchList.get(resultSize - 1).isEmpty()) resultSize--;
        String[] result = new String[resultSize];
        for (int i = 0; i < resultSize; i++) result[i] = matchList.get(i);
        return result;
    }

    public java.util.stream.Stream<String> splitAsStream(CharSequence input) {
        String[] parts = input.length() == 0 ? new String[0] : split(input, 0);
        return java.util.Arrays.stream(parts);
    }

    // ---------------------------------------------------------------- parser

    private PatternSyntaxException error(String desc, int index) {
        return new PatternSyntaxException(desc, pattern, index);
    }

    private boolean has(int f) { return (flags0 & f) != 0; }

    /** The next character, skipping whitespace and comments in COMMENTS mode; -1 at the end. */
    private int peek() {
        if (has(COMMENTS)) skipComments();
        return cursor < src.length() ? src.charAt(cursor) : -1;
    }
    private void skipComments() {
        while (cursor < src.length()) {
            char c = src.charAt(cursor);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0B) { cursor++; continue; }
            if (c == '#') {
                while (cursor < src.length() && src.charAt(cursor) != '\n' && src.charAt(cursor) != '\r') cursor++;
                continue;
            }
            break;
        }
    }
    private int next() {
        int c = peek();
        if (c >= 0) cursor++;
        return c;
    }
    private int rawNext() { return cursor < src.length() ? src.charAt(cursor++) : -1; }

    static final class Frag {
        Node head, tail;
        Frag(Node h, Node t) { head = h; tail = t; }
    }

    /** Alternatives up to ')' or the end; every alternative continues with {@code end}. */
    private Node expr(Node end) {
        List<Node> alts = new ArrayList<>();
        while (true) {
            alts.add(sequence(end));
            if (peek() != '|') break;
            cursor++;
        }
        if (alts.size() == 1) return alts.get(0);
        Branch b = new Branch(alts.toArray(new Node[0]));
        b.next = end;
        return b;
    }

    private Node sequence(Node end) {
        List<Frag> frags = new ArrayList<>();
        while (true) {
            int c = peek();
            if (c < 0 || c == '|' || c == ')') break;
            Frag f = atom();
            if (f == null) continue;
            f = quantified(f);
            frags.add(f);
        }
        Node head = end;
        for (int k = frags.size() - 1; k >= 0; k--) {
            frags.get(k).tail.next = head;
            head = frags.get(k).head;
        }
        return head;
    }

    private static Frag one(Node n) { return new Frag(n, n); }

    private Frag atom() {
        int start = cursor;
        int c = next();
        switch (c) {
            case '(': return group(start);
            case '[': return one(new CharNode(clazz()));
            case '.': return one(new CharNode(dot(flags0)));
            case '^': return one(new Caret(has(MULTILINE)));
            case '$': return one(new Dollar(has(MULTILINE)));
            case '*': case '+': case '?':
                throw error("Dangling meta character '" + (char) c + "'", start);
            case '{':
                throw error("Illegal repetition", start);
            case '\\': return escapeAtom(start);
            default: return one(new CharNode(single(c)));
        }
    }

    private Frag escapeAtom(int start) {
        int c = rawNext();
        if (c < 0) throw error("Unexpected internal error", cursor);
        switch (c) {
            case 'b':
                if (cursor < src.length() && src.charAt(cursor) == '{') throw error("Unsupported \\b{...}", start);
                return one(new Bound(false));
            case 'B': return one(new Bound(true));
            case 'A': return one(new Begin());
            case 'z': return one(new End());
            case 'Z': return one(new Dollar(false));
            case 'G': return one(new LastMatch());
            case 'R': return one(new LineBreak());
            case 'Q': {
                int e = src.indexOf("\\E", cursor);
                String lit = e < 0 ? src.substring(cursor) : src.substring(cursor, e);
                cursor = e < 0 ? src.length() : e + 2;
                if (lit.isEmpty()) return null;
                Node head = null, tail = null;
                for (int k = 0; k < lit.length(); k++) {
                    Node n = new CharNode(single(lit.charAt(k)));
                    if (head == null) head = n; else tail.next = n;
                    tail = n;
                }
                // a quantifier applies to the last character only
                if (head == tail) return one(head);
                Frag f = new Frag(head, tail);
                return f;
            }
            case 'k': {
                if (rawNext() != '<') throw error("\\k is not followed by '<' for named capturing group", cursor - 1);
                String name = groupName();
                Integer g = namedGroups.get(name);
                if (g == null) throw error("named capturing group <" + name + "> does not exist", cursor - 1);
                return one(new BackRef(g, has(CASE_INSENSITIVE)));
            }
            default:
                if (c >= '1' && c <= '9') {
                    int g = c - '0';
                    while (cursor < src.length()) {
                        char d = src.charAt(cursor);
                        if (d < '0' || d > '9') break;
                        int ng = g * 10 + (d - '0');
                        if (ng >= capturingGroupCount) break;
                        g = ng;
                        cursor++;
                    }
                    return one(new BackRef(g, has(CASE_INSENSITIVE)));
                }
                cursor--;
                return one(new CharNode(escapeClass(start)));
        }
    }

    /** After a backslash (cursor on the escaped character): a class or a single character. */
    private CharClass escapeClass(int start) {
        int c = rawNext();
        switch (c) {
            case 'd': return predef('d');
            case 'D': return not(predef('d'));
            case 'w': return predef('w');
            case 'W': return not(predef('w'));
            case 's': return predef('s');
            case 'S': return not(predef('s'));
            case 'h': return predef('h');
            case 'H': return not(predef('h'));
            case 'v': return predef('v');
            case 'V': return not(predef('v'));
            case 'p': case 'P': {
                boolean neg = c == 'P';
                String name;
                int n = rawNext();
                if (n == '{') {
                    int e = src.indexOf('}', cursor);
                    if (e < 0) throw error("Unclosed character family", src.length());
                    name = src.substring(cursor, e);
                    cursor = e + 1;
                } else {
                    name = String.valueOf((char) n);
                }
                CharClass cc = property(name, start);
                return neg ? not(cc) : cc;
            }
            default: return single(escapeChar(c, start));
        }
    }

    private int escapeChar(int c, int start) {
        switch (c) {
            case 't': return '\t';
            case 'n': return '\n';
            case 'r': return '\r';
            case 'f': return '\f';
            case 'a': return 0x07;
            case 'e': return 0x1B;
            case '0': {
                int v = 0, digits = 0;
                while (digits < 3 && cursor < src.length() && src.charAt(cursor) >= '0' && src.charAt(cursor) <= '7') {
                    int nv = v * 8 + (src.charAt(cursor) - '0');
                    if (nv > 0377) break;
                    v = nv;
                    cursor++;
                    digits++;
                }
                if (digits == 0) throw error("Illegal octal escape sequence", cursor);
                return v;
            }
            case 'x': {
                if (cursor < src.length() && src.charAt(cursor) == '{') {
                    int e = src.indexOf('}', cursor);
                    if (e < 0) throw error("Unclosed hexadecimal escape sequence", cursor);
                    int v = Integer.parseInt(src.substring(cursor + 1, e), 16);
                    cursor = e + 1;
                    return v;
                }
                return hex(2);
            }
            case 'u': return hex(4);
            case 'c': return rawNext() ^ 64;
            default:
                if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) throw error("Illegal/unsupported escape sequence", cursor - 1);
                return c;
        }
    }

    private int hex(int n) {
        int v = 0;
        for (int k = 0; k < n; k++) {
            int d = cursor < src.length() ? Character.digit(src.charAt(cursor), 16) : -1;
            if (d < 0) throw error("Illegal hexadecimal escape sequence", cursor);
            v = v * 16 + d;
            cursor++;
        }
        return v;
    }

    private String groupName() {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = rawNext()) != '>') {
            if (c < 0 || !(Character.isLetterOrDigit((char) c))) throw error("named capturing group is missing trailing '>'", cursor - 1);
            sb.append((char) c);
        }
        if (sb.length() == 0) throw error("named capturing group has 0 length name", cursor - 1);
        return sb.toString();
    }

    private Frag group(int start) {
        int saveFlags = flags0;
        boolean restore = false;
        if (cursor < src.length() && src.charAt(cursor) == '?') {
            cursor++;
            int c = rawNext();
            switch (c) {
                case ':': {
                    Pass tail = new Pass();
                    Node head = expr(tail);
                    closeGroup(start);
                    return new Frag(head, tail);
                }
                case '=': case '!': {
                    LookEnd end = new LookEnd(localCount++, false);
                    Node body = expr(end);
                    closeGroup(start);
                    return one(new Look(body, true, c == '!', end.local));
                }
                case '>': {
                    LookEnd end = new LookEnd(localCount++, false);
                    Node body = expr(end);
                    closeGroup(start);
                    return one(new Atomic(body, end.local));
                }
                case '<': {
                    int d = cursor < src.length() ? src.charAt(cursor) : -1;
                    if (d == '=' || d == '!') {
                        cursor++;
                        LookEnd end = new LookEnd(localCount++, true);
                        Node body = expr(end);
                        closeGroup(start);
                        return one(new Look(body, false, d == '!', end.local));
                    }
                    String name = groupName();
                    if (namedGroups.containsKey(name)) throw error("Named capturing group <" + name + "> is already defined", cursor - 1);
                    namedGroups.put(name, capturingGroupCount);
                    return capturing(start);
                }
                default: {
                    cursor--;
                    boolean on = true;
                    while (true) {
                        int f = rawNext();
                        switch (f) {
                            case 'i': flags0 = on ? flags0 | CASE_INSENSITIVE : flags0 & ~CASE_INSENSITIVE; break;
                            case 'm': flags0 = on ? flags0 | MULTILINE : flags0 & ~MULTILINE; break;
                            case 's': flags0 = on ? flags0 | DOTALL : flags0 & ~DOTALL; break;
                            case 'x': flags0 = on ? flags0 | COMMENTS : flags0 & ~COMMENTS; break;
                            case 'u': flags0 = on ? flags0 | UNICODE_CASE : flags0 & ~UNICODE_CASE; break;
                            case 'd': flags0 = on ? flags0 | UNIX_LINES : flags0 & ~UNIX_LINES; break;
                            case 'U': flags0 = on ? flags0 | UNICODE_CHARACTER_CLASS : flags0 & ~UNICODE_CHARACTER_CLASS; break;
                            case '-': on = false; break;
                            case ')': return null;
                            case ':': {
                                Pass tail = new Pass();
                                Node head = expr(tail);
                                closeGroup(start);
                                flags0 = saveFlags;
                                return new Frag(head, tail);
                            }
                            default: throw error("Unknown inline modifier", cursor - 1);
                        }
                    }
                }
            }
        }
        return capturing(start);
    }

    private Frag capturing(int start) {
        int g = capturingGroupCount++;
        GroupHead head = new GroupHead(localCount++);
        GroupTail tail = new GroupTail(head.local, g);
        head.next = expr(tail);
        closeGroup(start);
        return new Frag(head, tail);
    }

    private void closeGroup(int start) {
        if (peek() != ')') throw error("Unclosed group", src.length());
        cursor++;
    }

    private Frag quantified(Frag f) {
        int c = peek();
        int min, max;
        int qstart = cursor;
        switch (c) {
            case '*': cursor++; min = 0; max = INF; break;
            case '+': cursor++; min = 1; max = INF; break;
            case '?': cursor++; min = 0; max = 1; break;
            case '{': {
                cursor++;
                int a = number();
                if (a < 0) throw error("Illegal repetition", qstart);
                min = a;
                max = a;
                if (cursor < src.length() && src.charAt(cursor) == ',') {
                    cursor++;
                    int b = number();
                    max = b < 0 ? INF : b;
                }
                if (cursor >= src.length() || src.charAt(cursor) != '}') throw error("Unclosed counted closure", cursor);
                cursor++;
                if (max < min) throw error("Illegal repetition range", cursor - 1);
                break;
            }
            default: return f;
        }
        int kind = GREEDY;
        if (cursor < src.length()) {
            char k = src.charAt(cursor);
            if (k == '?') { kind = LAZY; cursor++; }
            else if (k == '+') { kind = POSSESSIVE; cursor++; }
        }
        Frag r;
        if (f.head == f.tail && f.head instanceof CharNode) {
            r = one(new Curly(((CharNode) f.head).cc, min, max, kind));
        } else if (f.head != f.tail && f.tail instanceof CharNode && !(f.head instanceof GroupHead) && !(f.head instanceof Pass)) {
            // \Q...\E: the quantifier binds to the last character
            Node prev = f.head;
            while (prev.next != f.tail) prev = prev.next;
            Curly cu = new Curly(((CharNode) f.tail).cc, min, max, kind);
            prev.next = cu;
            r = new Frag(f.head, cu);
        } else {
            Rep rep = new Rep(f.head, min, max, kind == POSSESSIVE ? GREEDY : kind, localCount++, localCount++);
            f.tail.next = new RepTail(rep);
            if (kind == POSSESSIVE) {
                LookEnd end = new LookEnd(localCount++, false);
                rep.next = end;
                r = one(new Atomic(rep, end.local));
            } else {
                r = one(rep);
            }
        }
        return r;
    }

    private int number() {
        int start = cursor;
        int v = 0;
        while (cursor < src.length() && src.charAt(cursor) >= '0' && src.charAt(cursor) <= '9') {
            v = v * 10 + (src.charAt(cursor) - '0');
            cursor++;
        }
        return cursor == start ? -1 : v;
    }

    // ---------------------------------------------------------------- character classes

    abstract static class CharClass {
        abstract boolean is(int c);
    }

    private CharClass single(int ch) {
        final int c = ch;
        if (has(CASE_INSENSITIVE)) {
            final boolean unicode = has(UNICODE_CASE);
            return new CharClass() {
                boolean is(int x) { return x == c || caseEq(x, c, unicode); }
            };
        }
        return new CharClass() {
            boolean is(int x) { return x == c; }
        };
    }

    static boolean caseEq(int a, int b, boolean unicode) {
        if (unicode) {
            return Character.toUpperCase(a) == Character.toUpperCase(b) || Character.toLowerCase(a) == Character.toLowerCase(b);
        }
        if (a < 128 && b < 128) {
            int la = (a >= 'A' && a <= 'Z') ? a + 32 : a;
            int lb = (b >= 'A' && b <= 'Z') ? b + 32 : b;
            return la == lb;
        }
        return false;
    }

    private CharClass range(int lo, int hi) {
        final int l = lo, h = hi;
        if (has(CASE_INSENSITIVE)) {
            final boolean unicode = has(UNICODE_CASE);
            return new CharClass() {
                boolean is(int x) {
                    if (x >= l && x <= h) return true;
                    if (unicode) {
                        int u = Character.toUpperCase(x), w = Character.toLowerCase(x);
                        return (u >= l && u <= h) || (w >= l && w <= h);
                    }
                    if (x < 128) {
                        int u = (x >= 'a' && x <= 'z') ? x - 32 : x, w = (x >= 'A' && x <= 'Z') ? x + 32 : x;
                        return (u >= l && u <= h) || (w >= l && w <= h);
                    }
                    return false;
                }
            };
        }
        return new CharClass() {
            boolean is(int x) { return x >= l && x <= h; }
        };
    }

    static CharClass not(final CharClass a) {
        return new CharClass() {
            boolean is(int x) { return !a.is(x); }
        };
    }

    static CharClass union(final CharClass a, final CharClass b) {
        if (a == null) return b;
        if (b == null) return a;
        return new CharClass() {
            boolean is(int x) { return a.is(x) || b.is(x); }
        };
    }

    static CharClass inter(final CharClass a, final CharClass b) {
        return new CharClass() {
            boolean is(int x) { return a.is(x) && b.is(x); }
        };
    }

    static CharClass dot(int flags) {
        if ((flags & DOTALL) != 0) return new CharClass() { boolean is(int x) { return true; } };
        if ((flags & UNIX_LINES) != 0) return new CharClass() { boolean is(int x) { return x != '\n'; } };
        return new CharClass() {
            boolean is(int x) { return x != '\n' && x != '\r' && (x | 1) != '\u2029' && x != '\u0085'; }
        };
    }

    private CharClass predef(final char kind) {
        final boolean uni = has(UNICODE_CHARACTER_CLASS);
        return new CharClass() {
            boolean is(int x) {
                switch (kind) {
                    case 'd': return uni ? Character.isDigit(x) : (x >= '0' && x <= '9');
                    case 'w': return uni ? (Character.isLetterOrDigit(x) || x == '_')
                            : ((x >= 'a' && x <= 'z') || (x >= 'A' && x <= 'Z') || (x >= '0' && x <= '9') || x == '_');
                    case 's': return uni ? Character.isWhitespace(x) : (x == ' ' || x == '\t' || x == '\n' || x == 0x0B || x == '\f' || x == '\r');
                    case 'h': return x == ' ' || x == '\t' || x == 0xA0 || x == 0x1680 || x == 0x180e || (x >= 0x2000 && x <= 0x200a) || x == 0x202f || x == 0x205f || x == 0x3000;
                    case 'v': return x == '\n' || x == 0x0B || x == '\f' || x == '\r' || x == 0x85 || x == 0x2028 || x == 0x2029;
                    default: return false;
                }
            }
        };
    }

    /** Unicode blocks for \\p{InBlock}: name, first and last code point. */
    private static final String[] BLOCKS = {
        "BasicLatin", "0000", "007F", "Latin-1Supplement", "0080", "00FF", "Latin1Supplement", "0080", "00FF",
        "LatinExtended-A", "0100", "017F", "LatinExtendedA", "0100", "017F", "LatinExtended-B", "0180", "024F", "LatinExtendedB", "0180", "024F",
        "IPAExtensions", "0250", "02AF", "SpacingModifierLetters", "02B0", "02FF", "CombiningDiacriticalMarks", "0300", "036F",
        "Greek", "0370", "03FF", "GreekandCoptic", "0370", "03FF", "Cyrillic", "0400", "04FF", "Armenian", "0530", "058F", "Hebrew", "0590", "05FF",
        "Arabic", "0600", "06FF", "Devanagari", "0900", "097F", "Thai", "0E00", "0E7F", "GeneralPunctuation", "2000", "206F",
        "CurrencySymbols", "20A0", "20CF", "LetterlikeSymbols", "2100", "214F", "Arrows", "2190", "21FF", "MathematicalOperators", "2200", "22FF",
        "BoxDrawing", "2500", "257F", "Hiragana", "3040", "309F", "Katakana", "30A0", "30FF", "CJKUnifiedIdeographs", "4E00", "9FFF",
        "HangulSyllables", "AC00", "D7AF", "PrivateUseArea", "E000", "F8FF", "HalfwidthandFullwidthForms", "FF00", "FFEF", "Specials", "FFF0", "FFFF",
    };

    private CharClass property(String name, int start) {
        if (name.startsWith("In") || name.startsWith("block=") || name.startsWith("blk=")) {
            String b = name.substring(name.indexOf(name.startsWith("In") ? "n" : "=") + 1).replace(" ", "").replace("_", "");
            for (int k = 0; k < BLOCKS.length; k += 3) {
                if (BLOCKS[k].replace("_", "").equalsIgnoreCase(b)) return range(Integer.parseInt(BLOCKS[k + 1], 16), Integer.parseInt(BLOCKS[k + 2], 16));
            }
            throw error("Unknown character block name {" + b + "}", cursor - 1);
        }
        final String n = name.startsWith("Is") && !name.equals("IsAlphabetic") && name.length() > 2 ? name.substring(2) : name;
        final int kind;
        switch (n) {
            case "Lower": kind = 1; break;
            case "Upper": kind = 2; break;
            case "ASCII": kind = 3; break;
            case "Alpha": kind = 4; break;
            case "Digit": kind = 5; break;
            case "Alnum": kind = 6; break;
            case "Punct": kind = 7; break;
            case "Graph": kind = 8; break;
            case "Print": kind = 9; break;
            case "Blank": kind = 10; break;
            case "Cntrl": kind = 11; break;
            case "XDigit": kind = 12; break;
            case "Space": case "White_Space": case "WhiteSpace": case "javaWhitespace": kind = 13; break;
            case "javaLowerCase": case "Ll": case "Lowercase": kind = 14; break;
            case "javaUpperCase": case "Lu": case "Uppercase": kind = 15; break;
            case "L": case "IsAlphabetic": case "Alphabetic": case "Letter": case "javaLetter": kind = 16; break;
            case "N": case "Nd": case "javaDigit": kind = 17; break;
            case "P": kind = 18; break;
            case "javaLetterOrDigit": kind = 19; break;
            default: throw error("Unknown character property name {" + name + "}", cursor - 1);
        }
        final boolean ci = has(CASE_INSENSITIVE);
        return new CharClass() {
            boolean is(int x) {
                switch (kind) {
                    case 1: return (x >= 'a' && x <= 'z') || (ci && x >= 'A' && x <= 'Z');
                    case 2: return (x >= 'A' && x <= 'Z') || (ci && x >= 'a' && x <= 'z');
                    case 3: return x < 128;
                    case 4: return (x >= 'a' && x <= 'z') || (x >= 'A' && x <= 'Z');
                    case 5: return x >= '0' && x <= '9';
                    case 6: return (x >= 'a' && x <= 'z') || (x >= 'A' && x <= 'Z') || (x >= '0' && x <= '9');
                    case 7: return punct(x);
                    case 8: return (x >= 'a' && x <= 'z') || (x >= 'A' && x <= 'Z') || (x >= '0' && x <= '9') || punct(x);
                    case 9: return x == ' ' || (x >= 'a' && x <= 'z') || (x >= 'A' && x <= 'Z') || (x >= '0' && x <= '9') || punct(x);
                    case 10: return x == ' ' || x == '\t';
                    case 11: return x < 32 || x == 127;
                    case 12: return (x >= '0' && x <= '9') || (x >= 'a' && x <= 'f') || (x >= 'A' && x <= 'F');
                    case 13: return Character.isWhitespace(x);
                    case 14: return Character.isLowerCase(x);
                    case 15: return Character.isUpperCase(x);
                    case 16: return Character.isLetter(x);
                    case 17: return Character.isDigit(x);
                    case 18: return x < 128 ? punct(x) && "$+<=>^`|~".indexOf(x) < 0 : false;
                    case 19: return Character.isLetterOrDigit(x);
                    default: return false;
                }
            }
        };
    }

    static boolean punct(int x) {
        return (x >= 33 && x <= 47) || (x >= 58 && x <= 64) || (x >= 91 && x <= 96) || (x >= 123 && x <= 126);
    }

    /** A bracket class; the cursor is after '['. */
    private CharClass clazz() {
        int start = cursor - 1;
        boolean neg = false;
        if (cursor < src.length() && src.charAt(cursor) == '^') { neg = true; cursor++; }
        CharClass result = null;
        boolean first = true;
        while (true) {
            if (cursor >= src.length()) throw error("Unclosed character class", src.length() - 1);
            char c = src.charAt(cursor);
            if (c == ']' && !first) { cursor++; break; }
            first = false;
            if (c == '[') {
                cursor++;
                result = union(result, clazz());
                continue;
            }
            if (c == '&' && cursor + 1 < src.length() && src.charAt(cursor + 1) == '&') {
                cursor += 2;
                CharClass right = null;
                // the right operand: everything up to ']' or the next "&&"
                while (true) {
                    if (cursor >= src.length()) throw error("Unclosed character class", src.length() - 1);
                    char d = src.charAt(cursor);
                    if (d == ']') break;
                    if (d == '&' && cursor + 1 < src.length() && src.charAt(cursor + 1) == '&') break;
                    if (d == '[') { cursor++; right = union(right, clazz()); continue; }
                    right = union(right, classItem());
                }
                result = result == null ? right : (right == null ? result : inter(result, right));
                continue;
            }
            if (has(COMMENTS) && (c == ' ' || c == '\t' || c == '\n' || c == '\r')) { cursor++; continue; }
            result = union(result, classItem());
        }
        if (result == null) throw error("Unclosed character class", cursor - 1);
        return neg ? not(result) : result;
    }

    /** One character, range or escaped class inside brackets. */
    private CharClass classItem() {
        int start = cursor;
        int lo;
        char c = src.charAt(cursor++);
        if (c == '\\') {
            int e = cursor < src.length() ? src.charAt(cursor) : -1;
            if (e == 'Q') {
                cursor++;
                int end = src.indexOf("\\E", cursor);
                String lit = end < 0 ? src.substring(cursor) : src.substring(cursor, end);
                cursor = end < 0 ? src.length() : end + 2;
                CharClass r = null;
                for (int k = 0; k < lit.length(); k++) r = union(r, single(lit.charAt(k)));
                return r == null ? new CharClass() { boolean is(int x) { return false; } } : r;
            }
            if ("dDwWsShHvVpP".indexOf(e) >= 0) return escapeClass(start);
            cursor++;
            lo = escapeChar(e, start);
        } else {
            lo = c;
        }
        if (cursor + 1 < src.length() && src.charAt(cursor) == '-' && src.charAt(cursor + 1) != ']') {
            cursor++;
            int hi;
            char h = src.charAt(cursor++);
            if (h == '\\') {
                int e = rawNext();
                hi = escapeChar(e, cursor - 2);
            } else if (h == '[') {
                throw error("Illegal character range", cursor - 1);
            } else {
                hi = h;
            }
            if (hi < lo) throw error("Illegal character range", cursor - 1);
            return range(lo, hi);
        }
        return single(lo);
    }

    // ---------------------------------------------------------------- nodes

    static class Node {
        Node next;
        boolean match(Matcher m, int i, CharSequence s) { return next.match(m, i, s); }
    }

    /** Passes through (the end of a non-capturing group or of an alternative). */
    static final class Pass extends Node {}

    static final class Accept extends Node {
        boolean match(Matcher m, int i, CharSequence s) {
            if (m.acceptMode == Matcher.ENDANCHOR && i != m.to) return false;
            m.groups[1] = i;
            return true;
        }
    }

    static final class CharNode extends Node {
        final CharClass cc;
        CharNode(CharClass cc) { this.cc = cc; }
        boolean match(Matcher m, int i, CharSequence s) {
            if (i < m.to && cc.is(s.charAt(i))) return next.match(m, i + 1, s);
            if (i >= m.to) m.hitEnd = true;
            return false;
        }
    }

    static final class Curly extends Node {
        final CharClass cc;
        final int min, max, kind;
        Curly(CharClass cc, int min, int max, int kind) { this.cc = cc; this.min = min; this.max = max; this.kind = kind; }
        boolean match(Matcher m, int i, CharSequence s) {
            int to = m.to, j = i, n = 0;
            while (n < min) {
                if (j < to && cc.is(s.charAt(j))) { j++; n++; }
                else { if (j >= to) m.hitEnd = true; return false; }
            }
            if (kind == GREEDY) {
                int k = j;
                while (n < max && k < to && cc.is(s.charAt(k))) { k++; n++; }
                if (k >= to) m.hitEnd = true;
                while (true) {
                    if (next.match(m, k, s)) return true;
                    if (k == j) return false;
                    k--;
                }
            }
            if (kind == LAZY) {
                while (true) {
                    if (next.match(m, j, s)) return true;
                    if (n >= max) return false;
                    if (j >= to) { m.hitEnd = true; return false; }
                    if (!cc.is(s.charAt(j))) return false;
                    j++;
                    n++;
                }
            }
            while (n < max && j < to && cc.is(s.charAt(j))) { j++; n++; }
            if (j >= to) m.hitEnd = true;
            return next.match(m, j, s);
        }
    }

    /** A repeated group: the body's last node is a RepTail that comes back here. */
    static final class Rep extends Node {
        final Node body;
        final int min, max, kind, count, pos;
        Rep(Node body, int min, int max, int kind, int count, int pos) { this.body = body; this.min = min; this.max = max; this.kind = kind; this.count = count; this.pos = pos; }
        boolean match(Matcher m, int i, CharSequence s) {
            int sc = m.locals[count], sp = m.locals[pos];
            m.locals[count] = 0;
            m.locals[pos] = -1;
            boolean r = iterate(m, i, s);
            m.locals[count] = sc;
            m.locals[pos] = sp;
            return r;
        }
        /** At position i after m.locals[count] complete iterations. */
        boolean iterate(Matcher m, int i, CharSequence s) {
            int c = m.locals[count];
            int last = m.locals[pos];
            if (c < min) {
                if (c > 0 && last == i) return next.match(m, i, s); // an empty iteration: the rest would be empty too
                m.locals[pos] = i;
                boolean r = body.match(m, i, s);
                m.locals[pos] = last;
                return r;
            }
            if (kind == LAZY) {
                if (next.match(m, i, s)) return true;
                if (c >= max || last == i) return false;
                m.locals[pos] = i;
                boolean r = body.match(m, i, s);
                m.locals[pos] = last;
                return r;
            }
            if (c < max && last != i) {
                m.locals[pos] = i;
                boolean r = body.match(m, i, s);
                m.locals[pos] = last;
                if (r) return true;
            }
            return next.match(m, i, s);
        }
    }

    static final class RepTail extends Node {
        final Rep head;
        RepTail(Rep head) { this.head = head; }
        boolean match(Matcher m, int i, CharSequence s) {
            int c = m.locals[head.count];
            m.locals[head.count] = c + 1;
            boolean r = head.iterate(m, i, s);
            m.locals[head.count] = c;
            return r;
        }
    }

    static final class GroupHead extends Node {
        final int local;
        GroupHead(int local) { this.local = local; }
        boolean match(Matcher m, int i, CharSequence s) {
            int save = m.locals[local];
            m.locals[local] = i;
            boolean r = next.match(m, i, s);
            m.locals[local] = save;
            return r;
        }
    }

    static final class GroupTail extends Node {
        final int local, group;
        GroupTail(int local, int group) { this.local = local; this.group = group; }
        boolean match(Matcher m, int i, CharSequence s) {
            int s0 = m.groups[2 * group], e0 = m.groups[2 * group + 1];
            m.groups[2 * group] = m.locals[local];
            m.groups[2 * group + 1] = i;
            if (next.match(m, i, s)) return true;
            m.groups[2 * group] = s0;
            m.groups[2 * group + 1] = e0;
            return false;
        }
    }

    static final class Branch extends Node {
        final Node[] alts;
        Branch(Node[] alts) { this.alts = alts; }
        boolean match(Matcher m, int i, CharSequence s) {
            for (Node a : alts) if (a.match(m, i, s)) return true;
            return false;
        }
    }

    /** The end of a lookaround or atomic body: records where it ended (a lookbehind must end at its start). */
    static final class LookEnd extends Node {
        final int local;
        final boolean behind;
        LookEnd(int local, boolean behind) { this.local = local; this.behind = behind; }
        boolean match(Matcher m, int i, CharSequence s) {
            if (behind) return i == m.locals[local];
            m.locals[local] = i;
            return true;
        }
    }

    static final class Look extends Node {
        final Node body;
        final boolean ahead, negative;
        final int local;
        Look(Node body, boolean ahead, boolean negative, int local) { this.body = body; this.ahead = ahead; this.negative = negative; this.local = local; }
        boolean match(Matcher m, int i, CharSequence s) {
            int[] saved = m.groups.clone();
            int save = m.locals[local];
            boolean found;
            if (ahead) {
                found = body.match(m, i, s);
            } else {
                m.locals[local] = i;
                found = false;
                for (int j = i; j >= m.from && !found; j--) found = body.match(m, j, s);
            }
            m.locals[local] = save;
            if (negative) {
                System.arraycopy(saved, 0, m.groups, 0, saved.length);
                return !found && next.match(m, i, s);
            }
            if (found && next.match(m, i, s)) return true;
            System.arraycopy(saved, 0, m.groups, 0, saved.length);
            return false;
        }
    }

    static final class Atomic extends Node {
        final Node body;
        final int local;
        Atomic(Node body, int local) { this.body = body; this.local = local; }
        boolean match(Matcher m, int i, CharSequence s) {
            int save = m.locals[local];
            if (!body.match(m, i, s)) { m.locals[local] = save; return false; }
            int j = m.locals[local];
            m.locals[local] = save;
            return next.match(m, j, s);
        }
    }

    static final class BackRef extends Node {
        final int group;
        final boolean ci;
        BackRef(int group, boolean ci) { this.group = group; this.ci = ci; }
        boolean match(Matcher m, int i, CharSequence s) {
            if (2 * group + 1 >= m.groups.length) return false;
            int a = m.groups[2 * group], b = m.groups[2 * group + 1];
            if (a < 0) return false;
            int n = b - a;
            if (i + n > m.to) { m.hitEnd = true; return false; }
            for (int k = 0; k < n; k++) {
                char x = s.charAt(a + k), y = s.charAt(i + k);
                if (x != y && !(ci && caseEq(x, y, false))) return false;
            }
            return next.match(m, i + n, s);
        }
    }

    static final class Caret extends Node {
        final boolean multiline;
        Caret(boolean multiline) { this.multiline = multiline; }
        boolean match(Matcher m, int i, CharSequence s) {
            if (!multiline) return i == m.from && next.match(m, i, s);
            if (i == m.to) { m.hitEnd = true; return false; }
            if (i > m.from) {
                char ch = s.charAt(i - 1);
                if (ch != '\n' && ch != '\r' && (ch | 1) != '\u2029' && ch != '\u0085') return false;
                if (ch == '\r' && s.charAt(i) == '\n') return false;
            }
            return next.match(m, i, s);
        }
    }

    static final class Dollar extends Node {
        final boolean multiline;
        Dollar(boolean multiline) { this.multiline = multiline; }
        boolean match(Matcher m, int i, CharSequence s) {
            int end = m.to;
            if (!multiline) {
                if (i < end - 2) return false;
                if (i == end - 2) {
                    if (s.charAt(i) != '\r' || s.charAt(i + 1) != '\n') return false;
                }
            }
            if (i < end) {
                char ch = s.charAt(i);
                if (ch == '\n') {
                    if (i > 0 && s.charAt(i - 1) == '\r') return false;
                    if (multiline) return next.match(m, i, s);
                } else if (ch == '\r' || ch == '\u0085' || (ch | 1) == '\u2029') {
                    if (multiline) return next.match(m, i, s);
                } else {
                    return false;
                }
            }
            m.hitEnd = true;
            return next.match(m, i, s);
        }
    }

    static final class Begin extends Node {
        boolean match(Matcher m, int i, CharSequence s) { return i == m.from && next.match(m, i, s); }
    }

    static final class End extends Node {
        boolean match(Matcher m, int i, CharSequence s) {
            if (i != m.to) return false;
            m.hitEnd = true;
            return next.match(m, i, s);
        }
    }

    static final class LastMatch extends Node {
        boolean match(Matcher m, int i, CharSequence s) { return i == m.oldLast && next.match(m, i, s); }
    }

    static final class LineBreak extends Node {
        boolean match(Matcher m, int i, CharSequence s) {
            if (i >= m.to) { m.hitEnd = true; return false; }
            char c = s.charAt(i);
            if (c == '\r' && i + 1 < m.to && s.charAt(i + 1) == '\n' && next.match(m, i + 2, s)) return true;
            if (c == '\n' || c == 0x0B || c == '\f' || c == '\r' || c == 0x85 || c == 0x2028 || c == 0x2029) return next.match(m, i + 1, s);
            return false;
        }
    }

    static final class Bound extends Node {
        final boolean negated;
        Bound(boolean negated) { this.negated = negated; }
        static boolean word(char c) { return Character.isLetterOrDigit(c) || c == '_'; }
        boolean match(Matcher m, int i, CharSequence s) {
            boolean left = i > m.from && word(s.charAt(i - 1));
            boolean right = i < m.to && word(s.charAt(i));
            if (i >= m.to) m.hitEnd = true;
            return ((left != right) != negated) && next.match(m, i, s);
        }
    }
}
