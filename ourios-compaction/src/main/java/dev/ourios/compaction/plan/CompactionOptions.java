package dev.ourios.compaction.plan;

import dev.ourios.core.Retention;
import dev.ourios.store.IoRates;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Every knob of a compaction sweep, validated once at construction. Each check names the option, the value and
 * the consequence, so a bad flag fails before anything is read or written.
 *
 * @param grace            sealing margin: an hour is compacted only once {@code now >= hour end + grace}, so
 *                         writers still landing late files for it have had time to finish (RFC 0009 default 15 min)
 * @param minFiles         a partition with more than this many live files is a candidate whatever their sizes
 * @param smallFileBytes   a partition with any live file smaller than this is a candidate (128 MiB: below it a
 *                         file is "small" in the small-file problem's sense)
 * @param sortBudgetBytes  decoded-row budget B of the external sort: above it, runs spill to scratch
 * @param fanIn            maximum number of runs merged at once; more runs merge hierarchically
 * @param rowGroupBytes    compacted row-group threshold; empty = adaptive (the CLI resolves the flag, else
 *                         OURIOS_COMPACTED_RG_BYTES, into it)
 * @param concurrency      partitions compacted at the same time
 * @param gcGrace          how long retired inputs, orphans, temp files and superseded manifests are kept
 * @param scratchDir       where spill runs go (a private sub-directory per compaction)
 * @param ioRates          bytes per second all of this process's compactions together may read from and write to
 *                         the store ({@code --max-read-rate}, {@code --max-write-rate}; 0 = unthrottled), so
 *                         compaction leaves ingest and queries their share of the store's bandwidth
 * @param retention        how long each tenant's logs are kept ({@code --retention}, {@code retention.*}); a sweep
 *                         expires every partition whose whole hour is older, {@link Retention#NONE} by default
 * @param scratchDebrisAge how old a scratch entry of a process that is gone must be before the sweep deletes it;
 *                         an entry of a running process is never deleted, so this can be short
 * @param maxTailRatio     how large, in bytes, the files beside a partition's main compacted file may grow
 *                         against it before everything is merged into one file again; below it the late files are
 *                         merged among themselves into one tail file, so a late file does not rewrite the whole
 *                         hour ({@code --max-tail-ratio}; 0 merges every late file into the main file at once)
 * @param maxFileBytes     the largest compacted file: an output that would pass it is written as a band of several
 *                         files with disjoint, ordered sort-key ranges ({@code --max-file-bytes}, docs/spec/storage.md
 *                         "The size band")
 * @param rollup           whether sweeps roll a tenant's small sealed hours up into day partitions
 *                         ({@code --rollup}, docs/spec/storage.md "Rollup: small hours into day files")
 * @param shareWorkers     workers one large rewrite's shares are split between ({@code --share-workers},
 *                         docs/spec/storage.md "Sharing one rewrite between workers"); the output is the same for any
 */
public record CompactionOptions(Duration grace, int minFiles, long smallFileBytes, long sortBudgetBytes, int fanIn,
        OptionalLong rowGroupBytes, int concurrency, Duration gcGrace, Path scratchDir, IoRates ioRates,
        Retention retention, Duration scratchDebrisAge, double maxTailRatio, long maxFileBytes, boolean rollup,
        int shareWorkers) {

    /** The most workers one rewrite's shares are split between, as many as a rewrite has shares. */
    public static final int MAX_SHARE_WORKERS = 64;

    public static final Duration DEFAULT_GRACE = Duration.ofMinutes(15);
    public static final int DEFAULT_MIN_FILES = 4;
    public static final long DEFAULT_SMALL_FILE_BYTES = 128L << 20;
    public static final long DEFAULT_SORT_BUDGET_BYTES = 64L << 20;
    public static final int DEFAULT_FAN_IN = 64;
    public static final Duration DEFAULT_GC_GRACE = Duration.ofMinutes(10);
    public static final Duration DEFAULT_SCRATCH_DEBRIS_AGE = Duration.ofMinutes(10);
    /**
     * A half, in bytes: an ingest file holds fewer rows per byte than the sorted compacted hour, so a tail's share of
     * the hour's bytes is well above its share of the rows; at a half, the few late files a typical hour receives
     * merge among themselves, the tail stays cheap to rewrite, and a query reads at most one file more per hour.
     */
    public static final double DEFAULT_MAX_TAIL_RATIO = 0.5;
    /** The top of RFC 0009's size band: large enough for few files per big hour, small enough for one split. */
    public static final long DEFAULT_MAX_FILE_BYTES = 2L << 30;
    /** The smallest band bound: a file must hold a few row groups of at least 64 KiB and its footer. */
    public static final long MIN_MAX_FILE_BYTES = 1L << 20;

    public CompactionOptions {
        Objects.requireNonNull(grace, "grace is null");
        Objects.requireNonNull(rowGroupBytes, "rowGroupBytes is null");
        Objects.requireNonNull(gcGrace, "gcGrace is null");
        Objects.requireNonNull(scratchDir, "scratchDir is null");
        Objects.requireNonNull(ioRates, "ioRates is null");
        Objects.requireNonNull(retention, "retention is null");
        Objects.requireNonNull(scratchDebrisAge, "scratchDebrisAge is null");
        if (grace.isNegative()) {
            throw new IllegalArgumentException("--grace must not be negative (got " + grace + ")");
        }
        if (minFiles < 1) {
            throw new IllegalArgumentException("--min-files must be at least 1 (got " + minFiles + ")");
        }
        if (smallFileBytes < 0) {
            throw new IllegalArgumentException("--small-file-bytes must not be negative (got " + smallFileBytes + ")");
        }
        if (sortBudgetBytes < (1L << 20)) {
            throw new IllegalArgumentException("--sort-budget must be at least 1MiB (got " + sortBudgetBytes
                    + "): smaller budgets spill every input and cannot bound reader batches");
        }
        if (fanIn < 2) {
            throw new IllegalArgumentException("--fan-in must be at least 2 (got " + fanIn + "): a merge needs two runs");
        }
        if (rowGroupBytes.isPresent() && rowGroupBytes.getAsLong() < 1024) {
            throw new IllegalArgumentException("--row-group-bytes must be at least 1KiB (got "
                    + rowGroupBytes.getAsLong() + ")");
        }
        if (concurrency < 1) {
            throw new IllegalArgumentException("--concurrency must be at least 1 (got " + concurrency + ")");
        }
        if (gcGrace.isNegative()) {
            throw new IllegalArgumentException("--gc-grace must not be negative (got " + gcGrace + ")");
        }
        if (scratchDebrisAge.isNegative()) {
            throw new IllegalArgumentException("--scratch-debris-age must not be negative (got " + scratchDebrisAge
                    + ")");
        }
        if (!(maxTailRatio >= 0 && maxTailRatio <= 1)) {
            throw new IllegalArgumentException("--max-tail-ratio must be between 0 and 1 (got " + maxTailRatio
                    + "): the tail beside a partition's main file is at most that fraction of its size");
        }
        if (maxFileBytes < MIN_MAX_FILE_BYTES) {
            throw new IllegalArgumentException("--max-file-bytes must be at least 1MiB (got " + maxFileBytes
                    + "): a compacted file holds several row groups and its footer");
        }
        if (shareWorkers < 1 || shareWorkers > MAX_SHARE_WORKERS) {
            throw new IllegalArgumentException("--share-workers must be between 1 and " + MAX_SHARE_WORKERS
                    + " (got " + shareWorkers + "): a rewrite has at most " + MAX_SHARE_WORKERS + " shares");
        }
    }

    /** One share worker (docs/spec/storage.md, "Sharing one rewrite between workers"). */
    public CompactionOptions(Duration grace, int minFiles, long smallFileBytes, long sortBudgetBytes, int fanIn,
            OptionalLong rowGroupBytes, int concurrency, Duration gcGrace, Path scratchDir, IoRates ioRates,
            Retention retention, Duration scratchDebrisAge, double maxTailRatio, long maxFileBytes, boolean rollup) {
        this(grace, minFiles, smallFileBytes, sortBudgetBytes, fanIn, rowGroupBytes, concurrency, gcGrace, scratchDir,
                ioRates, retention, scratchDebrisAge, maxTailRatio, maxFileBytes, rollup, 1);
    }

    /** Without the rollup (docs/spec/storage.md 4.15; the application's setting turns it on by default). */
    public CompactionOptions(Duration grace, int minFiles, long smallFileBytes, long sortBudgetBytes, int fanIn,
            OptionalLong rowGroupBytes, int concurrency, Duration gcGrace, Path scratchDir, IoRates ioRates,
            Retention retention, Duration scratchDebrisAge, double maxTailRatio, long maxFileBytes) {
        this(grace, minFiles, smallFileBytes, sortBudgetBytes, fanIn, rowGroupBytes, concurrency, gcGrace, scratchDir,
                ioRates, retention, scratchDebrisAge, maxTailRatio, maxFileBytes, false);
    }

    /** With the rollup of small sealed hours into day partitions on or off. */
    public CompactionOptions withRollup(boolean on) {
        return new CompactionOptions(grace, minFiles, smallFileBytes, sortBudgetBytes, fanIn, rowGroupBytes,
                concurrency, gcGrace, scratchDir, ioRates, retention, scratchDebrisAge, maxTailRatio, maxFileBytes,
                on, shareWorkers);
    }

    /** With the default largest file. */
    public CompactionOptions(Duration grace, int minFiles, long smallFileBytes, long sortBudgetBytes, int fanIn,
            OptionalLong rowGroupBytes, int concurrency, Duration gcGrace, Path scratchDir, IoRates ioRates,
            Retention retention, Duration scratchDebrisAge, double maxTailRatio) {
        this(grace, minFiles, smallFileBytes, sortBudgetBytes, fanIn, rowGroupBytes, concurrency, gcGrace, scratchDir,
                ioRates, retention, scratchDebrisAge, maxTailRatio, DEFAULT_MAX_FILE_BYTES);
    }

    /** Without retention, with the default scratch debris age. */
    public CompactionOptions(Duration grace, int minFiles, long smallFileBytes, long sortBudgetBytes, int fanIn,
            OptionalLong rowGroupBytes, int concurrency, Duration gcGrace, Path scratchDir, IoRates ioRates) {
        this(grace, minFiles, smallFileBytes, sortBudgetBytes, fanIn, rowGroupBytes, concurrency, gcGrace, scratchDir,
                ioRates, Retention.NONE, DEFAULT_SCRATCH_DEBRIS_AGE, DEFAULT_MAX_TAIL_RATIO);
    }

    public CompactionOptions withRetention(Retention r) {
        return new CompactionOptions(grace, minFiles, smallFileBytes, sortBudgetBytes, fanIn, rowGroupBytes,
                concurrency, gcGrace, scratchDir, ioRates, r, scratchDebrisAge, maxTailRatio, maxFileBytes,
                rollup, shareWorkers);
    }

    public CompactionOptions withScratchDebrisAge(Duration age) {
        return new CompactionOptions(grace, minFiles, smallFileBytes, sortBudgetBytes, fanIn, rowGroupBytes,
                concurrency, gcGrace, scratchDir, ioRates, retention, age, maxTailRatio, maxFileBytes,
                rollup, shareWorkers);
    }

    public static CompactionOptions defaults(Path scratchDir) {
        return new CompactionOptions(DEFAULT_GRACE, DEFAULT_MIN_FILES, DEFAULT_SMALL_FILE_BYTES,
                DEFAULT_SORT_BUDGET_BYTES, DEFAULT_FAN_IN, OptionalLong.empty(), 1, DEFAULT_GC_GRACE, scratchDir,
                IoRates.UNLIMITED);
    }

    public CompactionOptions withGrace(Duration g) {
        return new CompactionOptions(g, minFiles, smallFileBytes, sortBudgetBytes, fanIn, rowGroupBytes, concurrency,
                gcGrace, scratchDir, ioRates, retention, scratchDebrisAge, maxTailRatio, maxFileBytes,
                rollup, shareWorkers);
    }

    public CompactionOptions withSortBudget(long b) {
        return new CompactionOptions(grace, minFiles, smallFileBytes, b, fanIn, rowGroupBytes, concurrency, gcGrace,
                scratchDir, ioRates, retention, scratchDebrisAge, maxTailRatio, maxFileBytes, rollup, shareWorkers);
    }

    public CompactionOptions withFanIn(int f) {
        return new CompactionOptions(grace, minFiles, smallFileBytes, sortBudgetBytes, f, rowGroupBytes, concurrency,
                gcGrace, scratchDir, ioRates, retention, scratchDebrisAge, maxTailRatio, maxFileBytes,
                rollup, shareWorkers);
    }

    public CompactionOptions withRowGroupBytes(OptionalLong r) {
        return new CompactionOptions(grace, minFiles, smallFileBytes, sortBudgetBytes, fanIn, r, concurrency, gcGrace,
                scratchDir, ioRates, retention, scratchDebrisAge, maxTailRatio, maxFileBytes, rollup, shareWorkers);
    }

    public CompactionOptions withConcurrency(int c) {
        return new CompactionOptions(grace, minFiles, smallFileBytes, sortBudgetBytes, fanIn, rowGroupBytes, c, gcGrace,
                scratchDir, ioRates, retention, scratchDebrisAge, maxTailRatio, maxFileBytes, rollup, shareWorkers);
    }

    public CompactionOptions withMinFiles(int m) {
        return new CompactionOptions(grace, m, smallFileBytes, sortBudgetBytes, fanIn, rowGroupBytes, concurrency,
                gcGrace, scratchDir, ioRates, retention, scratchDebrisAge, maxTailRatio, maxFileBytes,
                rollup, shareWorkers);
    }

    public CompactionOptions withSmallFileBytes(long s) {
        return new CompactionOptions(grace, minFiles, s, sortBudgetBytes, fanIn, rowGroupBytes, concurrency, gcGrace,
                scratchDir, ioRates, retention, scratchDebrisAge, maxTailRatio, maxFileBytes, rollup, shareWorkers);
    }

    public CompactionOptions withGcGrace(Duration g) {
        return new CompactionOptions(grace, minFiles, smallFileBytes, sortBudgetBytes, fanIn, rowGroupBytes,
                concurrency, g, scratchDir, ioRates, retention, scratchDebrisAge, maxTailRatio, maxFileBytes,
                rollup, shareWorkers);
    }

    public CompactionOptions withMaxTailRatio(double ratio) {
        return new CompactionOptions(grace, minFiles, smallFileBytes, sortBudgetBytes, fanIn, rowGroupBytes,
                concurrency, gcGrace, scratchDir, ioRates, retention, scratchDebrisAge, ratio, maxFileBytes,
                rollup, shareWorkers);
    }

    public CompactionOptions withIoRates(IoRates r) {
        return new CompactionOptions(grace, minFiles, smallFileBytes, sortBudgetBytes, fanIn, rowGroupBytes,
                concurrency, gcGrace, scratchDir, r, retention, scratchDebrisAge, maxTailRatio, maxFileBytes,
                rollup, shareWorkers);
    }

    public CompactionOptions withMaxFileBytes(long bytes) {
        return new CompactionOptions(grace, minFiles, smallFileBytes, sortBudgetBytes, fanIn, rowGroupBytes,
                concurrency, gcGrace, scratchDir, ioRates, retention, scratchDebrisAge, maxTailRatio, bytes,
                rollup, shareWorkers);
    }

    public CompactionOptions withShareWorkers(int workers) {
        return new CompactionOptions(grace, minFiles, smallFileBytes, sortBudgetBytes, fanIn, rowGroupBytes,
                concurrency, gcGrace, scratchDir, ioRates, retention, scratchDebrisAge, maxTailRatio, maxFileBytes,
                rollup, workers);
    }
}
