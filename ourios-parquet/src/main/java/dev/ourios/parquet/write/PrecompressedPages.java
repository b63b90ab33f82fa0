package dev.ourios.parquet.write;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.SizeStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.statistics.geospatial.GeospatialStatistics;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * One column slice's data pages out for compression on {@link PageCompressors}, in the order its {@link ChunkWriter}s
 * wrote them, handed to their parquet-java page writers in that same order once compressed. The page writer still
 * writes the header, checksum, statistics and indexes; it asks the slice's compressor for the page's bytes, and that
 * compressor ({@link #compressor}) answers with the bytes compressed on the helper. So every page writer sees the
 * same calls, in the same order, with the same bytes as with inline compression: the file does not change.
 *
 * <p>At most {@code limit} pages are out at once (the oldest is waited for beyond that), so a slice holds at most
 * {@code limit} uncompressed pages and their compressed copies. A page that is already compressed is handed over
 * whenever the slice writes another ({@link #writeDone}); {@link #writeAll} waits for them all (a chunk's end, and
 * before the slice's buffered size is read: that size counts compressed pages, and it decides where row groups end).
 */
final class PrecompressedPages {
    private final PageCompressors helpers;
    private final int limit;
    private final ArrayDeque<Pending> out = new ArrayDeque<>();
    /**
     * Arrays of pages handed over, for the next pages' copies: pages reach 1 MiB, and under -Xmx512m (1 MiB G1
     * regions) an array of 512 KiB or more is a humongous allocation, so a new array per page is avoided.
     */
    private final ArrayDeque<byte[]> spare = new ArrayDeque<>();
    private final PassThrough compressor;

    /**
     * Arrays larger than this are not kept for reuse (pages are at most 1 MiB unless one value is larger); with the
     * pages out, a slice holds at most {@code limit} page arrays.
     */
    private static final int KEEP_ARRAY_BYTES = 2 << 20;

    private record Pending(PageWriter writer, byte[] page, int length, Future<BytesInput> compressed, int valueCount,
            int rowCount, Statistics<?> stats, SizeStatistics sizes, Encoding rl, Encoding dl, Encoding values) {
    }

    PrecompressedPages(PageCompressors helpers, BytesInputCompressor inline, int limit) {
        this.helpers = helpers;
        this.limit = limit;
        this.compressor = new PassThrough(inline);
    }

    /** The slice's page-store compressor: a page's bytes from the helper, anything else (dictionaries) inline. */
    BytesInputCompressor compressor() {
        return compressor;
    }

    /** Sends a data page out for compression; its page writer gets it once it is compressed. */
    void add(PageWriter writer, BytesInput body, int valueCount, int rowCount, Statistics<?> stats,
            SizeStatistics sizes, Encoding rl, Encoding dl, Encoding values) throws IOException {
        int length = Math.toIntExact(body.size());
        byte[] page = spare.poll();
        if (page == null || page.length < length) {
            page = new byte[length]; // a smaller spare is dropped: the spares drift to the slice's larger pages
        }
        body.writeAllTo(new Fill(page)); // a copy: the chunk writer reuses its buffers for the next page
        out.add(new Pending(writer, page, length, helpers.compress(page, length), valueCount, rowCount, stats, sizes,
                rl, dl, values));
        while (out.size() > limit) {
            writeOldest();
        }
        writeDone();
    }

    /** Hands over the oldest pages as long as they are compressed, without waiting. */
    private void writeDone() {
        while (!out.isEmpty() && out.peek().compressed().isDone()) {
            writeOldest();
        }
    }

    /** Waits for every page out and hands them over. */
    void writeAll() {
        while (!out.isEmpty()) {
            writeOldest();
        }
    }

    /** Stops waiting for the pages out (a page could not be written: the file is being discarded). */
    private void abandon() {
        for (Pending p : out) {
            p.compressed().cancel(true);
        }
        out.clear();
    }

    private void writeOldest() {
        Pending p = out.poll();
        try {
            BytesInput raw = BytesInput.from(p.page(), 0, p.length());
            compressor.expect(raw, await(p.compressed()));
            p.writer().writePage(raw, p.valueCount(), p.rowCount(), p.stats(), p.sizes(),
                    GeospatialStatistics.noopBuilder().build(), p.rl(), p.dl(), p.values());
            // The helper is done with the array and the page writer copied the page: the array is free again.
            if (p.page().length <= KEEP_ARRAY_BYTES && spare.size() + out.size() < limit) {
                spare.push(p.page());
            }
        } catch (IOException e) {
            abandon();
            throw new UncheckedIOException("cannot write a compressed page", e);
        } finally {
            compressor.expect(null, null);
        }
    }

    private static BytesInput await(Future<BytesInput> compressed) throws IOException {
        try {
            return compressed.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for a page's compression");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException("page compression failed", e.getCause());
        }
    }

    /** Copies a page into an array at least its size. */
    private static final class Fill extends OutputStream {
        private final byte[] target;
        private int at;

        Fill(byte[] target) {
            this.target = target;
        }

        @Override
        public void write(int b) {
            target[at++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            System.arraycopy(b, off, target, at, len);
            at += len;
        }
    }

    /** Answers the page writer's compress call for the page being handed over; compresses anything else inline. */
    private static final class PassThrough implements BytesInputCompressor {
        private final BytesInputCompressor inline;
        private BytesInput raw;
        private BytesInput compressed;

        PassThrough(BytesInputCompressor inline) {
            this.inline = inline;
        }

        void expect(BytesInput raw, BytesInput compressed) {
            this.raw = raw;
            this.compressed = compressed;
        }

        @Override
        public BytesInput compress(BytesInput bytes) throws IOException {
            if (bytes == raw) {
                BytesInput c = compressed;
                expect(null, null);
                return c;
            }
            return inline.compress(bytes);
        }

        @Override
        public CompressionCodecName getCodecName() {
            return inline.getCodecName();
        }

        @Override
        public void release() {
            inline.release();
        }
    }
}
