package java.util.regex;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

public final class Matcher implements MatchResult {
    static final int NOANCHOR = 0, ENDANCHOR = 1;

    private Pattern parentPattern;
    private CharSequence text;
    int from, to;
    int[] groups;
    int[] locals;
    int acceptMode;
    boolean hitEnd;
    /** The previous match's bounds (first = -1: none). */
    int first = -1, last = 0;
    int oldLast = -1;
    private int lastAppendPosition = 0;

    Matcher(Pattern p, CharSequence text) {
        this.parentPattern = p;
        this.text = text;
        groups = new int[p.capturingGroupCount * 2];
        locals = new int[Math.max(p.localCount, 1)];
        reset();
    }

    public Pattern pattern() { return parentPattern; }

    public Matcher usePattern(Pattern p) {
        if (p == null) throw new IllegalArgumentException("Pattern cannot be null");
        parentPattern = p;
        groups = new int[p.capturingGroupCount * 2];
        locals = new int[Math.max(p.localCount, 1)];
        for (int i = 0; i < groups.length; i++) groups[i] = -1;
        return this;
    }

    public Matcher reset() {
        first = -1;
        last = 0;
        oldLast = -1;
        for (int i = 0; i < groups.length; i++) groups[i] = -1;
        lastAppendPosition = 0;
        from = 0;
        to = text.length();
        return this;
    }

    public Matcher reset(CharSequence input) {
        text = input;
        return reset();
    }

    public Matcher region(int start, int end) {
        if (start < 0 || start > text.length()) throw new IndexOutOfBoundsException("start");
        if (end < 0 || end > text.length()) throw new IndexOutOfBoundsException("end");
        if (start > end) throw new IndexOutOfBoundsException("start > end");
        reset();
        from = start;
        to = end;
        return this;
    }
    public int regionStart() { return from; }
    public int regionEnd() { return to; }
    public boolean hitEnd() { return hitEnd; }

    private boolean attempt(int at, int mode) {
        for (int i = 0; i < groups.length; i++) groups[i] = -1;
        acceptMode = mode;
        boolean ok = parentPattern.root.match(this, at, text);
        if (ok) {
            groups[0] = at;
            first = at;
            last = groups[1];
        }
        return ok;
    }

    private boolean search(int start) {
        hitEnd = false;
        for (int s = start; s <= to; s++) {
            if (attempt(s, NOANCHOR)) {
                oldLast = last;
                return true;
            }
        }
        for (int i = 0; i < groups.length; i++) groups[i] = -1;
        first = -1;
        return false;
    }

    private boolean anchored(int mode) {
        hitEnd = false;
        boolean ok = attempt(from, mode);
        if (!ok) {
            for (int i = 0; i < groups.length; i++) groups[i] = -1;
            first = -1;
        } else {
            oldLast = last;
        }
        return ok;
    }

    public boolean matches() { return anchored(ENDANCHOR); }
    public boolean lookingAt() { return anchored(NOANCHOR); }

    public boolean find() {
        int next = last;
        if (next == first) next++;
        if (next < from) next = from;
        if (next > to) {
            for (int i = 0; i < groups.length; i++) groups[i] = -1;
            first = -1;
            return false;
        }
        return search(next);
    }

    public boolean find(int start) {
        int limit = text.length();
        if (start < 0 || start > limit) throw new IndexOutOfBoundsException("Illegal start index");
        reset();
        return search(start);
    }

    private void checkMatch() {
        if (first < 0) throw new IllegalStateException("No match found");
    }
    private void checkGroup(int group) {
        if (group < 0 || group > groupCount()) throw new IndexOutOfBoundsException("No group " + group);
    }

    public int start() { checkMatch(); return first; }
    public int start(int group) { checkMatch(); checkGroup(group); return groups[group * 2]; }
    public int start(String name) { return start(groupIndex(name)); }
    public int end() { checkMatch(); return last; }
    public int end(int group) { checkMatch(); checkGroup(group); return groups[group * 2 + 1]; }
    public int end(String name) { return end(groupIndex(name)); }
    public String group() { return group(0); }
    public String group(int group) {
        checkMatch();
        checkGroup(group);
        if (groups[group * 2] == -1 || groups[group * 2 + 1] == -1) return null;
        return text.subSequence(groups[group * 2], groups[group * 2 + 1]).toString();
    }
    public String group(String name) { return group(groupIndex(name)); }
    public int groupCount() { return parentPattern.capturingGroupCount - 1; }

    private int groupIndex(String name) {
        if (name == null) throw new NullPointerException("Group name");
        Integer g = parentPattern.namedGroups.get(name);
        if (g == null) throw new IllegalArgumentException("No group with name <" + name + ">");
        return g;
    }

    public MatchResult toMatchResult() {
        final String t = text.toString();
        final int[] g = groups.clone();
        final int f = first, l = last, count = groupCount();
        final java.util.Map<String, Integer> names = parentPattern.namedGroups;
        return new MatchResult() {
            private void check() { if (f < 0) throw new IllegalStateException("No match found"); }
            private void checkG(int group) { if (group < 0 || group > count) throw new IndexOutOfBoundsException("No group " + group); }
            public int start() { check(); return f; }
            public int start(int group) { check(); checkG(group); return g[group * 2]; }
            public int end() { check(); return l; }
            public int end(int group) { check(); checkG(group); return g[group * 2 + 1]; }
            public String group() { return group(0); }
            public String group(int group) {
                check();
                checkG(group);
                return g[group * 2] == -1 ? null : t.substring(g[group * 2], g[group * 2 + 1]);
            }
            public int groupCount() { return count; }
            public String group(String name) {
                Integer i = names.get(name);
                if (i == null) throw new IllegalArgumentException("No group with name <" + name + ">");
                return group(i);
            }
        };
    }

    public static String quoteReplacement(String s) {
        if ((s.indexOf('\\') == -1) && (s.indexOf('$') == -1)) return s;
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' || c == '$') sb.append('\\');
            sb.append(c);
        }
        return sb.toString();
    }

    private void appendExpanded(StringBuilder sb, String replacement) {
        int cursor = 0;
        while (cursor < replacement.length()) {
            char nextChar = replacement.charAt(cursor);
            if (nextChar == '\\') {
                cursor++;
                if (cursor == replacement.length()) throw new IllegalArgumentException("character to be escaped is missing");
                sb.append(replacement.charAt(cursor));
                cursor++;
            } else if (nextChar == '$') {
                cursor++;
                if (cursor == replacement.length()) throw new IllegalArgumentException("Illegal group reference: group index is missing");
                nextChar = replacement.charAt(cursor);
                int refNum;
                if (nextChar == '{') {
                    cursor++;
                    StringBuilder gsb = new StringBuilder();
                    while (cursor < replacement.length()) {
                        nextChar = replacement.charAt(cursor);
                        if (Character.isLetterOrDigit(nextChar)) { gsb.append(nextChar); cursor++; } else break;
                    }
                    if (gsb.length() == 0) throw new IllegalArgumentException("named capturing group has 0 length name");
                    if (nextChar != '}') throw new IllegalArgumentException("named capturing group is missing trailing '}'");
                    String gname = gsb.toString();
                    if (Character.isDigit(gname.charAt(0))) throw new IllegalArgumentException("capturing group name {" + gname + "} starts with digit character");
                    Integer g = parentPattern.namedGroups.get(gname);
                    if (g == null) throw new IllegalArgumentException("No group with name {" + gname + "}");
                    refNum = g;
                    cursor++;
                } else {
                    refNum = nextChar - '0';
                    if ((refNum < 0) || (refNum > 9)) throw new IllegalArgumentException("Illegal group reference");
                    cursor++;
                    boolean done = false;
                    while (!done) {
                        if (cursor >= replacement.length()) break;
                        int nextDigit = replacement.charAt(cursor) - '0';
                        if ((nextDigit < 0) || (nextDigit > 9)) break;
                        int newRefNum = (refNum * 10) + nextDigit;
                        if (groupCount() < newRefNum) {
                            done = true;
                        } else {
                            refNum = newRefNum;
                            cursor++;
                        }
                    }
                }
                if (start(refNum) != -1 && end(refNum) != -1) sb.append(text, start(refNum), end(refNum));
            } else {
                sb.append(nextChar);
                cursor++;
            }
        }
    }

    public Matcher appendReplacement(StringBuilder sb, String replacement) {
        checkMatch();
        StringBuilder result = new StringBuilder();
        appendExpanded(result, replacement);
        sb.append(text, lastAppendPosition, first);
        sb.append(result);
        lastAppendPosition = last;
        return this;
    }
    public Matcher appendReplacement(StringBuffer sb, String replacement) {
        StringBuilder b = new StringBuilder();
        appendReplacement(b, replacement);
        sb.append(b);
        return this;
    }
    public StringBuilder appendTail(StringBuilder sb) {
        sb.append(text, lastAppendPosition, getTextLength());
        return sb;
    }
    public StringBuffer appendTail(StringBuffer sb) {
        sb.append(text.subSequence(lastAppendPosition, getTextLength()).toString());
        return sb;
    }
    private int getTextLength() { return text.length(); }

    public String replaceAll(String replacement) {
        reset();
        boolean result = find();
        if (result) {
            StringBuilder sb = new StringBuilder();
            do {
                appendReplacement(sb, replacement);
                result = find();
            } while (result);
            appendTail(sb);
            return sb.toString();
        }
        return text.toString();
    }

    public String replaceAll(Function<MatchResult, String> replacer) {
        reset();
        boolean result = find();
        if (result) {
            StringBuilder sb = new StringBuilder();
            do {
                String replacement = replacer.apply(this);
                appendReplacement(sb, replacement);
                result = find();
            } while (result);
            appendTail(sb);
            return sb.toString();
        }
        return text.toString();
    }

    public String replaceFirst(String replacement) {
        if (replacement == null) throw new NullPointerException("replacement");
        reset();
        if (!find()) return text.toString();
        StringBuilder sb = new StringBuilder();
        appendReplacement(sb, replacement);
        appendTail(sb);
        return sb.toString();
    }

    public String replaceFirst(Function<MatchResult, String> replacer) {
        reset();
        if (!find()) return text.toString();
        StringBuilder sb = new StringBuilder();
        appendReplacement(sb, replacer.apply(this));
        appendTail(sb);
        return sb.toString();
    }

    public java.util.stream.Stream<MatchResult> results() {
        reset();
        List<MatchResult> all = new ArrayList<>();
        while (find()) all.add(toMatchResult());
        return all.stream();
    }

    public String toString() {
        return "java.util.regex.Matcher[pattern=" + pattern() + " region=" + regionStart() + "," + regionEnd() + " lastmatch=" + ((first >= 0) ? group() : "") + "]";
    }
}
