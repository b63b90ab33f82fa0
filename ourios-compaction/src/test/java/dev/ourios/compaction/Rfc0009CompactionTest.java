package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.compaction.sweep.SweepRunner;
import dev.ourios.core.FileNames;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.ingest.IngestWriter;
import dev.ourios.testkit.Testdata;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** RFC 0009 acceptance criteria 1, 2 and 6, named after the seed's criteria. */
class Rfc0009CompactionTest {
    @TempDir
    Path dir;

    @Test
    void rfc0009_1_sealed_partition_of_many_small_files_collapses_to_one_live_file() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        GeneratorSpec spec = TestStores.spec(List.of("acme"), 1, 12, 300, 1);
        TestStores.generate(store, spec);
        PartitionKey p = PartitionKey.ofHour("acme", TestStores.HOUR);
        List<LogRecord> before = TestStores.liveRows(store, p);

        SweepReport report = TestStores.runner(store, dir.resolve("scratch")).sweep(PartitionFilter.all(), r -> { });

        assertEquals(1, report.count(PartitionResult.Result.COMMITTED), report.toString());
        PartitionSnapshot s = TestStores.snapshot(store, p);
        assertEquals(1, s.live().size());
        assertTrue(FileNames.isCompactedFile(s.live().get(0).name()));
        assertEquals(1, s.generation());
        assertEquals(TestStores.identities(before), TestStores.identities(TestStores.liveRows(store, p)));
    }

    @Test
    void rfc0009_1_one_file_partition_is_a_noop_and_gets_no_manifest() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("acme"), 1, 1, 100, 2));
        PartitionKey p = PartitionKey.ofHour("acme", TestStores.HOUR);

        SweepReport report = TestStores.runner(store, dir.resolve("scratch")).sweep(PartitionFilter.all(), r -> { });

        assertEquals(0, report.partitions().size(), "a one-file partition is not a candidate");
        assertEquals(0, TestStores.snapshot(store, p).generation());
        assertTrue(store.listObjects(p.dataPrefix()).stream().noneMatch(o -> o.name().startsWith("manifest.")));
    }

    @Test
    void rfc0009_1_late_data_after_compaction_reflags_the_partition_and_the_next_sweep_folds_it_in()
            throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        GeneratorSpec spec = TestStores.spec(List.of("acme"), 1, 6, 200, 3);
        TestStores.generate(store, spec);
        PartitionKey p = PartitionKey.ofHour("acme", TestStores.HOUR);
        // Max tail ratio 0: every late file folds into its hour (the original design's rule; the tiered default is
        // TieredCompactionTest's).
        CompactionOptions foldAll = CompactionOptions.defaults(dir.resolve("scratch")).withMaxTailRatio(0);
        SweepRunner runner = TestStores.runner(store, dir.resolve("scratch"), foldAll,
                io.opentelemetry.api.metrics.MeterProvider.noop());
        runner.sweep(PartitionFilter.all(), r -> { });

        // A late writer lands one more file into the compacted hour: visible at once, and the partition re-flags.
        List<LogRecord> late = new LogGenerator(spec.withSeed(99)).file("acme", 0, 0);
        new IngestWriter(store).writeFile(p, late);
        PartitionSnapshot flagged = TestStores.snapshot(store, p);
        assertEquals(2, flagged.live().size(), "compacted file + late file are both live");
        assertEquals(1200 + late.size(), TestStores.liveRows(store, p).size());

        SweepReport second = runner.sweep(PartitionFilter.all(), r -> { });
        assertEquals(1, second.count(PartitionResult.Result.COMMITTED), second.toString());
        PartitionSnapshot after = TestStores.snapshot(store, p);
        assertEquals(2, after.generation());
        assertEquals(1, after.live().size());
        assertEquals(1200 + late.size(), TestStores.liveRows(store, p).size());
    }

    @Test
    void rfc0009_2_random_input_sets_keep_the_row_multiset_and_template_counts() throws Exception {
        long seed = System.nanoTime();
        java.util.Random rnd = new java.util.Random(seed);
        for (int round = 0; round < 4; round++) {
            Path root = dir.resolve("r" + round);
            LocalObjectStore store = new LocalObjectStore(root.resolve("store"));
            int files = 2 + rnd.nextInt(9);
            int rows = rnd.nextInt(400);
            GeneratorSpec spec = TestStores.spec(List.of("t"), 1, files, rows, rnd.nextLong())
                    .withServices(1 + rnd.nextInt(15));
            TestStores.generate(store, spec);
            PartitionKey p = PartitionKey.ofHour("t", TestStores.HOUR);
            List<LogRecord> before = TestStores.liveRows(store, p);
            // A tiny budget on some rounds forces spilling and multi-level merges.
            CompactionOptions opts = CompactionOptions.defaults(root.resolve("scratch")).withMinFiles(1)
                    .withSortBudget(rnd.nextBoolean() ? 1L << 20 : 64L << 20).withFanIn(2 + rnd.nextInt(4));
            SweepReport report = TestStores.runner(store, root.resolve("scratch"), opts,
                    io.opentelemetry.api.metrics.MeterProvider.noop())
                    .sweep(PartitionFilter.all(), r -> { });
            String ctx = "seed " + seed + " round " + round + ": " + report;
            assertFalse(report.hasErrors(), ctx);
            List<LogRecord> after = TestStores.liveRows(store, p);
            assertEquals(TestStores.identities(before), TestStores.identities(after), ctx);
            assertEquals(templateCounts(before), templateCounts(after), ctx);
            assertEquals(bodies(before), bodies(after), ctx);
        }
    }

    private static Map<Long, Long> templateCounts(List<LogRecord> rows) {
        return rows.stream().collect(Collectors.groupingBy(LogRecord::templateId, TreeMap::new,
                Collectors.counting()));
    }

    private static List<String> bodies(List<LogRecord> rows) {
        return rows.stream().map(r -> r.body() == null ? "<null>" : Arrays.toString(r.body())).sorted().toList();
    }

    @Test
    void rfc0009_6_reference_writer_fixtures_plus_new_files_compact_to_the_union_schema() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        Path fixtures = Testdata.dir("reference-writer");
        java.util.Set<PartitionKey> partitions = new java.util.TreeSet<>();
        for (String f : List.of("rfc0021-pre-upgrade.parquet", "rfc0022-pre-amendment.parquet",
                "rfc0025-pre-amendment.parquet")) {
            LocalObjectStore fx = new LocalObjectStore(fixtures);
            List<LogRecord> rows = TestStores.readAll(fx, f);
            PartitionKey p = rows.get(0).partitionKey();
            partitions.add(p);
            // Place the fixture file as-is into its own partition, then add new files beside it.
            byte[] bytes = java.nio.file.Files.readAllBytes(fixtures.resolve(f));
            store.put(p.dataPrefix() + dev.ourios.core.Uuid7.system().next() + ".parquet", bytes);
            List<LogRecord> fresh = rows.stream().map(r -> LogRecord.builder(r.tenantId()).timeUnixNano(
                    r.effectiveTime()).attributes(r.attributes()).resourceAttributes(r.resourceAttributes())
                    .bodyKind(0).body("new".getBytes()).lossyFlag(true).serviceName("svc").build()).toList();
            new IngestWriter(store).writeFile(p, fresh);
            new IngestWriter(store).writeFile(p, fresh);
        }
        List<List<LogRecord>> before = new java.util.ArrayList<>();
        for (PartitionKey p : partitions) {
            before.add(TestStores.liveRows(store, p));
        }
        SweepReport report = TestStores.runner(store, dir.resolve("scratch")).sweep(PartitionFilter.all(), r -> { });
        assertFalse(report.hasErrors(), report.toString());
        int i = 0;
        for (PartitionKey p : partitions) {
            PartitionSnapshot s = TestStores.snapshot(store, p);
            assertEquals(1, s.live().size(), p.toString());
            ObjectInfo out = s.live().get(0);
            List<LogRecord> after = TestStores.readAll(store, out.key());
            assertEquals(TestStores.identities(before.get(i++)), TestStores.identities(after));
            // Re-projection: every row now carries the derived columns.
            assertTrue(after.stream().allMatch(r -> r.effectiveTimeUnixNano() != null));
            assertTrue(after.stream().filter(r -> r.resourceAttributes().contains("service.name"))
                    .allMatch(r -> r.serviceName() != null));
        }
    }
}
