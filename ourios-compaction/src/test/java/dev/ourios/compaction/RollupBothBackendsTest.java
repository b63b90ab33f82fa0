package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.DayPartition;
import dev.ourios.table.Manifest;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.TableReader;
import io.opentelemetry.api.metrics.MeterProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The rollup on local disk and on a real S3 API (s3proxy): the same hour files (same names and bytes) roll up into the
 * same day file, byte for byte, under different sort budgets, and every row reads exactly once on both.
 */
class RollupBothBackendsTest extends OnBothBackends {
    private static final DayPartition DAY = DayPartition.of(PartitionKey.ofHour("acme", TestStores.HOUR));

    @Test
    void theSameHoursRollUpIntoTheSameBytesOnDiskAndOnS3() throws Exception {
        Path localRoot = dir.resolve("source");
        LocalObjectStore source = new LocalObjectStore(localRoot);
        TestStores.generate(source, TestStores.spec(List.of("acme"), 3, 3, 300, 5));
        sweep(source, CompactionOptions.defaults(dir.resolve("scratch")));
        ObjectStore onS3 = s3.newStore();
        try (Stream<Path> all = Files.walk(localRoot)) {
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                onS3.put(localRoot.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
            }
        }
        List<String> expected = TestStores.identities(DayRows.of(source, DAY));

        sweep(source, CompactionOptions.defaults(dir.resolve("scratch")).withRollup(true).withSortBudget(1L << 20));
        sweep(onS3, CompactionOptions.defaults(dir.resolve("scratch")).withRollup(true));
        Manifest onDisk = day(source);
        Manifest inS3 = day(onS3);
        assertEquals(onDisk.covers(), inS3.covers());
        assertEquals(1, onDisk.files().size());
        assertArrayEquals(source.readAllBytes(DAY.prefix() + onDisk.files().get(0)),
                onS3.readAllBytes(DAY.prefix() + inS3.files().get(0)));
        assertEquals(expected, TestStores.identities(DayRows.of(source, DAY)));
        assertEquals(expected, TestStores.identities(DayRows.of(onS3, DAY)));
    }

    private static Manifest day(ObjectStore store) throws IOException {
        return new TableReader(store, new ManifestCodec()).daySnapshot(DAY).manifest().orElseThrow();
    }

    private static void sweep(ObjectStore store, CompactionOptions options) {
        SweepReport r = TestStores.runner(store, options.scratchDir(), options, MeterProvider.noop())
                .sweep(PartitionFilter.all(), x -> { });
        assertFalse(r.hasErrors(), r.toString());
    }
}
