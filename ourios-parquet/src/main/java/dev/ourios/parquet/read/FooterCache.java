package dev.ourios.parquet.read;

import dev.ourios.core.WeightedLru;
import dev.ourios.parquet.index.TokenIndex;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.parquet.filter2.columnindex.RowRanges;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.metadata.ColumnPath;
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
 *
 * <p>And, under a third bound of the same number of bytes, what a reader fetches per column chunk to prune and
 * locate rows ({@link ChunkIndexes}): column indexes, offset indexes, bloom filters and the dictionaries the
 * dictionary filter reads. They are as immutable as the file, so a point lookup over a file read before fetches
 * nothing but the pages holding its rows.
 *
 * <p>And, each under a bound of a quarter of that ({@link #derivedBound}): pruning verdicts ({@link Verdict}), which
 * of a file's row groups a filter's statistics, dictionary and bloom-filter tests keep, a function of the file's
 * immutable bytes and the filter alone (parquet-java's predicates compare by value), so a query repeated over the same
 * files (a dashboard's refresh, the next page of a point lookup) prunes without evaluating its filter on every group
 * again; what a reader derives from a file's schema ({@link FileSchema}); and what a prefiltered read probes a file
 * with ({@link ProbeSchemas}). Their entries are small beside a footer and hold no bytes of the file.
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
    private final WeightedLru<Key, ParquetMetadata> footers;
    private final WeightedLru<Key, Optional<TokenIndex>> indexes;
    private final WeightedLru<ChunkIndexes.Entry, Object> chunks;
    private final WeightedLru<Verdict, Kept> verdicts;
    private final WeightedLru<Key, FileSchema> schemas;
    private final WeightedLru<ProbeKey, ProbeSchemas> probes;

    /** A cache of at most {@code maxBytes} estimated heap bytes of each kind; 0 keeps nothing. */
    public FooterCache(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("footer cache bound must be >= 0, got " + maxBytes);
        }
        this.maxBytes = maxBytes;
        this.footers = new WeightedLru<>(maxBytes);
        this.indexes = new WeightedLru<>(maxBytes);
        this.chunks = new WeightedLru<>(maxBytes);
        this.verdicts = new WeightedLru<>(derivedBound(maxBytes));
        this.schemas = new WeightedLru<>(derivedBound(maxBytes));
        this.probes = new WeightedLru<>(derivedBound(maxBytes));
    }

    /** The bound of each kind of entry derived from a file (verdicts, schemas, probe schemas): a quarter of the rest. */
    static long derivedBound(long maxBytes) {
        return maxBytes / 4;
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

    Optional<ParquetMetadata> get(Key key) {
        return footers.get(key);
    }

    /** Keeps {@code footer}, parsed from {@code serializedBytes} bytes, evicting the least recently used. */
    void put(Key key, ParquetMetadata footer, long serializedBytes) {
        footers.put(key, footer, Math.max(1, serializedBytes) * HEAP_PER_SERIALIZED_BYTE);
    }

    /** A file's token index as kept: empty when the cache knows nothing of it; an empty index: none usable. */
    Optional<Optional<TokenIndex>> index(Key key) {
        return indexes.get(key);
    }

    /** Keeps a file's token index (or its absence), evicting the least recently used. */
    void putIndex(Key key, Optional<TokenIndex> index) {
        indexes.put(key, index, 64 + index.map(TokenIndex::bytes).orElse(0));
    }

    /**
     * What a pruning verdict is of: a file, the filter, and the row groups it was asked about (by their first
     * byte, in order: the groups the token index left, which depend on the query's words).
     */
    record Verdict(Key file, FilterPredicate filter, List<Long> groupStarts) {
        Verdict {
            Objects.requireNonNull(file, "file");
            Objects.requireNonNull(filter, "filter");
            groupStarts = List.copyOf(groupStarts);
        }
    }

    /**
     * The groups a verdict kept: their positions in its groups, in order, and for each the rows of it that the
     * filter's column and offset indexes leave (parquet-java's candidate row ranges), filled in by the first reader
     * that computes them (a slot read empty by a second thread is computed again, to the same immutable value).
     */
    static final class Kept {
        private final int[] positions;
        private final RowRanges[] candidates;

        Kept(int[] positions) {
            this.positions = positions.clone();
            this.candidates = new RowRanges[positions.length];
        }

        /** The positions kept, in order (a copy). */
        int[] positions() {
            return positions.clone();
        }

        int size() {
            return positions.length;
        }

        /** The candidate rows of the {@code kept}-th kept group, when a reader computed them. */
        RowRanges candidates(int kept) {
            return candidates[kept];
        }

        void putCandidates(int kept, RowRanges rows) {
            candidates[kept] = Objects.requireNonNull(rows, "rows");
        }
    }

    /** The groups kept, when this verdict was reached before. */
    Optional<Kept> kept(Verdict verdict) {
        return verdicts.get(verdict);
    }

    /** Keeps a verdict: the positions of the groups kept, in order; returns what is kept. */
    Kept putKept(Verdict verdict, int[] positions) {
        long filterChars = verdict.filter().toString().length();
        Kept kept = new Kept(positions);
        // a group's candidate ranges: a few ranges of two longs each, once computed
        verdicts.put(verdict, kept, 128 + 2 * filterChars + 24L * verdict.groupStarts().size()
                + 84L * positions.length);
        return kept;
    }

    /**
     * What a reader derives from a file's schema before it reads: the columns it reads ({@code SchemaCheck}), listed
     * once, and whether our column decoding supports every row group's encodings of them.
     */
    record FileSchema(org.apache.parquet.schema.MessageType requested,
            List<org.apache.parquet.column.ColumnDescriptor> columns, boolean everyGroupDecodable,
            java.util.Set<ColumnPath> paths) {
        FileSchema {
            Objects.requireNonNull(requested, "requested");
            columns = List.copyOf(columns);
            paths = java.util.Set.copyOf(paths);
        }

        FileSchema(org.apache.parquet.schema.MessageType requested,
                List<org.apache.parquet.column.ColumnDescriptor> columns, boolean everyGroupDecodable) {
            this(requested, columns, everyGroupDecodable,
                    columns.stream().map(c -> ColumnPath.get(c.getPath())).collect(java.util.stream.Collectors.toSet()));
        }
    }

    /** The file's schema as a reader derived it before, if kept. */
    Optional<FileSchema> schema(Key key) {
        return schemas.get(key);
    }

    /** Keeps what a reader derived from the file's schema (weighed by its columns). */
    void putSchema(Key key, FileSchema schema) {
        schemas.put(key, schema, 256 + 256L * schema.columns().size());
    }

    /** What a prefiltered read of a file probes with: keyed by the file, the prefilter's and the filter's columns. */
    record ProbeKey(Key file, java.util.Set<String> probed, java.util.Set<String> filtered) {
        ProbeKey {
            Objects.requireNonNull(file, "file");
            probed = java.util.Set.copyOf(probed);
            filtered = java.util.Set.copyOf(filtered);
        }
    }

    /** The schemas a prefiltered read probes a file with, and their columns listed once. */
    record ProbeSchemas(org.apache.parquet.schema.MessageType probe, org.apache.parquet.schema.MessageType index,
            List<org.apache.parquet.column.ColumnDescriptor> probeColumns,
            List<org.apache.parquet.column.ColumnDescriptor> indexColumns) {
        ProbeSchemas {
            probeColumns = List.copyOf(probeColumns);
            indexColumns = List.copyOf(indexColumns);
        }
    }

    Optional<ProbeSchemas> probeSchemas(ProbeKey key) {
        return probes.get(key);
    }

    void putProbeSchemas(ProbeKey key, ProbeSchemas schemas) {
        probes.put(key, schemas, 256 + 256L * (schemas.probeColumns().size() + schemas.indexColumns().size()));
    }

    /** The per-chunk entries of one file (see the class comment). */
    ChunkIndexes chunks(Key file) {
        return new ChunkIndexes(file, chunks);
    }

    /** The bytes of token indexes held now (never above the bound). */
    public long indexBytes() {
        return indexes.weight();
    }

    /** The estimated heap bytes of footers held now (never above the bound). */
    public long bytes() {
        return footers.weight();
    }

    /** The estimated heap bytes of column and offset indexes, bloom filters and dictionaries held now. */
    public long chunkBytes() {
        return chunks.weight();
    }

    /** The number of footers held now. */
    public int size() {
        return footers.size();
    }

    public long maxBytes() {
        return maxBytes;
    }
}
