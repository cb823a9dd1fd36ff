package java.nio.file;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import jdk.internal.rvm.FileIO;

/** The common file operations over rvm's file natives; failures raise the JDK's exceptions. */
public final class Files {
    private Files() {}

    /** The IOException for a failed open: NoSuchFileException, AccessDeniedException, ... */
    private static IOException translate(Path path, FileNotFoundException e) {
        String m = e.getMessage();
        String p = path.toString();
        if (m != null && m.endsWith("(No such file or directory)")) return new NoSuchFileException(p);
        if (m != null && m.endsWith("(Permission denied)")) return new AccessDeniedException(p);
        if (m != null && m.endsWith("(Is a directory)")) return new FileSystemException(p, null, "Is a directory");
        return new FileSystemException(p, null, m);
    }

    public static InputStream newInputStream(Path path, OpenOption... options) throws IOException {
        try {
            return new FileInputStream(path.toString());
        } catch (FileNotFoundException e) {
            throw translate(path, e);
        }
    }
    public static OutputStream newOutputStream(Path path, OpenOption... options) throws IOException {
        List<OpenOption> opts = Arrays.asList(options);
        try {
            if (opts.contains(StandardOpenOption.CREATE_NEW)) return new FileOutputStream(path.toString(), 3, null);
            if (!opts.isEmpty() && !opts.contains(StandardOpenOption.CREATE) && FileIO.stat(path.toString()) < 0) throw new NoSuchFileException(path.toString());
            return new FileOutputStream(path.toString(), opts.contains(StandardOpenOption.APPEND));
        } catch (FileNotFoundException e) {
            throw translate(path, e);
        }
    }
    public static BufferedReader newBufferedReader(Path path, Charset cs) throws IOException { return new BufferedReader(new InputStreamReader(newInputStream(path), cs)); }
    public static BufferedReader newBufferedReader(Path path) throws IOException { return newBufferedReader(path, StandardCharsets.UTF_8); }
    public static BufferedWriter newBufferedWriter(Path path, Charset cs, OpenOption... options) throws IOException { return new BufferedWriter(new OutputStreamWriter(newOutputStream(path, options), cs)); }
    public static BufferedWriter newBufferedWriter(Path path, OpenOption... options) throws IOException { return newBufferedWriter(path, StandardCharsets.UTF_8, options); }

    public static byte[] readAllBytes(Path path) throws IOException {
        try (InputStream in = newInputStream(path)) {
            return in.readAllBytes();
        }
    }
    public static String readString(Path path) throws IOException { return readString(path, StandardCharsets.UTF_8); }
    public static String readString(Path path, Charset cs) throws IOException { return new String(readAllBytes(path), cs); }
    public static List<String> readAllLines(Path path, Charset cs) throws IOException {
        try (BufferedReader reader = newBufferedReader(path, cs)) {
            List<String> result = new ArrayList<>();
            for (;;) {
                String line = reader.readLine();
                if (line == null) break;
                result.add(line);
            }
            return result;
        }
    }
    public static List<String> readAllLines(Path path) throws IOException { return readAllLines(path, StandardCharsets.UTF_8); }
    public static Stream<String> lines(Path path, Charset cs) throws IOException {
        BufferedReader br = newBufferedReader(path, cs);
        return br.lines().onClose(() -> {
            try {
                br.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
    public static Stream<String> lines(Path path) throws IOException { return lines(path, StandardCharsets.UTF_8); }

    public static Path write(Path path, byte[] bytes, OpenOption... options) throws IOException {
        try (OutputStream out = newOutputStream(path, options)) {
            out.write(bytes, 0, bytes.length);
        }
        return path;
    }
    public static Path write(Path path, Iterable<? extends CharSequence> lines, Charset cs, OpenOption... options) throws IOException {
        try (BufferedWriter writer = newBufferedWriter(path, cs, options)) {
            for (CharSequence line : lines) {
                writer.append(line);
                writer.newLine();
            }
        }
        return path;
    }
    public static Path write(Path path, Iterable<? extends CharSequence> lines, OpenOption... options) throws IOException { return write(path, lines, StandardCharsets.UTF_8, options); }
    public static Path writeString(Path path, CharSequence csq, OpenOption... options) throws IOException { return writeString(path, csq, StandardCharsets.UTF_8, options); }
    public static Path writeString(Path path, CharSequence csq, Charset cs, OpenOption... options) throws IOException {
        return write(path, String.valueOf(csq).getBytes(cs), options);
    }

    public static boolean exists(Path path, LinkOption... options) { return FileIO.stat(path.toString()) >= 0; }
    public static boolean notExists(Path path, LinkOption... options) { return !exists(path); }
    public static boolean isDirectory(Path path, LinkOption... options) { int s = FileIO.stat(path.toString()); return s >= 0 && (s & 1) != 0; }
    public static boolean isRegularFile(Path path, LinkOption... options) { int s = FileIO.stat(path.toString()); return s >= 0 && (s & 2) != 0; }
    public static boolean isReadable(Path path) { int s = FileIO.stat(path.toString()); return s >= 0 && (s & 4) != 0; }
    public static boolean isWritable(Path path) { int s = FileIO.stat(path.toString()); return s >= 0 && (s & 8) != 0; }
    public static boolean isExecutable(Path path) { int s = FileIO.stat(path.toString()); return s >= 0 && (s & 16) != 0; }
    public static boolean isHidden(Path path) throws IOException { Path n = path.getFileName(); return n != null && n.toString().startsWith("."); }
    public static boolean isSameFile(Path path, Path path2) throws IOException { return path.equals(path2) || path.toRealPath().equals(path2.toRealPath()); }

    public static long size(Path path) throws IOException {
        if (!exists(path)) throw new NoSuchFileException(path.toString());
        return FileIO.length(path.toString());
    }

    public static void delete(Path path) throws IOException {
        String why = FileIO.delete(path.toString());
        if (why == null) return;
        if (why.equals("NoSuchFile")) throw new NoSuchFileException(path.toString());
        if (why.equals("DirectoryNotEmpty")) throw new DirectoryNotEmptyException(path.toString());
        throw new FileSystemException(path.toString(), null, why);
    }
    public static boolean deleteIfExists(Path path) throws IOException {
        try {
            delete(path);
            return true;
        } catch (NoSuchFileException e) {
            return false;
        }
    }

    public static Path createFile(Path path, java.nio.file.attribute.FileAttribute<?>... attrs) throws IOException {
        new FileOutputStream(path.toString(), 3, null).close();
        return path;
    }
    public static Path createDirectory(Path dir, java.nio.file.attribute.FileAttribute<?>... attrs) throws IOException {
        if (FileIO.mkdir(dir.toString())) return dir;
        if (exists(dir)) throw new FileAlreadyExistsException(dir.toString());
        throw new NoSuchFileException(dir.toString());
    }
    public static Path createDirectories(Path dir, java.nio.file.attribute.FileAttribute<?>... attrs) throws IOException {
        if (isDirectory(dir)) return dir;
        Path parent = dir.toAbsolutePath().getParent();
        if (parent != null) createDirectories(parent);
        if (!FileIO.mkdir(dir.toString()) && !isDirectory(dir)) {
            if (exists(dir)) throw new FileAlreadyExistsException(dir.toString());
            throw new FileSystemException(dir.toString(), null, "cannot create directory");
        }
        return dir;
    }

    private static Path tempDir() { return Path.of(System.getProperty("java.io.tmpdir")); }
    private static String randomName(String prefix, String suffix) {
        long n = java.util.concurrent.ThreadLocalRandom.current().nextLong();
        return (prefix == null ? "" : prefix) + Long.toUnsignedString(n) + (suffix == null ? ".tmp" : suffix);
    }
    public static Path createTempFile(Path dir, String prefix, String suffix, java.nio.file.attribute.FileAttribute<?>... attrs) throws IOException {
        while (true) {
            Path p = dir.resolve(randomName(prefix, suffix));
            try {
                return createFile(p);
            } catch (FileAlreadyExistsException e) {
                // another name
            }
        }
    }
    public static Path createTempFile(String prefix, String suffix, java.nio.file.attribute.FileAttribute<?>... attrs) throws IOException {
        return createTempFile(tempDir(), prefix, suffix);
    }
    public static Path createTempDirectory(Path dir, String prefix, java.nio.file.attribute.FileAttribute<?>... attrs) throws IOException {
        while (true) {
            Path p = dir.resolve(randomName(prefix, ""));
            if (FileIO.mkdir(p.toString())) return p;
            if (!exists(p)) throw new NoSuchFileException(dir.toString());
        }
    }
    public static Path createTempDirectory(String prefix, java.nio.file.attribute.FileAttribute<?>... attrs) throws IOException {
        return createTempDirectory(tempDir(), prefix);
    }

    public static Path copy(Path source, Path target, CopyOption... options) throws IOException {
        boolean replace = Arrays.asList(options).contains(StandardCopyOption.REPLACE_EXISTING);
        if (!replace && exists(target)) throw new FileAlreadyExistsException(target.toString());
        byte[] b = readAllBytes(source);
        write(target, b);
        return target;
    }
    public static long copy(InputStream in, Path target, CopyOption... options) throws IOException {
        boolean replace = Arrays.asList(options).contains(StandardCopyOption.REPLACE_EXISTING);
        if (!replace && exists(target)) throw new FileAlreadyExistsException(target.toString());
        try (OutputStream out = newOutputStream(target)) {
            return in.transferTo(out);
        }
    }
    public static long copy(Path source, OutputStream out) throws IOException {
        try (InputStream in = newInputStream(source)) {
            return in.transferTo(out);
        }
    }
    public static Path move(Path source, Path target, CopyOption... options) throws IOException {
        boolean replace = Arrays.asList(options).contains(StandardCopyOption.REPLACE_EXISTING);
        if (!exists(source)) throw new NoSuchFileException(source.toString());
        if (!replace && exists(target)) throw new FileAlreadyExistsException(target.toString());
        if (!FileIO.rename(source.toString(), target.toString())) throw new FileSystemException(source.toString(), target.toString(), "cannot move");
        return target;
    }
    /** The entries of a directory, in the order the OS lists them (as on HotSpot). */
    public static Stream<Path> list(Path dir) throws IOException {
        String[] names = FileIO.list(dir.toString());
        if (names == null) {
            if (!exists(dir)) throw new NoSuchFileException(dir.toString());
            throw new NotDirectoryException(dir.toString());
        }
        List<Path> out = new ArrayList<>();
        for (String n : names) out.add(dir.resolve(n));
        return out.stream();
    }
    public static long getLastModifiedMillis(Path path) { return FileIO.lastModified(path.toString()); }
}
