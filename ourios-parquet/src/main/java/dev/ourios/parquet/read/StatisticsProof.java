package dev.ourios.parquet.read;

import org.apache.parquet.column.statistics.BinaryStatistics;
import org.apache.parquet.column.statistics.IntStatistics;
import org.apache.parquet.column.statistics.LongStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.io.api.Binary;

/**
 * Whether a column chunk's statistics prove that every row of its row group passes a {@link ColumnTest}: a reader
 * then leaves the test out for that group instead of reading the value of each row. A time window that covers the
 * group, the partition's tenant and hour (the query's guards) hold for every row of a compacted file's group, and
 * checking them row by row would cost as much as the selective test itself.
 *
 * <p>Only a proof counts: absent or empty statistics, an unknown null count where nulls would fail, prove nothing.
 * Integer bounds are read as the test reads values (signed); a chunk of an unsigned column whose values straddle
 * 2^31 (or 2^63) has a signed minimum above its signed maximum and proves nothing.
 */
final class StatisticsProof {
    private StatisticsProof() {
    }

    /** True if the statistics say their chunk holds no null. */
    static boolean noNulls(Statistics<?> stats) {
        return stats != null && !stats.isEmpty() && stats.isNumNullsSet() && stats.getNumNulls() == 0;
    }

    /** True if every value the statistics describe, nulls included, passes {@code test}. */
    static boolean everyRowPasses(ColumnTest test, Statistics<?> stats) {
        if (stats == null || stats.isEmpty()) {
            return false;
        }
        boolean nullPasses = test instanceof ColumnTest.BytesEqual b ? b.nullPasses()
                : ((ColumnTest.LongRange) test).nullPasses();
        if (!noNulls(stats) && !nullPasses) {
            return false;
        }
        if (!stats.hasNonNullValue()) {
            return nullPasses && stats.isNumNullsSet(); // every value is null
        }
        if (test instanceof ColumnTest.BytesEqual b) {
            if (!(stats instanceof BinaryStatistics s)) {
                return false;
            }
            Binary value = Binary.fromConstantByteArray(b.value());
            return s.genericGetMin().equals(value) && s.genericGetMax().equals(value);
        }
        ColumnTest.LongRange r = (ColumnTest.LongRange) test;
        long min;
        long max;
        if (stats instanceof LongStatistics s) {
            min = s.getMin();
            max = s.getMax();
        } else if (stats instanceof IntStatistics s) {
            min = s.getMin();
            max = s.getMax();
        } else {
            return false;
        }
        return min <= max && r.min() <= min && max <= r.max();
    }
}
