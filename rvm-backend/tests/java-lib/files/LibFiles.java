import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.FileOutputStream;
import java.io.FileReader;
import java.io.FileWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** java.io and java.nio.file in a temporary directory (given as the first argument): names relative to it. */
public class LibFiles {
    public static void main(String[] args) throws IOException {
        File dir = new File(args[0]);
        System.out.println(dir.isDirectory() + " " + dir.exists() + " " + Arrays.toString(dir.list()));
        // java.io: streams, readers and writers
        File f = new File(dir, "a.txt");
        try (PrintWriter pw = new PrintWriter(new BufferedWriter(new OutputStreamWriter(new FileOutputStream(f), StandardCharsets.UTF_8)))) {
            pw.println("first line");
            pw.printf("%d + %d = %d%n", 2, 3, 5);
            pw.print("caf\u00e9 \u20ac \ud83d\ude00");
            pw.println();
            pw.println(3.5);
        }
        System.out.println(f.getName() + " " + f.length() + " " + f.isFile() + " " + f.getParentFile().equals(dir) + " " + f.getPath().endsWith("/a.txt") + " " + f.isAbsolute());
        try (BufferedReader br = new BufferedReader(new InputStreamReader(new FileInputStream(f), StandardCharsets.UTF_8))) {
            String line;
            int n = 0;
            while ((line = br.readLine()) != null) System.out.println(++n + ": " + line + " (" + line.length() + ")");
        }
        try (FileWriter fw = new FileWriter(f, true)) {
            fw.write("appended\n");
        }
        try (FileReader fr = new FileReader(f)) {
            char[] buf = new char[8];
            int total = 0, r;
            while ((r = fr.read(buf)) > 0) total += r;
            System.out.println("chars " + total);
        }
        byte[] raw;
        try (FileInputStream in = new FileInputStream(f)) {
            System.out.println("available " + in.available() + " skip " + in.skip(6) + " next " + (char) in.read());
            raw = in.readAllBytes();
        }
        System.out.println("rest " + raw.length + " " + new String(raw, 0, 5, StandardCharsets.UTF_8));
        try {
            new FileInputStream(new File(dir, "missing.txt"));
        } catch (FileNotFoundException e) {
            System.out.println("FNFE " + e.getMessage().replace(dir.getPath(), "DIR"));
        }
        // in-memory streams
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(bos, true, "UTF-8");
        ps.print("x=");
        ps.println(42);
        ps.write('!');
        System.out.println(bos.size() + " " + bos.toString("UTF-8").replace("\n", "|") + " " + Arrays.toString(bos.toByteArray()));
        InputStream bin = new ByteArrayInputStream("h\u00e9llo\nw\u00f6rld".getBytes(StandardCharsets.UTF_8));
        BufferedReader r2 = new BufferedReader(new InputStreamReader(bin, StandardCharsets.UTF_8));
        System.out.println(r2.lines().collect(Collectors.toList()));
        StringWriter sw = new StringWriter();
        try (BufferedWriter bw = new BufferedWriter(sw)) {
            bw.write("one");
            bw.newLine();
            bw.write("two", 1, 2);
        }
        System.out.println(sw.toString().replace("\n", "|") + " " + new BufferedReader(new StringReader("p\r\nq\rr\n")).lines().count());
        StringReader sr = new StringReader("abcdef");
        char[] cb = new char[3];
        System.out.println(sr.read(cb) + new String(cb) + " " + (char) sr.read() + " " + sr.skip(1) + " " + (char) sr.read() + " " + sr.read());
        StringWriter trace = new StringWriter();
        new RuntimeException("traced").printStackTrace(new PrintWriter(trace));
        System.out.println(trace.toString().split("\n")[0]);
        // bytes and charsets
        String s = "A\u00e9\u20ac\ud83d\ude00";
        System.out.println(Arrays.toString(s.getBytes(StandardCharsets.UTF_8)) + " " + Arrays.toString(s.getBytes(StandardCharsets.ISO_8859_1)) + " " + s.getBytes(StandardCharsets.UTF_16).length + " " + new String(s.getBytes(StandardCharsets.UTF_16LE), StandardCharsets.UTF_16LE).equals(s));
        System.out.println(new String(new byte[] {(byte) 0xC3, (byte) 0xA9, (byte) 0xFF, 0x41}, StandardCharsets.UTF_8) + " " + StandardCharsets.UTF_8 + " " + java.nio.charset.Charset.forName("latin1") + " " + java.nio.charset.Charset.isSupported("UTF-8"));
        // java.nio.ByteBuffer
        java.nio.ByteBuffer bb = java.nio.ByteBuffer.allocate(16);
        bb.putInt(0x01020304).putShort((short) -2).put((byte) 7).putLong(1L << 40);
        System.out.println(bb + " " + bb.remaining() + " " + Arrays.toString(bb.array()));
        bb.flip();
        System.out.println(bb.getInt() + " " + bb.getShort() + " " + bb.get() + " " + bb.getLong() + " " + bb.hasRemaining() + " " + bb);
        java.nio.ByteBuffer le = java.nio.ByteBuffer.wrap(new byte[8]).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        le.putDouble(0, 1.5).putChar(0, 'A');
        System.out.println(Arrays.toString(le.array()) + " " + le.order() + " " + le.getDouble(0) + " " + le.slice().capacity() + " " + java.nio.ByteBuffer.wrap(new byte[] {1, 2}).equals(java.nio.ByteBuffer.wrap(new byte[] {1, 2})));
        // java.nio.file
        Path d = Paths.get(args[0]);
        Path p = d.resolve("b.txt");
        Files.write(p, List.of("alpha", "beta", "gamma"));
        System.out.println(Files.exists(p) + " " + Files.size(p) + " " + Files.readAllLines(p) + " " + Files.isRegularFile(p) + " " + Files.isDirectory(d));
        Files.writeString(p, "delta\n", StandardOpenOption.APPEND);
        System.out.println(Files.readString(p).replace("\n", "|") + " " + Files.lines(p).filter(l -> l.contains("a")).count() + " " + Files.readAllBytes(p).length);
        Path sub = Files.createDirectories(d.resolve("x/y"));
        Path t = Files.createTempFile(sub, "tmp", ".dat");
        Files.write(t, new byte[] {1, 2, 3});
        System.out.println(t.getFileName().toString().startsWith("tmp") + " " + t.getFileName().toString().endsWith(".dat") + " " + Files.size(t) + " " + d.relativize(t).getParent() + " " + t.getParent().getFileName());
        Path copy = Files.copy(p, d.resolve("c.txt"));
        Path moved = Files.move(copy, d.resolve("m.txt"));
        System.out.println(Files.exists(copy) + " " + Files.exists(moved) + " " + Files.readAllLines(moved).size());
        System.out.println(Files.list(d).map(x -> x.getFileName().toString()).sorted().collect(Collectors.toList()));
        try {
            Files.delete(d.resolve("x"));
        } catch (DirectoryNotEmptyException e) {
            System.out.println("DNEE " + d.relativize(Paths.get(e.getFile())));
        }
        Files.delete(t);
        System.out.println(Files.deleteIfExists(t) + " " + Files.deleteIfExists(moved) + " " + Files.notExists(t));
        try {
            Files.readAllLines(d.resolve("nothing"));
        } catch (NoSuchFileException e) {
            System.out.println("NSFE " + d.relativize(Paths.get(e.getMessage())));
        }
        try {
            Files.size(d.resolve("nothing"));
        } catch (NoSuchFileException e) {
            System.out.println("NSFE size");
        }
        // paths
        Path q = Paths.get("/a/b/../c/./d.txt");
        System.out.println(q + " " + q.normalize() + " " + q.getFileName() + " " + q.getParent() + " " + q.getNameCount() + " " + q.getName(1) + " " + q.isAbsolute() + " " + q.getRoot() + " " + Path.of("a", "b", "c") + " " + Paths.get("x/y").resolve("z") + " " + Paths.get("/p/q").relativize(Paths.get("/p/r/s")) + " " + Paths.get("a/b").startsWith("a") + " " + Paths.get("a/b").endsWith("b"));
        File g = new File("/tmp//x/./y/");
        System.out.println(g.getPath() + " " + g.getName() + " " + g.getParent() + " " + new File("rel").isAbsolute() + " " + new File("a", "b").getPath() + " " + new File("/").getParent());
        // File operations
        File nd = new File(dir, "newdir/inner");
        System.out.println(nd.mkdir() + " " + nd.mkdirs() + " " + nd.isDirectory() + " " + nd.mkdirs());
        File nf = new File(nd, "n.txt");
        System.out.println(nf.createNewFile() + " " + nf.createNewFile() + " " + nf.exists() + " " + nf.length() + " " + nf.canRead() + " " + nf.canWrite());
        File renamed = new File(nd, "r.txt");
        System.out.println(nf.renameTo(renamed) + " " + nf.exists() + " " + renamed.exists() + " " + Arrays.toString(nd.list()) + " " + nd.listFiles().length);
        System.out.println(new File(dir, "newdir").delete() + " " + renamed.delete() + " " + nd.delete() + " " + new File(dir, "newdir").delete() + " " + new File(dir, "newdir").exists());
        File tf = File.createTempFile("lib", ".tmp", dir);
        System.out.println(tf.getName().startsWith("lib") + " " + tf.exists() + " " + tf.delete());
    }
}
