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
import dev.ourios.core.SortKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.ingest.IngestWriter;
import io.opentelemetry.api.metrics.MeterProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Late files beside a compacted hour (storage.md §4.1): merged among themselves while the tail is at most
 * {@code max-tail-ratio} of the main file's bytes, with the whole hour once it outgrows it; every row live exactly
 * once at every step, and every compacted file sorted.
 */
class TieredCompactionTest {
    @TempDir
    Path dir;

    @Test
    void a_growing_tail_merges_on_its_own_until_it_outgrows_the_ratio_then_the_hour_merges_whole() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        GeneratorSpec spec = TestStores.spec(List.of("acme"), 1, 6, 2000, 3);
        TestStores.generate(store, spec);
        PartitionKey p = PartitionKey.ofHour("acme", TestStores.HOUR);
        SweepRunner runner = TestStores.runner(store, dir.resolve("scratch"));
        runner.sweep(PartitionFilter.all(), r -> { });
        ObjectInfo main = only(TestStores.snapshot(store, p));
        List<LogRecord> expected = new ArrayList<>(TestStores.liveRows(store, p));
        LogGenerator late = new LogGenerator(TestStores.spec(List.of("acme"), 1, 40, 300, 7));

        double ratio = CompactionOptions.DEFAULT_MAX_TAIL_RATIO;
        int file = 0;
        boolean sawTailMerge = false;
        while (true) {
            List<LogRecord> rows = late.file("acme", 0, file++);
            new IngestWriter(store).writeFile(p, rows);
            expected.addAll(rows);
            PartitionSnapshot before = TestStores.snapshot(store, p);
            long tailBytes = before.live().stream().filter(f -> !f.key().equals(main.key()))
                    .mapToLong(ObjectInfo::size).sum();
            boolean withinRatio = tailBytes <= ratio * main.size();

            SweepReport report = runner.sweep(PartitionFilter.all(), r -> { });
            assertFalse(report.hasErrors(), report.toString());
            PartitionSnapshot after = TestStores.snapshot(store, p);
            assertEquals(TestStores.identities(expected), TestStores.identities(TestStores.liveRows(store, p)),
                    "every row live exactly once after late file " + file);
            after.live().stream().filter(f -> FileNames.isCompactedFile(f.name())).forEach(f -> assertSorted(store, f));
            if (!withinRatio) {
                assertEquals(1, after.live().size(), "the tail outgrew the ratio: the hour merges into one file");
                assertFalse(after.live().get(0).key().equals(main.key()), "the main file was rewritten");
                assertTrue(sawTailMerge, "the tail merged on its own before it outgrew the ratio");
                return;
            }
            assertTrue(after.live().stream().anyMatch(f -> f.key().equals(main.key())),
                    "within the ratio the main file stays: " + after.live());
            if (before.live().size() == 2) {
                assertEquals(0, report.partitions().size(), "a one-file tail is left as it is: " + report);
                assertEquals(before.generation(), after.generation());
            } else {
                assertEquals(1, report.count(PartitionResult.Result.COMMITTED), report.toString());
                assertEquals(2, after.live().size(), "main file + one merged tail: " + after.live());
                sawTailMerge = true;
            }
            assertTrue(file < 40, "the tail never outgrew the ratio");
        }
    }

    @Test
    void max_tail_ratio_zero_folds_every_late_file_into_its_hour() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        GeneratorSpec spec = TestStores.spec(List.of("acme"), 1, 6, 2000, 3);
        TestStores.generate(store, spec);
        PartitionKey p = PartitionKey.ofHour("acme", TestStores.HOUR);
        CompactionOptions foldAll = CompactionOptions.defaults(dir.resolve("scratch")).withMaxTailRatio(0);
        SweepRunner runner = TestStores.runner(store, dir.resolve("scratch"), foldAll, MeterProvider.noop());
        runner.sweep(PartitionFilter.all(), r -> { });
        List<LogRecord> expected = new ArrayList<>(TestStores.liveRows(store, p));

        List<LogRecord> rows = new LogGenerator(TestStores.spec(List.of("acme"), 1, 1, 10, 7)).file("acme", 0, 0);
        new IngestWriter(store).writeFile(p, rows);
        expected.addAll(rows);
        runner.sweep(PartitionFilter.all(), r -> { });

        ObjectInfo folded = only(TestStores.snapshot(store, p));
        assertSorted(store, folded);
        assertEquals(TestStores.identities(expected), TestStores.identities(TestStores.liveRows(store, p)));
    }

    @Test
    void random_late_landings_keep_every_row_once_and_at_most_two_files_per_hour_after_each_sweep()
            throws Exception {
        long seed = Long.getLong("ourios.test.seed", System.nanoTime());
        SplittableRandom r = new SplittableRandom(seed);
        String ctx = "seed " + seed + " (replay with -Dourios.test.seed=" + seed + ")";
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        GeneratorSpec spec = TestStores.spec(List.of("acme"), 1, 2 + r.nextInt(6), 200 + r.nextInt(2000), r.nextLong());
        TestStores.generate(store, spec);
        PartitionKey p = PartitionKey.ofHour("acme", TestStores.HOUR);
        double ratio = r.nextDouble() * 0.8;
        CompactionOptions opts = CompactionOptions.defaults(dir.resolve("scratch")).withMaxTailRatio(ratio);
        SweepRunner runner = TestStores.runner(store, dir.resolve("scratch"), opts, MeterProvider.noop());
        runner.sweep(PartitionFilter.all(), x -> { });
        List<LogRecord> expected = new ArrayList<>(TestStores.liveRows(store, p));
        LogGenerator late = new LogGenerator(TestStores.spec(List.of("acme"), 1, 64, 1 + r.nextInt(800), r.nextLong()));
        for (int round = 0, file = 0; round < 8; round++) {
            for (int k = r.nextInt(4); k > 0; k--) {
                List<LogRecord> rows = late.file("acme", 0, file++);
                new IngestWriter(store).writeFile(p, rows);
                expected.addAll(rows);
            }
            SweepReport report = runner.sweep(PartitionFilter.all(), x -> { });
            String at = ctx + ", ratio " + ratio + ", round " + round;
            assertFalse(report.hasErrors(), at + ": " + report);
            PartitionSnapshot s = TestStores.snapshot(store, p);
            assertTrue(s.live().size() <= 2, at + ": at most the main file and one tail file: " + s.live());
            assertEquals(TestStores.identities(expected), TestStores.identities(TestStores.liveRows(store, p)), at);
            if (s.live().size() == 2) {
                ObjectInfo mainFile = s.live().stream().filter(f -> FileNames.isCompactedFile(f.name()))
                        .max(java.util.Comparator.comparingLong(ObjectInfo::size)).orElseThrow();
                ObjectInfo tailFile = s.live().stream().filter(f -> f != mainFile).findFirst().orElseThrow();
                // The ratio is judged on the tail's inputs: a merged tail, sorted and indexed, can come out larger.
                long judged = report.partitions().stream().filter(x -> x.output() != null
                        && x.output().equals(tailFile.name())).mapToLong(PartitionResult::bytesIn).findFirst()
                        .orElse(tailFile.size());
                assertTrue(judged <= ratio * mainFile.size(), at + ": a tail left beside the main file was within the "
                        + "ratio: " + judged + " of " + mainFile.size());
            }
        }
    }

    private static ObjectInfo only(PartitionSnapshot s) {
        assertEquals(1, s.live().size(), s.live().toString());
        return s.live().get(0);
    }

    /** Rows in (service by UTF-8 bytes, effective time) order, the compacted files' sort key. */
    private static void assertSorted(LocalObjectStore store, ObjectInfo f) {
        try {
            List<LogRecord> rows = TestStores.readAll(store, f.key());
            for (int i = 1; i < rows.size(); i++) {
                assertTrue(SortKey.RECORD_ORDER.compare(rows.get(i - 1), rows.get(i)) <= 0,
                        f.name() + " is sorted at row " + i);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
