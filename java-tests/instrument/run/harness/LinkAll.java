package harness;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Loads every class named in a file and links it (verification included) without initializing it:
 * {@code getDeclaredMethods()} links the class in HotSpot. Prints {@code name<TAB>exception: message}
 * for each class that fails. Arguments: the names file, and optionally a class path of directories and
 * jars for a URLClassLoader that defines the classes (else the system class loader finds them).
 */
public final class LinkAll {
    public static void main(String[] args) throws Exception {
        List<String> names = Files.readAllLines(Path.of(args[0]));
        ClassLoader loader = ClassLoader.getSystemClassLoader();
        if (args.length > 1) {
            List<URL> urls = new ArrayList<>();
            for (String p : args[1].split(File.pathSeparator)) {
                urls.add(Path.of(p).toUri().toURL());
            }
            loader = new URLClassLoader(urls.toArray(new URL[0]), loader);
        }
        int linked = 0;
        StringBuilder out = new StringBuilder();
        for (String name : names) {
            try {
                Class.forName(name, false, loader).getDeclaredMethods();
                linked++;
            } catch (Throwable t) {
                out.append(name).append('\t').append(t.getClass().getName()).append(": ")
                        .append(String.valueOf(t.getMessage()).replace('\n', ' ')).append('\n');
            }
        }
        System.out.print(out);
        System.out.println("linked " + linked + " of " + names.size());
    }
}
