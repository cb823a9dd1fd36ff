package java.io;

import jdk.internal.rvm.FileIO;

public class FileOutputStream extends OutputStream {
    private int handle;
    private boolean closed;

    public FileOutputStream(String name) throws FileNotFoundException { this(name != null ? new File(name) : null, false); }
    public FileOutputStream(String name, boolean append) throws FileNotFoundException { this(name != null ? new File(name) : null, append); }
    public FileOutputStream(File file) throws FileNotFoundException { this(file, false); }
    public FileOutputStream(File file, boolean append) throws FileNotFoundException {
        if (file == null) throw new NullPointerException();
        handle = FileIO.open(file.getPath(), append ? 2 : 1);
    }
    /** For File.createNewFile and java.nio.file: mode 3 creates a new file only (FileAlreadyExistsException if it exists). */
    public FileOutputStream(String path, int mode, Void newFileOnly) throws IOException { handle = FileIO.open(path, mode); }
    public void write(int b) throws IOException { write(new byte[] { (byte) b }, 0, 1); }
    public void write(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        if (closed) throw new IOException("Stream Closed");
        FileIO.write(handle, b, off, len);
    }
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            FileIO.close(handle);
        }
    }
}
