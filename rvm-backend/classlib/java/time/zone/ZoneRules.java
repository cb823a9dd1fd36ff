package java.time.zone;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.List;

/**
 * The rules of a time zone. rvm has no time-zone database: every zone it knows (UTC, its aliases,
 * fixed offsets, {@code Etc/GMT+n}) has one offset for all time, so these are the JDK's fixed rules.
 */
public final class ZoneRules implements java.io.Serializable {
    private final ZoneOffset offset;

    private ZoneRules(ZoneOffset offset) { this.offset = offset; }

    public static ZoneRules of(ZoneOffset offset) {
        if (offset == null) throw new NullPointerException("offset");
        return new ZoneRules(offset);
    }

    public boolean isFixedOffset() { return true; }
    public ZoneOffset getOffset(Instant instant) { return offset; }
    public ZoneOffset getOffset(LocalDateTime localDateTime) { return offset; }
    public List<ZoneOffset> getValidOffsets(LocalDateTime localDateTime) { return Collections.singletonList(offset); }
    public boolean isValidOffset(LocalDateTime localDateTime, ZoneOffset o) { return offset.equals(o); }
    public ZoneOffset getStandardOffset(Instant instant) { return offset; }
    public java.time.Duration getDaylightSavings(Instant instant) { return java.time.Duration.ZERO; }
    public boolean isDaylightSavings(Instant instant) { return false; }
    public List<Object> getTransitions() { return Collections.emptyList(); }
    public List<Object> getTransitionRules() { return Collections.emptyList(); }

    @Override
    public boolean equals(Object o) {
        return this == o || (o instanceof ZoneRules && offset.equals(((ZoneRules) o).offset));
    }
    @Override
    public int hashCode() { return offset.hashCode() ^ 1; }
    @Override
    public String toString() { return "ZoneRules[currentStandardOffset=" + offset + "]"; }
}
