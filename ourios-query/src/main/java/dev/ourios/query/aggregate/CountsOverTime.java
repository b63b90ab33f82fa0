package dev.ourios.query.aggregate;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.query.GroupVisitor;
import dev.ourios.query.GroupVisitor.MatchingGroup;
import dev.ourios.query.QueryEngine;
import dev.ourios.query.QueryStats;
import dev.ourios.core.RowTime;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.HashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Counts the rows of a {@link CountsRequest} per time bucket and group. The engine visits the matching rows (the
 * query's pruning applies as for any query); each scan thread counts into its own table, merged per completed
 * partition. A query without conditions on whole rows (no search beyond the fixed filters, no body substring) is
 * counted on columns alone: the time, the query's columns and the group-by fields' columns are decoded, nothing
 * else; and a row group whose statistics prove that every row matches, lies in one bucket and has one value of each
 * group-by field ({@link GroupVisitor}: service or scope min = max, severities in one range) is counted from its row
 * count, none of its pages read. The groups reported are the {@code maxGroups} with the most rows (ties by their
 * values); the rest are summed into one "other" series. Memory: at most {@link #MAX_TRACKED_GROUPS} distinct groups,
 * and no more than {@link #MAX_TRACKED_COUNTS} counts (groups times buckets), are counted one by one in a table; rows
 * of groups first seen beyond that go to "other" and the result says so ({@code groupsCapped}). A query holds its
 * total's table and one per scan thread at most.
 */
public final class CountsOverTime {
    /** Distinct groups counted one by one at most (per scan thread, and after merging). */
    public static final int MAX_TRACKED_GROUPS = 10_000;
    /**
     * Counts (groups times buckets) one table holds at most, 8 MiB of them: a request with more buckets counts fewer
     * groups one by one ({@link #trackedGroups}), so a table's size does not depend on the data (10,000 groups of
     * 10,000 buckets would be 800 MB, in each scan thread's table).
     */
    public static final int MAX_TRACKED_COUNTS = 1_000_000;

    private final QueryEngine engine;
    /** Whether row groups the statistics decide are counted from them (off: every row is decoded and counted). */
    private final boolean fromStatistics;

    public CountsOverTime(QueryEngine engine) {
        this(engine, true);
    }

    /** Counts with or without the row groups the statistics decide being counted from them (see the class comment). */
    CountsOverTime(QueryEngine engine, boolean fromStatistics) {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.fromStatistics = fromStatistics;
    }

    /** One series: the group's values (one per group-by field, null where a row has none), its counts per bucket. */
    public record Series(List<String> group, boolean other, long total, long[] counts) {
    }

    /**
     * The answer: bucket {@code i} starts at {@code origin + i * step}; series largest first, "other" last.
     *
     * @param total        every matching row in the window
     * @param groupsCapped more groups existed than could be counted one by one (some rows of groups not reported
     *                     may be in "other" although their group would have ranked)
     */
    public record Counts(Instant origin, java.time.Duration step, int buckets, List<Series> series, long total,
            boolean groupsCapped, QueryStats stats) {
    }

    public Counts run(CountsRequest r) throws IOException {
        long step = r.step().toNanos();
        long from = nanos(r.from());
        long to = nanos(r.to());
        long origin = Math.floorDiv(from, step) * step;
        int buckets = (int) (Math.floorDiv(to - 1 - origin, step) + 1);
        int tracked = trackedGroups(buckets);
        Table total = new Table(buckets, tracked);
        Set<String> columns = new HashSet<>();
        r.groupBy().forEach(f -> columns.addAll(f.columns()));
        QueryStats stats = engine.visitEveryRow(r.windowed(), Optional.of(columns),
                () -> new Table(buckets, tracked).counting(r, origin, step, fromStatistics), total::merge);
        return total.answer(r, origin, buckets, stats);
    }

    /**
     * The groups counted one by one for {@code buckets} buckets: {@link #MAX_TRACKED_GROUPS}, fewer when their counts
     * would exceed {@link #MAX_TRACKED_COUNTS}; at least 100 (the most groups a request reports) at the most buckets
     * a request may ask for.
     */
    static int trackedGroups(int buckets) {
        return Math.max(1, Math.min(MAX_TRACKED_GROUPS, MAX_TRACKED_COUNTS / Math.max(1, buckets)));
    }

    /** Counts by group and bucket; one per scan thread, then the merged total. */
    private static final class Table implements GroupVisitor {
        private final int buckets;
        private final int tracked;
        private final Map<List<String>, long[]> groups = new HashMap<>();
        private final long[] other;
        private boolean capped;
        private CountsRequest request;
        private long origin;
        private long step;
        private boolean fromStatistics;

        Table(int buckets, int tracked) {
            this.buckets = buckets;
            this.tracked = tracked;
            this.other = new long[buckets];
        }

        Table counting(CountsRequest r, long o, long s, boolean statistics) {
            this.fromStatistics = statistics;
            this.request = r;
            this.origin = o;
            this.step = s;
            return this;
        }

        @Override
        public boolean visit(LogRecord row) {
            int bucket = (int) Math.floorDiv(RowTime.of(row) - origin, step);
            if (bucket < 0 || bucket >= buckets) {
                return true; // the engine's window is [from, to): never, but a count must not throw on it
            }
            List<String> key;
            if (request.groupBy().isEmpty()) {
                key = List.of();
            } else {
                String[] values = new String[request.groupBy().size()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = request.groupBy().get(i).valueOf(row);
                }
                key = Collections.unmodifiableList(Arrays.asList(values));
            }
            add(key, bucket, 1);
            return true;
        }

        /**
         * A row group that matches throughout is counted from its row count when its rows' times lie in one bucket
         * and each group-by field has one value throughout the group by its statistics: the service or scope column
         * holding one string, the severity numbers lying in one range.
         */
        @Override
        public boolean visitGroup(MatchingGroup g) {
            if (!fromStatistics) {
                return false;
            }
            long first = Math.floorDiv(g.minTime() - origin, step);
            if (first != Math.floorDiv(g.maxTime() - origin, step) || first < 0 || first >= buckets) {
                return false;
            }
            String[] values = new String[request.groupBy().size()];
            for (int i = 0; i < values.length; i++) {
                Optional<String> value = constantValue(request.groupBy().get(i), g);
                if (value.isEmpty()) {
                    return false;
                }
                values[i] = value.get();
            }
            add(Collections.unmodifiableList(Arrays.asList(values)), (int) first, g.rows());
            return true;
        }

        /** The value every row of the group has in {@code field}, when the statistics prove one (never null). */
        private static Optional<String> constantValue(GroupField field, MatchingGroup g) {
            switch (field.kind()) {
                case SERVICE:
                    return g.constantString(Columns.SERVICE_NAME); // a row with the column takes its value
                case SCOPE:
                    return g.constantString(Columns.SCOPE_NAME);
                case SEVERITY:
                    return g.statistics().longBounds(Columns.SEVERITY_NUMBER).flatMap(b -> {
                        String low = b.min() < Integer.MIN_VALUE ? null : GroupField.severityRange((int) b.min());
                        String high = b.max() > Integer.MAX_VALUE ? null : GroupField.severityRange((int) b.max());
                        return low != null && low.equals(high) ? Optional.of(low) : Optional.empty();
                    });
                default:
                    return Optional.empty();
            }
        }

        private void add(List<String> key, int bucket, long n) {
            long[] counts = groups.get(key);
            if (counts == null) {
                if (groups.size() >= tracked) {
                    capped = true;
                    other[bucket] += n;
                    return;
                }
                counts = new long[buckets];
                groups.put(key, counts);
            }
            counts[bucket] += n;
        }

        void merge(Table t) {
            capped |= t.capped;
            for (int b = 0; b < buckets; b++) {
                other[b] += t.other[b];
            }
            // Group by group, bucket arrays added whole: one look-up per group, not one per bucket.
            for (Map.Entry<List<String>, long[]> e : t.groups.entrySet()) {
                long[] c = e.getValue();
                if (Arrays.stream(c).allMatch(n -> n == 0)) {
                    continue; // a group of no rows is not reported
                }
                long[] into = groups.get(e.getKey());
                if (into == null && groups.size() < tracked) {
                    into = new long[buckets];
                    groups.put(e.getKey(), into);
                } else if (into == null) {
                    capped = true;
                    into = other;
                }
                for (int b = 0; b < buckets; b++) {
                    into[b] += c[b];
                }
            }
        }

        Counts answer(CountsRequest r, long o, int n, QueryStats stats) {
            List<Series> all = new ArrayList<>();
            long total = 0;
            for (Map.Entry<List<String>, long[]> e : groups.entrySet()) {
                long sum = Arrays.stream(e.getValue()).sum();
                total += sum;
                all.add(new Series(e.getKey(), false, sum, e.getValue()));
            }
            all.sort(Comparator.comparingLong(Series::total).reversed().thenComparing(s -> String.valueOf(s.group())));
            long[] rest = other.clone();
            List<Series> kept = new ArrayList<>(all.subList(0, Math.min(r.maxGroups(), all.size())));
            for (Series s : all.subList(kept.size(), all.size())) {
                for (int b = 0; b < n; b++) {
                    rest[b] += s.counts()[b];
                }
            }
            long restTotal = Arrays.stream(rest).sum();
            total += Arrays.stream(other).sum();
            if (restTotal > 0) {
                kept.add(new Series(List.of(), true, restTotal, rest));
            }
            Instant originTime = Instant.ofEpochSecond(Math.floorDiv(o, 1_000_000_000L), Math.floorMod(o,
                    1_000_000_000L));
            return new Counts(originTime, r.step(), n, kept, total, capped, stats);
        }
    }

    private static long nanos(Instant t) {
        return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000_000L), t.getNano());
    }
}
