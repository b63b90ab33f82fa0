package dev.ourios.compaction;

import dev.ourios.compaction.audit.AuditEvent;
import dev.ourios.table.CommitRecord;
import dev.ourios.table.Manifest;
import dev.ourios.table.NextManifest;
import java.io.IOException;
import java.util.Optional;

/**
 * One kind of partition rewrite, handed to the {@link RewriteProtocol}: the steps that differ by kind (which
 * snapshot it builds on, what it writes, how it is audited, how its outcome is reported), while the protocol owns
 * the steps every kind shares (verify, commit against the planned generation, retry of a lost race, crash points,
 * audit, containment of failures). A new kind of rewrite is a new implementation of this interface.
 *
 * @param <R> the result type the kind reports in
 */
public interface RewritePlan<R> {
    /** The plan step: the snapshot the rewrite builds on; a retry after a lost race calls it again. */
    PlannedRewrite plan() throws Exception;

    /**
     * The rewrite step: writes and publishes, invisibly, whatever {@code planned} has as output, and returns the
     * commit that would make it visible, or {@link StagedRewrite#unchanged} when nothing needs to change.
     */
    StagedRewrite rewrite(PlannedRewrite planned) throws Exception;

    /**
     * The audit event of a committed generation, written best effort after the commit; empty when the rewrite
     * writes its own audit in its output (an audit day's compaction).
     */
    Optional<AuditEvent> auditEvent(PlannedRewrite planned, CommitRecord record, long generation);

    /**
     * The manifest the commit creates on top of {@code planned}: by default {@link NextManifest#from} (the live set
     * less the inputs plus the outputs). Empty when the plan no longer holds (a rollup's hour moved since the plan):
     * the protocol then treats it as a lost race and plans again while attempts remain.
     */
    default Optional<Manifest> nextManifest(PlannedRewrite planned, CommitRecord record) throws IOException {
        return Optional.of(NextManifest.from(planned.snapshot(), record));
    }

    /** How many commits may be lost to another committer before the outcome is {@link RewriteOutcome.Lost}. */
    default int attempts() {
        return 1;
    }

    /** The report step: this kind's result for {@code outcome}. */
    R report(RewriteOutcome outcome);
}
