package dev.ourios.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.gen.GeneratorSpec;
import dev.ourios.core.gen.LogGenerator;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opt-in ({@code -Dourios.big=true}): the cost of a sync after one partition changed in a store of 1,000
 * partitions, against the first sync of the whole store. Prints both; asserts only what was synced.
 */
class IcebergSyncScaleTest {
    @TempDir
    Path dir;

    @Test
    void oneChangedPartitionOfAThousand() throws Exception {
        assumeTrue(Boolean.getBoolean("ourios.big"), "opt-in: -Dourios.big=true");
        int tenants = 10;
        int hours = 100;
        List<String> names = java.util.stream.IntStream.range(0, tenants).mapToObj(i -> "t" + i).toList();
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(names, Instant.parse("2026-01-01T00:00:00Z"), hours, 2,
                20, 3));
        try (ViewStore vs = new ViewStore(dir)) {
            for (String t : names) {
                for (int h = 0; h < hours; h++) {
                    vs.ingest(gen.partition(t, h), gen.file(t, h, 0));
                }
            }
            SyncResult full = vs.sync();
            assertEquals(tenants * hours, full.partitionsChanged());
            PartitionKey p = gen.partition("t3", 57);
            List<LogRecord> late = gen.file("t3", 57, 1);
            vs.ingest(p, late);
            SyncResult one = vs.sync();
            assertEquals(1, one.partitionsChanged());
            assertEquals(1, one.filesAdded());
            SyncResult none = vs.sync();
            System.out.printf("iceberg sync of %d partitions: first %.2f s, one changed %.2f s, none changed %.2f s%n",
                    tenants * hours, full.elapsed().toNanos() / 1e9, one.elapsed().toNanos() / 1e9,
                    none.elapsed().toNanos() / 1e9);
        }
    }
}
