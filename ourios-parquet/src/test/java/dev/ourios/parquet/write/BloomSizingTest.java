package dev.ourios.parquet.write;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** What a compacted row group's fixed bloom filters are sized for. */
class BloomSizingTest {
    private static final WriterOptions DEFAULT = WriterOptions.compacted(256L << 20);

    @Test
    void the_threshold_sets_the_size_when_nothing_else_bounds_it() {
        assertEquals(LogFileWriter.expectedRowsPerGroup(256L << 20), LogFileWriter.bloomNdv(DEFAULT));
    }

    @Test
    void the_callers_row_estimate_lowers_it_but_never_below_1024() {
        assertEquals(50_000, LogFileWriter.bloomNdv(DEFAULT.withBloomRowsPerGroup(50_000)));
        assertEquals(1024, LogFileWriter.bloomNdv(DEFAULT.withBloomRowsPerGroup(10)));
    }

    @Test
    void a_row_cap_bounds_it_because_a_group_holds_no_more_values_than_rows() {
        assertEquals(20_000, LogFileWriter.bloomNdv(DEFAULT.withRowGroupRows(20_000)));
        assertEquals(1024, LogFileWriter.bloomNdv(DEFAULT.withRowGroupRows(80)));
        assertEquals(5_000, LogFileWriter.bloomNdv(DEFAULT.withRowGroupRows(20_000).withBloomRowsPerGroup(5_000)));
    }
}
