package dev.ourios.parquet.read;

import dev.ourios.core.WeightedLru;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.values.bloomfilter.BlockSplitBloomFilter;
import org.apache.parquet.column.values.bloomfilter.BloomFilter;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.internal.hadoop.metadata.IndexReference;

/**
 * What one file's readers fetch per column chunk to prune row groups and locate rows, kept in a {@link FooterCache}:
 * column indexes and offset indexes (parsed), bloom filters (their bit sets) and the dictionaries the dictionary
 * filter reads (their decompressed bytes). A chunk's entry is keyed by the file ({@link FooterCache.Key}: full
 * location and length), the kind and the chunk's first byte in the file, which no other chunk of the file shares.
 *
 * <p>Kept objects are shared between readers and threads, so only what is read-only once built is kept as it is
 * (parsed column and offset indexes); a bloom filter and a dictionary page are rebuilt around the kept bytes for each
 * use (parquet-java's bloom filter has per-instance scratch buffers).
 */
final class ChunkIndexes {
    /** The kinds of per-chunk entry. */
    enum Kind { COLUMN_INDEX, OFFSET_INDEX, BLOOM_FILTER, DICTIONARY }

    /** One chunk's entry of one kind. */
    record Entry(FooterCache.Key file, Kind kind, long chunkStart) {
        Entry {
            Objects.requireNonNull(file, "file");
            Objects.requireNonNull(kind, "kind");
        }
    }

    /** A dictionary page's content as kept: decompressed bytes, entry count, encoding. */
    private record Dictionary(byte[] bytes, int size, Encoding encoding) {
    }

    /** Reads what a miss needs from the file. */
    @FunctionalInterface
    interface Load<T> {
        T load() throws IOException;
    }

    private final FooterCache.Key file;
    private final WeightedLru<Entry, Object> cache;

    ChunkIndexes(FooterCache.Key file, WeightedLru<Entry, Object> cache) {
        this.file = file;
        this.cache = cache;
    }

    ColumnIndex columnIndex(ColumnChunkMetaData chunk, Load<ColumnIndex> load) throws IOException {
        return parsed(chunk, Kind.COLUMN_INDEX, chunk.getColumnIndexReference(), load);
    }

    OffsetIndex offsetIndex(ColumnChunkMetaData chunk, Load<OffsetIndex> load) throws IOException {
        return parsed(chunk, Kind.OFFSET_INDEX, chunk.getOffsetIndexReference(), load);
    }

    /** A parsed index, or null when the chunk has none (kept too, so a chunk without one is not asked again). */
    private <T> T parsed(ColumnChunkMetaData chunk, Kind kind, IndexReference ref, Load<T> load) throws IOException {
        Entry key = new Entry(file, kind, chunk.getStartingPos());
        Optional<Object> kept = cache.get(key);
        if (kept.isPresent()) {
            return cast(kept.get());
        }
        T value = load.load();
        long serialized = ref == null ? 0 : ref.getLength();
        cache.put(key, Optional.ofNullable(value), 64 + serialized * FooterCache.HEAP_PER_SERIALIZED_BYTE);
        return value;
    }

    @SuppressWarnings("unchecked")
    private static <T> T cast(Object kept) {
        return ((Optional<T>) kept).orElse(null);
    }

    /** The chunk's bloom filter (a fresh instance over the kept bit set), or null when it has none. */
    BloomFilter bloomFilter(ColumnChunkMetaData chunk, Load<BloomFilter> load) throws IOException {
        Entry key = new Entry(file, Kind.BLOOM_FILTER, chunk.getStartingPos());
        Optional<Object> kept = cache.get(key);
        if (kept.isPresent()) {
            byte[] bitset = cast(kept.get());
            return bitset == null ? null : new BlockSplitBloomFilter(bitset);
        }
        BloomFilter read = load.load();
        if (read != null && !(read instanceof BlockSplitBloomFilter)) {
            return read; // a kind this cache does not know how to rebuild: not kept
        }
        byte[] bitset = null;
        if (read != null) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(read.getBitsetSize());
            read.writeTo(out);
            bitset = out.toByteArray();
        }
        cache.put(key, Optional.ofNullable(bitset), 64 + (bitset == null ? 0 : bitset.length));
        return read;
    }

    /** The chunk's dictionary page (a fresh page over the kept bytes), or null when it has none. */
    DictionaryPage dictionary(ColumnChunkMetaData chunk, Load<DictionaryPage> load) throws IOException {
        Entry key = new Entry(file, Kind.DICTIONARY, chunk.getStartingPos());
        Optional<Object> kept = cache.get(key);
        if (kept.isPresent()) {
            Dictionary d = cast(kept.get());
            return d == null ? null : new DictionaryPage(BytesInput.from(d.bytes), d.size, d.encoding);
        }
        DictionaryPage read = load.load();
        Dictionary d = read == null ? null
                : new Dictionary(read.getBytes().toByteArray(), read.getDictionarySize(), read.getEncoding());
        cache.put(key, Optional.ofNullable(d), 64 + (d == null ? 0 : d.bytes.length));
        return d == null ? null : new DictionaryPage(BytesInput.from(d.bytes), d.size, d.encoding);
    }
}
