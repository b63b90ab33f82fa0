package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.HaltingObjectStore;
import dev.ourios.store.HaltingObjectStore.Step;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.PartitionSnapshot;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Crash safety of a band (storage.md §4.14): a compactor process cutting its outputs into several files halts at a
 * protocol step (after its first band file is published, mid-rewrite, after the commit); the partition still reads
 * exactly the acknowledged rows, never part of a band, and a recovery sweep plus GC past the grace leaves each
 * partition one band and no debris.
 */
class BandCrashTest {
    /** Small enough that the child's outputs (1 KiB row groups) are bands of several files. */
    private static final long MAX_FILE = 1L << 20;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Step.class, names = {"MID_REWRITE", "AFTER_OUTPUT_PUBLISHED", "AFTER_COMMIT"})
    void a_halt_while_writing_or_committing_a_band_loses_no_row_and_recovery_reclaims_the_debris(Step point)
            throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("acme"), 2, 3, 500, 43));
        StoreLedger ledger = new StoreLedger(store);

        CompactorChild child = CompactorChild.start(dir.resolve("store"), dir.resolve("scratch"), 60_000, 1, false,
                Optional.of(point), Optional.empty(), OptionalLong.of(MAX_FILE));
        int status = child.await(60_000);
        String ctx = point.label() + ", child said:\n" + child.output();
        assertEquals(HaltingObjectStore.HALT_STATUS, status, "the child must die at the armed point: " + ctx);
        ledger.assertRowsIntact("after a halt at " + ctx);

        long committed = 0;
        for (PartitionKey p : ledger.partitions()) {
            PartitionSnapshot s = TestStores.snapshot(store, p);
            if (s.generation() > 0) {
                committed++;
                assertTrue(s.manifest().orElseThrow().main().size() >= 2, "the committed band: " + s.live());
                assertEquals(s.manifest().get().main().size(), s.live().size(), "the whole band is live: " + ctx);
            }
        }
        assertEquals(point == Step.AFTER_COMMIT ? 1 : 0, committed, ctx);
        if (point == Step.AFTER_OUTPUT_PUBLISHED) {
            long orphans = 0;
            for (PartitionKey p : ledger.partitions()) {
                orphans += TestStores.snapshot(store, p).orphans().size();
            }
            assertEquals(1, orphans, "the band's first file, published and unnamed, is an orphan: " + ctx);
        }

        CompactionOptions opts = CompactionOptions.defaults(dir.resolve("scratch")).withMaxFileBytes(MAX_FILE)
                .withMinFiles(1).withRowGroupBytes(OptionalLong.of(1024));
        BandRecovery.recoverIntoOneBand(store, dir.resolve("scratch"), opts, ledger, point.label());
    }
}
