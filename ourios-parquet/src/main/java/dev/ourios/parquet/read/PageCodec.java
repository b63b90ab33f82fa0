package dev.ourios.parquet.read;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputDecompressor;

/**
 * The decompression of one codec's pages: from the page as an array range (a view of the chunk's buffer where it has
 * an array, so a compressed page is not copied before it is decompressed) into an array of exactly the size the page
 * header gives. Whatever the codec library throws, and a page that decompresses to another size, is an
 * {@link IOException} naming the codec and both sizes, never a wrong page.
 */
abstract class PageCodec implements BytesInputDecompressor {
    private final String codec;

    PageCodec(String codec) {
        this.codec = codec;
    }

    /**
     * Decompresses {@code in[from, from + length)} into {@code out} (of the page's uncompressed size) and returns
     * how many bytes it wrote; more than {@code out} holds is an error of the codec library or of this method.
     */
    abstract int decompress(byte[] in, int from, int length, byte[] out) throws IOException;

    @Override
    public final BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
        ByteBuffer page = bytes.toByteBuffer();
        int length = page.remaining();
        byte[] in;
        int from;
        if (page.hasArray()) {
            in = page.array();
            from = page.arrayOffset() + page.position();
        } else {
            in = new byte[length];
            page.duplicate().get(in);
            from = 0;
        }
        return BytesInput.from(decompress(in, from, length, uncompressedSize));
    }

    @Override
    public final void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
            throws IOException {
        byte[] in = new byte[compressedSize];
        input.duplicate().get(in);
        output.duplicate().put(decompress(in, 0, compressedSize, uncompressedSize));
    }

    private byte[] decompress(byte[] in, int from, int length, int uncompressedSize) throws IOException {
        if (uncompressedSize < 0) {
            throw new IOException(codec + " page of " + length + " bytes gives a negative uncompressed size "
                    + uncompressedSize);
        }
        if (length == 0 && uncompressedSize == 0) {
            return new byte[0]; // parquet-java's compressors write an empty page as no bytes at all (Snappy among them)
        }
        byte[] out = new byte[uncompressedSize];
        int n;
        try {
            n = decompress(in, from, length, out);
        } catch (IOException | RuntimeException e) {
            throw new IOException(codec + " page of " + length + " bytes does not decompress to the "
                    + uncompressedSize + " bytes its header gives: " + e.getMessage(), e);
        }
        if (n != uncompressedSize) {
            throw new IOException(codec + " page of " + length + " bytes decompresses to " + n
                    + " bytes, its header gives " + uncompressedSize);
        }
        return out;
    }

    @Override
    public void release() {
    }
}
