package dev.ourios.compaction.sweep;

import java.util.List;

/**
 * What one debris collection removed (or would, in a dry run).
 *
 * @param removed each object or scratch entry, as a store location or a local path
 * @param bytes   the bytes they held; a scratch directory counts every file under it
 */
public record DebrisReport(List<String> removed, long bytes) {
    public static final DebrisReport NONE = new DebrisReport(List.of(), 0);

    public DebrisReport {
        removed = List.copyOf(removed);
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must not be negative (got " + bytes + ")");
        }
    }

    public int count() {
        return removed.size();
    }
}
