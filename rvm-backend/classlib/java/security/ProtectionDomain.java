package java.security;

/** The type only: rvm has no protection domains (Class.getProtectionDomain throws). */
public class ProtectionDomain {
    private ProtectionDomain() {}
}
