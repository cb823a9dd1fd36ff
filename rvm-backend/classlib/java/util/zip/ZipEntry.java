package java.util.zip;

/** An entry of a zip archive: its name, method, sizes and CRC as its header gives them. */
public class ZipEntry implements Cloneable {
    public static final int STORED = 0;
    public static final int DEFLATED = 8;
    String name;
    long time = -1, crc = -1, size = -1, csize = -1;
    int method = -1, flag;
    byte[] extra;
    String comment;

    public ZipEntry(String name) {
        if (name == null) throw new NullPointerException("name");
        if (name.length() > 0xFFFF) throw new IllegalArgumentException("entry name too long");
        this.name = name;
    }
    public ZipEntry(ZipEntry e) {
        name = e.name; time = e.time; crc = e.crc; size = e.size; csize = e.csize;
        method = e.method; flag = e.flag; extra = e.extra; comment = e.comment;
    }

    public String getName() { return name; }
    public void setTime(long time) { this.time = time; }
    public long getTime() { return time; }
    public void setSize(long size) {
        if (size < 0) throw new IllegalArgumentException("invalid entry size");
        this.size = size;
    }
    public long getSize() { return size; }
    public long getCompressedSize() { return csize; }
    public void setCompressedSize(long csize) { this.csize = csize; }
    public void setCrc(long crc) {
        if (crc < 0 || crc > 0xFFFFFFFFL) throw new IllegalArgumentException("invalid entry crc-32");
        this.crc = crc;
    }
    public long getCrc() { return crc; }
    public void setMethod(int method) {
        if (method != STORED && method != DEFLATED) throw new IllegalArgumentException("invalid compression method");
        this.method = method;
    }
    public int getMethod() { return method; }
    public void setExtra(byte[] extra) { this.extra = extra; }
    public byte[] getExtra() { return extra; }
    public void setComment(String comment) { this.comment = comment; }
    public String getComment() { return comment; }
    public boolean isDirectory() { return name.endsWith("/"); }
    public String toString() { return getName(); }
    public int hashCode() { return name.hashCode(); }
    /** Object.clone (so a subclass's clone is of the subclass, its fields copied) with its own copy of
     * the extra field's bytes, as the JDK's. */
    public Object clone() {
        try {
            ZipEntry e = (ZipEntry) super.clone();
            e.extra = (extra == null) ? null : extra.clone();
            return e;
        } catch (CloneNotSupportedException e) {
            throw new InternalError(e);
        }
    }
}
