package dev.ourios.parquet.write;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Chunk-level min/max/null count of the BINARY columns STORAGE.md §2 gives chunk-level statistics only
 * (attributes, resource_attributes, body), computed by the write support instead of parquet-java.
 *
 * <p>Why: parquet-java updates a column's statistics on every value with a byte-at-a-time comparison against both min
 * and max; for resource_attributes, a ~230-byte JSON that repeats row after row, that is two full-length comparisons
 * per row, a noticeable share of a compaction's CPU. Here a value equal to the previous one (one vectorised
 * {@link Arrays#equals}) costs nothing more, and a new one is compared with the vectorised
 * {@link Arrays#compareUnsigned}. parquet-java's statistics are switched off for these columns and the footer rewrite
 * ({@link FooterRewrite}) writes these instead; no page index is written for them, as the contract says.
 *
 * <p>Row groups: {@link RowGroupWriter} starts a group here at each row group it opens (through the write support);
 * groups that end up with no rows are never written and are dropped here too.
 */
final class ChunkStats {
    /** parquet-java drops min/max larger than this from the footer (ParquetMetadataConverter); so do we. */
    static final int MAX_STATS_BYTES = 4096;

    private final int columns;
    private final List<Group> groups = new ArrayList<>();
    private Group current;
    private final byte[][] last;
    private final int[] lastLength;

    ChunkStats(int columns) {
        this.columns = columns;
        this.last = new byte[columns][];
        this.lastLength = new int[columns];
    }

    /** One row group's statistics, per tracked column. */
    static final class Group {
        long rows;
        final byte[][] min;
        final byte[][] max;
        final long[] nulls;

        Group(int columns) {
            min = new byte[columns][];
            max = new byte[columns][];
            nulls = new long[columns];
        }

        /** Takes column {@code column}'s statistics from {@code other}, the same row group seen by another slice. */
        void take(int column, Group other) {
            if (other.rows != rows) {
                throw new IllegalStateException("BUG: slices disagree on a row group: " + rows + " vs " + other.rows);
            }
            min[column] = other.min[column];
            max[column] = other.max[column];
            nulls[column] = other.nulls[column];
        }
    }

    void startGroup() {
        if (current != null && current.rows > 0) {
            groups.add(current);
        }
        current = new Group(columns);
        Arrays.fill(last, null); // a new group compares its first value with nothing
    }

    void row() {
        current.rows++;
    }

    void nullValue(int column) {
        current.nulls[column]++;
    }

    void value(int column, byte[] a, int off, int len) {
        byte[] prev = last[column];
        if (prev != null && lastLength[column] == len && Arrays.equals(prev, 0, len, a, off, off + len)) {
            return; // same as the previous value: cannot move min or max
        }
        if (len > MAX_STATS_BYTES) {
            last[column] = null; // not kept for the repeat check: a 16 MiB body would be held a second time
        } else {
            if (prev == null || prev.length < len) {
                prev = new byte[Math.max(len, 64)];
                last[column] = prev;
            }
            System.arraycopy(a, off, prev, 0, len);
            lastLength[column] = len;
        }
        byte[] min = current.min[column];
        if (min == null || Arrays.compareUnsigned(a, off, off + len, min, 0, min.length) < 0) {
            current.min[column] = Arrays.copyOfRange(a, off, off + len);
        }
        byte[] max = current.max[column];
        if (max == null || Arrays.compareUnsigned(a, off, off + len, max, 0, max.length) > 0) {
            current.max[column] = Arrays.copyOfRange(a, off, off + len);
        }
    }

    /** The groups with rows, in write order (one per row group of the file). */
    List<Group> finish() {
        startGroup();
        current = null;
        return groups;
    }
}
