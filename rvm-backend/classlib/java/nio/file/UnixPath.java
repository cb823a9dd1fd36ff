package java.nio.file;

import java.util.ArrayList;
import java.util.Arrays;

/** A path as the JDK's UnixPath: redundant slashes removed, names split on '/'. */
final class UnixPath implements Path {
    private final String path;
    private String[] names;

    private UnixPath(String path) { this.path = path; }

    static UnixPath of(String first, String... more) {
        StringBuilder sb = new StringBuilder(first);
        for (String segment : more) {
            if (!segment.isEmpty()) {
                if (sb.length() > 0) sb.append('/');
                sb.append(segment);
            }
        }
        return new UnixPath(normalizeAndCheck(sb.toString()));
    }

    static String normalizeAndCheck(String input) {
        int n = input.length();
        StringBuilder sb = new StringBuilder(n);
        char prev = 0;
        for (int i = 0; i < n; i++) {
            char c = input.charAt(i);
            if (c == '\u0000') throw new InvalidPathException(input, "Nul character not allowed");
            if (c == '/' && prev == '/') continue;
            sb.append(c);
            prev = c;
        }
        if (sb.length() > 1 && sb.charAt(sb.length() - 1) == '/') sb.setLength(sb.length() - 1);
        return sb.toString();
    }

    private String[] names() {
        if (names == null) {
            if (path.isEmpty()) names = new String[] { "" };
            else {
                ArrayList<String> l = new ArrayList<>();
                for (String s : path.split("/")) if (!s.isEmpty()) l.add(s);
                names = l.toArray(new String[0]);
            }
        }
        return names;
    }

    public boolean isAbsolute() { return path.startsWith("/"); }
    public Path getRoot() { return isAbsolute() ? new UnixPath("/") : null; }
    public Path getFileName() {
        if (path.equals("/")) return null;
        if (path.isEmpty()) return this;
        String[] ns = names();
        return new UnixPath(ns[ns.length - 1]);
    }
    public Path getParent() {
        String[] ns = names();
        if (ns.length == 0) return null;
        if (ns.length == 1) return isAbsolute() ? getRoot() : null;
        int k = path.lastIndexOf('/');
        return new UnixPath(k == 0 ? "/" : path.substring(0, k));
    }
    public int getNameCount() { return names().length; }
    public Path getName(int index) {
        String[] ns = names();
        if (index < 0 || index >= ns.length) throw new IllegalArgumentException();
        return new UnixPath(ns[index]);
    }
    public Path subpath(int beginIndex, int endIndex) {
        String[] ns = names();
        if (beginIndex < 0 || beginIndex >= ns.length || endIndex > ns.length || beginIndex >= endIndex) throw new IllegalArgumentException();
        return new UnixPath(String.join("/", Arrays.asList(ns).subList(beginIndex, endIndex)));
    }
    public boolean startsWith(Path other) {
        UnixPath o = (UnixPath) other;
        if (o.isAbsolute() != isAbsolute()) return false;
        String[] a = names(), b = o.names();
        if (o.path.isEmpty()) return path.isEmpty();
        if (b.length > a.length) return false;
        for (int i = 0; i < b.length; i++) if (!a[i].equals(b[i])) return false;
        return true;
    }
    public boolean endsWith(Path other) {
        UnixPath o = (UnixPath) other;
        if (o.isAbsolute()) return o.path.equals(path);
        String[] a = names(), b = o.names();
        if (b.length > a.length) return false;
        for (int i = 0; i < b.length; i++) if (!a[a.length - b.length + i].equals(b[i])) return false;
        return true;
    }
    public Path normalize() {
        ArrayList<String> out = new ArrayList<>();
        for (String s : names()) {
            if (s.equals(".") || s.isEmpty()) continue;
            if (s.equals("..")) {
                if (!out.isEmpty() && !out.get(out.size() - 1).equals("..")) { out.remove(out.size() - 1); continue; }
                if (isAbsolute()) continue;
            }
            out.add(s);
        }
        String joined = String.join("/", out);
        return new UnixPath(isAbsolute() ? "/" + joined : joined);
    }
    public Path resolve(Path other) {
        UnixPath o = (UnixPath) other;
        if (o.isAbsolute()) return o;
        if (o.path.isEmpty()) return this;
        if (path.isEmpty()) return o;
        return new UnixPath(path.equals("/") ? "/" + o.path : path + "/" + o.path);
    }
    public Path relativize(Path other) {
        UnixPath o = (UnixPath) other;
        if (o.isAbsolute() != isAbsolute()) throw new IllegalArgumentException("'other' is different type of Path");
        if (o.path.equals(path)) return new UnixPath("");
        String[] a = path.isEmpty() ? new String[0] : names(), b = o.path.isEmpty() ? new String[0] : o.names();
        int i = 0;
        while (i < a.length && i < b.length && a[i].equals(b[i])) i++;
        ArrayList<String> out = new ArrayList<>();
        for (int k = i; k < a.length; k++) out.add("..");
        for (int k = i; k < b.length; k++) out.add(b[k]);
        return new UnixPath(String.join("/", out));
    }
    public Path toAbsolutePath() {
        if (isAbsolute()) return this;
        String cwd = System.getProperty("user.dir");
        return new UnixPath(path.isEmpty() ? cwd : normalizeAndCheck(cwd + "/" + path));
    }
    public Path toRealPath(LinkOption... options) throws java.io.IOException {
        String c = jdk.internal.rvm.FileIO.canonical(toAbsolutePath().toString());
        if (c == null) throw new NoSuchFileException(path);
        return new UnixPath(c);
    }
    public FileSystem getFileSystem() { return FileSystems.DEFAULT; }
    public int compareTo(Path other) { return path.compareTo(((UnixPath) other).path); }
    public boolean equals(Object ob) { return ob instanceof UnixPath && ((UnixPath) ob).path.equals(path); }
    public int hashCode() { return path.hashCode(); }
    public String toString() { return path; }
}
