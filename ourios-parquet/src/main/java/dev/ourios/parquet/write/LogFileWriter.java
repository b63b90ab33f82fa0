package dev.ourios.parquet.write;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.parquet.LogSchema;
import dev.ourios.parquet.index.TokenIndexBuilder;
import dev.ourios.parquet.index.RegionSpool;
import dev.ourios.parquet.index.TokenIndexRegion;
import dev.ourios.parquet.rows.RowCodec;
import dev.ourios.parquet.rows.StringTable;
import dev.ourios.store.AtomicOutput;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes log records into one Parquet object through an {@link AtomicOutput}: nothing is visible until
 * {@link #commit()}, and {@link #close()} without a commit discards everything.
 *
 * <p>Encoding policy (STORAGE.md §2) and where parquet-java 1.18.1 falls short of it:
 * <ul>
 * <li>ZSTD at the configured level on every column.</li>
 * <li>Dictionary on, except the three times, attributes, trace_id, span_id, body, confidence and both params
 * leaves.</li>
 * <li>Statistics: page-level statistics and the page index on every column except attributes, resource_attributes
 * and body, which get chunk-level min/max/null count only, computed by {@link ChunkStats} (parquet-java's own
 * per-value comparison is costly on these long values) and written by the footer rewrite. Gap: tenant_id and the
 * params/separators leaves keep page-level statistics too (a superset of the contract): parquet-java has no
 * chunk-level-only switch, and they are cheap.</li>
 * <li>Bloom filters on template_id, trace_id, span_id, resource.service.name and extra STRING/INT64 columns.
 * parquet-java's per-column settings split a column name on dots, so a single leaf named
 * {@code resource.service.name} cannot be addressed. Ingest files therefore switch bloom filters on globally and
 * off for every addressable non-bloom leaf, with parquet-java's filters: one sized for the file's row count when the
 * writer is told it (a WAL flush), else adaptive ones (the smallest candidate that fits the distinct values of each
 * row group). Gap (ingest files only): an extra non-bloom column whose name contains a
 * dot (e.g. a DOUBLE {@code attr.latency}) cannot be switched off and gets a filter it does not need. Compacted
 * files' filters are fixed, sized from the partition's rows per group, and built by {@link ColumnShredder}
 * ({@link #bloomPlan}; parquet-java's are all off). All are capped at {@code clamp(rowGroupBytes / 64, 4 KiB,
 * 1 MiB)}. No filter is written for a chunk that is entirely dictionary-encoded (the dictionary filter is exact),
 * which is the usual case for service names.</li>
 * </ul>
 * Every file's footer is rewritten at commit (see {@link FooterRewrite}) so output is byte-identical across processes
 * and can declare {@code sorting_columns}. A file written with {@link WriterOptions#tokenIndex()} carries the token
 * index (docs/spec/storage.md, "Token index"): one filter per row group, written between the last index or bloom
 * filter and the footer, located by the footer's {@link TokenIndexRegion#KEY} entry.
 */
public final class LogFileWriter implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(LogFileWriter.class);
    private static final Set<String> NO_DICTIONARY = Set.of(Columns.TIME, Columns.OBSERVED_TIME,
            Columns.EFFECTIVE_TIME, Columns.ATTRIBUTES, Columns.TRACE_ID, Columns.SPAN_ID, Columns.BODY,
            Columns.CONFIDENCE, LogSchema.PARAMS_TYPE_TAG, LogSchema.PARAMS_VALUE);
    private static final Set<String> BLOOM = Set.of(Columns.TEMPLATE_ID, Columns.TRACE_ID, Columns.SPAN_ID,
            Columns.SERVICE_NAME);
    private static final String ZSTD_LEVEL_KEY = "parquet.compression.codec.zstd.level";
    /**
     * Bits of token-index filter per distinct key of a row group: about a 1% false-positive rate for a split-block
     * filter at its sized load (the sizes a filter folds to leave between this and a third more).
     */
    static final double TOKEN_BITS_PER_KEY = 10;

    private final AtomicOutput output;
    private final AtomicOutputFile file;
    private final LogSchema schema;
    private final WriterOptions options;
    private final RowGroupWriter writer;
    /** The token index being built, or null. */
    private final TokenIndexBuilder tokenIndex;
    /** The fixed bloom filters of each row group (compacted files), for {@link #closingBytesBound}. */
    private final BloomPlan blooms;
    private long rows;
    private boolean failed;
    private boolean done;

    public LogFileWriter(AtomicOutput output, WriterOptions options) throws IOException {
        this(output, options, UnaryOperator.identity(), options.declareSorting(), null);
    }

    /**
     * A writer whose token index collects in a file of {@code scratch} until the footer is written, rather than on
     * the heap (a compaction's outputs: the index of a large file is tens of megabytes).
     */
    public LogFileWriter(AtomicOutput output, WriterOptions options, Path scratch) throws IOException {
        this(output, options, UnaryOperator.identity(), options.declareSorting(), scratch);
    }

    /**
     * A writer whose parquet-java properties are changed by {@code encoding} last: tests write files as other writers
     * may (data pages V2, other encodings) to check the readers; Ourios itself writes V1 pages.
     * {@code ownPages}: pages encoded by {@link ChunkWriter} (compacted outputs, whose bloom filters are built by the
     * shredder) rather than parquet-java's column writers (ingest files, whose adaptive bloom filters are
     * parquet-java's).
     */
    LogFileWriter(AtomicOutput output, WriterOptions options, UnaryOperator<ParquetProperties.Builder> encoding,
            boolean ownPages) throws IOException {
        this(output, options, encoding, ownPages, null);
    }

    private LogFileWriter(AtomicOutput output, WriterOptions options,
            UnaryOperator<ParquetProperties.Builder> encoding, boolean ownPages, Path scratch) throws IOException {
        this.output = output;
        this.options = options;
        this.schema = LogSchema.of(options.extras());
        this.file = new AtomicOutputFile(output);
        try {
            this.tokenIndex = !options.tokenIndex() ? null : new TokenIndexBuilder(
                    tokenFilterCap(options.rowGroupBytes()), TOKEN_BITS_PER_KEY,
                    scratch == null ? RegionSpool.inMemory() : RegionSpool.inFile(scratch));
        } catch (IOException | RuntimeException e) {
            output.abort();
            throw e;
        }
        try {
            ParquetProperties props = properties(encoding);
            PlainParquetConfiguration conf = new PlainParquetConfiguration();
            conf.set(ZSTD_LEVEL_KEY, Integer.toString(options.zstdLevel()));
            ParquetFileWriter fileWriter = new ParquetFileWriter(file, schema.messageType(),
                    ParquetFileWriter.Mode.OVERWRITE, options.rowGroupBytes(), ParquetWriter.MAX_PADDING_SIZE_DEFAULT,
                    null, props);
            this.blooms = bloomPlan();
            this.writer = new RowGroupWriter(fileWriter, schema.messageType(), props, conf, options.rowGroupBytes(),
                    options.writerThreads(), schema, blooms, ownPages, tokenIndex);
        } catch (IOException | RuntimeException e) {
            output.abort();
            discardIndex();
            throw e;
        }
    }

    /** parquet-java's encoding properties for this file (what its ParquetWriter.Builder would build). */
    private ParquetProperties properties(UnaryOperator<ParquetProperties.Builder> encoding) {
        ParquetProperties.Builder b = ParquetProperties.builder()
                .withValuesWriterFactory(new MemoisedBinaryDictionaryWriter.Factory())
                .withRowGroupRowCountLimit(options.rowGroupRows())
                .withDictionaryEncoding(options.dictionaries())
                .withStatisticsEnabled(options.statistics())
                .withPageWriteChecksumEnabled(false)
                .withPageSize(pageSizeFor(options.rowGroupBytes()));
        for (ColumnDescriptor c : schema.messageType().getColumns()) {
            String path = String.join(".", c.getPath());
            if (NO_DICTIONARY.contains(path)) {
                b.withDictionaryEncoding(path, false);
            }
            if (FooterRewrite.CHUNK_STATS_ONLY.contains(path)) {
                b.withStatisticsEnabled(path, false); // computed by the write support, see ChunkStats
            }
        }
        // Adaptive filters insert every value into each of their candidates (10 here), a cost paid on every row. A
        // sorted (compacted) output fills its row groups, whose threshold is sized from the input, so its rows per
        // group are known well enough for one fixed filter, which the shredder builds (bloomPlan): every parquet-java
        // filter is off there. Ingest files are often far smaller than one group, where a fixed filter sized from the
        // threshold would be mostly empty bytes. When the caller knows how many rows it writes (a WAL flush does), that
        // count bounds the distinct values of every group, so one fixed filter sized from it (parquet-java's, one
        // insertion per value) replaces the candidates; otherwise the adaptive filters pick their size.
        boolean parquetJavaFilters = options.bloomFilters() && !options.declareSorting();
        boolean knownRows = options.bloomRowsPerGroup() > 0;
        b.withBloomFilterEnabled(parquetJavaFilters);
        if (parquetJavaFilters) {
            b.withMaxBloomFilterBytes(maxBloomBytes()).withAdaptiveBloomFilterEnabled(!knownRows);
            for (ColumnDescriptor c : schema.messageType().getColumns()) {
                String path = String.join(".", c.getPath());
                boolean addressable = Arrays.stream(c.getPath()).noneMatch(p -> p.contains("."));
                if (!addressable) {
                    continue;
                }
                if (wantsBloom(c) && knownRows) {
                    b.withBloomFilterNDV(path, options.bloomRowsPerGroup()).withBloomFilterFPP(path, 0.01);
                } else if (wantsBloom(c)) {
                    // Candidates halve from maxBytes down: 10 of them reach ~1/512 of it for small row groups.
                    b.withBloomFilterCandidatesNumber(path, 10).withBloomFilterFPP(path, 0.01);
                } else {
                    b.withBloomFilterEnabled(path, false);
                }
            }
        }
        return encoding.apply(b).build();
    }

    /**
     * Rows a full row group of a compacted file is expected to hold, for sizing its fixed bloom filters: one row per
     * 64 bytes of threshold (demo-shaped rows compress to ~70 bytes). At FPP 0.01 that is the same size as the
     * {@code rowGroupBytes / 64} cap, so a group of smaller rows saturates nothing the cap did not already limit.
     */
    static long expectedRowsPerGroup(long rowGroupBytes) {
        return Math.max(1024, rowGroupBytes / 64);
    }

    /**
     * The fixed (compacted-file) bloom filters, which {@link ColumnShredder} builds itself with parquet-java's bits
     * (see {@link SplitBlockBloom}): for every bloom column, {@link #bloomNdv} values at FPP 0.01, except the ones
     * whose dotted names parquet-java's per-column settings could not address (resource.service.name, promoted
     * extras), which keep the cap-sized filter parquet-java gave them. Ingest files keep parquet-java's adaptive
     * filters.
     */
    private BloomPlan bloomPlan() {
        if (!options.bloomFilters() || !options.declareSorting()) {
            return BloomPlan.NONE;
        }
        int sized = SplitBlockBloom.sizeFor(bloomNdv(options), 0.01, maxBloomBytes());
        int capped = SplitBlockBloom.capSize(maxBloomBytes());
        Map<String, Integer> columns = new HashMap<>();
        for (ColumnDescriptor c : schema.messageType().getColumns()) {
            if (wantsBloom(c)) {
                boolean addressable = Arrays.stream(c.getPath()).noneMatch(p -> p.contains("."));
                columns.put(c.getPath()[0], addressable ? sized : capped);
            }
        }
        return new BloomPlan(columns);
    }

    /**
     * The largest token-index filter of a row group: 1/8 of the row-group threshold, between 1 KiB and 1 MiB. A
     * filter is sized by its group's distinct keys; the cap only bounds a group of unusually many (every row a
     * handful of unique ids), whose filter then answers "maybe" more often rather than growing without bound.
     */
    static int tokenFilterCap(long rowGroupBytes) {
        return (int) Math.max(1 << 10, Math.min(1 << 20, rowGroupBytes / 8));
    }

    private int maxBloomBytes() {
        return (int) Math.max(4 << 10, Math.min(1 << 20, options.rowGroupBytes() / 64));
    }

    /**
     * The distinct values a compacted group's fixed filter is sized for: the caller's estimate of rows per group
     * when it has one (a compactor knows its row count and input bytes), never above the threshold-derived default.
     * Without it, a partition of 4 KiB rows would get filters sized for 64-byte rows: ~2 MiB of mostly empty filter
     * per row group.
     */
    static long bloomNdv(WriterOptions options) {
        long byThreshold = expectedRowsPerGroup(options.rowGroupBytes());
        return options.bloomRowsPerGroup() > 0 ? Math.max(1024, Math.min(byThreshold, options.bloomRowsPerGroup()))
                : byThreshold;
    }

    /**
     * Pages of 1/32 of the row-group threshold (8 KiB .. 1 MiB). parquet-java counts open pages at their
     * uncompressed size when it decides to cut a row group; with its default 1 MiB pages, a 1 MiB compacted
     * threshold would cut groups several times smaller on disk than asked, because nothing is compressed before the
     * cut. Small pages are compressed early, so the on-disk group size tracks the threshold, and page-level pruning
     * gets finer as a bonus.
     */
    static int pageSizeFor(long rowGroupBytes) {
        return (int) Math.max(8 << 10, Math.min(1 << 20, rowGroupBytes / 32));
    }

    private boolean wantsBloom(ColumnDescriptor c) {
        if (c.getPath().length != 1) {
            return false;
        }
        String name = c.getPath()[0];
        if (BLOOM.contains(name)) {
            return true;
        }
        PrimitiveType t = schema.extras().get(name);
        return t != null && (t.getPrimitiveTypeName() == PrimitiveTypeName.INT64
                || (t.getPrimitiveTypeName() == PrimitiveTypeName.BINARY && LogSchema.isStringColumn(t)));
    }

    /** Appends one record; a record the schema cannot hold is rejected before anything is written. */
    public void write(LogRecord record) throws IOException {
        checkOpen();
        LogWriteSupport.validate(record, schema);
        try {
            writer.write(record);
        } catch (IOException | RuntimeException e) {
            failed = true;
            throw e;
        }
        rows++;
    }

    /**
     * Appends one {@link RowCodec} row of {@code length} bytes straight from its bytes (the compactor's path: no
     * record is rebuilt); the bytes are copied, the buffer may be reused. {@code strings} resolves the row's
     * references (null for a self-contained row) and must stay unchanged until the writer commits. Errors in the
     * row (an INT(8) out of range, an extra the schema cannot hold) may surface on a later write or at commit: the
     * writer shreds in batches, and refuses to commit after any error either way.
     */
    public void write(byte[] buf, int offset, int length, StringTable strings) throws IOException {
        checkOpen();
        try {
            writer.write(buf, offset, length, strings);
        } catch (IOException | RuntimeException e) {
            failed = true;
            throw e;
        }
        rows++;
    }

    /**
     * Row groups finished so far. A caller that sees it grow after a {@link #write} knows a group boundary was just
     * crossed: every row written is in a finished group and the open group is empty.
     */
    public int rowGroupsWritten() {
        return writer.groupsWritten();
    }

    /** Bytes of the output up to the end of its last finished row group; exact, and cheap (no waiting). */
    public long writtenBytes() {
        return writer.writtenBytes();
    }

    /**
     * A bound on the bytes a file of {@code rowGroups} groups writes after its last group: per group its fixed bloom
     * filters, its largest token-index filter, and for every column 2 KiB of chunk metadata and statistics plus 256
     * bytes of column and offset index per page it may have (a group of at most {@code groupBytes} in pages of the
     * writer's page size); plus 64 KiB for the schema and key-value metadata. Used to cut a compacted output into
     * files of a bounded size (docs/spec/storage.md, "The size band").
     */
    public long closingBytesBound(int rowGroups, long groupBytes) {
        long blooms = this.blooms.bytesByColumn().values().stream().mapToLong(Integer::longValue).sum();
        long token = tokenIndex == null ? 0 : tokenIndex.maxFilterBytes();
        long pages = groupBytes / pageSizeFor(options.rowGroupBytes()) + 2;
        long columns = schema.messageType().getColumns().size();
        long perGroup = blooms + token + columns * ((2L << 10) + 256 * pages);
        return (64L << 10) + rowGroups * perGroup;
    }

    /** Bytes already written plus bytes buffered for the open row group. */
    public long dataSize() throws IOException {
        return writer.dataSize();
    }

    public long rows() {
        return rows;
    }

    public LogSchema schema() {
        return schema;
    }

    /**
     * Finishes the Parquet file, rewrites its footer (sorted encodings; sorting_columns when declared) and publishes
     * the object atomically. On any failure nothing is published.
     */
    public WrittenFile commit() throws IOException {
        checkOpen();
        if (failed) {
            abort();
            throw new IOException("writer failed earlier; nothing published");
        }
        done = true;
        try {
            ParquetMetadata written = writer.finish(file::startCapture);
            AtomicOutputFile.Tail tail = file.takeTail();
            TokenIndexRegion index = tokenIndex != null ? tokenIndex.finish() : null;
            FooterRewrite.NewFooter footer = FooterRewrite.rewriteTail(tail.bytes(), tail.length(),
                    schema.messageType(), options.declareSorting(), options.statistics() ? writer.chunkStats() : null,
                    index == null ? null : start -> index.descriptor(tail.offset() + start));
            file.writeThrough(tail.bytes(), 0, footer.footerStart());
            if (index != null) {
                index.copyTo(file::writeThrough);
            }
            file.writeThrough(footer.footer(), 0, footer.footer().length);
            long bytes = tail.offset() + footer.footerStart() + (index == null ? 0 : index.size())
                    + footer.footer().length;
            if (output.position() != bytes) {
                throw new IOException("output position " + output.position() + " != file length " + bytes);
            }
            output.commit();
            LOG.debug("wrote {} rows, {} bytes, {} row groups", rows, bytes, written.getBlocks().size());
            return new WrittenFile(rows, bytes, written.getBlocks().size(), written);
        } catch (IOException | RuntimeException e) {
            output.abort();
            throw e;
        } finally {
            discardIndex();
        }
    }

    /**
     * Discards everything written; idempotent. The open row group is deliberately not flushed: that would compress
     * and write it only to throw it away.
     */
    public void abort() {
        done = true;
        writer.abandon();
        output.abort();
        discardIndex();
    }

    /** Frees the token index's spool (idempotent): a scratch file must not outlive its writer. */
    private void discardIndex() {
        if (tokenIndex == null) {
            return;
        }
        try {
            tokenIndex.discard();
        } catch (IOException e) {
            LOG.warn("could not delete the token index spool: {}", e.toString());
        }
    }

    /** Aborts unless {@link #commit()} ran: try-with-resources never publishes a half-written file. */
    @Override
    public void close() {
        abort();
    }

    private void checkOpen() throws IOException {
        if (done) {
            throw new IOException("writer already committed or aborted");
        }
    }
}
