package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.LogGenerator;
import dev.ourios.store.HaltingObjectStore;
import dev.ourios.store.HaltingObjectStore.Step;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.Cover;
import dev.ourios.table.DayPartition;
import dev.ourios.table.GarbageCollector;
import dev.ourios.table.GcOptions;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import dev.ourios.table.ingest.IngestWriter;
import dev.ourios.testkit.ChildJvm;
import dev.ourios.testkit.TestSeed;
import io.opentelemetry.api.metrics.MeterProvider;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Crash safety of the rollup (storage.md §4.15): a compactor process rolling a day up is halted at a protocol step or
 * SIGKILLed at random; the day reads exactly the acknowledged rows at every point (none lost, none doubled, as a
 * reader of day partitions sees them), and a recovery sweep plus GC past the grace leaves one day file covering every
 * hour and no debris.
 */
class RollupCrashTest {
    private static final String TENANT = "acme";
    private static final DayPartition DAY = DayPartition.of(PartitionKey.ofHour(TENANT, TestStores.HOUR));
    private static final int HOURS = 4;
    private static final long CHILD_GC_GRACE_MILLIS = 60_000;

    @TempDir
    Path dir;

    /** Hours compacted (at rest, small), not rolled up; returns the rows as a day reader sees them. */
    private LocalObjectStore prepared() throws IOException {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of(TENANT), HOURS, 3, 400, 31));
        SweepReport r = TestStores.runner(store, dir.resolve("scratch"), CompactionOptions.defaults(
                dir.resolve("scratch")), MeterProvider.noop()).sweep(PartitionFilter.all(), x -> { });
        assertFalse(r.hasErrors(), r.toString());
        return store;
    }

    private static List<String> rows(LocalObjectStore store) throws IOException {
        return TestStores.identities(DayRows.of(store, DAY));
    }

    private ChildJvm child(String step, int sweeps) throws IOException {
        return ChildJvm.main(RollupProcess.class).heap("256m").jvmArgs("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
                .property("org.slf4j.simpleLogger.defaultLogLevel", "warn")
                .property("org.slf4j.simpleLogger.log.org.apache.parquet", "error")
                .args(dir.resolve("store").toString(), dir.resolve("scratch").toString(),
                        Long.toString(CHILD_GC_GRACE_MILLIS), step, Integer.toString(sweeps))
                .mergeStderr().start();
    }

    @ParameterizedTest
    @EnumSource(value = Step.class, names = {"MID_REWRITE", "AFTER_OUTPUT_PUBLISHED", "AFTER_COMMIT"})
    void aHaltAtAnyStepOfARollupLosesAndDoublesNoRow(Step point) throws Exception {
        LocalObjectStore store = prepared();
        List<String> expected = rows(store);
        ChildJvm child = child(point.label(), 1);
        int status = child.waitFor(Duration.ofSeconds(120));
        String ctx = point.label() + ", child said:\n" + child.output();
        assertEquals(HaltingObjectStore.HALT_STATUS, status, "the child must die at the armed point: " + ctx);
        assertEquals(expected, rows(store), "after a halt at " + ctx);
        TableReader reader = new TableReader(store, new ManifestCodec(), 0);
        assertEquals(point == Step.AFTER_COMMIT, reader.dayCovers(DAY).manifest().isPresent(), ctx);

        recover(store);
        assertEquals(expected, rows(store), "recovered from " + ctx);
        assertConverged(store, ctx);
    }

    @Test
    void sigkillsAtRandomMomentsOfRollupsWithLateFilesLoseAndDoubleNoRow() throws Exception {
        long seed = TestSeed.announce(getClass());
        Random random = new Random(seed);
        LocalObjectStore store = prepared();
        List<String> expected = new ArrayList<>(rows(store));
        IngestWriter writer = new IngestWriter(store);
        for (int round = 0; round < 4; round++) {
            landLate(writer, random, seed + round, 50, expected);

            ChildJvm child = child(CompactorProcess.NO_HALT, 3);
            child.awaitLine(ChildJvm.Output.STDOUT, "SWEEP"::equals, Duration.ofSeconds(60));
            // The kill point: a random moment of the child's sweeps (GC, hours, the rollup's plan, rewrite, commit).
            long delay = random.nextInt(2500);
            Thread.sleep(delay);
            boolean killed = child.kill9();
            child.waitFor(Duration.ofSeconds(30));
            String ctx = "seed " + seed + " round " + round + " killed after " + delay + " ms (still running: "
                    + killed + "), child said:\n" + child.output();
            assertEquals(expected, rows(store), ctx);
        }
        recover(store);
        assertEquals(expected, rows(store), "recovered, seed " + seed);
        assertConverged(store, "seed " + seed);
    }

    @Test
    void twoCompactorsRollingUpTheSameDayWhileLateFilesLandLoseAndDoubleNoRow() throws Exception {
        long seed = TestSeed.announce(getClass());
        Random random = new Random(seed);
        LocalObjectStore store = prepared();
        List<String> expected = new ArrayList<>(rows(store));
        ChildJvm a = child(CompactorProcess.NO_HALT, 4);
        ChildJvm b = child(CompactorProcess.NO_HALT, 4);
        a.awaitLine(ChildJvm.Output.STDOUT, "SWEEP"::equals, Duration.ofSeconds(60));
        b.awaitLine(ChildJvm.Output.STDOUT, "SWEEP"::equals, Duration.ofSeconds(60));
        IngestWriter writer = new IngestWriter(store);
        for (int i = 0; i < 6; i++) {
            landLate(writer, random, seed + i, 40, expected);
            assertEquals(expected, rows(store), "seed " + seed + " while both run, after late file " + i);
        }
        assertEquals(0, a.waitFor(Duration.ofSeconds(120)), a.output());
        assertEquals(0, b.waitFor(Duration.ofSeconds(120)), b.output());
        assertEquals(expected, rows(store), "seed " + seed + "\n" + a.output() + "\n" + b.output());
        recover(store);
        assertEquals(expected, rows(store), "recovered, seed " + seed);
        assertConverged(store, "seed " + seed);
    }

    /** Lands a late file of {@code rows} rows in a random hour of the day; its rows are acknowledged once it landed. */
    private static void landLate(IngestWriter writer, Random random, long fileSeed, int rows, List<String> expected)
            throws IOException {
        int h = random.nextInt(HOURS);
        List<LogRecord> late = new LogGenerator(TestStores.spec(List.of(TENANT), HOURS, 3, rows, fileSeed))
                .file(TENANT, h, 0);
        writer.writeFile(DAY.hour(10 + h), late);
        late.forEach(r -> expected.add(TestStores.identity(r)));
        expected.sort(null);
    }

    /** A sweep with the rollup, then GC with a clock past the grace: what a crash left is collected. */
    private void recover(LocalObjectStore store) throws IOException {
        CompactionOptions opts = CompactionOptions.defaults(dir.resolve("scratch")).withRollup(true);
        SweepReport report = TestStores.runner(store, dir.resolve("scratch"), opts, MeterProvider.noop())
                .sweep(PartitionFilter.all(), r -> { });
        assertFalse(report.hasErrors(), report.toString());
        Clock pastGrace = Clock.offset(Clock.systemUTC(), Duration.ofDays(1));
        var gc = new GarbageCollector(store, new TableLayout(store), new TableReader(store, new ManifestCodec()),
                new GcOptions(opts.gcGrace(), false), pastGrace).run(PartitionFilter.all());
        assertTrue(gc.errors().isEmpty(), gc.errors().toString());
    }

    private static void assertConverged(LocalObjectStore store, String ctx) throws IOException {
        TableReader reader = new TableReader(store, new ManifestCodec(), 0);
        PartitionSnapshot day = reader.daySnapshot(DAY);
        String where = ctx + " " + day.listing();
        assertEquals(List.of(10, 11, 12, 13), day.manifest().orElseThrow().covers().stream().map(Cover::hour)
                .toList(), where);
        assertEquals(1, day.live().size(), where);
        assertEquals(List.of(), day.orphans(), where);
        assertEquals(List.of(), day.temps(), where);
        assertEquals(List.of(), day.retiredPresent(), where);
        for (int h = 10; h < 10 + HOURS; h++) {
            PartitionSnapshot s = reader.hourSnapshot(DAY.hour(h));
            assertTrue(s.isCovered(), ctx + " " + s.listing());
            assertEquals(List.of(), s.live(), ctx + " " + s.listing());
            assertEquals(List.of(), s.covered(), "covered files collected: " + ctx + " " + s.listing());
            assertEquals(List.of(), s.temps(), ctx + " " + s.listing());
        }
    }
}
