package java.nio.file;

public class DirectoryNotEmptyException extends FileSystemException {
    public DirectoryNotEmptyException(String file) { super(file); }
    public DirectoryNotEmptyException(String file, String other, String reason) { super(file, other, reason); }
}
