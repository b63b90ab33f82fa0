package dev.ourios.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.table.GcReport;
import dev.ourios.testkit.Await;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Snapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GC and the view agree: a snapshot is expired only once its successor is older than the grace (not once it is
 * old itself), and until then GC keeps every file it references, retired or not.
 */
class IcebergRetentionTest {
    @TempDir
    Path dir;

    @Test
    void aSnapshotIsKeptForTheGraceAfterItsSuccessorAndGcKeepsItsFiles() throws Exception {
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("acme"), Instant.parse("2026-02-01T00:00:00Z"),
                1, 5, 60, 9));
        try (ViewStore vs = new ViewStore(dir)) {
            PartitionKey p = gen.partition("acme", 0);
            List<String> inputs = new ArrayList<>();
            for (int f = 0; f < 5; f++) {
                inputs.add(vs.ingest(p, gen.file("acme", 0, f)));
            }
            vs.sync();
            long first = vs.table().currentSnapshot().timestampMillis();
            vs.compact(dir.resolve("scratch"));
            // Snapshot times are milliseconds: the second must be strictly later than the first.
            Await.until("a later millisecond", Duration.ofSeconds(5), () -> System.currentTimeMillis() > first + 1);
            vs.sync();
            Snapshot second = vs.table().currentSnapshot();
            assertTrue(second.timestampMillis() > first);

            // One millisecond before the successor is a grace old: the first snapshot may still be planned on.
            Duration grace = Duration.ofMinutes(10);
            IcebergRetention early = new IcebergRetention(vs.view, at(second.timestampMillis() + grace.toMillis() - 1));
            var retained = early.retained(grace, false);
            inputs.forEach(k -> assertTrue(retained.test(k), k));
            assertEquals(2, count(vs), "nothing expired");
            // GC with no grace of its own keeps every retired input, because the view still references them.
            GcReport kept = vs.gc(Duration.ZERO, (g, dry) -> early.retained(grace, dry));
            assertEquals(List.of(), kept.deletedKeys());
            for (String k : inputs) {
                assertTrue(vs.store.stat(k).isPresent(), k);
            }

            // Once the successor is older than the grace, the first snapshot goes, and with it the hold.
            IcebergRetention late = new IcebergRetention(vs.view, at(second.timestampMillis() + grace.toMillis() + 1));
            GcReport collected = vs.gc(Duration.ZERO, (g, dry) -> late.retained(grace, dry));
            assertEquals(1, count(vs), "the superseded snapshot expired");
            assertEquals(inputs.stream().sorted().toList(), collected.deletedKeys().stream().sorted().toList());
            assertEquals(second.snapshotId(), vs.table().currentSnapshot().snapshotId());
            // The expiry removed only the view's metadata, and the current snapshot reads in full.
            assertEquals(300, vs.icebergRows(org.apache.iceberg.expressions.Expressions.alwaysTrue()).size());
        }
    }

    private static Clock at(long millis) {
        return Clock.fixed(Instant.ofEpochMilli(millis), ZoneOffset.UTC);
    }

    private static int count(ViewStore vs) {
        int n = 0;
        for (Snapshot s : vs.table().snapshots()) {
            n++;
        }
        return n;
    }
}
