package dev.ourios.parquet.read;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * The page decompression of one reader. ZSTD pages (every file this store writes) are decompressed in one native
 * call into an array of the size the page header gives, with one decompression context the reader keeps. parquet-java's
 * codec instead opens a streaming decompressor with its own context and buffers for every page and copies the page
 * out of it through a stream; on a query that reads every page of a file, that was most of the time spent outside
 * our decoding (docs/benchmarks.md). Other codecs go to parquet-java's factory.
 *
 * <p>One per reader and used by its thread only, as parquet-java's own factory is; {@link #release()} (called when
 * the reader closes) frees the context.
 */
final class PageDecompressors implements CompressionCodecFactory {
    private final CompressionCodecFactory others;
    private ZstdPages zstd;

    PageDecompressors(CompressionCodecFactory others) {
        this.others = others;
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
        if (codec != CompressionCodecName.ZSTD) {
            return others.getDecompressor(codec);
        }
        if (zstd == null) {
            zstd = new ZstdPages();
        }
        return zstd;
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
        return others.getCompressor(codec);
    }

    @Override
    public void release() {
        if (zstd != null) {
            zstd.release();
            zstd = null;
        }
        others.release();
    }

    /** One-shot ZSTD decompression of whole pages (one or more frames each) with a context kept between pages. */
    private static final class ZstdPages implements BytesInputDecompressor {
        private ZstdDecompressCtx context = new ZstdDecompressCtx();

        @Override
        public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
            // The page as a view of the chunk's buffer where it has an array: toByteArray() would copy every
            // compressed page once more (through a channel) before decompressing it.
            ByteBuffer page = bytes.toByteBuffer();
            byte[] in;
            int from;
            int length = page.remaining();
            if (page.hasArray()) {
                in = page.array();
                from = page.arrayOffset() + page.position();
            } else {
                in = new byte[length];
                page.duplicate().get(in);
                from = 0;
            }
            byte[] out = new byte[uncompressedSize];
            int n;
            try {
                n = context.decompressByteArray(out, 0, out.length, in, from, length);
            } catch (ZstdException e) {
                throw new IOException("ZSTD page of " + length + " bytes does not decompress to the "
                        + uncompressedSize + " bytes its header gives: " + e.getMessage(), e);
            }
            if (n != uncompressedSize) {
                throw new IOException("ZSTD page of " + length + " bytes decompresses to " + n
                        + " bytes, its header gives " + uncompressedSize);
            }
            return BytesInput.from(out);
        }

        @Override
        public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
                throws IOException {
            byte[] in = new byte[compressedSize];
            input.duplicate().get(in);
            byte[] out = decompress(BytesInput.from(in), uncompressedSize).toByteArray();
            output.duplicate().put(out);
        }

        @Override
        public void release() {
            if (context != null) {
                context.close();
                context = null;
            }
        }
    }
}
