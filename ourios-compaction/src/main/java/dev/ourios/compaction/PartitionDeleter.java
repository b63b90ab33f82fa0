package dev.ourios.compaction;

import dev.ourios.compaction.audit.AuditLog;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.compaction.plan.RowGroupSizing;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.parquet.read.LogFileReader;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.CommitRecord;
import dev.ourios.table.DayCovers;
import dev.ourios.table.DayPartition;
import dev.ourios.table.ManifestCommitter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableReader;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Deletes a request's rows from one partition (the mechanism): plan → rewrite → verify → commit → audit, the
 * compaction's protocol with the matching rows left out of the sort-merge. Every live file of the snapshot is an
 * input, so the commit of generation N+1 retires them all and names the one rewritten file (none when no row is
 * kept): the partition reads entirely before or entirely after the deletion. The deletion is a
 * {@link DeletionRewrite} run through the {@link RewriteProtocol}, whose verify step requires
 * {@code rows_in − rows_removed = rows_out} and the checksum of the kept rows as read to equal that of the rows
 * written. A commit race lost to a compaction is retried on the new generation, so a deletion is never dropped.
 */
public final class PartitionDeleter {
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
        List<ObjectInfo> files;
        try {
            DayPartition day = DayPartition.of(p);
            PartitionSnapshot daySnapshot = reader.daySnapshot(day);
            s = reader.hourSnapshot(p, new DayCovers(day, daySnapshot.currentManifest(), daySnapshot.manifest()));
            files = new ArrayList<>(s.live());
            if (s.isCovered()) {
                files.addAll(daySnapshot.live()); // the hour's rows in the day files count, no other hour's
            }
        } catch (Throwable t) {
            return DeletionResult.error(p, -1, p + ": " + Containment.describe(Containment.contain(t)), secs(started));
        }
        Predicate<LogRecord> matches = request.matches();
        long rows = 0;
        long matching = 0;
        for (ObjectInfo f : files) {
            boolean dayFile = DayPartition.isInDayPartition(f.key());
            try (LogFileReader r = LogFileReader.open(store, f.key(), dayFile ? ReadOptions.all()
                    : ReadOptions.partition(p))) {
                LogRecord rec;
                while ((rec = r.read()) != null) {
                    if (dayFile && !p.rows().holds(rec.tenantId(), rec.effectiveTime())) {
                        continue;
                    }
                    rows++;
                    if (matches.test(rec)) {
                        matching++;
                    }
                }
            } catch (Throwable t) {
                String msg = String.valueOf(Containment.describe(Containment.contain(t)));
                return DeletionResult.error(p, s.generation(), msg.contains(f.name()) ? msg
                        : store.describe(f.key()) + ": " + msg, secs(started));
            }
        }
        return new DeletionResult(p, matching == 0 ? DeletionResult.Status.UNCHANGED : DeletionResult.Status.PLANNED,
                s.generation(), files.size(), rows, matching, rows - matching, null, null, secs(started));
    }

    /**
     * Rewrites the partition without the request's rows and commits it. A validly covered hour (storage.md 4.15) is
     * deleted from through its day partition, which is rewritten without the request's rows of every hour it covers;
     * should the hour's cover be void afterwards (an hour commit raced it), its own files are deleted from too.
     */
    public DeletionResult delete(PartitionKey p, DeletionRequest request) {
        long started = System.nanoTime();
        DeletionResult throughDay = null;
        try {
            if (reader.hourSnapshot(p).isCovered()) {
                throughDay = deleteThroughDay(p, request);
                if (throughDay.status() == DeletionResult.Status.ERROR || reader.hourSnapshot(p).isCovered()) {
                    return throughDay;
                }
            }
        } catch (Throwable t) {
            return DeletionResult.error(p, -1, p + ": " + Containment.describe(Containment.contain(t)), secs(started));
        }
        DeletionResult own = new RewriteProtocol(committer, audit)
                .run(new DeletionRewrite(p, request, reader, rewriter, this::plan, ATTEMPTS, clock));
        return throughDay == null || own.status() == DeletionResult.Status.ERROR ? own : throughDay;
    }

    /** The deletion through {@code p}'s day partition, reported as {@code p}'s result. */
    private DeletionResult deleteThroughDay(PartitionKey p, DeletionRequest request) {
        DayPartition day = DayPartition.of(p);
        RollupRewrite plan = RollupRewrite.forDeletion(day, reader, store, rewriter, options, clock, request);
        RewriteOutcome outcome = new RewriteProtocol(committer, audit).execute(plan);
        if (outcome instanceof RewriteOutcome.Committed c) {
            CommitRecord r = c.record();
            return new DeletionResult(p, DeletionResult.Status.COMMITTED, c.generation(), c.staged().filesIn(),
                    c.staged().rowsIn(), r.rowsRemoved(), r.rows(), r.output(), null, c.seconds(), r.outputs());
        }
        if (outcome instanceof RewriteOutcome.Unchanged u) {
            return new DeletionResult(p, DeletionResult.Status.UNCHANGED, u.planned().generation(),
                    u.staged().filesIn(), u.staged().rowsIn(), 0, u.staged().rowsIn(), null, null, u.seconds());
        }
        PartitionResult failed = plan.report(outcome);
        return DeletionResult.error(p, failed.generation(), p + ": through its day partition: "
                + (failed.error() != null ? failed.error() : failed.reason()), outcome.seconds());
    }

    /** The sort-merge of a deletion's inputs: every live file, sized as a compaction of them would be. */
    private CompactionPlan plan(PartitionKey p, long generation, List<ObjectInfo> inputs) {
        long bytesIn = inputs.stream().mapToLong(ObjectInfo::size).sum();
        return new CompactionPlan(p, generation, inputs,
                RowGroupSizing.resolve(options.rowGroupBytes(), bytesIn, options.maxFileBytes()),
                options.sortBudgetBytes(), options.fanIn(), options.maxFileBytes());
    }

    private static double secs(long started) {
        return (System.nanoTime() - started) / 1e9;
    }
}
