package dev.ourios.compaction;

import dev.ourios.table.CommitRecord;
import dev.ourios.table.CommitResult;
import dev.ourios.table.Manifest;
import dev.ourios.table.ManifestCommitter;
import dev.ourios.table.NextManifest;
import dev.ourios.table.PartitionSnapshot;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one planned compaction: rewrite, then commit against the generation the plan read, then audit. Each step is
 * its own object with its own result; this class only wires them and turns the outcome into a
 * {@link PartitionResult}. Any failure before the commit leaves the partition exactly as it was.
 */
public final class PartitionCompactor {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionCompactor.class);

    private final PartitionRewriter rewriter;
    private final ManifestCommitter committer;
    private final AuditLog audit;
    private final Clock clock;

    public PartitionCompactor(PartitionRewriter rewriter, ManifestCommitter committer, AuditLog audit, Clock clock) {
        this.rewriter = rewriter;
        this.committer = committer;
        this.audit = audit;
        this.clock = clock;
    }

    public PartitionResult compact(PartitionSnapshot snapshot, CompactionPlan plan) {
        long started = System.nanoTime();
        try {
            RewriteResult rw = rewriter.rewrite(plan);
            if (!rw.checksumsMatch()) {
                throw new ChecksumMismatchException(plan.partition(), rw.inputChecksum(), rw.outputChecksum());
            }
            CommitRecord record = new CommitRecord(clock.instant(), plan.inputNames(), rw.outputName(), rw.rowsOut(),
                    rw.bytesIn(), rw.bytesOut(), rw.outputChecksum());
            Manifest next = NextManifest.from(snapshot, record);
            CommitResult cr = committer.commit(plan.partition(), plan.baseGeneration(), next);
            double secs = (System.nanoTime() - started) / 1e9;
            return switch (cr.status()) {
                case COMMITTED -> {
                    emitAudit(plan, record, cr.generation());
                    yield new PartitionResult(plan.partition(), PartitionResult.Result.COMMITTED, plan.inputs().size(),
                            rw.rowsOut(), rw.bytesIn(), rw.bytesOut(), cr.generation(), rw.outputName(),
                            plan.inputNames(), null, null, secs);
                }
                case LOST -> new PartitionResult(plan.partition(), PartitionResult.Result.NOOP, plan.inputs().size(),
                        0, rw.bytesIn(), rw.bytesOut(), plan.baseGeneration(), rw.outputName(), plan.inputNames(),
                        null, "lost the commit race: " + cr.detail() + "; output left for GC", secs);
                case REJECTED, UNKNOWN -> PartitionResult.error(plan.partition(), plan.baseGeneration(),
                        plan.partition() + ": commit " + cr.status().name().toLowerCase(java.util.Locale.ROOT) + ": "
                                + cr.detail(), secs);
            };
        } catch (Exception e) {
            double secs = (System.nanoTime() - started) / 1e9;
            LOG.debug("compaction of {} failed", plan.partition(), e);
            String msg = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            if (!msg.contains(plan.partition().hourPath())) {
                msg = plan.partition() + ": " + msg;
            }
            return PartitionResult.error(plan.partition(), plan.baseGeneration(), msg, secs);
        }
    }

    /** Best effort: a lost audit event is re-emitted by a later sweep from the manifest's commit record. */
    private void emitAudit(CompactionPlan plan, CommitRecord record, long generation) {
        try {
            audit.emit(new AuditEvent(plan.partition(), record.at(), record.inputs(), record.output(), generation,
                    record.rows()));
        } catch (Exception e) {
            LOG.warn("{}: audit event for generation {} not written ({}); a later sweep re-emits it",
                    plan.partition(), generation, e.getMessage());
        }
    }
}
