//! The class library for real libraries: reflection, java.util.regex, streams and Optional, java.io
//! and java.nio.file, Properties/logging/java.sql and the small collections, BigInteger and
//! BigDecimal, java.time, java.sql's dates and TimeZone, MessageFormat, shutdown hooks, SecureRandom,
//! the synchronized collection wrappers, collections' clone, and the java.util.concurrent classes
//! beyond `tests/concurrent.rs`'s (ForkJoinPool, SynchronousQueue, the skip lists, StampedLock,
//! CyclicBarrier and Phaser, ScheduledThreadPoolExecutor), each a program in
//! `tests/java-lib/<area>/` compiled with plain `javac` of JDK 17 and of the newest JDK found, whose
//! output on rvm (one and two processors) must be HotSpot's, line for line; and drivers of Debian's
//! commons-lang3 and Guava (`tests/java-lib/thirdparty/`), run from the jars on the class path.

use java_tests::Jdk;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[path = "support/hotspot.rs"]
#[allow(dead_code)]
mod hotspot;
use hotspot::text;

const COMMONS_LANG3: &str = "/usr/share/java/commons-lang3.jar";
const GUAVA: &str = "/usr/share/java/guava.jar";

/// JDK 17 and the newest JDK above it, when there is one.
fn jdks() -> Vec<Jdk> {
    let mut jdks: Vec<Jdk> = java_tests::all_jdks().into_iter().filter(|j| j.feature_version() == Some(17)).take(1).collect();
    if let Some(newer) = java_tests::newer_jdk().filter(|j| j.feature_version().unwrap_or(0) > 17) {
        jdks.push(newer);
    }
    assert!(!jdks.is_empty(), "no JDK 17 or newer found");
    jdks
}

/// Compiles `tests/java-lib/<area>` with `jdk`'s plain javac (and `classpath`) into a fresh directory,
/// once per area and JDK in this test binary: its tests run in parallel, several of them on one
/// area's classes, and a second compilation emptied the directory under a running program.
fn compile(jdk: &Jdk, area: &str, classpath: Option<&str>) -> PathBuf {
    static COMPILED: std::sync::Mutex<Vec<(String, PathBuf)>> = std::sync::Mutex::new(Vec::new());
    let key = format!("{area}-{}", jdk.feature_version().unwrap_or(0));
    let mut compiled = COMPILED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, dir)) = compiled.iter().find(|(k, _)| *k == key) {
        return dir.clone();
    }
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/java-lib").join(area);
    let mut sources = Vec::new();
    java_tests::collect_files(&src, "java", &mut sources).expect("read java-lib sources");
    let out = java_tests::class_root().join(format!("rvm-library/{key}"));
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let mut cmd = Command::new(jdk.javac());
    cmd.args(["-nowarn", "-encoding", "UTF-8", "-d"]).arg(&out);
    if let Some(cp) = classpath {
        cmd.arg("-cp").arg(cp);
    }
    let status = cmd.args(&sources).status().expect("run javac");
    assert!(status.success(), "javac {} failed on {}", jdk.feature_version().unwrap_or(0), src.display());
    compiled.push((key, out.clone()));
    out
}

fn class_path(dir: &Path, jar: Option<&str>) -> String {
    match jar {
        Some(j) => format!("{}:{j}", dir.display()),
        None => dir.display().to_string(),
    }
}

/// Runs `class` on HotSpot and on rvm with 1 and 2 processors; stdout and the exit code must be
/// equal. `args` makes each run's program arguments (its run number, for per-run directories).
fn same_as_hotspot(area: &str, class: &str, jar: Option<&str>, args: impl Fn(usize) -> Vec<String>) {
    same_as_hotspot_exiting(area, class, jar, args, 0, false);
}

/// The same with `TZ=UTC` for both VMs, for a program whose text depends on the default time zone.
fn same_as_hotspot_in_utc(area: &str, class: &str) {
    same_as_hotspot_exiting(area, class, None, no_args, 0, true);
}

/// The same for a program whose exit code on HotSpot is `code`; `utc`: both VMs run with `TZ=UTC`.
fn same_as_hotspot_exiting(area: &str, class: &str, jar: Option<&str>, args: impl Fn(usize) -> Vec<String>, code: i32, utc: bool) {
    let tz = |c: &mut Command| {
        if utc {
            c.env("TZ", "UTC");
        }
    };
    for jdk in jdks() {
        let v = jdk.feature_version().unwrap_or(0);
        let dir = compile(&jdk, area, jar);
        let cp = class_path(&dir, jar);
        let mut java = Command::new(jdk.java());
        tz(&mut java);
        let expected = java.arg("-cp").arg(&cp).arg(class).args(args(0)).output().expect("run java");
        assert!(expected.status.code() == Some(code) && !expected.stdout.is_empty(), "{class} (javac {v}) on HotSpot ({}): {}", expected.status, text(&expected.stderr));
        for (run, vps) in ["-Xvps:1", "-Xvps:2"].iter().enumerate() {
            let mut rvm = Command::new(env!("CARGO_BIN_EXE_rvm"));
            tz(&mut rvm);
            let got: Output = rvm.arg(vps).arg("-cp").arg(&cp).arg(class).args(args(run + 1)).output().expect("run rvm");
            let (e, g) = (text(&expected.stdout), text(&got.stdout));
            for (i, (a, b)) in e.lines().zip(g.lines()).enumerate() {
                assert_eq!(a, b, "{class} (javac {v}, {vps}): line {} differs\nrvm stderr:\n{}", i + 1, text(&got.stderr));
            }
            assert_eq!(e.lines().count(), g.lines().count(), "{class} (javac {v}, {vps}): line count\nrvm stdout:\n{g}\nrvm stderr:\n{}", text(&got.stderr));
            assert_eq!(expected.status.code(), got.status.code(), "{class} (javac {v}, {vps}): exit code\nrvm stderr:\n{}", text(&got.stderr));
        }
    }
}

fn no_args(_: usize) -> Vec<String> {
    Vec::new()
}

/// Class.forName (and its initialisation, not at loading), members listed and looked up, invoke
/// with unboxing and widening, constructors and Class.newInstance, fields get and set (private,
/// static, final, primitive), InvocationTargetException and the argument errors, primitive and
/// array classes, Array.newInstance, enum constants, annotations' presence.
#[test]
fn reflection() {
    same_as_hotspot("reflect", "LibReflect", None, no_args);
}

/// 66 patterns (classes, predefined classes, boundaries, greedy/reluctant/possessive quantifiers,
/// groups of every kind, back references, alternation, anchors, lookaround, flags, quoting) with
/// matches/lookingAt/find/groups/replaceAll/replaceFirst/split each; named groups, appendReplacement,
/// String.matches/replaceAll/split, regions, syntax errors, a 3,000-character input.
#[test]
fn regex() {
    same_as_hotspot("regex", "LibRegex", None, no_args);
}

/// Stream pipelines (filter, map, flatMap, sorted, distinct, limit, skip, peek, takeWhile, ...), the
/// collectors (toList/toSet/toMap/joining/groupingBy/partitioningBy/counting/summing/averaging/
/// teeing), IntStream/LongStream/DoubleStream, String.chars, Arrays.stream, Optional and its
/// primitive variants, a stream used twice.
#[test]
fn streams_and_optional() {
    same_as_hotspot("streams", "LibStreams", None, no_args);
}

/// java.io streams, readers and writers (UTF-8, buffering, PrintWriter/PrintStream), in-memory
/// streams, charsets, and java.nio.file (Files, Path, Paths), File operations, in a directory of
/// the run's own.
#[test]
fn files() {
    let root = tempfile::tempdir().unwrap();
    let dirs: Vec<PathBuf> = (0..3).map(|i| root.path().join(format!("run{i}"))).collect();
    same_as_hotspot("files", "LibFiles", None, |run| {
        let d = &dirs[run];
        let _ = std::fs::remove_dir_all(d);
        std::fs::create_dir_all(d).unwrap();
        vec![d.display().to_string()]
    });
}

/// Properties (load from readers and streams, defaults, store), System properties and getenv,
/// java.util.logging (levels, loggability, handlers), java.sql's DriverManager with a driver,
/// EnumMap, EnumSet, BitSet, StringJoiner, Hashtable and WeakHashMap (HotSpot's order),
/// IdentityHashMap, StringTokenizer, ThreadLocal.
#[test]
fn properties_logging_sql_collections() {
    same_as_hotspot("props", "LibProps", None, no_args);
}

/// java.math.BigInteger: arithmetic, division, gcd, modPow, sqrt, two's-complement bit operations,
/// shifts, radix conversions, toByteArray and hashCode, on fixed and seeded random values.
#[test]
fn big_integer() {
    same_as_hotspot("bigint", "LibBigInteger", None, no_args);
}

/// java.math.BigDecimal: parsing, toString/toPlainString, scale and precision, arithmetic,
/// setScale and round in every rounding mode, division at a scale, with a MathContext and exact
/// (preferred scales, non-terminating quotients), remainder, from doubles.
#[test]
fn big_decimal() {
    same_as_hotspot("bigint", "LibBigDecimal", None, no_args);
}

fn jar_or_skip(jar: &str) -> bool {
    if Path::new(jar).is_file() {
        return true;
    }
    eprintln!("SKIPPED: {jar} is not installed (Debian package; scripts/prereqs.sh installs it)");
    false
}

/// commons-lang3's StringUtils (whose static initialiser compiles regular expressions),
/// WordUtils, ArrayUtils, ObjectUtils, BooleanUtils, CharUtils, NumberUtils, the builders
/// (ToStringBuilder's style registry is a WeakHashMap), tuples, MutableInt, Range, Validate; its
/// reflection utilities (ReflectionToStringBuilder, reflectionEquals, FieldUtils, MethodUtils,
/// ConstructorUtils, ClassUtils), StringEscapeUtils, RandomStringUtils with a seeded Random,
/// LazyInitializer, BasicThreadFactory.
#[test]
fn commons_lang3_driver() {
    if jar_or_skip(COMMONS_LANG3) {
        same_as_hotspot("thirdparty", "CommonsLangDriver", Some(&format!("{COMMONS_LANG3}:{GUAVA}")), no_args);
    }
}

/// Guava's Strings, Joiner, Splitter (also on a regular expression), CharMatcher, CaseFormat,
/// immutable collections, Lists/Sets/Maps, Multimap, Multiset, BiMap, Table, Ordering, Range,
/// primitives, Optional, Preconditions, a LoadingCache (whose futures fall back from Unsafe),
/// listenable futures on a thread pool (allAsList, transform, catching), SettableFuture, striped
/// locks and AtomicLongMap from four threads, IntMath/LongMath, hash functions, BaseEncoding, an
/// EventBus (subscribers found by their annotation), interners, EvictingQueue, MinMaxPriorityQueue.
#[test]
fn guava_driver() {
    if jar_or_skip(GUAVA) {
        same_as_hotspot("thirdparty", "GuavaDriver", Some(&format!("{COMMONS_LANG3}:{GUAVA}")), no_args);
    }
}

/// A JDBC driver found through `META-INF/services/java.sql.Driver` on the class path (as H2's is):
/// DriverManager's first use loads and initialises it, so a URL no driver takes fails first with
/// "No suitable driver" after the driver is initialised, and its own URL reaches it.
#[test]
fn jdbc_drivers_are_found_through_their_service_file() {
    let resources = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/java-lib/sqlservice-resources");
    same_as_hotspot("sqlservice", "LibSqlService", Some(resources), no_args);
}

/// java.util.zip: ZipInputStream over Debian's commons-lang3 jar (deflated entries), H2's (deflated
/// entries with data descriptors after them) and a jar of stored entries that the JDK's
/// `jar --no-compress` writes here, each entry checked by its CRC-32;
/// Inflater and InflaterInputStream on a zlib stream; a corrupt stream's DataFormatException.
#[test]
fn zip_archives_are_read_entry_by_entry() {
    const H2: &str = "/usr/share/java/h2.jar";
    if !jar_or_skip(COMMONS_LANG3) || !jar_or_skip(H2) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let stored = tmp.path().join("stored.jar");
    let jdk = java_tests::jdk().expect("a JDK");
    let classes = compile(&jdk, "zip", None);
    let st = Command::new(jdk.home.join("bin/jar")).arg("--create").arg("--no-compress").arg("--file").arg(&stored).arg("-C").arg(&classes).arg(".").status().expect("run jar");
    assert!(st.success(), "jar failed");
    let stored = stored.display().to_string();
    same_as_hotspot("zip", "LibZip", None, |_| vec![COMMONS_LANG3.to_string(), H2.to_string(), stored.clone()]);
}

/// Field updaters (int, long, reference): four threads updating one object through them lose no
/// update; the functional forms; a missing, mistyped or non-volatile field refused as HotSpot does.
#[test]
fn field_updaters_update_atomically() {
    same_as_hotspot("updaters", "LibUpdaters", None, no_args);
}

/// java.util.UUID: parsing and printing, bits, version, variant, order and hash as HotSpot's;
/// random UUIDs of version 4, variant 2.
#[test]
fn uuids_are_the_jdks() {
    same_as_hotspot("uuid", "LibUuid", None, no_args);
}

/// java.util.Date's milliseconds, order, equality and hash (not its text, which is the time zone's).
#[test]
fn dates_compare_as_the_jdks() {
    same_as_hotspot("uuid", "LibDate", None, no_args);
}

/// java.time: zone IDs (offsets, prefixed offsets, UTC's aliases, Etc/GMT±n, SHORT_IDS, unknown and
/// malformed IDs), fixed rules; LocalDate (epoch days far before and after 1970, leap years, month
/// ends, plus/with, ISO text of years below 1000 and above 9999, parsing and its errors), LocalTime,
/// LocalDateTime (epoch seconds with offsets), OffsetDateTime and ZonedDateTime (order, text,
/// hash), Instant (ISO_INSTANT text, millis of negative instants, range), Duration (ISO text of
/// negative and fractional amounts, arithmetic, overflow), ChronoField access and the queries.
#[test]
fn java_time_is_the_jdks() {
    same_as_hotspot("time", "LibTime", None, no_args);
}

/// Shutdown hooks run by System.exit (a removed one not), with the JDK's refusals, and the exit
/// code after them.
#[test]
fn shutdown_hooks_run_at_exit() {
    same_as_hotspot_exiting("runtime", "LibShutdownHooks", None, no_args, 3, false);
}

/// `super.clone()` in a subclass of BitSet gives an instance of the subclass.
#[test]
fn a_library_class_clones_as_its_subclass() {
    same_as_hotspot("runtime", "LibSubclassClone", None, no_args);
}

/// clone() of ArrayList, LinkedList, ArrayDeque, HashSet, LinkedHashSet, TreeSet, HashMap,
/// LinkedHashMap (both orders, an LRU subclass), TreeMap, IdentityHashMap, Hashtable, EnumMap,
/// EnumSet, Properties, Date, Timestamp and ZipEntry, of subclasses (whose `super.clone()` must give the subclass, with
/// its fields copied) and plain: same contents and order, and the clone and the original change
/// independently, iterators included.
#[test]
fn collections_clone_as_the_jdks() {
    same_as_hotspot("clone", "LibCollectionClone", None, no_args);
}

/// SecureRandom: algorithm names, an unknown one's exception, seeds, bytes and numbers.
#[test]
fn secure_random_gives_random_bytes() {
    same_as_hotspot("security", "LibSecureRandom", None, no_args);
}

/// java.text.MessageFormat's subset: numbered arguments in any order, missing and null ones,
/// quoting, numbers as the default NumberFormat prints them (grouping, three fraction digits,
/// half-even on the shortest decimal, -0, NaN and infinity), `{n,number,integer}`, malformed patterns.
#[test]
fn message_format_is_the_jdks() {
    same_as_hotspot("text", "LibMessageFormat", None, no_args);
}

/// java.sql's Timestamp (milliseconds and nanoseconds, text, JDK 17's `valueOf` and its errors,
/// order, hash, java.time conversions), Date and Time (text, `valueOf` with the deprecated
/// constructors' roll-over), and java.util.Date's `toInstant`/`from`, in UTC.
#[test]
fn sql_dates_are_the_jdks() {
    same_as_hotspot_in_utc("sqltime", "LibSqlTime");
}

/// java.util.TimeZone's fixed zones: UTC aliases, custom GMT offsets (normalised names, malformed
/// ones as GMT), unknown IDs as GMT, ZoneId both ways, and `setDefault` moving
/// `ZoneId.systemDefault()` and the SQL types' text, in UTC.
#[test]
fn time_zones_are_the_jdks() {
    same_as_hotspot_in_utc("sqltime", "LibTimeZone");
}

/// ForkJoinPool (its own and the common pool): RecursiveTask and RecursiveAction trees with fork,
/// join, invokeAll, results, exceptions through join and get, cancellation, completion from
/// outside, submit/execute/invokeAll of plain tasks, shutdown and rejection.
#[test]
fn fork_join_pool() {
    same_as_hotspot("forkjoin", "LibForkJoin", None, no_args);
}

/// SynchronousQueue: offers and polls without a partner fail, hand-offs in order, a put that
/// waits for its take, fair (FIFO) and unfair (LIFO) matching of waiting consumers, interrupts,
/// drainTo, and a ThreadPoolExecutor on one that grows to its maximum and rejects.
#[test]
fn synchronous_queue() {
    same_as_hotspot("syncqueue", "LibSyncQueue", None, no_args);
}

/// ConcurrentSkipListMap and ConcurrentSkipListSet: sorted printing, navigation, range and
/// descending views that write through, atomic updates, merges from four threads, snapshot
/// iteration while adding, a comparator.
#[test]
fn concurrent_skip_lists() {
    same_as_hotspot("skiplist", "LibSkipList", None, no_args);
}

/// StampedLock: write, read and optimistic stamps, validation, conversions, the Lock views, a
/// writer waiting for a reader, an interrupted reader, and writers against optimistic readers.
#[test]
fn stamped_lock() {
    same_as_hotspot("stamped", "LibStamped", None, no_args);
}

/// CyclicBarrier (rounds with a barrier action, reset, timeout, interrupt, a failing action) and
/// Phaser (registration, phases, onAdvance, termination, timeouts).
#[test]
fn cyclic_barrier_and_phaser() {
    same_as_hotspot("barriers", "LibBarriers", None, no_args);
}

/// ScheduledThreadPoolExecutor: delayed tasks in time order, callables, cancellation, fixed-rate
/// and fixed-delay tasks, a failing periodic task, shutdown policies, shutdownNow.
#[test]
fn scheduled_thread_pool() {
    same_as_hotspot("scheduled", "LibScheduled", None, no_args);
}

/// Collections.synchronizedList, Map, Set and Collection filled by four threads at once.
#[test]
fn synchronized_collections() {
    same_as_hotspot("syncwrappers", "LibSyncWrappers", None, no_args);
}

/// java.util.zip.Deflater: zlib and raw streams at each level, compressed at once and in small
/// steps, read back by Inflater to the input; a sync flush, reset, end and a bad level.
#[test]
fn deflater_round_trips() {
    same_as_hotspot("deflate", "LibDeflate", None, no_args);
}

/// java.lang.ref: weak and phantom references cleared and enqueued by the collector once their
/// referents are unreachable (also through an unreachable holder), kept while reachable, queue
/// states; Cleaner actions run once for unreachable objects and at clean().
#[test]
fn references_and_cleaner() {
    same_as_hotspot("refs", "LibRefs", None, no_args);
}
