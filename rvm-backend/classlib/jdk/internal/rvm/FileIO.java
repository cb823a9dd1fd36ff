package jdk.internal.rvm;

/** The file natives (rvm's fileio.rs): an open file is an int handle. */
public final class FileIO {
    private FileIO() {}
    public static native int open(String path, int mode);
    public static native int read(int handle, byte[] b, int off, int len);
    public static native void write(int handle, byte[] b, int off, int len);
    public static native void close(int handle);
    public static native int available(int handle);
    public static native long skip(int handle, long n);
    public static native int stat(String path);
    public static native long length(String path);
    public static native long lastModified(String path);
    public static native String delete(String path);
    public static native boolean mkdir(String path);
    public static native boolean rename(String from, String to);
    public static native String[] list(String path);
    public static native String canonical(String path);
    public static native String cwd();
    public static native String tempDir();
    public static native String getenv(String name);
    public static native String homeDir();
    public static native String userName();
}
