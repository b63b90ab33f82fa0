package dev.ourios.compaction;

import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.compaction.plan.ScratchOwner;
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
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * One worker's part of a {@link SortedRewriter} rewrite: the shares of one group (docs/spec/storage.md, "Sharing one
 * rewrite between workers"; the whole rewrite when it is not split). It reads every input, keeps the rows of its
 * shares, sorts them within its budget and writes each share as a band of its own ({@link ShareWriters}), checking
 * that the rows it wrote hash as the rows it kept; its {@link Result} says what it read, kept and wrote.
 */
final class ShareWorker {
    /** What every worker of a rewrite writes with: the store, scratch, output names, the row test point, checksums. */
    record Rewriting(ObjectStore store, Path scratchRoot, Uuid7 uuids, RowFault rowFault, boolean checksums) {
    }

    private final Rewriting rewriting;
    private final CompactionPlan plan;
    private final Predicate<LogRecord> exclude;
    private final Shares shares;
    private final Shares.Group group;
    private final long budget;
    /** The only worker: it decides alone whether a deletion writes anything. */
    private final boolean alone;

    ShareWorker(Rewriting rewriting, CompactionPlan plan, Predicate<LogRecord> exclude, Shares shares,
            Shares.Group group, long budget, boolean alone) {
        this.rewriting = rewriting;
        this.plan = plan;
        this.exclude = exclude;
        this.shares = shares;
        this.group = group;
        this.budget = budget;
        this.alone = alone;
    }

    Result run() throws IOException {
        // The owner in the name lets debris collection tell a dead compaction's runs from a live one's.
        Path scratch = Files.createTempDirectory(rewriting.scratchRoot(), ScratchOwner.current().prefix("sort"));
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
            try (PrefetchedInputs inputs = new PrefetchedInputs(rewriting.store(), plan, PrefetchedInputs.READERS,
                    "ourios-input-reader", () -> new RowChecksum(rewriting.checksums()), exclude, shares, group)) {
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
                return new Result(seen, in, new RowChecksum(rewriting.checksums()), removed, List.of(), null, null, 0,
                        gauge.peakFormation(), gauge.peakMerge(), counted, shares.count());
            }
            // A split rewrite sizes its blooms by the rows every worker reads, which no worker count changes.
            long bloomRows = shares.count() > 1 ? seen : in.rows();
            WriterOptions opts = WriterOptions.compacted(plan.rowGroupBytes()).withExtras(union.extras())
                    .withBloomRowsPerGroup(bloomRowsPerGroup(bloomRows, plan.bytesIn(), plan.rowGroupBytes()));
            ShareWriters writers = new ShareWriters(shares, group,
                    shares.count() > 1 ? shareRows : new long[] {in.rows()},
                    ShareWriters.bands(rewriting.store(), plan.partition(), plan.outputPrefix(), rewriting.uuids(),
                            opts, plan.maxFileBytes(), scratch));
            try (writers) {
                long[] ordinal = {0};
                sorter.drainTo((buf, offset, length, strings) -> {
                    if (rewriting.rowFault() == null) {
                        // The product path: the checksum and the writer read the same bytes.
                        out.add(buf, offset, length, strings);
                        writers.write(buf, offset, length, strings);
                        ordinal[0]++;
                    } else {
                        LogRecord row = RowCodec.decode(buf, offset, strings);
                        for (LogRecord w : rewriting.rowFault().apply(ordinal[0]++, row)) {
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
                return new Result(seen, in, written, removed, files, writers, opts, sorter.spilledRuns(),
                        gauge.peakFormation(), gauge.peakMerge(), counted, shares.count());
            }
        }
    }

    /** What one worker read, kept and wrote; {@link #abort} deletes its files. */
    record Result(long seen, RowChecksum in, RowChecksum out, long removed, List<BandWriter.BandFile> files,
            ShareWriters writers, WriterOptions options, int spilledRuns, long peakFormation, long peakMerge,
            Optional<HourServiceCounts> counted, int shares) {
        void abort() {
            if (writers != null) {
                writers.abort();
            }
        }
    }

    /** The rows every worker of {@code results} read: the same for each, as they read the same inputs. */
    static long rowsRead(CompactionPlan plan, List<Result> results) {
        long seen = results.get(0).seen();
        for (Result r : results) {
            if (r.seen() != seen) {
                throw new IllegalStateException(plan.partition() + ": share workers read " + seen + " and "
                        + r.seen() + " rows of the same inputs");
            }
        }
        return seen;
    }

    private BackgroundChecksum checksum(String threadName) {
        return rewriting.checksums() ? BackgroundChecksum.start(threadName) : BackgroundChecksum.counting();
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
