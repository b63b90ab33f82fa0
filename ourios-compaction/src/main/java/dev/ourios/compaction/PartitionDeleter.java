package dev.ourios.compaction;

import dev.ourios.compaction.audit.AuditEvent;
import dev.ourios.compaction.audit.AuditLog;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.compaction.plan.RowGroupSizing;
import dev.ourios.compaction.verify.ChecksumMismatchException;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.parquet.read.LogFileReader;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.CommitKind;
import dev.ourios.table.CommitRecord;
import dev.ourios.table.CommitResult;
import dev.ourios.table.ManifestCommitter;
import dev.ourios.table.NextManifest;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableReader;
import java.io.IOException;
import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes a request's rows from one partition (the mechanism): plan → rewrite → verify → commit → audit, the
 * compaction's protocol with the matching rows left out of the sort-merge. Every live file of the snapshot is an
 * input, so the commit of generation N+1 retires them all and names the one rewritten file (none when no row is
 * kept): the partition reads entirely before or entirely after the deletion. The verify step requires
 * {@code rows_in − rows_removed = rows_out} and the checksum of the kept rows as read to equal that of the rows
 * written. A commit race lost to a compaction is retried on the new generation, so a deletion is never dropped.
 */
public final class PartitionDeleter {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionDeleter.class);
    /** Commit attempts before the partition is reported as an error (each one lost to another committer). */
    static final int ATTEMPTS = 3;

    private final ObjectStore store;
    private final TableReader reader;
    private final SortedRewriter rewriter;
    private final ManifestCommitter committer;
    private final AuditLog audit;
    private final CompactionOptions options;
    private final Clock clock;

    PartitionDeleter(ObjectStore store, TableReader reader, SortedRewriter rewriter, ManifestCommitter committer,
            AuditLog audit, CompactionOptions options, Clock clock) {
        this.store = store;
        this.reader = reader;
        this.rewriter = rewriter;
        this.committer = committer;
        this.audit = audit;
        this.options = options;
        this.clock = clock;
    }

    /** Counts the live rows and those the request matches; changes nothing (the dry run). */
    public DeletionResult count(PartitionKey p, DeletionRequest request) {
        long started = System.nanoTime();
        PartitionSnapshot s;
        try {
            s = reader.snapshot(p);
        } catch (Exception e) {
            return DeletionResult.error(p, -1, p + ": " + e.getMessage(), secs(started));
        }
        Predicate<LogRecord> matches = request.matches();
        long rows = 0;
        long matching = 0;
        for (ObjectInfo f : s.live()) {
            try (LogFileReader r = LogFileReader.open(store, f.key(), ReadOptions.partition(p))) {
                LogRecord rec;
                while ((rec = r.read()) != null) {
                    rows++;
                    if (matches.test(rec)) {
                        matching++;
                    }
                }
            } catch (Exception e) {
                String msg = String.valueOf(e.getMessage());
                return DeletionResult.error(p, s.generation(), msg.contains(f.name()) ? msg
                        : store.describe(f.key()) + ": " + msg, secs(started));
            }
        }
        return new DeletionResult(p, matching == 0 ? DeletionResult.Status.UNCHANGED : DeletionResult.Status.PLANNED,
                s.generation(), s.live().size(), rows, matching, rows - matching, null, null, secs(started));
    }

    /** Rewrites the partition without the request's rows and commits it. */
    public DeletionResult delete(PartitionKey p, DeletionRequest request) {
        long started = System.nanoTime();
        long generation = -1;
        try {
            for (int attempt = 1; ; attempt++) {
                PartitionSnapshot s = reader.snapshot(p);
                generation = s.generation();
                if (s.live().isEmpty()) {
                    return new DeletionResult(p, DeletionResult.Status.UNCHANGED, generation, 0, 0, 0, 0, null, null,
                            secs(started));
                }
                List<ObjectInfo> inputs = s.live().stream().sorted(Comparator.comparing(ObjectInfo::name)).toList();
                long bytesIn = inputs.stream().mapToLong(ObjectInfo::size).sum();
                CompactionPlan plan = new CompactionPlan(p, generation, inputs,
                        RowGroupSizing.resolve(options.rowGroupBytes(), bytesIn),
                        options.sortBudgetBytes(), options.fanIn());
                RewriteResult rw = rewriter.rewrite(plan, request.matches());
                if (rw.rowsRemoved() == 0) {
                    return new DeletionResult(p, DeletionResult.Status.UNCHANGED, generation, inputs.size(),
                            rw.rowsIn(), 0, rw.rowsIn(), null, null, secs(started));
                }
                if (!rw.checksumsMatch()) {
                    throw new ChecksumMismatchException(p, rw.inputChecksum(), rw.outputChecksum());
                }
                boolean kept = rw.outputName() != null;
                CommitRecord record = new CommitRecord(CommitKind.DELETE, clock.instant(), plan.inputNames(),
                        rw.outputName(), rw.rowsOut(), rw.rowsRemoved(), rw.bytesIn(), kept ? rw.bytesOut() : 0,
                        kept ? rw.outputChecksum() : null, request.toJson());
                CommitResult cr = committer.commit(p, generation, NextManifest.from(s, record));
                switch (cr.status()) {
                    case COMMITTED -> {
                        try {
                            audit.emit(AuditEvent.of(p, cr.generation(), record));
                        } catch (Exception e) {
                            LOG.warn("{}: audit event for generation {} not written ({}); a later sweep re-emits it",
                                    p, cr.generation(), e.getMessage());
                        }
                        return new DeletionResult(p, DeletionResult.Status.COMMITTED, cr.generation(), inputs.size(),
                                rw.rowsIn(), rw.rowsRemoved(), rw.rowsOut(), rw.outputName(), null, secs(started));
                    }
                    case LOST -> {
                        // Another commit (a compaction, late data folded in) came first; its output holds the same
                        // rows, so the deletion is planned again on top of it. Ours is an orphan for GC.
                        if (attempt == ATTEMPTS) {
                            return DeletionResult.error(p, generation, p + ": lost the commit race " + ATTEMPTS
                                    + " times (" + cr.detail() + "); nothing deleted, run the request again",
                                    secs(started));
                        }
                        LOG.info("{}: deletion lost the commit race ({}); planning again", p, cr.detail());
                    }
                    default -> {
                        return DeletionResult.error(p, generation, p + ": commit "
                                + cr.status().name().toLowerCase(Locale.ROOT) + ": " + cr.detail(), secs(started));
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("deletion in {} failed", p, e);
            String msg = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return DeletionResult.error(p, generation, msg.contains(p.hourPath()) ? msg : p + ": " + msg,
                    secs(started));
        }
    }

    private static double secs(long started) {
        return (System.nanoTime() - started) / 1e9;
    }
}
