package java.util;

/** A zone of one raw offset. rvm: without the daylight-saving rules of the JDK's other constructors. */
public class SimpleTimeZone extends TimeZone {
    private int rawOffset;

    public SimpleTimeZone(int rawOffset, String ID) {
        this.rawOffset = rawOffset;
        setID(ID);
    }

    @Override
    public int getOffset(int era, int year, int month, int day, int dayOfWeek, int millis) { return rawOffset; }
    @Override
    public int getOffset(long date) { return rawOffset; }
    @Override
    public void setRawOffset(int offsetMillis) { rawOffset = offsetMillis; }
    @Override
    public int getRawOffset() { return rawOffset; }
    @Override
    public boolean useDaylightTime() { return false; }
    @Override
    public boolean inDaylightTime(Date date) { return false; }
    @Override
    public boolean hasSameRules(TimeZone other) { return other instanceof SimpleTimeZone && rawOffset == other.getRawOffset(); }
    @Override
    public boolean equals(Object obj) {
        return obj instanceof SimpleTimeZone && getID().equals(((SimpleTimeZone) obj).getID()) && rawOffset == ((SimpleTimeZone) obj).rawOffset;
    }
    @Override
    public int hashCode() { return rawOffset ^ getID().hashCode(); }
    @Override
    public String toString() {
        return getClass().getName() + "[id=" + getID() + ",offset=" + rawOffset + ",dstSavings=0,useDaylight=false]";
    }
}
