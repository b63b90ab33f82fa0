package dev.ourios.bench;

/**
 * What one timed compaction produced: its wall time, the CPU time of the thread that ran it (-1 when the work ran
 * on other threads, as DuckDB's does; on a shared, loaded machine CPU time is the steadier figure) and the output
 * it wrote (checked across contenders), in how many files (several for a band, docs/spec/storage.md "The size
 * band").
 */
public record Outcome(double seconds, double cpuSeconds, long rowsOut, long bytesOut, int rowGroups,
        int spilledRuns, int files) {

    /** An outcome of one output file. */
    public Outcome(double seconds, double cpuSeconds, long rowsOut, long bytesOut, int rowGroups, int spilledRuns) {
        this(seconds, cpuSeconds, rowsOut, bytesOut, rowGroups, spilledRuns, 1);
    }
}
