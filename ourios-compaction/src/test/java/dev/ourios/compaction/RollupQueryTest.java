package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.LogGenerator;
import dev.ourios.query.DeadRowsException;
import dev.ourios.query.LiveFiles;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.DayPartition;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import dev.ourios.table.ingest.IngestWriter;
import io.opentelemetry.api.metrics.MeterProvider;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Queries and {@code ourios files} over rolled-up hours (storage.md 4.15) answer as over the same rows left hourly:
 * a covered hour is read from the day files (its rows only) and its late files; rows of a void cover are skipped by
 * queries and make the file list refuse the day until the next rollup.
 */
class RollupQueryTest {
    private static final String TENANT = "acme";
    private static final DayPartition DAY = DayPartition.of(PartitionKey.ofHour(TENANT, TestStores.HOUR));

    @TempDir
    Path dir;

    private static QueryEngine engine(LocalObjectStore store) {
        return new QueryEngine(store, new TableLayout(store), new TableReader(store, new ManifestCodec()),
                MeterProvider.noop());
    }

    private static List<String> run(LocalObjectStore store, Query q) throws Exception {
        List<String> got = new ArrayList<>();
        engine(store).run(q, r -> got.add(TestStores.identity(r)));
        return got;
    }

    private void sweep(LocalObjectStore store, boolean rollup) {
        CompactionOptions o = CompactionOptions.defaults(dir.resolve("scratch")).withRollup(rollup);
        SweepReport r = TestStores.runner(store, o.scratchDir(), o, MeterProvider.noop())
                .sweep(PartitionFilter.all(), x -> { });
        assertFalse(r.hasErrors(), r.toString());
    }

    @Test
    void queriesCountsAndTheFileListOverCoveredHoursAnswerAsOverTheHours() throws Exception {
        LocalObjectStore hourly = new LocalObjectStore(dir.resolve("hourly"));
        LocalObjectStore rolled = new LocalObjectStore(dir.resolve("rolled"));
        for (LocalObjectStore s : List.of(hourly, rolled)) {
            TestStores.generate(s, TestStores.spec(List.of(TENANT), 4, 3, 400, 17));
        }
        sweep(hourly, false);
        sweep(rolled, true);
        assertTrue(new TableReader(rolled, new ManifestCodec()).hourSnapshot(DAY.hour(11)).isCovered());
        // A late file in a covered hour, landed in both.
        List<LogRecord> late = new LogGenerator(TestStores.spec(List.of(TENANT), 4, 3, 60, 71)).file(TENANT, 1, 0);
        for (LocalObjectStore s : List.of(hourly, rolled)) {
            new IngestWriter(s).writeFile(DAY.hour(11), late);
        }
        assertAnswersAlike(hourly, rolled);
        assertEquals(1, engine(rolled).count(Query.tenant(TENANT)).files(),
                "a count of whole covered hours takes their rows from the covers and reads the late file alone");
        assertEquals(2, engine(rolled).count(Query.tenant(TENANT).severityMin(0)).files(),
                "a count the covers do not answer reads the day file once for its four hours, and the late file");

        // The file list: the day file once, the late file, and DuckDB over it counts every row once.
        LiveFiles files = new LiveFiles(rolled, new TableLayout(rolled), new TableReader(rolled, new ManifestCodec()));
        List<String> paths = files.paths(TENANT, Optional.empty(), Optional.empty());
        assertEquals(2, paths.size(), paths.toString());
        assertEquals(engine(hourly).count(Query.tenant(TENANT)).rows(), duckCount(paths));

        // A void cover: the hour commits on top of the generation it was covered at (the race of storage.md 4.15).
        TestStores.voidCoverOf(rolled, DAY.hour(12));
        assertFalse(new TableReader(rolled, new ManifestCodec()).hourSnapshot(DAY.hour(12)).isCovered());
        assertAnswersAlike(hourly, rolled);
        DeadRowsException e = assertThrows(DeadRowsException.class,
                () -> files.paths(TENANT, Optional.empty(), Optional.empty()));
        assertTrue(e.getMessage().contains(DAY.prefix()) && e.getMessage().contains("hour 12"), e.getMessage());

        // The next rollup drops the dead rows and covers the hour again; the list is whole again.
        sweep(rolled, true);
        assertTrue(new TableReader(rolled, new ManifestCodec()).hourSnapshot(DAY.hour(12)).isCovered());
        assertAnswersAlike(hourly, rolled);
        List<String> again = files.paths(TENANT, Optional.empty(), Optional.empty());
        assertEquals(engine(hourly).count(Query.tenant(TENANT)).rows(), duckCount(again));
    }

    /**
     * A count read by several scan threads at once lists each day partition once and reads its manifest once for
     * the whole query (every thread decides its hours against that one snapshot), and answers as over the hours.
     */
    @Test
    void aCountOverSeveralDaysListsEachDayPartitionOnce() throws Exception {
        List<LocalObjectStore> stores = threeDaysHourlyAndRolled(23);
        LocalObjectStore hourly = stores.get(0);
        LocalObjectStore rolled = stores.get(1);
        java.util.Map<String, Integer> listed = new java.util.concurrent.ConcurrentHashMap<>();
        java.util.Map<String, Integer> read = new java.util.concurrent.ConcurrentHashMap<>();
        dev.ourios.store.ObjectStore watched = new dev.ourios.store.ForwardingObjectStore(rolled) {
            @Override
            public List<dev.ourios.store.ObjectInfo> listObjects(String prefix) throws java.io.IOException {
                listed.merge(prefix, 1, Integer::sum);
                return super.listObjects(prefix);
            }

            @Override
            public byte[] readAllBytes(String key) throws java.io.IOException {
                read.merge(key, 1, Integer::sum);
                return super.readAllBytes(key);
            }
        };
        for (int threads : List.of(1, 2, 4)) {
            listed.clear();
            read.clear();
            QueryEngine watchedEngine = new QueryEngine(watched, new TableLayout(watched),
                    new TableReader(watched, new ManifestCodec(), 0), MeterProvider.noop(), threads);
            assertEquals(engine(hourly).count(Query.tenant(TENANT)).rows(),
                    watchedEngine.count(Query.tenant(TENANT)).rows(), threads + " threads");
            java.util.Map<String, Integer> dayListings = new java.util.TreeMap<>();
            listed.forEach((k, v) -> {
                if (k.endsWith("/" + DayPartition.DIRECTORY + "/")) {
                    dayListings.put(k, v);
                }
            });
            assertEquals(3, dayListings.size(), dayListings.toString());
            assertTrue(dayListings.values().stream().allMatch(v -> v == 1), threads + " threads: " + dayListings);
            read.forEach((k, v) -> assertEquals(1, v, threads + " threads: " + k + " read " + v + " times"));
        }
    }

    /**
     * On a remote store a count and an aggregate plan their days side by side (each day's listing, manifest and
     * hours' listing at once with the others'), answer as over the hours, still list each day partition once, and
     * fail with a day's failure rather than hang.
     */
    @Test
    @org.junit.jupiter.api.Timeout(value = 2, unit = java.util.concurrent.TimeUnit.MINUTES)
    void onARemoteStoreDaysArePlannedSideBySide() throws Exception {
        List<LocalObjectStore> stores = threeDaysHourlyAndRolled(29);
        LocalObjectStore hourly = stores.get(0);
        LocalObjectStore rolled = stores.get(1);
        java.util.Map<String, Integer> listed = new java.util.concurrent.ConcurrentHashMap<>();
        java.util.concurrent.atomic.AtomicReference<java.util.concurrent.CountDownLatch> together =
                new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicBoolean overlapped = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicReference<String> failing = new java.util.concurrent.atomic.AtomicReference<>();
        dev.ourios.store.ObjectStore remote = new dev.ourios.store.ForwardingObjectStore(rolled) {
            @Override
            public boolean isRemote() {
                return true;
            }

            @Override
            public List<dev.ourios.store.ObjectInfo> listObjects(String prefix) throws java.io.IOException {
                if (prefix.endsWith("/" + DayPartition.DIRECTORY + "/")) {
                    listed.merge(prefix, 1, Integer::sum);
                    if (prefix.equals(failing.get())) {
                        throw new java.io.IOException("listing " + prefix + " failed");
                    }
                    java.util.concurrent.CountDownLatch l = together.get();
                    // Two days' listings in flight at once, or the planning ran one day after the other.
                    if (inFlight.incrementAndGet() >= 2) {
                        overlapped.set(true);
                    }
                    try {
                        l.countDown();
                        l.await(5, java.util.concurrent.TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new java.io.InterruptedIOException();
                    } finally {
                        inFlight.decrementAndGet();
                    }
                }
                return super.listObjects(prefix);
            }
        };
        // One scan thread: only the planning of days can overlap.
        QueryEngine remoteEngine = new QueryEngine(remote, new TableLayout(remote),
                new TableReader(remote, new ManifestCodec()), MeterProvider.noop(), 1);
        Query all = Query.tenant(TENANT);
        together.set(new java.util.concurrent.CountDownLatch(2));
        assertEquals(engine(hourly).count(all).rows(), remoteEngine.count(all).rows());
        assertTrue(overlapped.get(), "two days were planned at once");
        assertEquals(3, listed.size(), listed.toString());
        assertTrue(listed.values().stream().allMatch(v -> v == 1), listed.toString());

        listed.clear();
        overlapped.set(false);
        together.set(new java.util.concurrent.CountDownLatch(2));
        assertEquals(run(hourly, all).stream().sorted().toList(), everyRowOf(remoteEngine, all));
        assertTrue(overlapped.get(), "two days were planned at once for an aggregate over every row");

        failing.set(DayPartition.of(PartitionKey.ofHour(TENANT, TestStores.HOUR.plusSeconds(24 * 3600))).prefix());
        together.set(new java.util.concurrent.CountDownLatch(1));
        java.io.IOException e = assertThrows(java.io.IOException.class, () -> remoteEngine.count(all));
        assertTrue(e.getMessage().contains(failing.get()), e.getMessage());
    }

    /**
     * Engines kept warm across changes of the store (their manifest and footer caches filled, their queries read
     * by one to three threads) answer every count and every aggregate as over the same rows left hourly, whatever
     * lands in between: late files in covered hours, an hour commit voiding a cover, a new day generation. Only
     * content immutable by name is kept; what exists is listed again by every query.
     */
    @Test
    @org.junit.jupiter.api.Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
    void warmEnginesAnswerAsTheHoursUnderLateFilesVoidCoversAndNewDayGenerations() throws Exception {
        long seed = System.nanoTime();
        java.util.Random r = new java.util.Random(seed);
        List<LocalObjectStore> stores = threeDaysHourlyAndRolled(r.nextInt(1000));
        LocalObjectStore hourly = stores.get(0);
        LocalObjectStore rolled = stores.get(1);
        List<QueryEngine> warm = new ArrayList<>();
        for (int threads = 1; threads <= 3; threads++) {
            warm.add(new QueryEngine(rolled, new TableLayout(rolled), new TableReader(rolled, new ManifestCodec()),
                    MeterProvider.noop(), threads));
        }
        String service = engine(hourly).collect(Query.tenant(TENANT).limit(1)).rows().get(0).serviceName();
        Instant h = TestStores.HOUR;
        for (int round = 0; round < 6; round++) {
            int index = r.nextInt(40);
            PartitionKey hour = PartitionKey.ofHour(TENANT, h.plusSeconds(3600L * index));
            String change;
            switch (r.nextInt(3)) {
                case 0 -> {
                    List<LogRecord> late = new LogGenerator(TestStores.spec(List.of(TENANT), 40, 1, 5 + r.nextInt(20),
                            r.nextInt(1_000_000))).file(TENANT, index, 0);
                    for (LocalObjectStore s : List.of(hourly, rolled)) {
                        new IngestWriter(s).writeFile(hour, late);
                    }
                    change = "a late file in " + hour;
                }
                case 1 -> {
                    dev.ourios.table.PartitionSnapshot now = new TableReader(rolled, new ManifestCodec())
                            .hourSnapshot(hour);
                    // voided by the hour's next generation naming its files (one it was covered at must exist)
                    boolean voids = now.isCovered() && now.generation() > 0;
                    if (voids) {
                        TestStores.voidCoverOf(rolled, hour);
                    }
                    change = voids ? "the cover of " + hour + " voided" : "nothing (" + hour + " not voidable)";
                }
                default -> {
                    sweep(rolled, true);
                    change = "a rollup sweep";
                }
            }
            int from = r.nextInt(40);
            int to = from + 1 + r.nextInt(40 - from);
            List<Query> queries = List.of(Query.tenant(TENANT), Query.tenant(TENANT).service(service),
                    Query.tenant(TENANT).window(h.plusSeconds(3600L * from + r.nextInt(3600)),
                            h.plusSeconds(3600L * to)));
            for (Query q : queries) {
                String ctx = "seed=" + seed + " round=" + round + " after " + change + ": " + q;
                long want = engine(hourly).count(q).rows();
                List<String> rows = run(hourly, q).stream().sorted().toList();
                assertEquals(want, engine(rolled).count(q).rows(), ctx + " (a fresh engine)");
                for (int t = 0; t < warm.size(); t++) {
                    assertEquals(want, warm.get(t).count(q).rows(), ctx + " (warm, " + (t + 1) + " threads)");
                    assertEquals(rows, everyRowOf(warm.get(t), q), ctx + " (every row, warm, " + (t + 1)
                            + " threads)");
                }
            }
        }
    }

    /** Forty hours from 10:00 (three days) of one tenant, landed alike in two stores: left hourly, rolled up. */
    private List<LocalObjectStore> threeDaysHourlyAndRolled(long seed) throws Exception {
        LocalObjectStore hourly = new LocalObjectStore(dir.resolve("hourly"));
        LocalObjectStore rolled = new LocalObjectStore(dir.resolve("rolled"));
        for (LocalObjectStore s : List.of(hourly, rolled)) {
            TestStores.generate(s, TestStores.spec(List.of(TENANT), 40, 1, 30, seed));
        }
        sweep(hourly, false);
        sweep(rolled, true);
        return List.of(hourly, rolled);
    }

    private static List<String> everyRowOf(QueryEngine engine, Query q) throws Exception {
        List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        engine.visitEveryRow(q, Optional.empty(), () -> r -> seen.add(TestStores.identity(r)), v -> { });
        return seen.stream().sorted().toList();
    }

    private static void assertAnswersAlike(LocalObjectStore hourly, LocalObjectStore rolled) throws Exception {
        Instant h = TestStores.HOUR;
        List<Query> queries = List.of(Query.tenant(TENANT),
                Query.tenant(TENANT).window(h.plusSeconds(1800), h.plusSeconds(3 * 3600 + 600)),
                Query.tenant(TENANT).severityMin(13),
                Query.tenant(TENANT).limit(25).order(Query.Order.NEWEST_FIRST),
                Query.tenant(TENANT).limit(25).order(Query.Order.OLDEST_FIRST).window(h.plusSeconds(3600),
                        h.plusSeconds(3 * 3600)));
        for (Query q : queries) {
            List<String> want = run(hourly, q);
            List<String> got = run(rolled, q);
            if (q.limit().isPresent()) {
                assertEquals(want, got, q.toString());
            } else {
                assertEquals(want.stream().sorted().toList(), got.stream().sorted().toList(), q.toString());
            }
            assertEquals(engine(hourly).count(q).rows(), engine(rolled).count(q).rows(), "count " + q);
            if (q.limit().isEmpty()) {
                assertEquals(want.stream().sorted().toList(), everyRow(rolled, q), "every row of " + q);
            }
        }
        String service = engine(hourly).collect(Query.tenant(TENANT).limit(1)).rows().get(0).serviceName();
        Query byService = Query.tenant(TENANT).service(service);
        assertEquals(run(hourly, byService).stream().sorted().toList(),
                run(rolled, byService).stream().sorted().toList(), byService.toString());
    }

    /** The rows an aggregate over every row sees (any order; a day file read once for its hours). */
    private static List<String> everyRow(LocalObjectStore store, Query q) throws Exception {
        return everyRowOf(engine(store), q);
    }

    private static long duckCount(List<String> paths) throws Exception {
        Properties props = new Properties();
        props.setProperty("autoinstall_known_extensions", "false");
        props.setProperty("autoload_known_extensions", "false");
        String list = paths.stream().map(p -> "'" + p + "'").collect(Collectors.joining(","));
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:", props);
                ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM read_parquet([" + list + "])")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
