package java.net;

/** Only the type (ClassLoader.getResource's): rvm has no networking or resource URLs. */
public final class URL implements java.io.Serializable {
    private URL() {}
}
