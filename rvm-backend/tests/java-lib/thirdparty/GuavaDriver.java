import com.google.common.base.CaseFormat;
import com.google.common.base.CharMatcher;
import com.google.common.base.Joiner;
import com.google.common.base.MoreObjects;
import com.google.common.base.Optional;
import com.google.common.base.Preconditions;
import com.google.common.base.Splitter;
import com.google.common.base.Strings;
import com.google.common.cache.CacheBuilder;
import com.google.common.cache.CacheLoader;
import com.google.common.cache.LoadingCache;
import com.google.common.collect.ArrayListMultimap;
import com.google.common.collect.BiMap;
import com.google.common.collect.ComparisonChain;
import com.google.common.collect.FluentIterable;
import com.google.common.collect.HashBasedTable;
import com.google.common.collect.HashBiMap;
import com.google.common.collect.HashMultimap;
import com.google.common.collect.HashMultiset;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import com.google.common.collect.ImmutableSortedMap;
import com.google.common.collect.Iterables;
import com.google.common.collect.Lists;
import com.google.common.collect.Maps;
import com.google.common.collect.Multimap;
import com.google.common.collect.Multiset;
import com.google.common.collect.Ordering;
import com.google.common.collect.Range;
import com.google.common.collect.Sets;
import com.google.common.collect.Table;
import com.google.common.collect.TreeMultimap;
import com.google.common.primitives.Ints;
import com.google.common.primitives.Longs;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.ListeningExecutorService;
import com.google.common.util.concurrent.MoreExecutors;
import com.google.common.util.concurrent.SettableFuture;
import com.google.common.util.concurrent.Striped;
import com.google.common.util.concurrent.AtomicLongMap;
import com.google.common.util.concurrent.RateLimiter;
import com.google.common.hash.Hashing;
import com.google.common.io.BaseEncoding;
import com.google.common.math.IntMath;
import com.google.common.math.LongMath;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import com.google.common.eventbus.EventBus;
import com.google.common.eventbus.Subscribe;
import com.google.common.collect.Interner;
import com.google.common.collect.Interners;
import com.google.common.base.Throwables;
import com.google.common.primitives.UnsignedInteger;
import com.google.common.primitives.Bytes;
import com.google.common.collect.EvictingQueue;
import com.google.common.collect.MinMaxPriorityQueue;
import com.google.common.collect.Streams;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Common utilities of Debian's Guava: the same output on rvm as on HotSpot. */
public class GuavaDriver {
    /** An EventBus subscriber: Guava finds its methods by their @Subscribe annotation. */
    public static class Listener {
        final StringBuilder log = new StringBuilder();
        @Subscribe public void onString(String s) { log.append("str:").append(s).append(' '); }
        @Subscribe public void onInteger(Integer i) { log.append("int:").append(i).append(' '); }
    }

    public static void main(String[] args) throws Exception {
        // strings
        System.out.println(Strings.padStart("7", 3, '0') + " " + Strings.padEnd("ab", 5, '.') + " " + Strings.repeat("xy", 3) + " " + Strings.isNullOrEmpty("") + " " + Strings.commonPrefix("foobar", "foobaz") + " " + Strings.nullToEmpty(null) + "|");
        System.out.println(Joiner.on(", ").skipNulls().join("a", null, "b", "c") + " | " + Joiner.on('/').useForNull("-").join(Arrays.asList("x", null, "z")));
        System.out.println(Joiner.on("&").withKeyValueSeparator("=").join(ImmutableMap.of("k1", "v1", "k2", "v2")));
        System.out.println(Splitter.on(',').trimResults().omitEmptyStrings().splitToList(" a, b ,, c ,"));
        System.out.println(Splitter.on("::").split("one::two::three") + " " + Splitter.fixedLength(3).splitToList("abcdefgh"));
        System.out.println(Splitter.on(';').withKeyValueSeparator('=').split("a=1;b=2;c=3"));
        System.out.println(Splitter.onPattern("\\s*[,;]\\s*").splitToList("x , y;z ;  w"));
        System.out.println(CharMatcher.digit().retainFrom("a1b22c333") + " " + CharMatcher.whitespace().collapseFrom("  a   b  ", ' ') + " " + CharMatcher.anyOf("aeiou").removeFrom("education") + " " + CharMatcher.javaUpperCase().countIn("HeLLo"));
        System.out.println(CaseFormat.UPPER_UNDERSCORE.to(CaseFormat.LOWER_CAMEL, "MAX_VALUE_SEEN") + " " + CaseFormat.LOWER_CAMEL.to(CaseFormat.LOWER_HYPHEN, "someFieldName"));
        System.out.println(MoreObjects.toStringHelper("Point").add("x", 1).add("y", 2).omitNullValues().add("z", null).toString());
        // collections
        ImmutableList<Integer> list = ImmutableList.of(5, 3, 8, 1);
        System.out.println(list + " " + list.reverse() + " " + Ordering.natural().sortedCopy(list) + " " + Ordering.natural().reverse().min(list) + " " + list.subList(1, 3));
        ImmutableSet<String> set = ImmutableSet.of("b", "a", "c", "a");
        System.out.println(set + " " + set.size() + " " + set.contains("c") + " " + ImmutableSortedMap.of("z", 1, "a", 2, "m", 3));
        ImmutableMap<String, Integer> map = ImmutableMap.<String, Integer>builder().put("one", 1).put("two", 2).put("three", 3).build();
        System.out.println(map + " " + map.get("two") + " " + map.keySet() + " " + map.values());
        List<List<Integer>> parts = Lists.partition(Lists.newArrayList(1, 2, 3, 4, 5, 6, 7), 3);
        System.out.println(parts + " " + Lists.reverse(Arrays.asList(1, 2, 3)) + " " + Lists.transform(Arrays.asList("a", "bb"), String::length));
        Set<Integer> s1 = Sets.newHashSet(1, 2, 3, 4), s2 = Sets.newHashSet(3, 4, 5);
        System.out.println(Sets.union(s1, s2) + " " + Sets.intersection(s1, s2) + " " + Sets.difference(s1, s2) + " " + Sets.powerSet(ImmutableSet.of(1, 2)));
        Map<String, Integer> lengths = Maps.toMap(ImmutableList.of("ab", "cde"), String::length);
        System.out.println(lengths + " " + Maps.uniqueIndex(ImmutableList.of("apple", "banana"), w -> w.charAt(0)) + " " + Maps.filterValues(ImmutableMap.of("a", 1, "b", 2), v -> v > 1));
        Multimap<String, Integer> mm = ArrayListMultimap.create();
        mm.put("a", 1); mm.put("a", 2); mm.put("b", 3); mm.put("a", 1);
        System.out.println(mm + " " + mm.get("a") + " " + mm.size() + " " + mm.keySet() + " " + mm.containsEntry("b", 3));
        Multimap<String, Integer> hm = HashMultimap.create();
        hm.put("x", 1); hm.put("x", 1); hm.put("x", 2);
        System.out.println(hm.get("x").size() + " " + TreeMultimap.create(mm) + " " + mm.asMap());
        Multiset<String> ms = HashMultiset.create(Arrays.asList("a", "b", "a", "c", "a", "b"));
        System.out.println(ms.count("a") + " " + ms.count("z") + " " + ms.elementSet().size() + " " + ms.size());
        BiMap<String, Integer> bimap = HashBiMap.create();
        bimap.put("one", 1); bimap.put("two", 2);
        System.out.println(bimap.inverse().get(2) + " " + bimap.get("one"));
        Table<String, String, Integer> table = HashBasedTable.create();
        table.put("r1", "c1", 11); table.put("r1", "c2", 12); table.put("r2", "c1", 21);
        System.out.println(table.get("r1", "c2") + " " + table.row("r1") + " " + table.column("c1") + " " + table.size());
        System.out.println(Iterables.getLast(list) + " " + Iterables.concat(list, ImmutableList.of(9)) + " " + Iterables.frequency(Arrays.asList(1, 2, 1), 1) + " " + Iterables.filter(list, x -> x > 3));
        System.out.println(FluentIterable.from(list).filter(x -> x % 2 == 1).transform(x -> x * 10).toList() + " " + FluentIterable.from(list).first().get());
        System.out.println(ComparisonChain.start().compare(1, 1).compare("a", "b").result() + " " + Ordering.natural().onResultOf(String::length).sortedCopy(Arrays.asList("ccc", "a", "bb")));
        System.out.println(Range.closedOpen(1, 5) + " " + Range.closed(1, 5).contains(5) + " " + Range.atLeast(3).contains(2) + " " + Range.open(1, 10).intersection(Range.closed(5, 20)));
        // primitives, Optional, Preconditions
        System.out.println(Ints.join("+", 1, 2, 3) + " " + Ints.max(4, 9, 2) + " " + Ints.asList(7, 8) + " " + Longs.tryParse("123") + " " + Ints.tryParse("x") + " " + Ints.contains(new int[] {1, 2}, 2));
        Optional<String> present = Optional.of("v"), absent = Optional.absent();
        System.out.println(present.isPresent() + " " + absent.or("default") + " " + present.transform(String::toUpperCase).get() + " " + absent);
        try {
            Preconditions.checkArgument(false, "expected %s but got %s", 1, 2);
        } catch (IllegalArgumentException e) {
            System.out.println("precondition: " + e.getMessage());
        }
        try {
            Preconditions.checkElementIndex(5, 3);
        } catch (IndexOutOfBoundsException e) {
            System.out.println("precondition: " + e.getMessage());
        }
        // a loading cache
        List<String> loads = new ArrayList<>();
        LoadingCache<Integer, String> cache = CacheBuilder.newBuilder().maximumSize(2).recordStats().build(new CacheLoader<Integer, String>() {
            @Override public String load(Integer k) { loads.add("load " + k); return "v" + k; }
        });
        System.out.println(cache.get(1) + cache.get(2) + cache.get(1) + cache.getUnchecked(3) + " size<=2: " + (cache.size() <= 2));
        System.out.println(loads + " hits=" + cache.stats().hitCount() + " misses=" + cache.stats().missCount());
        cache.invalidateAll();
        System.out.println("after invalidate: " + cache.size() + " " + cache.getIfPresent(1));
        // concurrency: listenable futures on a pool, transforms, combining, settable futures, striped locks
        ListeningExecutorService pool = MoreExecutors.listeningDecorator(Executors.newFixedThreadPool(3));
        List<ListenableFuture<Integer>> squares = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            final int n = i;
            squares.add(pool.submit(() -> n * n));
        }
        ListenableFuture<List<Integer>> all = Futures.allAsList(squares);
        ListenableFuture<Integer> sum = Futures.transform(all, l -> l.stream().mapToInt(Integer::intValue).sum(), MoreExecutors.directExecutor());
        System.out.println(all.get(10, TimeUnit.SECONDS) + " " + sum.get() + " " + Futures.getDone(Futures.immediateFuture("now")));
        SettableFuture<String> settable = SettableFuture.create();
        List<String> callbacks = new ArrayList<>();
        settable.addListener(() -> callbacks.add("listener ran"), MoreExecutors.directExecutor());
        settable.set("value");
        System.out.println(settable.isDone() + " " + settable.get() + " " + callbacks);
        ListenableFuture<Integer> failed = pool.submit(() -> { throw new IllegalStateException("bad"); });
        ListenableFuture<Integer> recovered = Futures.catching(failed, IllegalStateException.class, e -> -1, MoreExecutors.directExecutor());
        System.out.println(recovered.get());
        AtomicLongMap<String> counts = AtomicLongMap.create();
        Striped<Lock> stripes = Striped.lock(4);
        List<ListenableFuture<?>> work = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            work.add(pool.submit(() -> {
                for (int k = 0; k < 500; k++) {
                    String key = "k" + (k % 3);
                    Lock l = stripes.get(key);
                    l.lock();
                    try {
                        counts.incrementAndGet(key);
                    } finally {
                        l.unlock();
                    }
                }
            }));
        }
        Futures.allAsList(work).get();
        System.out.println(new java.util.TreeMap<>(counts.asMap()) + " " + counts.sum());
        pool.shutdown();
        System.out.println(pool.awaitTermination(10, TimeUnit.SECONDS) + " " + pool.isShutdown());
        // math, hashing, encoding
        System.out.println(IntMath.gcd(84, 36) + " " + IntMath.pow(3, 5) + " " + LongMath.factorial(15) + " " + IntMath.isPrime(97) + " " + IntMath.log2(1000, java.math.RoundingMode.FLOOR) + " " + IntMath.checkedAdd(1, 2));
        System.out.println(Hashing.murmur3_32_fixed().hashString("hello", java.nio.charset.StandardCharsets.UTF_8) + " " + Hashing.murmur3_32_fixed().hashUnencodedChars("guava") + " " + Hashing.crc32().hashBytes(new byte[] {1, 2, 3}) + " " + Hashing.adler32().hashInt(42) + " " + Hashing.murmur3_128().hashLong(7L) + " " + Hashing.sipHash24().hashString("k", java.nio.charset.StandardCharsets.UTF_8));
        System.out.println(BaseEncoding.base64().encode("guava!".getBytes(java.nio.charset.StandardCharsets.UTF_8)) + " " + BaseEncoding.base16().lowerCase().encode(new byte[] {10, -1}) + " " + new String(BaseEncoding.base64().decode("cnZt"), java.nio.charset.StandardCharsets.UTF_8));
        // an event bus (reflection and annotations), interners, throwables, more collections
        EventBus bus = new EventBus("driver");
        Listener listener = new Listener();
        bus.register(listener);
        bus.post("hello");
        bus.post(42);
        bus.post(3.5);
        System.out.println(listener.log.toString().trim());
        Interner<String> interner = Interners.newStrongInterner();
        System.out.println((interner.intern(new String("a")) == interner.intern(new String("a"))) + " " + Throwables.getRootCause(new RuntimeException(new IllegalStateException("root"))).getMessage());
        EvictingQueue<Integer> evicting = EvictingQueue.create(2);
        evicting.add(1);
        evicting.add(2);
        evicting.add(3);
        System.out.println(UnsignedInteger.fromIntBits(-1) + " " + Bytes.asList(new byte[] {1, 2}) + " " + evicting + " " + MinMaxPriorityQueue.create(ImmutableList.of(5, 1, 9)).peekLast() + " " + Streams.zip(java.util.stream.Stream.of("a", "b"), java.util.stream.Stream.of(1, 2), (s, i) -> s + i).collect(java.util.stream.Collectors.toList()));
    }
}
