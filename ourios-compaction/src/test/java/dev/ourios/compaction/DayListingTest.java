package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.CountingObjectStore;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.DayCovers;
import dev.ourios.table.DayPartition;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableReader;
import io.opentelemetry.api.metrics.MeterProvider;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hours of a day resolved from one listing of the day's directory give the same snapshots as each hour listed
 * on its own: covered hours (one with a late file) and hours that do not exist.
 */
class DayListingTest {
    private static final String TENANT = "acme";
    private static final DayPartition DAY = DayPartition.of(PartitionKey.ofHour(TENANT, TestStores.HOUR));

    @TempDir
    Path dir;

    @Test
    void oneListingOfTheDayResolvesEveryHourAsItsOwnListingDoes() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of(TENANT), 4, 3, 300, 23));
        CompactionOptions o = CompactionOptions.defaults(dir.resolve("scratch")).withRollup(true);
        SweepReport r = TestStores.runner(store, o.scratchDir(), o, MeterProvider.noop())
                .sweep(PartitionFilter.all(), x -> { });
        assertFalse(r.hasErrors(), r.toString());
        // A late file in a covered hour; the hours past the fourth hold nothing.
        TestStores.generate(store, TestStores.spec(List.of(TENANT), 1, 1, 50, 29));
        TableReader tables = new TableReader(store, new ManifestCodec());
        DayCovers covers = tables.dayCovers(DAY);
        List<PartitionKey> hours = IntStream.range(0, 24).mapToObj(DAY::hour).toList();

        CountingObjectStore counted = new CountingObjectStore(store);
        Map<PartitionKey, PartitionSnapshot> batched = new TableReader(counted, new ManifestCodec())
                .hourSnapshots(hours, covers);

        assertEquals(1, counted.requests().list(), "one listing of the day: " + counted.requests());
        assertEquals(hours, List.copyOf(batched.keySet()));
        long covered = 0;
        for (PartitionKey h : hours) {
            PartitionSnapshot own = tables.hourSnapshot(h, covers);
            assertEquals(own, batched.get(h), h.toString());
            covered += own.isCovered() ? 1 : 0;
        }
        assertTrue(covered > 0, "some hours are covered");
    }
}
