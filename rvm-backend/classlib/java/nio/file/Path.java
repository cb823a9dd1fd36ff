package java.nio.file;

import java.io.File;
import java.util.Iterator;

public interface Path extends Comparable<Path>, Iterable<Path> {
    static Path of(String first, String... more) { return UnixPath.of(first, more); }
    boolean isAbsolute();
    Path getRoot();
    Path getFileName();
    Path getParent();
    int getNameCount();
    Path getName(int index);
    Path subpath(int beginIndex, int endIndex);
    boolean startsWith(Path other);
    default boolean startsWith(String other) { return startsWith(of(other)); }
    boolean endsWith(Path other);
    default boolean endsWith(String other) { return endsWith(of(other)); }
    Path normalize();
    Path resolve(Path other);
    default Path resolve(String other) { return resolve(of(other)); }
    default Path resolveSibling(Path other) {
        Path parent = getParent();
        return (parent == null) ? other : parent.resolve(other);
    }
    default Path resolveSibling(String other) { return resolveSibling(of(other)); }
    Path relativize(Path other);
    Path toAbsolutePath();
    Path toRealPath(LinkOption... options) throws java.io.IOException;
    default File toFile() { return new File(toString()); }
    default Iterator<Path> iterator() {
        return new Iterator<>() {
            private int i = 0;
            public boolean hasNext() { return (i < getNameCount()); }
            public Path next() {
                if (i < getNameCount()) return getName(i++);
                throw new java.util.NoSuchElementException();
            }
        };
    }
    FileSystem getFileSystem();
    int compareTo(Path other);
    boolean equals(Object other);
    int hashCode();
    String toString();
}
