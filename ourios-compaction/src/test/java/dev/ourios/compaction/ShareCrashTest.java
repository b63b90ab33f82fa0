package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.share.ShareSampler;
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
 * Crash safety of a shared rewrite (storage.md §4.14, "Sharing one rewrite between workers"): a compactor process
 * whose two share workers write one partition's shares at once halts at a protocol step (mid-rewrite, after a
 * worker's first file is published, after the commit); the partition still reads exactly the acknowledged rows, never
 * part of the shares, and a recovery sweep plus GC past the grace leaves it one band and no debris.
 */
class ShareCrashTest {
    private static final long MAX_FILE = 1L << 20;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Step.class, names = {"MID_REWRITE", "AFTER_OUTPUT_PUBLISHED", "AFTER_COMMIT"})
    void a_halt_while_share_workers_write_loses_no_row_and_recovery_reclaims_every_workers_debris(Step point)
            throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("acme"), 1, 6, 12000, 29));
        PartitionKey hour = PartitionKey.ofHour("acme", TestStores.HOUR);
        long bytes = TestStores.snapshot(store, hour).live().stream().mapToLong(f -> f.size()).sum();
        assertTrue(ShareSampler.shareCount(bytes, MAX_FILE) >= 2, bytes + " bytes are cut into shares");
        StoreLedger ledger = new StoreLedger(store);

        CompactorChild child = CompactorChild.start(dir.resolve("store"), dir.resolve("scratch"), 60_000, 1, false,
                Optional.of(point), Optional.empty(), OptionalLong.of(MAX_FILE), 2);
        int status = child.await(120_000);
        String ctx = point.label() + ", child said:\n" + child.output();
        assertEquals(HaltingObjectStore.HALT_STATUS, status, "the child must die at the armed point: " + ctx);
        ledger.assertRowsIntact("after a halt at " + ctx);

        PartitionSnapshot halted = TestStores.snapshot(store, hour);
        if (point == Step.AFTER_COMMIT) {
            assertTrue(halted.manifest().orElseThrow().main().size() >= 2, "the committed band: " + ctx);
            assertEquals(halted.manifest().get().main().size(), halted.live().size(), "the whole band is live");
        } else {
            assertEquals(0, halted.generation(), "nothing committed: " + ctx);
        }
        if (point == Step.AFTER_OUTPUT_PUBLISHED) {
            assertFalse(halted.orphans().isEmpty(), "a worker's published, unnamed file is an orphan: " + ctx);
        }

        CompactionOptions opts = CompactionOptions.defaults(dir.resolve("scratch")).withMaxFileBytes(MAX_FILE)
                .withMinFiles(1).withShareWorkers(2);
        BandRecovery.recoverIntoOneBand(store, dir.resolve("scratch"), opts, ledger, point.label());
    }
}
