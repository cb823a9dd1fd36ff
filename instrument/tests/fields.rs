//! `add_field` on a class compiled by javac: the JVM loads the result (verified), reflection sees
//! the new field beside the old ones, and the field holds a value.

mod common;

use common::{java, javac, jdks, path_list, verify_all, Scratch};
use hpm_instrument::add_field;

const SOURCE: &str = r#"
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
public class Holder {
    static final String GREETING = "held";
    private int count = 3;
    protected String label = GREETING;
    public static void main(String[] args) throws Exception {
        Holder h = new Holder();
        for (Field f : Holder.class.getDeclaredFields()) {
            System.out.println(f.getName() + " " + f.getType().getName() + " " + Modifier.toString(f.getModifiers()) + (f.isSynthetic() ? " synthetic" : ""));
        }
        Field extra = Holder.class.getDeclaredField("hpm$extra");
        extra.setAccessible(true);
        extra.set(h, h.label + h.count);
        System.out.println("value " + extra.get(h));
    }
}
"#;

#[test]
fn an_added_field_loads_and_holds_a_value() {
    for jdk in jdks() {
        let dir = Scratch::new(&format!("fields-{}", jdk.feature_version().unwrap()));
        let src = dir.path().join("Holder.java");
        std::fs::write(&src, SOURCE).unwrap();
        let classes = dir.path().join("classes");
        javac(&jdk, &classes, &[], &[src]);
        let class = classes.join("Holder.class");
        let original = std::fs::read(&class).unwrap();
        // private transient synthetic
        let added = add_field(&original, 0x0002 | 0x0080 | 0x1000, "hpm$extra", "Ljava/lang/Object;").unwrap();
        assert!(added.len() > original.len());
        std::fs::write(&class, &added).unwrap();

        let mut args = verify_all();
        args.extend(["-cp".to_string(), path_list(&[&classes]), "Holder".to_string()]);
        let out = java(&jdk, &args);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines,
            [
                "GREETING java.lang.String static final",
                "count int private",
                "label java.lang.String protected",
                "hpm$extra java.lang.Object private transient synthetic",
                "value held3",
            ],
            "JDK {}",
            jdk.feature_version().unwrap()
        );

        // A second field of the same name is refused, naming the class.
        let e = add_field(&added, 0x0002, "hpm$extra", "I").unwrap_err();
        assert_eq!(e.to_string(), "class Holder: it has a field named hpm$extra already");
    }
}

#[test]
fn a_truncated_class_file_is_an_error_not_a_panic() {
    let dir = Scratch::new("fields-truncated");
    let src = dir.path().join("Holder.java");
    std::fs::write(&src, SOURCE).unwrap();
    javac(&jdks()[0], dir.path(), &[], &[src]);
    let bytes = std::fs::read(dir.path().join("Holder.class")).unwrap();
    for cut in [4, 10, bytes.len() / 2, bytes.len() - 1] {
        let _ = add_field(&bytes[..cut], 0x0002, "x", "I");
    }
    let e = add_field(&bytes[..bytes.len() / 2], 0x0002, "x", "I").unwrap_err();
    assert!(e.to_string().starts_with("class"), "{e}");
}
