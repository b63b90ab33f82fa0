package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.GarbageCollector;
import dev.ourios.table.GcOptions;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import io.opentelemetry.api.metrics.MeterProvider;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The recovery after a halted band compaction (BandCrashTest, ShareCrashTest): one sweep with {@code opts}, GC past
 * the grace, then every partition reads the ledger's rows and holds one band and no debris.
 */
final class BandRecovery {
    private BandRecovery() {
    }

    static void recoverIntoOneBand(LocalObjectStore store, Path scratch, CompactionOptions opts, StoreLedger ledger,
            String label) throws IOException {
        SweepReport report = TestStores.runner(store, scratch, opts, MeterProvider.noop())
                .sweep(PartitionFilter.all(), r -> { });
        assertFalse(report.hasErrors(), report.toString());
        Clock pastGrace = Clock.offset(Clock.systemUTC(), opts.gcGrace().plus(Duration.ofMinutes(1)));
        TableReader reader = new TableReader(store, new ManifestCodec());
        var gc = new GarbageCollector(store, new TableLayout(store), reader, new GcOptions(opts.gcGrace(), false),
                pastGrace).run(PartitionFilter.all());
        assertTrue(gc.errors().isEmpty(), gc.errors().toString());

        ledger.assertRowsIntact("recovered from " + label);
        for (PartitionKey p : ledger.partitions()) {
            PartitionSnapshot s = TestStores.snapshot(store, p);
            String where = p + " " + s.listing();
            Set<String> band = new HashSet<>(s.manifest().orElseThrow().main());
            assertTrue(band.size() >= 2, "one band: " + where);
            assertEquals(band, new HashSet<>(s.live().stream().map(f -> f.name()).toList()), where);
            assertEquals(List.of(), s.orphans(), where);
            assertEquals(List.of(), s.temps(), where);
            assertEquals(List.of(), s.retiredPresent(), where);
        }
    }
}
