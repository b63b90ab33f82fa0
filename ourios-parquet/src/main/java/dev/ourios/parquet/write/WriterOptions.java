package dev.ourios.parquet.write;

import dev.ourios.parquet.LogSchema;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.parquet.schema.PrimitiveType;

/**
 * How a {@link LogFileWriter} writes. {@code rowGroupBytes} is the writer's buffered-size threshold for rotating a
 * row group; {@code rowGroupRows} an exact row cap (mostly for tests and spill runs); {@code extras} the extra
 * columns (see {@link LogSchema}); {@code declareSorting} declares {@code sorting_columns} =
 * [resource.service.name ASC NULLS FIRST, effective_time_unix_nano ASC] on every row group, which only a writer
 * fed in that order may claim; {@code bloomRowsPerGroup} sizes a compacted file's fixed bloom filters (0: derive
 * it from the row-group threshold, see {@code LogFileWriter.expectedRowsPerGroup}); for an unsorted (ingest) file it
 * is the rows the writer will be given when the caller knows them (0: unknown, adaptive filters), which sizes one
 * fixed filter per bloom column instead; {@code writerThreads} how many
 * threads encode the columns (compacted outputs: 2; the bytes do not depend on it); {@code tokenIndex} whether the
 * file carries the token index (docs/spec/storage.md, "Token index"; compacted outputs do, ingest files do not).
 */
public record WriterOptions(
        long rowGroupBytes,
        int rowGroupRows,
        int zstdLevel,
        boolean dictionaries,
        boolean statistics,
        boolean bloomFilters,
        SortedMap<String, PrimitiveType> extras,
        boolean declareSorting,
        long bloomRowsPerGroup,
        int writerThreads,
        boolean tokenIndex) {

    public static final long INGEST_ROW_GROUP_BYTES = 128L << 20;
    public static final int DEFAULT_ZSTD_LEVEL = 3;
    public static final int SPILL_ZSTD_LEVEL = 1;

    public WriterOptions {
        if (rowGroupBytes <= 0 || rowGroupRows <= 0) {
            throw new IllegalArgumentException("row-group limits must be positive");
        }
        if (zstdLevel < 1 || zstdLevel > 22) {
            throw new IllegalArgumentException("zstd level must be in 1..22, got " + zstdLevel);
        }
        if (writerThreads < 1 || writerThreads > RowGroupWriter.SLICES) {
            throw new IllegalArgumentException("writerThreads must be in 1.." + RowGroupWriter.SLICES);
        }
        if (bloomRowsPerGroup < 0) {
            throw new IllegalArgumentException("bloomRowsPerGroup must be >= 0");
        }
        extras = Collections.unmodifiableSortedMap(new TreeMap<>(extras == null ? new TreeMap<>() : extras));
    }

    /** Ingest defaults: 128 MiB row groups, ZSTD 3, dictionaries, statistics and bloom filters on, no sorting. */
    public static WriterOptions ingest() {
        return new WriterOptions(INGEST_ROW_GROUP_BYTES, Integer.MAX_VALUE, DEFAULT_ZSTD_LEVEL, true, true, true,
                new TreeMap<>(), false, 0, 1, false);
    }

    /** Compaction output: like ingest, with the given row-group threshold, sorting declared and the token index. */
    public static WriterOptions compacted(long rowGroupBytes) {
        return ingest().withRowGroupBytes(rowGroupBytes).withDeclareSorting(true).withWriterThreads(2)
                .withTokenIndex(true);
    }

    /** Spill runs: read back once by the merge, so cheap compression and no pruning structures. */
    public static WriterOptions spill(long rowGroupBytes) {
        return new WriterOptions(rowGroupBytes, Integer.MAX_VALUE, SPILL_ZSTD_LEVEL, true, false, false,
                new TreeMap<>(), false, 0, 1, false);
    }

    public WriterOptions withRowGroupBytes(long v) {
        return new WriterOptions(v, rowGroupRows, zstdLevel, dictionaries, statistics, bloomFilters, extras,
                declareSorting, bloomRowsPerGroup, writerThreads, tokenIndex);
    }

    public WriterOptions withRowGroupRows(int v) {
        return new WriterOptions(rowGroupBytes, v, zstdLevel, dictionaries, statistics, bloomFilters, extras,
                declareSorting, bloomRowsPerGroup, writerThreads, tokenIndex);
    }

    public WriterOptions withZstdLevel(int v) {
        return new WriterOptions(rowGroupBytes, rowGroupRows, v, dictionaries, statistics, bloomFilters, extras,
                declareSorting, bloomRowsPerGroup, writerThreads, tokenIndex);
    }

    public WriterOptions withDictionaries(boolean v) {
        return new WriterOptions(rowGroupBytes, rowGroupRows, zstdLevel, v, statistics, bloomFilters, extras,
                declareSorting, bloomRowsPerGroup, writerThreads, tokenIndex);
    }

    public WriterOptions withStatistics(boolean v) {
        return new WriterOptions(rowGroupBytes, rowGroupRows, zstdLevel, dictionaries, v, bloomFilters, extras,
                declareSorting, bloomRowsPerGroup, writerThreads, tokenIndex);
    }

    public WriterOptions withBloomFilters(boolean v) {
        return new WriterOptions(rowGroupBytes, rowGroupRows, zstdLevel, dictionaries, statistics, v, extras,
                declareSorting, bloomRowsPerGroup, writerThreads, tokenIndex);
    }

    public WriterOptions withExtras(SortedMap<String, PrimitiveType> v) {
        return new WriterOptions(rowGroupBytes, rowGroupRows, zstdLevel, dictionaries, statistics, bloomFilters, v,
                declareSorting, bloomRowsPerGroup, writerThreads, tokenIndex);
    }

    public WriterOptions withDeclareSorting(boolean v) {
        return new WriterOptions(rowGroupBytes, rowGroupRows, zstdLevel, dictionaries, statistics, bloomFilters,
                extras, v, bloomRowsPerGroup, writerThreads, tokenIndex);
    }

    /**
     * Threads that encode the file's column slices (see {@link RowGroupWriter}): 1 encodes both on the caller's
     * thread, 2 the second slice on a helper. The bytes written are the same either way.
     */
    public WriterOptions withWriterThreads(int v) {
        return new WriterOptions(rowGroupBytes, rowGroupRows, zstdLevel, dictionaries, statistics, bloomFilters,
                extras, declareSorting, bloomRowsPerGroup, v, tokenIndex);
    }

    /** Rows a compacted row group is expected to hold, for sizing its bloom filters (0: derive). */
    public WriterOptions withBloomRowsPerGroup(long v) {
        return new WriterOptions(rowGroupBytes, rowGroupRows, zstdLevel, dictionaries, statistics, bloomFilters,
                extras, declareSorting, v, writerThreads, tokenIndex);
    }

    /** Whether the file carries the token index (docs/spec/storage.md, "Token index"). */
    public WriterOptions withTokenIndex(boolean v) {
        return new WriterOptions(rowGroupBytes, rowGroupRows, zstdLevel, dictionaries, statistics, bloomFilters,
                extras, declareSorting, bloomRowsPerGroup, writerThreads, v);
    }
}
