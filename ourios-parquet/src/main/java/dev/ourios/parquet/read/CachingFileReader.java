package dev.ourios.parquet.read;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.DictionaryPageReadStore;
import org.apache.parquet.column.values.bloomfilter.BloomFilter;
import org.apache.parquet.filter2.bloomfilterlevel.BloomFilterImpl;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.dictionarylevel.DictionaryFilter;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.filter2.predicate.SchemaCompatibilityValidator;
import org.apache.parquet.filter2.statisticslevel.StatisticsFilter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * parquet-java's file reader taking a chunk's column index, offset index, bloom filter and dictionary from
 * {@link ChunkIndexes} when an earlier reader of the file kept them there, and keeping them otherwise.
 *
 * <p>Row groups are pruned by {@link #prune} (statistics, then dictionaries, then bloom filters, as parquet-java's
 * own row-group filter does) rather than in the constructor: parquet-java prunes while its constructor runs, before
 * this class's fields are set, so this reader is always built with those filters off (the options given must say
 * so) and a pruned read is a second reader over the kept groups.
 */
final class CachingFileReader extends ParquetFileReader {
    /** Null only while the superclass constructor runs, which reads nothing with the filters off. */
    private final ChunkIndexes chunks;

    CachingFileReader(InputFile file, ParquetMetadata footer, ParquetReadOptions options, SeekableInputStream stream,
            ChunkIndexes chunks) throws IOException {
        super(file, footer, options, stream);
        if (options.useStatsFilter() || options.useDictionaryFilter() || options.useBloomFilter()) {
            throw new IllegalArgumentException("BUG: a caching reader prunes row groups itself (see prune)");
        }
        this.chunks = chunks;
    }

    @Override
    public ColumnIndex readColumnIndex(ColumnChunkMetaData column) throws IOException {
        return chunks == null ? super.readColumnIndex(column)
                : chunks.columnIndex(column, () -> super.readColumnIndex(column));
    }

    @Override
    public OffsetIndex readOffsetIndex(ColumnChunkMetaData column) throws IOException {
        return chunks == null ? super.readOffsetIndex(column)
                : chunks.offsetIndex(column, () -> super.readOffsetIndex(column));
    }

    @Override
    public BloomFilter readBloomFilter(ColumnChunkMetaData column) throws IOException {
        return chunks == null ? super.readBloomFilter(column)
                : chunks.bloomFilter(column, () -> super.readBloomFilter(column));
    }

    /** The groups of {@code blocks} that {@code filter}'s statistics, dictionary and bloom-filter tests keep. */
    List<BlockMetaData> prune(FilterCompat.Filter filter, List<BlockMetaData> blocks) throws IOException {
        if (!(filter instanceof FilterCompat.FilterPredicateCompat compat)) {
            return blocks;
        }
        FilterPredicate predicate = compat.getFilterPredicate();
        SchemaCompatibilityValidator.validate(predicate, getFileMetaData().getSchema());
        List<BlockMetaData> kept = new ArrayList<>(blocks.size());
        for (BlockMetaData block : blocks) {
            List<ColumnChunkMetaData> columns = block.getColumns();
            if (StatisticsFilter.canDrop(predicate, columns)) {
                continue;
            }
            try (Dictionaries dictionaries = new Dictionaries(block)) {
                if (DictionaryFilter.canDrop(predicate, columns, dictionaries)) {
                    continue;
                }
            }
            if (BloomFilterImpl.canDrop(predicate, columns, getBloomFilterDataReader(block))) {
                continue;
            }
            kept.add(block);
        }
        return kept;
    }

    /** A group's dictionaries for the dictionary filter, from {@link #chunks} or (opened on a miss) the file. */
    private final class Dictionaries implements DictionaryPageReadStore {
        private final BlockMetaData block;
        private DictionaryPageReadStore file;

        Dictionaries(BlockMetaData block) {
            this.block = block;
        }

        @Override
        public DictionaryPage readDictionaryPage(ColumnDescriptor descriptor) {
            ColumnPath path = ColumnPath.get(descriptor.getPath());
            for (ColumnChunkMetaData column : block.getColumns()) {
                if (column.getPath().equals(path)) {
                    try {
                        return chunks.dictionary(column, () -> file().readDictionaryPage(descriptor));
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }
            }
            return file().readDictionaryPage(descriptor);
        }

        private DictionaryPageReadStore file() {
            if (file == null) {
                file = getDictionaryReader(block);
            }
            return file;
        }

        @Override
        public void close() {
            if (file != null) {
                file.close();
            }
        }
    }
}
