package dev.ourios.compaction;

import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.compaction.plan.ScratchOwner;
import dev.ourios.compaction.share.ShareProcesses;
import dev.ourios.compaction.share.ShareSampler;
import dev.ourios.compaction.share.Shares;
import dev.ourios.compaction.sort.HourServiceCounts;
import dev.ourios.compaction.verify.RowChecksum;
import dev.ourios.core.LogRecord;
import dev.ourios.core.Uuid7;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rewrites a partition into one {@code <uuidv7>.compacted.parquet} sorted by (service, effective time), or a band of
 * several when one would pass the plan's largest file ({@link BandWriter}), within the plan's sort budget. Rows are
 * validated against the partition as they are read (a mis-partitioned row aborts the partition), re-projected,
 * sorted externally and streamed to the store; each output is published atomically but stays invisible until a
 * manifest names it. If the checksum of the rows written differs from that of the rows read, the open file is
 * discarded unpublished and a band's files already published are deleted.
 */
public final class SortedRewriter implements PartitionRewriter {
    private static final Logger LOG = LoggerFactory.getLogger(SortedRewriter.class);

    private final ObjectStore store;
    private final Path scratchRoot;
    private final Uuid7 uuids;
    private final RowFault rowFault;
    private final boolean checksums;
    /** Workers one rewrite's shares are split between (docs/spec/storage.md 4.14). */
    private final int shareWorkers;
    /** The other compactor processes this one shares hour compactions with; null: none. */
    private final SharedRewrite sharing;
    /** The least sort budget a worker gets, as {@code --sort-budget} allows no less. */
    private static final long MIN_WORKER_BUDGET = 1L << 20;

    public SortedRewriter(ObjectStore store, Path scratchRoot, Uuid7 uuids) {
        this(store, scratchRoot, uuids, RowVerification.CHECKSUMS);
    }

    public SortedRewriter(ObjectStore store, Path scratchRoot) {
        this(store, scratchRoot, Uuid7.system());
    }

    /** A rewriter that compares the rows written with the rows read as {@code verification} says. */
    public SortedRewriter(ObjectStore store, Path scratchRoot, Uuid7 uuids, RowVerification verification) {
        this(store, scratchRoot, uuids, null, verification);
    }

    /**
     * A rewriter that splits a large rewrite's shares between {@code shareWorkers} workers (docs/spec/storage.md,
     * "Sharing one rewrite between workers").
     */
    public SortedRewriter(ObjectStore store, Path scratchRoot, Uuid7 uuids, RowVerification verification,
            int shareWorkers) {
        this(store, scratchRoot, uuids, null, verification, shareWorkers);
    }

    /** {@code rowFault}: the test point output rows pass through (null: none, what every product path runs with). */
    SortedRewriter(ObjectStore store, Path scratchRoot, Uuid7 uuids, RowFault rowFault,
            RowVerification verification) {
        this(store, scratchRoot, uuids, rowFault, verification, 1);
    }

    /** As above, with {@code shareWorkers} workers splitting a large rewrite's shares. */
    SortedRewriter(ObjectStore store, Path scratchRoot, Uuid7 uuids, RowFault rowFault,
            RowVerification verification, int shareWorkers) {
        this(store, scratchRoot, uuids, rowFault, verification == RowVerification.CHECKSUMS, shareWorkers, null);
    }

    private SortedRewriter(ObjectStore store, Path scratchRoot, Uuid7 uuids, RowFault rowFault, boolean checksums,
            int shareWorkers, SharedRewrite sharing) {
        if (shareWorkers < 1) {
            throw new IllegalArgumentException("BUG: shareWorkers must be positive: " + shareWorkers);
        }
        this.shareWorkers = shareWorkers;
        this.store = store;
        this.scratchRoot = scratchRoot;
        this.uuids = uuids;
        this.rowFault = rowFault;
        this.checksums = checksums;
        this.sharing = sharing;
    }

    @Override
    public RewriteResult rewrite(CompactionPlan plan) throws IOException {
        return rewrite(plan, null);
    }

    /**
     * The same sort-merge, leaving out every row {@code exclude} matches (a deletion; null keeps every row). The
     * read checksum covers the rows kept, so the output is verified against exactly those; when no row is kept, or
     * none is left out, nothing is committed and the result has no output.
     *
     * <p>A rewrite of at least four times the largest file is cut into shares fixed by its inputs
     * ({@link ShareSampler}); the share workers split them, each reading every input and writing its shares' files
     * (docs/spec/storage.md, "Sharing one rewrite between workers"). The files are the same for any worker count.
     */
    public RewriteResult rewrite(CompactionPlan plan, Predicate<LogRecord> exclude) throws IOException {
        Files.createDirectories(scratchRoot);
        Shares shares = new ShareSampler(store).shares(plan);
        if (sharing != null && exclude == null && plan.day().isEmpty() && shares.count() > 1) {
            // A sharded compactor's hour compaction: its group of the shares, the rest other processes'.
            return sharing.rewrite(plan, shares, group -> write(plan, null, shares, group));
        }
        List<ShareWorker.Result> results = write(plan, exclude, shares, new Shares.Group(0, shares.count()));
        try {
            return combine(plan, exclude, results);
        } catch (IOException | RuntimeException | Error e) {
            results.forEach(ShareWorker.Result::abort);
            throw e;
        }
    }

    /**
     * A rewriter like this one that shares each hour compaction cut into shares with the other sharded compactor
     * processes (docs/spec/storage.md, "Sharing one rewrite between compactor processes"); {@code gcGrace} bounds
     * the age of the share records and files it assembles, by {@code clock}.
     */
    public SortedRewriter sharedBy(ShareProcesses processes, Duration gcGrace, Clock clock) {
        return new SortedRewriter(store, scratchRoot, uuids, rowFault, checksums, shareWorkers,
                processes.count() > 1 ? new SharedRewrite(store, processes, gcGrace, clock, uuids) : null);
    }

    /**
     * Writes the shares of {@code group}, split between this rewriter's workers, each within its part of the sort
     * budget; the workers' results in share order. Any worker failing undoes them all.
     */
    private List<ShareWorker.Result> write(CompactionPlan plan, Predicate<LogRecord> exclude, Shares shares,
            Shares.Group group) throws IOException {
        List<Shares.Group> groups = group.split(shareWorkers);
        long budget = Math.max(MIN_WORKER_BUDGET, plan.sortBudgetBytes() / groups.size());
        boolean alone = groups.size() == 1 && group.size() == shares.count();
        ShareWorker.Rewriting rewriting = new ShareWorker.Rewriting(store, scratchRoot, uuids, rowFault, checksums);
        List<ShareWorker> work = groups.stream()
                .map(g -> new ShareWorker(rewriting, plan, exclude, shares, g, budget, alone)).toList();
        return ShareRun.all(work, ShareWorker::run, ShareWorker.Result::abort,
                "ourios-share-" + plan.partition().hourPath().replace('/', '_'));
    }

    /**
     * The rewrite's result from its workers': each read the same rows and the rows they kept add up to them (a row
     * kept twice or by no worker fails here); the outputs in share order, the checksums added up.
     */
    private RewriteResult combine(CompactionPlan plan, Predicate<LogRecord> exclude, List<ShareWorker.Result> results)
            throws IOException {
        long seen = ShareWorker.rowsRead(plan, results);
        RowChecksum in = new RowChecksum(checksums);
        RowChecksum out = new RowChecksum(checksums);
        long removed = 0;
        int spilled = 0;
        long peakFormation = 0;
        long peakMerge = 0;
        HourServiceCounts counted = null;
        List<RewriteResult.Output> outputs = new ArrayList<>();
        for (ShareWorker.Result r : results) {
            in.addAll(r.in());
            out.addAll(r.out());
            removed += r.removed();
            spilled += r.spilledRuns();
            peakFormation += r.peakFormation();
            peakMerge += r.peakMerge();
            if (r.counted().isPresent()) {
                if (counted == null) {
                    counted = new HourServiceCounts(r.counted().get().dayStartNanos());
                }
                counted.addAll(r.counted().get());
            }
            r.files().forEach(f -> outputs.add(new RewriteResult.Output(f.key(), f.name(), f.rows(), f.bytes(),
                    f.rowGroups())));
        }
        if (in.rows() + removed != seen) {
            throw new IllegalStateException(plan.partition() + ": the shares kept " + (in.rows() + removed) + " of "
                    + seen + " rows read");
        }
        if (exclude != null && (in.rows() == 0 || removed == 0)) {
            // Every row matched: no output, the commit retires the inputs and names nothing. No row matched:
            // nothing to rewrite, and the caller commits nothing.
            results.forEach(ShareWorker.Result::abort);
            String none = new RowChecksum(checksums).value();
            return new RewriteResult(null, null, removed, 0, plan.bytesIn(), 0, 0, in.value(), none, 0,
                    peakFormation, peakMerge, removed);
        }
        if (outputs.isEmpty()) {
            outputs.add(emptyFile(plan, results.get(0).options())); // no row: one empty file, as ever
        }
        long bytes = outputs.stream().mapToLong(RewriteResult.Output::bytes).sum();
        int groups = outputs.stream().mapToInt(RewriteResult.Output::rowGroups).sum();
        LOG.debug("{}: {} rows from {} files into {} ({} row groups, {} shares on {} workers, {} runs spilled)",
                plan.partition(), out.rows(), plan.inputs().size(),
                outputs.stream().map(RewriteResult.Output::name).toList(), groups, results.get(0).shares(),
                results.size(), spilled);
        RewriteResult.Output first = outputs.get(0);
        return new RewriteResult(first.key(), first.name(), in.rows() + removed, out.rows(), plan.bytesIn(), bytes,
                groups, in.value(), out.value(), spilled, peakFormation, peakMerge, removed, outputs,
                Optional.ofNullable(counted));
    }

    private RewriteResult.Output emptyFile(CompactionPlan plan, WriterOptions options) throws IOException {
        Path scratch = Files.createTempDirectory(scratchRoot, ScratchOwner.current().prefix("sort"));
        try (BandWriter writer = new BandWriter(store, plan.partition(), plan.outputPrefix(), uuids, options,
                plan.maxFileBytes(), 0, scratch)) {
            BandWriter.BandFile f = writer.commit().get(0);
            return new RewriteResult.Output(f.key(), f.name(), f.rows(), f.bytes(), f.rowGroups());
        } finally {
            Files.deleteIfExists(scratch);
        }
    }
}
