package dev.ourios.compaction;

import dev.ourios.compaction.audit.AuditEvent;
import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.compaction.verify.ChecksumMismatchException;
import dev.ourios.table.CommitKind;
import dev.ourios.table.CommitRecord;
import dev.ourios.table.PartitionSnapshot;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * A compaction or tail merge as a {@link RewritePlan}: the policy's {@link CompactionPlan} on the snapshot it was
 * made from, rewritten by a {@link PartitionRewriter} into one output, or a band of several, that replaces its
 * inputs. A lost race is not
 * retried: the output is left for GC and the next sweep plans the partition again. A rewrite shared with other
 * compactor processes whose other groups are not written yet is a noop until one of them completes it.
 */
final class CompactionRewrite implements RewritePlan<PartitionResult> {
    private final PartitionSnapshot snapshot;
    private final CompactionPlan plan;
    private final PartitionRewriter rewriter;
    private final Clock clock;
    /** The rewrite's result once the rewrite step ran: the outputs' sizes for the report. */
    private RewriteResult written;
    /** Set when the rewrite is shared and another compactor's group is not written yet. */
    private SharesPending pending;

    CompactionRewrite(PartitionSnapshot snapshot, CompactionPlan plan, PartitionRewriter rewriter, Clock clock) {
        this.snapshot = snapshot;
        this.plan = plan;
        this.rewriter = rewriter;
        this.clock = clock;
    }

    @Override
    public PlannedRewrite plan() {
        return new PlannedRewrite(snapshot, plan.baseGeneration(), Optional.empty());
    }

    @Override
    public StagedRewrite rewrite(PlannedRewrite planned) throws Exception {
        RewriteResult rw;
        try {
            rw = rewriter.rewrite(plan);
        } catch (SharesPending p) {
            // A shared rewrite whose other groups are other compactors' to write: nothing to commit yet.
            pending = p;
            return StagedRewrite.unchanged(plan.inputs().size(), 0);
        }
        written = rw;
        CommitRecord record = new CommitRecord(CommitKind.COMPACT, clock.instant(), plan.inputNames(), rw.rowsOut(),
                0, rw.bytesIn(), rw.bytesOut(), rw.outputChecksum(), null, rw.outputNames());
        return StagedRewrite.toCommit(record, plan.inputs().size(), rw.rowsIn(), rw.inputChecksum(),
                rw.outputChecksum(), true);
    }

    @Override
    public Optional<AuditEvent> auditEvent(PlannedRewrite planned, CommitRecord record, long generation) {
        return Optional.of(AuditEvent.of(plan.partition(), generation, record));
    }

    @Override
    public PartitionResult report(RewriteOutcome outcome) {
        if (outcome instanceof RewriteOutcome.Committed c) {
            return new PartitionResult(plan.partition(), PartitionResult.Result.COMMITTED, plan.inputs().size(),
                    c.record().rows(), c.record().bytesIn(), c.record().bytesOut(), c.generation(),
                    c.record().output(), plan.inputNames(), null, null, c.seconds(), Optional.empty(),
                    CommitKind.COMPACT, written.outputs());
        }
        if (outcome instanceof RewriteOutcome.Lost l) {
            CommitRecord r = l.staged().commitRecord();
            return new PartitionResult(plan.partition(), PartitionResult.Result.NOOP, plan.inputs().size(), 0,
                    r.bytesIn(), r.bytesOut(), plan.baseGeneration(), r.output(), plan.inputNames(), null,
                    "lost the commit race: " + l.detail() + "; output left for GC", l.seconds(), Optional.empty(),
                    CommitKind.COMPACT, written.outputs());
        }
        if (outcome instanceof RewriteOutcome.Refused r) {
            return PartitionResult.error(plan.partition(), plan.baseGeneration(),
                    plan.partition() + ": commit " + r.statusLabel() + ": " + r.detail(), r.seconds());
        }
        if (outcome instanceof RewriteOutcome.Unverified u) {
            return failed(new ChecksumMismatchException(plan.partition(), u.staged().inputChecksum(),
                    u.staged().outputChecksum()), u.seconds());
        }
        if (outcome instanceof RewriteOutcome.Failed f) {
            return failed(f.error(), f.seconds());
        }
        if (outcome instanceof RewriteOutcome.Unchanged && pending != null) {
            return new PartitionResult(plan.partition(), PartitionResult.Result.NOOP, plan.inputs().size(), 0,
                    plan.bytesIn(), 0, plan.baseGeneration(), null, plan.inputNames(), null, pending.getMessage(),
                    outcome.seconds(), Optional.empty(), CommitKind.COMPACT, List.of());
        }
        // Unchanged: a compaction always stages its output, so this is a broken rewriter; reported, not thrown.
        return failed(new IllegalStateException("the rewriter staged no output"), outcome.seconds());
    }

    private PartitionResult failed(Throwable t, double seconds) {
        String msg = Containment.describeOrName(t);
        if (!msg.contains(plan.partition().hourPath())) {
            msg = plan.partition() + ": " + msg;
        }
        return PartitionResult.error(plan.partition(), plan.baseGeneration(), msg, seconds);
    }
}
