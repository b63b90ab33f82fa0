package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.compaction.sweep.SweepRunner;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.CommitKind;
import dev.ourios.table.Cover;
import dev.ourios.table.CoveredHourException;
import dev.ourios.table.DayPartition;
import dev.ourios.table.Manifest;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableReader;
import dev.ourios.table.ingest.IngestWriter;
import io.opentelemetry.api.metrics.MeterProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rollup of small sealed hours into their day partition, through real sweeps on a real store. */
class RollupSweepTest {
    private static final String TENANT = "acme";
    private static final DayPartition DAY = DayPartition.of(PartitionKey.ofHour(TENANT, TestStores.HOUR));

    @TempDir
    Path dir;

    private static CompactionOptions options(Path scratch) {
        return CompactionOptions.defaults(scratch).withRollup(true);
    }

    private static List<String> generated(LocalObjectStore store, int hours) throws IOException {
        GeneratorSpec spec = TestStores.spec(List.of(TENANT), hours, 3, 300, 11);
        TestStores.generate(store, spec);
        List<LogRecord> rows = new ArrayList<>();
        for (int h = 0; h < hours; h++) {
            rows.addAll(TestStores.liveRows(store, PartitionKey.ofHour(TENANT, TestStores.HOUR.plusSeconds(3600L * h))));
        }
        return TestStores.identities(rows);
    }

    private static Manifest dayManifest(LocalObjectStore store) throws IOException {
        TableReader reader = new TableReader(store, new ManifestCodec());
        return reader.daySnapshot(DAY).manifest().orElseThrow();
    }

    private static SweepReport sweep(LocalObjectStore store, CompactionOptions options) {
        SweepRunner runner = TestStores.runner(store, options.scratchDir(), options, MeterProvider.noop());
        return runner.sweep(PartitionFilter.all(), r -> { });
    }

    @Test
    void smallSealedHoursRollUpIntoOneDayFileAndEveryRowStaysExactlyOnce() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        List<String> before = generated(store, 5);
        SweepReport first = sweep(store, options(dir.resolve("scratch")));
        assertEquals(List.of(), first.errors());
        assertTrue(first.partitions().stream().anyMatch(r -> r.action() == CommitKind.ROLLUP
                && r.result() == dev.ourios.compaction.PartitionResult.Result.COMMITTED), first.toString());

        Manifest day = dayManifest(store);
        assertEquals(1, day.files().size(), day.toString());
        assertEquals(List.of(10, 11, 12, 13, 14), day.covers().stream().map(Cover::hour).toList());
        assertEquals(before.size(), day.covers().stream().mapToLong(Cover::rows).sum());
        assertEquals(before, TestStores.identities(DayRows.of(store, DAY)));
        PartitionKey hour = DAY.hour(12);
        assertThrows(CoveredHourException.class, () -> TestStores.snapshot(store, hour));

        // Nothing left to do: a second sweep commits nothing.
        SweepReport second = sweep(store, options(dir.resolve("scratch")));
        assertEquals(List.of(), second.errors());
        assertEquals(0, second.count(dev.ourios.compaction.PartitionResult.Result.COMMITTED), second.toString());
        assertEquals(day, dayManifest(store));
    }

    @Test
    void verifyChecksTheDayFilesOnceAgainstTheDayCommitAndFindsATamperedOne() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        generated(store, 3);
        sweep(store, options(dir.resolve("scratch")));
        dev.ourios.compaction.verify.Verifier verifier = new dev.ourios.compaction.verify.Verifier(store,
                new dev.ourios.table.TableLayout(store), new TableReader(store, new ManifestCodec()));
        List<dev.ourios.compaction.verify.Verifier.PartitionVerdict> ok = verifier.verify(PartitionFilter.all(),
                v -> { });
        assertEquals(3, ok.size());
        for (var v : ok) {
            assertEquals(dev.ourios.compaction.verify.Verifier.Status.OK, v.status(), v.toString());
        }
        assertEquals(3 * 3 * 300, ok.stream().mapToLong(v -> v.rows()).sum(), ok.toString());

        // The day file replaced by other rows of the same day: the day commit's checksum no longer agrees.
        Manifest day = dayManifest(store);
        String dayFile = DAY.prefix() + day.files().get(0);
        PartitionSnapshot hour = new TableReader(store, new ManifestCodec()).hourSnapshot(DAY.hour(10));
        String someHourFile = hour.covered().stream().filter(o -> o.name().endsWith(".compacted.parquet"))
                .findFirst().orElseThrow().key();
        store.put(dayFile, store.readAllBytes(someHourFile));
        List<dev.ourios.compaction.verify.Verifier.PartitionVerdict> bad = verifier.verify(PartitionFilter.all(),
                v -> { });
        assertEquals(dev.ourios.compaction.verify.Verifier.Status.MISMATCH, bad.get(0).status(), bad.toString());
        assertTrue(bad.get(0).problems().toString().contains(day.files().get(0)), bad.toString());
    }

    @Test
    void theFileSizeHistogramRecordsTheDayFileSoTheSmallFileShareIsTheTenantsH4() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        generated(store, 4);
        sweep(store, CompactionOptions.defaults(dir.resolve("scratch"))); // four hour files
        io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader metrics =
                io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader.create();
        try (io.opentelemetry.sdk.metrics.SdkMeterProvider provider = io.opentelemetry.sdk.metrics.SdkMeterProvider
                .builder().registerMetricReader(metrics).build()) {
            TestStores.runner(store, dir.resolve("scratch"), options(dir.resolve("scratch")), provider)
                    .sweep(PartitionFilter.all(), r -> { });
            var sizes = metrics.collectAllMetrics().stream()
                    .filter(m -> m.getName().equals("ourios.storage.parquet.file.size")).findFirst().orElseThrow()
                    .getHistogramData().getPoints().iterator().next();
            assertEquals(1, sizes.getCount(), "one record: the day file");
            Manifest day = dayManifest(store);
            assertEquals(store.stat(DAY.prefix() + day.files().get(0)).orElseThrow().size(), (long) sizes.getSum());
            assertEquals(TENANT, sizes.getAttributes().get(io.opentelemetry.api.common.AttributeKey.stringKey(
                    "ourios.tenant")));
        }
    }

    @Test
    void aRollupWritesItsAuditEventOfKindSevenAndALostOneIsReemitted() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        generated(store, 2);
        sweep(store, CompactionOptions.defaults(dir.resolve("scratch")));
        sweep(store, options(dir.resolve("scratch")));
        Manifest day = dayManifest(store);
        dev.ourios.compaction.audit.AuditEvent event = dev.ourios.compaction.audit.AuditEvent.ofDay(DAY,
                day.generation(), day.commitRecord().orElseThrow().complete().orElseThrow());
        String key = dev.ourios.compaction.audit.AuditLog.keyOf(event);
        assertTrue(store.stat(key).isPresent(), "the day commit's event: " + key);
        java.util.Properties props = new java.util.Properties();
        props.setProperty("autoinstall_known_extensions", "false");
        props.setProperty("autoload_known_extensions", "false");
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:", props);
                java.sql.ResultSet rs = c.createStatement().executeQuery("SELECT event_kind, event_type, "
                        + "compaction_partition, compaction_generation, compaction_rows FROM read_parquet('"
                        + store.describe(key) + "')")) {
            assertTrue(rs.next());
            assertEquals(7, rs.getInt(1));
            assertEquals("rollup", rs.getString(2));
            assertEquals("year=2026/month=11/day=01/rollup", rs.getString(3));
            assertEquals(day.generation(), rs.getLong(4));
            assertEquals(2 * 3 * 300, rs.getLong(5));
        }
        // Lost between the commit and the audit: the next sweep with the rollup re-emits the same event.
        store.delete(key);
        sweep(store, options(dir.resolve("scratch")));
        assertTrue(store.stat(key).isPresent(), "re-emitted");
    }

    @Test
    void aDayHoldingOnlyDeadRowsIsRetiredWithoutARewrite() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        List<String> before = generated(store, 2);
        sweep(store, options(dir.resolve("scratch")));
        Manifest first = dayManifest(store);
        TableReader reader = new TableReader(store, new ManifestCodec());
        for (int h : List.of(10, 11)) {
            // Each hour commits on top of its cover (the race the check cannot close): every cover is void.
            PartitionKey hour = DAY.hour(h);
            long g = reader.hourSnapshot(hour).generation();
            Manifest current = reader.readManifest(hour, g);
            Manifest next = new Manifest(Manifest.FORMAT, g + 1, current.files(), current.retired(), null);
            String key = dev.ourios.table.ManifestKeys.key(hour, g + 1);
            assertTrue(store.putIfAbsent(key, new ManifestCodec().encode(key, next)));
        }
        assertEquals(before, TestStores.identities(DayRows.of(store, DAY)));
        // No hour is small any more: nothing is covered again, and the day's dead rows are retired.
        SweepReport r = sweep(store, options(dir.resolve("scratch")).withSmallFileBytes(1));
        assertEquals(List.of(), r.errors());
        Manifest second = dayManifest(store);
        assertEquals(first.generation() + 1, second.generation(), r.toString());
        assertEquals(List.of(), second.files());
        assertEquals(List.of(), second.covers());
        assertEquals(first.files(), second.retiredNames().stream().toList());
        assertEquals(0, second.commitRecord().orElseThrow().rowsRemoved().orElseThrow(), "dead rows are not rows");
        assertEquals(before, TestStores.identities(DayRows.of(store, DAY)));
    }

    @Test
    void aLateFileIsVisibleAtOnceAndTheNextSweepFoldsItIntoTheDay() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        List<String> before = new ArrayList<>(generated(store, 3));
        sweep(store, options(dir.resolve("scratch")));
        Manifest first = dayManifest(store);

        PartitionKey hour = DAY.hour(11);
        LogGenerator gen = new LogGenerator(TestStores.spec(List.of(TENANT), 3, 3, 300, 99));
        List<LogRecord> late = gen.file(TENANT, 1, 0);
        String lateKey = new IngestWriter(store).writeFile(hour, late).key();
        late.forEach(r -> before.add(TestStores.identity(r)));
        before.sort(null);
        assertEquals(before, TestStores.identities(DayRows.of(store, DAY)), "late rows are visible at once");

        sweep(store, options(dir.resolve("scratch")));
        Manifest second = dayManifest(store);
        assertEquals(first.generation() + 1, second.generation());
        Cover c = second.cover(11).orElseThrow();
        assertEquals(first.cover(11).orElseThrow().generation(), c.generation(), "the hour itself is not committed");
        assertTrue(c.names().contains(lateKey.substring(lateKey.lastIndexOf('/') + 1)), c.toString());
        assertEquals(first.cover(11).orElseThrow().rows() + late.size(), c.rows());
        assertEquals(before, TestStores.identities(DayRows.of(store, DAY)));
        TableReader reader = new TableReader(store, new ManifestCodec());
        assertEquals(List.of(), reader.hourSnapshot(hour).live(), "the late file is accounted for by the day");
    }

    @Test
    void aRollupIsByteIdenticalAcrossSortBudgets() throws Exception {
        LocalObjectStore a = new LocalObjectStore(dir.resolve("a"));
        generated(a, 4);
        // The hours compacted, not rolled up; then the same files (same names) in a second store.
        sweep(a, CompactionOptions.defaults(dir.resolve("scratch")));
        copy(dir.resolve("a"), dir.resolve("b"));
        LocalObjectStore b = new LocalObjectStore(dir.resolve("b"));
        sweep(a, options(dir.resolve("scratch")).withSortBudget(1L << 20));
        sweep(b, options(dir.resolve("scratch")).withSortBudget(64L << 20));
        Manifest ma = dayManifest(a);
        Manifest mb = dayManifest(b);
        assertEquals(ma.covers(), mb.covers());
        assertEquals(1, ma.files().size());
        byte[] fa = a.readAllBytes(DAY.prefix() + ma.files().get(0));
        byte[] fb = b.readAllBytes(DAY.prefix() + mb.files().get(0));
        assertArrayEquals(fa, fb, "the day file's bytes depend only on its inputs");
    }

    @Test
    void anHourThatMovesBetweenThePlanAndTheCommitIsPlannedAgainNeverCoveredStale() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        List<String> before = generated(store, 2);
        sweep(store, CompactionOptions.defaults(dir.resolve("scratch")));
        CompactionOptions options = options(dir.resolve("scratch"));
        TableReader reader = new TableReader(store, new ManifestCodec());
        PartitionKey hour = DAY.hour(10);
        long planned = reader.hourSnapshot(hour).generation();
        PartitionCompactor compactor = new PartitionCompactor(store, view -> new CompactionSteps(
                new SortedRewriter(view, options.scratchDir()),
                dev.ourios.table.ManifestCommitter.forGcGrace(view, new ManifestCodec(), java.time.Clock.systemUTC(),
                        options.gcGrace()),
                new dev.ourios.compaction.audit.AuditLog(view, options.scratchDir())), java.time.Clock.systemUTC());
        // The hour commits (a deletion of nothing would not; an expiry-free rewrite of its one file does) between
        // the rollup's first plan and its create.
        int[] plans = {0};
        RollupRewrite inner = new RollupRewrite(DAY, reader, store, new SortedRewriter(store, options.scratchDir()),
                options, java.time.Clock.systemUTC(), s -> s.live().size() == 1);
        RewritePlan<PartitionResult> racing = new RewritePlan<>() {
            @Override
            public PlannedRewrite plan() throws Exception {
                PlannedRewrite p = inner.plan();
                if (plans[0]++ == 0) {
                    recompact(store, reader, hour, compactor);
                }
                return p;
            }

            @Override
            public StagedRewrite rewrite(PlannedRewrite planned) throws Exception {
                return inner.rewrite(planned);
            }

            @Override
            public java.util.Optional<dev.ourios.compaction.audit.AuditEvent> auditEvent(PlannedRewrite planned,
                    dev.ourios.table.CommitRecord record, long generation) {
                return inner.auditEvent(planned, record, generation);
            }

            @Override
            public java.util.Optional<Manifest> nextManifest(PlannedRewrite planned,
                    dev.ourios.table.CommitRecord record) throws IOException {
                return inner.nextManifest(planned, record);
            }

            @Override
            public int attempts() {
                return inner.attempts();
            }

            @Override
            public PartitionResult report(RewriteOutcome outcome) {
                return inner.report(outcome);
            }
        };
        PartitionResult r = new RewriteProtocol(dev.ourios.table.ManifestCommitter.forGcGrace(store,
                new ManifestCodec(), java.time.Clock.systemUTC(), options.gcGrace())).run(racing);
        assertEquals(PartitionResult.Result.COMMITTED, r.result(), r.toString());
        assertEquals(2, plans[0], "planned again after the hour moved");
        Cover c = dayManifest(store).cover(10).orElseThrow();
        assertEquals(planned + 1, c.generation(), "covered at the generation the hour moved to");
        assertTrue(reader.hourSnapshot(hour).isCovered());
        assertEquals(before, TestStores.identities(DayRows.of(store, DAY)));
    }

    /** Commits the hour's next generation: its one file rewritten (same rows) by a compaction forced on it. */
    private static void recompact(LocalObjectStore store, TableReader reader, PartitionKey hour,
            PartitionCompactor compactor) throws IOException {
        PartitionSnapshot s = reader.hourSnapshot(hour);
        List<ObjectInfo> inputs = s.live();
        dev.ourios.compaction.plan.CompactionPlan plan = new dev.ourios.compaction.plan.CompactionPlan(hour,
                s.generation(), inputs, 1L << 20, 64L << 20, 64);
        PartitionResult r = compactor.compact(s, plan);
        assertEquals(PartitionResult.Result.COMMITTED, r.result(), r.toString());
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : all.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }
}
