package java.lang.invoke;

/** The type exists for javac; rvm links invokedynamic call sites without call site objects. */
public abstract class CallSite {
    CallSite() {}
}
