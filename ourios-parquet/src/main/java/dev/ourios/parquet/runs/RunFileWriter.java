package dev.ourios.parquet.runs;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import dev.ourios.parquet.rows.RowCodec;
import dev.ourios.parquet.write.AtomicOutputFile;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.store.AtomicOutput;
import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;

/**
 * Writes one sorted run of the compactor's external sort: a Parquet file (ZSTD 1, no dictionary, no statistics,
 * no bloom filters, no page index) of one REQUIRED BINARY column, each value a self-contained {@link RowCodec} row,
 * one PLAIN data page per row group. Rows may reference the run's string table (low-cardinality values such as
 * resource attributes, stored once), which the footer carries; so spilling copies rows without re-encoding them.
 *
 * <p>Why one column and not the log schema: a spilled row is written and read back exactly once, by this process.
 * Shredding it into thirty columns and reassembling it again would cost more than the rest of the sort together. And
 * why pages are built here rather than through parquet-java's column writers: a REQUIRED top-level column has no
 * repetition or definition levels, so a PLAIN page is just {@code [u32 length][bytes]} per value; parquet-java's writer
 * would add per-value statistics and buffer growth for nothing (run row groups are small: they are the merge's read
 * batches). The file is ordinary Parquet written through {@link ParquetFileWriter}: parquet-java, DuckDB or
 * {@code parquet-cli} can open it when debugging.
 *
 * <p>Row groups whose bytes do not compress (random bodies: the reference writer's shape) are stored UNCOMPRESSED
 * (the codec is per column chunk, so each group says which): every {@link #SAMPLE_EVERY}th group, a
 * {@link #SAMPLE_BYTES} slice from the middle of its page is compressed first, and that group and the next ones are
 * compressed only if the slice shrank by more than 10 %. ZSTD on incompressible bytes costs as much CPU as on any
 * other and gains nothing. The decision depends only on the run's bytes, so a run is still the same file whichever
 * thread compressed what.
 */
public final class RunFileWriter implements Closeable {
    static final MessageType SCHEMA = Types.buildMessage()
            .required(PrimitiveTypeName.BINARY).named("row")
            .named("ourios_sort_run");
    private static final ColumnDescriptor COLUMN = SCHEMA.getColumns().get(0);
    /** Footer key of the run's string table (see {@link RowCodec}: rows may reference it). */
    static final String STRINGS_KEY = "ourios.sort_run.strings";

    private final AtomicOutput output;
    private final ParquetFileWriter writer;
    private final ZstdCompressCtx zstd = new ZstdCompressCtx();
    private final int rowGroupRows;
    private final long rowGroupBytes;
    private final List<byte[]> strings;
    private static final int INITIAL_PAGE_BYTES = 64 << 10;
    /** The slice of a page compressed to decide whether to compress the page (pages under twice this always are). */
    static final int SAMPLE_BYTES = 16 << 10;
    /** Groups per decision: the first of every this many is sampled, and its decision holds for the others. */
    static final int SAMPLE_EVERY = 8;
    private byte[] sample = new byte[0];
    private long groups;
    /** False: every group is stored UNCOMPRESSED (the caller chose a raw run). */
    private final boolean compression;
    private boolean compressing = true;
    private byte[] page = new byte[INITIAL_PAGE_BYTES];
    private byte[] compressed = new byte[0];
    /** Compresses row groups on helper threads, or null (compressed here, one group at a time). */
    private final RunCompressors compressors;
    /** Row groups handed to the compressors, in order, not yet written. */
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    /** Page and output arrays back from the compressors, for the next groups (a run allocates a few, not one each). */
    private final ArrayDeque<byte[]> freePages = new ArrayDeque<>();
    private final ArrayDeque<byte[]> freeOutputs = new ArrayDeque<>();
    private int pageFill;
    private int pageRows;
    private long rows;
    private boolean done;
    /** The footer is written: no more rows; {@link #publish} is what is left. */
    private boolean finished;

    /**
     * Row groups hold at most {@code rowGroupRows} rows (the merge's batch) and about {@code rowGroupBytes};
     * {@code strings} is the table (UTF-8 values by id) the rows' references point into, stored in the footer.
     */
    public RunFileWriter(AtomicOutput output, int rowGroupRows, long rowGroupBytes, List<byte[]> strings)
            throws IOException {
        this(output, rowGroupRows, rowGroupBytes, strings, null);
    }

    /**
     * As above, with the row groups compressed by {@code compressors} while the caller fills the next ones (up to
     * twice as many groups as compressor threads are out at once); the file is the same.
     */
    public RunFileWriter(AtomicOutput output, int rowGroupRows, long rowGroupBytes, List<byte[]> strings,
            RunCompressors compressors) throws IOException {
        this(output, rowGroupRows, rowGroupBytes, strings, compressors, true);
    }

    /**
     * As above; {@code compression} false stores every row group UNCOMPRESSED (a raw run: several times the bytes on
     * disk of a compressed one, and no CPU spent compressing or decompressing it).
     */
    public RunFileWriter(AtomicOutput output, int rowGroupRows, long rowGroupBytes, List<byte[]> strings,
            RunCompressors compressors, boolean compression) throws IOException {
        this.compression = compression;
        this.output = output;
        this.compressors = compressors;
        this.strings = List.copyOf(strings);
        this.rowGroupRows = rowGroupRows;
        this.rowGroupBytes = rowGroupBytes;
        try {
            zstd.setLevel(WriterOptions.SPILL_ZSTD_LEVEL);
            this.writer = new ParquetFileWriter(new AtomicOutputFile(output), SCHEMA,
                    ParquetFileWriter.Mode.OVERWRITE, rowGroupBytes, 0, 64, Integer.MAX_VALUE, false);
            writer.start();
        } catch (IOException | RuntimeException e) {
            zstd.close();
            output.abort();
            throw e;
        }
    }

    public void write(byte[] buf, int offset, int length) throws IOException {
        if (done || finished) {
            throw new IOException("run already finished, committed or aborted");
        }
        try {
            if (pageFill + 4 + length > page.length) {
                page = Arrays.copyOf(page, Math.max(page.length * 2, pageFill + 4 + length));
            }
            page[pageFill] = (byte) length;
            page[pageFill + 1] = (byte) (length >>> 8);
            page[pageFill + 2] = (byte) (length >>> 16);
            page[pageFill + 3] = (byte) (length >>> 24);
            System.arraycopy(buf, offset, page, pageFill + 4, length);
            pageFill += 4 + length;
            pageRows++;
            rows++;
            if (pageRows >= rowGroupRows || pageFill >= rowGroupBytes) {
                flushRowGroup();
            }
        } catch (IOException | RuntimeException e) {
            abort();
            throw e;
        }
    }

    private void flushRowGroup() throws IOException {
        // A group holding a row far larger than the byte cap (a 16 MiB body) is compressed here, after the groups
        // before it, and its arrays are dropped afterwards: several such pages out at once, each with its
        // compressed copy, would multiply the largest row's footprint (ResourceLimitsTest runs one under -Xmx192m).
        boolean oversized = pageFill > 2 * rowGroupBytes;
        if (compression && groups++ % SAMPLE_EVERY == 0) {
            compressing = worthCompressing(page, pageFill);
        }
        boolean compress = compression && (compressing || pageFill <= 2 * SAMPLE_BYTES);
        if (compressors != null && !oversized) {
            pending.add(new Pending(compress ? compressors.compress(page, pageFill, freeOutputs.poll()) : null, page,
                    pageRows, pageFill));
            byte[] next = freePages.poll();
            page = next != null && next.length >= page.length ? next : new byte[page.length];
            pageFill = 0;
            pageRows = 0;
            while (pending.size() > 2 * compressors.threads()) {
                writeOldest();
            }
            return;
        }
        while (!pending.isEmpty()) {
            writeOldest();
        }
        if (compress) {
            int bound = (int) Zstd.compressBound(pageFill);
            if (compressed.length < bound) {
                compressed = new byte[bound];
            }
            int size = zstd.compressByteArray(compressed, 0, compressed.length, page, 0, pageFill);
            writeGroup(pageRows, pageFill, compressed, size, CompressionCodecName.ZSTD);
        } else {
            writeGroup(pageRows, pageFill, page, pageFill, CompressionCodecName.UNCOMPRESSED);
        }
        pageFill = 0;
        pageRows = 0;
        if (oversized) {
            page = new byte[INITIAL_PAGE_BYTES];
            compressed = new byte[0];
            freePages.clear();
            freeOutputs.clear();
        }
    }

    /**
     * Whether {@code page[0, length)} is worth compressing: its middle {@link #SAMPLE_BYTES}, compressed here, shrank
     * by more than 10 % (pages up to twice the sample are always compressed).
     */
    private boolean worthCompressing(byte[] page, int length) {
        if (length <= 2 * SAMPLE_BYTES) {
            return true;
        }
        int bound = (int) Zstd.compressBound(SAMPLE_BYTES);
        if (sample.length < bound) {
            sample = new byte[bound];
        }
        int from = (length - SAMPLE_BYTES) / 2;
        int size = zstd.compressByteArray(sample, 0, sample.length, page, from, SAMPLE_BYTES);
        return size < SAMPLE_BYTES - SAMPLE_BYTES / 10;
    }

    /** Writes one row group: one PLAIN page of {@code rows} rows, {@code bytes[0, size)} in {@code codec}. */
    private void writeGroup(int rows, int rawBytes, byte[] bytes, int size, CompressionCodecName codec)
            throws IOException {
        writer.startBlock(rows);
        writer.startColumn(COLUMN, rows, codec);
        writer.writeDataPage(rows, rawBytes, BytesInput.from(bytes, 0, size), Encoding.RLE, Encoding.RLE,
                Encoding.PLAIN);
        writer.endColumn();
        writer.endBlock();
    }

    /**
     * A row group out for compression (or stored as it is: {@code compressed} null): its page (returned to
     * {@link #freePages} once written), rows and size.
     */
    private record Pending(Future<RunCompressors.Compressed> compressed, byte[] page, int rows, int rawBytes) {
    }

    /** Writes the oldest compressed row group (groups are written in the order they were cut). */
    private void writeOldest() throws IOException {
        Pending p = pending.poll();
        if (p.compressed() == null) {
            writeGroup(p.rows(), p.rawBytes(), p.page(), p.rawBytes(), CompressionCodecName.UNCOMPRESSED);
            freePages.add(p.page());
            return;
        }
        RunCompressors.Compressed c;
        try {
            c = p.compressed().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for a run's compression");
        } catch (ExecutionException e) {
            throw new IOException("compressing a sort run failed: " + e.getCause(), e.getCause());
        }
        writeGroup(p.rows(), p.rawBytes(), c.bytes(), c.size(), CompressionCodecName.ZSTD);
        freePages.add(p.page());
        freeOutputs.add(c.bytes()); // written: ParquetFileWriter copied the page to the output
    }

    /** {@code [u32 count]([u32 length][bytes])*}, Base64 (footer values are strings). */
    static String encodeTable(List<byte[]> strings) {
        int size = 4;
        for (byte[] b : strings) {
            size += 4 + b.length;
        }
        ByteBuffer buf = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        buf.putInt(strings.size());
        for (byte[] b : strings) {
            buf.putInt(b.length).put(b);
        }
        return Base64.getEncoder().encodeToString(buf.array());
    }

    static List<byte[]> decodeTable(String encoded) {
        ByteBuffer buf = ByteBuffer.wrap(Base64.getDecoder().decode(encoded)).order(ByteOrder.LITTLE_ENDIAN);
        int n = buf.getInt();
        List<byte[]> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte[] b = new byte[buf.getInt()];
            buf.get(b);
            out.add(b);
        }
        return out;
    }

    public long rows() {
        return rows;
    }

    /** Finishes and publishes the run. */
    public void commit() throws IOException {
        finish();
        publish();
    }

    /**
     * Writes what is left of the run and its footer: the run is complete, but not yet published (durable under its
     * name). The rows' arrays handed to {@link #write} are no longer read.
     */
    public void finish() throws IOException {
        if (done || finished) {
            throw new IOException("run already finished, committed or aborted");
        }
        try {
            if (pageRows > 0) {
                flushRowGroup();
            }
            while (!pending.isEmpty()) {
                writeOldest();
            }
            writer.end(Map.of(STRINGS_KEY, encodeTable(strings)));
            finished = true;
            zstd.close();
        } catch (IOException | RuntimeException e) {
            abort();
            throw e;
        }
    }

    /**
     * Publishes a {@link #finish finished} run: syncs it and moves it under its name. Touches nothing the writing
     * thread still uses, so it may run on another thread (a sorter publishes runs in the background).
     */
    public void publish() throws IOException {
        if (!finished || done) {
            throw new IOException("run not finished, or already committed or aborted");
        }
        done = true;
        try {
            output.commit();
        } catch (IOException | RuntimeException e) {
            output.abort();
            throw e;
        }
    }

    public void abort() {
        for (Pending p : pending) {
            if (p.compressed() != null) {
                p.compressed().cancel(true);
            }
        }
        pending.clear();
        if (!done) {
            done = true;
            if (!finished) {
                zstd.close();
            }
        }
        output.abort();
    }

    @Override
    public void close() {
        if (!done) {
            abort();
        }
    }
}
