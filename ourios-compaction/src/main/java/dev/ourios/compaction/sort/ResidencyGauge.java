package dev.ourios.compaction.sort;

/**
 * Tracks the estimated decoded bytes the sorter holds right now and the peak, per phase. A unit test reads it to
 * prove the memory bounds of STORAGE.md §5 (run buffer ≤ B + one row; merge ≤ B of reader batches + one chunk).
 */
public final class ResidencyGauge {
    private long current;
    private long peakFormation;
    private long peakMerge;
    private boolean merging;

    void add(long bytes) {
        current += bytes;
        if (merging) {
            peakMerge = Math.max(peakMerge, current);
        } else {
            peakFormation = Math.max(peakFormation, current);
        }
    }

    void release(long bytes) {
        current -= bytes;
        if (current < 0) {
            throw new IllegalStateException("BUG: residency went negative: " + current);
        }
    }

    void startMerge() {
        merging = true;
    }

    public long current() {
        return current;
    }

    public long peakFormation() {
        return peakFormation;
    }

    public long peakMerge() {
        return peakMerge;
    }
}
