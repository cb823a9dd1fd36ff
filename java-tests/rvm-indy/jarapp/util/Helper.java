package jarapp.util;

public class Helper {
    private final String tag;
    public Helper(String tag) { this.tag = tag; }
    public String wrap(String s) { return "[" + tag + ":" + s + "]"; }
}
