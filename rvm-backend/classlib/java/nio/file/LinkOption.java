package java.nio.file;

public enum LinkOption implements OpenOption, CopyOption { NOFOLLOW_LINKS }
