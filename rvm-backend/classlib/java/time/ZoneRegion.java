package java.time;

import java.time.zone.ZoneRules;
import java.time.zone.ZoneRulesException;
import java.util.Set;
import java.util.TreeSet;

/** A region-based zone ID; rvm knows only the regions with one fixed offset (see {@link ZoneId}). */
final class ZoneRegion extends ZoneId {
    private static final String[] UTC_IDS = {
        "Etc/UTC", "Etc/UCT", "Etc/GMT", "Etc/GMT0", "Etc/GMT+0", "Etc/GMT-0", "Etc/Greenwich",
        "Etc/Universal", "Etc/Zulu", "GMT", "GMT0", "Greenwich", "UCT", "UTC", "Universal", "Zulu",
    };

    private final String id;
    private final ZoneRules rules;

    ZoneRegion(String id, ZoneRules rules) {
        this.id = id;
        this.rules = rules;
    }

    static ZoneRegion utc(String id) { return new ZoneRegion(id, ZoneOffset.UTC.getRules()); }

    static ZoneRegion ofId(String zoneId) {
        if (zoneId == null) throw new NullPointerException("zoneId");
        checkName(zoneId);
        ZoneOffset fixed = fixedOffset(zoneId);
        if (fixed == null) throw new ZoneRulesException("Unknown time-zone ID: " + zoneId);
        return new ZoneRegion(zoneId, fixed.getRules());
    }

    /** The offset of a known fixed region, or null. */
    private static ZoneOffset fixedOffset(String zoneId) {
        for (String u : UTC_IDS) if (u.equals(zoneId)) return ZoneOffset.UTC;
        if (zoneId.startsWith("Etc/GMT") && zoneId.length() > 8) {
            char sign = zoneId.charAt(7);
            String digits = zoneId.substring(8);
            if ((sign == '+' || sign == '-') && digits.length() <= 2 && (digits.length() == 1 || digits.charAt(0) != '0')) {
                int h = 0;
                for (int i = 0; i < digits.length(); i++) {
                    char c = digits.charAt(i);
                    if (c < '0' || c > '9') return null;
                    h = h * 10 + (c - '0');
                }
                // POSIX style: Etc/GMT+5 is five hours behind UTC.
                if (sign == '+' && h <= 12) return ZoneOffset.ofHours(-h);
                if (sign == '-' && h <= 14) return ZoneOffset.ofHours(h);
            }
        }
        return null;
    }

    static Set<String> availableIds() {
        Set<String> s = new TreeSet<>();
        for (String u : UTC_IDS) s.add(u);
        for (int h = 1; h <= 12; h++) s.add("Etc/GMT+" + h);
        for (int h = 1; h <= 14; h++) s.add("Etc/GMT-" + h);
        return s;
    }

    private static void checkName(String zoneId) {
        int n = zoneId.length();
        if (n < 2) throw new DateTimeException("Invalid ID for region-based ZoneId, invalid format: " + zoneId);
        for (int i = 0; i < n; i++) {
            char c = zoneId.charAt(i);
            if (c >= 'a' && c <= 'z') continue;
            if (c >= 'A' && c <= 'Z') continue;
            if (c == '/' && i != 0) continue;
            if (c >= '0' && c <= '9' && i != 0) continue;
            if (c == '~' && i != 0) continue;
            if (c == '.' && i != 0) continue;
            if (c == '_' && i != 0) continue;
            if (c == '+' && i != 0) continue;
            if (c == '-' && i != 0) continue;
            throw new DateTimeException("Invalid ID for region-based ZoneId, invalid format: " + zoneId);
        }
    }

    @Override
    public String getId() { return id; }
    @Override
    public ZoneRules getRules() { return rules; }
}
