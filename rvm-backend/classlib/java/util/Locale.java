package java.util;

/**
 * Language and country tags only; rvm's text functions are not locale-sensitive (case mapping and
 * formatting are the ROOT locale's), so the Locale arguments they take are accepted and ignored.
 */
public final class Locale implements Cloneable, java.io.Serializable {
    public static final Locale ROOT = new Locale("", "");
    public static final Locale ENGLISH = new Locale("en", "");
    public static final Locale US = new Locale("en", "US");
    public static final Locale UK = new Locale("en", "GB");
    public static final Locale GERMAN = new Locale("de", "");
    public static final Locale GERMANY = new Locale("de", "DE");
    public static final Locale FRENCH = new Locale("fr", "");
    public static final Locale FRANCE = new Locale("fr", "FR");
    public static final Locale CANADA = new Locale("en", "CA");
    private static Locale defaultLocale = US;
    private final String language, country, variant;

    public Locale(String language, String country, String variant) {
        this.language = language.toLowerCase();
        this.country = country.toUpperCase();
        this.variant = variant;
    }
    public Locale(String language, String country) { this(language, country, ""); }
    public Locale(String language) { this(language, "", ""); }
    public static Locale getDefault() { return defaultLocale; }
    public static Locale getDefault(Category category) { return defaultLocale; }
    public static synchronized void setDefault(Locale newLocale) { defaultLocale = Objects.requireNonNull(newLocale); }
    public static Locale forLanguageTag(String languageTag) {
        String[] p = languageTag.split("[-_]");
        return new Locale(p[0].equals("und") ? "" : p[0], p.length > 1 ? p[1] : "");
    }
    public static Locale of(String language, String country) { return new Locale(language, country); }
    public static Locale of(String language) { return new Locale(language); }
    public String getLanguage() { return language; }
    public String getCountry() { return country; }
    public String getVariant() { return variant; }
    public String toLanguageTag() {
        if (language.isEmpty() && country.isEmpty()) return "und";
        return country.isEmpty() ? language : language + "-" + country;
    }
    public String toString() {
        if (country.isEmpty() && variant.isEmpty()) return language;
        return language + "_" + country + (variant.isEmpty() ? "" : "_" + variant);
    }
    public boolean equals(Object o) {
        if (!(o instanceof Locale)) return false;
        Locale l = (Locale) o;
        return language.equals(l.language) && country.equals(l.country) && variant.equals(l.variant);
    }
    public int hashCode() { return toString().hashCode(); }
    public enum Category { DISPLAY, FORMAT }
}
