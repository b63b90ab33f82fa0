package dev.ourios.parquet.read;

import java.util.Arrays;
import java.util.Objects;

/**
 * A condition on the value of one top-level, non-repeated column that every row a {@link RowPrefilter} keeps
 * satisfies (a necessary condition, never a sufficient one). A reader that decodes columns may reject a candidate
 * row on that one value, read where it lies in the page, before it decodes the prefilter's other columns or builds
 * the partial row: a trace-id lookup compares 16 bytes per row instead of decoding five columns and a record.
 *
 * <p>A test is applied only where the file's column has the physical type the test reads ({@link BytesEqual}:
 * BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY; {@link LongRange}: INT64 or INT32, an INT32 read as the signed int a record
 * holds); elsewhere, and for a column the file lacks, it is skipped and {@link RowPrefilter#test} decides alone.
 */
public sealed interface ColumnTest {
    /** The top-level column the test reads; one of the prefilter's {@link RowPrefilter#columns()}. */
    String column();

    /** The value's bytes equal {@code value}; a null passes when {@code nullPasses}. */
    record BytesEqual(String column, byte[] value, boolean nullPasses) implements ColumnTest {
        public BytesEqual {
            Objects.requireNonNull(column, "column");
            value = value.clone();
        }

        @Override
        public byte[] value() {
            return value.clone();
        }

        /** Whether {@code bytes[from, to)} is the value. */
        boolean matches(byte[] bytes, int from, int to) {
            return Arrays.equals(bytes, from, to, value, 0, value.length);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof BytesEqual b && column.equals(b.column) && Arrays.equals(value, b.value)
                    && nullPasses == b.nullPasses;
        }

        @Override
        public int hashCode() {
            return Objects.hash(column, Arrays.hashCode(value), nullPasses);
        }

        @Override
        public String toString() {
            return column + " = " + java.util.HexFormat.of().formatHex(value) + (nullPasses ? " or null" : "");
        }
    }

    /**
     * The value lies in {@code [min, max]} (both inclusive), or is 0 when {@code zeroPasses}; a null passes when
     * {@code nullPasses}. With a {@code zeroFallback} column, a 0 stands for that column's value in the same row (as a
     * time_unix_nano of 0 stands for the observed time): the row passes when that value is not null and lies in
     * {@code [min, max]}. A reader reads the fallback column only for the rows holding 0, and applies such a test
     * only where it can read that column too.
     */
    record LongRange(String column, long min, long max, boolean nullPasses, boolean zeroPasses, String zeroFallback)
            implements ColumnTest {
        public LongRange {
            Objects.requireNonNull(column, "column");
            if (zeroPasses && zeroFallback != null) {
                throw new IllegalArgumentException("a 0 either passes or stands for " + zeroFallback + ", not both");
            }
        }

        /** The value lies in {@code [min, max]}, or is 0 when {@code zeroPasses}. */
        public LongRange(String column, long min, long max, boolean nullPasses, boolean zeroPasses) {
            this(column, min, max, nullPasses, zeroPasses, null);
        }

        /** The value lies in {@code [min, max]}; 0 passes only if it lies there. */
        public LongRange(String column, long min, long max, boolean nullPasses) {
            this(column, min, max, nullPasses, false, null);
        }

        /**
         * Whether {@code v} passes on this column alone: a 0 that stands for the fallback column's value (and does not
         * lie in the range itself) does not.
         */
        boolean matches(long v) {
            return (v >= min && v <= max) || (zeroPasses && v == 0);
        }
    }
}
