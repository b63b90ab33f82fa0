package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.audit.AuditEvent;
import dev.ourios.compaction.audit.AuditLog;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.CommitKind;
import dev.ourios.table.CommitRecord;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.ManifestCommitter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableReader;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The steps of the one rewrite path, each with its own result: a plan's staged rewrite is committed only when it
 * verifies, a lost race is the plan's to retry or report, and each outcome leaves the partition as it says.
 */
class RewriteProtocolTest {
    private static final PartitionKey P = PartitionKey.ofHour("a", TestStores.HOUR);

    @TempDir
    Path dir;

    private LocalObjectStore store;
    private AuditLog audit;

    private RewriteProtocol protocol() throws Exception {
        store = store == null ? new LocalObjectStore(dir.resolve("store")) : store;
        audit = new AuditLog(store, dir.resolve("audit-scratch"));
        return new RewriteProtocol(ManifestCommitter.forGcGrace(store, new ManifestCodec(), Clock.systemUTC(),
                Duration.ofMinutes(10)), audit);
    }

    private CompactionRewrite compaction(PartitionSnapshot s) {
        CompactionOptions options = CompactionOptions.defaults(dir.resolve("scratch"));
        CompactionPlan plan = new CompactionPlan(P, s.generation(), s.live().stream()
                .sorted(Comparator.comparing(ObjectInfo::name)).toList(), 1 << 20, options.sortBudgetBytes(),
                options.fanIn());
        return new CompactionRewrite(s, plan, new SortedRewriter(store, dir.resolve("scratch")), Clock.systemUTC());
    }

    @Test
    void aVerifiedRewriteIsCommittedAuditedAndReported() throws Exception {
        RewriteProtocol protocol = protocol();
        TestStores.generate(store, TestStores.spec(List.of("a"), 1, 3, 30, 21));
        PartitionSnapshot s = TestStores.snapshot(store, P);
        CompactionRewrite plan = compaction(s);

        RewriteOutcome outcome = protocol.execute(plan);

        RewriteOutcome.Committed c = assertInstanceOf(RewriteOutcome.Committed.class, outcome, outcome.toString());
        assertEquals(1, c.generation());
        assertTrue(c.staged().verified());
        assertEquals(90, c.staged().rowsIn());
        assertEquals(List.of(c.record().output()), TestStores.snapshot(store, P).live().stream()
                .map(ObjectInfo::name).toList());
        assertTrue(audit.exists(AuditEvent.of(P, 1, c.record())), "the commit's audit event is written");
        PartitionResult r = plan.report(outcome);
        assertEquals(PartitionResult.Result.COMMITTED, r.result());
        assertEquals(90, r.rows());
        assertEquals(s.live().stream().map(ObjectInfo::name).sorted().toList(), r.inputs());
    }

    @Test
    void aRaceLostOnEveryAttemptIsLostAndChangesNothingOfTheWinners() throws Exception {
        RewriteProtocol protocol = protocol();
        TestStores.generate(store, TestStores.spec(List.of("a"), 1, 3, 30, 22));
        PartitionSnapshot s = TestStores.snapshot(store, P);
        CompactionRewrite first = compaction(s);
        CompactionRewrite second = compaction(s);

        assertInstanceOf(RewriteOutcome.Committed.class, protocol.execute(first));
        List<ObjectInfo> winners = TestStores.snapshot(store, P).live();
        RewriteOutcome outcome = protocol.execute(second);

        RewriteOutcome.Lost lost = assertInstanceOf(RewriteOutcome.Lost.class, outcome, outcome.toString());
        assertEquals(1, lost.attempts(), "a compaction does not retry");
        assertEquals(winners, TestStores.snapshot(store, P).live());
        PartitionResult r = second.report(outcome);
        assertEquals(PartitionResult.Result.NOOP, r.result());
        assertTrue(r.reason().startsWith("lost the commit race: ") && r.reason().endsWith("; output left for GC"),
                r.reason());
    }

    @Test
    void aPlanWithAttemptsLeftPlansAgainOnTopOfTheWinner() throws Exception {
        RewriteProtocol protocol = protocol();
        TestStores.generate(store, TestStores.spec(List.of("a"), 1, 3, 30, 23));
        TableReader reader = new TableReader(store, new ManifestCodec());
        RewriteProtocol competitor = protocol;
        // An expiry that, while its first attempt is staged, loses the partition to a compaction.
        RetiringEverything plan = new RetiringEverything(reader, 3, () -> competitor.execute(
                compaction(TestStores.snapshot(store, P))));

        RewriteOutcome outcome = protocol.execute(plan);

        RewriteOutcome.Committed c = assertInstanceOf(RewriteOutcome.Committed.class, outcome, outcome.toString());
        assertEquals(2, c.generation(), "planned again on the compaction's generation 1");
        assertEquals(2, plan.plans);
        assertTrue(TestStores.snapshot(store, P).live().isEmpty());
    }

    @Test
    void aRewriteThatDoesNotVerifyIsNeverCommitted() throws Exception {
        RewriteProtocol protocol = protocol();
        TestStores.generate(store, TestStores.spec(List.of("a"), 1, 2, 10, 24));
        PartitionSnapshot s = TestStores.snapshot(store, P);
        String output = "00000000-0000-7000-8000-000000000000.compacted.parquet";
        CommitRecord record = new CommitRecord(Clock.systemUTC().instant(),
                s.live().stream().map(ObjectInfo::name).toList(), output, 20, 1, 1, "20:b");
        RewritePlan<RewriteOutcome> plan = new Staging(s, StagedRewrite.toCommit(record, 2, 20, "20:a", "20:b",
                true));

        RewriteOutcome outcome = protocol.execute(plan);

        assertInstanceOf(RewriteOutcome.Unverified.class, outcome, outcome.toString());
        assertEquals(0, TestStores.snapshot(store, P).generation());
        assertFalse(audit.exists(AuditEvent.of(P, 1, record)));
    }

    /** Seeded: a staged rewrite verifies exactly when rows in − rows removed = rows out and the checksums agree. */
    @Test
    void aStagedRewriteVerifiesExactlyWhenRowsAndChecksumsAgree() {
        long seed = Long.getLong("ourios.seed", System.nanoTime());
        System.out.println("seed " + seed);
        Random rnd = new Random(seed);
        for (int i = 0; i < 2_000; i++) {
            long rows = rnd.nextInt(50);
            long removed = rnd.nextInt(50);
            long rowsIn = rows + removed + (rnd.nextInt(4) == 0 ? rnd.nextInt(3) - 1 : 0);
            String in = "sum" + rnd.nextInt(3);
            String out = rnd.nextInt(4) == 0 ? "sum" + rnd.nextInt(3) : in;
            CommitRecord record = new CommitRecord(CommitKind.DELETE, Clock.systemUTC().instant(), List.of("x"),
                    rows == 0 ? null : "o", rows, removed, 1, 1, rows == 0 ? null : out, "{}");
            StagedRewrite staged = StagedRewrite.toCommit(record, 1, rowsIn, in, out, true);
            boolean expected = rowsIn - removed == rows && in.equals(out);
            assertEquals(expected, staged.verified(), "seed " + seed + " case " + i + ": " + staged);
        }
        assertTrue(StagedRewrite.unchanged(3, 7).verified(), "nothing staged, nothing to refuse");
    }

    /** A plan that stages a given rewrite (checksums and all) on a given snapshot, and reports the outcome. */
    private static final class Staging implements RewritePlan<RewriteOutcome> {
        private final PartitionSnapshot snapshot;
        private final StagedRewrite staged;

        Staging(PartitionSnapshot snapshot, StagedRewrite staged) {
            this.snapshot = snapshot;
            this.staged = staged;
        }

        @Override
        public PlannedRewrite plan() {
            return PlannedRewrite.of(snapshot);
        }

        @Override
        public StagedRewrite rewrite(PlannedRewrite planned) {
            return staged;
        }

        @Override
        public Optional<AuditEvent> auditEvent(PlannedRewrite planned, CommitRecord record, long generation) {
            return Optional.of(AuditEvent.of(planned.partition(), generation, record));
        }

        @Override
        public RewriteOutcome report(RewriteOutcome outcome) {
            return outcome;
        }
    }

    /**
     * Retires every live file of the partition as read at each attempt (an expiry's commit); before staging its
     * first attempt it runs {@code meanwhile}, another committer taking the next generation.
     */
    private static final class RetiringEverything implements RewritePlan<RewriteOutcome> {
        private final TableReader reader;
        private final int attempts;
        private final Callable<RewriteOutcome> meanwhile;
        int plans;

        RetiringEverything(TableReader reader, int attempts, Callable<RewriteOutcome> meanwhile) {
            this.reader = reader;
            this.attempts = attempts;
            this.meanwhile = meanwhile;
        }

        @Override
        public PlannedRewrite plan() throws Exception {
            plans++;
            return PlannedRewrite.of(reader.snapshot(P));
        }

        @Override
        public StagedRewrite rewrite(PlannedRewrite planned) throws Exception {
            if (plans == 1) {
                assertInstanceOf(RewriteOutcome.Committed.class, meanwhile.call());
            }
            List<ObjectInfo> live = planned.snapshot().live();
            CommitRecord record = CommitRecord.expiry(Clock.systemUTC().instant(),
                    live.stream().map(ObjectInfo::name).toList(), 0, planned.snapshot().liveBytes(), "test");
            return StagedRewrite.toCommit(record, live.size(), 0, null, null, false);
        }

        @Override
        public Optional<AuditEvent> auditEvent(PlannedRewrite planned, CommitRecord record, long generation) {
            return Optional.of(AuditEvent.of(planned.partition(), generation, record));
        }

        @Override
        public int attempts() {
            return attempts;
        }

        @Override
        public RewriteOutcome report(RewriteOutcome outcome) {
            return outcome;
        }
    }
}
