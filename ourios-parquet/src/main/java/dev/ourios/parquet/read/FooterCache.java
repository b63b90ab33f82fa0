package dev.ourios.parquet.read;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
    private long bytes;

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
