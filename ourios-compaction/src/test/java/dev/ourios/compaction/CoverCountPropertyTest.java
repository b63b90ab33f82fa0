package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.LogGenerator;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.query.QueryStats;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.CommitKind;
import dev.ourios.table.Cover;
import dev.ourios.table.DayPartition;
import dev.ourios.table.Manifest;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.ServiceRows;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import dev.ourios.table.ingest.IngestWriter;
import io.opentelemetry.api.metrics.MeterProvider;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A count of whole covered hours answered from the day manifest's rows per service (storage.md 4.15, "Service counts"
 * and "Queries") equals the count of a full read, whatever the day went through: late files (with and without a
 * service), later rollups that consume them, deletions through the day partition (which count the rows they keep), voided
 * covers, and manifests written without counts.
 */
class CoverCountPropertyTest {
    private static final String TENANT = "acme";
    private static final int HOURS = 40; // from 10:00: three days, the first and last cut
    private static final Instant START = TestStores.HOUR;

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
    void aCountFromCoversEqualsAFullRead() throws Exception {
        long seed = Long.getLong("ourios.test.seed", System.nanoTime());
        System.out.println("CoverCountPropertyTest seed " + seed + " (replay with -Dourios.test.seed=" + seed + ")");
        Random r = new Random(seed);
        int fromCovers = 0;
        for (int trial = 0; trial < 3; trial++) {
            LocalObjectStore store = new LocalObjectStore(dir.resolve("t" + trial));
            TestStores.generate(store, TestStores.spec(List.of(TENANT), HOURS, 1 + r.nextInt(2), 10 + r.nextInt(40),
                    r.nextInt(1_000_000)));
            sweep(store);
            assertCoversCounted(store, "seed=" + seed + " trial " + trial + " after the first rollup");
            List<String> services = services(store);
            for (int step = 0; step < 5; step++) {
                String change = change(store, r, services);
                String ctx = "seed=" + seed + " trial " + trial + " step " + step + " after " + change;
                for (int q = 0; q < 6; q++) {
                    fromCovers += checkOne(store, randomQuery(r, services), ctx);
                }
                assertVerified(store, ctx); // the covers' counts agree with the day files, as verify reads them
            }
        }
        assertTrue(fromCovers > 0, "seed=" + seed + ": some count was answered from covers");
    }

    /** An old day manifest, without rows per service, still counts right: its day files are read. */
    @Test
    void aDayManifestWithoutServicesCountsByReading() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("old"));
        TestStores.generate(store, TestStores.spec(List.of(TENANT), HOURS, 2, 30, 5));
        sweep(store);
        Query all = Query.tenant(TENANT);
        String service = services(store).get(0);
        long want = engine(store).count(all.severityMin(0)).rows();
        long wantService = engine(store).count(all.service(service).severityMin(0)).rows();
        TableReader reader = new TableReader(store, new ManifestCodec(), 0);
        for (DayPartition day : days()) {
            PartitionSnapshot s = reader.daySnapshot(day);
            Manifest m = s.manifest().orElseThrow();
            assertTrue(m.covers().stream().allMatch(c -> c.services().isPresent()), m.covers().toString());
            // The day's next generation as a build without service counts writes it: the same files and covers.
            Manifest old = Manifest.ofDay(m.generation() + 1, m.files(), m.retired(),
                    m.commitRecord().orElseThrow().complete().orElseThrow(), m.main(),
                    m.covers().stream().map(Cover::withoutServices).toList());
            String key = day.prefix() + dev.ourios.core.FileNames.manifestName(m.generation() + 1);
            assertTrue(store.putIfAbsent(key, new ManifestCodec().encode(key, old)));
            assertFalse(new String(store.readAllBytes(key), StandardCharsets.UTF_8).contains("services"));
        }
        Watched every = watched(store, 1, all);
        assertEquals(want, every.stats().rows());
        assertTrue(every.dayFiles() > 0, "without counts the day files are read");
        assertEquals(wantService, watched(store, 1, all.service(service)).stats().rows());
    }

    /**
     * A day manifest whose covers' counts disagree with its files (rows moved from one service to another, the sums
     * unchanged, so the manifest itself is valid) is reported by {@code verify}, naming the manifest and the hour; an
     * upper bound below the rows the files hold too.
     */
    @Test
    void verifyReportsCoverCountsTheDayFilesDoNotHold() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("tampered"));
        TestStores.generate(store, TestStores.spec(List.of(TENANT), HOURS, 2, 30, 11));
        sweep(store);
        assertVerified(store, "as written");
        TableReader reader = new TableReader(store, new ManifestCodec(), 0);
        DayPartition day = days().get(1);
        Manifest m = reader.daySnapshot(day).manifest().orElseThrow();
        Cover first = m.covers().get(0);
        List<ServiceRows> moved = new ArrayList<>(first.services().orElseThrow());
        assertTrue(moved.size() >= 2 && moved.get(0).rows() >= 2, moved.toString());
        moved.set(0, new ServiceRows(moved.get(0).service(), moved.get(0).rows() - 1));
        moved.set(1, new ServiceRows(moved.get(1).service(), moved.get(1).rows() + 1));
        List<Cover> covers = new ArrayList<>(m.covers());
        covers.set(0, new Cover(first.hour(), first.generation(), first.rows(), first.names(),
                java.util.Optional.of(moved)));
        Cover second = covers.get(1);
        covers.set(1, new Cover(second.hour(), second.generation(), second.rows() - 1, second.names()));
        Manifest tampered = Manifest.ofDay(m.generation() + 1, m.files(), m.retired(),
                m.commitRecord().orElseThrow().complete().orElseThrow(), m.main(), covers);
        String key = day.prefix() + dev.ourios.core.FileNames.manifestName(m.generation() + 1);
        assertTrue(store.putIfAbsent(key, new ManifestCodec().encode(key, tampered)));
        List<String> problems = verifyProblems(store);
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains(dev.ourios.core.FileNames.manifestName(m.generation() + 1))
                && problems.get(0).contains("the cover of hour " + first.hourLabel() + " says"), problems.toString());
        assertTrue(problems.get(1).contains("the cover of hour " + second.hourLabel() + " says at most "
                + (second.rows() - 1) + " rows, the day files hold " + second.rows()), problems.toString());
    }

    private static void assertVerified(ObjectStore store, String ctx) throws IOException {
        assertEquals(List.of(), verifyProblems(store), ctx);
    }

    private static List<String> verifyProblems(ObjectStore store) throws IOException {
        List<String> problems = new ArrayList<>();
        new dev.ourios.compaction.verify.Verifier(store, new TableLayout(store),
                new TableReader(store, new ManifestCodec(), 0)).verify(PartitionFilter.all(),
                        v -> problems.addAll(v.problems()));
        return problems;
    }

    /**
     * A count of one service over whole covered days takes every hour from the covers: no day file is opened, only
     * the listings and manifests are read; the same count with a condition the covers do not answer opens them.
     */
    @Test
    void aCountAnsweredFromCoversOpensNoDayFile() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("month"));
        TestStores.generate(store, TestStores.spec(List.of(TENANT), HOURS, 2, 30, 11));
        sweep(store);
        String service = services(store).get(0);
        Query month = Query.tenant(TENANT).service(service);
        long want = engine(store).count(month.severityMin(0)).rows();
        assertTrue(want > 0);
        Instant end = START.plusSeconds(HOURS * 3600L);
        for (int threads : List.of(1, 2)) {
            Watched counted = watched(store, threads, month);
            assertEquals(want, counted.stats().rows(), threads + " threads");
            assertEquals(0, counted.dayFiles(), threads + " threads: a day file was opened");
            assertEquals(0, counted.stats().files(), threads + " threads: no file read");
            Watched aligned = watched(store, threads, month.window(START, end));
            assertEquals(want, aligned.stats().rows());
            assertEquals(0, aligned.dayFiles(), "an hour-aligned window opens no day file");
            assertEquals(1, watched(store, threads, month.window(START.plusSeconds(1800), end)).dayFiles(),
                    "a window cutting an hour reads that hour's day file");
            assertEquals(3, watched(store, threads, month.severityMin(0)).dayFiles(),
                    "a condition the covers do not answer reads every day's file");
        }
    }

    /** A rollup writes counts on every cover; a deletion counts the rows it keeps; the next rollup counts again. */
    @Test
    void aDeletionCountsTheRowsItKeepsAndTheNextRollupCountsAgain() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("delete"));
        TestStores.generate(store, TestStores.spec(List.of(TENANT), HOURS, 2, 30, 13));
        sweep(store);
        DayPartition day = DayPartition.of(PartitionKey.ofHour(TENANT, START));
        Query window = Query.tenant(TENANT).window(START.plusSeconds(600), START.plusSeconds(5400));
        String service = engine(store).collect(window.limit(1)).rows().get(0).serviceName();
        Query request = window.service(service);
        long removed = engine(store).count(request).rows();
        assertTrue(removed > 0);
        List<DeletionResult> done = CompactionWiring.deletion(DeletionSettings.of(store, options()))
                .run(new DeletionRequest(request), false, x -> { });
        assertTrue(done.stream().noneMatch(x -> x.status() == DeletionResult.Status.ERROR), done.toString());
        Manifest deleted = new TableReader(store, new ManifestCodec(), 0).daySnapshot(day).manifest().orElseThrow();
        assertEquals(CommitKind.DELETE, deleted.commitRecord().orElseThrow().commitKind().orElseThrow());
        assertTrue(deleted.covers().stream().allMatch(c -> c.services().isPresent()), deleted.covers().toString());
        assertCoversCounted(store, "after the deletion");
        assertEquals(0, engine(store).count(request).rows());
        assertEquals(1, checkOne(store, Query.tenant(TENANT).service(service), "after the deletion"),
                "the count of the service is answered from the deletion's covers");

        // A late file makes the day a candidate: its rollup counts every cover exactly again, rows included.
        List<LogRecord> late = new LogGenerator(TestStores.spec(List.of(TENANT), HOURS, 1, 7, 17)).file(TENANT, 1, 0);
        new IngestWriter(store).writeFile(day.hour(11), late);
        new IngestWriter(store).writeFile(day.hour(11), withoutService(day.hour(11), 3));
        sweep(store);
        Manifest again = new TableReader(store, new ManifestCodec(), 0).daySnapshot(day).manifest().orElseThrow();
        assertEquals(CommitKind.ROLLUP, again.commitRecord().orElseThrow().commitKind().orElseThrow());
        assertCoversCounted(store, "after the next rollup");
        assertEquals(ServiceRows.of(null, 3), again.cover(11).orElseThrow().services().orElseThrow().get(0),
                "the rows without a service, first");
        assertEquals(1, checkOne(store, Query.tenant(TENANT).service(service), "after the next rollup"));
        assertEquals(1, checkOne(store, Query.tenant(TENANT), "every row, after the next rollup"));
    }

    /**
     * Compares {@code q}'s count with the same count through a full read (a severity floor of 0 holds for every row
     * but is not answered by covers) and through the rows; returns 1 when the count read fewer files (covers
     * answered some hour), else 0.
     */
    private static int checkOne(ObjectStore store, Query q, String ctx) throws IOException {
        QueryStats fromCovers = engine(store).count(q);
        QueryStats read = engine(store).count(q.severityMin(0));
        long[] rows = {0};
        engine(store).run(q, x -> rows[0]++);
        assertEquals(read.rows(), fromCovers.rows(), ctx + ": " + q);
        assertEquals(rows[0], fromCovers.rows(), ctx + ": rows of " + q);
        return fromCovers.files() < read.files() ? 1 : 0;
    }

    /** One random change of the store; returns what it did. */
    private String change(LocalObjectStore store, Random r, List<String> services) throws Exception {
        int index = r.nextInt(HOURS);
        PartitionKey hour = PartitionKey.ofHour(TENANT, START.plusSeconds(3600L * index));
        switch (r.nextInt(5)) {
            case 0 -> {
                List<LogRecord> late = new LogGenerator(TestStores.spec(List.of(TENANT), HOURS, 1, 3 + r.nextInt(20),
                        r.nextInt(1_000_000))).file(TENANT, index, 0);
                new IngestWriter(store).writeFile(hour, late);
                return "a late file in " + hour;
            }
            case 1 -> {
                new IngestWriter(store).writeFile(hour, withoutService(hour, 1 + r.nextInt(5)));
                return "a late file without a service in " + hour;
            }
            case 2 -> {
                sweep(store);
                assertCoversCounted(store, "a rollup");
                return "a rollup sweep";
            }
            case 3 -> {
                String service = services.get(r.nextInt(services.size()));
                Instant from = START.plusSeconds(3600L * index + r.nextInt(3600));
                Query request = Query.tenant(TENANT).service(service).window(from,
                        from.plusSeconds(600 + r.nextInt(3 * 3600)));
                List<DeletionResult> done = CompactionWiring.deletion(DeletionSettings.of(store, options()))
                        .run(new DeletionRequest(request), false, x -> { });
                assertTrue(done.stream().noneMatch(x -> x.status() == DeletionResult.Status.ERROR), done.toString());
                return "a deletion of " + request;
            }
            default -> {
                PartitionSnapshot now = new TableReader(store, new ManifestCodec(), 0).hourSnapshot(hour);
                if (!now.isCovered() || now.generation() == 0) {
                    return "nothing (" + hour + " not voidable)";
                }
                TestStores.voidCoverOf(store, hour);
                return "the cover of " + hour + " voided";
            }
        }
    }

    private static Query randomQuery(Random r, List<String> services) {
        Query q = Query.tenant(TENANT);
        switch (r.nextInt(4)) {
            case 0 -> q = q.service(services.get(r.nextInt(services.size())));
            case 1 -> q = q.service("no-such-service");
            default -> {
            }
        }
        int from = r.nextInt(HOURS);
        int to = from + 1 + r.nextInt(HOURS - from);
        return switch (r.nextInt(3)) {
            case 0 -> q;
            case 1 -> q.window(START.plusSeconds(3600L * from), START.plusSeconds(3600L * to));
            default -> {
                Instant cutFrom = START.plusSeconds(3600L * from + r.nextInt(3600));
                Instant cutTo = START.plusSeconds(3600L * to - r.nextInt(3600));
                yield q.window(cutFrom, cutTo.isAfter(cutFrom) ? cutTo : cutFrom.plusSeconds(1));
            }
        };
    }

    /** Every cover of every day carries services adding up to its rows (the validator checks the sum on read). */
    private static void assertCoversCounted(ObjectStore store, String ctx) throws IOException {
        TableReader reader = new TableReader(store, new ManifestCodec(), 0);
        for (DayPartition day : days()) {
            Manifest m = reader.daySnapshot(day).manifest().orElseThrow();
            CommitKind kind = m.commitRecord().flatMap(c -> c.commitKind()).orElse(CommitKind.COMPACT);
            if (kind != CommitKind.ROLLUP && (kind != CommitKind.DELETE || m.files().isEmpty())) {
                continue; // an expiry's, or a deletion of every row's: counts unknown until the day's next rollup
            }
            for (Cover c : m.covers()) {
                assertTrue(c.services().isPresent(), ctx + ": " + day + " hour " + c.hourLabel());
                assertEquals(c.rows(), c.services().get().stream().mapToLong(ServiceRows::rows).sum(), ctx);
            }
        }
    }

    private static List<DayPartition> days() {
        Set<DayPartition> out = new TreeSet<>(java.util.Comparator.comparing(DayPartition::date));
        for (int h = 0; h < HOURS; h++) {
            out.add(DayPartition.of(PartitionKey.ofHour(TENANT, START.plusSeconds(3600L * h))));
        }
        return List.copyOf(out);
    }

    private static List<String> services(ObjectStore store) throws IOException {
        Set<String> out = new TreeSet<>();
        engine(store).run(Query.tenant(TENANT), x -> {
            if (x.serviceName() != null) {
                out.add(x.serviceName());
            }
        });
        return List.copyOf(out);
    }

    /** Rows whose resource has no service.name: their service is null. */
    private static List<LogRecord> withoutService(PartitionKey hour, int n) {
        List<LogRecord> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long t = hour.hourStartNanos() + (i + 1) * 1_000_000_000L;
            out.add(LogRecord.builder(TENANT).timeUnixNano(t).observedTimeUnixNano(t).severityNumber(9)
                    .resourceAttributes("[]").attributes("[]").bodyKind(0)
                    .body(("no service " + i).getBytes(StandardCharsets.UTF_8)).lossyFlag(true).confidence(1f)
                    .build());
        }
        return out;
    }

    private CompactionOptions options() {
        return CompactionOptions.defaults(dir.resolve("scratch")).withRollup(true);
    }

    private void sweep(LocalObjectStore store) {
        CompactionOptions o = options();
        SweepReport report = TestStores.runner(store, o.scratchDir(), o, MeterProvider.noop())
                .sweep(PartitionFilter.all(), x -> { });
        assertFalse(report.hasErrors(), report.toString());
    }

    private static QueryEngine engine(ObjectStore store) {
        return new QueryEngine(store, new TableLayout(store), new TableReader(store, new ManifestCodec(), 0),
                MeterProvider.noop());
    }

    /** What a count read: its stats, and the day files (a day partition's Parquet files) the store was asked for. */
    private record Watched(QueryStats stats, long dayFiles) {
    }

    private static Watched watched(ObjectStore store, int threads, Query q) throws IOException {
        TenantIsolationPropertyTest.KeyRecordingStore recording = new TenantIsolationPropertyTest.KeyRecordingStore(
                store);
        QueryStats stats = new QueryEngine(recording, new TableLayout(recording),
                new TableReader(recording, new ManifestCodec(), 0), MeterProvider.noop(), threads).count(q);
        return new Watched(stats, recording.keys().stream()
                .filter(k -> DayPartition.isInDayPartition(k) && k.endsWith(".parquet")).count());
    }
}
