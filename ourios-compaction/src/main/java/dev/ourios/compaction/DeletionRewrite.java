package dev.ourios.compaction;

import dev.ourios.compaction.audit.AuditEvent;
import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.compaction.verify.ChecksumMismatchException;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.CommitKind;
import dev.ourios.table.CommitRecord;
import dev.ourios.table.TableReader;
import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * A deletion in one partition as a {@link RewritePlan}: the partition's whole live set rewritten without the
 * request's rows, into one output (none when no row is kept). Each attempt plans on a snapshot read then, so a race
 * lost to another committer (a compaction, late data folded in, whose output holds the same rows) is planned again
 * on top of it, up to {@link #attempts()} commits, and a deletion is never silently dropped.
 */
final class DeletionRewrite implements RewritePlan<DeletionResult> {
    /** Makes the sort-merge plan of a deletion's inputs (sizing from the deleter's options). */
    @FunctionalInterface
    interface Planner {
        CompactionPlan plan(PartitionKey partition, long generation, List<ObjectInfo> inputs);
    }

    private final PartitionKey partition;
    private final DeletionRequest request;
    private final TableReader reader;
    private final SortedRewriter rewriter;
    private final Planner planner;
    private final int attempts;
    private final Clock clock;

    DeletionRewrite(PartitionKey partition, DeletionRequest request, TableReader reader, SortedRewriter rewriter,
            Planner planner, int attempts, Clock clock) {
        this.partition = partition;
        this.request = request;
        this.reader = reader;
        this.rewriter = rewriter;
        this.planner = planner;
        this.attempts = attempts;
        this.clock = clock;
    }

    @Override
    public PlannedRewrite plan() throws Exception {
        return PlannedRewrite.of(reader.snapshot(partition));
    }

    @Override
    public StagedRewrite rewrite(PlannedRewrite planned) throws Exception {
        if (planned.snapshot().live().isEmpty()) {
            return StagedRewrite.unchanged(0, 0);
        }
        List<ObjectInfo> inputs = planned.snapshot().live().stream().sorted(Comparator.comparing(ObjectInfo::name))
                .toList();
        CompactionPlan plan = planner.plan(partition, planned.generation(), inputs);
        RewriteResult rw = rewriter.rewrite(plan, request.matches());
        if (rw.rowsRemoved() == 0) {
            return StagedRewrite.unchanged(inputs.size(), rw.rowsIn());
        }
        boolean kept = rw.outputName() != null;
        CommitRecord record = new CommitRecord(CommitKind.DELETE, clock.instant(), plan.inputNames(), rw.rowsOut(),
                rw.rowsRemoved(), rw.bytesIn(), kept ? rw.bytesOut() : 0, kept ? rw.outputChecksum() : null,
                request.toJson(), rw.outputNames());
        return StagedRewrite.toCommit(record, inputs.size(), rw.rowsIn(), rw.inputChecksum(), rw.outputChecksum(),
                true);
    }

    @Override
    public Optional<AuditEvent> auditEvent(PlannedRewrite planned, CommitRecord record, long generation) {
        return Optional.of(AuditEvent.of(partition, generation, record));
    }

    @Override
    public int attempts() {
        return attempts;
    }

    @Override
    public DeletionResult report(RewriteOutcome outcome) {
        if (outcome instanceof RewriteOutcome.Committed c) {
            CommitRecord r = c.record();
            return new DeletionResult(partition, DeletionResult.Status.COMMITTED, c.generation(),
                    c.staged().filesIn(), c.staged().rowsIn(), r.rowsRemoved(), r.rows(), r.output(), null,
                    c.seconds(), r.outputs());
        }
        if (outcome instanceof RewriteOutcome.Unchanged u) {
            return new DeletionResult(partition, DeletionResult.Status.UNCHANGED, u.planned().generation(),
                    u.staged().filesIn(), u.staged().rowsIn(), 0, u.staged().rowsIn(), null, null, u.seconds());
        }
        if (outcome instanceof RewriteOutcome.Lost l) {
            return DeletionResult.error(partition, l.planned().generation(), partition + ": lost the commit race "
                    + l.attempts() + " times (" + l.detail() + "); nothing deleted, run the request again",
                    l.seconds());
        }
        if (outcome instanceof RewriteOutcome.Refused r) {
            return DeletionResult.error(partition, r.planned().generation(), partition + ": commit "
                    + r.statusLabel() + ": " + r.detail(), r.seconds());
        }
        if (outcome instanceof RewriteOutcome.Unverified u) {
            return failed(new ChecksumMismatchException(partition, u.staged().inputChecksum(),
                    u.staged().outputChecksum()), u.planned().generation(), u.seconds());
        }
        RewriteOutcome.Failed f = (RewriteOutcome.Failed) outcome;
        return failed(f.error(), f.generation(-1), f.seconds());
    }

    private DeletionResult failed(Throwable t, long generation, double seconds) {
        String msg = Containment.describeOrName(t);
        return DeletionResult.error(partition, generation, msg.contains(partition.hourPath()) ? msg
                : partition + ": " + msg, seconds);
    }
}
