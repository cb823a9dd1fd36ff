package java.nio.file;

/** The one file system: the host's, with '/' separators. */
public abstract class FileSystem implements java.io.Closeable {
    protected FileSystem() {}
    public abstract String getSeparator();
    public abstract Path getPath(String first, String... more);
    public boolean isOpen() { return true; }
    public boolean isReadOnly() { return false; }
    public void close() throws java.io.IOException { throw new UnsupportedOperationException(); }
}
