package dev.ourios.parquet.read;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputDecompressor;

/** UNCOMPRESSED pages: the page itself, whose size must be the one its header gives. */
final class UncompressedPageCodec implements BytesInputDecompressor {
    @Override
    public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
        if (bytes.size() != uncompressedSize) {
            throw new IOException("UNCOMPRESSED page of " + bytes.size() + " bytes, its header gives "
                    + uncompressedSize);
        }
        return bytes;
    }

    @Override
    public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
            throws IOException {
        if (compressedSize != uncompressedSize) {
            throw new IOException("UNCOMPRESSED page of " + compressedSize + " bytes, its header gives "
                    + uncompressedSize);
        }
        ByteBuffer in = input.duplicate();
        in.limit(in.position() + compressedSize);
        output.duplicate().put(in);
    }

    @Override
    public void release() {
    }
}
