package dev.ourios.parquet.write;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.parquet.LogSchema;
import dev.ourios.parquet.index.TokenIndexBuilder;
import dev.ourios.parquet.rows.RowCodec;
import dev.ourios.parquet.rows.StringTable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.MessageType;

/**
 * Drives parquet-java's column writers for one file in two column slices, so a second core can encode half of the
 * columns (encoding the columns is most of a compaction's work: on one thread, it would set the compaction's pace).
 * This replaces parquet-java's {@code InternalParquetRecordWriter}, whose row-group logic it follows.
 *
 * <p>The schema's top-level fields are cut in two contiguous slices, {@code [0, k)} and {@code [k, n)}, with {@code k}
 * the index of {@code trace_id} (the cut that best balances the slices' work): each slice has its own column store,
 * page store and compressor (parquet-java's compressors are not thread-safe), its own write support, which shreds every
 * row into a {@link ColumnShredder} that keeps only its fields. At a row-group flush the slices' column chunks are
 * written one after the other, which is schema order, so the file is an ordinary Parquet file.
 *
 * <p>Rows are shredded in batches (at most {@link #BATCH_ROWS} rows or {@link #BATCH_BYTES} bytes): with two
 * threads, each slice has a helper thread of its own that shreds every batch into it, in order, while the caller
 * goes on filling the next batch (up to {@link #IN_FLIGHT} batches are out at once), so the caller's own work
 * between batches (a compaction's merge) overlaps both slices'. Both slices finish every batch before the row-group
 * size is checked or a group is flushed. The size is checked at parquet-java's row counts
 * (from 100 rows, then halfway to where the group should fill), which depend only on earlier checks, and a column's
 * pages depend only on its slice's rows, so the bytes written are the same with one thread or two, from records or
 * from encoded rows, run after run (but not with another cut: see docs/architecture.md). With two threads and our
 * own pages, data pages are also compressed on two more helpers ({@link PageCompressors}, {@link PrecompressedPages}),
 * which changes no byte either.
 * Encoded rows are copied into the batch (the caller may reuse its buffer); records are immutable and kept.
 *
 * <p>With a token index ({@link TokenIndexBuilder}), every batch is also added to the index, on a third helper with
 * two threads (in batch order, like the slices), and the index's group is ended when the row group is flushed.
 */
final class RowGroupWriter {
    static final int SLICES = 2;
    static final int BATCH_ROWS = 512;
    static final int BATCH_BYTES = 1 << 20;
    /**
     * Batches handed to the helpers and not yet shredded by both, at most: enough that neither helper waits for
     * the other or for the caller between batches, few enough to stay small ({@code IN_FLIGHT * BATCH_BYTES}).
     */
    static final int IN_FLIGHT = 3;
    /** Pages each slice may have out for compression at once (each at most a page's size, raw and compressed). */
    static final int PAGES_OUT = 4;

    private final ParquetFileWriter file;
    private final ParquetProperties props;
    private final long rowGroupBytes;
    private final int rowGroupRows;
    private final Slice[] slices;
    /** One single-thread executor per slice (so each slice sees its batches in order), or null with one thread. */
    private final ExecutorService[] helpers;
    /** Helpers compressing both slices' data pages, or null (with one thread, or parquet-java's column writers). */
    private final PageCompressors pageCompressors;
    /** The file's token index, or null. */
    private final TokenIndexBuilder index;
    /** The token index's helper (batches in order), or null with one thread or no index. */
    private final ExecutorService indexHelper;
    private Batch batch = new Batch();
    /** Batches the helpers may still be shredding, oldest first, with both slices' futures. */
    private final ArrayDeque<Shredding> inFlight = new ArrayDeque<>();
    private final ArrayDeque<Batch> free = new ArrayDeque<>();
    private boolean groupOpen;
    private int groupOrdinal;
    private long groupRows;
    /** The row count of the open group at which its buffered size is checked next (parquet-java's cadence). */
    private long nextCheck;
    private long writtenBytes;

    private record Shredding(Batch batch, Future<?>[] slices) {
    }

    RowGroupWriter(ParquetFileWriter file, MessageType schema, ParquetProperties props,
            ParquetConfiguration codecConf, long rowGroupBytes, int threads, LogSchema logSchema, BloomPlan bloomPlan,
            boolean ownPages, TokenIndexBuilder index) throws IOException {
        this.file = file;
        this.index = index;
        this.props = props;
        this.rowGroupBytes = rowGroupBytes;
        this.rowGroupRows = props.getRowGroupRowCountLimit();
        int n = schema.getFieldCount();
        int cut = Math.min(n, schema.getFieldIndex(Columns.TRACE_ID));
        this.pageCompressors = threads > 1 && ownPages
                ? new PageCompressors(SLICES, codecConf, "ourios-page-compressor") : null;
        this.slices = new Slice[] {
            new Slice(schema, 0, cut, codecConf, logSchema, bloomPlan, ownPages, pageCompressors),
            new Slice(schema, cut, n, codecConf, logSchema, bloomPlan, ownPages, pageCompressors)};
        if (threads > 1) {
            this.helpers = new ExecutorService[SLICES];
            for (int i = 0; i < SLICES; i++) {
                String name = "ourios-column-writer-" + i;
                helpers[i] = Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, name);
                    t.setDaemon(true);
                    return t;
                });
            }
        } else {
            this.helpers = null;
        }
        this.indexHelper = threads > 1 && index != null ? Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "ourios-token-index");
            t.setDaemon(true);
            return t;
        }) : null;
        this.nextCheck = props.getMinRowCountForPageSizeCheck();
        file.start();
    }

    void write(LogRecord r) throws IOException {
        batch.add(r);
        afterAdd();
    }

    void write(byte[] buf, int offset, int length, StringTable strings) throws IOException {
        batch.add(buf, offset, length, strings);
        afterAdd();
    }

    /** Row groups written to the file so far. */
    int groupsWritten() {
        return groupOrdinal;
    }

    /** Bytes of the file up to the end of its last finished row group (no waiting: only the caller's thread sets it). */
    long writtenBytes() {
        return writtenBytes;
    }

    /** Bytes of finished row groups plus what the open one buffers (rows not yet shredded are not counted). */
    long dataSize() throws IOException {
        long buffered = 0;
        if (groupOpen) {
            awaitHelpers(); // the sizes of the helpers' column stores
            for (Slice s : slices) {
                buffered += s.columns.getBufferedSize();
            }
        }
        return writtenBytes + buffered + batch.bytes;
    }

    /** Writes what is left, then the footer; {@code beforeFooter} runs once the last row group is written. */
    ParquetMetadata finish(Runnable beforeFooter) throws IOException {
        try {
            shredBatch();
            flushGroup();
            beforeFooter.run();
            file.end(Map.of());
            return file.getFooter();
        } finally {
            stopHelper();
        }
    }

    /** Every row group's chunk statistics, each slice's columns from the slice that wrote them. */
    List<ChunkStats.Group> chunkStats() {
        List<ChunkStats.Group> merged = slices[0].support.chunkStats();
        List<ChunkStats.Group> other = slices[1].support.chunkStats();
        for (int g = 0; g < merged.size(); g++) {
            for (int slot = 0; slot < LogWriteSupport.STATS_COLUMNS.length; slot++) {
                if (slices[1].owns(LogWriteSupport.STATS_COLUMNS[slot])) {
                    merged.get(g).take(slot, other.get(g));
                }
            }
        }
        return merged;
    }

    /** Stops the helpers without writing anything more (the file is being discarded). */
    void abandon() {
        stopHelper();
    }

    private void stopHelper() {
        if (helpers != null) {
            for (ExecutorService h : helpers) {
                h.shutdownNow();
            }
        }
        if (indexHelper != null) {
            indexHelper.shutdownNow();
        }
        if (pageCompressors != null) {
            // After the helpers: nothing is out after a finished file, and after a failure the interrupted helpers
            // stop waiting for pages (the queues are theirs; they are not touched from here).
            pageCompressors.close();
        }
        for (Slice s : slices) {
            s.codecs.release(); // the slices' compressors (pooled codec resources)
        }
    }

    /**
     * Shreds the batch when it holds {@link #BATCH_ROWS} rows or weighs {@link #BATCH_BYTES}, and always at the
     * group's next size-check point and its row cap. Only check points look at sizes, and they are row counts
     * computed from earlier checks, so where else a batch ends does not change the output.
     */
    private void afterAdd() throws IOException {
        long inGroup = groupRows + batch.n;
        if (batch.n >= BATCH_ROWS || batch.bytes >= BATCH_BYTES || inGroup >= nextCheck || inGroup >= rowGroupRows) {
            shredBatch();
        }
    }

    private void shredBatch() throws IOException {
        if (batch.n == 0) {
            return;
        }
        if (!groupOpen) {
            for (Slice s : slices) {
                s.startGroup(props, groupOrdinal);
            }
            groupOpen = true;
        }
        Batch b = batch;
        int rows = b.n;
        if (helpers == null) {
            slices[0].shred(b);
            slices[1].shred(b);
            if (index != null) {
                b.addTo(index);
            }
            b.clear();
        } else {
            Future<?>[] work = submitToBoth(slice -> slice.shred(b));
            if (indexHelper != null) {
                work = Arrays.copyOf(work, SLICES + 1);
                work[SLICES] = indexHelper.submit(() -> {
                    b.addTo(index);
                    return null;
                });
            } else if (index != null) {
                b.addTo(index);
            }
            inFlight.add(new Shredding(b, work));
            if (inFlight.size() >= IN_FLIGHT) {
                awaitOldest();
            }
            Batch next = free.poll();
            batch = next != null ? next : new Batch();
        }
        groupRows += rows;
        if (groupRows >= rowGroupRows) {
            flushGroup();
            return;
        }
        if (groupRows < nextCheck) {
            return;
        }
        awaitHelpers(); // both slices' sizes, with every row so far
        long buffered = 0;
        for (Slice s : slices) {
            buffered += s.columns.getBufferedSize();
        }
        long rowBytes = Math.max(1, buffered / groupRows);
        // As parquet-java's InternalParquetRecordWriter: cut when within ~2 rows of the threshold (better slightly
        // under than over), else look again halfway to where the group should fill, at most 10,000 rows on.
        if (buffered > rowGroupBytes - 2 * rowBytes) {
            flushGroup();
        } else {
            nextCheck = Math.min(Math.max(props.getMinRowCountForPageSizeCheck(),
                    (groupRows + rowGroupBytes / rowBytes) / 2), groupRows + props.getMaxRowCountForPageSizeCheck());
        }
    }

    private void flushGroup() throws IOException {
        if (!groupOpen) {
            return;
        }
        awaitHelpers();
        onBothSlices(Slice::flushColumns);
        file.startBlock(groupRows);
        for (Slice s : slices) {
            s.pages.flushToFileWriter(file);
        }
        file.endBlock();
        if (index != null) {
            index.endGroup(); // every batch of the group was added: awaitHelpers above waited for the index too
        }
        for (Slice s : slices) {
            s.closeGroup();
        }
        writtenBytes = file.getPos();
        groupOpen = false;
        groupOrdinal++;
        nextCheck = Math.min(Math.max(props.getMinRowCountForPageSizeCheck(), groupRows / 2),
                props.getMaxRowCountForPageSizeCheck());
        groupRows = 0;
    }

    /** Waits until both slices have shredded every batch handed out; a helper's failure is thrown here. */
    private void awaitHelpers() throws IOException {
        while (!inFlight.isEmpty()) {
            awaitOldest();
        }
    }

    /** Waits for both slices' shred of the oldest batch out, then reuses that batch. */
    private void awaitOldest() throws IOException {
        Shredding s = inFlight.poll();
        try {
            for (Future<?> f : s.slices()) {
                await(f);
            }
        } catch (IOException | RuntimeException e) {
            for (Shredding other : inFlight) {
                for (Future<?> f : other.slices()) {
                    f.cancel(true);
                }
            }
            inFlight.clear();
            throw e;
        }
        s.batch().clear();
        free.add(s.batch());
    }

    /** Runs {@code work} on both slices, each on its helper (when there are helpers); waits for both. */
    private void onBothSlices(SliceWork work) throws IOException {
        if (helpers == null) {
            work.run(slices[0]);
            work.run(slices[1]);
            return;
        }
        Future<?>[] done = submitToBoth(work);
        try {
            for (Future<?> f : done) {
                await(f);
            }
        } catch (IOException | RuntimeException e) {
            for (Future<?> f : done) {
                f.cancel(true);
            }
            throw e;
        }
    }

    /** Hands {@code work} to each slice's helper (each runs its slice's work in submission order). */
    private Future<?>[] submitToBoth(SliceWork work) {
        Future<?>[] submitted = new Future<?>[SLICES];
        for (int i = 0; i < SLICES; i++) {
            Slice slice = slices[i];
            submitted[i] = helpers[i].submit(() -> {
                work.run(slice);
                return null;
            });
        }
        return submitted;
    }

    private static void await(Future<?> work) throws IOException {
        try {
            work.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for the column writer");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException("column writer failed", cause);
        }
    }

    @FunctionalInterface
    private interface SliceWork {
        void run(Slice s) throws IOException;
    }

    /** One contiguous range of top-level fields, with everything parquet-java needs to write its columns. */
    private static final class Slice {
        final int from;
        final int to;
        final MessageType schema;
        final CodecFactory codecs;
        /** The page stores' compressor: ZSTD inline, or the pages compressed by the page compressors. */
        final BytesInputCompressor compressor;
        /** This slice's pages out for compression, or null when they are compressed inline. */
        final PrecompressedPages precompressed;
        final LogWriteSupport support;
        final BloomPlan bloomPlan;
        /** Pages encoded by {@link ChunkWriteStore} rather than parquet-java's column writers. */
        final boolean ownPages;
        ColumnChunkPageWriteStore pages;
        ColumnWriteStore columns;
        ColumnShredder shredder;

        Slice(MessageType full, int from, int to, ParquetConfiguration codecConf, LogSchema logSchema,
                BloomPlan bloomPlan, boolean ownPages, PageCompressors pageCompressors) {
            this.bloomPlan = bloomPlan;
            this.ownPages = ownPages;
            this.from = from;
            this.to = to;
            this.schema = new MessageType(full.getName(), full.getFields().subList(from, to));
            this.codecs = new CodecFactory(codecConf, 0);
            BytesInputCompressor zstd = codecs.getCompressor(CompressionCodecName.ZSTD);
            this.precompressed = pageCompressors != null ? new PrecompressedPages(pageCompressors, zstd, PAGES_OUT)
                    : null;
            this.compressor = precompressed != null ? precompressed.compressor() : zstd;
            this.support = new LogWriteSupport(logSchema);
        }

        boolean owns(int index) {
            return index >= from && index < to;
        }

        void startGroup(ParquetProperties props, int ordinal) {
            pages = new ColumnChunkPageWriteStore(compressor, schema, props.getAllocator(),
                    props.getColumnIndexTruncateLength(), props.getPageWriteChecksumEnabled(), null, ordinal);
            columns = ownPages ? new ChunkWriteStore(schema, pages, precompressed, props)
                    : props.newColumnWriteStore(schema, pages, pages);
            shredder = new ColumnShredder(columns, schema, from, bloomPlan);
            support.prepareForWrite(shredder);
        }

        void shred(Batch b) {
            for (int i = 0; i < b.n; i++) {
                LogRecord r = b.records[i];
                if (r != null) {
                    support.writeRecord(r);
                } else {
                    support.writeEncoded(b.arena[i], b.offsets[i], b.strings[i]);
                }
            }
        }

        void flushColumns() {
            columns.flush();
            shredder.writeBloomFilters(pages);
        }

        void closeGroup() {
            columns.close();
            pages.close();
            columns = null;
            pages = null;
            shredder = null;
        }
    }

    /**
     * Rows waiting to be shredded: records as they are, encoded rows copied into pages of the batch (a row larger
     * than a page gets an array of its own).
     */
    private static final class Batch {
        private static final int PAGE = 256 << 10;
        LogRecord[] records = new LogRecord[BATCH_ROWS];
        byte[][] arena = new byte[BATCH_ROWS][];
        int[] offsets = new int[BATCH_ROWS];
        StringTable[] strings = new StringTable[BATCH_ROWS];
        private final List<byte[]> pages = new ArrayList<>();
        private int page;
        private int fill;
        int n;
        long bytes;

        void add(LogRecord r) {
            ensureRoom();
            records[n] = r;
            bytes += r.roughHeapBytes();
            n++;
        }

        void add(byte[] buf, int offset, int length, StringTable table) {
            ensureRoom();
            byte[] target;
            int at;
            if (length > PAGE) {
                target = Arrays.copyOfRange(buf, offset, offset + length);
                at = 0;
            } else {
                if (pages.isEmpty() || fill + length > PAGE) {
                    if (!pages.isEmpty()) {
                        page++;
                    }
                    if (page == pages.size()) {
                        pages.add(new byte[PAGE]);
                    }
                    fill = 0;
                }
                target = pages.get(page);
                at = fill;
                System.arraycopy(buf, offset, target, at, length);
                fill += length;
            }
            records[n] = null;
            arena[n] = target;
            offsets[n] = at;
            strings[n] = table;
            bytes += length;
            n++;
        }

        private void ensureRoom() {
            if (n == records.length) { // only when a caller's rows outnumber BATCH_ROWS before a shred (no caller does)
                int cap = n * 2;
                records = Arrays.copyOf(records, cap);
                arena = Arrays.copyOf(arena, cap);
                offsets = Arrays.copyOf(offsets, cap);
                strings = Arrays.copyOf(strings, cap);
            }
        }

        /** Adds every row of the batch to the token index (encoded rows decoded into records). */
        void addTo(TokenIndexBuilder index) {
            for (int i = 0; i < n; i++) {
                index.add(records[i] != null ? records[i] : RowCodec.decode(arena[i], offsets[i], strings[i]));
            }
        }

        void clear() {
            Arrays.fill(records, 0, n, null);
            Arrays.fill(arena, 0, n, null);
            Arrays.fill(strings, 0, n, null);
            n = 0;
            bytes = 0;
            page = 0;
            fill = 0;
            if (pages.size() > 4) { // keep a few pages for the next batch, not a huge row's worth
                pages.subList(4, pages.size()).clear();
            }
        }
    }
}
