package java.io;

import java.util.ArrayList;
import jdk.internal.rvm.FileIO;

/** Unix paths: '/' separated, normalised as the JDK's UnixFileSystem normalises them. */
public class File implements java.io.Serializable, Comparable<File> {
    public static final char separatorChar = '/';
    public static final String separator = "/";
    public static final char pathSeparatorChar = ':';
    public static final String pathSeparator = ":";

    private final String path;

    private static String normalize(String pathname) {
        int n = pathname.length();
        StringBuilder sb = new StringBuilder(n);
        char prev = 0;
        for (int i = 0; i < n; i++) {
            char c = pathname.charAt(i);
            if (c == '/' && prev == '/') continue;
            sb.append(c);
            prev = c;
        }
        if (sb.length() > 1 && sb.charAt(sb.length() - 1) == '/') sb.setLength(sb.length() - 1);
        return sb.toString();
    }

    public File(String pathname) {
        if (pathname == null) throw new NullPointerException();
        this.path = normalize(pathname);
    }
    public File(String parent, String child) {
        if (child == null) throw new NullPointerException();
        if (parent != null) {
            if (parent.isEmpty()) this.path = normalize("/" + child);
            else this.path = normalize(parent + "/" + child);
        } else {
            this.path = normalize(child);
        }
    }
    public File(File parent, String child) { this(parent == null ? null : parent.path, child); }

    public String getName() {
        int index = path.lastIndexOf(separatorChar);
        return path.substring(index + 1);
    }
    public String getParent() {
        int index = path.lastIndexOf(separatorChar);
        if (index < 0) return null;
        if (index == 0) return path.length() > 1 ? "/" : null;
        return path.substring(0, index);
    }
    public File getParentFile() {
        String p = getParent();
        return p == null ? null : new File(p);
    }
    public String getPath() { return path; }
    public boolean isAbsolute() { return path.startsWith("/"); }
    public String getAbsolutePath() {
        if (isAbsolute()) return path;
        String cwd = System.getProperty("user.dir");
        return path.isEmpty() ? cwd : normalize(cwd + "/" + path);
    }
    public File getAbsoluteFile() { return new File(getAbsolutePath()); }
    public String getCanonicalPath() throws IOException {
        String abs = getAbsolutePath();
        String c = FileIO.canonical(abs);
        if (c != null) return c;
        // not there: resolve "." and ".." textually
        ArrayList<String> parts = new ArrayList<>();
        for (String s : abs.split("/")) {
            if (s.isEmpty() || s.equals(".")) continue;
            if (s.equals("..")) { if (!parts.isEmpty()) parts.remove(parts.size() - 1); continue; }
            parts.add(s);
        }
        return "/" + String.join("/", parts);
    }
    public File getCanonicalFile() throws IOException { return new File(getCanonicalPath()); }
    public java.nio.file.Path toPath() { return java.nio.file.Path.of(path); }

    private int stat() { return FileIO.stat(path.isEmpty() ? "." : path); }
    public boolean exists() { return !path.isEmpty() && stat() >= 0; }
    public boolean isDirectory() { int s = stat(); return !path.isEmpty() && s >= 0 && (s & 1) != 0; }
    public boolean isFile() { int s = stat(); return !path.isEmpty() && s >= 0 && (s & 2) != 0; }
    public boolean isHidden() { return getName().startsWith("."); }
    public boolean canRead() { int s = stat(); return s >= 0 && (s & 4) != 0; }
    public boolean canWrite() { int s = stat(); return s >= 0 && (s & 8) != 0; }
    public boolean canExecute() { int s = stat(); return s >= 0 && (s & 16) != 0; }
    public long length() { return FileIO.length(path); }
    public long lastModified() { return FileIO.lastModified(path); }
    public boolean createNewFile() throws IOException {
        try {
            FileOutputStream out = new FileOutputStream(path, 3, null);
            out.close();
            return true;
        } catch (java.nio.file.FileAlreadyExistsException e) {
            return false;
        } catch (FileNotFoundException e) {
            String m = e.getMessage();
            int k = m.lastIndexOf(" (");
            throw new IOException(k >= 0 ? m.substring(k + 2, m.length() - 1) : m);
        }
    }
    public boolean delete() { return FileIO.delete(path) == null; }
    public void deleteOnExit() {}
    public String[] list() { return path.isEmpty() ? null : FileIO.list(path); }
    public File[] listFiles() {
        String[] ss = list();
        if (ss == null) return null;
        File[] fs = new File[ss.length];
        for (int i = 0; i < ss.length; i++) fs[i] = new File(this, ss[i]);
        return fs;
    }
    public File[] listFiles(FileFilter filter) {
        String[] ss = list();
        if (ss == null) return null;
        ArrayList<File> files = new ArrayList<>();
        for (String s : ss) {
            File f = new File(this, s);
            if (filter == null || filter.accept(f)) files.add(f);
        }
        return files.toArray(new File[0]);
    }
    public File[] listFiles(FilenameFilter filter) {
        String[] ss = list();
        if (ss == null) return null;
        ArrayList<File> files = new ArrayList<>();
        for (String s : ss) if (filter == null || filter.accept(this, s)) files.add(new File(this, s));
        return files.toArray(new File[0]);
    }
    public boolean mkdir() { return FileIO.mkdir(path); }
    public boolean mkdirs() {
        if (exists()) return false;
        if (mkdir()) return true;
        File canonFile;
        try {
            canonFile = getCanonicalFile();
        } catch (IOException e) {
            return false;
        }
        File parent = canonFile.getParentFile();
        return (parent != null && (parent.mkdirs() || parent.exists()) && canonFile.mkdir());
    }
    public boolean renameTo(File dest) { return FileIO.rename(path, dest.path); }
    public static File createTempFile(String prefix, String suffix) throws IOException { return createTempFile(prefix, suffix, null); }
    public static File createTempFile(String prefix, String suffix, File directory) throws IOException {
        if (prefix.length() < 3) throw new IllegalArgumentException("Prefix string \"" + prefix + "\" too short: length must be at least 3");
        if (suffix == null) suffix = ".tmp";
        File dir = directory != null ? directory : new File(System.getProperty("java.io.tmpdir"));
        while (true) {
            long n = java.util.concurrent.ThreadLocalRandom.current().nextLong();
            File f = new File(dir, prefix + Long.toUnsignedString(n) + suffix);
            if (f.createNewFile()) return f;
        }
    }
    public int compareTo(File pathname) { return path.compareTo(pathname.path); }
    public boolean equals(Object obj) { return obj instanceof File && compareTo((File) obj) == 0; }
    public int hashCode() { return path.hashCode() ^ 1234321; }
    public String toString() { return path; }
}
