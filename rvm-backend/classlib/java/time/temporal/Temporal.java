package java.time.temporal;

/**
 * A date-time that can be adjusted. In rvm only the type exists (for the JDK's method descriptors,
 * such as {@code Duration.between(Temporal, Temporal)}); the generic {@code with}, {@code plus}
 * and {@code until} are not part of it: call the classes' own methods.
 */
public interface Temporal extends TemporalAccessor {
}
