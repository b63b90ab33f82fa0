package dev.ourios.compaction.sort;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.parquet.rows.RowCodec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sort runs are published (synced and renamed) on a helper thread while the compacting thread goes on. A run that
 * cannot be published must fail the sort, naming the run, before any row reaches the sink, and the sort must still
 * remove every run and temp file it wrote.
 */
class RunPublishFailureTest {
    @TempDir
    Path dir;

    @Test
    void a_run_that_cannot_be_published_fails_the_sort_and_leaves_nothing_behind() throws Exception {
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("t"), Instant.parse("2026-03-01T10:00:00Z"), 1,
                2, 6000, 4).withSeed(11));
        Path scratch = dir.resolve("sort");
        Files.createDirectories(scratch);
        // A non-empty directory where the second run is to be published: the rename onto it fails.
        Path blocked = scratch.resolve("run-000001.parquet");
        Files.createDirectories(blocked.resolve("occupied"));
        AtomicLong emitted = new AtomicLong();
        IOException failure;
        try (ExternalSorter sorter = new ExternalSorter(256 << 10, 8, scratch, new ResidencyGauge(),
                Long.MAX_VALUE)) {
            failure = assertThrows(IOException.class, () -> {
                for (int f = 0; f < 2; f++) {
                    List<LogRecord> file = gen.file("t", 0, f);
                    for (int i = 0; i < file.size(); i++) {
                        sorter.add(file.get(i), RowCodec.origin(f, i));
                    }
                }
                assertTrue(sorter.spilledRuns() > 2, "runs: " + sorter.spilledRuns());
                sorter.drainTo((buf, off, len, strings) -> emitted.incrementAndGet());
            });
            Files.delete(blocked.resolve("occupied")); // the sort's close removes what it wrote, not ours
        }
        assertTrue(failure.getMessage().contains("could not publish")
                && failure.getMessage().contains("run-000001.parquet"), failure.getMessage());
        assertEquals(0, emitted.get(), "no row reached the sink");
        assertFalse(Files.exists(scratch), "the sort removed its runs, temp files and directory");
    }
}
