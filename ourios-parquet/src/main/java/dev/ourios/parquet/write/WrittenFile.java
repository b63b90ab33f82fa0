package dev.ourios.parquet.write;

import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * What a closed {@link LogFileWriter} produced: rows, bytes of the committed object, row groups, and the footer as
 * parquet-java built it (the rewritten thrift footer adds only {@code sorting_columns} and a sorted encodings list,
 * neither of which {@code ParquetMetadata} models).
 */
public record WrittenFile(long rows, long bytes, int rowGroups, ParquetMetadata footer) {
}
