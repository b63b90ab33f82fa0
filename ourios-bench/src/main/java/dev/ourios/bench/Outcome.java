package dev.ourios.bench;

/** What one timed compaction produced: its wall time and the output it wrote (checked across contenders). */
public record Outcome(double seconds, long rowsOut, long bytesOut, int rowGroups, int spilledRuns) {
}
