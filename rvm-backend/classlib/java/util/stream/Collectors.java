package java.util.stream;

import java.util.*;
import java.util.function.*;

public final class Collectors {
    private Collectors() {}

    static final Set<Collector.Characteristics> CH_ID = Collections.unmodifiableSet(new HashSet<>(Arrays.asList(Collector.Characteristics.IDENTITY_FINISH)));
    static final Set<Collector.Characteristics> CH_NOID = Collections.emptySet();

    static Set<Collector.Characteristics> set(Collector.Characteristics[] cs, boolean identity) {
        Set<Collector.Characteristics> s = new HashSet<>(Arrays.asList(cs));
        if (identity) s.add(Collector.Characteristics.IDENTITY_FINISH);
        return Collections.unmodifiableSet(s);
    }

    static final class CollectorImpl<T, A, R> implements Collector<T, A, R> {
        private final Supplier<A> supplier;
        private final BiConsumer<A, T> accumulator;
        private final BinaryOperator<A> combiner;
        private final Function<A, R> finisher;
        private final Set<Characteristics> characteristics;
        CollectorImpl(Supplier<A> supplier, BiConsumer<A, T> accumulator, BinaryOperator<A> combiner, Function<A, R> finisher, Set<Characteristics> characteristics) {
            this.supplier = supplier;
            this.accumulator = accumulator;
            this.combiner = combiner;
            this.finisher = finisher;
            this.characteristics = characteristics;
        }
        @SuppressWarnings("unchecked")
        CollectorImpl(Supplier<A> supplier, BiConsumer<A, T> accumulator, BinaryOperator<A> combiner, Set<Characteristics> characteristics) {
            this(supplier, accumulator, combiner, x -> (R) x, characteristics);
        }
        public BiConsumer<A, T> accumulator() { return accumulator; }
        public Supplier<A> supplier() { return supplier; }
        public BinaryOperator<A> combiner() { return combiner; }
        public Function<A, R> finisher() { return finisher; }
        public Set<Characteristics> characteristics() { return characteristics; }
    }

    public static <T, C extends Collection<T>> Collector<T, ?, C> toCollection(Supplier<C> collectionFactory) {
        return new CollectorImpl<>(collectionFactory, Collection<T>::add, (r1, r2) -> { r1.addAll(r2); return r1; }, CH_ID);
    }
    public static <T> Collector<T, ?, List<T>> toList() {
        return new CollectorImpl<>(ArrayList::new, List::add, (left, right) -> { left.addAll(right); return left; }, CH_ID);
    }
    @SuppressWarnings("unchecked")
    public static <T> Collector<T, ?, List<T>> toUnmodifiableList() {
        return new CollectorImpl<>(ArrayList::new, List::add, (left, right) -> { left.addAll(right); return left; },
                list -> { for (Object o : list) Objects.requireNonNull(o); return (List<T>) List.of(list.toArray()); }, CH_NOID);
    }
    public static <T> Collector<T, ?, Set<T>> toSet() {
        return new CollectorImpl<>(HashSet::new, Set::add, (left, right) -> { left.addAll(right); return left; }, CH_ID);
    }
    @SuppressWarnings("unchecked")
    public static <T> Collector<T, ?, Set<T>> toUnmodifiableSet() {
        return new CollectorImpl<>(HashSet::new, Set::add, (left, right) -> { left.addAll(right); return left; },
                set -> (Set<T>) Set.of(set.toArray()), CH_NOID);
    }
    public static Collector<CharSequence, ?, String> joining() {
        return new CollectorImpl<CharSequence, StringBuilder, String>(StringBuilder::new, StringBuilder::append, (r1, r2) -> { r1.append(r2); return r1; }, StringBuilder::toString, CH_NOID);
    }
    public static Collector<CharSequence, ?, String> joining(CharSequence delimiter) { return joining(delimiter, "", ""); }
    public static Collector<CharSequence, ?, String> joining(CharSequence delimiter, CharSequence prefix, CharSequence suffix) {
        return new CollectorImpl<>(() -> new StringJoiner(delimiter, prefix, suffix), StringJoiner::add, StringJoiner::merge, StringJoiner::toString, CH_NOID);
    }
    public static <T, U, A, R> Collector<T, ?, R> mapping(Function<? super T, ? extends U> mapper, Collector<? super U, A, R> downstream) {
        BiConsumer<A, ? super U> downstreamAccumulator = downstream.accumulator();
        return new CollectorImpl<>(downstream.supplier(), (r, t) -> downstreamAccumulator.accept(r, mapper.apply(t)), downstream.combiner(), downstream.finisher(), downstream.characteristics());
    }
    public static <T, U, A, R> Collector<T, ?, R> flatMapping(Function<? super T, ? extends Stream<? extends U>> mapper, Collector<? super U, A, R> downstream) {
        BiConsumer<A, ? super U> downstreamAccumulator = downstream.accumulator();
        return new CollectorImpl<>(downstream.supplier(), (r, t) -> {
            Stream<? extends U> result = mapper.apply(t);
            if (result != null) result.forEach(u -> downstreamAccumulator.accept(r, u));
        }, downstream.combiner(), downstream.finisher(), downstream.characteristics());
    }
    public static <T, A, R> Collector<T, ?, R> filtering(Predicate<? super T> predicate, Collector<? super T, A, R> downstream) {
        BiConsumer<A, ? super T> downstreamAccumulator = downstream.accumulator();
        return new CollectorImpl<>(downstream.supplier(), (r, t) -> { if (predicate.test(t)) downstreamAccumulator.accept(r, t); }, downstream.combiner(), downstream.finisher(), downstream.characteristics());
    }
    public static <T, A, R, RR> Collector<T, A, RR> collectingAndThen(Collector<T, A, R> downstream, Function<R, RR> finisher) {
        return new CollectorImpl<>(downstream.supplier(), downstream.accumulator(), downstream.combiner(), downstream.finisher().andThen(finisher), CH_NOID);
    }
    public static <T> Collector<T, ?, Long> counting() { return summingLong(e -> 1L); }
    public static <T> Collector<T, ?, Optional<T>> minBy(Comparator<? super T> comparator) { return reducing(BinaryOperator.minBy(comparator)); }
    public static <T> Collector<T, ?, Optional<T>> maxBy(Comparator<? super T> comparator) { return reducing(BinaryOperator.maxBy(comparator)); }
    public static <T> Collector<T, ?, Integer> summingInt(ToIntFunction<? super T> mapper) {
        return new CollectorImpl<T, int[], Integer>(() -> new int[1], (a, t) -> { a[0] += mapper.applyAsInt(t); }, (a, b) -> { a[0] += b[0]; return a; }, a -> a[0], CH_NOID);
    }
    public static <T> Collector<T, ?, Long> summingLong(ToLongFunction<? super T> mapper) {
        return new CollectorImpl<T, long[], Long>(() -> new long[1], (a, t) -> { a[0] += mapper.applyAsLong(t); }, (a, b) -> { a[0] += b[0]; return a; }, a -> a[0], CH_NOID);
    }
    public static <T> Collector<T, ?, Double> summingDouble(ToDoubleFunction<? super T> mapper) {
        return new CollectorImpl<T, DoubleSummaryStatistics, Double>(DoubleSummaryStatistics::new, (a, t) -> a.accept(mapper.applyAsDouble(t)), (a, b) -> { a.combine(b); return a; }, a -> a.getSum(), CH_NOID);
    }
    public static <T> Collector<T, ?, Double> averagingInt(ToIntFunction<? super T> mapper) {
        return new CollectorImpl<T, long[], Double>(() -> new long[2], (a, t) -> { a[0] += mapper.applyAsInt(t); a[1]++; }, (a, b) -> { a[0] += b[0]; a[1] += b[1]; return a; }, a -> (a[1] == 0) ? 0.0d : (double) a[0] / a[1], CH_NOID);
    }
    public static <T> Collector<T, ?, Double> averagingLong(ToLongFunction<? super T> mapper) {
        return new CollectorImpl<T, long[], Double>(() -> new long[2], (a, t) -> { a[0] += mapper.applyAsLong(t); a[1]++; }, (a, b) -> { a[0] += b[0]; a[1] += b[1]; return a; }, a -> (a[1] == 0) ? 0.0d : (double) a[0] / a[1], CH_NOID);
    }
    public static <T> Collector<T, ?, Double> averagingDouble(ToDoubleFunction<? super T> mapper) {
        return new CollectorImpl<T, DoubleSummaryStatistics, Double>(DoubleSummaryStatistics::new, (a, t) -> a.accept(mapper.applyAsDouble(t)), (a, b) -> { a.combine(b); return a; }, a -> a.getAverage(), CH_NOID);
    }
    public static <T> Collector<T, ?, IntSummaryStatistics> summarizingInt(ToIntFunction<? super T> mapper) {
        return new CollectorImpl<T, IntSummaryStatistics, IntSummaryStatistics>(IntSummaryStatistics::new, (r, t) -> r.accept(mapper.applyAsInt(t)), (l, r) -> { l.combine(r); return l; }, CH_ID);
    }
    public static <T> Collector<T, ?, LongSummaryStatistics> summarizingLong(ToLongFunction<? super T> mapper) {
        return new CollectorImpl<T, LongSummaryStatistics, LongSummaryStatistics>(LongSummaryStatistics::new, (r, t) -> r.accept(mapper.applyAsLong(t)), (l, r) -> { l.combine(r); return l; }, CH_ID);
    }
    public static <T> Collector<T, ?, DoubleSummaryStatistics> summarizingDouble(ToDoubleFunction<? super T> mapper) {
        return new CollectorImpl<T, DoubleSummaryStatistics, DoubleSummaryStatistics>(DoubleSummaryStatistics::new, (r, t) -> r.accept(mapper.applyAsDouble(t)), (l, r) -> { l.combine(r); return l; }, CH_ID);
    }
    public static <T> Collector<T, ?, T> reducing(T identity, BinaryOperator<T> op) {
        return new CollectorImpl<T, Object[], T>(() -> new Object[] { identity }, (a, t) -> { a[0] = op.apply(cast(a[0]), t); }, (a, b) -> { a[0] = op.apply(cast(a[0]), cast(b[0])); return a; }, a -> cast(a[0]), CH_NOID);
    }
    @SuppressWarnings("unchecked")
    private static <T> T cast(Object o) { return (T) o; }
    public static <T> Collector<T, ?, Optional<T>> reducing(BinaryOperator<T> op) {
        class OptionalBox implements Consumer<T> {
            T value = null;
            boolean present = false;
            public void accept(T t) {
                if (present) { value = op.apply(value, t); } else { value = t; present = true; }
            }
        }
        return new CollectorImpl<T, OptionalBox, Optional<T>>(OptionalBox::new, OptionalBox::accept, (a, b) -> { if (b.present) a.accept(b.value); return a; }, a -> Optional.ofNullable(a.value), CH_NOID);
    }
    public static <T, U> Collector<T, ?, U> reducing(U identity, Function<? super T, ? extends U> mapper, BinaryOperator<U> op) {
        return new CollectorImpl<T, Object[], U>(() -> new Object[] { identity }, (a, t) -> { a[0] = op.apply(cast(a[0]), mapper.apply(t)); }, (a, b) -> { a[0] = op.apply(cast(a[0]), cast(b[0])); return a; }, a -> cast(a[0]), CH_NOID);
    }

    public static <T, K> Collector<T, ?, Map<K, List<T>>> groupingBy(Function<? super T, ? extends K> classifier) {
        return groupingBy(classifier, HashMap::new, toList());
    }
    public static <T, K, A, D> Collector<T, ?, Map<K, D>> groupingBy(Function<? super T, ? extends K> classifier, Collector<? super T, A, D> downstream) {
        return groupingBy(classifier, HashMap::new, downstream);
    }
    @SuppressWarnings("unchecked")
    public static <T, K, D, A, M extends Map<K, D>> Collector<T, ?, M> groupingBy(Function<? super T, ? extends K> classifier, Supplier<M> mapFactory, Collector<? super T, A, D> downstream) {
        Supplier<A> downstreamSupplier = downstream.supplier();
        BiConsumer<A, ? super T> downstreamAccumulator = downstream.accumulator();
        BiConsumer<Map<K, A>, T> accumulator = (m, t) -> {
            K key = Objects.requireNonNull(classifier.apply(t), "element cannot be mapped to a null key");
            A container = m.computeIfAbsent(key, k -> downstreamSupplier.get());
            downstreamAccumulator.accept(container, t);
        };
        Supplier<Map<K, A>> mangledFactory = (Supplier<Map<K, A>>) mapFactory;
        Function<Map<K, A>, M> finisher = intermediate -> {
            Function<A, A> f = (Function<A, A>) downstream.finisher();
            intermediate.replaceAll((k, v) -> f.apply(v));
            return (M) intermediate;
        };
        return new CollectorImpl<>(mangledFactory, accumulator, (a, b) -> a, finisher, CH_NOID);
    }
    public static <T, K> Collector<T, ?, Map<K, List<T>>> groupingByConcurrent(Function<? super T, ? extends K> classifier) {
        return groupingBy(classifier, java.util.concurrent.ConcurrentHashMap::new, toList());
    }

    public static <T> Collector<T, ?, Map<Boolean, List<T>>> partitioningBy(Predicate<? super T> predicate) {
        return partitioningBy(predicate, toList());
    }
    @SuppressWarnings("unchecked")
    public static <T, D, A> Collector<T, ?, Map<Boolean, D>> partitioningBy(Predicate<? super T> predicate, Collector<? super T, A, D> downstream) {
        BiConsumer<A, ? super T> downstreamAccumulator = downstream.accumulator();
        Supplier<Object[]> supplier = () -> new Object[] { downstream.supplier().get(), downstream.supplier().get() };
        BiConsumer<Object[], T> accumulator = (result, t) -> downstreamAccumulator.accept((A) (predicate.test(t) ? result[1] : result[0]), t);
        Function<Object[], Map<Boolean, D>> finisher = par -> {
            Map<Boolean, D> m = new LinkedHashMap<>();
            m.put(false, downstream.finisher().apply((A) par[0]));
            m.put(true, downstream.finisher().apply((A) par[1]));
            return m;
        };
        return new CollectorImpl<>(supplier, accumulator, (a, b) -> a, finisher, CH_NOID);
    }

    public static <T, K, U> Collector<T, ?, Map<K, U>> toMap(Function<? super T, ? extends K> keyMapper, Function<? super T, ? extends U> valueMapper) {
        return new CollectorImpl<>(HashMap::new, uniqKeysMapAccumulator(keyMapper, valueMapper), (a, b) -> a, CH_ID);
    }
    @SuppressWarnings("unchecked")
    public static <T, K, U> Collector<T, ?, Map<K, U>> toUnmodifiableMap(Function<? super T, ? extends K> keyMapper, Function<? super T, ? extends U> valueMapper) {
        return collectingAndThen(toMap(keyMapper, valueMapper), map -> Collections.unmodifiableMap(map));
    }
    public static <T, K, U> Collector<T, ?, Map<K, U>> toMap(Function<? super T, ? extends K> keyMapper, Function<? super T, ? extends U> valueMapper, BinaryOperator<U> mergeFunction) {
        return toMap(keyMapper, valueMapper, mergeFunction, HashMap::new);
    }
    public static <T, K, U, M extends Map<K, U>> Collector<T, ?, M> toMap(Function<? super T, ? extends K> keyMapper, Function<? super T, ? extends U> valueMapper, BinaryOperator<U> mergeFunction, Supplier<M> mapFactory) {
        BiConsumer<M, T> accumulator = (map, element) -> map.merge(keyMapper.apply(element), valueMapper.apply(element), mergeFunction);
        return new CollectorImpl<>(mapFactory, accumulator, (a, b) -> a, CH_ID);
    }
    private static <T, K, V> BiConsumer<Map<K, V>, T> uniqKeysMapAccumulator(Function<? super T, ? extends K> keyMapper, Function<? super T, ? extends V> valueMapper) {
        return (map, element) -> {
            K k = keyMapper.apply(element);
            V v = Objects.requireNonNull(valueMapper.apply(element));
            V u = map.putIfAbsent(k, v);
            if (u != null) throw new IllegalStateException(String.format("Duplicate key %s (attempted merging values %s and %s)", k, u, v));
        };
    }
    public static <T, R1, R2, R> Collector<T, ?, R> teeing(Collector<? super T, ?, R1> downstream1, Collector<? super T, ?, R2> downstream2, BiFunction<? super R1, ? super R2, R> merger) {
        return teeing0(downstream1, downstream2, merger);
    }
    @SuppressWarnings("unchecked")
    private static <T, A1, A2, R1, R2, R> Collector<T, ?, R> teeing0(Collector<? super T, A1, R1> downstream1, Collector<? super T, A2, R2> downstream2, BiFunction<? super R1, ? super R2, R> merger) {
        return new CollectorImpl<T, Object[], R>(() -> new Object[] { downstream1.supplier().get(), downstream2.supplier().get() },
                (p, t) -> { downstream1.accumulator().accept((A1) p[0], t); downstream2.accumulator().accept((A2) p[1], t); },
                (a, b) -> a,
                p -> merger.apply(downstream1.finisher().apply((A1) p[0]), downstream2.finisher().apply((A2) p[1])), CH_NOID);
    }
}
