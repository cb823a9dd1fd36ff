package java.nio.file;

public final class FileSystems {
    private FileSystems() {}
    static final FileSystem DEFAULT = new FileSystem() {
        public String getSeparator() { return "/"; }
        public Path getPath(String first, String... more) { return UnixPath.of(first, more); }
    };
    public static FileSystem getDefault() { return DEFAULT; }
}
