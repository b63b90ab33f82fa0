package dev.ourios.parquet.read;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import dev.ourios.parquet.index.TokenIndex;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * Parsed footers of data files, so that a reader opening a file again (the next query over the same partition)
 * neither fetches nor parses its footer: on a compacted file that is most of a point lookup's fixed cost.
 *
 * <p>Safe because data files are immutable and uniquely named (STORAGE.md §1): a name never denotes other bytes,
 * so an entry keyed by the file's full location and length can only ever describe that file. A file deleted by GC
 * leaves its entry to age out; no other file can take its name. Entries are shared between readers and threads
 * (parquet-java does not modify a footer it reads from).
 *
 * <p>Bounded by an estimate of the heap the parsed footers hold ({@link #HEAP_PER_SERIALIZED_BYTE} times the bytes
 * read to parse each), least recently used out first; a footer larger than the whole bound is not kept.
 *
 * <p>It also keeps files' token indexes (docs/spec/storage.md, "Token index"), under a bound of their own (the same
 * number of bytes): the verified index bytes, or the fact that a file has no usable index, so a damaged one is
 * checked (and reported) once, not on every read.
 */
public final class FooterCache {
    /** The bound {@code QueryEngine} gives its cache: about 230 footers of a compacted hour of 10 row groups. */
    public static final long DEFAULT_MAX_BYTES = 32L << 20;
    /**
     * Heap a parsed footer holds per byte of its serialized form (statistics, paths and encodings as objects): 2.8
     * measured on a compacted file's 48 KiB footer, rounded up.
     */
    static final int HEAP_PER_SERIALIZED_BYTE = 3;

    private final long maxBytes;
    private final LinkedHashMap<Key, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
    private final LinkedHashMap<Key, Optional<TokenIndex>> indexes = new LinkedHashMap<>(16, 0.75f, true);
    private long bytes;
    private long indexBytes;

    /** A cache of at most {@code maxBytes} estimated heap bytes; 0 keeps nothing. */
    public FooterCache(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("footer cache bound must be >= 0, got " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /** A cache that keeps nothing: every open reads its footer. */
    public static FooterCache none() {
        return new FooterCache(0);
    }

    /** A file as the cache knows it: its full location ({@code ObjectStore.describe}) and its length. */
    record Key(String file, long length) {
        Key {
            Objects.requireNonNull(file, "file");
        }
    }

    private record Entry(ParquetMetadata footer, long weight) {
    }

    synchronized Optional<ParquetMetadata> get(Key key) {
        Entry e = entries.get(key);
        return e == null ? Optional.empty() : Optional.of(e.footer);
    }

    /** Keeps {@code footer}, parsed from {@code serializedBytes} bytes, evicting the least recently used. */
    synchronized void put(Key key, ParquetMetadata footer, long serializedBytes) {
        long weight = Math.max(1, serializedBytes) * HEAP_PER_SERIALIZED_BYTE;
        if (weight > maxBytes) {
            return;
        }
        Entry old = entries.put(key, new Entry(footer, weight));
        bytes += weight - (old == null ? 0 : old.weight);
        for (Iterator<Map.Entry<Key, Entry>> it = entries.entrySet().iterator(); bytes > maxBytes && it.hasNext(); ) {
            Map.Entry<Key, Entry> eldest = it.next();
            bytes -= eldest.getValue().weight;
            it.remove();
        }
    }

    /** A file's token index as kept: empty when the cache knows nothing of it; an empty index: none usable. */
    synchronized Optional<Optional<TokenIndex>> index(Key key) {
        return Optional.ofNullable(indexes.get(key));
    }

    /** Keeps a file's token index (or its absence), evicting the least recently used. */
    synchronized void putIndex(Key key, Optional<TokenIndex> index) {
        long weight = weight(index);
        if (weight > maxBytes) {
            return;
        }
        Optional<TokenIndex> old = indexes.put(key, index);
        indexBytes += weight - (old == null ? 0 : weight(old));
        for (Iterator<Map.Entry<Key, Optional<TokenIndex>>> it = indexes.entrySet().iterator();
                indexBytes > maxBytes && it.hasNext(); ) {
            Map.Entry<Key, Optional<TokenIndex>> eldest = it.next();
            indexBytes -= weight(eldest.getValue());
            it.remove();
        }
    }

    private static long weight(Optional<TokenIndex> index) {
        return 64 + index.map(TokenIndex::bytes).orElse(0);
    }

    /** The bytes of token indexes held now (never above the bound). */
    public synchronized long indexBytes() {
        return indexBytes;
    }

    /** The estimated heap bytes held now (never above the bound). */
    public synchronized long bytes() {
        return bytes;
    }

    /** The number of footers held now. */
    public synchronized int size() {
        return entries.size();
    }

    public long maxBytes() {
        return maxBytes;
    }
}
