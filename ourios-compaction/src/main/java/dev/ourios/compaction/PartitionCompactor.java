package dev.ourios.compaction;

import dev.ourios.compaction.audit.AuditEvent;
import dev.ourios.compaction.audit.AuditLog;
import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.compaction.verify.ChecksumMismatchException;
import dev.ourios.table.CommitRecord;
import dev.ourios.table.CommitResult;
import dev.ourios.table.Manifest;
import dev.ourios.table.ManifestCommitter;
import dev.ourios.table.NextManifest;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.store.CountingObjectStore;
import dev.ourios.store.ObjectStore;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one planned compaction: rewrite, then commit against the generation the plan read, then audit. Each step is
 * its own object with its own result; this class only wires them and turns the outcome into a
 * {@link PartitionResult}. Any failure before the commit leaves the partition exactly as it was.
 */
public final class PartitionCompactor {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionCompactor.class);

    private final Optional<ObjectStore> store;
    private final Function<ObjectStore, CompactionSteps> steps;
    private final Clock clock;

    /** Fixed steps: results carry no request counts. */
    public PartitionCompactor(PartitionRewriter rewriter, ManifestCommitter committer, AuditLog audit, Clock clock) {
        this.store = Optional.empty();
        CompactionSteps fixed = new CompactionSteps(rewriter, committer, audit);
        this.steps = s -> fixed;
        this.clock = clock;
    }

    /**
     * Steps built per compaction on a {@link CountingObjectStore} view of {@code store}, so each result carries the
     * requests its own rewrite, commit and audit made, even with other partitions compacting at the same time.
     */
    public PartitionCompactor(ObjectStore store, Function<ObjectStore, CompactionSteps> steps, Clock clock) {
        this.store = Optional.of(store);
        this.steps = steps;
        this.clock = clock;
    }

    public PartitionResult compact(PartitionSnapshot snapshot, CompactionPlan plan) {
        Optional<CountingObjectStore> counted = store.map(CountingObjectStore::new);
        PartitionResult r = compact(snapshot, plan, steps.apply(counted.<ObjectStore>map(c -> c).orElse(null)));
        return counted.map(c -> r.withRequests(c.requests())).orElse(r);
    }

    private PartitionResult compact(PartitionSnapshot snapshot, CompactionPlan plan, CompactionSteps steps) {
        PartitionRewriter rewriter = steps.rewriter();
        ManifestCommitter committer = steps.committer();
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
                    emitAudit(steps.audit(), plan, record, cr.generation());
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
    private static void emitAudit(AuditLog audit, CompactionPlan plan, CommitRecord record, long generation) {
        try {
            audit.emit(AuditEvent.of(plan.partition(), generation, record));
        } catch (Exception e) {
            LOG.warn("{}: audit event for generation {} not written ({}); a later sweep re-emits it",
                    plan.partition(), generation, e.getMessage());
        }
    }
}
