package java.io;

import jdk.internal.rvm.FileIO;

public class FileInputStream extends InputStream {
    private final String path;
    private int handle;
    private boolean closed;

    public FileInputStream(String name) throws FileNotFoundException { this(name != null ? new File(name) : null); }
    public FileInputStream(File file) throws FileNotFoundException {
        if (file == null) throw new NullPointerException();
        path = file.getPath();
        handle = FileIO.open(path, 0);
    }
    private void check() throws IOException { if (closed) throw new IOException("Stream Closed"); }
    public int read() throws IOException {
        byte[] b = new byte[1];
        int n = read(b, 0, 1);
        return n <= 0 ? -1 : b[0] & 0xff;
    }
    public int read(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        check();
        return FileIO.read(handle, b, off, len);
    }
    public long skip(long n) throws IOException { check(); return FileIO.skip(handle, n); }
    public int available() throws IOException { check(); return FileIO.available(handle); }
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            FileIO.close(handle);
        }
    }
}
