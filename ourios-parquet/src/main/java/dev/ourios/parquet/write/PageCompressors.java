package dev.ourios.parquet.write;

import dev.ourios.parquet.internal.PerThreadPool;
import java.util.concurrent.Future;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Helper threads that ZSTD-compress a compacted file's data pages while the column writers shred the next rows.
 * Compressed inline when a page fills, compression is a large share of the column-writer threads' time, and the
 * slower of the two column slices holds up the other slice and the compacting thread; a page handed here is
 * compressed by whichever helper is free. Each thread has its own parquet-java compressor (they are not
 * thread-safe), made from the same configuration as the writer's own, so a page's compressed bytes are the same
 * whichever thread compressed it, and the same as inline compression.
 */
final class PageCompressors implements AutoCloseable {
    private final PerThreadPool<CodecFactory> pool;

    PageCompressors(int threads, ParquetConfiguration codecConf, String threadName) {
        this.pool = new PerThreadPool<>(threads, threadName, () -> new CodecFactory(codecConf, 0),
                CodecFactory::release);
    }

    /**
     * Compresses {@code page[0, length)} on a helper; the caller must not change the array until the result is in.
     */
    Future<BytesInput> compress(byte[] page, int length) {
        // The compressor's result is a view of its reused output buffer: copied before the next page overwrites it.
        return pool.submit(codecs -> BytesInput.from(codecs.getCompressor(CompressionCodecName.ZSTD)
                .compress(BytesInput.from(page, 0, length)).toByteArray()));
    }

    @Override
    public void close() {
        pool.close();
    }
}
