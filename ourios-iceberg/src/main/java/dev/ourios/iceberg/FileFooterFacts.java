package dev.ourios.iceberg;

import dev.ourios.parquet.footer.Footers;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.RandomAccessInput;
import java.io.IOException;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * One live data file as its footer describes it: the facts the view records about it (schema, row groups and
 * their statistics), read with two ranged reads and no data page.
 *
 * @param key      the store key
 * @param size     the object's size in bytes
 * @param metadata the parsed footer
 */
public record FileFooterFacts(String key, long size, ParquetMetadata metadata) {
    /** Reads the footer of {@code key}. */
    public static FileFooterFacts read(ObjectStore store, String key) throws IOException {
        try (RandomAccessInput in = store.openRandomAccess(key)) {
            ParquetMetadata md = new ParquetMetadataConverter()
                    .fromParquetMetadata(Footers.readRaw(in, store.describe(key)));
            return new FileFooterFacts(key, in.length(), md);
        }
    }

    public long rows() {
        return metadata.getBlocks().stream().mapToLong(b -> b.getRowCount()).sum();
    }
}
