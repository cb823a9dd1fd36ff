package java.time;

import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalQueries;
import java.time.zone.ZoneRules;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * A time-zone ID: a {@link ZoneOffset} or a region ({@code ZoneRegion}). rvm has no time-zone
 * database: the regions it knows are UTC and its aliases ({@code Etc/UTC}, {@code GMT}, {@code Zulu},
 * ...), {@code Etc/GMT+n}/{@code Etc/GMT-n} and the prefixed offsets ({@code UTC+01:00}); any other
 * region is a {@code ZoneRulesException}, as an unknown ID is on the JDK.
 */
public abstract class ZoneId implements java.io.Serializable {
    public static final Map<String, String> SHORT_IDS;
    static {
        Map<String, String> m = new HashMap<>();
        m.put("ACT", "Australia/Darwin");
        m.put("AET", "Australia/Sydney");
        m.put("AGT", "America/Argentina/Buenos_Aires");
        m.put("ART", "Africa/Cairo");
        m.put("AST", "America/Anchorage");
        m.put("BET", "America/Sao_Paulo");
        m.put("BST", "Asia/Dhaka");
        m.put("CAT", "Africa/Harare");
        m.put("CNT", "America/St_Johns");
        m.put("CST", "America/Chicago");
        m.put("CTT", "Asia/Shanghai");
        m.put("EAT", "Africa/Addis_Ababa");
        m.put("ECT", "Europe/Paris");
        m.put("IET", "America/Indiana/Indianapolis");
        m.put("IST", "Asia/Kolkata");
        m.put("JST", "Asia/Tokyo");
        m.put("MIT", "Pacific/Apia");
        m.put("NET", "Asia/Yerevan");
        m.put("NST", "Pacific/Auckland");
        m.put("PLT", "Asia/Karachi");
        m.put("PNT", "America/Phoenix");
        m.put("PRT", "America/Puerto_Rico");
        m.put("PST", "America/Los_Angeles");
        m.put("SST", "Pacific/Guadalcanal");
        m.put("VST", "Asia/Ho_Chi_Minh");
        m.put("EST", "-05:00");
        m.put("MST", "-07:00");
        m.put("HST", "-10:00");
        SHORT_IDS = Collections.unmodifiableMap(m);
    }

    ZoneId() {}

    /**
     * The default time zone's ID, {@code TimeZone.getDefault().toZoneId()}: the zone in {@code TZ}
     * or, without it, the target of the {@code /etc/localtime} link ({@code Etc/UTC}), when rvm
     * knows it; a zone rvm does not know (one with daylight saving or historical changes) is
     * replaced by UTC.
     */
    public static ZoneId systemDefault() {
        return java.util.TimeZone.getDefault().toZoneId();
    }

    public static Set<String> getAvailableZoneIds() { return ZoneRegion.availableIds(); }

    public static ZoneId of(String zoneId, Map<String, String> aliasMap) {
        if (zoneId == null) throw new NullPointerException("zoneId");
        if (aliasMap == null) throw new NullPointerException("aliasMap");
        String id = aliasMap.get(zoneId);
        return of(id != null ? id : zoneId);
    }

    public static ZoneId of(String zoneId) {
        if (zoneId == null) throw new NullPointerException("zoneId");
        if (zoneId.length() <= 1 || zoneId.startsWith("+") || zoneId.startsWith("-")) return ZoneOffset.of(zoneId);
        if (zoneId.startsWith("UTC") || zoneId.startsWith("GMT")) return ofWithPrefix(zoneId, 3);
        if (zoneId.startsWith("UT")) return ofWithPrefix(zoneId, 2);
        return ZoneRegion.ofId(zoneId);
    }

    public static ZoneId ofOffset(String prefix, ZoneOffset offset) {
        if (prefix == null) throw new NullPointerException("prefix");
        if (offset == null) throw new NullPointerException("offset");
        if (prefix.isEmpty()) return offset;
        if (!prefix.equals("GMT") && !prefix.equals("UTC") && !prefix.equals("UT"))
            throw new IllegalArgumentException("prefix should be GMT, UTC or UT, is: " + prefix);
        if (offset.getTotalSeconds() != 0) prefix = prefix.concat(offset.getId());
        return new ZoneRegion(prefix, offset.getRules());
    }

    private static ZoneId ofWithPrefix(String zoneId, int prefixLength) {
        String prefix = zoneId.substring(0, prefixLength);
        if (zoneId.length() == prefixLength) return ofOffset(prefix, ZoneOffset.UTC);
        if (zoneId.charAt(prefixLength) != '+' && zoneId.charAt(prefixLength) != '-') return ZoneRegion.ofId(zoneId);
        try {
            ZoneOffset offset = ZoneOffset.of(zoneId.substring(prefixLength));
            return ofOffset(prefix, offset);
        } catch (DateTimeException ex) {
            throw new DateTimeException("Invalid ID for offset-based ZoneId: " + zoneId, ex);
        }
    }

    public static ZoneId from(TemporalAccessor temporal) {
        ZoneId obj = temporal.query(TemporalQueries.zone());
        if (obj == null) throw new DateTimeException("Unable to obtain ZoneId from TemporalAccessor: " + temporal + " of type " + temporal.getClass().getName());
        return obj;
    }

    public abstract String getId();
    public abstract ZoneRules getRules();

    public ZoneId normalized() {
        ZoneRules rules = getRules();
        if (rules.isFixedOffset()) return rules.getOffset(Instant.EPOCH);
        return this;
    }

    @Override
    public boolean equals(Object obj) {
        if (this == obj) return true;
        return obj instanceof ZoneId && getId().equals(((ZoneId) obj).getId());
    }
    @Override
    public int hashCode() { return getId().hashCode(); }
    @Override
    public String toString() { return getId(); }
}
