package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.audit.AuditEvent;
import dev.ourios.compaction.audit.AuditLog;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.HaltingObjectStore;
import dev.ourios.store.HaltingObjectStore.Step;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.CommitKind;
import dev.ourios.table.CommitRecord;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.testkit.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash safety of a deletion: a real process running a deletion request (a child JVM running
 * {@link DeleterProcess}) halts at each step of the protocol (mid-rewrite, output published but not committed,
 * committed but not audited). After the halt each partition reads exactly its rows before the deletion or exactly
 * those rows minus the matching ones, never a mix; running the request again finishes it; a sweep re-emits a lost
 * audit event; and GC past the grace leaves no orphan, temp file or retired file behind.
 */
class DeletionCrashTest {
    private static final String FROM = "2026-11-01T10:00:00Z";
    private static final String TO = "2026-11-01T12:00:00Z";
    private static final int SEVERITY_MIN = 13;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Step.class, names = {"MID_REWRITE", "AFTER_OUTPUT_PUBLISHED", "AFTER_COMMIT"})
    void aDeletionHaltedAtAnyStepLeavesEachPartitionBeforeOrAfterAndARerunFinishesIt(Step point)
            throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("acme"), 2, 3, 500, 31));
        PartitionKey first = PartitionKey.ofHour("acme", TestStores.HOUR);
        PartitionKey second = PartitionKey.ofHour("acme", TestStores.HOUR.plus(Duration.ofHours(1)));
        DeletionRequest request = DeleterProcess.request("acme", FROM, TO, SEVERITY_MIN);
        Predicate<LogRecord> matches = request.matches();
        List<String> before1 = TestStores.identities(TestStores.liveRows(store, first));
        List<String> before2 = TestStores.identities(TestStores.liveRows(store, second));
        List<String> after1 = TestStores.identities(TestStores.liveRows(store, first).stream()
                .filter(matches.negate()).toList());
        List<String> after2 = TestStores.identities(TestStores.liveRows(store, second).stream()
                .filter(matches.negate()).toList());
        assertTrue(after1.size() < before1.size() && !after1.isEmpty(), "the filter matches some rows, not all");

        int status;
        String ctx;
        try (ChildJvm child = ChildJvm.main(DeleterProcess.class).heap("256m")
                .jvmArgs("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
                .property("org.slf4j.simpleLogger.defaultLogLevel", "warn")
                .args(dir.resolve("store").toString(), dir.resolve("scratch").toString(), "acme", FROM, TO,
                        Integer.toString(SEVERITY_MIN), point.label())
                .mergeStderr().start()) {
            status = child.waitFor(Duration.ofSeconds(120));
            ctx = point.label() + ", child said:\n" + child.output();
        }
        assertEquals(HaltingObjectStore.HALT_STATUS, status, "the child must die at the armed point: " + ctx);

        List<String> now1 = TestStores.identities(TestStores.liveRows(store, first));
        assertEquals(before2, TestStores.identities(TestStores.liveRows(store, second)),
                "the second partition was not reached: " + ctx);
        PartitionSnapshot s1 = TestStores.snapshot(store, first);
        switch (point) {
            case MID_REWRITE -> {
                assertEquals(before1, now1, ctx);
                assertEquals(1, s1.temps().size(), "the partly written output is a temp file: " + ctx);
            }
            case AFTER_OUTPUT_PUBLISHED -> {
                assertEquals(before1, now1, ctx);
                assertEquals(1, s1.orphans().size(), "the output is published, unnamed: " + ctx);
                assertEquals(after1, TestStores.identities(TestStores.readAll(store, s1.orphans().get(0).key())),
                        "the orphan holds exactly the kept rows, invisible");
            }
            case AFTER_COMMIT -> {
                assertEquals(after1, now1, "the first partition is committed: " + ctx);
                CommitRecord c = s1.manifest().orElseThrow().commitRecord().orElseThrow().complete().orElseThrow();
                assertEquals(CommitKind.DELETE, c.kind());
                assertFalse(new AuditLog(store, dir).exists(AuditEvent.of(first, 1, c)),
                        "the halt lost the audit event: " + ctx);
            }
            default -> throw new IllegalStateException(point.toString());
        }

        // Recovery: the same request again, then one sweep (audit repair) with a zero GC grace, twice (the second
        // collects what the first sweep's commits retired).
        List<DeletionResult> rerun = CompactionWiring.deletion(DeletionSettings.of(store,
                CompactionOptions.defaults(dir.resolve("s2")))).run(request, false, r -> { });
        assertTrue(rerun.stream().noneMatch(r -> r.status() == DeletionResult.Status.ERROR), rerun.toString());
        assertEquals(after1, TestStores.identities(TestStores.liveRows(store, first)), ctx);
        assertEquals(after2, TestStores.identities(TestStores.liveRows(store, second)), ctx);
        CompactionOptions opts = CompactionOptions.defaults(dir.resolve("s3")).withGcGrace(Duration.ZERO)
                .withMinFiles(1000).withSmallFileBytes(0);
        var runner = CompactionWiring.sweepRunner(SweepSettings.of(store, opts).withPlanClock(TestStores.LATER));
        runner.sweep(PartitionFilter.all(), r -> { });
        for (PartitionKey p : List.of(first, second)) {
            PartitionSnapshot s = TestStores.snapshot(store, p);
            CommitRecord c = s.manifest().orElseThrow().commitRecord().orElseThrow().complete().orElseThrow();
            assertTrue(new AuditLog(store, dir).exists(AuditEvent.of(p, s.generation(), c)), p + " audited: " + ctx);
            assertEquals(List.of(), s.orphans(), ctx);
            assertEquals(List.of(), s.temps(), ctx);
            assertEquals(List.of(), s.retiredPresent(), ctx);
            assertEquals(1, s.live().size(), ctx);
        }
    }
}
