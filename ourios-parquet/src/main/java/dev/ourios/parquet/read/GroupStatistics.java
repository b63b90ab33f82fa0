package dev.ourios.parquet.read;

import java.util.Optional;
import org.apache.parquet.column.statistics.BinaryStatistics;
import org.apache.parquet.column.statistics.IntStatistics;
import org.apache.parquet.column.statistics.LongStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;

/**
 * What the footer's column chunk statistics of one row group prove about every row of it, for a
 * {@link RowPrefilter} that can account for a whole group without its rows being read
 * ({@link RowPrefilter#takesWholeGroup}). Only a proof counts: a chunk without statistics, with nulls or with an
 * unknown null count proves nothing, and neither does a signed minimum above the maximum (an unsigned column whose
 * values straddle 2^31 or 2^63).
 */
public final class GroupStatistics {
    /** Bounds every value of a column lies within (both inclusive). */
    public record LongBounds(long min, long max) {
    }

    private final BlockMetaData block;
    private final boolean compactionOutput;

    GroupStatistics(BlockMetaData block) {
        this(block, false);
    }

    /** A row group of a file that is (or is not) a compaction output of this store ({@link #compactionOutput}). */
    GroupStatistics(BlockMetaData block, boolean compactionOutput) {
        this.block = block;
        this.compactionOutput = compactionOutput;
    }

    /**
     * Whether the group's file is a compaction output of this store: its footer names a token index
     * ({@code ourios.token_index}, docs/spec/storage.md 2.4), which only this store's compaction, retention and
     * deletion rewrites write. Such a file's {@code effective_time_unix_nano} is re-projected from the source columns
     * of rows each checked against their partition (storage.md 4.6), so its statistics bound every row's effective
     * time; another writer's stored column is not known to agree with its source columns.
     */
    public boolean compactionOutput() {
        return compactionOutput;
    }

    /** The group's rows. */
    public long rowCount() {
        return block.getRowCount();
    }

    /** Whether the file has a chunk of the top-level column {@code column} in this group. */
    public boolean hasColumn(String column) {
        return chunk(column) != null;
    }

    /** Bounds of an INT32 or INT64 column that has a value in every row, read as signed numbers. */
    public Optional<LongBounds> longBounds(String column) {
        Statistics<?> s = provenNonNull(column);
        if (s instanceof LongStatistics l && l.getMin() <= l.getMax()) {
            return Optional.of(new LongBounds(l.getMin(), l.getMax()));
        }
        if (s instanceof IntStatistics i && i.getMin() <= i.getMax()) {
            return Optional.of(new LongBounds(i.getMin(), i.getMax()));
        }
        return Optional.empty();
    }

    /** The bytes of a BYTE_ARRAY column whose every row holds the same value (no nulls, minimum = maximum). */
    public Optional<byte[]> constantBytes(String column) {
        if (provenNonNull(column) instanceof BinaryStatistics b && b.genericGetMin().equals(b.genericGetMax())) {
            return Optional.of(b.genericGetMin().getBytes());
        }
        return Optional.empty();
    }

    private Statistics<?> provenNonNull(String column) {
        ColumnChunkMetaData c = chunk(column);
        if (c == null) {
            return null;
        }
        Statistics<?> s = c.getStatistics();
        if (s == null || s.isEmpty() || !s.hasNonNullValue() || !s.isNumNullsSet() || s.getNumNulls() != 0) {
            return null;
        }
        return s;
    }

    private ColumnChunkMetaData chunk(String column) {
        for (ColumnChunkMetaData c : block.getColumns()) {
            String[] path = c.getPath().toArray();
            if (path.length == 1 && path[0].equals(column)) {
                return c;
            }
        }
        return null;
    }
}
