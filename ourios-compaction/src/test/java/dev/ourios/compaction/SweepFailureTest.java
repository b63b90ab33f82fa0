package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.LogGenerator;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** RFC0009.5 and the verified-commit rule: a bad partition aborts alone, and nothing half-done becomes visible. */
class SweepFailureTest {
    @TempDir
    Path dir;

    @Test
    void rfc0009_5_misplaced_row_aborts_only_its_partition_naming_file_and_row() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("a", "b"), 2, 5, 100, 7));
        PartitionKey bad = PartitionKey.ofHour("a", TestStores.HOUR);
        // An outside writer put a file of hour+1 rows into hour's directory.
        List<LogRecord> wrongHour = new LogGenerator(TestStores.spec(List.of("a"), 2, 1, 10, 8)).file("a", 1, 0);
        String rogue = bad.dataPrefix() + dev.ourios.core.Uuid7.system().next() + ".parquet";
        try (var w = new dev.ourios.parquet.write.LogFileWriter(store.create(rogue),
                dev.ourios.parquet.write.WriterOptions.ingest())) {
            for (LogRecord r : wrongHour) {
                w.write(r);
            }
            w.commit();
        }
        PartitionSnapshot before = TestStores.snapshot(store, bad);

        List<PartitionResult> seen = new ArrayList<>();
        SweepReport report = TestStores.runner(store, dir.resolve("scratch")).sweep(PartitionFilter.all(), seen::add);

        assertEquals(1, report.count(PartitionResult.Result.ERROR), report.toString());
        assertEquals(3, report.count(PartitionResult.Result.COMMITTED), "the other partitions and tenant proceed");
        PartitionResult err = report.partitions().stream()
                .filter(r -> r.result() == PartitionResult.Result.ERROR).findFirst().orElseThrow();
        assertEquals(bad, err.partition());
        String rogueName = rogue.substring(rogue.lastIndexOf('/') + 1);
        assertTrue(err.error().contains(rogueName), err.error());
        assertTrue(err.error().contains("row 0"), err.error());
        assertEquals(before.live(), TestStores.snapshot(store, bad).live(), "the failed partition is unchanged");
        assertEquals(0, TestStores.snapshot(store, bad).generation());
        assertEquals(report.partitions().size(), seen.size());
    }

    @Test
    void output_fault_dropped_duplicated_or_flipped_row_is_refused_and_the_partition_unchanged() throws Exception {
        List<RowFault> faults = List.of(
                (i, r) -> i == 5 ? List.of() : List.of(r),
                (i, r) -> i == 5 ? List.of(r, r) : List.of(r),
                (i, r) -> {
                    if (i != 5) {
                        return List.of(r);
                    }
                    LogRecord.Builder b = LogRecord.builder(r.tenantId()).timeUnixNano(r.timeUnixNano())
                            .observedTimeUnixNano(r.observedTimeUnixNano()).attributes(r.attributes() + " ")
                            .resourceAttributes(r.resourceAttributes()).serviceName(r.serviceName());
                    return List.of(b.build());
                });
        int n = 0;
        for (RowFault fault : faults) {
            Path root = dir.resolve("f" + n++);
            LocalObjectStore store = new LocalObjectStore(root.resolve("store"));
            TestStores.generate(store, TestStores.spec(List.of("a"), 1, 5, 50, 9));
            PartitionKey p = PartitionKey.ofHour("a", TestStores.HOUR);
            PartitionSnapshot before = TestStores.snapshot(store, p);
            SweepReport report = CompactionWiring.sweepRunner(SweepSettings.of(store,
                    CompactionOptions.defaults(root.resolve("scratch"))).withPlanClock(TestStores.LATER), fault)
                    .sweep(PartitionFilter.all(), r -> { });
            assertEquals(1, report.count(PartitionResult.Result.ERROR), report.toString());
            String error = report.partitions().get(0).error();
            assertTrue(error.contains("checksum"), error);
            PartitionSnapshot after = TestStores.snapshot(store, p);
            assertEquals(before.live(), after.live());
            assertEquals(0, after.generation());
            assertTrue(after.orphans().isEmpty(), "the refused output was never published: " + after.orphans());
            try (var files = Files.walk(root.resolve("scratch"))) {
                assertTrue(files.noneMatch(f -> f.toString().endsWith(".parquet")), "scratch cleaned up");
            }
        }
    }
}
