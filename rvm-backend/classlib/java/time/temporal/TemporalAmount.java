package java.time.temporal;

/**
 * An amount of time, such as a {@code Duration}. In rvm only the type exists (for the JDK's method
 * descriptors, such as {@code Instant.plus(TemporalAmount)}); its generic methods are not part of it.
 */
public interface TemporalAmount {
}
