package dev.ourios.compaction;

import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.compaction.plan.ScratchOwner;
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

    /** {@code rowFault}: the test point output rows pass through (null: none, what every product path runs with). */
    SortedRewriter(ObjectStore store, Path scratchRoot, Uuid7 uuids, RowFault rowFault,
            RowVerification verification) {
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
     * none is left out, nothing is written and the result has no output.
     */
    public RewriteResult rewrite(CompactionPlan plan, Predicate<LogRecord> exclude) throws IOException {
        Files.createDirectories(scratchRoot);
        // The owner in the name lets debris collection tell a dead compaction's runs from a live one's.
        Path scratch = Files.createTempDirectory(scratchRoot, ScratchOwner.current().prefix("sort"));
        ResidencyGauge gauge = new ResidencyGauge();
        // Read side: the validated, re-projected rows, hashed by the input readers as they encode them (the
        // compacting thread, which run formation waits for, does not); from there on every step that could lose,
        // repeat or alter a row (copy into the run buffer, sort, spill, merge, write) is between the two checksums.
        RowChecksum in;
        long removed;
        Optional<HourServiceCounts> counted; // a rollup's rows by hour and service, as the readers handed them over
        try (ExternalSorter sorter = new ExternalSorter(plan.sortBudgetBytes(), plan.fanIn(), scratch, gauge);
                BackgroundChecksum out = checksum("ourios-checksum-out")) {
            LogSchema union;
            try (PrefetchedInputs inputs = new PrefetchedInputs(store, plan, PrefetchedInputs.READERS,
                    "ourios-input-reader", () -> new RowChecksum(checksums), exclude)) {
                sorter.addAll(inputs);
                union = LogSchema.union(inputs.fileSchemas());
                in = inputs.readChecksum();
                removed = inputs.excludedRows();
                counted = inputs.hourServiceCounts();
            }
            if (exclude != null && (in.rows() == 0 || removed == 0)) {
                // Every row matched: no output, the commit retires the inputs and names nothing. No row matched:
                // nothing to rewrite, and the caller commits nothing.
                String none = new RowChecksum(checksums).value();
                return new RewriteResult(null, null, removed, 0, plan.bytesIn(), 0, 0, in.value(), none, 0,
                        gauge.peakFormation(), gauge.peakMerge(), removed);
            }
            WriterOptions opts = WriterOptions.compacted(plan.rowGroupBytes()).withExtras(union.extras())
                    .withBloomRowsPerGroup(bloomRowsPerGroup(in.rows(), plan.bytesIn(), plan.rowGroupBytes()));
            try (BandWriter writer = new BandWriter(store, plan.partition(), plan.outputPrefix(), uuids, opts,
                    plan.maxFileBytes(), in.rows(), scratch)) {
                long[] ordinal = {0};
                sorter.drainTo((buf, offset, length, strings) -> {
                    if (rowFault == null) {
                        // The product path: the checksum and the writer read the same bytes.
                        out.add(buf, offset, length, strings);
                        writer.write(buf, offset, length, strings);
                        ordinal[0]++;
                    } else {
                        for (LogRecord w : rowFault.apply(ordinal[0]++, RowCodec.decode(buf, offset, strings))) {
                            out.add(w, decodedWeight(length));
                            writer.write(w);
                        }
                    }
                });
                String inSum = in.value();
                String outSum = out.value();
                if (!inSum.equals(outSum)) {
                    writer.abort();
                    throw new ChecksumMismatchException(plan.partition(), inSum, outSum);
                }
                List<RewriteResult.Output> outputs = writer.commit().stream().map(f -> new RewriteResult.Output(
                        f.key(), f.name(), f.rows(), f.bytes(), f.rowGroups())).toList();
                long bytes = outputs.stream().mapToLong(RewriteResult.Output::bytes).sum();
                int groups = outputs.stream().mapToInt(RewriteResult.Output::rowGroups).sum();
                LOG.debug("{}: {} rows from {} files into {} ({} row groups, {} runs spilled)", plan.partition(),
                        out.rows(), plan.inputs().size(), outputs.stream().map(RewriteResult.Output::name).toList(),
                        groups, sorter.spilledRuns());
                RewriteResult.Output first = outputs.get(0);
                return new RewriteResult(first.key(), first.name(), in.rows() + removed, out.rows(), plan.bytesIn(),
                        bytes, groups, inSum, outSum, sorter.spilledRuns(), gauge.peakFormation(), gauge.peakMerge(),
                        removed, outputs, counted);
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
