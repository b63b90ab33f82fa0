package dev.ourios.parquet.read;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.parquet.LogFormatException;
import dev.ourios.parquet.index.IndexCondition;
import dev.ourios.parquet.index.TokenIndex;
import dev.ourios.parquet.index.TokenIndexRegion;
import dev.ourios.parquet.rows.RowCodec;
import dev.ourios.parquet.rows.StringTable;
import dev.ourios.store.NoSuchObjectException;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.RandomAccessInput;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.filter2.columnindex.RowRanges;
import org.apache.parquet.internal.filter2.columnindex.ColumnIndexFilter;
import org.apache.parquet.internal.filter2.columnindex.ColumnIndexStore;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the log records of one Parquet object with ranged reads (footer first, then only the column chunks of the
 * row groups that survive the filter). Opened with a {@link FooterCache}, a reader takes the file's parsed footer,
 * and its chunks' column and offset indexes, bloom filters and dictionaries ({@link ChunkIndexes}), from it when an
 * earlier reader kept them there (files are immutable and uniquely named).
 *
 * <p>Reader contract (STORAGE.md §2): columns are matched by name; unknown top-level columns come back as
 * {@code LogRecord.extras()} so compaction keeps them; a missing OPTIONAL column reads as null; a missing REQUIRED
 * column fails the open with a {@link LogFormatException} naming the file and the column.
 *
 * <p>Missing {@code effective_time_unix_nano} (old files): the record carries null in
 * {@code effectiveTimeUnixNano()}, reproducing the source exactly. Every consumer of the effective time uses
 * {@code LogRecord.effectiveTime()}, which recomputes it from time (and observed time when time is 0), i.e. it is
 * the row's time_unix_nano whenever that is known, as the contract says; compaction re-projects the column anyway.
 *
 * <p>With a {@link RowPrefilter} (queries), rows are decided on the prefilter's columns before the others are
 * decoded (late materialization, see {@link #nextKeptGroup}); files our column cursors do not decode are read whole
 * through parquet-java's record reader and the prefilter sees whole rows: the same rows come back either way.
 *
 * <p>Row indexes in a {@link PartitionMismatchException}, handed to a prefilter or given by {@link #rowIndex} are
 * positions in the file, except on parquet-java's record reader with a filter, where pages may be skipped and the
 * index counts from the row group's first row over the rows actually decoded.
 *
 * <p>A late-materializing read can be shared out among threads: {@link #openPartner} opens another reader of the
 * same file (same footer, same options) and the two read disjoint sets of the kept row groups, each group going to
 * whichever reader asks for the next one first ({@link RowGroupClaims}). Each reader is confined to its thread.
 */
public final class LogFileReader implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(LogFileReader.class);
    /** The largest row-group span {@link #prefetchColumns} reads at once. */
    static final long MAX_PREFETCH = 256L << 20;

    private final String file;
    private final ObjectStore store;
    private final String key;
    private final boolean allowColumnar;
    /** Parsed footers of files opened before (possibly none). */
    private final FooterCache footers;
    private final RandomAccessInput input;
    private final StoreInputFile inputFile;
    private final ParquetFileReader reader;
    private final ReadOptions options;
    /** The rows of the expected partition, if any (checked for every row). */
    private final PartitionKey.Rows expectedRows;
    private final FilterCompat.Filter filter;
    private final MessageType fileSchema;
    private final MessageType requested;
    /** parquet-java's record reading (null when {@link #columnar} decodes the rows). */
    private final MessageColumnIO columnIO;
    private final LogRecordMaterializer materializer;
    /** Our own column decoding ({@link #columnar}), for unfiltered or prefiltered reads of files it supports. */
    private final boolean decodesColumnar;
    /**
     * The decoding of whole rows, made on first use ({@link #columnar()}): a count decides rows on the probe's
     * columns and never decodes one whole, so it never plans the whole schema's decoding.
     */
    private ColumnarRows columnar;
    private final RowPrefilter prefilter;
    /** The prefilter's columns only (late materialization), or null: rows are read whole. */
    private final ColumnarRows probe;
    private final MessageType probeSchema;
    /**
     * The prefilter's columns and the filter's: what a read that needs the prefilter's columns alone (counting, or a
     * prefilter that keeps no row) requests while it finds a row group's candidate rows, so that only their offset
     * indexes are read (the whole schema's would be, otherwise). Null without a probe.
     */
    private final MessageType indexSchema;
    /**
     * The leaf columns of {@link #requested}, {@link #probeSchema} and {@link #indexSchema} (null without a probe),
     * listed once: parquet-java lists a schema's columns again on every change of the requested schema.
     */
    private final List<ColumnDescriptor> requestedColumns;
    private final List<ColumnDescriptor> probeColumns;
    private final List<ColumnDescriptor> indexColumns;
    /** The columns parquet-java's reader reads now (see {@link #request}). */
    private List<ColumnDescriptor> requestedNow;
    /** Late materialization: the open row group's kept rows (indexes in the group), and the next to return. */
    private long[] kept = new long[64];
    /** Late materialization: the column tests' verdicts on a run of candidates ({@link ColumnarRows#decideRun}). */
    private final byte[] verdicts = new byte[1024];
    private int keptCount;
    /** The file is a compaction output of this store ({@link GroupStatistics#compactionOutput}). */
    private final boolean compactionOutput;
    private int keptNext;
    private PageReadStore keptPages;
    /** Counting (see {@link #countRest}): kept rows are counted, their pages never fetched. */
    private boolean countOnly;
    private final int rowGroupsTotal;
    private final int rowGroupsKept;
    private final List<BlockMetaData> keptBlocks;
    /** Which kept groups this reader reads (late materialization); shared with its partners. */
    private final RowGroupClaims claims;
    private int groupIndex = -1;
    /**
     * The groups a cached pruning verdict kept and their candidate rows, when this reader was built over them
     * without parquet-java's record filter (see {@link #keptReader}); null otherwise.
     */
    private FooterCache.Kept ownCandidates;
    /** The page codecs of this file's readers (one set, whichever reader of the file reads the pages). */
    private final PageDecompressors decompressors;
    /** The requested columns' paths, for computing {@link #ownCandidates} (parquet-java's reader hides its own). */
    private Set<ColumnPath> candidatePaths;
    private long rowIndex = -1;
    private RecordReader<LogRecord> records;
    private long rowsLeftInGroup;
    private long rowInGroup;
    private LogRecord pending;
    private boolean finished;
    /** Row groups the token index ruled out (set while the footer is read; 0 for a partner). */
    private int rowGroupsIndexSkipped;
    /** The file's row groups and rows before the token index ruled any out. */
    private int fileGroups;
    private long fileRows = -1;

    private LogFileReader(ObjectStore store, String key, String file, RandomAccessInput input, ReadOptions options,
            boolean allowColumnar, FooterCache footers, ParquetMetadata footer, RowGroupClaims shared)
            throws IOException {
        this.footers = footers;
        this.store = store;
        this.key = key;
        this.allowColumnar = allowColumnar;
        this.file = file;
        this.input = input;
        this.options = options;
        this.expectedRows = options.expectedPartition().map(PartitionKey::rows).orElse(null);
        this.inputFile = new StoreInputFile(input, file);
        this.filter = options.filter().map(FilterCompat::get).orElse(FilterCompat.NOOP);
        boolean pruned = footer != null; // a partner's footer holds only the groups its first reader kept
        this.decompressors = new PageDecompressors();
        ParquetReadOptions readOptions = readOptions(filter);
        ChunkIndexes chunks = footers.chunks(new FooterCache.Key(file, input.length()));
        try {
            this.reader = footer == null ? openWholeFile(readOptions, chunks)
                    : new CachingFileReader(inputFile, footer, readOptions, inputFile.newStream(), chunks);
        } catch (NoSuchObjectException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw new LogFormatException(file + ": not a readable Parquet file (" + LogFormatException.reason(e) + ")", e);
        } catch (StackOverflowError e) {
            // parquet-java builds the schema from the footer recursively: a hostile footer's nesting ends that
            // recursion here, with the stack unwound; nothing else ran on it.
            throw new LogFormatException(file + ": not a readable Parquet file (its schema is nested deeper than"
                    + " this reader's stack)");
        }
        try {
            this.fileSchema = reader.getFooter().getFileMetaData().getSchema();
            this.compactionOutput = reader.getFooter().getFileMetaData().getKeyValueMetaData()
                    .containsKey(TokenIndexRegion.KEY);
            FooterCache.Key id = new FooterCache.Key(file, input.length());
            FooterCache.FileSchema schema = footers.schema(id).orElse(null);
            if (schema == null) {
                MessageType checked = SchemaCheck.requested(fileSchema, file);
                List<ColumnDescriptor> columns = checked.getColumns();
                // over the whole file's groups (the reader's footer may hold only the kept ones): the cached footer
                List<BlockMetaData> all = footers.get(id).map(ParquetMetadata::getBlocks).orElse(null);
                schema = new FooterCache.FileSchema(checked, columns,
                        all != null && ColumnarRows.supports(checked, columns, all));
                footers.putSchema(id, schema);
            }
            this.requested = schema.requested();
            this.requestedColumns = schema.columns();
            request(requestedColumns);
            this.rowGroupsTotal = pruned ? shared.totalGroups() : fileGroups;
            this.keptBlocks = reader.getRowGroups();
            PageDecompressors.checkReadable(file, keptBlocks);
            this.rowGroupsKept = keptBlocks.size();
            this.prefilter = options.prefilter().orElse(null);
            // every group decodable: so are the kept ones; else the kept ones may still be
            boolean decodable = allowColumnar && (schema.everyGroupDecodable()
                    || ColumnarRows.supports(requested, requestedColumns, keptBlocks));
            this.decodesColumnar = decodable && (options.filter().isEmpty() || prefilter != null);
            // parquet-java's record reader and its materializer: only for a file our cursors do not decode.
            this.columnIO = decodesColumnar ? null
                    : new ColumnIOFactory(reader.getFooter().getFileMetaData().getCreatedBy())
                            .getColumnIO(requested, fileSchema, true);
            this.materializer = decodesColumnar ? null : new LogRecordMaterializer(requested);
            FooterCache.ProbeSchemas probing = decodesColumnar && prefilter != null
                    ? probeSchemas(id, requested, prefilter, options) : null;
            this.probeSchema = probing != null ? probing.probe() : null;
            this.indexSchema = probing != null ? probing.index() : null;
            this.probeColumns = probing != null ? probing.probeColumns() : null;
            this.indexColumns = probing != null ? probing.indexColumns() : null;
            this.probe = probeSchema != null ? new ColumnarRows(probeSchema, true, prefilter.columnTests(),
                    prefilter.columnGuards(), prefilter.columnTestsDecide()) : null;
            if (shared != null && rowGroupsKept != shared.groups()) {
                throw new IllegalStateException("BUG: a partner reader of " + file + " kept " + rowGroupsKept
                        + " row groups, its first reader " + shared.groups());
            }
            this.claims = shared != null ? shared : new RowGroupClaims(rowGroupsKept, rowGroupsTotal);
        } catch (IOException | RuntimeException e) {
            reader.close();
            throw e instanceof LogFormatException lfe ? lfe
                    : new LogFormatException(file + ": unreadable schema (" + e.getMessage() + ")", e);
        }
    }

    /**
     * A reader of the whole file (row groups pruned by the options' filter) over its footer: from {@link #footers}
     * when it holds the file, else fetched, parsed and kept there.
     */
    private ParquetFileReader openWholeFile(ParquetReadOptions readOptions, ChunkIndexes chunks) throws IOException {
        FooterCache.Key id = new FooterCache.Key(file, input.length());
        Optional<ParquetMetadata> cached = footers.get(id);
        SeekableInputStream stream = inputFile.newStream();
        ParquetMetadata footer;
        if (cached.isPresent()) {
            footer = cached.get();
        } else {
            try {
                long before = inputFile.bytesRead();
                footer = ParquetFileReader.readFooter(inputFile, readOptions, stream);
                footers.put(id, footer, inputFile.bytesRead() - before);
            } catch (IOException | RuntimeException | StackOverflowError e) {
                stream.close();
                throw e;
            }
        }
        fileGroups = footer.getBlocks().size();
        if (options.index().prunes()) {
            try {
                footer = skipByIndex(id, footer, stream);
            } catch (IOException | RuntimeException e) {
                stream.close();
                throw e;
            }
        }
        // A verdict reached before on these groups with this filter: one reader, of the kept groups.
        List<BlockMetaData> blocks = footer.getBlocks();
        FooterCache.Verdict verdict = options.filter()
                .map(f -> new FooterCache.Verdict(id, f, blocks.stream().map(BlockMetaData::getStartingPos).toList()))
                .orElse(null);
        Optional<FooterCache.Kept> known = verdict == null ? Optional.empty() : footers.kept(verdict);
        if (known.isPresent()) {
            return keptReader(footer, keptOf(blocks, known.get().positions()), readOptions, stream, chunks,
                    known.get(), id);
        }
        // Pruned here rather than by parquet-java's constructor, so that the pruning reads through the kept chunks.
        // A constructor that fails closes the stream.
        CachingFileReader all = new CachingFileReader(inputFile, footer, readOptions, stream, chunks);
        List<BlockMetaData> kept;
        try {
            kept = all.prune(filter, blocks);
        } catch (IOException | RuntimeException e) {
            all.close();
            throw e;
        }
        FooterCache.Kept verdictKept = verdict == null ? null : footers.putKept(verdict, positionsOf(blocks, kept));
        if (kept.size() == blocks.size()) {
            return all;
        }
        // The reader of the kept groups takes over the stream (the first reader holds nothing else to close).
        return keptReader(footer, kept, readOptions, stream, chunks, verdictKept, id);
    }

    /**
     * A reader of {@code kept}, groups of {@code footer}, over {@code stream}. When the groups are a verdict's
     * ({@code verdictKept}) and the rows will be read through the prefilter's probe (the file's schema, derived
     * before, decodes every group), the reader is built without parquet-java's record filter, whose constructor
     * would otherwise check the filter against the schema and evaluate it on the groups again; the candidate rows
     * of each group are then computed here once and kept with the verdict ({@link #candidateRows}).
     */
    private CachingFileReader keptReader(ParquetMetadata footer, List<BlockMetaData> kept,
            ParquetReadOptions readOptions, SeekableInputStream stream, ChunkIndexes chunks,
            FooterCache.Kept verdictKept, FooterCache.Key id) throws IOException {
        ParquetMetadata of = kept.size() == footer.getBlocks().size() ? footer
                : new ParquetMetadata(footer.getFileMetaData(), kept);
        FooterCache.FileSchema schema = verdictKept == null || !allowColumnar || options.prefilter().isEmpty() ? null
                : footers.schema(id).filter(FooterCache.FileSchema::everyGroupDecodable).orElse(null);
        if (schema == null) {
            return new CachingFileReader(inputFile, of, readOptions, stream, chunks);
        }
        ownCandidates = verdictKept;
        candidatePaths = schema.paths();
        return new CachingFileReader(inputFile, of, readOptions(FilterCompat.NOOP), stream, chunks);
    }

    /** parquet-java's options for this file's readers, with {@code recordFilter}. */
    private ParquetReadOptions readOptions(FilterCompat.Filter recordFilter) {
        // Row groups are pruned by CachingFileReader.prune (statistics, dictionaries, bloom filters), not here.
        return ParquetReadOptions.builder(new PlainParquetConfiguration())
                .withCodecFactory(decompressors)
                .withRecordFilter(recordFilter)
                .useStatsFilter(false)
                .useDictionaryFilter(false)
                .useBloomFilter(false)
                .useColumnIndexFilter(true)
                .useRecordFilter(true)
                .build();
    }

    /**
     * The rows of kept group {@code group} that the filter's column and offset indexes leave: as parquet-java's
     * reader computes them from its record filter, or, for a reader built without it, computed the same way
     * (over the requested columns) and kept with the verdict.
     */
    private RowRanges candidateRows(int group) {
        if (ownCandidates == null) {
            return reader.getRowRanges(group);
        }
        // parquet-java keeps a group's index store from its first use, over the columns requested then: made here,
        // under the request the caller chose, as getRowRanges makes it, whether or not the rows are known.
        ColumnIndexStore indexes = reader.getColumnIndexStore(group);
        RowRanges known = ownCandidates.candidates(group);
        if (known != null) {
            return known;
        }
        RowRanges rows = ColumnIndexFilter.calculateRowRanges(filter, indexes, candidatePaths,
                keptBlocks.get(group).getRowCount());
        ownCandidates.putCandidates(group, rows);
        return rows;
    }

    /** The groups of {@code blocks} at {@code positions}. */
    private static List<BlockMetaData> keptOf(List<BlockMetaData> blocks, int[] positions) {
        List<BlockMetaData> kept = new ArrayList<>(positions.length);
        for (int at : positions) {
            kept.add(blocks.get(at));
        }
        return kept;
    }

    /** The positions in {@code blocks} of {@code kept}, a subsequence of them. */
    private static int[] positionsOf(List<BlockMetaData> blocks, List<BlockMetaData> kept) {
        int[] positions = new int[kept.size()];
        int k = 0;
        for (int at = 0; at < blocks.size() && k < positions.length; at++) {
            if (blocks.get(at) == kept.get(k)) {
                positions[k++] = at;
            }
        }
        if (k != positions.length) {
            throw new IllegalStateException("BUG: pruning kept a group not of the file's footer");
        }
        return positions;
    }

    /**
     * {@code footer} without the row groups the file's token index rules out for the options' condition (the
     * footer itself when the file has no usable index: every group is read). The index is taken from
     * {@link #footers} or read, verified and kept there; an index that does not verify is reported once and not
     * used, so a damaged index costs a scan, never a row.
     */
    private ParquetMetadata skipByIndex(FooterCache.Key id, ParquetMetadata footer, SeekableInputStream stream)
            throws IOException {
        Optional<TokenIndex> index;
        Optional<Optional<TokenIndex>> cached = footers.index(id);
        if (cached.isPresent()) {
            index = cached.get();
        } else {
            index = readIndex(footer, stream);
            footers.putIndex(id, index);
        }
        if (index.isEmpty()) {
            return footer;
        }
        List<BlockMetaData> blocks = footer.getBlocks();
        List<BlockMetaData> kept = new ArrayList<>(blocks.size());
        IndexCondition condition = options.index();
        for (int g = 0; g < blocks.size(); g++) {
            if (index.get().mayMatch(g, condition)) {
                kept.add(blocks.get(g));
            }
        }
        if (kept.size() == blocks.size()) {
            return footer;
        }
        fileRows = blocks.stream().mapToLong(BlockMetaData::getRowCount).sum();
        rowGroupsIndexSkipped = blocks.size() - kept.size();
        return new ParquetMetadata(footer.getFileMetaData(), kept);
    }

    private Optional<TokenIndex> readIndex(ParquetMetadata footer, SeekableInputStream stream) throws IOException {
        String descriptor = footer.getFileMetaData().getKeyValueMetaData().get(TokenIndexRegion.KEY);
        if (descriptor == null) {
            return Optional.empty(); // no index (an ingest file, or another writer's): every group is read
        }
        Optional<TokenIndexRegion.Location> where = TokenIndexRegion.Location.parse(descriptor, input.length(),
                footer.getBlocks().size());
        if (where.isEmpty()) {
            LOG.warn("{}: token index descriptor not usable; the file is scanned", file);
            return Optional.empty();
        }
        byte[] region = new byte[(int) where.get().length()];
        stream.seek(where.get().offset());
        stream.readFully(region);
        if (!where.get().verifies(region)) {
            LOG.warn("{}: token index fails its checksum; the file is scanned", file);
            return Optional.empty();
        }
        return Optional.of(new TokenIndex(where.get(), region));
    }

    /** Opens {@code key}; the object is read in ranges, never whole. */
    public static LogFileReader open(ObjectStore store, String key, ReadOptions options) throws IOException {
        return open(store, key, options, FooterCache.none());
    }

    /**
     * Opens {@code key} as {@link #open(ObjectStore, String, ReadOptions)} does, taking its footer from
     * {@code footers} when it holds the file and keeping it there otherwise.
     */
    public static LogFileReader open(ObjectStore store, String key, ReadOptions options, FooterCache footers)
            throws IOException {
        return open(store, key, options, true, footers, null, null);
    }

    /**
     * Opens {@code key} read through parquet-java's record reader only (never {@link ColumnarRows}): the reference
     * the differential tests compare our column decoding with.
     */
    static LogFileReader openWithRecordReader(ObjectStore store, String key, ReadOptions options) throws IOException {
        return open(store, key, options, false, FooterCache.none(), null, null);
    }

    private static LogFileReader open(ObjectStore store, String key, ReadOptions options, boolean allowColumnar,
            FooterCache footers, ParquetMetadata footer, RowGroupClaims shared) throws IOException {
        String name = store.describe(key);
        RandomAccessInput input = store.openRandomAccess(key);
        try {
            return new LogFileReader(store, key, name, input, options, allowColumnar, footers, footer, shared);
        } catch (IOException | RuntimeException e) {
            input.close();
            throw e;
        }
    }

    /**
     * Another reader of this file that shares its kept row groups with this one (and with its other partners): each
     * group is read by one of them, so together they return every row once. Empty when this read does not
     * materialize late (its groups are not read by index) or no group is left unclaimed. The partner reuses this
     * reader's footer, pruning and options (it reads no footer, dictionary or bloom filter again: only its groups'
     * column and offset indexes and pages); it may be opened from another thread and used there, while this one is
     * read. Its {@link #fileSchema} and {@link #rowGroupsTotal} are the file's; its footer, and so {@link #rowCount},
     * holds only the kept row groups.
     */
    public Optional<LogFileReader> openPartner() throws IOException {
        if (probe == null || !claims.anyLeft()) {
            return Optional.empty();
        }
        ParquetMetadata kept = new ParquetMetadata(reader.getFooter().getFileMetaData(), keptBlocks);
        return Optional.of(open(store, key, options, allowColumnar, footers, kept, claims));
    }

    /**
     * Compressed bytes of the kept row groups that neither this reader nor a partner has started (0 when this read
     * cannot have partners, or none is left): what a partner opened now could share.
     */
    public long unclaimedBytes() {
        if (probe == null) {
            return 0;
        }
        long bytes = 0;
        for (int g = claims.firstUnclaimed(); g < keptBlocks.size(); g++) {
            bytes += keptBlocks.get(g).getCompressedSize();
        }
        return bytes;
    }

    /**
     * Counts the rows {@link #read} would still return (of the row groups this reader claims) and ends the read.
     * A late-materializing read decides each row on the prefilter's columns and fetches nothing else; other reads
     * decode the rows and count them. The partition and prefilter checks run on every row either way.
     */
    public long countRest() throws IOException {
        long n = 0;
        if (pending != null) {
            pending = null;
            n++;
        }
        if (probe == null) {
            while (read() != null) {
                n++;
            }
            return n;
        }
        countOnly = true;
        n += keptCount - keptNext; // the rest of a group whose pages were fetched for read()
        keptNext = keptCount;
        while (!finished && nextKeptGroup()) {
            n += keptCount;
            keptNext = keptCount;
        }
        finished = true;
        closeKeptPages();
        return n;
    }

    /** The position in the file of the row {@link #read} returned last (see the class comment for the exception). */
    public long rowIndex() {
        return rowIndex;
    }

    /** The next record, or null at the end. */
    public LogRecord read() throws IOException {
        if (pending != null) {
            LogRecord r = pending;
            pending = null;
            return r;
        }
        if (probe != null) {
            return readKept();
        }
        while (!finished) {
            if (rowsLeftInGroup == 0 && !nextGroup()) {
                finished = true;
                return null;
            }
            rowsLeftInGroup--;
            long rowIndex = keptBlocks.get(groupIndex).getRowIndexOffset() + rowInGroup++;
            LogRecord r;
            try {
                if (decodesColumnar) {
                    r = columnar().read();
                } else {
                    r = records.read();
                    if (r == null || records.shouldSkipCurrentRecord()) {
                        continue;
                    }
                }
            } catch (RuntimeException e) {
                throw rowFailure(rowIndex, e);
            }
            checkPartition(r, rowIndex);
            if (prefilter != null && !prefilter.test(r, rowIndex)) {
                continue;
            }
            this.rowIndex = rowIndex;
            return r;
        }
        return null;
    }

    /**
     * Reads the next row re-projected (STORAGE.md §5: effective time recomputed, service name derived from the
     * resource attributes by {@code serviceOf}) and appends it to {@code out} as {@link RowCodec#encode} encodes it,
     * with {@code origin} and references into {@code strings}; returns what {@code encode} returns, or -1 at the
     * end. The partition check runs as in {@link #read}. On an unfiltered read of a file our column cursors decode
     * (a compaction's inputs) no record is built: values go from the pages to {@code out}
     * ({@link ColumnarRows#encodeNext}); otherwise the row is read as a record, re-projected and encoded. After a
     * failure {@code out} may hold part of a row past its previous size.
     */
    public int readProjected(long origin, UnaryOperator<String> serviceOf, StringTable strings, RowCodec.Output out)
            throws IOException {
        if (!decodesColumnar || prefilter != null || pending != null) {
            LogRecord r = read();
            return r == null ? -1
                    : RowCodec.encode(r.reprojected(serviceOf.apply(r.resourceAttributes())), origin, strings, out);
        }
        while (rowsLeftInGroup == 0) { // a row group may hold no rows
            if (finished || !nextGroup()) {
                finished = true;
                return -1;
            }
        }
        rowsLeftInGroup--;
        long rowIndex = keptBlocks.get(groupIndex).getRowIndexOffset() + rowInGroup++;
        int weight;
        try {
            weight = columnar().encodeNext(origin, serviceOf, strings, out);
        } catch (RuntimeException e) {
            throw rowFailure(rowIndex, e);
        }
        checkPartition(columnar().lastTenant(), columnar().lastEffectiveTime(), rowIndex);
        this.rowIndex = rowIndex;
        return weight;
    }

    private void checkPartition(LogRecord r, long rowIndex) throws PartitionMismatchException {
        checkPartition(r.tenantId(), r.effectiveTime(), rowIndex);
    }

    private void checkPartition(String tenant, long effectiveTime, long rowIndex) throws PartitionMismatchException {
        if (expectedRows != null && !expectedRows.holds(tenant, effectiveTime)) {
            throw new PartitionMismatchException(file, rowIndex, options.expectedPartition().get(),
                    PartitionKey.of(tenant, effectiveTime));
        }
    }

    private LogFormatException rowFailure(long rowIndex, RuntimeException e) {
        return new LogFormatException(file + ": cannot decode row " + rowIndex + " (" + e.getMessage() + ")", e);
    }

    /** Late materialization: the next row the prefilter kept, decoded whole. */
    private LogRecord readKept() throws IOException {
        while (keptNext == keptCount) {
            if (finished || !nextKeptGroup()) {
                finished = true;
                closeKeptPages();
                return null;
            }
        }
        long row = kept[keptNext++];
        long rowIndex = keptBlocks.get(groupIndex).getRowIndexOffset() + row;
        LogRecord r;
        try {
            r = columnar().readRow(row);
        } catch (RuntimeException e) {
            throw rowFailure(rowIndex, e);
        }
        checkPartition(r, rowIndex);
        this.rowIndex = rowIndex;
        return r;
    }

    /**
     * Moves to the next row group (of those this reader claims) with rows the prefilter keeps: for each of the
     * group's candidate rows (those the column index leaves) reads the prefilter's column tests' and guards' values
     * in place, and only for a row they neither reject nor keep (see {@link ColumnarRows#decideRun}) decodes the
     * prefilter's columns and tests the partial row; then fetches the pages that hold the kept rows.
     */
    private boolean nextKeptGroup() throws IOException {
        closeKeptPages();
        while ((groupIndex = claims.claim()) < keptBlocks.size()) {
            BlockMetaData block = keptBlocks.get(groupIndex);
            keptCount = 0;
            keptNext = 0;
            GroupStatistics statistics = new GroupStatistics(block, compactionOutput);
            if (prefilter.takesWholeGroup(statistics)) {
                continue; // accounted for on its statistics: none of its rows is read
            }
            RowPrefilter rows = prefilter.forGroup(statistics);
            RowRanges candidates;
            try {
                // The candidate rows, computed with the whole requested schema's columns (their offset indexes stay
                // cached for the group's kept rows' read), or the probe's and the filter's when no row is kept.
                request(countOnly || prefilter.keepsNone() ? indexColumns : requestedColumns);
                candidates = candidateRows(groupIndex);
                if (candidates.rowCount() == 0) {
                    continue;
                }
                // Cursors are made on a column's first use, so the pages can be fetched once the plan is known.
                Set<String> groupColumns = rows == prefilter ? null : rows.columns();
                probe.startGroup(probePages::pageReader, block, rows.columnGuards(statistics), groupColumns);
                probePages.fetchDeciding(candidates, groupColumns);
            } catch (IOException | RuntimeException e) {
                probePages.close();
                throw groupFailure(e);
            }
            try {
                for (RowRanges.Range range : candidates.getRanges()) {
                    for (long row = range.from; row <= range.to; ) {
                        if (countOnly) { // a count whose one test decides alone: its verdicts summed, not written
                            int passing;
                            try {
                                passing = probe.countRun(row, (int) Math.min(verdicts.length, range.to - row + 1));
                            } catch (RuntimeException e) {
                                throw rowFailure(block.getRowIndexOffset() + row, e);
                            }
                            if (passing >= 0) {
                                keptCount += passing;
                                row += probe.counted();
                                continue;
                            }
                        }
                        int run;
                        try {
                            run = probe.decideRun(row, (int) Math.min(verdicts.length, range.to - row + 1),
                                    verdicts);
                        } catch (RuntimeException e) {
                            throw rowFailure(block.getRowIndexOffset() + row, e);
                        }
                        for (int i = 0; i < run; i++) {
                            // a row decided on its columns' values is neither decoded nor tested
                            if (verdicts[i] == ColumnarRows.TEST) {
                                probeRow(block, row + i, rows);
                            } else if (verdicts[i] == ColumnarRows.KEEP) {
                                keep(row + i);
                            }
                        }
                        row += run;
                    }
                }
            } finally {
                probePages.close();
            }
            if (keptCount == 0) {
                continue;
            }
            if (countOnly) {
                return true; // the caller counts the kept rows; their other columns are not needed
            }
            try {
                request(requestedColumns);
                boolean span = keptCount < block.getRowCount() && prefetchColumns(block);
                try {
                    keptPages = readRows(groupIndex, keptRanges());
                } finally {
                    if (span) {
                        inputFile.dropPrefetch();
                    }
                }
                columnar().startGroup(keptPages);
            } catch (IOException | RuntimeException e) {
                throw groupFailure(e);
            }
            return true;
        }
        return false;
    }

    /** A candidate row no column test rejected: decoded on the prefilter's columns, kept if the prefilter keeps it. */
    private void probeRow(BlockMetaData block, long row, RowPrefilter rows) throws IOException {
        long rowIndex = block.getRowIndexOffset() + row;
        try {
            probePages.fetchRest();
        } catch (IOException | RuntimeException e) {
            throw groupFailure(e);
        }
        LogRecord partial;
        try {
            partial = probe.readRow(row);
        } catch (RuntimeException e) {
            throw rowFailure(rowIndex, e);
        }
        if (rows.test(partial, rowIndex)) {
            keep(row);
        }
    }

    /**
     * On a store where every read is a costly request (S3), reads the byte span of the group's requested column
     * chunks at once, so the kept rows' pages (one or a few per column, scattered over the group) are served from it
     * rather than fetched one GET per column: a one-row query would otherwise send ~30 GETs where reading the whole
     * group takes one. The span is no more than what reading the whole group through parquet-java's record reader
     * holds; groups larger than {@link #MAX_PREFETCH} are not prefetched.
     */
    private boolean prefetchColumns(BlockMetaData block) throws IOException {
        if (!inputFile.requestsAreCostly() || !hasOffsetIndexes(block)) {
            return false; // local reads are cheap; without offset indexes the group is read in one range anyway
        }
        long start = Long.MAX_VALUE;
        long end = 0;
        for (ColumnChunkMetaData chunk : block.getColumns()) {
            if (requested.containsPath(chunk.getPath().toArray())) {
                start = Math.min(start, chunk.getStartingPos());
                end = Math.max(end, chunk.getStartingPos() + chunk.getTotalSize());
            }
        }
        if (end <= start || end - start > MAX_PREFETCH) {
            return false;
        }
        inputFile.prefetch(start, (int) (end - start));
        return true;
    }

    /** The probe's pages of the row group being decided. */
    private final ProbePages probePages = new ProbePages();

    /**
     * The pages of the probe's columns for a row group's candidate rows, in two reads: first the columns the column
     * tests and guards read ({@link ColumnarRows#decidingColumns}), then, only when a row is decoded on the probe's
     * columns ({@link #probeRow}), the others. A count whose tests decide every row, or a lookup that rejects every
     * candidate on its tests, then fetches no page of the other columns (the effective time whose test the group's
     * statistics prove, the tenant they prove). On a store whose reads are costly requests the probe's columns are
     * read at once, as one request.
     */
    private final class ProbePages {
        private RowRanges candidates;
        private Set<String> deciding;
        private List<ColumnDescriptor> rest;
        private PageReadStore first;
        private PageReadStore second;
        /** The probe's columns a group reads, for the last set of names asked (groups mostly share one). */
        private Set<String> groupNames;
        private List<ColumnDescriptor> groupList;
        /** The last split of those columns, by the deciding columns' names (groups mostly share one). */
        private Set<String> splitFor;
        private List<ColumnDescriptor> splitOf;
        private List<ColumnDescriptor> splitDeciding;
        private List<ColumnDescriptor> splitRest;

        /**
         * Fetches the deciding columns' pages (all of the group's on a costly store) of {@code rows}; the group reads
         * the probe's columns among {@code groupColumns} alone (null: all of them, see
         * {@link RowPrefilter#forGroup}), and the others' pages are never fetched.
         */
        void fetchDeciding(RowRanges rows, Set<String> groupColumns) throws IOException {
            close();
            candidates = rows;
            List<ColumnDescriptor> columns = groupColumns(groupColumns);
            Set<String> names = inputFile.requestsAreCostly() ? null : probe.decidingColumns();
            if (names == null || columns.stream().allMatch(c -> names.contains(c.getPath()[0]))) {
                deciding = null;
                rest = null;
                request(columns);
                first = readRows(groupIndex, rows);
                return;
            }
            if (!names.equals(splitFor) || columns != splitOf) {
                List<ColumnDescriptor> in = new ArrayList<>();
                List<ColumnDescriptor> out = new ArrayList<>();
                for (ColumnDescriptor c : columns) {
                    (names.contains(c.getPath()[0]) ? in : out).add(c);
                }
                splitFor = Set.copyOf(names);
                splitOf = columns;
                splitDeciding = List.copyOf(in);
                splitRest = List.copyOf(out);
            }
            deciding = splitFor;
            rest = splitRest;
            if (!splitDeciding.isEmpty()) {
                request(splitDeciding);
                first = readRows(groupIndex, rows);
            }
        }

        /** The probe's columns among {@code names} (never none: a read names at least one column). */
        private List<ColumnDescriptor> groupColumns(Set<String> names) {
            if (names == null) {
                return probeColumns;
            }
            if (!names.equals(groupNames)) {
                List<ColumnDescriptor> in = new ArrayList<>();
                for (ColumnDescriptor c : probeColumns) {
                    if (names.contains(c.getPath()[0])) {
                        in.add(c);
                    }
                }
                if (in.isEmpty()) {
                    in.add(probeColumns.get(0));
                }
                groupNames = Set.copyOf(names);
                groupList = List.copyOf(in);
            }
            return groupList;
        }

        /** Fetches the other columns' pages, if they were left out and are not fetched yet. */
        void fetchRest() throws IOException {
            if (rest != null && second == null && !rest.isEmpty()) {
                request(rest);
                second = readRows(groupIndex, candidates);
            }
        }

        /** A column's pages, from the read that fetched it. */
        org.apache.parquet.column.page.PageReader pageReader(ColumnDescriptor column) {
            PageReadStore from = deciding == null || deciding.contains(column.getPath()[0]) ? first : second;
            if (from == null) {
                throw new IllegalStateException("BUG: the pages of " + String.join(".", column.getPath())
                        + " were not fetched");
            }
            return from.getPageReader(column);
        }

        void close() {
            try {
                if (first != null) {
                    first.close();
                }
                if (second != null) {
                    second.close();
                }
            } finally {
                first = null;
                second = null;
            }
        }
    }

    /**
     * Makes parquet-java's reader read {@code columns} (one of the lists above) from now on: set only when it reads
     * another list, since each change builds its column map again.
     */
    private void request(List<ColumnDescriptor> columns) {
        if (columns != requestedNow) {
            reader.setRequestedSchema(columns);
            requestedNow = columns;
        }
    }

    /** The pages of {@code group} that hold {@code rows}: all of them when the file has no offset index. */
    private PageReadStore readRows(int group, RowRanges rows) throws IOException {
        return hasOffsetIndexes(keptBlocks.get(group)) ? reader.readFilteredRowGroup(group, rows)
                : reader.readRowGroup(group);
    }

    private static boolean hasOffsetIndexes(BlockMetaData block) {
        for (ColumnChunkMetaData chunk : block.getColumns()) {
            if (chunk.getOffsetIndexReference() == null) {
                return false;
            }
        }
        return true;
    }

    private void keep(long row) {
        if (countOnly) {
            keptCount++; // counted, never read: the rows themselves are not needed (see nextKeptGroup)
            return;
        }
        if (keptCount == kept.length) {
            kept = Arrays.copyOf(kept, keptCount * 2);
        }
        kept[keptCount++] = row;
    }

    private RowRanges keptRanges() {
        RowRanges.Builder b = RowRanges.builder();
        int i = 0;
        while (i < keptCount) {
            int j = i;
            while (j + 1 < keptCount && kept[j + 1] == kept[j] + 1) {
                j++;
            }
            b.addSelectedRange(kept[i], kept[j]);
            i = j + 1;
        }
        return b.build();
    }

    private void closeKeptPages() {
        if (keptPages != null) {
            keptPages.close();
            keptPages = null;
        }
    }

    private LogFormatException groupFailure(Exception e) {
        return e instanceof LogFormatException lfe ? lfe
                : new LogFormatException(file + ": cannot read row group " + keptBlocks.get(groupIndex).getOrdinal()
                        + " (" + e.getMessage() + ")", e);
    }

    /**
     * The probe's fields and the requested schema's fields that the options' filter names: parquet-java's column-index
     * filter reads a predicate column that is not requested as missing (all null), which would prune the group.
     */
    /**
     * The schemas a prefiltered read probes with ({@link #probeSchema}, {@link #indexSchema}) and their columns, as
     * derived before for this file and the same columns (kept in {@link #footers}), or derived now and kept.
     */
    private FooterCache.ProbeSchemas probeSchemas(FooterCache.Key id, MessageType requested, RowPrefilter rows,
            ReadOptions options) {
        Set<String> filterColumns = options.filter().map(PredicateColumns::of).orElse(Set.of());
        FooterCache.ProbeKey key = new FooterCache.ProbeKey(id, rows.columns(), filterColumns);
        Optional<FooterCache.ProbeSchemas> known = footers.probeSchemas(key);
        if (known.isPresent()) {
            return known.get();
        }
        MessageType probe = probeSchema(requested, rows);
        MessageType index = indexSchema(requested, probe, filterColumns);
        FooterCache.ProbeSchemas derived = new FooterCache.ProbeSchemas(probe, index, probe.getColumns(),
                index.getColumns());
        footers.putProbeSchemas(key, derived);
        return derived;
    }

    private static MessageType indexSchema(MessageType requested, MessageType probe, Set<String> filterColumns) {
        java.util.Set<String> names = new java.util.HashSet<>();
        probe.getFields().forEach(f -> names.add(f.getName()));
        names.addAll(filterColumns);
        List<Type> fields = new ArrayList<>();
        for (Type field : requested.getFields()) {
            if (names.contains(field.getName())) {
                fields.add(field);
            }
        }
        return new MessageType(requested.getName(), fields);
    }

    /** The requested schema's fields that {@code rows} reads (at least one, so the schema is not empty). */
    private static MessageType probeSchema(MessageType requested, RowPrefilter rows) {
        List<Type> fields = new ArrayList<>();
        for (Type field : requested.getFields()) {
            if (rows.columns().contains(field.getName())) {
                fields.add(field);
            }
        }
        if (fields.isEmpty()) {
            fields.add(requested.getType(Columns.TENANT_ID));
        }
        return new MessageType(requested.getName(), fields);
    }

    public boolean hasNext() throws IOException {
        if (pending == null) {
            pending = read();
        }
        return pending != null;
    }

    public LogRecord next() throws IOException {
        LogRecord r = read();
        if (r == null) {
            throw new NoSuchElementException(file + ": no more rows");
        }
        return r;
    }

    private boolean nextGroup() throws IOException {
        PageReadStore pages;
        try {
            pages = reader.readNextFilteredRowGroup();
            if (pages != null && decodesColumnar) {
                columnar().startGroup(pages); // reads the chunks' dictionaries
            }
        } catch (IOException | RuntimeException e) {
            throw new LogFormatException(file + ": cannot read row group " + (groupIndex + 1) + " ("
                    + e.getMessage() + ")", e);
        }
        if (pages == null) {
            return false;
        }
        groupIndex++;
        rowsLeftInGroup = pages.getRowCount();
        rowInGroup = 0;
        if (!decodesColumnar) {
            records = columnIO.getRecordReader(pages, materializer, filter);
        }
        return true;
    }

    /** True when rows are decoded by {@link ColumnarRows} rather than parquet-java's record reader. */
    boolean decodesColumns() {
        return decodesColumnar;
    }

    /** The decoding of whole rows; only when {@link #decodesColumnar}. */
    private ColumnarRows columnar() {
        if (columnar == null) {
            columnar = new ColumnarRows(requested);
        }
        return columnar;
    }

    /** True when a prefilter decides rows on its columns before the others are decoded. */
    boolean materializesLate() {
        return probe != null;
    }

    /** The file's own schema (what the writer declared, root name included). */
    public MessageType fileSchema() {
        return fileSchema;
    }

    /** Rows in the file according to its footer (before any filtering). */
    public long rowCount() {
        return fileRows >= 0 ? fileRows : reader.getFooter().getBlocks().stream().mapToLong(BlockMetaData::getRowCount)
                .sum();
    }

    /** Row groups the file's token index ruled out (counted among {@link #rowGroupsTotal}, not among the kept). */
    public int rowGroupsIndexSkipped() {
        return rowGroupsIndexSkipped;
    }

    public int rowGroupsTotal() {
        return rowGroupsTotal;
    }

    /** Row groups left after statistics, dictionary and bloom-filter pruning. */
    public int rowGroupsKept() {
        return rowGroupsKept;
    }

    /** Bytes fetched from the store so far. */
    public long bytesRead() {
        return inputFile.bytesRead();
    }

    public String file() {
        return file;
    }

    @Override
    public void close() throws IOException {
        try {
            closeKeptPages();
            reader.close();
        } finally {
            input.close();
        }
    }
}
