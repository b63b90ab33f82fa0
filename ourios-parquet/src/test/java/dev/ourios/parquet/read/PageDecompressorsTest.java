package dev.ourios.parquet.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.testkit.TestSeed;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Random;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopCodecs;
import org.junit.jupiter.api.Test;

/**
 * The reader's ZSTD pages decompress to exactly what parquet-java's own codec gives, for pages parquet-java's codec
 * compressed (seeded random pages of every compressibility, empty ones included, several in a row through one
 * context), and a corrupt or short page is an error, never a wrong page.
 */
class PageDecompressorsTest {
    private static CompressionCodecFactory parquetJava() {
        return HadoopCodecs.newFactory(new PlainParquetConfiguration(), 0);
    }

    @Test
    void zstdPagesMatchParquetJavasCodec() throws IOException {
        long seed = TestSeed.announce(PageDecompressorsTest.class);
        Random random = new Random(seed);
        CompressionCodecFactory reference = parquetJava();
        PageDecompressors ours = new PageDecompressors();
        try {
            for (int i = 0; i < 200; i++) {
                byte[] page = new byte[random.nextInt(4) == 0 ? random.nextInt(16) : random.nextInt(300_000)];
                int alphabet = 1 + random.nextInt(256); // from one repeated byte to incompressible
                for (int j = 0; j < page.length; j++) {
                    page[j] = (byte) random.nextInt(alphabet);
                }
                BytesInput compressed = BytesInput.copy(reference.getCompressor(CompressionCodecName.ZSTD)
                        .compress(BytesInput.from(page)));
                byte[] expected = reference.getDecompressor(CompressionCodecName.ZSTD)
                        .decompress(compressed, page.length).toByteArray();
                assertArrayEquals(page, expected, "parquet-java's own round trip, page " + i);
                assertArrayEquals(expected, ours.getDecompressor(CompressionCodecName.ZSTD)
                        .decompress(compressed, page.length).toByteArray(), "page " + i + ", seed " + seed);
                // A page as a reader holds it: a view into a chunk's larger buffer, on or off the heap.
                byte[] bytes = compressed.toByteArray();
                int offset = random.nextInt(64);
                byte[] chunk = new byte[offset + bytes.length + random.nextInt(64)];
                System.arraycopy(bytes, 0, chunk, offset, bytes.length);
                BytesInput inChunk = BytesInput.from(ByteBuffer.wrap(chunk, offset, bytes.length).slice());
                assertArrayEquals(expected, ours.getDecompressor(CompressionCodecName.ZSTD)
                        .decompress(inChunk, page.length).toByteArray(), "page " + i + " in a chunk, seed " + seed);
                ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
                assertArrayEquals(expected, ours.getDecompressor(CompressionCodecName.ZSTD)
                        .decompress(BytesInput.from(direct), page.length).toByteArray(),
                        "page " + i + " off the heap, seed " + seed);
                ByteBuffer out = ByteBuffer.allocate(page.length);
                byte[] in = compressed.toByteArray();
                ours.getDecompressor(CompressionCodecName.ZSTD).decompress(ByteBuffer.wrap(in), in.length, out,
                        page.length);
                assertArrayEquals(expected, out.array(), "page " + i + " through buffers, seed " + seed);
            }
        } finally {
            ours.release();
            reference.release();
        }
    }

    @Test
    void aCorruptOrShortPageIsAnError() throws IOException {
        CompressionCodecFactory reference = parquetJava();
        PageDecompressors ours = new PageDecompressors();
        try {
            byte[] page = new byte[10_000];
            new Random(7).nextBytes(page);
            byte[] compressed = reference.getCompressor(CompressionCodecName.ZSTD).compress(BytesInput.from(page))
                    .toByteArray();
            IOException longer = assertThrows(IOException.class, () -> ours.getDecompressor(CompressionCodecName.ZSTD)
                    .decompress(BytesInput.from(compressed), page.length + 1));
            assertTrue(longer.getMessage().contains("its header gives " + (page.length + 1)), longer.getMessage());
            assertThrows(IOException.class, () -> ours.getDecompressor(CompressionCodecName.ZSTD)
                    .decompress(BytesInput.from(compressed), page.length - 1));
            byte[] corrupt = compressed.clone();
            corrupt[corrupt.length / 2] ^= (byte) 0x5a;
            corrupt[4] ^= (byte) 0xff;
            assertThrows(IOException.class, () -> ours.getDecompressor(CompressionCodecName.ZSTD)
                    .decompress(BytesInput.from(corrupt), page.length));
        } finally {
            ours.release();
            reference.release();
        }
    }
}
