package java.nio;

/** Only the type exists (for Readable): rvm has no java.nio buffers. */
public abstract class CharBuffer {
    private CharBuffer() {}
}
