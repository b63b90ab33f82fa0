package dev.ourios.compaction;

import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.compaction.plan.ScratchOwner;
import dev.ourios.compaction.share.ShareSampler;
import dev.ourios.compaction.share.Shares;
import dev.ourios.compaction.sort.ExternalSorter;
import dev.ourios.compaction.sort.HourServiceCounts;
import dev.ourios.compaction.sort.PrefetchedInputs;
import dev.ourios.compaction.sort.ResidencyGauge;
import dev.ourios.compaction.verify.ChecksumMismatchException;
import dev.ourios.compaction.verify.RowChecksum;
import dev.ourios.core.LogRecord;
import dev.ourios.core.Uuid7;
import dev.ourios.parquet.LogSchema;
import dev.ourios.parquet.rows.RowCodec;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
        if (shareWorkers < 1) {
            throw new IllegalArgumentException("BUG: shareWorkers must be positive: " + shareWorkers);
        }
        this.shareWorkers = shareWorkers;
        this.store = store;
        this.scratchRoot = scratchRoot;
        this.uuids = uuids;
        this.rowFault = rowFault;
        this.checksums = verification == RowVerification.CHECKSUMS;
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
        List<Shares.Group> groups = shares.groups(shareWorkers);
        long budget = Math.max(MIN_WORKER_BUDGET, plan.sortBudgetBytes() / groups.size());
        List<ShareWork> work = groups.stream()
                .map(g -> new ShareWork(plan, exclude, shares, g, budget, groups.size() == 1)).toList();
        List<WorkerResult> results = ShareRun.all(work, ShareWork::run, WorkerResult::abort,
                "ourios-share-" + plan.partition().hourPath().replace('/', '_'));
        try {
            return combine(plan, exclude, results);
        } catch (IOException | RuntimeException | Error e) {
            results.forEach(WorkerResult::abort);
            throw e;
        }
    }

    /**
     * The rewrite's result from its workers': each read the same rows and the rows they kept add up to them (a row
     * kept twice or by no worker fails here); the outputs in share order, the checksums added up.
     */
    private RewriteResult combine(CompactionPlan plan, Predicate<LogRecord> exclude, List<WorkerResult> results)
            throws IOException {
        long seen = results.get(0).seen();
        RowChecksum in = new RowChecksum(checksums);
        RowChecksum out = new RowChecksum(checksums);
        long removed = 0;
        int spilled = 0;
        long peakFormation = 0;
        long peakMerge = 0;
        HourServiceCounts counted = null;
        List<RewriteResult.Output> outputs = new ArrayList<>();
        for (WorkerResult r : results) {
            if (r.seen() != seen) {
                throw new IllegalStateException(plan.partition() + ": share workers read " + seen + " and "
                        + r.seen() + " rows of the same inputs");
            }
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
            results.forEach(WorkerResult::abort);
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

    /** One worker's part of a rewrite: the shares of {@code group}. */
    private final class ShareWork {
        private final CompactionPlan plan;
        private final Predicate<LogRecord> exclude;
        private final Shares shares;
        private final Shares.Group group;
        private final long budget;
        /** The only worker: it decides alone whether a deletion writes anything. */
        private final boolean alone;

        ShareWork(CompactionPlan plan, Predicate<LogRecord> exclude, Shares shares, Shares.Group group, long budget,
                boolean alone) {
            this.plan = plan;
            this.exclude = exclude;
            this.shares = shares;
            this.group = group;
            this.budget = budget;
            this.alone = alone;
        }

        WorkerResult run() throws IOException {
            // The owner in the name lets debris collection tell a dead compaction's runs from a live one's.
            Path scratch = Files.createTempDirectory(scratchRoot, ScratchOwner.current().prefix("sort"));
            ResidencyGauge gauge = new ResidencyGauge();
            // Read side: the validated, re-projected rows, hashed by the input readers as they encode them (the
            // compacting thread, which run formation waits for, does not); from there on every step that could lose,
            // repeat or alter a row (copy into the run buffer, sort, spill, merge, write) is between the two checksums.
            RowChecksum in;
            long removed;
            long elsewhere;
            long[] shareRows;
            Optional<HourServiceCounts> counted; // a rollup's rows by hour and service, as the readers handed them over
            try (ExternalSorter sorter = new ExternalSorter(budget, plan.fanIn(), scratch, gauge);
                    BackgroundChecksum out = checksum("ourios-checksum-out")) {
                LogSchema union;
                try (PrefetchedInputs inputs = new PrefetchedInputs(store, plan, PrefetchedInputs.READERS,
                        "ourios-input-reader", () -> new RowChecksum(checksums), exclude, shares, group)) {
                    sorter.addAll(inputs);
                    union = LogSchema.union(inputs.fileSchemas());
                    in = inputs.readChecksum();
                    removed = inputs.excludedRows();
                    elsewhere = inputs.rowsElsewhere();
                    shareRows = inputs.shareRows();
                    counted = inputs.hourServiceCounts();
                }
                long seen = in.rows() + removed + elsewhere;
                if (alone && exclude != null && (in.rows() == 0 || removed == 0)) {
                    return new WorkerResult(seen, in, new RowChecksum(checksums), removed, List.of(), null, null, 0,
                            gauge.peakFormation(), gauge.peakMerge(), counted, shares.count());
                }
                // A split rewrite sizes its blooms by the rows every worker reads, which no worker count changes.
                long bloomRows = shares.count() > 1 ? seen : in.rows();
                WriterOptions opts = WriterOptions.compacted(plan.rowGroupBytes()).withExtras(union.extras())
                        .withBloomRowsPerGroup(bloomRowsPerGroup(bloomRows, plan.bytesIn(), plan.rowGroupBytes()));
                ShareWriters writers = new ShareWriters(shares, group,
                        shares.count() > 1 ? shareRows : new long[] {in.rows()},
                        ShareWriters.bands(store, plan.partition(), plan.outputPrefix(), uuids, opts,
                                plan.maxFileBytes(), scratch));
                try (writers) {
                    long[] ordinal = {0};
                    sorter.drainTo((buf, offset, length, strings) -> {
                        if (rowFault == null) {
                            // The product path: the checksum and the writer read the same bytes.
                            out.add(buf, offset, length, strings);
                            writers.write(buf, offset, length, strings);
                            ordinal[0]++;
                        } else {
                            for (LogRecord w : rowFault.apply(ordinal[0]++, RowCodec.decode(buf, offset, strings))) {
                                out.add(w, decodedWeight(length));
                                writers.write(w);
                            }
                        }
                    });
                    RowChecksum written = out.checksum();
                    if (!in.value().equals(written.value())) {
                        writers.abort();
                        throw new ChecksumMismatchException(plan.partition(), in.value(), written.value());
                    }
                    List<BandWriter.BandFile> files = writers.commit();
                    return new WorkerResult(seen, in, written, removed, files, writers, opts, sorter.spilledRuns(),
                            gauge.peakFormation(), gauge.peakMerge(), counted, shares.count());
                }
            }
        }
    }

    /** What one worker read, kept and wrote; {@link #abort} deletes its files. */
    private record WorkerResult(long seen, RowChecksum in, RowChecksum out, long removed,
            List<BandWriter.BandFile> files, ShareWriters writers, WriterOptions options, int spilledRuns,
            long peakFormation,
            long peakMerge, Optional<HourServiceCounts> counted, int shares) {
        void abort() {
            if (writers != null) {
                writers.abort();
            }
        }
    }

    private BackgroundChecksum checksum(String threadName) {
        return checksums ? BackgroundChecksum.start(threadName) : BackgroundChecksum.counting();
    }

    /**
     * What a decoded row waiting for the checksum thread holds, from its encoded length: its strings as UTF-16 (at
     * most twice their UTF-8 bytes) plus the record's object headers and fields (only a row fault hands records).
     */
    static long decodedWeight(int encodedBytes) {
        return 2L * encodedBytes + 512;
    }

    /**
     * Rows a full output row group will hold, for sizing its bloom filters: the output is about as large as the
     * input (same rows, same codec), so a group of {@code T} bytes holds about {@code rows * T / bytes in}; plus a
     * quarter for rows that compress better once sorted.
     */
    static long bloomRowsPerGroup(long rows, long bytesIn, long rowGroupBytes) {
        double perGroup = (double) rows * rowGroupBytes / Math.max(1, bytesIn);
        return (long) Math.min(Long.MAX_VALUE / 2, Math.ceil(perGroup * 1.25));
    }
}
