package dev.ourios.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.RowSelection;
import dev.ourios.core.RowTime;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.query.aggregate.CountsOverTime;
import dev.ourios.query.aggregate.CountsRequest;
import dev.ourios.query.aggregate.GroupField;
import dev.ourios.query.search.SearchQuery;
import dev.ourios.testkit.TestSeed;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Counts over time take the fast paths (rows decided on columns a run at a time, row groups counted from their
 * statistics, partitions read at once by several threads) and still give the counts a model computes from the rows
 * with the query's own predicate, and the same counts whatever the thread count: random searches, windows, steps and
 * group-by fields over hours holding compacted files of random row-group sizes (their inputs retired but present),
 * late ingest files landed after a compaction, and ingest files alone. The rows come from the generator: some with
 * time 0 (their effective time is the observed time), observed times past the hour's end.
 */
class CountsOverTimePathsTest {
    private static final String TENANT = "default";
    private static final Instant HOUR = Instant.parse("2026-11-01T10:00:00Z");
    private static final int HOURS = 5;
    private static final List<String> SEARCHES = List.of("", "severity:>=error", "severity:>=warn", "service:cart",
            "service:cart severity:>=warn", "severity:error", "NOT service:frontend", "attributes.app.user.id:*",
            "service:cart OR severity:warn");
    private static final List<String> FIELDS = List.of("service", "severity", "scope");
    private static final List<Duration> STEPS = List.of(Duration.ofMinutes(1), Duration.ofSeconds(7),
            Duration.ofMinutes(10), Duration.ofHours(1));

    @TempDir
    Path dir;

    @Test
    void fast_paths_count_what_the_rows_say_whatever_the_threads() throws Exception {
        long seed = TestSeed.announce(CountsOverTimePathsTest.class);
        Random random = new Random(seed);
        TestStore store = new TestStore(dir, seed);
        List<LogRecord> rows = land(store, random, seed);
        List<QueryEngine> engines = List.of(store.engine(1), store.engine(2), store.engine(3));
        for (int i = 0; i < 30; i++) {
            String text = SEARCHES.get(random.nextInt(SEARCHES.size()));
            Instant from = random.nextInt(3) == 0 ? HOUR : HOUR.plusSeconds(random.nextInt(3600 * HOURS));
            long left = Duration.between(from, HOUR.plusSeconds(3600L * HOURS)).toSeconds();
            Instant to = random.nextInt(3) == 0 ? HOUR.plusSeconds(3600L * HOURS)
                    : from.plusSeconds(1 + random.nextLong(left));
            Query q = Query.tenant(TENANT).window(from, to);
            if (!text.isEmpty()) {
                q = SearchQuery.parse(text).applyTo(q);
            }
            List<GroupField> by = new ArrayList<>();
            for (int f = random.nextInt(3); f > 0; f--) {
                by.add(GroupField.parse(FIELDS.get(random.nextInt(FIELDS.size()))));
            }
            Duration step = STEPS.get(random.nextInt(STEPS.size()));
            if (Duration.between(from, to).dividedBy(step) > CountsRequest.MAX_BUCKETS - 2) {
                step = Duration.ofHours(1);
            }
            String what = "seed " + seed + " q '" + text + "' [" + from + ", " + to + ") by " + by + " step " + step;
            CountsRequest request = new CountsRequest(q, from, to, step, by, 1000);
            Map<List<String>, long[]> model = model(rows, q, request);
            long total = model.values().stream().mapToLong(c -> java.util.Arrays.stream(c).sum()).sum();
            for (QueryEngine engine : engines) {
                CountsOverTime.Counts counts = new CountsOverTime(engine).run(request);
                assertEquals(total, counts.total(), what);
                assertFalse(counts.groupsCapped(), what);
                Map<List<String>, long[]> got = new HashMap<>();
                for (CountsOverTime.Series s : counts.series()) {
                    assertFalse(s.other(), what + ": every group fits, none is 'other'");
                    got.put(s.group(), s.counts());
                }
                assertEquals(model.keySet(), got.keySet(), what);
                for (Map.Entry<List<String>, long[]> e : model.entrySet()) {
                    assertArrayEquals(e.getValue(), got.get(e.getKey()), what + " group " + e.getKey());
                }
                assertEquals(total, engine.count(q).rows(), what + ": count");
            }
        }
    }

    /** The counts per group and bucket of the rows the query's predicate accepts, computed here. */
    private static Map<List<String>, long[]> model(List<LogRecord> rows, Query q, CountsRequest request) {
        long step = request.step().toNanos();
        long origin = Math.floorDiv(RowSelection.nanos(request.from()), step) * step;
        int buckets = (int) (Math.floorDiv(RowSelection.nanos(request.to()) - 1 - origin, step) + 1);
        var predicate = q.rowPredicate();
        Map<List<String>, long[]> model = new HashMap<>();
        for (LogRecord r : rows) {
            if (predicate.test(r)) {
                List<String> key = new ArrayList<>();
                for (GroupField f : request.groupBy()) {
                    key.add(f.valueOf(r));
                }
                model.computeIfAbsent(key, k -> new long[buckets])[(int) Math.floorDiv(RowTime.of(r) - origin,
                        step)]++;
            }
        }
        return model;
    }

    /**
     * Lands the hours: a compacted file (its ingest inputs retired but present) with a late ingest file after it;
     * ingest files alone; a compacted file alone; and so on round. Compacted row groups are small and of random
     * size, so some lie in one bucket with one service (counted from statistics) and others do not. Returns every
     * live row.
     */
    private static List<LogRecord> land(TestStore store, Random random, long seed) throws Exception {
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of(TENANT), HOUR, HOURS, 3, 300 + random.nextInt(500),
                seed).withServices(5));
        List<LogRecord> live = new ArrayList<>();
        for (int h = 0; h < HOURS; h++) {
            PartitionKey p = gen.partition(TENANT, h);
            WriterOptions compacted = WriterOptions.compacted(1 << 20).withRowGroupRows(30 + random.nextInt(400));
            List<LogRecord> hour = new ArrayList<>();
            for (int f = 0; f < 3; f++) {
                hour.addAll(gen.file(TENANT, h, f));
            }
            live.addAll(hour);
            switch (h % 3) {
                case 0 -> { // files 0 and 1 compacted, their inputs retired; file 2 landed late
                    List<LogRecord> first = new ArrayList<>(gen.file(TENANT, h, 0));
                    List<String> inputs = List.of(store.ingest(p, first), store.ingest(p, gen.file(TENANT, h, 1)));
                    first.addAll(gen.file(TENANT, h, 1));
                    store.commit(p, 1, store.compacted(p, first, compacted), inputs, first.size());
                    store.ingest(p, gen.file(TENANT, h, 2));
                }
                case 1 -> {
                    for (int f = 0; f < 3; f++) {
                        store.ingest(p, gen.file(TENANT, h, f));
                    }
                }
                default -> store.commit(p, 1, store.compacted(p, hour, compacted), List.of(), hour.size());
            }
        }
        return live;
    }
}
