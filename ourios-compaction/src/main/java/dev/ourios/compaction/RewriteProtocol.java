package dev.ourios.compaction;

import dev.ourios.compaction.audit.AuditEvent;
import dev.ourios.compaction.audit.AuditLog;
import dev.ourios.table.CommitRecord;
import dev.ourios.table.CommitResult;
import dev.ourios.table.Manifest;
import dev.ourios.table.ManifestCommitter;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one partition-rewrite path: every change of a partition's (or audit day's) live set (a compaction or tail
 * merge, a retention expiry, a deletion, an audit day's compaction) is a {@link RewritePlan} run through these
 * steps, each with its own result:
 * <ol>
 *   <li><b>plan</b> ({@link PlannedRewrite}): the snapshot the rewrite builds on;</li>
 *   <li><b>rewrite</b> ({@link StagedRewrite}): the output written and published, invisible, and the commit record;
 *       nothing to change ends here;</li>
 *   <li><b>verify</b>: rows in − rows removed = rows out, and the checksum of the rows kept equals that of the rows
 *       written; a rewrite that fails it is never committed;</li>
 *   <li><b>commit</b> ({@link CommitResult}): {@code manifest.<N+1>.json}, create-only, on top of the planned
 *       generation N; a race lost to another committer is planned again while the plan allows attempts;</li>
 *   <li><b>audit</b>: the commit's event, best effort (a lost event is re-emitted by a later sweep from the
 *       manifest's commit record, idempotently);</li>
 *   <li><b>report</b>: the {@link RewriteOutcome}, which the plan turns into its own result.</li>
 * </ol>
 * Nothing a step throws escapes: any exception or error that leaves the JVM usable becomes a
 * {@link RewriteOutcome.Failed} (stack trace at DEBUG), so one partition never stops the others; see
 * {@link Containment}. Before the commit the partition is exactly as it was.
 */
public final class RewriteProtocol {
    private static final Logger LOG = LoggerFactory.getLogger(RewriteProtocol.class);

    private final ManifestCommitter committer;
    private final Optional<AuditLog> audit;

    /**
     * Commits through {@code committer}; plans that audit after the commit write to {@code audit}.
     */
    public RewriteProtocol(ManifestCommitter committer, AuditLog audit) {
        this(committer, Optional.of(audit));
    }

    /** For plans that audit in their own output (an audit day's compaction): no audit log. */
    public RewriteProtocol(ManifestCommitter committer) {
        this(committer, Optional.empty());
    }

    private RewriteProtocol(ManifestCommitter committer, Optional<AuditLog> audit) {
        this.committer = committer;
        this.audit = audit;
    }

    /** Runs {@code plan} through every step and returns its report. */
    public <R> R run(RewritePlan<R> plan) {
        return plan.report(execute(plan));
    }

    /** Runs {@code plan} through every step but the report. */
    public RewriteOutcome execute(RewritePlan<?> plan) {
        long started = System.nanoTime();
        Optional<PlannedRewrite> last = Optional.empty();
        try {
            for (int attempt = 1; ; attempt++) {
                PlannedRewrite planned = plan.plan();
                last = Optional.of(planned);
                StagedRewrite staged = plan.rewrite(planned);
                if (staged.record().isEmpty()) {
                    return new RewriteOutcome.Unchanged(planned, staged, secs(started));
                }
                if (!staged.verified()) {
                    return new RewriteOutcome.Unverified(planned, staged, secs(started));
                }
                CommitRecord record = staged.commitRecord();
                Optional<Manifest> next = plan.nextManifest(planned, record);
                CommitResult cr = next.isPresent() ? commit(planned, next.get())
                        : new CommitResult(CommitResult.Status.LOST, planned.partition(), planned.generation() + 1, "",
                                "the plan no longer holds (an hour it covers moved)");
                switch (cr.status()) {
                    case COMMITTED -> {
                        plan.auditEvent(planned, record, cr.generation()).ifPresent(e -> emit(planned, e));
                        return new RewriteOutcome.Committed(planned, staged, cr.generation(), secs(started));
                    }
                    case LOST -> {
                        if (attempt >= plan.attempts()) {
                            return new RewriteOutcome.Lost(planned, staged, cr.detail(), attempt, secs(started));
                        }
                        // Another commit came first (a compaction, late data folded in); the plan is made again
                        // on top of it. Our output is an orphan for GC.
                        LOG.info("{}: lost the commit race ({}); planning again", planned.partition(), cr.detail());
                    }
                    default -> {
                        return new RewriteOutcome.Refused(planned, staged, cr.status(), cr.detail(),
                                secs(started));
                    }
                }
            }
        } catch (Throwable t) {
            Containment.contain(t);
            LOG.debug("rewrite of {} failed", last.map(p -> (Object) p.partition()).orElse("a partition"), t);
            return new RewriteOutcome.Failed(last, t, secs(started));
        }
    }

    private CommitResult commit(PlannedRewrite planned, Manifest next) throws java.io.IOException {
        return planned.directory().isPresent()
                ? committer.commit(planned.partition(), planned.directory().get(), planned.generation(), next)
                : committer.commit(planned.partition(), planned.generation(), next);
    }

    /** Best effort: a lost audit event is re-emitted by a later sweep from the manifest's commit record. */
    private void emit(PlannedRewrite planned, AuditEvent event) {
        try {
            audit.orElseThrow(() -> new IllegalStateException("BUG: a plan that audits, run without an audit log"))
                    .emit(event);
        } catch (Throwable t) {
            // The commit stands whatever the audit write meets: only an error that ends the JVM goes further.
            LOG.warn("{}: audit event for generation {} not written ({}); a later sweep re-emits it",
                    planned.partition(), event.generation(), Containment.describe(Containment.contain(t)));
        }
    }

    private static double secs(long started) {
        return (System.nanoTime() - started) / 1e9;
    }
}
