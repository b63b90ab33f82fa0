package dev.ourios.parquet.footer;

import java.util.List;

/**
 * What {@code ourios inspect} shows about one file. {@code timeColumn} is the column the time range comes from
 * (effective_time_unix_nano, or time_unix_nano in files that predate it); ranges are null where the column is
 * absent or has no statistics.
 */
public record FileFooter(
        String file,
        long fileBytes,
        String schema,
        long rows,
        String createdBy,
        String timeColumn,
        List<RowGroup> rowGroups) {

    /**
     * One row group; {@code sortingColumns} as "name ASC|DESC NULLS FIRST|LAST", empty when undeclared;
     * {@code codecs} the page codecs of its column chunks, by name, each once in the order first met.
     */
    public record RowGroup(
            long rows,
            long compressedBytes,
            long uncompressedBytes,
            String minServiceName,
            String maxServiceName,
            Long minTime,
            Long maxTime,
            List<String> sortingColumns,
            List<String> bloomFilterColumns,
            List<String> codecs) {
    }
}
