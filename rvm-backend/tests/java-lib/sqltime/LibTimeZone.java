import java.sql.Timestamp;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.TimeZone;

/** java.util.TimeZone's fixed zones: IDs (custom GMT offsets, UTC aliases, unknown ones), offsets, ZoneId both ways, setDefault (run in UTC). */
public class LibTimeZone {
    public static void main(String[] args) {
        for (String id : new String[] {"UTC", "GMT", "Etc/UTC", "Etc/GMT+5", "GMT+5", "GMT-0530", "GMT+05:30", "GMT+5:3", "GMT+24", "GMT+", "+01:00", "UTC+01:00", "Z", "Nowhere/Atall", "GMT0", "Zulu"}) {
            TimeZone tz = TimeZone.getTimeZone(id);
            System.out.println(id + ": " + tz.getID() + " raw " + tz.getRawOffset() + " at 0 " + tz.getOffset(0L) + " dst " + tz.useDaylightTime() + "/" + tz.getDSTSavings()
                    + " zone " + tz.toZoneId() + " same as UTC " + tz.hasSameRules(TimeZone.getTimeZone("UTC")));
        }
        for (ZoneId z : new ZoneId[] {ZoneOffset.UTC, ZoneOffset.ofHours(3), ZoneOffset.ofHoursMinutes(-9, -30), ZoneId.of("UTC"), ZoneId.of("GMT+02:00"), ZoneId.of("Etc/GMT-7")}) {
            TimeZone tz = TimeZone.getTimeZone(z);
            System.out.println("from " + z + ": " + tz.getID() + " " + tz.getRawOffset());
        }
        System.out.println("default " + TimeZone.getDefault().getID() + " " + ZoneId.systemDefault() + " " + new Timestamp(0));
        TimeZone.setDefault(TimeZone.getTimeZone("GMT+02:00"));
        System.out.println("set " + TimeZone.getDefault().getID() + " " + ZoneId.systemDefault() + " " + new Timestamp(0) + " " + java.sql.Date.valueOf("2024-02-29").getTime()
                + " " + java.sql.Time.valueOf("00:00:00").getTime());
        TimeZone.setDefault(null);
        System.out.println("reset " + TimeZone.getDefault().getID() + " " + ZoneId.systemDefault());
    }
}
