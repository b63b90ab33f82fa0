package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.audit.AuditLog;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.compaction.plan.CompactionPolicy;
import dev.ourios.compaction.sweep.Shard;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.compaction.sweep.SweepRunner;
import dev.ourios.core.FileNames;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.StoreRequests;
import dev.ourios.table.GarbageCollector;
import dev.ourios.table.GcOptions;
import dev.ourios.table.GcReport;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.ManifestCommitter;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import dev.ourios.table.ingest.IngestWriter;
import io.opentelemetry.api.metrics.MeterProvider;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The key store-level compaction scenarios (compaction, visibility through the compactor, commit race, GC, crash
 * between publish and commit, sharding, request accounting) on local disk and on a real S3 API (s3proxy), and a band
 * of files (storage.md §4.14) byte-identical on both.
 */
class BothBackendsCompactionTest extends OnBothBackends {
    /** A wall clock far enough ahead that every orphan, retired input and old manifest is past the GC grace. */
    private static final Clock GC_LATER = Clock.offset(Clock.systemUTC(), Duration.ofHours(1));


    @Test
    void a_band_is_byte_identical_on_local_disk_and_on_s3() throws Exception {
        List<List<byte[]>> bands = new ArrayList<>();
        for (StoreBackend backend : List.of(local, s3)) {
            ObjectStore store = backend.newStore();
            TestStores.generate(store, TestStores.spec(List.of("acme"), 1, 6, 7000, 17));
            PartitionKey p = PartitionKey.ofHour("acme", TestStores.HOUR);
            CompactionOptions opts = CompactionOptions.defaults(dir.resolve("scratch")).withMaxFileBytes(2L << 20);
            SweepReport report = TestStores.runner(store, dir.resolve("scratch"), opts,
                    MeterProvider.noop()).sweep(PartitionFilter.all(), r -> { });
            assertFalse(report.hasErrors(), backend + ": " + report);
            List<String> main = TestStores.snapshot(store, p).manifest().orElseThrow().main();
            assertTrue(main.size() >= 2, backend + ": a band: " + main);
            List<byte[]> contents = new ArrayList<>();
            for (String name : main) {
                contents.add(store.readAllBytes(p.dataPrefix() + name));
            }
            bands.add(contents);
        }
        assertEquals(bands.get(0).size(), bands.get(1).size(), "the same cut on both backends");
        for (int i = 0; i < bands.get(0).size(); i++) {
            assertArrayEquals(bands.get(0).get(i), bands.get(1).get(i),
                    "band file " + i + " is byte-identical on both backends");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void many_small_files_collapse_to_one_live_file_with_every_row_once(StoreBackend backend) throws Exception {
        ObjectStore store = backend.newStore();
        TestStores.generate(store, TestStores.spec(List.of("acme"), 1, 12, 300, 1));
        PartitionKey p = PartitionKey.ofHour("acme", TestStores.HOUR);
        List<LogRecord> before = TestStores.liveRows(store, p);

        SweepReport report = TestStores.runner(store, dir.resolve("scratch")).sweep(PartitionFilter.all(), r -> { });

        assertEquals(1, report.count(PartitionResult.Result.COMMITTED), report.toString());
        PartitionSnapshot s = TestStores.snapshot(store, p);
        assertEquals(1, s.live().size());
        assertTrue(FileNames.isCompactedFile(s.live().get(0).name()));
        assertEquals(TestStores.identities(before), TestStores.identities(TestStores.liveRows(store, p)));
        StoreRequests q = report.partitions().get(0).requests().orElseThrow();
        // One output PUT (small: no multipart), one create-only manifest PUT, one create-only audit PUT.
        assertEquals(3, q.put(), q.toString());
        assertEquals(0, q.delete(), q.toString());
        assertTrue(q.get() >= 12 && q.getBytes() > 0, "every input is read: " + q);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void late_files_stay_visible_and_merge_as_a_tail_beside_the_untouched_main_file(StoreBackend backend)
            throws Exception {
        ObjectStore store = backend.newStore();
        GeneratorSpec spec = TestStores.spec(List.of("acme"), 1, 6, 2000, 3);
        TestStores.generate(store, spec);
        PartitionKey p = PartitionKey.ofHour("acme", TestStores.HOUR);
        SweepRunner runner = TestStores.runner(store, dir.resolve("scratch"));
        runner.sweep(PartitionFilter.all(), r -> { });
        ObjectInfo main = TestStores.snapshot(store, p).live().get(0);

        // One small late file: visible at once, and left as it is beside the main file.
        LogGenerator lateRows = new LogGenerator(TestStores.spec(List.of("acme"), 1, 2, 100, 99));
        List<LogRecord> late1 = lateRows.file("acme", 0, 0);
        new IngestWriter(store).writeFile(p, late1);
        assertEquals(2, TestStores.snapshot(store, p).live().size(), "compacted file + late file are both live");
        assertEquals(12_000 + late1.size(), TestStores.liveRows(store, p).size());
        SweepReport second = runner.sweep(PartitionFilter.all(), r -> { });
        assertEquals(0, second.count(PartitionResult.Result.COMMITTED), "a one-file tail is left: " + second);

        // A second one: the two merge into one tail file; the main file is not rewritten.
        List<LogRecord> late2 = lateRows.file("acme", 0, 1);
        new IngestWriter(store).writeFile(p, late2);
        SweepReport third = runner.sweep(PartitionFilter.all(), r -> { });
        assertEquals(1, third.count(PartitionResult.Result.COMMITTED), third.toString());
        PartitionSnapshot after = TestStores.snapshot(store, p);
        assertEquals(2, after.generation());
        assertEquals(2, after.live().size(), after.live().toString());
        assertTrue(after.live().stream().anyMatch(f -> f.key().equals(main.key()) && f.size() == main.size()),
                "the main file stays live, unchanged: " + after.live());
        assertTrue(after.live().stream().allMatch(f -> FileNames.isCompactedFile(f.name())), after.live().toString());
        assertEquals(12_000 + late1.size() + late2.size(), TestStores.liveRows(store, p).size());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void racing_compactors_have_one_winner_the_losers_are_noops_and_gc_removes_their_outputs(StoreBackend backend)
            throws Exception {
        ObjectStore store = backend.newStore();
        TestStores.generate(store, TestStores.spec(List.of("acme"), 1, 8, 200, 5));
        PartitionKey p = PartitionKey.ofHour("acme", TestStores.HOUR);
        List<String> rowsBefore = TestStores.identities(TestStores.liveRows(store, p));
        PartitionSnapshot snapshot = TestStores.snapshot(store, p);
        CompactionPlan plan = plan(snapshot);

        int racers = 4;
        CyclicBarrier start = new CyclicBarrier(racers);
        ExecutorService pool = Executors.newFixedThreadPool(racers);
        List<PartitionResult> results = new ArrayList<>();
        try {
            List<Future<PartitionResult>> futures = new ArrayList<>();
            for (int i = 0; i < racers; i++) {
                PartitionCompactor c = compactor(store);
                futures.add(pool.submit(() -> {
                    start.await();
                    return c.compact(snapshot, plan);
                }));
            }
            for (Future<PartitionResult> f : futures) {
                results.add(f.get());
            }
        } finally {
            pool.shutdownNow();
        }

        assertEquals(1, results.stream().filter(r -> r.result() == PartitionResult.Result.COMMITTED).count(),
                results.toString());
        assertEquals(racers - 1, results.stream().filter(r -> r.result() == PartitionResult.Result.NOOP
                && r.reason().contains("lost the commit race") && r.output() != null).count(), results.toString());
        PartitionSnapshot after = TestStores.snapshot(store, p);
        assertEquals(1, after.generation());
        assertEquals(1, after.live().size());
        assertEquals(rowsBefore, TestStores.identities(TestStores.liveRows(store, p)));

        // GC past the grace: the losers' outputs and the retired inputs go, the winner stays.
        GcReport gc = gcLater(store);
        assertTrue(gc.errors().isEmpty(), gc.toString());
        List<String> parquet = store.listObjects(p.dataPrefix()).stream().map(ObjectInfo::name)
                .filter(n -> n.endsWith(".parquet")).toList();
        assertEquals(List.of(after.live().get(0).name()), parquet);
        assertEquals(rowsBefore, TestStores.identities(TestStores.liveRows(store, p)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void output_published_but_never_committed_is_invisible_then_collected(StoreBackend backend) throws Exception {
        ObjectStore store = backend.newStore();
        TestStores.generate(store, TestStores.spec(List.of("acme"), 1, 5, 200, 7));
        PartitionKey p = PartitionKey.ofHour("acme", TestStores.HOUR);
        PartitionSnapshot before = TestStores.snapshot(store, p);
        List<String> rowsBefore = TestStores.identities(TestStores.liveRows(store, p));

        // The process "dies" after publishing its output and before creating the manifest.
        RewriteResult orphan = new SortedRewriter(store, dir.resolve("scratch")).rewrite(plan(before));
        assertTrue(store.stat(orphan.outputKey()).isPresent());
        PartitionSnapshot afterCrash = TestStores.snapshot(store, p);
        assertEquals(before.generation(), afterCrash.generation());
        assertEquals(before.live(), afterCrash.live(), "an uncommitted output is never live");
        assertEquals(rowsBefore, TestStores.identities(TestStores.liveRows(store, p)));

        // GC past the grace collects the orphan; the next sweep then compacts as if nothing had happened.
        GcReport gc = gcLater(store);
        assertEquals(List.of(orphan.outputKey()), gc.deletedKeys(), gc.toString());
        assertTrue(store.stat(orphan.outputKey()).isEmpty());
        SweepReport next = TestStores.runner(store, dir.resolve("scratch")).sweep(PartitionFilter.all(), r -> { });
        assertEquals(1, next.count(PartitionResult.Result.COMMITTED), next.toString());
        assertEquals(1, TestStores.snapshot(store, p).live().size());
        assertEquals(rowsBefore, TestStores.identities(TestStores.liveRows(store, p)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void shards_split_the_partitions_disjointly_and_together_cover_all(StoreBackend backend) throws Exception {
        ObjectStore store = backend.newStore();
        TestStores.generate(store, TestStores.spec(List.of("a", "b"), 4, 3, 20, 11));
        int n = 3;
        Set<PartitionKey> compacted = new TreeSet<>();
        for (int i = 0; i < n; i++) {
            Shard shard = new Shard(i, n);
            SweepReport r = CompactionWiring.sweepRunner(SweepSettings.of(store,
                    CompactionOptions.defaults(dir.resolve("scratch"))).withPlanClock(TestStores.LATER).withShard(shard))
                    .sweep(PartitionFilter.all(), x -> { });
            assertFalse(r.hasErrors(), r.toString());
            for (PartitionResult pr : r.partitions()) {
                assertEquals(PartitionResult.Result.COMMITTED, pr.result(), pr.toString());
                assertTrue(shard.owns(pr.partition()));
                assertTrue(compacted.add(pr.partition()), pr.partition() + " compacted by two shards");
            }
        }
        assertEquals(8, compacted.size(), "every partition in exactly one shard: " + compacted);
    }

    private static GcReport gcLater(ObjectStore store) throws Exception {
        ManifestCodec codec = new ManifestCodec();
        TableLayout layout = new TableLayout(store);
        return new GarbageCollector(store, layout, new TableReader(store, codec),
                new GcOptions(CompactionOptions.DEFAULT_GC_GRACE, false), GC_LATER).run(PartitionFilter.all());
    }

    private static CompactionPlan plan(PartitionSnapshot s) {
        CompactionPolicy policy = new CompactionPolicy(CompactionOptions.defaults(Path.of("unused")));
        return policy.decide(s.partition(), s.generation(), s.live(), TestStores.LATER.instant()).plan()
                .orElseThrow(() -> new AssertionError("not a candidate: " + s.partition()));
    }

    private PartitionCompactor compactor(ObjectStore store) {
        Path scratch = dir.resolve("scratch");
        Duration gcGrace = CompactionOptions.DEFAULT_GC_GRACE;
        ManifestCodec codec = new ManifestCodec();
        return new PartitionCompactor(store, view -> new CompactionSteps(new SortedRewriter(view, scratch),
                ManifestCommitter.forGcGrace(view, codec, Clock.systemUTC(), gcGrace), new AuditLog(view, scratch)),
                Clock.systemUTC());
    }
}
