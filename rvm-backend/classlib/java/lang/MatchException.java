package java.lang;

/** Thrown by an exhaustive switch or a record pattern when no case matches at run time (an
 *  accessor that throws, a class changed after compilation). */
public final class MatchException extends RuntimeException {
    public MatchException(String message, Throwable cause) { super(message, cause); }
}
