package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.audit.AuditEvent;
import dev.ourios.compaction.audit.AuditLog;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.Retention;
import dev.ourios.store.HaltingObjectStore;
import dev.ourios.store.HaltingObjectStore.Step;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.CommitKind;
import dev.ourios.table.CommitRecord;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash safety of an expiry: a real compactor process (a child JVM running {@link CompactorProcess} with a retention)
 * halts at each protocol step an expiry reaches: right after the expiry's commit (its audit event not written), and
 * in the GC that collects the expired files. Whatever the step, the expired partition reads whole (before the commit)
 * or empty (after it), never half; the partition inside its retention keeps every row; and one ordinary recovery
 * sweep re-emits the lost audit event and collects every expired file.
 */
class RetentionCrashTest {
    /** At {@link TestStores#LATER}, hour 0 (10:00-11:00) is past this retention and hour 1 (11:00-12:00) is not. */
    private static final Duration RETENTION = Duration.between(Instant.parse("2026-11-01T11:30:00Z"),
            TestStores.LATER.instant());

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Step.class, names = {"AFTER_COMMIT", "MID_GC"})
    void anExpiryHaltedAtAnyStepLeavesThePartitionWholeOrEmptyAndRecoveryFinishesIt(Step point)
            throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("acme"), 2, 3, 150, 23));
        PartitionKey expired = PartitionKey.ofHour("acme", TestStores.HOUR);
        PartitionKey kept = PartitionKey.ofHour("acme", TestStores.HOUR.plus(Duration.ofHours(1)));
        List<String> keptRows = TestStores.identities(TestStores.liveRows(store, kept));
        assertEquals(450, TestStores.liveRows(store, expired).size());
        long gcGrace = 60_000;
        if (point == Step.MID_GC) {
            // GC needs expired files to collect: expire in-process first (files retired, not deleted).
            SweepReport first = sweep(store, Duration.ofHours(1));
            assertEquals(2, first.count(PartitionResult.Result.COMMITTED), first.toString());
            gcGrace = 1;
        }

        CompactorChild child = CompactorChild.start(dir.resolve("store"), dir.resolve("scratch"), gcGrace, 1, false,
                Optional.of(point), Optional.of(RETENTION));
        int status = child.await(60_000);
        String ctx = point.label() + ", child said:\n" + child.output();
        assertEquals(HaltingObjectStore.HALT_STATUS, status, "the child must die at the armed point: " + ctx);

        PartitionSnapshot s = TestStores.snapshot(store, expired);
        assertEquals(1, s.generation(), ctx);
        assertEquals(List.of(), s.live(), "after the expiry's commit the partition reads empty: " + ctx);
        CommitRecord c = s.manifest().orElseThrow().commitRecord().orElseThrow().complete().orElseThrow();
        assertEquals(CommitKind.EXPIRE, c.kind());
        assertEquals(450, c.rowsRemoved());
        AuditLog audit = new AuditLog(store, dir.resolve("audit-scratch"));
        AuditEvent event = AuditEvent.of(expired, 1, c);
        switch (point) {
            case AFTER_COMMIT -> {
                assertEquals(3, s.retiredPresent().size(), "the expired files are retired, not deleted: " + ctx);
                assertFalse(audit.exists(event), "the halt lost the audit event: " + ctx);
                assertEquals(0, TestStores.snapshot(store, kept).generation(),
                        "the halt came before the kept hour's compaction: " + ctx);
            }
            case MID_GC -> {
                assertEquals(2, s.retiredPresent().size(), "exactly one expired file deleted: " + ctx);
                assertTrue(audit.exists(event), ctx);
            }
            default -> throw new IllegalStateException(point.toString());
        }
        assertEquals(keptRows, TestStores.identities(TestStores.liveRows(store, kept)), "the kept hour: " + ctx);

        // Recovery: one ordinary sweep with a zero GC grace.
        SweepReport recovery = sweep(store, Duration.ZERO);
        assertTrue(recovery.errors().isEmpty(), recovery.toString());
        assertTrue(audit.exists(event), "the recovery sweep re-emits the expire event");
        PartitionSnapshot after = TestStores.snapshot(store, expired);
        assertEquals(List.of(), after.live());
        assertEquals(List.of(), after.retiredPresent(), "every expired file collected");
        assertEquals(keptRows, TestStores.identities(TestStores.liveRows(store, kept)));
        assertEquals(1, TestStores.snapshot(store, kept).live().size(), "the kept hour is compacted");
    }

    private SweepReport sweep(LocalObjectStore store, Duration gcGrace) {
        CompactionOptions opts = CompactionOptions.defaults(dir.resolve("scratch")).withMinFiles(1)
                .withGcGrace(gcGrace).withRetention(Retention.of(RETENTION));
        return CompactionWiring.sweepRunner(SweepSettings.of(store, opts).withPlanClock(TestStores.LATER))
                .sweep(PartitionFilter.all(), r -> { });
    }
}
