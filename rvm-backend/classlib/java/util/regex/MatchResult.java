package java.util.regex;

public interface MatchResult {
    int start();
    int start(int group);
    int end();
    int end(int group);
    String group();
    String group(int group);
    int groupCount();
    default int start(String name) { throw new UnsupportedOperationException("named groups need a Matcher"); }
    default int end(String name) { throw new UnsupportedOperationException("named groups need a Matcher"); }
    default String group(String name) { throw new UnsupportedOperationException("named groups need a Matcher"); }
}
